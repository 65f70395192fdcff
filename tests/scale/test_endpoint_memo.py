"""Kept endpoint checks (generator/endpoint_memo.py) and kept endpoint defaults: a rebuild that
reuses them reports and writes exactly what a build without a cache does (the reference), and
a damaged or foreign kept file is ignored."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator import validate
from generator.endpoint_memo import EndpointMemo
from generator.incremental import FileCache, cache_dir
from generator.model import config_endpoint_defaults
from generator.pipeline import run
from tests.conftest import ROOT, Workspace, tree_bytes

_PROVIDER = """provider: {key}
display_name: Provider {key}
defaults:
  base_url: https://api.{key}.example/v1
  api_key_env: {env}_API_KEY
endpoints:
  chat/completions:
    aliases: [chat]
    type: api
    protocol: openai-chat
    request_defaults: {{model: {key}-1, temperature: 0.5}}
models:
  {key}-1: {{context_window: 8192}}
"""


@pytest.fixture
def yaml_only(tmp_path: Path) -> Workspace:
    """Three providers declared in YAML alone (their endpoint checks can be kept), built once."""
    ws = Workspace(tmp_path / "ws")
    ws.providers.mkdir(parents=True)
    for key in ("one", "two", "three"):
        ws.write(f"{key}.yaml", _PROVIDER.format(key=key, env=key.upper()))
    built = ws.run()
    assert built.exit_code == 0, built.stdout
    return ws


def _reference(ws: Workspace, out: Path) -> tuple[int, list[Any], dict[str, bytes]]:
    """A build without any cache: its exit code, diagnostics and files."""
    found = ws.run("build", "--no-cache", "--out", str(out))
    return found.exit_code, found.json["diagnostics"], tree_bytes(out) if out.is_dir() else {}


def _checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The providers whose endpoints this process checks from now on."""
    seen: list[str] = []
    real = validate._endpoints

    def spy(p: Any, ctx: Any, classes: Any) -> None:
        seen.append(p.key.value)
        real(p, ctx, classes)

    monkeypatch.setattr(validate, "_endpoints", spy)
    return seen


