"""A re-import keeps what maintainers wrote: hand fixes of source fields, models and providers they
added or edited; it says why each stays, and tells a new commit's links from real changes. Each
test uses a small hand-written snapshot (two providers), imported twice."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.importers.yamlout import dump
from generator.loader import load_bytes
from generator.pipeline import run
from tests.conftest import tree_bytes
from tests.scale.conftest import ImportRun, run_import

COMMIT = "f3fc6920000000000000000000000000000000aa"
CHAT = """name = "Chat"
release_date = "2025-01-02"
tool_call = true

[limit]
context = 100000
output = 8000

[cost]
input = 2.50
output = 10
"""
LONG = """name = "Long"

[limit]
context = 1000
output = 5000

[cost]
input = 1
output = 2
"""
VOICE = """name = "Voice"

[limit]
context = 1000
output = 100
"""
NEWCO = """name = "One"

[limit]
context = 1000
output = 100

[cost]
input = 1
output = 2
"""


def _provider(root: Path, key: str, models: dict[str, str]) -> None:
    folder = root / "providers" / key
    (folder / "models").mkdir(parents=True)
    (folder / "provider.toml").write_text(
        f'name = "{key.title()}"\nenv = ["{key.upper()}_API_KEY"]\n'
        f'npm = "@ai-sdk/openai-compatible"\napi = "https://api.{key}.test/v1"\n'
    )
    for name, text in models.items():
        (folder / "models" / f"{name}.toml").write_text(text)


def _snapshot(root: Path, *, newco: bool = True, commit: str | None = COMMIT) -> Path:
    _provider(root, "acme", {"chat": CHAT, "long": LONG, "voice": VOICE, "gpt-4": CHAT})
    if newco:
        _provider(root, "newco", {"newco-one": NEWCO})
    if commit:
        (root / "COMMIT").write_text(commit + "\n")
    return root


def _read(catalog: Path, key: str) -> dict[str, Any]:
    doc, problems = load_bytes((catalog / "providers" / f"{key}.yaml").read_bytes(), key)
    assert doc is not None, problems
    data: dict[str, Any] = doc.data
    return data


def _edit(catalog: Path, key: str, change: Any) -> None:
    path = catalog / "providers" / f"{key}.yaml"
    text = path.read_text()
    header = "".join(line for line in text.splitlines(keepends=True) if line.startswith("#"))
    data = _read(catalog, key)
    change(data)
    path.write_text(dump(header, data))


def _import(source: Path, catalog: Path) -> ImportRun:
    return _import_with(source, catalog)


def _import_with(source: Path, catalog: Path, *extra: str) -> ImportRun:
    result = run_import(source, catalog, "--format", "json", *extra)
    assert result.exit_code == 0, result.stderr
    built = run(catalog)
    assert built.ok, [d.as_text() for d in built.diagnostics if d.severity == "error"]
    return result


def _changes(result: ImportRun) -> dict[tuple[Any, ...], dict[str, Any]]:
    return {(c["provider"], c["model"], c["field"], c["kind"]): c for c in result.json["changes"]}


@pytest.fixture
def first(tmp_path: Path) -> tuple[Path, Path]:
    source = _snapshot(tmp_path / "src")
    catalog = tmp_path / "catalog"
    _import(source, catalog)
    return source, catalog


def _hand_fixes(models: dict[str, Any]) -> None:
    """What the import's warnings ask for, and a negotiated price."""
    models["long"]["max_output_tokens"] = 900  # the source's 5000 is above the context
    models["voice"]["release_date"] = "2025-11-25"
    models["voice"]["prices"] = {"input": "3", "output": "4"}
    models["chat"]["prices"] = {"input": "2.00", "output": "10"}
    models["chat"]["note"] = "Negotiated rate."


def test_hand_fixes_survive_a_reimport_of_the_same_snapshot(first: tuple[Path, Path]) -> None:
    """They were printed as `removed ...` and gone; now each stays and is listed as kept."""
    source, catalog = first
    _edit(catalog, "acme", lambda d: _hand_fixes(d["models"]))
    result = _import(source, catalog)
    models = _read(catalog, "acme")["models"]
    assert models["long"]["max_output_tokens"] == 900
    assert models["voice"]["release_date"] == "2025-11-25"
    assert models["voice"]["prices"] == {"input": "3", "output": "4"}
    assert models["chat"]["prices"] == {"input": "2.00", "output": "10"}
    changes = _changes(result)
    kept = changes[("acme", "long", "max_output_tokens", "kept")]
    assert (kept["old"], kept["reason"]) == (900, "maintainer's; the source gives none")
    kept = changes[("acme", "chat", "prices", "kept")]
    assert kept["new"] == {"input": "2.50", "output": "10"}
    assert kept["reason"] == "maintainer's; the source says {'input': '2.50', 'output': '10'}"
    assert not [c for c in result.json["changes"] if c["kind"] in ("removed", "changed")]
    assert result.json["summary"]["fields"] == {"kept": 4}


