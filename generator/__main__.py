"""`python -m generator build|check|import|site`.

Its dependencies are the ``generate`` extra's: without them the command says which extra to
install, as a ``provcat`` command does for its own extras, instead of a traceback.
"""

import json
import sys

from provcat.cli.failures import json_requested
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
    message = (
        f"python -m generator: needs the package '{exc.name}', which is not installed; install "
        f"provcat with its 'generate' extra: {install_hint('generate')}"
    )
    if json_requested(sys.argv[1:]):  # as the generator's other errors: one JSON object on stdout
        error = {"ok": False, "error": "MissingDependencyError", "message": message}
        print(json.dumps(error, indent=2))
    else:
        print(message, file=sys.stderr)
    sys.exit(1)
