"""What the models.dev import cannot map is said, never dropped silently: OpenRouter's API (OpenAI's
chat completions) gets its endpoint, a model's own API (`[provider]`) is warned about per model and
counted, and the facts the catalog has no field for (reasoning toggles and budgets, `interleaved`,
fast-mode prices) are one warning per kind. Small models.dev-shaped snapshots, written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.importers import models_dev
from tests.conftest import tree_bytes
from tests.scale.conftest import ImportRun, import_and_build, provider_file, run_import

COMMIT = "f3fc692299671838c7c65fd8126bf84d81a2e817"
OPENROUTER = (
    'name = "OpenRouter"\nenv = ["OPENROUTER_API_KEY"]\nnpm = "@openrouter/ai-sdk-provider"\n'
    'api = "https://openrouter.ai/api/v1"\ndoc = "https://openrouter.ai/models"\n'
)
ZEN = (
    'name = "Zen"\nenv = ["ZEN_API_KEY"]\nnpm = "@ai-sdk/openai-compatible"\n'
    'api = "https://zen.test/v1"\n'
)
PLAIN = 'name = "Plain"\n[limit]\ncontext = 1000\noutput = 100\n[cost]\ninput = 1\noutput = 2\n'


def _snapshot(root: Path, providers: dict[str, tuple[str, dict[str, str]]]) -> Path:
    """``providers``: id -> (provider.toml, {model id: model TOML})."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "COMMIT").write_text(COMMIT + "\n")
    for key, (info, models) in providers.items():
        folder = root / "providers" / key / "models"
        folder.mkdir(parents=True)
        (folder.parent / "provider.toml").write_text(info)
        for model_id, text in models.items():
            (folder / f"{model_id}.toml").write_text(text)
    return root


def _imported(source: Path, into: Path, *extra: str) -> ImportRun:
    return import_and_build(source, into, "--format", "json", *extra)


_file = provider_file


def _unknown(result: ImportRun) -> list[tuple[str, int, str]]:
    return [
        (d["file"].rsplit("/providers/", 1)[-1], d["line"], d["message"])
        for d in result.diagnostics("import_unknown_field")
    ]


# --- 1. OpenRouter speaks OpenAI's chat completions API ----------------------------------------


def test_openrouter_gets_the_openai_chat_endpoint_of_any_compatible_provider(
    tmp_path: Path,
) -> None:
    src = _snapshot(
        tmp_path / "src",
        {"openrouter": (OPENROUTER, {"m": PLAIN}), "zen": (ZEN, {"m": PLAIN})},
    )
    into = tmp_path / "catalog"
    result = _imported(src, into)
    openrouter, zen = _file(into, "openrouter"), _file(into, "zen")
    assert "inventory_only" not in openrouter
    assert openrouter["defaults"] == {
        "base_url": "https://openrouter.ai/api/v1",
        "auth_type": "bearer",
        "api_key_env": "OPENROUTER_API_KEY",
    }
    assert openrouter["endpoints"] == zen["endpoints"]
    assert openrouter["endpoints"]["chat/completions"]["protocol"] == "openai-chat"
    assert result.json["totals"]["inventory_only"] == 0


@pytest.mark.parametrize(
    ("info", "reason"),
    [
        (
            'name = "Groq"\nnpm = "@ai-sdk/groq"\nenv = ["GROQ_API_KEY"]\n',
            "models.dev names the SDK package @ai-sdk/groq for it, and no base URL; the import "
            "makes endpoints only for an API it knows to be the OpenAI chat completions API",
        ),
        (
            'name = "MiniMax"\nnpm = "@ai-sdk/anthropic"\napi = "https://api.minimax.test/v1"\n',
            "models.dev names the SDK package @ai-sdk/anthropic for it; the import makes "
            "endpoints only for an API it knows to be the OpenAI chat completions API",
        ),
        (
            'name = "Bare"\n',
            "models.dev names no SDK package for it, and no base URL; the import makes "
            "endpoints only for an API it knows to be the OpenAI chat completions API",
        ),
    ],
)
def test_the_inventory_only_reason_says_only_what_the_source_says(
    tmp_path: Path, info: str, reason: str
) -> None:
    """It said "an API provcat has no protocol for" of every package: of OpenRouter's (OpenAI chat
    completions, provcat's openai-chat) and Anthropic's (provcat's anthropic-messages) too."""
    src = _snapshot(tmp_path / "src", {"vendor": (info, {"m": PLAIN})})
    into = tmp_path / "catalog"
    _imported(src, into)
    vendor = _file(into, "vendor")
    assert vendor["inventory_only"] == reason
    # written plain, as readable in the file as in the generated docs
    assert f"inventory_only: {reason}\n" in (into / "providers" / "vendor.yaml").read_text()
    assert "endpoints" not in vendor and "defaults" not in vendor