def test_an_upstream_change_replaces_only_what_nobody_edited(
    first: tuple[Path, Path], tmp_path: Path
) -> None:
    source, catalog = first
    _edit(catalog, "acme", lambda d: _hand_fixes(d["models"]))
    second = tmp_path / "second"
    shutil.copytree(source, second)
    chat = second / "providers" / "acme" / "models" / "chat.toml"
    chat.write_text(chat.read_text().replace("input = 2.50", "input = 2.75"))
    gpt = second / "providers" / "acme" / "models" / "gpt-4.toml"
    gpt.write_text(gpt.read_text().replace('release_date = "2025-01-02"\n', ""))
    result = _import(second, catalog)
    models = _read(catalog, "acme")["models"]
    assert models["chat"]["prices"]["input"] == "2.00"  # the maintainer's, still
    assert "release_date" not in models["gpt-4"]  # the import's own, removed upstream
    changes = _changes(result)
    assert changes[("acme", "chat", "prices", "kept")]["new"]["input"] == "2.75"
    assert ("acme", "gpt-4", "release_date", "removed") in changes
    # the text summary says whose value it is
    text = run_import(second, catalog).stdout
    assert (
        "  kept     acme/chat: prices {'input': '2.00', 'output': '10'} (maintainer's; the source "
        "says {'input': '2.75', 'output': '10'})" in text
    )
    # a field deleted by hand follows the source again
    _edit(catalog, "acme", lambda d: d["models"]["chat"].pop("prices"))
    _import(second, catalog)
    assert _read(catalog, "acme")["models"]["chat"]["prices"]["input"] == "2.75"


def test_a_model_added_by_hand_is_kept(first: tuple[Path, Path]) -> None:
    """`ft:...` added to an imported file was removed as if the source had dropped it."""
    source, catalog = first

    def add(doc: dict[str, Any]) -> None:
        doc["models"]["ft:chat:acme:v1"] = {"name": "Fine-tuned chat", "context_window": 1000}

    _edit(catalog, "acme", add)
    result = _import(source, catalog)
    assert _read(catalog, "acme")["models"]["ft:chat:acme:v1"]["name"] == "Fine-tuned chat"
    kept = _changes(result)[("acme", "ft:chat:acme:v1", None, "kept")]
    assert kept["reason"] == "added by hand: no import wrote it"
    last = run_import(source, catalog).stdout.splitlines()
    assert "  kept     acme/ft:chat:acme:v1 (added by hand: no import wrote it)" in last
    assert "5 models (1 more kept that the source does not list; listed above)" in last[-1]


def test_a_model_deleted_by_hand_comes_back_and_says_so(first: tuple[Path, Path]) -> None:
    """Deleting an imported model, then importing the same snapshot, said a plain `added`: the
    deletion undone silently. Deleting does not keep a model out; the change list says so."""
    source, catalog = first
    _edit(catalog, "acme", lambda d: d["models"].pop("voice"))
    (catalog / "providers" / "newco.yaml").unlink()
    result = _import(source, catalog)
    assert _read(catalog, "acme")["models"]["voice"]["name"] == "Voice"
    changes = _changes(result)
    assert changes[("acme", "voice", None, "restored")]["reason"] == (
        "deleted from your file, still in the source"
    )
    assert changes[("newco", None, None, "restored")]["reason"] == (
        "its file was deleted from the folder, still in the source"
    )
    assert result.json["summary"]["models"] == {"restored": 1}
    assert result.json["summary"]["providers"] == {"restored": 1}
    _edit(catalog, "acme", lambda d: d["models"].pop("voice"))
    lines = run_import(source, catalog).stdout.splitlines()
    assert "  restored acme/voice: deleted from your file, still in the source" in lines
    assert lines[-1].endswith("changes: models 1 restored.")
    # a model new upstream is still `added`
    (source / "providers" / "acme" / "models" / "fresh.toml").write_text(VOICE)
    assert ("acme", "fresh", None, "added") in _changes(_import(source, catalog))


