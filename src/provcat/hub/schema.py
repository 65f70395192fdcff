"""The manifest v2 JSON Schema: where it lives and how a push is checked against it.

The schema ships inside the wheel as ``provcat/hub/manifest.schema.json``; in an editable checkout
it is read from ``schemas/hub-manifest.schema.json``. ``jsonschema`` is imported only when a
manifest is validated, so importing provcat never pulls it in.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from pathlib import Path
from typing import Any

from provcat.hub.errors import ValidationError
from provcat.patterns import ecma_validator

__all__ = ["manifest_schema", "validate_manifest", "warm_up"]

_REPO_SCHEMA = Path(__file__).resolve().parents[3] / "schemas" / "hub-manifest.schema.json"
MAX_ERRORS = 20


@functools.cache
def _schema_text() -> str:
    packaged = resources.files("provcat.hub").joinpath("manifest.schema.json")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return _REPO_SCHEMA.read_text(encoding="utf-8")


def manifest_schema() -> dict[str, Any]:
    """A fresh copy of the manifest v2 JSON Schema."""
    schema: dict[str, Any] = json.loads(_schema_text())
    return schema


@functools.cache
def _validator() -> Any:
    # jsonschema is imported lazily (the runtime never imports it eagerly), with ``pattern`` read
    # as JSON Schema means it: ``$`` is the end of the text (provcat.patterns)
    return ecma_validator()(manifest_schema())


def warm_up() -> None:
    """Import jsonschema and build the validator now (a server calls this at start), so the
    first push does not pay for it."""
    _validator().is_valid({"manifest_version": 2})


def validate_manifest(document: object) -> None:
    """Raise ValidationError listing every schema violation (sorted by JSON path)."""
    errors = sorted(
        _validator().iter_errors(document),
        key=lambda e: (list(map(str, e.absolute_path)), e.message),
    )
    if not errors:
        return
    problems = [
        {"path": "/" + "/".join(str(p) for p in e.absolute_path), "message": _short(e)}
        for e in errors[:MAX_ERRORS]
    ]
    first = problems[0]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    raise ValidationError(
        f"the manifest does not match the manifest v2 schema: {first['path']}: "
        f"{first['message']}{more}",
        {"problems": problems},
    )


def _short(error: Any) -> str:
    """What is wrong, with the limit; jsonschema's message leads with the whole offending value,
    so a long value is quoted only in part, and never at the cost of the reason."""
    kind, limit, value = error.validator, error.validator_value, error.instance
    if kind in ("maxLength", "minLength") and isinstance(value, str):
        bound = "at most" if kind == "maxLength" else "at least"
        wrong = "too long" if kind == "maxLength" else "too short"
        return f"{_quote(value)} is {wrong}: {len(value):,} characters, {bound} {limit:,}"
    if kind in ("maxItems", "minItems") and isinstance(value, list):
        bound = "at most" if kind == "maxItems" else "at least"
        wrong = "too many" if kind == "maxItems" else "too few"
        return f"{wrong} items: {len(value):,}, {bound} {limit:,}"
    message = str(error.message)
    if len(message) <= 200:
        return message
    shown = repr(value)
    if shown in message:
        message = message.replace(shown, _quote(value), 1)
    return message if len(message) <= 200 else message[:197] + "..."


def _quote(value: object, keep: int = 40) -> str:
    """``value``'s repr, cut to about ``keep`` characters (a list is named by its size)."""
    if isinstance(value, str):
        return repr(value) if len(value) <= keep else repr(value[:keep]) + "…"
    if isinstance(value, list | dict):
        shown = repr(value)
        return shown if len(shown) <= keep else f"a {type(value).__name__} of {len(value)} items"
    shown = repr(value)
    return shown if len(shown) <= keep else shown[:keep] + "…"
