"""The README and docs/ stay inside the repository: every relative link names a file that exists."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import ROOT

PAGES = [
    *(ROOT / name for name in ("README.md", "CONTRIBUTING.md", "CHANGELOG.md")),
    *sorted((ROOT / "docs").rglob("*.md")),
]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve_inside_the_repository(page: object) -> None:
    from pathlib import Path

    assert isinstance(page, Path)
    text = page.read_text(encoding="utf-8")
    assert "shared/spec" not in text, page  # the specs live outside; what users need is in docs/
    for link in LINK.findall(text):
        if "://" in link or link.startswith(("#", "mailto:")):
            continue
        target = (page.parent / link.split("#", 1)[0]).resolve()
        assert target.is_relative_to(ROOT.resolve()), (page.name, link)
        assert target.exists(), (page.name, link)


def test_quickstart_summary_line_matches_the_catalog(tmp_path: object) -> None:
    """The README quotes `make generate`'s summary; its counts are the bundled catalog's."""
    import subprocess
    import sys

    quoted = re.search(r"provcat: (\d+ providers, .*? schema targets) in", _readme())
    assert quoted, "README quotes no `make generate` summary line"
    run = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--out", str(tmp_path), "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    actual = json.loads(run.stdout)["summary"].rsplit(" in ", 1)[0]
    assert quoted.group(1) == actual


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


# files of other projects that catalog comments name (the agents' own instruction files)
FOREIGN_FILES = {"AGENTS.md", "CLAUDE.md", "GEMINI.md"}


def test_catalog_comments_name_only_files_that_exist() -> None:
    """A project file named in a catalog comment (`catalog/REVIEWS.md`, `FINDINGS.md`) exists."""
    for path in sorted((ROOT / "catalog").rglob("*.yaml")):
        for name in re.findall(
            r"(?<![/\w])((?:[\w-]+/)*[A-Z][A-Z_]+\.md)\b", path.read_text("utf-8")
        ):
            if name in FOREIGN_FILES:
                continue
            assert (ROOT / name).exists() or (path.parent / name).exists(), (path.name, name)
