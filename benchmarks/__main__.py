"""`python -m benchmarks [NAME ...]`: run every `bench_*.py` module (or the named ones) and print
one table of every figure (benchmarks.table).

Each module exposes `main() -> None` and records its figures with `benchmarks.table.row`. What a
module prints besides is its detail: it goes to `build/bench/<name>.log`, so the terminal shows
the one table. Machines here are shared and noisy, so a benchmark reports ratios against a
baseline it measures in the same run, never absolute goals alone. A module that fails, or records
nothing, is a row of the table that says so; the other benchmarks still run.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import pkgutil
import sys
import time
import traceback
from pathlib import Path

from benchmarks import table

LOGS = Path(__file__).resolve().parent.parent / "build" / "bench"
# HTTP clients that log every request at INFO. A baseline library may configure the root logger
# at INFO when it is imported (lionagi's provider modules call logging.basicConfig), and from then
# on each request a later benchmark makes would print a line to the terminal, past the table.
QUIET_LOGGERS = ("httpx", "httpx2")


def quiet_http_logs() -> None:
    """Keep the HTTP clients' per-request INFO lines out of the terminal (warnings still show)."""
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


def main(argv: list[str]) -> int:
    quiet_http_logs()
    here = Path(__file__).resolve().parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    wanted = [f"bench_{a.removeprefix('bench_')}" for a in argv] or names
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        print(
            f"unknown benchmark(s): {', '.join(unknown)}; have: {', '.join(names)}", file=sys.stderr
        )
        return 2
    LOGS.mkdir(parents=True, exist_ok=True)
    for name in wanted:
        short = name.removeprefix("bench_")
        log = LOGS / f"{short}.log"
        before = len(table.ROWS)
        started = time.perf_counter()
        print(f"running {short} ...", end=" ", flush=True, file=sys.stderr)
        with open(log, "w", encoding="utf-8") as handle, contextlib.redirect_stdout(handle):
            try:
                importlib.import_module(f"benchmarks.{name}").main()
            except Exception as exc:  # one broken benchmark must not hide the others
                traceback.print_exc(file=handle)
                table.row(short, "(the benchmark failed)", None, "", note=f"{exc!r}; see {log}")
        if len(table.ROWS) == before:
            table.row(short, "(no figures recorded in the table)", None, "", note=f"see {log}")
        print(f"{time.perf_counter() - started:.0f}s", file=sys.stderr, flush=True)
    print(table.render(table.ROWS))
    print(f"(each benchmark's own output: {LOGS.relative_to(LOGS.parent.parent)}/<name>.log)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
