"""The hub's docs stay true: every test they cite exists, the README's hub section points only
inside the repository, and docs/hub.md's walkthrough prints what it shows."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from tests.hub.conftest import Live
from tests.test_doc_commands import BLOCKS, _appears_in_order

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


def test_readme_hub_section_runs_as_written_from_an_empty_folder(tmp_path: Path) -> None:
    """Every ``$`` line of the README's hub section, run by bash in an empty folder with a fresh
    HOME (and the port moved off 8080 through ``PROVCAT_HUB_PORT`` / ``PROVCAT_HUB_URL``, which
    the commands read); after the backgrounded ``serve`` the script waits for it to answer, as a
    person typing the next line does."""
    import os
    import subprocess
    import sys

    from tests.hub.services import free_port

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    hub = readme.split("\n## Hub\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```console\n(.*?)```", hub, re.S)
    assert block is not None
    commands = [line[2:] for line in block.group(1).splitlines() if line.startswith("$ ")]
    assert commands[0] == "provcat hub serve &" and "provcat hub sample" in commands
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    ready = (
        "SERVER=$!; trap 'rc=$?; kill $SERVER; wait $SERVER || true; exit $rc' EXIT\n"
        f"for _ in $(seq 300); do curl -sf {url}/v1/health >/dev/null && break; sleep 0.1; done"
    )
    script = "\n".join(["set -euo pipefail", commands[0], ready, *commands[1:]])
    work, home = tmp_path / "empty", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PROVCAT_HUB_PORT": str(port),
        "PROVCAT_HUB_URL": url,
    }
    for key in (
        "XDG_DATA_HOME",
        "PROVCAT_HUB_TOKEN",
        "PROVCAT_ADAPTERS_DIR",
        "PROVCAT_HUB_DATA_DIR",
    ):
        env.pop(key, None)
    done = subprocess.run(
        ["bash", "-c", script], cwd=work, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "hub://acme/hello:0.1.0" in done.stdout  # found by search
    pulled = home / ".local/share/provcat/adapters/acme__hello__v0.1.0/adapter.safetensors"
    assert pulled.read_bytes() == (work / "adapter.safetensors").read_bytes()
    assert sorted(p.name for p in work.iterdir()) == ["adapter.safetensors"]


def test_the_walkthrough_of_a_deleted_version_prints_what_it_shows(
    live: Live, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/hub.md's walkthrough from the pull of ``hub://acme/sample`` on, run as written against
    a live hub (the store in a scratch folder). Found by a new-user audit: it showed the pull of
    a version deleted after it was pulled as ``was deleted``, where the store serves it (a
    concrete version already pulled is served from the store, as the decisions say)."""
    (block,) = [
        b
        for b in BLOCKS
        if b.page == "docs/hub.md" and any("rm hub://" in s.command for s in b.steps)
    ]
    first = next(
        i for i, s in enumerate(block.steps) if s.command == "provcat hub pull hub://acme/sample"
    )
    steps = block.steps[first:]
    assert any(s.command.startswith("rm -r ") for s in steps)  # how to drop the local copy
    store = tmp_path / "store"
    monkeypatch.chdir(tmp_path)
    env = {"PROVCAT_HUB_URL": live.url, "PROVCAT_HUB_TOKEN": live.hub.token}
    env["PROVCAT_ADAPTERS_DIR"] = str(store)

    def run(args: list[str]) -> str:
        result = CliRunner().invoke(main, args, env=env, catch_exceptions=False)
        return result.stdout + result.stderr

    run(["hub", "sample"])
    (tmp_path / "manifest.json").write_text('{"manifest_version": 2}')
    assert "pushed acme__sample__v0.1.0" in run(
        [
            "hub",
            "push",
            "adapter.safetensors",
            "--manifest",
            "manifest.json",
            "hub://acme/sample:0.1.0",
        ]
    )
    for step in steps:
        if step.command.startswith("rm -r ~/.local/share/provcat/adapters/"):
            shutil.rmtree(store / step.command.rsplit("/", 1)[1])
            continue
        printed = run(step.command.split()[1:])
        shown = [
            line.replace("/home/you/.local/share/provcat/adapters", str(store))
            for line in step.shown
        ]
        assert _appears_in_order(shown, printed) is None, (step.command, shown, printed)
