"""The hub's docs stay true: every test they cite exists, and the README's hub section points
only inside the repository."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("docs/hub-protocol.md", "docs/hub-deployment.md")


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def _citations(text: str) -> list[tuple[str, str]]:
    """(file, function) for every `file.py::name` and the `::name` that follow it."""
    found: list[tuple[str, str]] = []
    current = ""
    prose = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks would shift the pairing
    for token in re.findall(r"`([^`]+)`", prose):
        if ".py" in token:
            file, _, name = token.partition("::")
            current = file
            if name:
                found.append((file, name))
        elif token.startswith("::") and current:
            found.append((current, token[2:]))
    return found


@pytest.mark.parametrize("doc", DOCS)
def test_every_cited_test_exists(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    citations = _citations(text)
    assert len(citations) > 10
    for file, name in citations:
        path = Path(file.replace("conf/", "conformance/"))
        full = ROOT / path if path.parts[0] == "tests" else ROOT / "tests" / "hub" / path
        assert full.is_file(), (doc, file)
        assert name in _tests_in(full), (doc, file, name)


def test_readme_hub_section_stays_in_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    hub = readme.split("\n## Hub\n", 1)[1].split("\n## ", 1)[0]
    assert "](../" not in hub and "`../" not in hub and "shared/spec" not in hub
    for link in re.findall(r"\]\(([^)]+)\)", hub):
        if "://" not in link:
            assert (ROOT / link.split("#")[0]).exists(), link
