"""The `provcat` command: a group whose commands live in their own modules, each imported when it
is used (so `provcat cost` never pays for the endpoint classes and pydantic, nor `provcat
providers` for the hub's web stack, and a missing optional dependency is named)."""

from __future__ import annotations

import importlib
from typing import Any

import click

from provcat.cli.extras import missing_dependency

# the optional extra a command's own dependencies come from (the others need only the core); a
# hub command that meets a missing one while it runs is answered by provcat.cli.hub_errors
_EXTRA = {"hub": "hub"}

# name -> "module:attribute" of a click command or group
_LAZY: dict[str, str] = {
    "cost": "provcat.cli.models:cost",
    "hub": "provcat.cli.hub:hub",
    "model": "provcat.cli.catalog:model",
    "models": "provcat.cli.models:models",
    "providers": "provcat.cli.catalog:providers",
    "resolve": "provcat.cli.catalog:resolve",
    "tool": "provcat.cli.tool:tool",
}


def _missing(command: str, exc: ModuleNotFoundError) -> click.ClickException:
    """The error for a command whose optional dependency is not installed: which extra to add."""
    return click.ClickException(missing_dependency(command, exc.name, _EXTRA.get(command)))


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *_LAZY])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in _LAZY:
            module_name, _, attr = _LAZY[cmd_name].partition(":")
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                if exc.name and exc.name.startswith("provcat"):
                    return None
                raise _missing(cmd_name, exc) from exc
            command: Any = getattr(module, attr)
            return command  # type: ignore[no-any-return]
        return super().get_command(ctx, cmd_name)


@click.group(cls=_LazyGroup)
@click.version_option(package_name="provcat")
def main() -> None:
    """provcat: the validated catalog of LLM provider adapters."""
