"""Incremental builds: an unchanged rebuild writes nothing; a cached build after an edit, a
deletion and a rename is byte-identical to a full build; a stale or damaged cache changes nothing."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator import incremental
from generator.incremental import FileCache, cache_dir, fast_build
from generator.model import Key
from generator.pipeline import run
from tests.conftest import FIXTURE_MODULES, ROOT, Workspace, tree_bytes


def _full(ws: Workspace, out: Path) -> dict[str, bytes]:
    result = ws.run("build", "--no-cache", "--out", str(out))  # the later --out wins
    assert result.exit_code == 0, result.stdout
    return tree_bytes(out)


def _argv(ws: Workspace, *extra: str) -> list[str]:
    return [
        "build",
        "--catalog",
        str(ws.catalog),
        "--out",
        str(ws.out),
        "--import-path",
        str(FIXTURE_MODULES),
        *extra,
    ]


def _fast(argv: list[str]) -> tuple[bool, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        taken = fast_build(argv)
    return taken, out.getvalue()


def test_unchanged_rebuild_runs_nothing_and_writes_nothing(workspace: Workspace) -> None:
    stats = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in workspace.out.rglob("*.py")}
    taken, printed = _fast(_argv(workspace))
    assert taken
    assert printed.startswith("provcat: 3 providers, ") and printed.endswith(
        "generated/ unchanged.\n"
    )
    assert {
        p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in workspace.out.rglob("*.py")
    } == stats
    taken, printed = _fast([*_argv(workspace), "--format", "json"])
    assert taken and '"changed": []' in printed


def test_any_changed_input_or_output_means_a_real_build(workspace: Workspace) -> None:
    assert _fast(_argv(workspace))[0]
    assert not _fast(_argv(workspace, "--as-of", "2031-01-01"))[0]  # lifecycle judged anew
    data = workspace.out / "provcat_catalog" / "data.py"
    data.write_text(data.read_text() + "# edited by hand\n")
    assert not _fast(_argv(workspace))[0]
    assert workspace.run().exit_code == 0  # the real build puts it right
    assert "# edited by hand" not in data.read_text()
    assert _fast(_argv(workspace))[0]
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    assert not _fast(_argv(workspace))[0]


def test_a_changed_template_means_a_real_build(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Templates and schemas are read as files, not imported: their content is in the record."""
    code = workspace.root / "code"
    shutil.copytree(ROOT / "generator" / "templates", code / "templates")
    monkeypatch.setattr(incremental, "_OWN", (code,))
    monkeypatch.setattr(incremental, "_CODE", None)
    assert workspace.run().exit_code == 0  # records the fingerprint of this copy
    assert _fast(_argv(workspace))[0]
    page = code / "templates" / "docs" / "models.md.j2"
    page.write_text(page.read_text() + "\n")
    monkeypatch.setattr(incremental, "_CODE", None)  # a fresh process computes it anew
    assert not _fast(_argv(workspace))[0]


