"""What a command says when an optional dependency is missing: the extra that brings it."""

from __future__ import annotations

from provcat.extras import install_hint

__all__ = ["missing_dependency"]


def missing_dependency(command: str, module: str | None, extra: str | None) -> str:
    """The message for ``provcat COMMAND`` run without ``module`` (from ``extra``, if any)."""
    fix = (
        f"install provcat with its '{extra}' extra: {install_hint(extra)}"
        if extra
        else "reinstall provcat (README, Install)"
    )
    return f"`provcat {command}` needs the package '{module}', which is not installed; {fix}"
