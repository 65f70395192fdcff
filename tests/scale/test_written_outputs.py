"""What a build left in its output folder, trusted by stat: an untouched file is neither made,
read nor rewritten, and a file edited or deleted by hand is always found and written again."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest

from generator import emit, written
from generator.file_hashes import FileHashes
from generator.pages import PAGES, PageInputs
from generator.pipeline import run
from generator.plain_pages import PLAIN
from tests.conftest import ROOT, Workspace, tree_bytes


def _full(ws: Workspace, out: Path) -> dict[str, bytes]:
    result = ws.run("build", "--no-cache", "--out", str(out))  # the later --out wins
    assert result.exit_code == 0, result.stdout
    return tree_bytes(out)


def _settled(ws: Workspace) -> None:
    """Two more builds: the files the fixture wrote are then recorded with their stat."""
    for _ in range(2):
        assert ws.run().exit_code == 0


MODELS_PAGE = "docs/models/alpha.md"  # a provider's page: from the text cache, or not made at all


@pytest.mark.parametrize("name", [MODELS_PAGE, "docs/providers.md", "provcat_catalog/data.py"])
@pytest.mark.parametrize("how", ["appended", "same size and mtime", "deleted"])
def test_a_generated_file_edited_or_deleted_by_hand_is_written_again(
    workspace: Workspace, tmp_path: Path, name: str, how: str
) -> None:
    _settled(workspace)
    target = workspace.out / name
    before = target.read_bytes()
    if how == "appended":
        target.write_bytes(before + b"# edited by hand\n")
    elif how == "deleted":
        target.unlink()
    else:  # the same size, the mtime set back: only its ctime tells
        st = target.stat()
        edited = before.replace(b"a", b"b", 1)
        assert edited != before and len(edited) == len(before)
        target.write_bytes(edited)
        os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert target.stat().st_mtime_ns == st.st_mtime_ns
    # an edit elsewhere: the build takes the other files from the record, this one it must read
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    result = workspace.run()
    assert result.exit_code == 0, result.stdout
    assert name in result.json["changed"]
    assert tree_bytes(workspace.out) == _full(workspace, tmp_path / "full")


def test_a_build_that_changes_no_output_renders_and_reads_none(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A comment edit: every output is the last build's, untouched; none is made or read."""
    _settled(workspace)
    before = {p: p.stat().st_mtime_ns for p in workspace.out.rglob("*") if p.is_file()}

    def no_rendering(compiled: Path | None = None) -> None:
        raise AssertionError("a template was rendered")

    read: list[str] = []
    real = written.read_checked

    def reading(path: str) -> tuple[bytes, written.Stat] | None:
        read.append(path)
        return real(path)

    monkeypatch.setattr(emit, "_environment", no_rendering)
    monkeypatch.setattr(emit, "read_checked", reading)
    monkeypatch.setattr(emit, "read_tree", lambda root: pytest.fail("the tree was read"))
    workspace.edit("beta.yaml", "display_name: Beta\n", "display_name: Beta  # a comment\n")
    result = workspace.run()
    assert result.exit_code == 0, result.stdout
    assert result.json["changed"] == []
    assert read == []
    assert {p: p.stat().st_mtime_ns for p in workspace.out.rglob("*") if p.is_file()} == before


def test_a_stat_from_the_probes_clock_tick_is_not_kept() -> None:
    """An edit in the same tick as the read could keep every field of the stat: such a stat is
    recorded as none (the file is read next time)."""
    st = (10, 1_000, 5_000, 7)
    digests = {"a": (b"\x01" * 32, "k"), "b": (b"\x02" * 32, None), "c": (b"\x03" * 32, None)}
    kept = written.entries(digests, {"a": st, "b": (10, 1_000, 4_999, 8)}, now=5_000)
    assert kept == {
        "a": [(b"\x01" * 32).hex(), "k", None],  # ctime == now: not kept
        "b": [(b"\x02" * 32).hex(), None, [10, 1_000, 4_999, 8]],
        "c": [(b"\x03" * 32).hex(), None, None],  # written by this build: read next time
    }
    assert written.entries(digests, {"b": st}, now=None)["b"][2] is None  # no probe: no stat


