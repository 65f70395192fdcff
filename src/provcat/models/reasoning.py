"""Where an effort suffix goes when the provider's policy says nothing about efforts: the model's
declared efforts (the inventory's ``reasoning_efforts``) decide whether it is taken, and the
endpoint it is for decides the request field that carries it: its protocol's field, or else the
one its request model declares (a Responses-shaped body: ``reasoning.effort``). The endpoint's
request model is imported for that by reference, as the registry does.

The fields, from each protocol's request reference:

- Chat Completions: ``reasoning_effort``
  (https://developers.openai.com/api/reference/chat/create#chat-create-reasoning_effort;
  Gemini's OpenAI-compatible surface takes the same field:
  https://ai.google.dev/gemini-api/docs/openai#thinking);
- Responses: ``reasoning.effort``
  (https://developers.openai.com/api/reference/responses/create#responses-create-reasoning);
- Messages: ``output_config.effort`` (https://platform.claude.com/docs/en/build-with-claude/effort).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, get_args

from provcat.catalog.keys import canonical_key
from provcat.catalog.snapshot import CatalogSnapshot, ProviderEntry
from provcat.errors import EndpointNotFound
from provcat.models.effort import EFFORT_LEVELS
from provcat.models.inventory import ModelInfo, lookup_model

__all__ = ["EFFORT_FIELDS", "effort_field", "endpoint_key", "inventory_effort"]

EFFORT_FIELDS: Mapping[str, tuple[str, ...]] = {
    "openai-chat": ("reasoning_effort",),
    "anthropic-messages": ("output_config", "effort"),
}
# An endpoint with a request model of its own (Responses-shaped bodies: OpenAI's, xAI's,
# Perplexity's Agent API) carries the effort where that model declares it, in this order.
_MODEL_FIELDS: tuple[tuple[str, ...], ...] = (
    ("reasoning_effort",),
    ("reasoning", "effort"),
    ("output_config", "effort"),
)


def _declares(model: Any, path: tuple[str, ...]) -> bool:
    """Whether the pydantic model ``model`` has the (nested) field ``path``."""
    for part in path:
        fields = getattr(model, "model_fields", None)
        if not isinstance(fields, Mapping) or part not in fields:
            return False
        annotation = fields[part].annotation
        # the nested model of an optional field (``Reasoning | None``), if any
        model = next(
            (a for a in (annotation, *get_args(annotation)) if hasattr(a, "model_fields")), None
        )
    return True


def _model_field(reference: str | None) -> tuple[str, ...] | None:
    """The effort field the request model at ``reference`` ("module:Name") declares, or None
    (no model, a factory, or no such field)."""
    if reference is None:
        return None
    module, _, name = reference.partition(":")
    try:
        model = getattr(importlib.import_module(module), name, None)
    except Exception:  # a provider that cannot be imported (a missing extra, a broken module:
        # the registry marks it unavailable) has no field known here either
        return None
    return next((path for path in _MODEL_FIELDS if _declares(model, path)), None)


def endpoint_key(snapshot: CatalogSnapshot, provider: str, endpoint: str) -> str:
    """The canonical key of the endpoint ``endpoint`` (any spelling) of canonical ``provider``;
    :class:`EndpointNotFound` in the words and with the "did you mean" of ``match_endpoint``
    when the provider has no such endpoint (an empty one names the provider's only endpoint)."""
    entry = snapshot.providers[provider]
    ekey = canonical_key(endpoint)
    if not ekey and entry.endpoints:
        if len(entry.endpoints) == 1:
            return next(iter(entry.endpoints))
        reason = f"{provider} has {len(entry.endpoints)} endpoints: name one"
        raise EndpointNotFound(provider, ekey, entry.available_endpoints(), reason=reason)
    key = entry.endpoint_index.get(ekey)
    if key is None:
        raise snapshot.unknown_endpoint(provider, ekey)
    return key


def effort_field(
    snapshot: CatalogSnapshot, provider: str, endpoint: str | None = None
) -> tuple[tuple[str, ...] | None, str]:
    """The request field (a path) that carries an effort for ``endpoint`` of canonical
    ``provider``, or None, and the endpoint's name for messages. Without ``endpoint``: the
    provider's ``chat`` endpoint, or its successor once the vendor has retired it (None when it
    has none). An endpoint the provider does not have is :class:`EndpointNotFound`."""
    if endpoint is not None:
        entry = snapshot.providers[provider]
        key: str | None = endpoint_key(snapshot, provider, endpoint)
    else:
        found = snapshot.providers.get(provider)
        if found is None:
            return None, f"{provider}/chat"
        entry, key = found, default_endpoint(found)
    if key is None:
        return None, f"{provider}/chat"
    record = entry.endpoints[key]
    field = EFFORT_FIELDS.get(record.protocol or "") or _model_field(record.request_options)
    return field, f"{provider}/{key}"


def default_endpoint(entry: ProviderEntry) -> str | None:
    """The endpoint a model spec goes to when the caller names none (``model_kwargs``' effort
    field, ``iModel``): the provider's ``chat``, or its successor once the vendor has retired it;
    None when the provider has no ``chat``."""
    key = entry.endpoint_index.get("chat")
    if key is None:
        return None
    life = entry.endpoints[key].lifecycle
    if life and life["status"] == "retired" and life["successor"]:
        return str(life["successor"])
    return key


def _nested(path: tuple[str, ...], value: str) -> dict[str, Any]:
    result: Any = value
    for part in reversed(path):
        result = {part: result}
    assert isinstance(result, dict)
    return result


def split_known(provider: str, name: str) -> tuple[str, str] | None:
    """``(model, effort)`` when ``name`` is not a model the inventory lists but ends in an effort
    suffix after a model it does (``openai/gpt-oss-120b-high``: a vendor id with a ``/``, whose
    suffix the spec grammar keeps literal)."""
    base, _, suffix = name.rpartition("-")
    level = suffix.lower() if suffix.isascii() else suffix
    if not base or level not in EFFORT_LEVELS or lookup_model(provider, name) is not None:
        return None
    return (base, level) if lookup_model(provider, base) is not None else None


def inventory_effort(
    snapshot: CatalogSnapshot, provider: str, name: str, effort: str, endpoint: str | None
) -> tuple[dict[str, Any], str | None]:
    """The request fields for ``effort`` on model ``name`` of ``provider``, or no fields and why
    the effort cannot be sent (the model declares other efforts, none, or is not listed)."""
    info: ModelInfo | None = lookup_model(provider, name)
    if info is None:
        return {}, (
            "the inventory does not list the model, so its efforts are unknown "
            "(pass the vendor's effort field yourself)"
        )
    if not info.reasoning_efforts:
        return {}, "the inventory declares no reasoning efforts for the model"
    if effort not in info.reasoning_efforts:
        return {}, f"the model's efforts are {', '.join(info.reasoning_efforts)}"
    field, shown = effort_field(snapshot, provider, endpoint)
    if field is None:
        return {}, (
            f"provcat knows no effort field for {shown} (its request model declares none of "
            "reasoning_effort, reasoning.effort, output_config.effort)"
        )
    return _nested(field, effort), None
