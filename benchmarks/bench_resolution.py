"""Endpoint resolution and cold start: provcat against lionagi 0.36.0 in the same run.

Budgets (issue 24): repeated ``match_endpoint`` (resolution + construction) at least 10x faster
than lionagi's; a fresh process's ``import provcat`` + first ``match_endpoint`` within 30 ms of a
fresh interpreter that imports pydantic and defines one model (the floor any pydantic-based
catalog pays), and at most 1/4 of lionagi's. Resolution alone and ``import provcat`` + the first
``resolve`` (the record, no instance) are printed beside them.
lionagi has no lookup without construction, so "resolution alone" for lionagi runs its registry
scan with every entry's class swapped for a no-op; "with construction" compares the public
``match_endpoint`` of both.

Cold start is the median wall time of a fresh interpreter, over runs interleaved with lionagi's and
the floors' (each round runs every one of them once), so that all see the same machine load.
provcat's own modules are byte-compiled first, as installing a wheel does: lionagi's modules were
compiled when pip installed them, while an editable checkout under ``PYTHONDONTWRITEBYTECODE=1``
would otherwise recompile provcat's source in every fresh process, a cost no installed user pays.
Two floors are printed: a fresh interpreter that only imports pydantic's ``BaseModel``, and one
that also defines one (deferred) model class. The second is the part of the budget that any
pydantic-based catalog pays: the first model class imports ``pydantic.fields`` and with it
``pydantic.types``, ``annotated_types`` and ``secrets``.
"""

from __future__ import annotations

import compileall
import re
import statistics
import subprocess
import sys
import timeit
from collections.abc import Callable
from typing import Any

from benchmarks import table

# spellings both libraries accept (lionagi compares endpoint keys case-sensitively)
LOOKUPS = [
    ("openai", "chat"),
    ("anthropic", "messages"),
    ("claude", "cli"),
    ("exa", "findSimilar"),
    ("nvidia", "embed"),
    ("ag2", "nlip"),
]


def _per_call(fn: Callable[[], Any], number: int) -> float:
    """Seconds per call: the best of 9 repeats of ``number`` calls (the least disturbed by the
    other work on a shared machine, as timeit recommends)."""
    runs = timeit.repeat(fn, number=number, repeat=9)
    return min(runs) / number


def _cold(codes: dict[str, str], rounds: int = 7) -> dict[str, float]:
    """Median wall seconds of a fresh interpreter running each of ``codes``.

    The runs are interleaved, one of each code per round with the order rotated every round, so
    that a figure and the baseline it is divided by see the same load on a shared machine (run one
    after the other, a burst of other work lands on one of them and moves the ratio)."""
    names = list(codes)
    times: dict[str, list[float]] = {name: [] for name in names}
    for turn in range(rounds):
        for name in names[turn % len(names) :] + names[: turn % len(names)]:
            # on lines of their own: a code may end inside a block (the model floor's class)
            timer = "import time\nt = time.perf_counter()\n" + codes[name].rstrip("\n")
            timer += "\nprint(time.perf_counter() - t)\n"
            out = subprocess.run(
                [sys.executable, "-c", timer], capture_output=True, text=True, check=True
            )
            times[name].append(float(out.stdout.strip().splitlines()[-1]))
    return {name: statistics.median(values) for name, values in times.items()}


def _byte_compile_provcat() -> bool:
    """Write the bytecode of provcat's runtime and snapshot packages (what a wheel install does).

    Returns False when a package directory cannot be written (then the source is compiled in
    every fresh process, as before)."""
    import provcat_catalog

    import provcat

    skip = re.compile(r"[/\\](toolschema|hub)[/\\]")  # not on the cold path
    ok = True
    for package in (provcat, provcat_catalog):
        for path in package.__path__:
            ok = compileall.compile_dir(path, quiet=2, rx=skip) and ok
    return ok


