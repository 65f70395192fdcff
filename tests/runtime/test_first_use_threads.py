"""The first use of ``provcat``'s public names from many threads at once: each name's home is
imported once, and no thread sees an import deadlock.

The homes share packages, so two threads importing two homes at once could take the same two
module locks in opposite orders; Python then raised ``_DeadlockError`` in one of them (in about one
first use in ten with the script below). A process has one first use, so the script makes
several: each round forgets every ``provcat`` module (as a fresh interpreter would not have them)
and imports ``provcat`` again, and two interpreters run the rounds at once.
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SCRIPT = """
import importlib, sys, threading
names = ["EndpointRegistry", "parse_model_spec", "get_model", "match_endpoint", "model_kwargs",
         "resolve"]
threads = 24
errors = []
def first_use(provcat, barrier, name):
    barrier.wait()
    try:
        getattr(provcat, name)
    except BaseException as error:
        errors.append(f"{name}: {error!r}")
for _ in range(int(sys.argv[1])):
    for module in [m for m in sys.modules if m.split(".")[0] in ("provcat", "provcat_catalog")]:
        del sys.modules[module]
    provcat = importlib.import_module("provcat")
    barrier = threading.Barrier(threads)
    workers = [
        threading.Thread(target=first_use, args=(provcat, barrier, names[i % len(names)]))
        for i in range(threads)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
print("\\n".join(errors))
sys.exit(1 if errors else 0)
"""

INTERPRETERS = 2
ROUNDS = 25


def _run(_: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROUNDS)], capture_output=True, text=True, timeout=60
    )


def test_public_names_used_first_from_many_threads_import_without_deadlock() -> None:
    with ThreadPoolExecutor(max_workers=INTERPRETERS) as pool:
        runs = list(pool.map(_run, range(INTERPRETERS)))
    failed = [r.stdout + r.stderr for r in runs if r.returncode != 0]
    assert failed == [], "\n".join(failed)
