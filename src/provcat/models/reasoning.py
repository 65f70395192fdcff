"""Where an effort suffix goes when the provider's policy says nothing about efforts: the model's
declared efforts (the inventory's ``reasoning_efforts``) decide whether it is taken, and the
protocol of the endpoint it is for decides the request field that carries it.

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

from collections.abc import Mapping
from typing import Any

from provcat.catalog.keys import canonical_key
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.models.effort import EFFORT_LEVELS
from provcat.models.inventory import ModelInfo, lookup_model

__all__ = ["EFFORT_FIELDS", "RESPONSES_FIELD", "effort_field", "inventory_effort"]

EFFORT_FIELDS: Mapping[str, tuple[str, ...]] = {
    "openai-chat": ("reasoning_effort",),
    "anthropic-messages": ("output_config", "effort"),
}
# An endpoint whose canonical key is "responses" speaks the Responses API (OpenAI's, xAI's).
RESPONSES_FIELD: tuple[str, ...] = ("reasoning", "effort")


def effort_field(
    snapshot: CatalogSnapshot, provider: str, endpoint: str | None = None
) -> tuple[tuple[str, ...] | None, str]:
    """The request field (a path) that carries an effort for ``endpoint`` of canonical
    ``provider`` (default: its ``chat`` endpoint), or None, and the endpoint's name for messages."""
    entry = snapshot.providers.get(provider)
    spelling = canonical_key(endpoint) if endpoint is not None else "chat"
    key = entry.endpoint_index.get(spelling) if entry is not None else None
    if entry is None or key is None:
        return None, f"{provider}/{endpoint or 'chat'}"
    record = entry.endpoints[key]
    if key == "responses":
        return RESPONSES_FIELD, f"{provider}/{key}"
    return EFFORT_FIELDS.get(record.protocol or ""), f"{provider}/{key}"


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
            f"provcat knows no effort field for {shown} (fields are known for Chat "
            "Completions, Responses and Messages endpoints)"
        )
    return _nested(field, effort), None