def main() -> None:
    import warnings

    from provcat import match_endpoint, resolve

    try:
        from lionagi.service.connections.match_endpoint import match_endpoint as lion_match
        from lionagi.service.connections.registry import EndpointRegistry as LionRegistry
    except ImportError:
        print("lionagi 0.36.0 is not installed: run `make bench` (it installs the bench extra)")
        table.missing("resolution", "resolution and cold start", "lionagi 0.36.0", ">= 10x faster")
        return
    warnings.simplefilter("ignore")
    LionRegistry._ensure_loaded()
    originals = [(e, e.cls) for e in LionRegistry._entries]

    def lion_construct() -> None:
        for provider, endpoint in LOOKUPS:
            lion_match(provider, endpoint)

    def lion_scan() -> None:
        for provider, endpoint in LOOKUPS:
            LionRegistry._match_registered(provider, endpoint, {})

    def ours_resolve() -> None:
        for provider, endpoint in LOOKUPS:
            resolve(provider, endpoint)

    def ours_construct() -> None:
        for provider, endpoint in LOOKUPS:
            match_endpoint(provider, endpoint)

    def empty_loop() -> None:
        for _provider, _endpoint in LOOKUPS:
            pass

    n = len(LOOKUPS)
    loop = _per_call(empty_loop, 20000)  # the harness's own loop, taken out of every figure
    ours_r = (_per_call(ours_resolve, 2000) - loop) / n
    ours_c = (_per_call(ours_construct, 300) - loop) / n
    lion_c = (_per_call(lion_construct, 100) - loop) / n
    for entry, _ in originals:
        entry.cls = lambda *a, **k: None
    try:
        lion_r = (_per_call(lion_scan, 500) - loop) / n
    finally:
        for entry, cls in originals:
            entry.cls = cls

    compiled = _byte_compile_provcat()
    cold = _cold(
        {
            "match": "import provcat; provcat.match_endpoint('openai', 'chat')",
            "record": "import provcat; provcat.resolve('openai', 'chat')",
            "floor": "from pydantic import BaseModel",
            "model floor": "from pydantic import BaseModel, ConfigDict\n"
            "class Model(BaseModel):\n"
            "    model_config = ConfigDict(defer_build=True)\n"
            "    field: int = 0\n",
            "lionagi": "import warnings; warnings.simplefilter('ignore'); "
            "from lionagi.service.connections.match_endpoint import match_endpoint; "
            "match_endpoint('openai', 'chat')",
        }
    )
    ours_cold, ours_record, lion_cold = cold["match"], cold["record"], cold["lionagi"]
    rows = [
        ("resolution alone", ours_r, lion_r, None),
        ("resolution + construction", ours_c, lion_c, 10.0),
    ]
    print(f"{'measure':28} {'provcat':>12} {'lionagi':>12} {'speed-up':>9}  goal")
    for name, ours, lion, goal in rows:
        ratio = lion / ours
        verdict = "" if goal is None else f">= {goal:.0f}x {'met' if ratio >= goal else 'NOT met'}"
        print(f"{name:28} {ours * 1e6:10.2f}us {lion * 1e6:10.2f}us {ratio:8.1f}x  {verdict}")
        table.row(
            "resolution",
            name,
            ours * 1e6,
            "us",
            lion * 1e6,
            "lionagi",
            goal="" if goal is None else f">= {goal:.0f}x faster",
            ratio=ratio,
            met=None if goal is None else ratio >= goal,
        )
    floor = cold["model floor"]
    over = ours_cold - floor
    share = ours_cold / lion_cold
    met = over <= 0.030 and share <= 0.25
    print(
        f"{'cold start: match_endpoint':28} {ours_cold * 1e3:10.1f}ms {lion_cold * 1e3:10.1f}ms "
        f"{share:8.2f}x  <= 0.25x, and {over * 1e3:+.1f} ms over the model floor <= 30 ms: "
        f"{'met' if met else 'NOT met'}"
    )
    table.row(
        "resolution",
        "cold start: match_endpoint",
        ours_cold * 1e3,
        "ms",
        lion_cold * 1e3,
        "lionagi",
        goal="<= 0.25x, <= 30 ms over one pydantic model",
        ratio=share,
        met=met,
        note=f"{over * 1e3:+.1f} ms over the model floor ({floor * 1e3:.1f} ms)",
    )
    print(
        f"{'cold start: resolve (record)':28} {ours_record * 1e3:10.1f}ms "
        f"{lion_cold * 1e3:10.1f}ms {ours_record / lion_cold:8.2f}x"
    )
    table.row(
        "resolution",
        "cold start: resolve (record)",
        ours_record * 1e3,
        "ms",
        lion_cold * 1e3,
        "lionagi",
        ratio=ours_record / lion_cold,
    )
    for name, label, what in (
        ("floor", "  floor: pydantic BaseModel", "from pydantic import BaseModel"),
        ("model floor", "  floor: one pydantic model", "... and one model class defined"),
    ):
        print(
            f"{label:28} {cold[name] * 1e3:10.1f}ms {lion_cold * 1e3:10.1f}ms "
            f"{cold[name] / lion_cold:8.2f}x  (fresh interpreter: {what})"
        )
    print(
        "  provcat bytecode "
        + ("compiled before timing, as a wheel install does" if compiled else "NOT compiled")
        + "; lionagi's was compiled when it was installed"
    )
