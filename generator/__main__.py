"""`python -m generator build|check|import|site`.

Its dependencies are the ``generate`` extra's: without them the command says which extra to
install, as a ``provcat`` command does for its own extras, instead of a traceback.
"""

import sys

from provcat.extras import install_hint


def _missing(exc: ModuleNotFoundError) -> bool:
    """Whether ``exc`` is a third-party package missing (not a module of provcat's own)."""
    top = (exc.name or "").partition(".")[0]
    return bool(top) and top not in ("generator", "provcat", "provcat_catalog")


try:
    from generator.cli import main

    main()
except ModuleNotFoundError as exc:
    if not _missing(exc):
        raise
    print(
        f"python -m generator: needs the package '{exc.name}', which is not installed; install "
        f"provcat with its 'generate' extra: {install_hint('generate')}",
        file=sys.stderr,
    )
    sys.exit(1)
