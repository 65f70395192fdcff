"""The `provcat` command. Subcommand groups are imported only when used, so `provcat providers`
never pays for the hub's web stack."""

from __future__ import annotations

import importlib
from typing import Any

import click

# name -> "module:attribute" of a click command or group
_LAZY: dict[str, str] = {
    "hub": "provcat.hub.cli:hub",
    "tool": "provcat.toolschema.cli:tool",
}


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
                raise click.ClickException(
                    f"`provcat {cmd_name}` needs the optional dependency '{exc.name}': "
                    f"install provcat[{cmd_name}]"
                ) from exc
            command: Any = getattr(module, attr)
            return command  # type: ignore[no-any-return]
        return super().get_command(ctx, cmd_name)


@click.group(cls=_LazyGroup)
@click.version_option(package_name="provcat")
def main() -> None:
    """provcat: the validated catalog of LLM provider adapters."""