def test_a_model_kept_for_a_name_says_which(first: tuple[Path, Path], tmp_path: Path) -> None:
    """`kept ... (it holds maintainer edits)` was said of a model kept only because another
    model's successor names it."""
    source, catalog = first
    _edit(catalog, "acme", lambda d: d["models"]["gpt-4"].update(successor="voice"))
    second = tmp_path / "second"
    shutil.copytree(source, second)
    (second / "providers" / "acme" / "models" / "voice.toml").unlink()
    (second / "providers" / "acme" / "models" / "long.toml").unlink()
    result = _import(second, catalog)
    changes = _changes(result)
    assert changes[("acme", "voice", None, "kept")]["reason"] == (
        "gone from the source; the successor of model 'gpt-4' names it"
    )
    assert ("acme", "long", None, "removed") in changes


def test_a_model_kept_for_a_name_stays_the_imports_own(
    first: tuple[Path, Path], tmp_path: Path
) -> None:
    """A model kept because a request default names it was dropped from the record: the next
    import took it for one added by hand (kept for good), and when the source brought it back,
    its changes were listed as the maintainer's (`kept ... maintainer's`), never applied."""
    source, catalog = first

    def name_voice(doc: dict[str, Any]) -> None:
        doc["endpoints"]["chat/completions"]["request_defaults"] = {"model": "voice"}

    _edit(catalog, "acme", name_voice)
    second = tmp_path / "second"
    shutil.copytree(source, second)
    voice = second / "providers" / "acme" / "models" / "voice.toml"
    voice.unlink()
    reason = "gone from the source; the request default of endpoint 'chat/completions' names it"
    assert _changes(_import(second, catalog))[("acme", "voice", None, "kept")]["reason"] == reason
    # imported again: still kept for the same reason, not as a model added by hand
    assert _changes(_import(second, catalog))[("acme", "voice", None, "kept")]["reason"] == reason
    # back upstream with a new limit: the source's value replaces the import's own
    voice.write_text(VOICE.replace("output = 100", "output = 200"))
    changes = _changes(_import(second, catalog))
    assert changes[("acme", "voice", "max_output_tokens", "changed")]["new"] == 200
    assert not [c for c in changes if c[3] == "kept"]
    # gone again, and named by nothing: removed, as the docs say
    voice.unlink()
    _edit(catalog, "acme", lambda d: d["endpoints"]["chat/completions"].pop("request_defaults"))
    assert ("acme", "voice", None, "removed") in _changes(_import(second, catalog))
    assert "voice" not in _read(catalog, "acme")["models"]


def test_a_provider_gone_upstream_keeps_its_edited_file(
    first: tuple[Path, Path], tmp_path: Path
) -> None:
    """Its endpoints edited (a request default) and a price changed: the file was removed."""
    _, catalog = first

    def edit(doc: dict[str, Any]) -> None:
        doc["endpoints"]["chat/completions"]["request_defaults"] = {
            "model": "newco-one",
            "temperature": 0.2,
        }
        doc["models"]["newco-one"]["prices"]["input"] = "0.5"

    _edit(catalog, "newco", edit)
    without = _snapshot(tmp_path / "without", newco=False)
    result = _import(without, catalog)
    assert _read(catalog, "newco")["models"]["newco-one"]["prices"]["input"] == "0.5"
    kept = _changes(result)[("newco", None, None, "kept")]
    assert kept["reason"] == "gone from the source; its endpoints were edited"
    # edited nowhere but in a price: kept too
    _edit(catalog, "newco", lambda d: d["endpoints"]["chat/completions"].pop("request_defaults"))
    result = _import(without, catalog)
    assert _changes(result)[("newco", None, None, "kept")]["reason"] == (
        "gone from the source; the prices of model 'newco-one' were edited"
    )


def test_a_provider_gone_upstream_and_never_edited_is_removed(
    first: tuple[Path, Path], tmp_path: Path
) -> None:
    _, catalog = first
    result = _import(_snapshot(tmp_path / "without", newco=False), catalog)
    assert ("newco", None, None, "removed") in _changes(result)
    assert not (catalog / "providers" / "newco.yaml").exists()


