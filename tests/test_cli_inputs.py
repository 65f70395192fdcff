"""What a user gives the command line and sees back: a key pasted where a file goes is never
repeated, `--` ends the options, an unknown provider is one error code whatever the command, and
`-` reads a tool from standard input (README, "Errors on the command line"; docs/tool-schemas.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from provcat.cli.main import main
from tests.conftest import ROOT

TOOLS = str(ROOT / "examples" / "tools")
REFUND = ROOT / "examples" / "tools" / "refund_order.json"
JSON = ["--format", "json"]
KEY = "sk-proj-" + "a1B2c3D4" * 4  # shaped like an OpenAI key


def invoke(argv: list[str], **kwargs: Any) -> Result:
    return CliRunner().invoke(main, argv, prog_name="provcat", **kwargs)


def said(result: Result) -> str:
    return result.stdout + result.stderr


# ---- a key pasted where a file's path goes


def _bad_files(tmp_path: Path) -> dict[str, str]:
    """Paths shaped like a key: missing, unreadable as text, and not JSON."""
    unreadable = tmp_path / f"{KEY}-bytes.json"
    unreadable.write_bytes(b"\xff\xfe")
    not_json = tmp_path / f"{KEY}.json"
    not_json.write_text("not json", encoding="utf-8")
    return {"missing": KEY, "unreadable": str(unreadable), "not JSON": str(not_json)}


TOOL_LINES = [
    ["tool", "check", "{path}"],
    ["tool", "compile", "{path}", "--targets", "openai"],
    ["tool", "matrix", "{path}"],
    ["tool", "probe", "{path}"],
    ["tool", "diff", "{path}", TOOLS],
    ["tool", "diff", TOOLS, "{path}"],
]


@pytest.mark.parametrize("line", TOOL_LINES, ids=lambda line: " ".join(line[:3]))
@pytest.mark.parametrize("kind", ["missing", "unreadable", "not JSON"])
@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_a_tool_command_never_repeats_a_key_given_as_a_file(
    line: list[str], kind: str, fmt: list[str], tmp_path: Path
) -> None:
    path = _bad_files(tmp_path)[kind]
    run = invoke([*(a.replace("{path}", path) for a in line), *fmt])
    assert run.exit_code == 2, said(run)
    assert KEY[:12] not in said(run)
    assert "<redacted>" in said(run)
    if fmt:
        body = json.loads(run.stdout)
        assert body["error"] == "InputError"
        assert all("<redacted>" in e["sourcePath"] for e in body["errors"]), body


@pytest.mark.parametrize(
    "argv",
    [
        ["tool", "check", TOOLS, "--targets", KEY],
        ["tool", "check", TOOLS, "--provider", KEY],
        ["tool", "check", TOOLS, "--fail-on", KEY],
        ["tool", "compile", TOOLS, "--out", f"{REFUND}/{KEY}"],  # under a file: unwritable
        ["hub", "push", KEY, "hub://acme/x:1.0.0"],
        ["hub", "push", str(REFUND), "hub://acme/x:1.0.0", "--manifest", KEY],
        ["hub", "push", str(REFUND), "hub://acme/x:1.0.0", "--card", KEY],
        pytest.param(
            ["hub", "export-static", f"/proc/{KEY}"],  # its temporary folder beside: refused
            marks=pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="Linux's /proc"),
        ),
    ],
    ids=lambda argv: " ".join(a[:10] for a in argv[:4]),
)
@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_no_command_repeats_a_key_given_as_a_path_or_a_value(
    argv: list[str], fmt: list[str], tmp_path: Path
) -> None:
    run = invoke([*argv, *fmt], env={"PROVCAT_HUB_DATA_DIR": str(tmp_path / "hub")})
    assert run.exit_code in (1, 2), said(run)
    assert KEY[:12] not in said(run)
    assert "<redacted>" in said(run)


# ---- `--` ends the options


@pytest.mark.parametrize(
    "argv",
    [
        ["models", "--", "--format", "json"],
        ["models", "--format", "text", "--", "--format", "json"],
        ["models", "--", "--format=json"],
    ],
)
def test_format_json_after_a_double_dash_is_an_argument(argv: list[str]) -> None:
    """After `--` every word is an argument (POSIX, click): the models group finds no command
    named `--format`, a usage error said for people, not in JSON."""
    run = invoke(argv)
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.startswith("Usage: provcat models")
    assert "Error: No such command '--format" in run.stderr


def test_format_json_before_a_double_dash_still_counts() -> None:
    run = invoke(["models", *JSON, "--", "x"])
    body = json.loads(run.stdout)
    assert run.exit_code == 2 and run.stderr == ""
    assert body["error"] == "UsageError" and "No such command 'x'" in body["message"]


# ---- an unknown provider: one code, whatever the command


UNKNOWN = [
    (["resolve", "nope"], 1),
    (["resolve", "nope", "chat"], 1),
    (["model", "nope/some-model"], 1),
    (["models", "--provider", "nope"], 1),
    (["models", "show", "nope", "some-model"], 1),
    (["cost", "nope", "some-model", "--input", "1"], 1),
    (["tool", "check", TOOLS, "--provider", "nope"], 2),  # an input error there (SchemaPort)
    (["tool", "compile", TOOLS, "--provider", "nope"], 2),
]


@pytest.mark.parametrize(("argv", "status"), UNKNOWN, ids=[" ".join(a[:3]) for a, _ in UNKNOWN])
def test_an_unknown_provider_is_one_code_in_every_command(argv: list[str], status: int) -> None:
    run = invoke([*argv, *JSON])
    body = json.loads(run.stdout)
    assert run.exit_code == status and run.stderr == "", body
    assert body["error"] == "EndpointNotFound", body
    # names the provider, the closest one and where to look
    assert "unknown provider 'nope'" in body["message"]
    assert "did you mean 'openai'?" in body["message"]
    assert "`provcat providers` lists every provider" in body["message"]
    text = invoke(argv)
    assert text.exit_code == status and text.stdout == ""
    assert "unknown provider 'nope'" in text.stderr and "`provcat providers`" in text.stderr


@pytest.mark.parametrize(
    "argv",
    [["models", "show", "openai", "nope"], ["cost", "openai", "nope", "--input", "1"]],
)
def test_an_unknown_model_of_a_known_provider_is_still_model_not_found(argv: list[str]) -> None:
    body = json.loads(invoke([*argv, *JSON]).stdout)
    assert body["error"] == "ModelNotFound" and "provcat providers" not in body["message"]


# ---- `-`: the tool's JSON from standard input


def _as_file(text: str) -> str:
    return text.replace(f"examples/tools/{REFUND.name}", "<stdin>")


@pytest.mark.parametrize(
    "line",
    [["tool", "check", "--targets", "openai"], ["tool", "compile", "--targets", "openai"]],
    ids=["check", "compile"],
)
@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_a_dash_reads_the_tool_from_standard_input(
    line: list[str], fmt: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`cat tool.json | provcat tool compile --targets openai -`: what the file gives, named
    `<stdin>`."""
    monkeypatch.chdir(ROOT)
    piped = invoke([*line, *fmt, "-"], input=REFUND.read_bytes())
    from_file = invoke([*line, *fmt, f"examples/tools/{REFUND.name}"])
    assert piped.exit_code == from_file.exit_code, said(piped)
    assert piped.stdout == _as_file(from_file.stdout)
    assert piped.stderr == _as_file(from_file.stderr)
    assert "<stdin>" in piped.stdout