def test_input_hashes_are_taken_again_when_the_stat_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file rewritten with the same size and its mtime set back is read again (its ctime
    moved); an untouched one is not read."""
    import generator.file_hashes as module

    store = tmp_path / "cache" / "file-hashes.json"
    path = tmp_path / "p.yaml"
    path.write_bytes(b"provider: one\n")
    just_written = FileHashes(store)
    just_written.digest(str(path))
    just_written.save()
    assert not store.exists()  # changed moments before it was read: read again, even here
    # the clocks have moved on since the file was read (a tick later)
    monkeypatch.setattr(module, "_RECENT", -(10**18))
    monkeypatch.setattr(module, "probe", lambda folder: os.stat(path).st_ctime_ns + 1)
    first = FileHashes(store)
    assert first.digest(str(path)) == hashlib.sha256(b"provider: one\n").digest()
    first.save()
    opened: list[str] = []

    def counting(file: str, *args: object, **kwargs: object) -> object:
        opened.append(str(file))
        return open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(module, "open", counting, raising=False)
    assert FileHashes(store).digest(str(path)) == hashlib.sha256(b"provider: one\n").digest()
    assert opened == []  # untouched: not read
    st = os.stat(path)
    path.write_bytes(b"provider: two\n")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert FileHashes(store).digest(str(path)) == hashlib.sha256(b"provider: two\n").digest()
    assert opened == [str(path)]
    monkeypatch.setattr(module, "probe", lambda folder: os.stat(path).st_ctime_ns)
    same_tick = FileHashes(store)
    same_tick.digest(str(path), fresh=True)
    same_tick.save()  # read in the probe's tick: kept without its stat, read next time
    FileHashes(store).digest(str(path))
    assert opened == [str(path)] * 3


def _context_names(template: str) -> tuple[set[str], set[str], dict[str, set[str]]]:
    """What a template (with the header it includes) reads: top-level names, snapshot members,
    and the fields read of each member's rows (its loop variables' attributes)."""
    import jinja2.meta

    env = emit._environment()
    header = "package/header.j2" if template.startswith("package/") else "docs/header.j2"
    names: set[str] = set()
    for name in (template, header):
        source = env.loader.get_source(env, name)[0]  # type: ignore[union-attr]
        names |= jinja2.meta.find_undeclared_variables(env.parse(source))
    source = env.loader.get_source(env, template)[0]  # type: ignore[union-attr]
    members = set(re.findall(r"snapshot\.(\w+)", source))
    fields: dict[str, set[str]] = {}
    for var, member in re.findall(r"\{%-? for (\w+) in snapshot\.(\w+)", source):
        fields.setdefault(member, set()).update(re.findall(rf"\b{var}\.(\w+)", source))
    return names, members, fields


@pytest.mark.parametrize(
    ("name", "template", "reads"), [p for p in PAGES if p[1] and not p[1].startswith("plain:")]
)
def test_each_whole_catalog_file_declares_exactly_what_its_template_reads(
    name: str, template: str, reads: tuple[str, ...]
) -> None:
    """The cache keeps a file under its declared inputs: a template that read more would be
    served stale (and fails to render: it gets the declared inputs alone)."""
    names, members, fields = _context_names(template)
    declared = {r.partition(".")[0] if r.startswith("snapshot.") else r for r in reads}
    assert names == declared | {"source", "generator_version"}
    declared_members = {
        r.removeprefix("snapshot.").partition("(")[0] for r in reads if r.startswith("snapshot.")
    }
    assert members == declared_members
    for read in reads:
        member, _, listed = read.removeprefix("snapshot.").partition("(")
        if listed:
            assert fields[member] == set(listed.rstrip(")").split(",")), (name, member)


def test_each_whole_catalog_file_renders_from_its_inputs_as_from_everything() -> None:
    """Regression guard on the bundled catalog: each file rendered from its declared inputs alone
    equals the file rendered with every input and the whole snapshot in reach."""
    result = run(ROOT / "catalog")
    assert result.snapshot is not None and result.files is not None
    inputs = PageInputs(result.snapshot, "sha256:test", None)
    everything = {
        name: inputs.value(name)
        for _, _, reads in PAGES
        for name in reads
        if not name.startswith("snapshot.")
    }
    env = emit._environment()
    for name, template, reads in PAGES:
        if not template:
            continue
        header = {"source": "catalog/", "generator_version": "0"}
        # a page written in Python reads its context's keys: one it was not given is a KeyError
        page = PLAIN.get(template) or env.get_template(template).render
        alone = page({**header, **inputs.context(reads)})
        full = page({**header, **everything, "snapshot": result.snapshot})
        assert alone == full, name