def test_an_unreadable_source_file_keeps_what_the_catalog_has(
    first: tuple[Path, Path], tmp_path: Path
) -> None:
    """A provider.toml that is not TOML removed the provider's file (`removed newco`, exit 0), a
    model file that is not TOML the model: a file the import cannot read is not gone upstream."""
    source, catalog = first
    second = tmp_path / "second"
    shutil.copytree(source, second)
    newco = second / "providers" / "newco" / "provider.toml"
    newco.write_text(newco.read_text() + "name = [broken\n")
    chat = second / "providers" / "acme" / "models" / "chat.toml"
    chat.write_text(chat.read_text() + "[limit\n")
    voice = second / "providers" / "acme" / "models" / "voice.toml"
    voice.write_text(voice.read_text().replace("output = 100", "output = 200"))
    newco_file = (catalog / "providers" / "newco.yaml").read_bytes()
    chat_model = _read(catalog, "acme")["models"]["chat"]
    result = _import(second, catalog)
    assert (catalog / "providers" / "newco.yaml").read_bytes() == newco_file
    models = _read(catalog, "acme")["models"]
    assert models["chat"] == chat_model
    assert models["voice"]["max_output_tokens"] == 200  # the readable files are imported
    changes = _changes(result)
    assert not [c for c in result.json["changes"] if c["kind"] == "removed"]
    assert changes[("newco", None, None, "kept")]["reason"] == (
        "its provider.toml in the source cannot be read: kept as it was"
    )
    assert changes[("acme", "chat", None, "kept")]["reason"] == (
        "its file in the source cannot be read: kept as it was"
    )
    assert result.json["unreadable_kept"] == {"providers": ["newco"], "models": ["acme/chat"]}
    totals = result.json["totals"]
    assert (totals["providers_kept_unreadable"], totals["models_kept_unreadable"]) == (1, 1)
    assert totals["models_kept"] == 0
    assert len(result.diagnostics("import_unreadable_source")) == 2
    text = run_import(second, catalog).stdout.splitlines()
    assert (
        "provcat: kept 1 provider and 1 model as they were, not updated or removed: the snapshot "
        "lists them but their files in it cannot be read (newco, acme/chat; each is an "
        "import_unreadable_source or import_dangling_link warning on stderr). Fix those files, "
        "or fetch the snapshot again, and import again to update them."
    ) in text
    assert "3 models (1 more kept whose source file cannot be read; listed above)" in text[-1]
    # the record still holds what the import wrote of them: readable again, the source's new
    # values replace the import's own, not kept as if a maintainer had set them
    chat.write_text(CHAT.replace("input = 2.50", "input = 2.75"))
    newco.write_text(
        newco.read_text().replace("name = [broken\n", "").replace('"Newco"', '"Newco Two"')
    )
    changes = _changes(_import(second, catalog))
    assert changes[("acme", "chat", "prices", "changed")]["new"]["input"] == "2.75"
    assert changes[("newco", None, "display_name", "changed")]["new"] == "Newco Two"
    assert not [c for c in changes if c[3] == "kept"]


def test_a_snapshot_lacking_most_providers_is_refused(tmp_path: Path) -> None:
    """A snapshot folder holding 3 providers of a catalog's 147 wrote `0 files written, 144
    removed`, exit 0: more than half of the imported providers gone is refused, nothing
    written, unless --allow-removals says the source really dropped them."""
    whole = _snapshot(tmp_path / "whole")
    _provider(whole, "zeta", {"zeta-one": NEWCO})
    catalog = tmp_path / "catalog"
    _import(whole, catalog)
    part = _snapshot(tmp_path / "part", newco=False)  # acme alone: 2 of 3 providers gone
    before = tree_bytes(catalog)
    result = run_import(part, catalog)
    assert result.exit_code == 2
    assert (
        f"{part} lacks 2 of the 3 providers an import wrote into {catalog / 'providers'} (newco, "
        "zeta), so this import would remove their files: more than half of them. Nothing was "
        "written. A partial snapshot looks like this"
    ) in " ".join(result.stderr.split())
    assert "pass --allow-removals" in result.stderr
    assert tree_bytes(catalog) == before
    refused = run_import(part, catalog, "--format", "json").json
    assert (refused["ok"], refused["error"]) == (False, "TooManyRemovals")
    assert refused["message"].endswith("if the source really dropped them, pass --allow-removals")
    assert tree_bytes(catalog) == before
    result = _import_with(part, catalog, "--allow-removals")
    assert result.json["summary"]["providers"] == {"removed": 2}
    assert sorted(p.name for p in (catalog / "providers").glob("*.yaml")) == ["acme.yaml"]
    # half of them is not more than half: removed without the flag
    _import(whole, catalog)
    shutil.rmtree(whole / "providers" / "zeta")
    assert _changes(_import(whole, catalog))[("zeta", None, None, "removed")]


