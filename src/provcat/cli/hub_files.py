"""The local files the hub commands read (the ``--manifest`` JSON object, the ``--card``
Markdown) and how a local path is shown: each refused with its path and what is wrong, never
repeating a key or token pasted into the path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from provcat.catalog.keys import closest
from provcat.cli.hub_errors import LOCAL_FILE_ERROR, fail_with
from provcat.hub.card import CARD_MAX_CHARS, check_card
from provcat.hub.errors import ValidationError
from provcat.hub.manifest import AdapterManifest
from provcat.redact import secret_shapes_hidden

__all__ = ["read_card", "read_manifest", "shown_path", "warn_unknown_fields"]


def shown_path(path: Path) -> str:
    """A local path as the output shows it: a key or hub token pasted into it as ``<redacted>``,
    in text and in JSON, as the tool commands show theirs."""
    return secret_shapes_hidden(str(path))


def warn_unknown_fields(document: dict[str, Any], manifest_path: Path) -> None:
    """Unknown fields are stored as extensions (protocol), so a misspelt one would pass silently."""
    known = AdapterManifest.model_fields
    for key in sorted(document):
        if key in known:
            continue
        close = closest(key, known, cutoff=0.75)
        if close is not None:
            click.echo(
                f"provcat hub: warning: {manifest_path}: '{key}' is not a manifest v2 field "
                f"(did you mean '{close}'?); it is stored as an extension field",
                err=True,
            )


def read_manifest(path: Path) -> dict[str, Any]:
    """The ``--manifest`` file's JSON object. One that cannot be used (missing, a directory,
    unreadable, not UTF-8, not JSON, not an object) is ``LocalFileError`` naming the path and what
    is wrong, as every local file a hub command reads or writes (exit 1)."""
    shown = shown_path(path)
    try:
        text = path.read_text(encoding="utf-8")  # an OSError is LocalFileError (HubGroup)
    except UnicodeDecodeError:
        problem = "is not UTF-8 text"
    else:
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            problem = f"is not JSON ({exc})"
        else:
            if isinstance(document, dict):
                return document
            problem = "holds JSON that is not an object"
    fail_with(
        LOCAL_FILE_ERROR,
        f"{shown} {problem}; --manifest is a manifest v2 JSON object",
        {"path": shown},
    )


def read_card(path: Path) -> str:
    """The card file's text; one far over the limit is refused before it is read whole."""
    size = path.stat().st_size
    if size > 4 * CARD_MAX_CHARS:  # more bytes than the most characters could need
        shown = shown_path(path)  # a key pasted as the path is not repeated
        raise ValidationError(
            f"{shown} is {size:,} bytes; a card is at most {CARD_MAX_CHARS:,} characters "
            "(Markdown): shorten it, or link to the longer text",
            {"field": "card", "bytes": size, "limit": CARD_MAX_CHARS},
        )
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise click.UsageError(f"{path} is not UTF-8 text; a card is Markdown") from None
    check_card({"card": text})
    return text