def test_a_changed_module_the_build_imported_means_a_real_build(
    workspace: Workspace, tmp_path: Path
) -> None:
    """The providers' Python is an input: a fresh process notices a change to it."""
    modules = tmp_path / "modules"
    shutil.copytree(FIXTURE_MODULES, modules, ignore=shutil.ignore_patterns("__pycache__"))
    argv = [a if a != str(FIXTURE_MODULES) else str(modules) for a in _argv(workspace)]

    def build() -> bool:
        out = subprocess.run(
            [sys.executable, "-m", "generator", *argv, "--format", "json"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        cached: bool = json.loads(out.stdout)["cached"]
        return cached

    assert build() is False  # other import paths than the fixture's build: a real build
    assert build() is True
    beta = modules / "provcat_testproviders" / "beta.py"
    beta.write_text(beta.read_text() + "\n# a change\n")
    assert build() is False


@pytest.mark.parametrize("change", ["edit", "delete", "rename", "model"])
def test_cached_build_after_a_change_equals_a_full_build(
    workspace: Workspace, tmp_path: Path, change: str
) -> None:
    if change == "edit":
        workspace.edit("beta.yaml", "aliases: [beta-ai]", "aliases: [beta-ai, b2]")
    elif change == "model":  # a change to one provider's models: its module and page only
        workspace.edit("alpha.yaml", "context_window: 8192", "context_window: 16384")
    elif change == "delete":
        workspace.file("beta.yaml").unlink()
    else:
        text = workspace.file("beta.yaml").read_text().replace("provider: beta", "provider: gamma")
        workspace.file("beta.yaml").unlink()
        workspace.file("gamma.yaml").write_text(text)
    cached = workspace.run()
    assert cached.exit_code == 0, cached.stdout
    assert cached.json["changed"]
    assert tree_bytes(workspace.out) == _full(workspace, tmp_path / "full")


def test_one_changed_file_is_the_only_one_read_again(workspace: Workspace) -> None:
    cache = FileCache(cache_dir(workspace.catalog))
    run(workspace.catalog, (FIXTURE_MODULES,), None, cache)
    assert (cache.hits, cache.misses) == (3, 0)  # the workspace fixture built once already
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    cache = FileCache(cache_dir(workspace.catalog))
    run(workspace.catalog, (FIXTURE_MODULES,), None, cache)
    assert (cache.hits, cache.misses) == (2, 1)


def test_a_damaged_or_foreign_cache_never_changes_the_output(
    workspace: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    folder = cache_dir(workspace.catalog)
    for entry in (folder / "files").iterdir():
        entry.write_bytes(b"not a pickle")  # truncated, corrupted, written by something else
    texts = list((folder / "texts").iterdir())
    assert texts  # alpha's model module and docs page
    for entry in texts:
        entry.write_text(entry.read_text().replace("alpha", "omega"))
    for record in folder.glob("build-*.json"):
        record.write_text("{")
    compiled = list((folder / "templates").iterdir())
    assert compiled  # the templates' compiled code
    for entry in compiled:
        entry.write_bytes(b"not compiled code")
    assert workspace.run().exit_code == 0
    assert tree_bytes(workspace.out) == _full(workspace, tmp_path / "full")
    # another generator version (or other generator code) reads none of this cache
    monkeypatch.setattr(incremental, "_CODE", "another generator")
    cache = FileCache(folder)
    run(workspace.catalog, (FIXTURE_MODULES,), None, cache)
    assert (cache.hits, cache.misses) == (0, 3)
    monkeypatch.setattr(incremental, "GENERATOR_VERSION", "0.0.0-other")
    assert not _fast(_argv(workspace))[0]


def test_the_cache_lives_beside_the_catalog_never_in_the_output(workspace: Workspace) -> None:
    assert (workspace.root / ".provcat-cache").is_dir()
    assert not any(".provcat-cache" in str(p) for p in workspace.out.rglob("*"))
    assert not any(p.suffix in (".json", ".pickle") for p in workspace.out.rglob("*"))


def test_a_file_broken_then_fixed_builds_as_a_full_build_does(
    workspace: Workspace, tmp_path: Path
) -> None:
    # the broken file goes through jsonschema (the quick test cannot vouch for it) and the YAML
    # refusals; fixed, it is read again, proven valid quickly, and the tree is a full build's
    workspace.edit("alpha.yaml", "context_window: 8192}", "context_window: -5}")
    broken = workspace.run()
    assert broken.exit_code == 1
    assert [d["code"] for d in broken.json["diagnostics"]] == ["schema_violation"]
    workspace.edit("alpha.yaml", "context_window: -5}", "context_window: 1, context_window: 2}")
    assert [d["code"] for d in workspace.run().json["diagnostics"]] == ["duplicate_yaml_key"]
    workspace.edit("alpha.yaml", "context_window: 1, context_window: 2}", "context_window: 32768}")
    fixed = workspace.run()
    assert fixed.exit_code == 0, fixed.stdout
    assert tree_bytes(workspace.out) == _full(workspace, tmp_path / "full")


def test_the_text_cache_key_tells_apart_every_value_the_templates_could_tell_apart() -> None:
    from decimal import Decimal

    from generator.emit import _exact

    pairs = [
        ({"a": True}, {"a": 1}),  # a template prints True and 1 differently
        ({"a": 1.0}, {"a": 1}),
        ({"a": (1,)}, {"a": [1]}),
        ({"a": {"x": 1, "y": 2}}, {"a": {"y": 2, "x": 1}}),  # iteration order shows in the text
        ({"a": "1"}, {"a": 1}),
        ({"a": None}, {"a": "None"}),
        ({"a": Decimal("1.0")}, {"a": Decimal("1.00")}),  # no marshal encoding: the repr
    ]
    for one, other in pairs:
        assert _exact(one) != _exact(other), (one, other)
        assert _exact(one) == _exact(dict(one))  # equal values find their entry again
    # nor do reference counts or interning, which a newer marshal format would write down
    shared = "model-id"
    assert _exact({"a": shared, "b": shared}) == _exact(
        {"a": "".join(["model", "-id"]), "b": "".join(["model-", "id"])}
    )


def _recorded_outputs(ws: Workspace) -> dict[str, list[object]]:
    (record,) = cache_dir(ws.catalog).glob("build-*.json")
    outputs: dict[str, list[object]] = json.loads(record.read_text(encoding="utf-8"))["outputs"]
    return outputs


def test_the_record_hashes_the_written_tree_as_reading_it_back_would(
    workspace: Workspace,
) -> None:
    """Each output's digest in the record is the SHA-256 of the file's bytes, whether its text
    was rendered, read from the text cache or never made (the last build's, untouched)."""
    import hashlib

    for _ in range(2):  # a full write, then a rebuild after an edit (most texts never made)
        outputs = _recorded_outputs(workspace)
        assert sorted(outputs) == sorted(
            p.relative_to(workspace.out).as_posix()
            for p in workspace.out.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        )
        for name, (digest, _, _) in outputs.items():
            assert digest == hashlib.sha256((workspace.out / name).read_bytes()).hexdigest(), name
        workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
        assert workspace.run().exit_code == 0


def test_a_kept_text_comes_back_exactly_and_a_damaged_one_not_at_all(tmp_path: Path) -> None:
    import hashlib

    text = "line one\r\nline two\rthree\n\u00e9\U0001f600"
    FileCache(tmp_path).put_text("k", text)
    again = FileCache(tmp_path)
    assert again.text("k") == text
    assert again.known[text] == hashlib.sha256(text.encode()).digest()
    stored = tmp_path / "texts" / "k"
    stored.write_bytes(stored.read_bytes()[:-1])  # truncated: the checksum fails
    assert FileCache(tmp_path).text("k") is None
    body = b"\xff\xfe"  # a right checksum over bytes that are not UTF-8
    stored.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    assert FileCache(tmp_path).text("k") is None


def test_a_changed_runtime_misses_every_cached_result(
    workspace: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The typed records hold defaults read from provcat's endpoint settings: a change to the
    runtime's code (here a stand-in copy of one of its files) reads every file again."""
    runtime = tmp_path / "provcat"
    runtime.mkdir()
    shutil.copy(ROOT / "src" / "provcat" / "endpoints" / "config.py", runtime / "config.py")
    monkeypatch.setattr(incremental, "_runtime_root", lambda: runtime)
    monkeypatch.setattr(incremental, "_RUNTIME_CODE", None)
    cache = FileCache(cache_dir(workspace.catalog))
    run(workspace.catalog, (FIXTURE_MODULES,), None, cache)
    cache = FileCache(cache_dir(workspace.catalog))
    run(workspace.catalog, (FIXTURE_MODULES,), None, cache)
    assert (cache.hits, cache.misses) == (3, 0)
    config = runtime / "config.py"
    config.write_text(config.read_text().replace("timeout", "timeout ", 1))
    monkeypatch.setattr(incremental, "_RUNTIME_CODE", None)  # a fresh process computes it anew
    cache = FileCache(cache_dir(workspace.catalog))
    run(workspace.catalog, (FIXTURE_MODULES,), None, cache)
    assert (cache.hits, cache.misses) == (0, 3)


def test_a_cached_file_places_its_diagnostics_where_a_fresh_read_does(
    workspace: Workspace,
) -> None:
    """Model fact positions come back from the cache packed; unpacked on demand, they word the
    diagnostics of an unchanged file exactly as the first read did."""
    workspace.edit(
        "alpha.yaml",
        "context_window: 8192}",
        "context_window: 8192, max_output_tokens: 9000, successor: nobody,\n"
        "    prices: {input: '1.00', output: '-2'}}",
    )
    first = workspace.run()
    assert first.exit_code == 1
    codes = sorted(d["code"] for d in first.json["diagnostics"])
    assert codes == ["limit_above_context", "negative_price", "unknown_successor"]
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    cache = FileCache(cache_dir(workspace.catalog))
    again = run(workspace.catalog, (FIXTURE_MODULES,), None, cache)
    assert cache.hits == 2  # alpha's records came from the cache
    assert [d.as_json() for d in again.diagnostics] == first.json["diagnostics"]


def test_packed_places_round_trip_every_position() -> None:
    import pickle

    from generator.model import ModelDecl, PackedPlaces

    places = {("name",): ("f.yaml", 3, 9), ("prices", "tiers", 0, "input"): ("f.yaml", 7, 21)}
    decl = ModelDecl(Key("m", ("f.yaml", 2, 3)), (), {"name": "M"}, places)
    back = pickle.loads(pickle.dumps(decl))
    assert isinstance(back.places, PackedPlaces)
    assert back == decl and dict(back.places) == places
    assert back.at("prices", "tiers", 0, "input") == ("f.yaml", 7, 21)
    assert back.at("family") == ("f.yaml", 2, 3)  # not written: the model's id
    assert pickle.loads(pickle.dumps(back)) == decl  # packed again as it came


def test_the_fingerprint_from_cached_pieces_is_the_canonical_json_hash(tmp_path: Path) -> None:
    """Reference: ``snapshot.fingerprint``, the hash of the whole snapshot's canonical JSON."""
    from generator.emit import _exact, _fingerprint, _part_values
    from generator.snapshot import fingerprint

    snapshot = {
        "providers": ({"provider": "b", "models": ()}, {"provider": "a", "models": ()}),
        "inventory": {
            "b": ({"model": "b-1", "name": 'Bé \u2028 "quoted"', "prices": {"z": "1", "a": 2}},),
            "a": ({"model": "a-1", "aliases": ("x",), "context_window": 8192},),
            "a\n": ({"model": "odd key"},),
        },
        "inventory_index": {"b": {"b-1": "b-1"}, "a": {"a-1": "a-1", "x": "a-1"}},
        "targets": (),
        "model_alias_index": {},
    }
    reference = fingerprint(snapshot)
    exact = {key: _exact(_part_values(snapshot, key)) for key in snapshot["inventory"]}
    cold = FileCache(tmp_path)
    assert _fingerprint(snapshot, exact, cold) == reference  # encoded, and kept
    warm = FileCache(tmp_path)
    assert _fingerprint(snapshot, exact, warm) == reference  # read back
    assert warm.used and len(list((tmp_path / "texts").iterdir())) == 3
    snapshot["inventory"]["a"] = ({"model": "a-1", "context_window": 16384},)
    exact["a"] = _exact(_part_values(snapshot, "a"))
    assert _fingerprint(snapshot, exact, FileCache(tmp_path)) == fingerprint(snapshot) != reference


def test_the_provider_rows_json_from_the_cache_gives_the_canonical_json_hash(
    tmp_path: Path,
) -> None:
    """Reference: ``snapshot.fingerprint``. Each provider row's JSON is kept under its exact
    bytes' hash; a changed row is encoded again, a damaged entry is ignored."""
    from generator.emit import _fingerprint
    from generator.pages import PageInputs
    from generator.snapshot import fingerprint

    snapshot: dict[str, Any] = {
        "providers": (
            {"provider": "b", "display_name": 'Bé \u2028 "q"\nline', "models": ()},
            {"provider": "a", "display_name": "A", "aliases": ("x",), "models": ()},
        ),
        "targets": (),
        "model_alias_index": {},
    }
    reference = fingerprint(snapshot)
    rows = PageInputs.row_digests_of(snapshot)
    assert _fingerprint(snapshot, {}, FileCache(tmp_path), rows) == reference  # encoded, kept
    kept = list((tmp_path / "texts").iterdir())
    assert len(kept) == 1
    warm = FileCache(tmp_path)
    assert _fingerprint(snapshot, {}, warm, rows) == reference  # read back
    assert warm.known  # the text was read from the cache
    edited = {**snapshot, "providers": (snapshot["providers"][0], {"provider": "a", "models": ()})}
    rows = PageInputs.row_digests_of(edited)
    assert _fingerprint(edited, {}, FileCache(tmp_path), rows) == fingerprint(edited) != reference
    kept[0].write_bytes(b"damaged")  # fails its checksum: encoded again
    assert _fingerprint(edited, {}, FileCache(tmp_path), rows) == fingerprint(edited)
    assert _fingerprint(edited, {}, FileCache(tmp_path), rows) == fingerprint(edited)


def test_the_schema_meta_check_is_remembered_only_for_the_same_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    from generator import schema_check

    folder = tmp_path / "schemas"
    folder.mkdir()
    schema = folder / "thing.schema.json"
    monkeypatch.setattr(schema_check, "SCHEMA_DIR", folder)
    monkeypatch.setattr(schema_check, "_META_CHECKED", set())

    made: list[FileCache] = []

    def fresh_process() -> FileCache:
        for earlier in made:
            earlier.flush()  # as the earlier build did when it ended
        schema_check._text.cache_clear()
        schema_check._META_CHECKED.clear()
        made.append(FileCache(tmp_path / "cache"))
        return made[-1]

    schema.write_text('{"type": "object", "minProperties": -1}')
    with pytest.raises(SchemaError):  # no valid schema: never proven, never remembered
        schema_check.meta_check("thing.schema.json", fresh_process())
    with pytest.raises(SchemaError):
        schema_check.meta_check("thing.schema.json", fresh_process())
    schema.write_text('{"type": "object", "minProperties": 1}')
    schema_check.meta_check("thing.schema.json", fresh_process())  # checked, and remembered
    walked: list[object] = []
    monkeypatch.setattr(Draft202012Validator, "check_schema", walked.append)
    schema_check.meta_check("thing.schema.json", fresh_process())
    assert walked == []  # the same text: the earlier proof stands
    schema.write_text('{"type": "object", "minProperties": 2}')
    schema_check.meta_check("thing.schema.json", fresh_process())
    assert walked == [{"type": "object", "minProperties": 2}]  # another text: checked again
    schema_check._text.cache_clear()


def test_the_jsonschema_release_in_the_meta_check_proof_is_the_installed_one() -> None:
    """Read from the wheel's folder name, not importlib.metadata: both must agree."""
    from importlib.metadata import version

    from generator.schema_check import installed_release

    assert installed_release("jsonschema") == version("jsonschema")


def test_a_file_edited_while_the_build_runs_is_built_again_next_time(
    workspace: Workspace,
) -> None:
    """The record holds the catalog as it was before the build read it, never after."""
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    assert not _fast(_argv(workspace))[0]  # the fast path's digest, handed to the build
    workspace.edit("beta.yaml", "display_name: Beta Two", "display_name: Beta Three")
    assert workspace.run().exit_code == 0  # "reads" the edit; its record holds the earlier state
    assert not _fast(_argv(workspace))[0]
    assert workspace.run().exit_code == 0
    assert _fast(_argv(workspace))[0]


def test_a_snapshot_from_cached_inventory_parts_equals_one_made_from_scratch(
    workspace: Workspace,
) -> None:
    import marshal

    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    cache = FileCache(cache_dir(workspace.catalog))
    cached = run(workspace.catalog, (FIXTURE_MODULES,), None, cache)
    assert cache.hits == 2  # alpha's part came from the cache
    fresh = run(workspace.catalog, (FIXTURE_MODULES,))
    assert cached.snapshot is not None and fresh.snapshot is not None
    assert cached.snapshot["inventory"]  # the fixture lists models
    for name in ("inventory", "inventory_index"):  # same values, same types, same order
        loaded = dict(cached.snapshot[name])  # kept apart in the cache, loaded when read
        assert marshal.dumps(loaded, 2) == marshal.dumps(fresh.snapshot[name], 2)
    assert cached.snapshot == fresh.snapshot


def test_a_damaged_or_missing_inventory_part_is_made_again_from_its_file(
    workspace: Workspace, tmp_path: Path
) -> None:
    """A provider's records are kept apart from the facts the whole-catalog outputs read, and
    loaded only when its module or page is rendered: one that cannot be read is made again from
    the file, one that is missing makes its entry a miss; neither changes the output."""
    folder = cache_dir(workspace.catalog)
    parts = sorted((folder / "files").glob("*.part"))
    assert len(parts) == 1  # alpha lists models
    parts[0].write_bytes(b"not a pickle")
    shutil.rmtree(folder / "texts")  # alpha's module and page must be rendered from its part
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    assert workspace.run().exit_code == 0
    assert tree_bytes(workspace.out) == _full(workspace, tmp_path / "full")
    assert parts[0].read_bytes() != b"not a pickle"  # made again, and kept
    parts[0].unlink()
    workspace.edit("beta.yaml", "display_name: Beta Two", "display_name: Beta Three")
    cache = FileCache(folder)
    run(workspace.catalog, (FIXTURE_MODULES,), None, cache)
    assert (cache.hits, cache.misses) == (2, 1)  # beta changed; alpha's entry is found ...
    assert parts[0].is_file()  # ... without its part: alpha was read again, its part kept again


def test_a_part_to_be_made_again_from_a_file_edited_meanwhile_is_an_error(
    workspace: Workspace,
) -> None:
    """Never a part from other bytes than its entry's: the build stops and says to build again."""
    from generator.pipeline import _part_loader

    cache = FileCache(cache_dir(workspace.catalog))
    path = workspace.file("alpha.yaml")
    shown = "catalog/providers/alpha.yaml"
    key = cache.key(path, shown)
    assert key is not None and cache.has_part(key)
    (cache.folder / f"{key}.part").write_bytes(b"damaged")
    load = _part_loader(cache, key, path, shown)
    workspace.edit("alpha.yaml", "context_window: 8192", "context_window: 16384")
    with pytest.raises(RuntimeError, match="changed while the build ran"):
        load()
    workspace.edit("alpha.yaml", "context_window: 16384", "context_window: 8192")
    records, index = load()  # the entry's own bytes again: made from the file
    assert records and index


@pytest.mark.parametrize(
    ("page", "inputs"),
    [
        ("docs/schema-targets.md.j2", {"targets", "matrix", "snapshot", "vocabulary"}),
        ("docs/lifecycle.md.j2", {"lifecycle_rows"}),
    ],
)
def test_a_page_kept_under_its_inputs_reads_only_those(page: str, inputs: set[str]) -> None:
    """The targets' page is kept under the targets and the provider and endpoint -> target maps (the vocabulary
    is the runtime's code, in every key; the matrix is made from the targets), the lifecycle page
    under its rows: a template that read more would be served stale."""
    import re

    import jinja2.meta

    from generator.emit import _environment

    env = _environment()
    read: set[str] = set()
    for name in (page, "docs/header.j2"):
        source = env.loader.get_source(env, name)[0]  # type: ignore[union-attr]
        read |= jinja2.meta.find_undeclared_variables(env.parse(source))
        if name == page and "snapshot" in inputs:
            found = set(re.findall(r"snapshot\.(\w+)", source))
            assert found == {"provider_targets", "endpoint_targets"}
    assert read == inputs | {"source", "generator_version"}


def test_a_request_default_the_runtime_model_accepted_is_not_validated_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only an acceptance is remembered, only for a model of the runtime's own code (in every
    cache key), and only for the exact value; a rejection is judged every time."""
    from generator import validate
    from generator.model import Valued
    from provcat.endpoints.protocols.openai_chat import ChatCompletionsRequest

    asked: list[object] = []
    real = validate.field_problem

    def counting(model: type, key: str, value: object) -> str | None:
        asked.append(value)
        return real(model, key, value)

    monkeypatch.setattr(validate, "field_problem", counting)

    def check(value: object, cache: FileCache) -> object:
        valued = Valued(value, ("f.yaml", 1, 1))
        found = validate._field_value(ChatCompletionsRequest, "temperature", valued, "p/e", cache)
        cache.flush()  # as the build does when it ends
        return found

    assert check(0.5, FileCache(tmp_path)) is None and asked == [0.5]
    assert check(0.5, FileCache(tmp_path)) is None and asked == [0.5]  # proven: not asked again
    assert check(0.7, FileCache(tmp_path)) is None and asked == [0.5, 0.7]  # another value
    for _ in range(2):  # rejected: a diagnostic each time, never remembered
        found = check("hot", FileCache(tmp_path))
        assert found is not None and found.code == "invalid_request_default"  # type: ignore[attr-defined]
    assert asked == [0.5, 0.7, "hot", "hot"]
    made = type(
        "Local",
        (ChatCompletionsRequest,),
        {"__module__": "provcat.endpoints.protocols.openai_chat"},
    )
    assert validate._acceptance(made, "temperature", 0.5) is None  # not the module's own class
    monkeypatch.setattr(incremental, "_CODE", "other generator code")
    assert check(0.5, FileCache(tmp_path)) is None and asked[-1] == 0.5  # other code: asked anew


def test_proofs_live_in_one_file_and_a_damaged_one_proves_nothing(tmp_path: Path) -> None:
    cache = FileCache(tmp_path)
    cache.prove(b"fact one")
    cache.prove(b"fact two")
    assert not (tmp_path / "texts").exists()  # kept when the build ends, not once per proof
    cache.flush()
    assert [p.name for p in (tmp_path / "texts").iterdir()] == ["proofs"]
    again = FileCache(tmp_path)
    assert again.proven(b"fact one") and not again.proven(b"fact three")
    again.prune()  # keeps what this build used
    assert FileCache(tmp_path).proven(b"fact one") and not FileCache(tmp_path).proven(b"fact two")
    proofs = tmp_path / "texts" / "proofs"
    proofs.write_text(proofs.read_text().replace("\n", "\n0", 1))  # damaged: proves nothing
    assert not FileCache(tmp_path).proven(b"fact one")


def test_a_sequence_from_its_entries_measured_forms_is_its_literal() -> None:
    """Reference: ``literal``, which renders the snapshot's tables when no cache is used."""
    import random
    import string

    from generator.pyliteral import entries, literal

    chooser = random.Random(7)

    def value(depth: int = 0) -> object:
        pick = chooser.random()
        if depth > 3 or pick < 0.4:
            return chooser.choice([1, 2.5, "x" * chooser.randint(0, 40), None, True, "a\nb"])
        items = [value(depth + 1) for _ in range(chooser.randint(0, 4))]
        if pick < 0.6:
            return tuple(items)
        if pick < 0.8:
            return items
        return {"".join(chooser.choices(string.ascii_letters, k=5)): item for item in items}

    for _ in range(2000):
        items = [value() for _ in range(chooser.randint(0, 6))]
        for shape in (tuple(items), items):
            assert entries(shape) == literal(shape, 0, 4), shape


def test_cached_provider_records_come_back_equal() -> None:
    """Records are rebuilt through their constructors (``__reduce__``): every field comes back."""
    import pickle

    from generator.pipeline import load_provider

    for name in ("openai", "anthropic"):
        path = ROOT / "catalog" / "providers" / f"{name}.yaml"
        found, decl = load_provider(path, f"catalog/providers/{name}.yaml")
        assert decl is not None and not found
        back = pickle.loads(pickle.dumps(decl, protocol=5))
        assert back == decl and back.endpoints and back.endpoints[0] == decl.endpoints[0]


def test_the_record_hashes_the_projects_modules_and_stats_installed_ones(
    workspace: Workspace,
) -> None:
    """A virtual environment inside the project folder holds installed packages, not project
    code: their size and mtime are recorded, the project's own modules by content."""
    (record,) = cache_dir(workspace.catalog).glob("build-*.json")
    deps = json.loads(record.read_text(encoding="utf-8"))["deps"]
    installed = [p for p in deps if p.startswith(incremental._INSTALLED)]
    assert installed and all(deps[p].startswith("stat:") for p in installed)
    own = [p for p in deps if p.startswith(str(ROOT / "generator"))]
    assert own and all(deps[p].startswith("sha256:") for p in own)
