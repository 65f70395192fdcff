"""What models.dev says that the catalog has no field for, sorted into kinds: each kind is one
warning for the whole import (``ModelMapper.left_out`` in generator.importers.model_facts, which
tallies the models), so a fact thousands of models give is reported once, not per model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# what models.dev says that the catalog has no field for, by kind: (what it is, what the import
# did). Each kind is one warning for the whole import (``ModelMapper.left_out``), naming how many
# models give it and where the first does: thousands of models give some of them.
LEFT_OUT = {
    "reasoning_options.toggle": (
        "reasoning_options of type 'toggle' (reasoning that can be switched on and off)",
        "the catalog keeps `reasoning` (true or false) and `reasoning_efforts` only",
    ),
    "reasoning_options.budget_tokens": (
        "reasoning_options of type 'budget_tokens' (a reasoning token budget, with its "
        "`min` and `max`)",
        "the catalog has no field for a reasoning budget",
    ),
    "interleaved": (
        "`interleaved` (interleaved reasoning, and the message field that carries it)",
        "the catalog has no field for it",
    ),
}


@dataclass
class LeftOut:
    """One kind of fact the catalog has no field for: where it first appears, and on how many
    models."""

    what: str
    did: str
    first: tuple[str, int, int]
    example: str
    models: int = 1


def left_out_kinds(facts: dict[str, Any]) -> dict[str, tuple[str, str, str]]:
    """The kinds of fact of ``facts`` the catalog has no field for: kind -> (what it is, what the
    import did, the dotted key to point at)."""
    kinds: dict[str, tuple[str, str, str]] = {}
    for option in facts.get("reasoning_options") or []:
        kind = option.get("type") if isinstance(option, dict) else None
        if kind == "effort":  # `reasoning_efforts`
            continue
        name = f"reasoning_options.{kind}" if isinstance(kind, str) else "reasoning_options"
        what, did = LEFT_OUT.get(
            name,
            (
                f"reasoning_options of type {kind!r}"
                if isinstance(kind, str)
                else "reasoning_options entries without a type",
                "the catalog keeps `reasoning_efforts` (the `effort` options) only",
            ),
        )
        kinds[name] = (what, did, "reasoning_options")
    if "interleaved" in facts:
        what, did = LEFT_OUT["interleaved"]
        kinds["interleaved"] = (what, did, "interleaved")
    experimental = facts.get("experimental")
    if experimental is not None:
        tables = experimental if isinstance(experimental, dict) else {"": experimental}
        for key, value in sorted(tables.items()):
            if key == "modes" and isinstance(value, dict):
                for mode in sorted(value):  # models.dev's fast mode: `experimental.modes.fast`
                    name = f"experimental.modes.{mode}"
                    kinds[name] = (
                        f"`{name}` (the prices of the model's {mode} mode, and the request "
                        "fields that select it)",
                        "the catalog has no price field for a mode; the model's standard prices "
                        "are imported",
                        name,
                    )
            else:
                name = f"experimental.{key}" if key else "experimental"
                kinds[name] = (f"`{name}`", "the catalog has no field for it", name)
    return kinds
