"""The options every command shares: a closed set of values that answers a misspelling with a
"did you mean", and one ``--format`` (``text`` for people, ``json`` for machines) everywhere."""

from __future__ import annotations

from typing import Any

import click

__all__ = ["FORMATS", "FORMAT_OPTION", "Choice"]

FORMATS = ("text", "json")


class Choice(click.Choice):  # type: ignore[type-arg]
    """``click.Choice`` whose refusal names the closest value ("did you mean 'active'?")."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            # imported here: `python -m generator build` shares this option, and its no-change
            # answer would otherwise pay for importing the catalog package (~9 ms of ~90)
            from provcat.catalog.keys import suggest

            hint = suggest(str(value), [str(c) for c in self.choices])
            if hint is None:
                raise
            raise click.BadParameter(f"{exc.message.rstrip('.')}; {hint}", ctx, param) from None


FORMAT_OPTION = click.option(
    "--format",
    "fmt",
    type=Choice(FORMATS),
    default="text",
    show_default=True,
    help="text for people, json for machines.",
)