@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_standard_input_that_is_not_json_is_the_error_of_a_file_that_is_not(
    fmt: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.json").write_text("not json", encoding="utf-8")
    piped = invoke(["tool", "compile", "--targets", "openai", "-", *fmt], input="not json")
    from_file = invoke(["tool", "compile", "--targets", "openai", "bad.json", *fmt])
    assert piped.exit_code == from_file.exit_code == 2
    assert piped.stdout == from_file.stdout.replace("bad.json", "<stdin>")
    assert piped.stderr == from_file.stderr.replace("bad.json", "<stdin>")
    assert "<stdin>: not valid JSON" in said(piped)
    if fmt:
        body = json.loads(piped.stdout)
        assert body["error"] == "InputError"
        assert body["errors"][0]["sourcePath"] == "<stdin>"


def test_a_file_named_dash_is_read_as_dot_slash_dash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("-").write_bytes(REFUND.read_bytes())
    run = invoke(["tool", "check", "--targets", "openai", "./-"], input="not json")
    # shown as given: `-` alone would mean standard input
    assert run.exit_code == 1 and run.stdout.startswith("./-: refund_order [openai]")


def test_a_pipe_into_the_installed_command() -> None:
    provcat = Path(sys.executable).parent / "provcat"
    run = subprocess.run(
        [str(provcat), "tool", "compile", "--targets", "openai", "-"],
        input=REFUND.read_bytes(),
        capture_output=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    manifest = json.loads(run.stdout)
    assert [(t["name"], t["source"]) for t in manifest["tools"]] == [("refund_order", "<stdin>")]


def test_a_cost_larger_than_one_request_can_be_says_so() -> None:
    # claude-opus-4-5 takes 200,000 tokens and writes 64,000 (catalog/providers/anthropic.yaml):
    # the vendor refuses such a request, so the cost is of tokens, not of one request
    result = invoke(["cost", "anthropic", "claude-opus-4-5", "--input", "1000000", "--output",
                     "200000", "--as-of", "2026-12-01"])  # fmt: skip
    assert result.exit_code == 0 and "total         $10.00 USD" in result.stdout
    assert "cannot hold 1,000,000 input tokens (it takes 200,000) or 200,000 output tokens " in (
        result.stderr
    )
    fits = invoke(["cost", "anthropic", "claude-opus-4-5", "--input", "1000", "--as-of",
                   "2026-12-01"])  # fmt: skip
    assert "cannot hold" not in fits.stderr
    # with --format json the notes are in the object too, for a program that reads only stdout
    body = json.loads(invoke(["cost", "anthropic", "claude-opus-4-5", "--input", "1000000",
                              "--as-of", "2026-12-01", *JSON]).stdout)  # fmt: skip
    assert body["total"] == "5" and len(body["notes"]) == 2
    assert body["notes"][0].startswith("anthropic/claude-opus-4-5-20251101 is deprecated")
    assert body["notes"][1].startswith("one request to anthropic/claude-opus-4-5-20251101 cannot")


def test_a_cost_whose_input_and_output_together_overflow_the_context_window_says_so() -> None:
    # grok-4.3's context window is 1,000,000 tokens (https://docs.x.ai/developers/models, the
    # catalog's source), input and output of one request together; neither side has a limit of
    # its own in the catalog
    result = invoke(["cost", "xai", "grok-4.3", "--input", "999000", "--output", "50000",
                     "--as-of", "2026-12-01"])  # fmt: skip
    assert result.exit_code == 0
    assert (
        "cannot hold 999,000 input and 50,000 output tokens together (1,049,000; its context "
        "window is 1,000,000)"
    ) in result.stderr
    fits = invoke(["cost", "xai", "grok-4.3", "--input", "950000", "--output", "50000",
                   "--as-of", "2026-12-01"])  # fmt: skip
    assert fits.exit_code == 0 and "cannot hold" not in fits.stderr


def test_a_window_that_is_the_input_limit_is_not_held_to_input_and_output_together() -> None:
    # Gemini 3.8 Flash: 1,048,576 input tokens and 65,536 output tokens, each a limit of its own
    # (https://ai.google.dev/gemini-api/docs/models: "Input token limit", "Output token limit");
    # the catalog's context_window is the input limit, so a full input with a long answer is one
    # valid request
    result = invoke(["cost", "gemini", "gemini-3.8-flash", "--input", "1000000", "--output",
                     "60000", "--as-of", "2026-12-01"])  # fmt: skip
    assert result.exit_code == 0
    assert "cannot hold" not in result.stderr


def test_a_model_without_limits_is_bounded_by_the_model_it_points_to() -> None:
    # deepseek-v4-flash records no limit and is served by deepseek-flash, which writes 384K
    # tokens at most (https://api-docs.deepseek.com/quick_start/pricing, "MAX OUTPUT")
    result = invoke(["cost", "deepseek", "deepseek-v4-flash", "--input", "1000", "--output",
                     "500000", "--as-of", "2026-12-01"])  # fmt: skip
    assert result.exit_code == 0
    assert "cannot hold 500,000 output tokens (it writes 384,000)" in result.stderr


def test_a_cost_option_given_twice_with_two_values_is_refused() -> None:
    argv = ["cost", "perplexity", "sonar", "--input", "10"]
    twice = invoke([*argv, "--option", "search_context_size=high", "--option",
                    "search_context_size=low"])  # fmt: skip
    assert twice.exit_code == 2
    assert "search_context_size is given twice, as 'high' and 'low': keep one" in twice.stderr
    same = invoke([*argv, "--option", "search_context_size=low", "--option",
                   "search_context_size=low"])  # fmt: skip
    assert same.exit_code == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["cost", "", "gpt-5-mini", "--input", "1"],
        ["models", "--provider", ""],
        ["models", "show", " ", "x"],
    ],
)
def test_an_empty_provider_is_said_to_be_empty(argv: list[str]) -> None:
    # it was "ModelNotFound: unknown provider ''"; an unknown provider is EndpointNotFound in
    # every command (README), and an empty one says so
    body = json.loads(invoke([*argv, *JSON]).stdout)
    assert body["error"] == "EndpointNotFound"
    assert body["message"].startswith("the provider is empty: name one")