def _import_as_before(monkeypatch: pytest.MonkeyPatch, src: Path, into: Path) -> None:
    """An import by the importer before OpenRouter's package was known: inventory only."""
    with monkeypatch.context() as patch:
        patch.setattr(models_dev, "OPENAI_CHAT_NPM", frozenset({models_dev.OPENAI_COMPATIBLE_NPM}))
        _imported(src, into)
    assert "inventory_only" in _file(into, "openrouter")


@pytest.mark.parametrize("record", [True, False], ids=["with-record", "without-record"])
def test_a_reimport_replaces_the_inventory_only_marker_with_the_endpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: bool
) -> None:
    src = _snapshot(tmp_path / "src", {"openrouter": (OPENROUTER, {"m": PLAIN})})
    into = tmp_path / "catalog"
    _import_as_before(monkeypatch, src, into)
    if not record:
        (into / "providers" / ".models-dev-import.json").unlink()
    text = (into / "providers" / "openrouter.yaml").read_text()
    (into / "providers" / "openrouter.yaml").write_text(
        text.replace("    imported:", "    note: kept by every re-import\n    imported:")
    )
    result = _imported(src, into)  # the catalog builds: marker and endpoint never both
    openrouter = _file(into, "openrouter")
    assert "inventory_only" not in openrouter
    assert openrouter["endpoints"]["chat/completions"]["protocol"] == "openai-chat"
    assert openrouter["defaults"]["base_url"] == "https://openrouter.ai/api/v1"
    assert openrouter["models"]["m"]["note"] == "kept by every re-import"
    kinds = {(c["field"], c["kind"]) for c in result.json["changes"] if c["model"] is None}
    assert {("inventory_only", "removed"), ("endpoints", "added")} <= kinds
    recorded = json.loads((into / "providers" / ".models-dev-import.json").read_text())
    assert "endpoints" in recorded["providers"]["openrouter"]
    again = run_import(src, into, "--format", "json")  # and it is stable
    assert again.json["totals"]["files_written"] == 0


def test_a_maintainers_inventory_only_reason_is_kept_and_no_endpoint_added(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = _snapshot(tmp_path / "src", {"openrouter": (OPENROUTER, {"m": PLAIN})})
    into = tmp_path / "catalog"
    _import_as_before(monkeypatch, src, into)
    path = into / "providers" / "openrouter.yaml"
    lines = path.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("inventory_only: "))
    lines[at] = "inventory_only: we route through our own gateway\n"
    path.write_text("".join(lines))
    result = _imported(src, into)  # builds: the endpoint is not added beside the marker
    openrouter = _file(into, "openrouter")
    assert openrouter["inventory_only"] == "we route through our own gateway"
    assert "endpoints" not in openrouter and "defaults" not in openrouter
    kept = [c for c in result.json["changes"] if c["field"] == "inventory_only"]
    assert [(c["kind"], c["old"]) for c in kept] == [("kept", "we route through our own gateway")]
    assert "delete inventory_only" in kept[0]["reason"]


# --- 2. a model's own API (`[provider]`) -------------------------------------------------------

CLAUDE = (
    'name = "Claude"\n'  # line 1
    "reasoning = true\n"
    "[cost]\n"
    "input = 5\n"
    "output = 25\n"
    "[provider]\n"  # line 6
    'npm = "@ai-sdk/anthropic"\n'
)
RESPONSES = 'name = "GPT"\n\n[provider]\nshape = "responses"\n'  # [provider] on line 3
ELSEWHERE = 'name = "Elsewhere"\nprovider = { npm = "@ai-sdk/openai-compatible", api = "https://b.test/v1" }\n'
SAME = 'name = "Same"\n[provider]\nnpm = "@ai-sdk/openai-compatible"\napi = "https://zen.test/v1"\n'


def test_a_models_own_api_is_warned_about_and_counted(tmp_path: Path) -> None:
    src = _snapshot(
        tmp_path / "src",
        {
            "zen": (
                ZEN,
                {"claude": CLAUDE, "gpt": RESPONSES, "elsewhere": ELSEWHERE, "same": SAME},
            ),
            "vendor": ('name = "Vendor"\nnpm = "@ai-sdk/azure"\n', {"claude": CLAUDE}),
        },
    )
    into = tmp_path / "catalog"
    result = _imported(src, into)
    warned = [(f, line) for f, line, m in _unknown(result) if "an API of its own" in m]
    assert warned == [
        ("vendor/models/claude.toml", 6),
        ("zen/models/claude.toml", 6),
        ("zen/models/elsewhere.toml", 2),
        ("zen/models/gpt.toml", 3),
    ]  # `same` repeats its provider's API: nothing is lost, nothing said
    messages = {f: m for f, _, m in _unknown(result)}
    assert messages["zen/models/claude.toml"] == (
        "zen/claude: models.dev gives this model an API of its own ([provider] npm "
        "'@ai-sdk/anthropic'; the provider's: npm '@ai-sdk/openai-compatible', api "
        "'https://zen.test/v1'); the catalog has no per-model endpoint, so it is listed under "
        "the provider's chat/completions endpoint, which may not serve it"
    )
    assert "api 'https://b.test/v1'" in messages["zen/models/elsewhere.toml"]
    assert "shape 'responses'" in messages["zen/models/gpt.toml"]
    assert "the provider is inventory only" in messages["vendor/models/claude.toml"]
    assert result.json["totals"]["models_with_own_api"] == 4
    # the models themselves are imported whole
    claude = _file(into, "zen")["models"]["claude"]
    assert claude["prices"] == {"input": "5", "output": "25"} and claude["reasoning"] is True
    assert sorted(_file(into, "zen")["models"]) == ["claude", "elsewhere", "gpt", "same"]
    text = run_import(src, tmp_path / "again")  # the text summary counts them too
    assert "4 of these name a model with an API of its own" in text.stdout.splitlines()[0]
    assert text.stderr.count("an API of its own") == 4


