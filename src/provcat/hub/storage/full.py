"""A full disk (or a used-up quota) under the hub's storage: ``507 InsufficientStorageError``,
never a 500 nor a 503 "try again later", as waiting frees no space; only the hub's operator
can. Whatever was being written is removed by its caller, as on any other failure."""

from __future__ import annotations

import errno
import logging

from provcat.hub.errors import InsufficientStorageError

__all__ = ["full_storage_error", "storage_full"]

log = logging.getLogger("provcat.hub")

_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
_SQLITE_FULL = 13  # SQLITE_FULL: "database or disk is full"
_PG_DISK_FULL = "53100"  # SQLSTATE disk_full


def storage_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the storage is full: ``ENOSPC`` or ``EDQUOT`` from the file system,
    or the database's own "disk full" (a SQLAlchemy error carries the driver's as ``orig``)."""
    if isinstance(exc, OSError):
        return exc.errno in _FULL_ERRNOS
    driver = getattr(exc, "orig", None)
    return (
        getattr(driver, "sqlite_errorcode", None) == _SQLITE_FULL
        or getattr(driver, "sqlstate", None) == _PG_DISK_FULL
    )


def full_storage_error(exc: BaseException, doing: str) -> InsufficientStorageError:
    """The error to answer, once the full storage is logged for the operator (neither names a
    path nor quotes SQL)."""
    what = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
    log.error("the hub's storage is full: %s failed (%s)", doing, what)
    return InsufficientStorageError(
        "the hub's storage is full (no space left on its disk, or its quota used up), so "
        "nothing was stored; tell the hub's operator, who must free space or enlarge it",
        {"reason": "storage_full"},
    )