def test_derived_batch_prices_are_written_as_the_base_prices_are() -> None:
    # gpt-5-mini: input 0.25, output 2, cache_read 0.025, batch discount 0.50 (openai.yaml); the
    # products are 0.125, 1 and 0.0125, not 0.1250 / 1.0000 / 0.01250
    body = json.loads(invoke(["models", "show", "openai", "gpt-5-mini", *JSON]).stdout)
    batch = body["prices"]["batch"]
    assert (batch["input"], batch["output"], batch["cache_read"]) == ("0.125", "1", "0.0125")


def test_a_cost_on_a_day_before_the_models_release_says_so() -> None:
    # gpt-6.1-terra was released on 2026-10-26 (catalog/providers/openai.yaml); 2025-10-26 is the
    # year's typo a note should catch: no request could be made to it that day
    result = invoke(["cost", "openai", "gpt-6.1-terra", "--input", "1000", "--as-of",
                     "2025-10-26"])  # fmt: skip
    assert result.exit_code == 0
    assert "gpt-6.1-terra's release date, 2026-10-26, is after 2025-10-26" in result.stderr
    body = json.loads(invoke(["cost", "openai", "gpt-6.1-terra", "--input", "1000", "--as-of",
                              "2025-10-26", *JSON]).stdout)  # fmt: skip
    assert any("release date, 2026-10-26" in note for note in body["notes"])
    same_day = invoke(["cost", "openai", "gpt-6.1-terra", "--input", "1000", "--as-of",
                       "2026-10-26"])  # fmt: skip
    assert "release date" not in same_day.stderr