# --- 3. facts the catalog has no field for: one warning per kind --------------------------------


def _reasoner(n: int) -> str:
    return (
        f'name = "R{n}"\n'
        "reasoning = true\n"
        'reasoning_options = [{ type = "toggle" }, { type = "budget_tokens", min = 1024, '
        'max = 32000 }, { type = "effort", values = ["low", "high"] }]\n'
        'interleaved = { field = "reasoning_content" }\n'
        "[cost]\ninput = 5\noutput = 25\n"
        "[experimental.modes.fast]\n"
        "cost = { input = 30, output = 150 }\n"
        'provider = { body = { speed = "fast" } }\n'
    )


def test_left_out_facts_are_one_warning_per_kind(tmp_path: Path) -> None:
    models = {f"r{n}": _reasoner(n) for n in range(5)}
    models["lab"] = 'base_model = "lab/x"\n'  # inherits `interleaved = true`
    models["plain"] = PLAIN
    src = _snapshot(tmp_path / "src", {"zen": (ZEN, models)})
    lab = src / "models" / "lab" / "x.toml"
    lab.parent.mkdir(parents=True)
    lab.write_text('name = "Lab"\ninterleaved = true\n')
    into = tmp_path / "catalog"
    result = _imported(src, into)
    found = sorted((f, line, m.split(":")[0]) for f, line, m in _unknown(result))
    assert found == [
        ("zen/models/lab.toml", 1, "`interleaved` (interleaved reasoning, and the message field that carries it)"),
        ("zen/models/r0.toml", 3, "reasoning_options of type 'budget_tokens' (a reasoning token budget, with its `min` and `max`)"),
        ("zen/models/r0.toml", 3, "reasoning_options of type 'toggle' (reasoning that can be switched on and off)"),
        ("zen/models/r0.toml", 8, "`experimental.modes.fast` (the prices of the model's fast mode, and the request fields that select it)"),
    ]  # fmt: skip
    messages = {m.split(":")[0]: m for _, _, m in _unknown(result)}
    assert (
        "left out of 6 models (the first is zen/lab; one warning for all of them)"
        in (
            messages["`interleaved` (interleaved reasoning, and the message field that carries it)"]
        )
    )
    fast = next(m for k, m in messages.items() if k.startswith("`experimental.modes.fast`"))
    assert fast.endswith(
        "left out of 5 models (the first is zen/r0; one warning for all of them): the catalog "
        "has no price field for a mode; the model's standard prices are imported"
    )
    # what maps is mapped: the effort levels and the standard prices
    r0 = _file(into, "zen")["models"]["r0"]
    assert r0["reasoning_efforts"] == ["low", "high"]
    assert r0["prices"] == {"input": "5", "output": "25"}


def test_every_models_dev_model_field_is_mapped_warned_or_listed_as_left_out() -> None:
    """No field of models.dev's model schema is dropped without a word: each is mapped (KNOWN),
    reported (LEFT_OUT kinds, a model's own API), or named in NOT_MAPPED, which
    docs/big-catalog.md lists as left out."""
    from generator.importers.model_facts import KNOWN, NOT_MAPPED

    for name in ("interleaved", "experimental", "provider", "reasoning_options"):
        assert name in KNOWN and name not in NOT_MAPPED
    docs = (Path(__file__).resolve().parents[2] / "docs" / "big-catalog.md").read_text()
    for name in sorted(NOT_MAPPED - {"base_model", "base_model_omit"}):
        assert f"`{name}`" in docs, name


# --- 5. the summary says where the warnings are --------------------------------------------------


def test_the_text_summary_says_the_warnings_are_on_stderr(tmp_path: Path) -> None:
    src = _snapshot(tmp_path / "src", {"zen": (ZEN, {"r0": _reasoner(0)})})
    into = tmp_path / "catalog"
    result = run_import(src, into)
    assert result.exit_code == 0
    first = result.stdout.splitlines()[0]
    assert first == (
        "provcat: 4 warnings about the source (4 import_unknown_field); each is printed on "
        "stderr with what the import did about it."
    )
    assert "warning[import_unknown_field]" not in result.stdout
    assert result.stderr.count("warning[import_unknown_field]") == 4
    before = tree_bytes(into)
    assert run_import(src, into).exit_code == 0
    assert tree_bytes(into) == before