def _wide(root: Path, *, lacks: int = 0, tiny_lacks: int = 0) -> Path:
    """acme and newco, and wide (6 models) and tiny (3 models) lacking their last ones."""
    _snapshot(root)
    _provider(root, "wide", {f"w{i}": NEWCO for i in range(1, 7 - lacks)})
    _provider(root, "tiny", {f"t{i}": NEWCO for i in range(1, 4 - tiny_lacks)})
    return root


def test_a_snapshot_lacking_most_models_of_a_provider_is_refused(tmp_path: Path) -> None:
    """A provider's folder that lost 18 of its 20 model files (a sparse checkout, a folder
    copied in part) was imported with exit 0 and `models: {'removed': 18}`: more than half of
    the models an import wrote for a provider of 4 or more gone is refused as a lacking provider
    is, nothing written, unless --allow-removals."""
    catalog = tmp_path / "catalog"
    _import(_wide(tmp_path / "whole"), catalog)

    def hand_added(data: dict[str, Any]) -> None:  # not counted: no import wrote it
        facts = {k: v for k, v in data["models"]["w1"].items() if k != "imported"}
        data["models"]["w-hand"] = copy.deepcopy(facts)

    _edit(catalog, "wide", hand_added)
    part = _wide(tmp_path / "part", lacks=4, tiny_lacks=2)
    before = tree_bytes(catalog)
    result = run_import(part, catalog)
    assert result.exit_code == 2
    assert (
        f"{part} lacks most of the models an import wrote for 1 provider in "
        f"{catalog / 'providers'} (wide 4 of 6), so this import would remove them from their "
        "files: more than half of each one's. Nothing was written. A partial snapshot looks like "
        "this"
    ) in " ".join(result.stderr.split())
    assert "pass --allow-removals" in result.stderr
    assert tree_bytes(catalog) == before
    refused = run_import(part, catalog, "--format", "json").json
    assert (refused["ok"], refused["error"]) == (False, "TooManyRemovals")
    assert tree_bytes(catalog) == before
    # tiny's 2 of 3 are below the minimum: removed with wide's under --allow-removals
    result = _import_with(part, catalog, "--allow-removals")
    assert result.json["summary"]["models"] == {"kept": 1, "removed": 6}
    assert sorted(_read(catalog, "wide")["models"]) == ["w-hand", "w1", "w2"]
    # half of them is not more than half, and a model kept as a maintainer's is not removed
    _import(_wide(tmp_path / "again"), catalog)
    _edit(catalog, "wide", lambda data: data["models"]["w3"].update(note="Ours."))
    changes = _changes(_import(_wide(tmp_path / "fewer", lacks=4), catalog))
    assert [c[1] for c in changes if c[3] == "removed"] == ["w4", "w5", "w6"]
    assert changes[("wide", "w3", None, "kept")]


def test_a_new_commit_is_one_line_not_a_change_per_model(
    first: tuple[Path, Path], tmp_path: Path
) -> None:
    """Every model's `source` link names the commit: a new commit showed as thousands of field
    changes, the real ones buried under them."""
    source, catalog = first
    second = tmp_path / "second"
    shutil.copytree(source, second)
    (second / "COMMIT").write_text("1234567000000000000000000000000000000000\n")
    chat = second / "providers" / "acme" / "models" / "chat.toml"
    chat.write_text(chat.read_text().replace("output = 8000", "output = 9000"))
    shutil.copytree(catalog, tmp_path / "again")
    result = run_import(second, catalog, "--format", "json")
    summary = result.json["summary"]
    assert summary["fields"] == {"changed": 1} and summary["source_links_relinked"] == 5
    text = [
        line
        for line in run_import(second, tmp_path / "again").stdout.splitlines()
        if line.startswith("  ")
    ]
    assert text[0] == "  changed  acme/chat: max_output_tokens 8000 -> 9000"
    assert text[1] == (
        "  relinked the source links of 5 models to commit 1234567000000000000000000000000000000000"
        " (their files in the source are the same files; not counted as changes)"
    )


def test_a_snapshot_without_a_commit_says_so_once(tmp_path: Path) -> None:
    result = _import(_snapshot(tmp_path / "src", commit=None), tmp_path / "catalog")
    found = result.diagnostics("import_missing_commit")
    assert len(found) == 1 and "no model gets a `source` link" in found[0]["message"]
    assert "source" not in _read(tmp_path / "catalog", "acme")["models"]["chat"]


