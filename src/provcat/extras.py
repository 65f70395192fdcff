"""How to install an optional extra, in the words every "needs the package" message uses.

A clone set up by ``make`` runs provcat as an editable install (the clone's code and snapshot); a
plain ``pip install '.[extra]'`` there would replace it with a copy that ``make generate`` never
updates, so from a source tree the fix keeps the install editable.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["install_hint"]

_INSTALLED = {"site-packages", "dist-packages"}


def install_hint(extra: str) -> str:
    """The command that installs ``extra`` for the provcat that is running."""
    if _INSTALLED.isdisjoint(Path(__file__).resolve().parts):  # a source tree: stay editable
        return (
            f"pip install -e '.[{extra}]' in your provcat clone, which keeps its editable install"
        )
    return f"pip install '.[{extra}]' in a provcat clone, as the README's Install section shows"
