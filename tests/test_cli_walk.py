"""What a new user's walk through the command line found, each as the user sees it (README,
"Errors on the command line"): a key is never printed back, whatever its vendor and wherever
it is pasted (a model, a file's name, a value glued to a word); `tool diff - -` is refused;
an error says what to do; a tool command's JSON usage error names its command in
`details.command`; every command's text error is `Error: Code: message`; a file named `-` is
shown `./-`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from provcat.cli.main import main
from tests.conftest import ROOT

TOOLS = str(ROOT / "examples" / "tools")
REFUND = ROOT / "examples" / "tools" / "refund_order.json"
JSON = ["--format", "json"]
KEY = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"  # shaped like an OpenAI project key
GOOGLE_KEY = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"  # `AIza` and 35 characters
# no probe may reach a vendor, whatever this machine's environment holds
NO_KEYS = {name: None for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY")}


def invoke(argv: list[str], **kwargs: Any) -> Result:
    return CliRunner().invoke(main, argv, prog_name="provcat", **kwargs)


def said(result: Result) -> str:
    return result.stdout + result.stderr


def assert_hidden(result: Result, secret: str) -> None:
    # in either case: a provider's name is repeated casefolded
    assert secret[:12].casefold() not in said(result).casefold(), said(result)
    assert "<redacted>" in said(result), said(result)


# ---- 1a. every vendor's key shape is hidden, a key glued to a word too


# keys as each vendor issues them (made up): the prefix, then the vendor's characters
VENDOR_KEYS = {
    "OpenAI project": KEY,
    "OpenAI service account": "sk-svcacct-" + "Ab3dEf6hIj9kLm2n" * 4,
    "OpenAI legacy": "sk-" + "Ab3dEf6hIj9kLm2n" * 3,
    "Anthropic": "sk-ant-api03-" + "Ab3dEf6hIj9kLm2n_-" * 5,
    "OpenRouter": "sk-or-v1-" + "0123456789abcdef" * 4,
    "xAI": "xai-" + "Ab3dEf6hIj9kLm2n" * 5,
    "Groq": "gsk_" + "Ab3dEf6hIj9kLm2nOp5qRs8t" * 2,
    "Cerebras": "csk-" + "mnh6xkrr3km8hexy" * 3,
    "Fireworks": "fw_" + "3ZAb3dEf6hIj9kLm2nOp5q",
    "Perplexity": "pplx-" + "Ab3dEf6hIj9kLm2n" * 3,
    "Firecrawl": "fc-" + "0123456789abcdef" * 2,
    "Tavily": "tvly-dev-" + "Ab3dEf6hIj9kLm2nOp5qRs8t",
    "NVIDIA": "nvapi-" + "Ab3dEf6hIj9kLm2n" * 4,
    "Google standard": GOOGLE_KEY,
    "Gemini auth": "AQ.Ab8RN6" + "Ab3dEf6hIj9kLm2n_-" * 3,
}


@pytest.mark.parametrize("key", VENDOR_KEYS.values(), ids=list(VENDOR_KEYS))
@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_no_vendor_key_pasted_as_a_provider_is_printed_back(key: str, fmt: list[str]) -> None:
    run = invoke(["models", "--provider", key, *fmt])
    assert run.exit_code == 1
    assert_hidden(run, key)


@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_a_google_key_pasted_as_a_model_is_not_printed_back(fmt: list[str]) -> None:
    """Found in the walk: `AIza...` was no key shape at all."""
    run = invoke(["models", "show", "openai", GOOGLE_KEY, *fmt])
    assert run.exit_code == 2
    assert_hidden(run, GOOGLE_KEY)


@pytest.mark.parametrize(
    "value",
    [f"OPENAI_API_KEY={GOOGLE_KEY}", f"GEMINI_API_KEY={GOOGLE_KEY}", f"api_key={KEY}"],
)
@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_a_key_given_as_a_variable_s_value_is_not_printed_back(value: str, fmt: list[str]) -> None:
    for argv in (["models", "--provider", value], ["tool", "check", TOOLS, "--targets", value]):
        run = invoke([*argv, *fmt])
        assert run.exit_code in (1, 2), said(run)
        assert_hidden(run, value.partition("=")[2])


@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_a_key_glued_to_a_file_s_name_is_not_printed_back(fmt: list[str], tmp_path: Path) -> None:
    """`key_sk-proj-....json`: `\\b` does not start a word after `_`."""
    for glued in (f"key_{KEY}.json", f"backup_{GOOGLE_KEY}.json"):
        run = invoke(["tool", "check", str(tmp_path / glued), *fmt])
        assert run.exit_code == 2, said(run)
        secret = glued.partition("_")[2]
        assert_hidden(run, secret)
        assert "key_<redacted>" in said(run) or "backup_<redacted>" in said(run)


def _catalog_models() -> list[tuple[str, str]]:
    run = invoke(["models", *JSON])
    assert run.exit_code == 0
    return [(m["provider"], m["id"]) for m in json.loads(run.stdout)]


def test_every_model_of_the_catalog_stays_visible() -> None:
    """A key shape broad enough to hide a model id would refuse the model itself."""
    models = _catalog_models()
    assert len(models) > 20
    for provider, model in models:
        run = invoke(["models", "show", provider, model, *JSON])
        assert run.exit_code == 0, (provider, model, said(run))
        assert json.loads(run.stdout)["id"] == model


@pytest.mark.parametrize(
    "model",
    [
        "gpt-5-mini",
        "claude-sonnet-5",
        "skywork-o1-open-llama-3.1-8b",
        "Skywork/Skywork-Reward-Llama-3.1-8B",
        "xai/grok-4",
        "sk-1",  # too short for a key
        "fc-main",
        "mistral-small-2506",
        "accounts/fireworks/models/llama-v3p1-8b-instruct",
        "gemini-2.5-flash-lite",
    ],
)
@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_model_ids_that_are_not_keys_are_shown(model: str, fmt: list[str]) -> None:
    run = invoke(["model", f"openrouter/{model}", *fmt])
    assert run.exit_code == 0, said(run)
    assert model in run.stdout and "<redacted>" not in said(run)


@pytest.mark.parametrize("name", ["xai_responses", "use_fc_config", "fc_settings_for_the_crawler"])
def test_a_name_that_starts_like_a_key_stays_visible(name: str) -> None:
    """`xai_responses` (an endpoint's instance name) is no key: xAI's keys are `xai-...`."""
    run = invoke(["resolve", name])
    assert run.exit_code == 1
    assert f"unknown provider '{name}'" in run.stderr and "<redacted>" not in run.stderr


def test_a_hub_token_id_stays_visible(tmp_path: Path) -> None:
    """A token's id (12 hex digits) is no secret: `token revoke` names it back."""
    run = invoke(["hub", "token", "revoke", "0123456789ab", "--data-dir", str(tmp_path / "hub")])
    assert run.exit_code == 1
    assert "0123456789ab" in said(run) and "<redacted>" not in said(run)


# ---- 1b. a model shaped like a key is a usage error, before anything runs


@pytest.mark.parametrize(
    "stem",
    [
        "get_fw_update_status_for_device",  # `_fw_` then a long snake_case name (firmware)
        "train_sk_learn_regression_model",  # `_sk_` (scikit-learn)
        "lookup_pk_for_customer_order_rows",  # `_pk_` (a primary key)
    ],
)
def test_a_tool_file_named_in_snake_case_is_shown_by_its_name(stem: str, tmp_path: Path) -> None:
    # found by a review: a glued key prefix followed by 20 name characters hid such names
    tool = json.loads(REFUND.read_text(encoding="utf-8"))
    (tmp_path / f"{stem}.json").write_text(json.dumps(tool), encoding="utf-8")
    run = invoke(["tool", "check", str(tmp_path / f"{stem}.json"), "--targets", "openai"])
    assert f"{stem}.json" in run.stdout and "<redacted>" not in said(run)


MODEL_LINES = {
    "model": (["model", f"openai/{KEY}"], "SPEC", "model"),
    "model, no provider": (["model", KEY], "SPEC", "model"),
    "models show": (["models", "show", "openai", KEY], "MODEL", "models show"),
    "cost": (["cost", "openai", KEY, "--input", "1"], "MODEL", "cost"),
    "cost, PROVIDER/MODEL": (["cost", f"openai/{KEY}", "--input", "1"], "", "cost"),
    "models show, PROVIDER/MODEL": (["models", "show", f"openai/{KEY}"], "", "models show"),
    "tool probe --model": (
        ["tool", "probe", str(REFUND), "--model", KEY],
        "--model",
        "tool probe",
    ),
    "hub resolve --base-model": (
        ["hub", "resolve", "hub://acme/x", "--base-model", KEY, "--hub", "http://127.0.0.1:9"],
        "--base-model",
        "hub resolve",
    ),
}


@pytest.mark.parametrize(("argv", "param", "command"), MODEL_LINES.values(), ids=list(MODEL_LINES))
def test_a_model_shaped_like_a_key_is_refused_as_a_usage_error(
    argv: list[str], param: str, command: str
) -> None:
    run = invoke([*argv, *JSON], env=NO_KEYS)
    assert run.exit_code == 2 and run.stderr == "", said(run)
    body = json.loads(run.stdout)
    assert body["error"] == "UsageError", body
    assert body["details"]["command"] == f"provcat {command}"
    if param:  # a key in PROVIDER/MODEL is said of the whole argument
        assert f"Invalid value for '{param}'" in body["message"]
    assert "looks like an API key" in body["message"]
    assert "environment variable" in body["message"]
    assert_hidden(run, KEY)
    text = invoke(argv, env=NO_KEYS)
    assert text.exit_code == 2 and text.stdout == ""
    assert text.stderr.startswith("Usage: provcat") and "looks like an API key" in text.stderr
    assert_hidden(text, KEY)


def test_the_refusal_names_the_provider_s_environment_variable() -> None:
    run = invoke(["model", f"openai/{KEY}"])
    assert "OPENAI_API_KEY" in run.stderr
    assert "`provcat resolve openai chat/completions`" in run.stderr
    run = invoke(["cost", "gemini", GOOGLE_KEY, "--input", "1"])
    assert run.exit_code == 2 and "GEMINI_API_KEY" in run.stderr
    assert_hidden(run, GOOGLE_KEY)


# ---- 1c. a key-shaped file name that holds a tool: not repeated in the results


@pytest.fixture
def key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    Path("kd").mkdir()
    Path("kd", f"{KEY}.json").write_bytes(REFUND.read_bytes())
    return f"kd/{KEY}.json"


@pytest.mark.parametrize(
    "line",
    [["tool", "check", "--targets", "openai"], ["tool", "compile", "--targets", "openai"]],
    ids=["check", "compile"],
)
@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_a_key_shaped_file_name_is_redacted_in_the_results(
    line: list[str], fmt: list[str], key_file: str
) -> None:
    run = invoke([*line, key_file, *fmt])
    assert run.exit_code in (0, 1), said(run)
    assert_hidden(run, KEY)
    assert "kd/<redacted>.json" in run.stdout
    if fmt or line[1] == "compile":  # the JSON report, or the manifest compile prints
        body = json.loads(run.stdout)
        tools = body["tools"] if "tools" in body else body["manifest"]["tools"]
        assert [t["source"] for t in tools] == ["kd/<redacted>.json"]


def test_the_written_manifest_redacts_a_key_shaped_source(key_file: str) -> None:
    run = invoke(["tool", "compile", "--targets", "openai", key_file, "--out", "out"])
    assert run.exit_code == 0, said(run)
    manifest = json.loads(Path("out", "manifest.json").read_text(encoding="utf-8"))
    assert [t["source"] for t in manifest["tools"]] == ["kd/<redacted>.json"]
    assert KEY[:12] not in Path("out", "manifest.json").read_text(encoding="utf-8")


# ---- 2. `tool diff - -`


@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_diff_of_standard_input_with_itself_is_a_usage_error(fmt: list[str]) -> None:
    run = invoke(["tool", "diff", "-", "-", *fmt], input=REFUND.read_bytes())
    assert run.exit_code == 2, said(run)
    if fmt:
        body = json.loads(run.stdout)
        assert body["error"] == "UsageError"
        assert body["details"] == {"command": "provcat tool diff"}
        assert "standard input can be one side only" in body["message"]
    else:
        assert run.stdout == "" and run.stderr.startswith("Usage: provcat tool diff")
        assert "standard input can be one side only" in run.stderr


def test_diff_of_standard_input_with_a_file_still_runs() -> None:
    run = invoke(["tool", "diff", "-", str(REFUND)], input=REFUND.read_bytes())
    assert run.exit_code == 0, said(run)


# ---- 3. errors that say what to do


@pytest.mark.parametrize(
    ("argv", "example"),
    [
        (["models", "show", "openai/gpt-5-mini"], "`provcat models show openai gpt-5-mini`"),
        (["cost", "openai/gpt-5-mini", "--input", "10"], "`provcat cost openai gpt-5-mini`"),
    ],
)
@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_provider_slash_model_in_one_argument_says_to_write_two(
    argv: list[str], example: str, fmt: list[str]
) -> None:
    run = invoke([*argv, *fmt])
    assert run.exit_code == 2
    message = json.loads(run.stdout)["message"] if fmt else run.stderr
    assert "write PROVIDER MODEL" in message and example in message, message


@pytest.mark.parametrize(
    ("argv", "example", "whose"),
    [
        (["cost", "gpt-5-mini", "openai", "--input", "10"], "`provcat cost openai gpt-5-mini`", ""),
        (["models", "show", "gpt-5-mini", "openai"], "`provcat models show openai gpt-5-mini`", ""),
        (
            ["cost", "claude-sonnet-5", "openai", "--input", "10"],
            "`provcat cost anthropic claude-sonnet-5`",
            "a model of anthropic",
        ),
    ],
)
def test_swapped_provider_and_model_are_said_to_be_swapped(
    argv: list[str], example: str, whose: str
) -> None:
    run = invoke([*argv, *JSON])
    body = json.loads(run.stdout)
    assert run.exit_code == 1 and body["error"] == "EndpointNotFound", body
    assert "the arguments look swapped" in body["message"]
    assert example in body["message"] and whose in body["message"]
    assert "did you mean 'gemini'" not in body["message"]
    text = invoke(argv)
    assert text.stderr.startswith("Error: EndpointNotFound: unknown provider")
    assert "the arguments look swapped" in text.stderr


def test_an_unknown_provider_that_is_no_model_is_not_called_swapped() -> None:
    run = invoke(["cost", "gpt-5-mini", "nope", "--input", "10"])
    assert "swapped" not in run.stderr and "did you mean" in run.stderr


@pytest.mark.parametrize(
    ("word", "hint"),
    [("openai", "--targets openai"), ("anthropic-strict", "--targets anthropic-strict")],
)
@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_a_target_id_given_as_a_path_says_how_targets_are_chosen(
    word: str, hint: str, fmt: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run = invoke(["tool", "compile", word, str(REFUND), *fmt])
    assert run.exit_code == 2
    assert f"{word}: no such file or directory; targets are chosen with {hint}" in said(run)


def test_a_provider_given_as_a_path_says_how_its_target_is_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run = invoke(["tool", "check", "groq", str(REFUND)])
    assert run.exit_code == 2 and "chosen with --provider groq" in run.stderr


@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_empty_standard_input_is_said_to_be_empty(fmt: list[str]) -> None:
    for piped in (b"", b"\n  \n"):
        run = invoke(["tool", "check", "-", *fmt], input=piped)
        assert run.exit_code == 2
        assert "<stdin>: standard input is empty" in said(run)
        assert "Expecting value" not in said(run)


@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_standard_input_that_is_no_text_is_not_called_a_file(fmt: list[str]) -> None:
    run = invoke(["tool", "check", "-", *fmt], input=b"\xff")
    assert run.exit_code == 2
    assert "<stdin>: cannot read standard input" in said(run)
    assert "the file" not in said(run)
    if fmt:
        assert json.loads(run.stdout)["errors"][0]["sourcePath"] == "<stdin>"


@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_a_model_without_batch_prices_says_what_to_do(fmt: list[str]) -> None:
    argv = ["cost", "mistral", "mistral-medium-3-5", "--input", "100000", "--batch"]
    run = invoke([*argv, *fmt])
    assert run.exit_code == 1
    message = json.loads(run.stdout)["message"] if fmt else run.stderr
    assert "has no batch prices in the catalog" in message
    assert "drop --batch for the standard price" in message and "`prices:`" in message
    assert invoke(argv[:-1]).exit_code == 0  # without --batch: the standard price


# ---- 4. the tool commands' JSON usage errors name the command in details


@pytest.mark.parametrize(
    "argv",
    [
        ["tool", "check", TOOLS, "--fail-on", "bogus"],
        ["tool", "check"],
        ["tool", "check", TOOLS, "--targets", "openai", "--provider", "openai"],
        ["tool", "compile", TOOLS, "--endpoint", "responses"],
        ["tool", "matrix", TOOLS, "--targets", " , "],
    ],
    ids=lambda argv: " ".join(argv[1:2] + argv[3:4]),
)
def test_a_tool_command_s_json_usage_error_has_details_command(argv: list[str]) -> None:
    run = invoke([*argv, *JSON])
    body = json.loads(run.stdout)
    assert run.exit_code == 2 and body["error"] == "UsageError", body
    assert body["details"] == {"command": f"provcat tool {argv[1]}"}
    # SchemaPort's keys are kept
    assert body["command"] == argv[1] and body["errors"][0]["sourcePath"] == ""


def test_a_tool_command_s_input_error_has_no_details() -> None:
    run = invoke(["tool", "check", TOOLS, "--targets", "nope", *JSON])
    assert "details" not in json.loads(run.stdout)


# ---- 5. one text error shape; a file named `-`


@pytest.mark.parametrize(
    "argv",
    [["model", "nope/x"], ["model", "openai/x", "--endpoint", "respnses"]],
)
def test_the_model_command_s_errors_carry_their_code_in_text(argv: list[str]) -> None:
    run = invoke(argv)
    assert run.exit_code == 1 and run.stdout == ""
    assert run.stderr.startswith("Error: EndpointNotFound: "), run.stderr


@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_a_missing_file_named_dash_is_shown_as_given(
    fmt: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run = invoke(["tool", "check", "./-", *fmt])
    assert run.exit_code == 2
    assert "./-: no such file or directory" in said(run)
    if fmt:
        assert json.loads(run.stdout)["errors"][0]["sourcePath"] == "./-"


def test_a_file_named_dash_is_shown_as_given_in_the_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("-").write_bytes(REFUND.read_bytes())
    run = invoke(["tool", "compile", "--targets", "openai", "./-"])
    assert run.exit_code == 0, said(run)
    assert [t["source"] for t in json.loads(run.stdout)["tools"]] == ["./-"]
