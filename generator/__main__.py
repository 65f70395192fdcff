"""`python -m generator build|check|import|site`.

Its dependencies are the ``generate`` extra's: without them the command says which extra to
install, as a ``provcat`` command does for its own extras, instead of a traceback.
"""

import errno
import json
import sys

from provcat.cli.failures import json_requested
from provcat.extras import install_hint
from provcat.terminal import printable


def _missing(exc: ModuleNotFoundError) -> bool:
    """Whether ``exc`` is a third-party package missing (not a module of provcat's own)."""
    top = (exc.name or "").partition(".")[0]
    return bool(top) and top not in ("generator", "provcat", "provcat_catalog")


def _say(error: str, message: str, status: int) -> None:
    """``message`` as the generator's other errors say theirs: one JSON object on stdout under
    ``--format json``, else a line on stderr; then exit with ``status``."""
    if json_requested(sys.argv[1:]):
        print(json.dumps({"ok": False, "error": error, "message": message}, indent=2))
    else:  # a control character of a quoted path shown as its escape
        print(printable(message, keep="\n\t"), file=sys.stderr)
    sys.exit(status)


try:
    from generator.cli import main

    main()
except OSError as exc:
    if exc.errno == errno.EPIPE:  # stdout's reader is gone (`| head`): nothing left to say
        sys.exit(1)
    # a path the file system refuses (too long, unreadable, a device): the path and the reason,
    # exit 2 as the commands' own refusals of a path, never a traceback
    where = f"{exc.filename}: " if exc.filename else ""
    todo = "free some space" if exc.errno == errno.ENOSPC else "check the path and its permissions"
    _say("PathError", f"python -m generator: {where}{exc.strerror or exc}; {todo}", 2)
except ModuleNotFoundError as exc:
    if not _missing(exc):
        raise
    message = (
        f"python -m generator: needs the package '{exc.name}', which is not installed; install "
        f"provcat with its 'generate' extra: {install_hint('generate')}"
    )
    _say("MissingDependencyError", message, 1)
