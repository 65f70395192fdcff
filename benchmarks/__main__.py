"""`python -m benchmarks [NAME ...]`: run every `bench_*.py` module (or the named ones).

Each module exposes `main() -> None` and prints its own table. Machines here are shared and noisy,
so a benchmark reports ratios against a baseline it measures in the same run, never absolute goals
alone.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    wanted = [f"bench_{a.removeprefix('bench_')}" for a in argv] or names
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        print(
            f"unknown benchmark(s): {', '.join(unknown)}; have: {', '.join(names)}", file=sys.stderr
        )
        return 2
    for name in wanted:
        print(f"== {name.removeprefix('bench_')} ==", flush=True)
        importlib.import_module(f"benchmarks.{name}").main()
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