def test_a_kept_check_reports_what_a_fresh_check_does_through_every_edit(
    yaml_only: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = yaml_only
    checked = _checked(monkeypatch)
    steps = [
        # no endpoint record changes: every check is kept
        ("two.yaml", "display_name: Provider two", "display_name: Provider Two", []),
        # a refused request default: checked again, reported at its place
        ("two.yaml", "temperature: 0.5", "temperature: hot", ["two"]),
        # the same problem one line lower: checked again, reported at the new place
        ("two.yaml", "display_name:", "description: moved\ndisplay_name:", ["two"]),
        # another file's edit leaves two's kept diagnostics as they were
        ("one.yaml", "display_name: Provider one", "display_name: Provider One", []),
        # a credential in default headers, on a provider checked for the first time with it
        (
            "three.yaml",
            "  api_key_env:",
            "  default_headers: {Authorization: x}\n  api_key_env:",
            ["three"],
        ),
        ("two.yaml", "temperature: hot", "temperature: 0.5", ["two"]),
        ("three.yaml", "  default_headers: {Authorization: x}\n", "", ["three"]),
    ]
    # line 1 is the schema comment: temperature is on line 12, the headers on line 6
    refused = ("invalid_request_default", "two.yaml", 12)
    moved = ("invalid_request_default", "two.yaml", 13)
    header = ("credential_header", "three.yaml", 6)
    expected = [[], [refused], [moved], [moved], [header, moved], [header], []]
    for i, (name, old, new, again) in enumerate(steps):
        ws.edit(name, old, new)
        checked.clear()
        cached = ws.run()
        assert checked == again, (i, checked)
        code, diagnostics, files = _reference(ws, tmp_path / f"full{i}")
        assert (cached.exit_code, cached.json["diagnostics"]) == (code, diagnostics), i
        assert [(d["code"], d["file"].rsplit("/", 1)[-1], d["line"]) for d in diagnostics] == (
            expected[i]
        )
        if code == 0:
            assert tree_bytes(ws.out) == files
    assert cached.json["diagnostics"] == [] and cached.exit_code == 0  # all put right again


def test_a_kept_check_still_keeps_the_acceptances_it_relied_on(
    yaml_only: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A default an earlier build accepted is not judged again when the provider's endpoint
    records move: the acceptance was kept while the check itself was."""
    for _ in range(2):  # every check kept, twice: the proofs file is pruned to what was used
        yaml_only.edit("one.yaml", "display_name: Provider", "display_name: Provider x")
        assert yaml_only.run().exit_code == 0
    asked: list[object] = []
    real = validate.field_problem

    def counting(model: type, key: str, value: object) -> str | None:
        asked.append(value)
        return real(model, key, value)

    monkeypatch.setattr(validate, "field_problem", counting)
    yaml_only.edit("one.yaml", "display_name:", "description: moved\ndisplay_name:")
    assert yaml_only.run().exit_code == 0
    assert asked == []


def test_a_rebuild_with_kept_checks_imports_no_pydantic(yaml_only: Workspace) -> None:
    """What makes a one-file rebuild cheap: neither pydantic nor the runtime's request code."""
    yaml_only.edit("two.yaml", "display_name: Provider two", "display_name: Provider 2")
    probe = (
        "import os, runpy, sys\n"
        "sys.argv = ['generator', 'build', '--catalog', sys.argv[1], '--out', sys.argv[2]]\n"
        "def said():\n"
        "    print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic' or m in "
        "('provcat.endpoints.config', 'provcat.endpoints.request', 'provcat.endpoints.endpoint')), flush=True)\n"
        "end = os._exit\n"
        "def ended(code):\n"  # the build ends the process without unwinding
        "    assert not code, code\n"
        "    said()\n"
        "    end(0)\n"
        "os._exit = ended\n"
        "try:\n"
        "    runpy.run_module('generator', run_name='__main__')\n"
        "except SystemExit as exit:\n"
        "    assert not exit.code, exit.code\n"
        "said()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(yaml_only.catalog), str(yaml_only.out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "provcat:" in done.stdout  # a real build ran (the no-change path was not taken)
    assert done.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize(
    "damage",
    [
        b"not a pickle",
        pickle.dumps({"k": ("x",)}),
        pickle.dumps(["a list"]),
        pickle.dumps(({}, {"x": 1})),  # file keys that lead to no verdict
        "per key",  # every kept verdict replaced by one of the wrong shape
    ],
)
def test_a_damaged_or_foreign_memo_is_ignored(
    yaml_only: Workspace, tmp_path: Path, damage: bytes | str
) -> None:
    ws = yaml_only
    ws.edit("two.yaml", "temperature: 0.5", "temperature: hot")
    assert ws.run().exit_code == 1  # two's refusal is kept
    memo = cache_dir(ws.catalog) / "files" / "endpoint-checks"
    if isinstance(damage, str):
        kept, keys = pickle.loads(memo.read_bytes())  # the verdicts, and each file's key
        assert len(kept) == 3 and len(keys) == 3
        damage = pickle.dumps(({key: ((), ("not bytes",)) for key in kept}, keys))
    memo.write_bytes(damage)
    cached = ws.run()
    code, diagnostics, _ = _reference(ws, tmp_path / "full")
    assert (cached.exit_code, cached.json["diagnostics"]) == (code, diagnostics)
    assert [d["code"] for d in diagnostics] == ["invalid_request_default"]
    ws.edit("two.yaml", "temperature: hot", "temperature: 0.5")
    assert ws.run().exit_code == 0
    assert tree_bytes(ws.out) == _reference(ws, tmp_path / "fixed")[2]


@pytest.mark.parametrize(
    "kept",
    ["not json", "[]", '[["base_url"], {"api": {}, "agentic": {}}]', '[["x"], {"api": {"x": 1}}]'],
)
def test_damaged_kept_endpoint_defaults_are_read_again_from_the_runtime(
    yaml_only: Workspace, tmp_path: Path, kept: str
) -> None:
    cache = FileCache(cache_dir(yaml_only.catalog))
    key = cache.digest(b"endpoint defaults")
    names, types = config_endpoint_defaults()
    assert json.loads(cache.text(key) or "null") == [list(names), types]
    cache.put_text(key, kept)  # a valid checksum: damage its own checks must catch
    yaml_only.edit("one.yaml", "display_name: Provider one", "display_name: Provider 1")
    assert yaml_only.run().exit_code == 0
    assert tree_bytes(yaml_only.out) == _reference(yaml_only, tmp_path / "full")[2]
    assert json.loads(FileCache(cache_dir(yaml_only.catalog)).text(key) or "null") == [
        list(names),
        types,
    ]


def _built_decls(workspace: Workspace, cache: FileCache | None = None) -> list[Any]:
    """The provider records a cached build of ``workspace`` validates."""
    decls: list[Any] = []
    real = validate.validate

    def keep(providers: Any, *args: Any) -> Any:
        decls.extend(providers)
        return real(providers, *args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("generator.pipeline.validate", keep)
        run(workspace.catalog, (), None, cache or FileCache(cache_dir(workspace.catalog)))
    return decls


def test_the_endpoint_check_reads_only_what_its_key_holds(yaml_only: Workspace) -> None:
    """The verdict is kept under the provider's key and endpoint records: a check that read
    more of the provider would be served stale."""
    decls = _built_decls(yaml_only)
    read: set[str] = set()

    class Spy:
        def __init__(self, decl: Any) -> None:
            self._decl = decl

        def __getattr__(self, name: str) -> Any:
            read.add(name)
            return getattr(self._decl, name)

    assert decls
    ctx = validate._Context(validate.Importer())
    for decl in decls:
        validate._endpoints(Spy(decl), ctx, [])  # type: ignore[arg-type]
    assert read == {"module", "key", "endpoints"}


def test_the_memo_key_tells_apart_what_the_check_depends_on(yaml_only: Workspace) -> None:
    cache = FileCache(cache_dir(yaml_only.catalog))
    decl = _built_decls(yaml_only, cache)[0]
    memo = EndpointMemo(cache, "2.0.0")
    key = memo.key(decl)
    assert key is not None
    assert EndpointMemo(cache, "2.0.1").key(decl) != key  # another pydantic release
    from generator.model import Valued

    ep = decl.endpoints[0]
    moved = ep.replace(key=ep.key.replace(loc=(ep.key.loc[0], ep.key.loc[1] + 1, 3)))
    assert memo.key(decl.replace(endpoints=(moved,))) != key  # positions are in the verdict
    header = ep.replace(settings={**ep.settings, "default_headers": {"A": "b"}})
    assert memo.key(decl.replace(endpoints=(header,))) != key
    own = ep.replace(request_options=Valued("my_pkg.requests:Request", ep.key.loc))
    assert memo.key(decl.replace(endpoints=(own,))) is None  # code outside the runtime
    assert memo.key(decl.replace(module=Valued("my_pkg", ep.key.loc))) is None
    assert memo.key(decl.replace(display_name="other")) == key  # not read by the check


def test_an_unchanged_files_verdict_key_is_found_without_walking_its_records(
    yaml_only: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memo keeps each cached file's verdict key under the file's own cache key: only the
    edited file's records are walked to make its key, and the result is a full build's."""
    walked: list[str] = []
    real = EndpointMemo._key

    def spy(self: EndpointMemo, p: Any) -> str | None:
        walked.append(p.key.value)
        return real(self, p)

    monkeypatch.setattr(EndpointMemo, "_key", spy)
    assert yaml_only.run().exit_code == 0  # the fixture's build kept every file's key
    assert walked == []
    yaml_only.edit("two.yaml", "display_name: Provider two", "display_name: Provider 2")
    assert yaml_only.run().exit_code == 0
    assert walked == ["two"]
    assert tree_bytes(yaml_only.out) == _reference(yaml_only, tmp_path / "full")[2]
