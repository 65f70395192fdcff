"""Every problem of a refused request body, each with a suggestion where one helps: what
:meth:`Endpoint.payload` raises as one :class:`~provcat.errors.RequestValidationError`.

A misspelt field gets the closest field of the (sub)model it was written in; a top-level field
that is an endpoint setting (``timeout``, ``api_key``, ``base_url``, ...: the OpenAI SDK takes
``timeout`` per call) is named as one, with where it goes; a value outside a closed set gets
pydantic's own message, which lists the set. Values are never quoted: a request may hold
anything, a credential included.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ValidationError

from provcat.catalog.keys import suggest
from provcat.errors import RequestProblem

__all__ = ["request_problems"]


def _models(annotation: Any) -> Iterator[type[BaseModel]]:
    """The pydantic models an annotation may hold (through Optional, unions, lists, dicts)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        yield from _models(typing.get_args(annotation)[0])
        return
    if origin is not None or isinstance(annotation, types.UnionType):
        for arg in typing.get_args(annotation):
            yield from _models(arg)


def _names(model: type[BaseModel]) -> set[str]:
    names = set(model.model_fields)
    names.update(f.alias for f in model.model_fields.values() if f.alias)
    return names


def _fields_at(model: type[BaseModel], path: tuple[Any, ...]) -> set[str]:
    """The field names of the model(s) at ``path`` (a pydantic error location without its last
    part), as far as the annotations tell."""
    current: list[type[BaseModel]] = [model]
    for part in path:
        if isinstance(part, int):
            continue  # a list index: same models
        following: list[type[BaseModel]] = []
        for m in current:
            by_alias = {f.alias: f for f in m.model_fields.values() if f.alias}
            field = m.model_fields.get(str(part)) or by_alias.get(str(part))
            if field is not None:
                following.extend(_models(field.annotation))
        if not following:  # a union member's tag (a class name) or a dict key: keep looking
            named = [
                sub
                for m in current
                for f in m.model_fields.values()
                for sub in _models(f.annotation)
                if sub.__name__ == part
            ]
            following = named or current
        current = following
    return {name for m in current for name in _names(m)}


# EndpointConfig fields that are not settings a caller gives (the record's identity)
_NOT_SETTINGS = frozenset({"provider", "endpoint", "name"})


def _setting(name: str) -> str | None:
    """Where ``name`` goes when it is an endpoint setting written into a request, or None."""
    # deferred to a field refused (no cycle): importing problems alone needs no EndpointConfig
    from provcat.endpoints.config import EndpointConfig

    if name in _NOT_SETTINGS or name not in EndpointConfig.field_names():
        return None
    if name == "max_retries":
        return (
            "it is a setting of the call or the endpoint: call(..., max_retries=...) or "
            "match_endpoint(..., max_retries=...)"
        )
    return f"it is an endpoint setting: match_endpoint(..., {name}=...)"


def request_problems(
    model: type[BaseModel], exc: ValidationError, provider: str | None = None
) -> list[RequestProblem]:
    """One :class:`RequestProblem` per error of ``exc``, in pydantic's order; a missing ``model``
    of ``provider``'s endpoint says where the catalog's models are listed."""
    problems: list[RequestProblem] = []
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])
        where = ".".join(str(p) for p in loc) or "request"
        hint = None
        if error["type"] == "missing" and loc == ("model",) and provider:
            hint = (
                f"name the model (`provcat models --provider {provider}` lists those the catalog "
                "knows), in the request or as match_endpoint(..., request_defaults={'model': ...})"
            )
        if error["type"] == "extra_forbidden" and len(loc) == 1:
            setting = _setting(str(loc[0]))
            if setting is not None:  # timeout=5 in a call, as the OpenAI SDK takes it
                problems.append(RequestProblem(where, "is not a request field", setting))
                continue
        if error["type"] == "extra_forbidden" and loc:
            hint = suggest(str(loc[-1]), sorted(_fields_at(model, loc[:-1])))
        elif error["type"] == "literal_error" and isinstance(error.get("input"), str):
            # the closest allowed value (the input itself is matched, never shown)
            allowed = re.findall(r"'([^']*)'", str((error.get("ctx") or {}).get("expected", "")))
            hint = suggest(error["input"], allowed) if allowed else None
        message = own_message(error)
        problems.append(RequestProblem(where, message[:1].lower() + message[1:], hint))
    return problems


def own_message(error: Any) -> str:
    """A pydantic error's message in the words of the validator that raised it (pydantic puts
    "Value error, " or "Assertion failed, " before a validator's own message)."""
    raised = (error.get("ctx") or {}).get("error")
    if error.get("type") in ("value_error", "assertion_error") and raised is not None:
        return str(raised)
    return str(error["msg"])
