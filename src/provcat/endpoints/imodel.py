"""iModel: the compatibility facade that classifies legacy ``**kwargs`` (ADR-0028 D1, D4).

lionagi's iModel accepted any keyword and let unknown ones become request data. Here each keyword
is classified: an ``EndpointConfig`` field configures the endpoint, a field of the endpoint's
request model becomes a request default, and anything else is refused with
``EndpointConfigurationError`` and a "did you mean" (issue #25: the deprecation window, in which
such a keyword was dropped with a ``DeprecationWarning`` hidden by default, is over).

``model=`` is a model name, not a model spec: only ``model_kwargs`` applies a spec's policy
(README, "Model specs and policies"), so a name that reads as one with an effort suffix warns.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from provcat.catalog.keys import canonical_key, canonical_provider_key, suggest
from provcat.catalog.publish import current
from provcat.endpoints.compat import compatible_request_model
from provcat.endpoints.config import EndpointConfig
from provcat.endpoints.endpoint import Endpoint
from provcat.endpoints.match import _check_overrides, _compatible, build, target
from provcat.endpoints.registry import EndpointRegistry
from provcat.endpoints.request import field_names
from provcat.endpoints.resolution import Unlisted
from provcat.errors import EndpointConfigurationError
from provcat.models.inventory import with_provider_hint
from provcat.models.reasoning import default_endpoint
from provcat.models.tables import spec_tables
from provcat.redact import secret_shapes_hidden

__all__ = ["iModel"]

_CONFIG_FIELDS = EndpointConfig.field_names() - {
    "provider",
    "endpoint",
    "name",
    "openai_compatible",
}


def _no_provider(model: str | None) -> str:
    """Why iModel cannot choose a provider, with what to write when the catalog knows ``model``
    as a model alias (a spec, which only model_kwargs expands) or lists it under a provider."""
    said = "give provider=, or model='provider/model'"
    if not model:
        return said
    alias = spec_tables(current()).aliases.get(canonical_key(model))
    if alias is not None:
        return (
            f"{said}; '{model}' is a model alias ({alias.target}), which only model_kwargs "
            f"expands: iModel(**model_kwargs('{model}'))"
        )
    listed = with_provider_hint(model)
    return f"{said}; {listed}" if listed else said


class iModel:
    """A resolved endpoint plus the request defaults a caller configured for it.

    It has no call methods of its own: a call goes through the endpoint it holds,
    ``im.endpoint`` (``await im.endpoint.call(request)``, ``im.endpoint.call_sync(request)``,
    ``stream``, ``stream_sync``), whose request defaults hold ``model=`` and the request fields
    given here.

    ``model=`` is the vendor's model name, sent as written (``provider/model`` names the
    provider too); it is not a model spec: a name ending in an effort suffix that the model
    inventory does not list (``gpt-6.1-terra-high``) warns with :class:`UserWarning`, since only
    ``model_kwargs`` applies an effort (``iModel(**model_kwargs("openai/gpt-6.1-terra",
    effort="high"))``).
    """

    def __init__(
        self,
        provider: str | None = None,
        endpoint: str | None = None,
        *,
        model: str | None = None,
        openai_compatible: bool = False,
        request_defaults: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if model is not None and not isinstance(model, str):
            raise TypeError(f"model must be a str, not {type(model).__name__}")
        if provider is None:
            if not model or "/" not in model:
                raise EndpointConfigurationError("provider", _no_provider(model))
            provider, model = model.split("/", 1)
        if not isinstance(provider, str):
            raise TypeError(f"provider must be a str, not {type(provider).__name__}")
        chosen = endpoint is None
        endpoint = self._default_endpoint(provider) if endpoint is None else endpoint
        config = {k: v for k, v in kwargs.items() if k in _CONFIG_FIELDS}
        rest = {k: v for k, v in kwargs.items() if k not in _CONFIG_FIELDS}
        if model is not None:
            rest = {"model": model, **rest}
        if not isinstance(endpoint, str):
            raise TypeError(f"endpoint must be a str, not {type(endpoint).__name__}")
        if request_defaults is not None and not isinstance(request_defaults, Mapping):
            raise TypeError(
                f"request_defaults must be a mapping, not {type(request_defaults).__name__}"
            )
        given_defaults = request_defaults or {}
        twice = sorted(k for k in rest if k in given_defaults and given_defaults[k] != rest[k])
        if twice:  # fail closed: neither silently wins (the same value twice is that value)
            key = twice[0]
            given = "model=" if key == "model" else f"the keyword {key}="
            raise EndpointConfigurationError(
                key,
                f"iModel got '{key}' twice, as {given} and in request_defaults: give it once",
            )
        _check_overrides(config)
        snapshot, found = target(provider, endpoint, openai_compatible, config)  # resolved once
        if isinstance(found, Unlisted):
            request_model = config.get("request_options", compatible_request_model())
        else:
            binding = EndpointRegistry.bind(snapshot, found)
            request_model = binding.config.request_options
            if isinstance(model, str):
                _warn_if_spec(binding.config.provider, model)
        shown = (
            None
            if isinstance(found, Unlisted) or not chosen
            else f"{found.provider}/{found.endpoint}"
        )
        defaults = self._classify(rest, dict(request_defaults or {}), request_model, shown)
        self.endpoint: Endpoint = (
            _compatible(str(found), endpoint, defaults, config)
            if isinstance(found, Unlisted)
            else build(snapshot, found, defaults, config)
        )

    @staticmethod
    def _classify(
        rest: Mapping[str, Any],
        defaults: dict[str, Any],
        request_model: type[BaseModel] | None,
        defaulted: str | None = None,
    ) -> dict[str, Any]:
        """Legacy keywords that are request fields become request defaults; any other is
        refused with a "did you mean", and, when iModel chose the endpoint (``defaulted``, its
        name), with how to name another one: a field of another endpoint (``model_kwargs(spec,
        endpoint="responses")`` puts the effort in that endpoint's field) needs ``endpoint=``."""
        accepted = field_names(request_model) if request_model is not None else None
        for key, value in rest.items():
            if accepted is None or key in accepted:
                defaults[key] = value
                continue
            hint = suggest(key, [*accepted, *_CONFIG_FIELDS])
            close = f" ({hint})" if hint else ""
            raise EndpointConfigurationError(
                key,
                f"iModel keyword '{key}' is neither an endpoint configuration field nor a field "
                f"of {request_model.__name__ if request_model else 'the request'}{close}; pass "
                "request fields by their names (or in request_defaults) and endpoint settings "
                "by EndpointConfig's"
                + (
                    f"; no endpoint= was given, so iModel chose {defaulted}: for a field of "
                    "another endpoint, name it (iModel(endpoint='responses', "
                    "**model_kwargs(spec, endpoint='responses')))"
                    if defaulted
                    else ""
                ),
            )
        return defaults

    @staticmethod
    def _default_endpoint(provider: str) -> str:
        """'chat' where the provider has it, or its successor once the vendor has retired it
        (the endpoint ``model_kwargs`` puts an effort in by default), else the provider's only
        endpoint."""
        snapshot = EndpointRegistry.snapshot()
        owner = snapshot.provider_index.get(canonical_provider_key(provider))
        entry = snapshot.providers.get(owner or "")
        if entry is None:
            return "chat"  # unknown: resolution says so (or a compatible endpoint serves it)
        key = default_endpoint(entry)
        if key is None:
            return ""
        chat = entry.endpoint_index.get("chat")
        if key == chat:
            return "chat"
        assert chat is not None  # a successor stands in for a retired chat only
        since = (entry.endpoints[chat].lifecycle or {}).get("shutdown_date")
        warnings.warn(
            f"{owner}/{chat} is retired{f' since {since}' if since else ''}, so iModel "
            f"chose its successor {owner}/{key}, which takes a request of its own shape; "
            "name the endpoint (endpoint=...) to choose another",
            UserWarning,
            stacklevel=3,
        )
        return key

    @property
    def provider(self) -> str:
        """The canonical provider key (never the caller's raw spelling)."""
        return self.endpoint.config.provider

    @property
    def request_defaults(self) -> dict[str, Any]:
        return self.endpoint.request_defaults

    def __repr__(self) -> str:
        return f"iModel({self.endpoint!r})"


def _warn_if_spec(provider: str, model: str) -> None:
    """Warn when ``model`` is not a model ``provider``'s inventory lists but reads as a model
    spec's model: one with an effort suffix (``gpt-6.1-terra-high``; ``model_kwargs`` would send
    the model and the effort), or with the provider in front (``openai/gpt-6.1-terra`` beside
    ``provider="openai"``). iModel sends it as written."""
    # deferred to an iModel given a model: models.spec is not loaded before (the other two are)
    from provcat.models.inventory import list_models, lookup_model
    from provcat.models.reasoning import split_known
    from provcat.models.spec import split_effort_suffix

    if lookup_model(provider, model) is not None:
        return
    head, slash, rest = model.partition("/")
    named = split_effort_suffix(rest) or (rest, "")  # the model, with an effort or without
    # a provider with no inventory (an agent CLI, `claude_code/sonnet`) cannot list the rest:
    # the provider in front is still the provider given again
    listed = lookup_model(provider, named[0]) is not None or not list_models(provider)
    if slash and canonical_provider_key(head) == provider and listed:
        warnings.warn(
            secret_shapes_hidden(
                f"iModel sends model {model!r} as written, and {provider} lists no such model: "
                f"the provider is given already, so write model={rest!r}"
            ),
            UserWarning,
            stacklevel=3,
        )
        return
    split = split_effort_suffix(model) or split_known(provider, model)
    if split is None:
        return
    name, effort = split
    warnings.warn(
        secret_shapes_hidden(
            f"iModel sends model {model!r} as written: it is a model name, not a model spec, so "
            f"its '-{effort}' is not applied as an effort; for model {name!r} with effort "
            f"{effort!r} write iModel(**model_kwargs({provider + '/' + name!r}, effort={effort!r}))"
        ),
        UserWarning,
        stacklevel=3,
    )
