"""The catalog site and catalog.json at scale: what they add to a build, and the site of the
models.dev import (5,000+ models).

Figures, each against a baseline measured in the same run (CPU time, which a shared machine
moves less than wall time):

- catalog.json's render against the work a build already does once on the same data, the
  snapshot's fingerprint (its canonical JSON, hashed): goal at most 1.5x, so the bundled full
  build's budget is not what catalog.json breaks; its share of a warm build is in the note; for
  the bundled catalog and the models.dev import;
- building the models.dev site (5,000+ pages) against building the catalog itself (no goal: for
  scale; `make site` runs it only when asked).

The table page's speed in the browser (load and filter budgets) is checked by `make test`
(tests/site/test_big_catalog.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import table
from benchmarks.bench_scale import ROOT, SNAPSHOT, dataset


def _cpu(fn: object, repeat: int = 3) -> float:
    """The least CPU seconds of ``repeat`` calls."""
    assert callable(fn)
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        fn()
        best = min(best, time.process_time() - started)
    return best


def _json_share(label: str, catalog: Path, repeat: int) -> None:
    from generator.catalog_json import render_json
    from generator.pipeline import run
    from generator.snapshot import fingerprint

    result = run(catalog)
    assert result.ok and result.snapshot is not None, result.diagnostics[:3]
    snapshot = result.snapshot
    mark = fingerprint(snapshot)
    build = _cpu(lambda: run(catalog), repeat)
    json_cpu = _cpu(lambda: render_json(snapshot, mark, "catalog/"), repeat)
    # the same work a build already does once: the snapshot as (canonical) JSON, hashed
    same_work = _cpu(lambda: fingerprint(snapshot), repeat)
    table.row(
        label,
        "catalog.json render (CPU)",
        json_cpu * 1000,
        "ms",
        same_work * 1000,
        "the snapshot's fingerprint (CPU)",
        goal="<= 1.5x",
        ratio=json_cpu / same_work,
        met=json_cpu <= 1.5 * same_work,
        note=f"{json_cpu / build:.1%} of a warm whole build ({build * 1000:.0f} ms CPU)",
    )


def main() -> None:
    _json_share("site/bundled", ROOT / "catalog", 5)
    source = dataset()
    if source is None:
        table.row("site/models.dev", "(all figures)", None, "", note=f"{SNAPSHOT} not found")
        return
    work = Path(tempfile.mkdtemp(prefix="provcat-bench-site-"))
    try:
        catalog = work / "catalog-big"
        subprocess.run(
            [sys.executable, "-m", "generator", "import", "models-dev", str(source),
             "--into", str(catalog)],
            check=True, capture_output=True, cwd=ROOT,
        )  # fmt: skip
        _json_share("site/models.dev", catalog, 1)

        from generator.pipeline import run
        from generator.site.build import site_files

        result = run(catalog)
        assert result.files is not None
        text = result.files["provcat_catalog/catalog.json"]
        data = json.loads(text)
        schema = (ROOT / "schemas" / "catalog.schema.json").read_text(encoding="utf-8")
        build = _cpu(lambda: run(catalog), 1)
        site = _cpu(lambda: site_files(data, text, schema), 1)
        pages = sum(len(p["models"]) for p in data["providers"])
        table.row(
            "site/models.dev",
            f"site of {pages:,} models, in memory (CPU)",
            site,
            "s",
            build,
            "catalog build (CPU)",
            ratio=site / build,
            note="no goal; for scale",
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
