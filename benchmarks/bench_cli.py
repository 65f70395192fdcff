"""The `provcat` command as a user starts it: a fresh process per command, against a fresh
process that only imports click (what every click command pays before its own work).

Goal: each command adds at most 50 ms to that start. Measured: `provcat --help`, `provcat
--version`, `provcat cost` and `provcat models --provider openai` (catalog lookups, no endpoint
classes), best of ``RUNS`` processes each, the baseline measured in the same run.
"""

from __future__ import annotations

import subprocess
import sys
import time

from benchmarks import table

RUNS = 9
GOAL_MS = 50.0
_CLI = "import sys; from provcat.cli.main import main; sys.argv[0] = 'provcat'; main()"
COMMANDS = {
    "provcat --help": ["--help"],
    "provcat --version": ["--version"],
    "provcat cost": ["cost", "openai", "gpt-6.1-terra", "--input", "1000", "--output", "200"],
    "provcat models --provider openai": ["models", "--provider", "openai"],
}


def _best(argv: list[str]) -> float:
    """Best wall time in ms of ``RUNS`` fresh interpreters running ``argv``."""
    best = float("inf")
    for _ in range(RUNS):
        started = time.perf_counter()
        subprocess.run([sys.executable, *argv], check=True, capture_output=True)
        best = min(best, time.perf_counter() - started)
    return best * 1e3


def main() -> None:
    floor = _best(["-c", "import click"])
    print(f"fresh python importing click: {floor:.1f} ms (best of {RUNS})")
    for figure, args in COMMANDS.items():
        ours = _best(["-c", _CLI, *args])
        above = ours - floor
        print(f"{figure:<34} {ours:6.1f} ms, {above:+.1f} ms over the baseline")
        table.row(
            "cli",
            f"fresh process: {figure}",
            ours,
            "ms",
            floor,
            "python -c 'import click'",
            goal=f"<= {GOAL_MS:.0f} ms above baseline",
            ratio=ours / floor,
            met=above <= GOAL_MS,
            note=f"{above:+.1f} ms",
        )