def test_cost_fields_spelled_otherwise_are_mapped(tmp_path: Path) -> None:
    """Perplexity's `citation` and the `cached_input` / `cache_input` spellings of a cache read
    were dropped (citations charged at the output rate, cache reads at the input rate)."""
    source = tmp_path / "src"
    _provider(
        source,
        "acme",
        {
            "research": CHAT.replace("output = 10\n", "output = 10\ncitation = 2.0\n"),
            "cached": CHAT.replace("output = 10\n", "output = 10\ncached_input = 0.25\n"),
            "cache": CHAT.replace("output = 10\n", "output = 10\ncache_input = 0.3\n"),
            "both": CHAT.replace(
                "output = 10\n", "output = 10\ncache_read = 0.2\ncache_input = 0.3\n"
            ),
            "fee": CHAT.replace("output = 10\n", "output = 10\nrequest = 5.0\n"),
        },
    )
    (source / "COMMIT").write_text(COMMIT)
    result = _import(source, tmp_path / "catalog")
    models = _read(tmp_path / "catalog", "acme")["models"]
    assert models["research"]["prices"]["citation"] == "2.0"
    assert models["cached"]["prices"]["cache_read"] == "0.25"
    assert models["cache"]["prices"]["cache_read"] == "0.3"
    assert models["both"]["prices"]["cache_read"] == "0.2"
    assert [d["message"] for d in result.diagnostics("import_invalid_value")] == [
        "acme/both: cost.cache_input 0.3 differs from cost.cache_read 0.2; cache_read 0.2 is "
        "imported"
    ]
    unknown = [d["message"] for d in result.diagnostics("import_unknown_field")]
    assert unknown == ["acme/fee: cost field 'request' is not mapped"]


def test_a_price_tier_above_the_input_limit_is_left_out(tmp_path: Path) -> None:
    """github-copilot/gpt-5.4: a tier above 272,000 input tokens with an input limit of 272,000."""
    source = tmp_path / "src"
    _provider(
        source,
        "acme",
        {
            "big": "[limit]\ncontext = 400000\ninput = 272000\noutput = 1000\n"
            "[cost]\ninput = 2.5\noutput = 15\n"
            '[[cost.tiers]]\ntier = { type = "context", size = 272_000 }\ninput = 5\noutput = 22.5\n'
        },
    )
    (source / "COMMIT").write_text(COMMIT)
    result = _import(source, tmp_path / "catalog")
    assert [d["message"] for d in result.diagnostics("import_limit_conflict")] == [
        "acme/big: a price tier above 272000 input tokens can never apply within the input "
        "limit 272000; the tier is left out"
    ]
    assert "tiers" not in _read(tmp_path / "catalog", "acme")["models"]["big"]["prices"]


TRICKY = [
    *("1e3", "2e5", "1E10", "08", "09", "0o17", "00", "yes", "no", "on", "off", "null", "~"),
    *("true", "1:30", "1_000", ".5", "-0x1F", "0x1F", "+1", ".inf", ".nan", "=", "<<"),
    *("2026-01-01", "", "1.5e3", "-", "plain text"),
]


def test_the_writer_quotes_every_string_the_loader_would_read_otherwise() -> None:
    """The importer wrote `1e3` and `08` plain, which the YAML 1.2 loader reads as a number or
    refuses: what it writes reads back as the same data, by the loader and by YAML 1.1."""
    data = {"models": {t: {"name": t, "family": t, "aliases": [t]} for t in TRICKY}}
    text = dump("", data)
    doc, problems = load_bytes(text.encode(), "x.yaml")
    assert problems == [] and doc is not None and doc.data == data
    assert yaml.safe_load(text) == data
    assert "  plain text:\n    name: plain text\n" in text  # what needs no quotes gets none


def test_an_imported_model_named_like_a_number_builds(tmp_path: Path) -> None:
    source = tmp_path / "src"
    _provider(source, "acme", {"1e3": 'name = "08"\nfamily = "2e5"\n' + CHAT.split("\n", 1)[1]})
    (source / "COMMIT").write_text(COMMIT)
    _import(source, tmp_path / "catalog")
    model = _read(tmp_path / "catalog", "acme")["models"]["1e3"]
    assert (model["name"], model["family"]) == ("08", "2e5")
