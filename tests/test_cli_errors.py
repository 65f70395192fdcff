"""One error contract for every `provcat` command (README, "Errors on the command line"): with
`--format json` each error, click's own usage errors included, is exactly one JSON object on
stdout with a stable `error` code and a `message`, and nothing on stderr; exit status 1 when what
was asked for failed or is not there, 2 for a usage error (and, as SchemaPort's CLI has it, for a
tool command's input error, an unknown target or provider included). Without `--format json`
errors stay click's text on stderr, as before."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from provcat.cli.main import main
from tests.conftest import ROOT

TOOLS = str(ROOT / "examples" / "tools")
JSON = ["--format", "json"]
TOOL_KEYS = {"command", "version", "errors"}  # SchemaPort's error report, kept for tool commands


def invoke(argv: list[str], **kwargs: Any) -> Result:
    return CliRunner().invoke(main, argv, prog_name="provcat", **kwargs)


def one_json_object(result: Result) -> dict[str, Any]:
    """The error a run said under `--format json`: one object, alone on stdout, with a code and
    a message; nothing on stderr."""
    assert result.stderr == "", result.stderr
    body = json.loads(result.stdout)  # the whole of stdout: one JSON value and nothing else
    assert isinstance(body, dict), body
    assert isinstance(body["error"], str) and body["error"], body
    assert isinstance(body["message"], str) and body["message"], body
    return body


@dataclass(frozen=True)
class Case:
    """A command's representative usage error and, where it has one, its not-found error."""

    usage: list[str]
    missing: list[str] | None = None
    code: str = ""  # the not-found error's code
    status: int = 1  # and its exit status
    tool: bool = False  # a tool command: SchemaPort's keys beside error and message

    def argv(self, args: list[str], tmp_path: Path) -> list[str]:
        return [a.replace("{tmp}", str(tmp_path)) for a in args]


CASES = {
    "provcat": Case(["nosuchcommand"]),
    "provcat --bogus": Case(["--bogus"]),
    "providers": Case(["providers", "--bogus"]),  # nothing to look up: no not-found
    "resolve": Case(["resolve"], ["resolve", "nope"], "EndpointNotFound"),
    "resolve endpoint": Case(
        ["resolve", "openai", "chat", "extra"], ["resolve", "openai", "chta"], "EndpointNotFound"
    ),
    "model": Case(
        ["model", "codex/gpt-5.4", "--effort", "bogus"],
        ["model", "opnai/gpt-6.1-terra"],
        "EndpointNotFound",
    ),
    # an unknown provider: one code whichever command is told it (README)
    "models": Case(
        ["models", "--status", "activ"], ["models", "--provider", "nope"], "EndpointNotFound"
    ),
    "models show": Case(
        ["models", "show", "openai"], ["models", "show", "openai", "nope"], "ModelNotFound"
    ),
    # found in review: the group's own --format (its default, text) hid the command line's
    "models <unknown command>": Case(["models", "shwo", "openai", "x"]),
    "cost": Case(
        ["cost", "openai", "gpt-6.1-terra"],  # --input is required
        ["cost", "openai", "nope", "--input", "1"],
        "ModelNotFound",
    ),
    "cost --input": Case(["cost", "openai", "gpt-6.1-terra", "--input", "many"]),
    "cost --option": Case(["cost", "openai", "gpt-6.1-terra", "--input", "1", "--option", "x"]),
    # the tool commands: an unknown target or provider is an input error, exit 2 (SchemaPort)
    "tool": Case(["tool", "chek", TOOLS]),
    "tool check": Case(
        ["tool", "check"],  # PATHS... is required
        ["tool", "check", TOOLS, "--provider", "nope"],
        "EndpointNotFound",
        2,
        tool=True,
    ),
    "tool check --fail-on": Case(["tool", "check", TOOLS, "--fail-on", "bogus"], tool=True),
    "tool compile": Case(
        ["tool", "compile", TOOLS, "--bogus"],
        ["tool", "compile", TOOLS, "--targets", "nope"],
        "UnknownTargetError",
        2,
        tool=True,
    ),
    "tool matrix": Case(
        ["tool", "matrix"],
        ["tool", "matrix", "{tmp}/nothing-here.json"],
        "InputError",
        2,
        tool=True,
    ),
    "tool diff": Case(
        ["tool", "diff", TOOLS],  # NEW is required
        ["tool", "diff", TOOLS, TOOLS, "--targets", "nope"],
        "UnknownTargetError",
        2,
        tool=True,
    ),
    "tool probe": Case(
        ["tool", "probe"],
        ["tool", "probe", TOOLS, "--targets", "nope"],
        "UnknownTargetError",
        2,
        tool=True,
    ),
    "hub": Case(["hub", "--bogus"]),
    "hub search, hub token revoke": Case(
        ["hub", "search", "--limit", "0"],
        ["hub", "token", "revoke", "0123456789ab", "--data-dir", "{tmp}/hub"],
        "TokenNotFoundError",
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=list(CASES))
def test_every_error_is_one_json_object_with_format_json(case: Case, tmp_path: Path) -> None:
    # a usage error, click's own or the command's: UsageError, exit 2, and what to do
    run = invoke([*case.argv(case.usage, tmp_path), *JSON])
    body = one_json_object(run)
    assert run.exit_code == 2, body
    assert body["error"] == "UsageError", body
    assert "--help' for help." in body["message"], body
    if case.tool:  # SchemaPort's error report too, saying the same
        assert set(body) >= TOOL_KEYS, body
        assert body["errors"] == [{"sourcePath": "", "message": body["message"]}], body
    else:
        assert body["details"]["command"].startswith("provcat"), body
    # the same command line for people: click's usage text on stderr, as before
    text = invoke(case.argv(case.usage, tmp_path))
    assert text.exit_code == 2 and text.stdout == ""
    assert text.stderr.startswith("Usage: provcat") and "\nError: " in text.stderr, text.stderr
    if case.missing is None:
        return
    # what was asked for is not there: its code, exit 1 (2 for a tool command's input)
    run = invoke([*case.argv(case.missing, tmp_path), *JSON])
    body = one_json_object(run)
    assert (run.exit_code, body["error"]) == (case.status, case.code), body
    if case.tool:
        assert set(body) >= TOOL_KEYS, body
    text = invoke(case.argv(case.missing, tmp_path))
    assert text.exit_code == case.status and text.stdout == "" and text.stderr, text.stderr
    assert not text.stderr.lstrip().startswith("{"), text.stderr


ORDERS = [
    (["model", "codex/gpt-5.4"], ["--effort", "bogus"]),
    (["cost", "openai", "gpt-6.1-terra"], ["--output", "1"]),  # --input missing
    (["models"], ["--status", "activ"]),
    (["tool", "check", TOOLS], ["--fail-on", "bogus"]),
    (["resolve", "openai"], ["--bogus"]),
]


@pytest.mark.parametrize(("words", "rest"), ORDERS, ids=lambda v: " ".join(v)[:30])
@pytest.mark.parametrize("fmt", [JSON, ["--format=json"]], ids=["--format json", "--format=json"])
def test_format_json_is_read_before_or_after_the_refused_option(
    words: list[str], rest: list[str], fmt: list[str]
) -> None:
    """click refuses the option before it reads `--format`, wherever that stands."""
    for argv in ([*words, *fmt, *rest], [*words, *rest, *fmt]):
        run = invoke(argv)
        body = one_json_object(run)
        assert run.exit_code == 2 and body["error"] == "UsageError", (argv, body)


def test_the_json_error_says_what_to_do_and_the_text_is_unchanged() -> None:
    """The JSON in full; for people, click's words exactly as before, and `--format json
    --format text` is text, as click reads it."""
    run = invoke(["cost", "openai", "gpt-6.1-terra", *JSON])
    assert one_json_object(run) == {
        "error": "UsageError",
        "message": "Missing option '--input'. Try 'provcat cost --help' for help.",
        "details": {"command": "provcat cost"},
    }
    run = invoke(["cost", "openai", "gpt-6.1-terra", "--input", "1", "--option", "x", *JSON])
    assert one_json_object(run)["message"] == (
        "Invalid value for --option: 'x' is not NAME=VALUE. Try 'provcat cost --help' for help."
    )
    run = invoke(["model", "codex/gpt-5.4", *JSON, "--effort", "bogus", "--format", "text"])
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr == (
        "Usage: provcat model [OPTIONS] SPEC\n"
        "Try 'provcat model --help' for help.\n\n"
        "Error: Invalid value for '--effort': 'bogus' is not one of 'none', 'minimal', 'low', "
        "'medium', 'high', 'xhigh', 'max', 'ultra'.\n"
    )
    run = invoke(["resolve", "openai", "chta"])
    assert run.exit_code == 1 and run.stdout == ""
    assert run.stderr.startswith(
        "Error: EndpointNotFound: openai has no endpoint 'chta' (did you mean 'chat'?); available:"
    )
    run = invoke(["tool", "check", TOOLS, "--provider", "nope"])
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.startswith("unknown provider 'nope' (did you mean 'openai'? known providers:")
    assert run.stderr.endswith(
        "; `provcat providers` lists every provider with its aliases\n"
        "provcat tool check: input error; nothing was processed.\n"
    )


def test_an_unexpected_failure_is_an_internal_error_in_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import provcat.cli.models

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(provcat.cli.models, "list_models", broken)
    run = invoke(["models", *JSON])
    body = one_json_object(run)
    assert run.exit_code == 1 and body["error"] == "InternalError"
    assert "run the command without --format json for the traceback" in body["message"]
    run = invoke(["models"])  # for people: the traceback, as before
    assert isinstance(run.exception, RuntimeError) and run.stdout == ""


def test_a_missing_extra_is_a_json_error_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def without_the_hub(name: str, package: str | None = None) -> Any:
        if name == "provcat.cli.hub":
            raise ModuleNotFoundError("No module named 'fastapi'", name="fastapi")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", without_the_hub)
    run = invoke(["hub", "search", *JSON])
    body = one_json_object(run)
    assert run.exit_code == 1 and body["error"] == "MissingDependencyError"
    assert body["details"] == {"module": "fastapi", "extra": "hub"}
    assert "install provcat with its 'hub' extra" in body["message"]
    run = invoke(["hub", "search"])
    assert run.exit_code == 1 and run.stdout == ""
    assert run.stderr.startswith("Error: `provcat hub` needs the package 'fastapi'")


KEY = "sk-proj-" + "a1B2c3D4" * 4  # shaped like an OpenAI key
HUB_TOKEN = "pch_0123456789ab_" + "S3cretS3cret"


@pytest.mark.parametrize(
    "argv",
    [
        [KEY],  # pasted where a command goes
        ["providers", KEY],
        ["providers", HUB_TOKEN],
        ["model", KEY],
        ["models", "show", "openai", KEY],
        ["cost", "openai", KEY, "--input", "1"],
        ["resolve", KEY],
    ],
    ids=lambda argv: " ".join(a[:12] for a in argv),
)
@pytest.mark.parametrize("fmt", [[], JSON], ids=["text", "json"])
def test_a_secret_pasted_into_a_command_line_is_never_repeated(
    argv: list[str], fmt: list[str]
) -> None:
    """Found in review: "No such command 'sk-...'" and "Got unexpected extra argument (pch_...)"
    repeated a key or a hub token pasted in the wrong place."""
    result = invoke([*argv, *fmt])
    assert result.exit_code in (1, 2)
    said = result.stdout + result.stderr
    assert KEY not in said and HUB_TOKEN not in said
    assert KEY[:12] not in said and HUB_TOKEN[:20] not in said
    assert "<redacted>" in said


def test_a_control_character_of_an_argument_is_shown_as_its_escape() -> None:
    """`provcat resolve $'ev\\x1b[31mil\\r\\x07'`: the message quotes the argument; on a terminal
    its escape sequence would recolour the screen and its CR overwrite the line. Text shows each
    as its escape; JSON keeps the value as it is (json.dumps escapes it)."""
    bad = "ev\x1b[31mil\r\x07"
    said = invoke(["resolve", bad])
    assert said.exit_code == 1
    assert not {"\x1b", "\r", "\x07"} & set(said.stderr)
    assert "'ev\\x1b[31mil\\r\\x07'" in said.stderr
    body = one_json_object(invoke(["resolve", bad, *JSON]))
    assert bad in body["message"]


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "python-u"])
def test_a_reader_gone_early_ends_the_command_quietly_with_status_1(unbuffered: bool) -> None:
    """`provcat models --format json | head -1`: the JSON (about 90 kB) is more than a pipe
    holds, so the reader leaves before the command has written it all. Each time the command
    exits 1 (Python's rule for a broken pipe) and says nothing: no traceback, no "Exception
    ignored". Under `python -u` (PYTHONUNBUFFERED) a write the reader cut short used to pass
    for a whole one, and the status was 0 or 1 by timing."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    for _ in range(5):  # the reader may leave before the first write, or in the middle of one
        with subprocess.Popen(
            [sys.executable, "-m", "provcat", "models", "--format", "json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        ) as child:
            assert child.stdout is not None and child.stderr is not None
            assert os.read(child.stdout.fileno(), 100).startswith(b"[")
            child.stdout.close()
            err = child.stderr.read()
        assert (child.returncode, err) == (1, b"")


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "python-u"])
def test_a_full_stdout_is_said_once_with_status_1(unbuffered: bool) -> None:
    """`provcat models > /dev/full` (Linux's always-full device): one line saying the output
    could not be written, status 1; no traceback, no "Exception ignored"."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "provcat", "models"],
            stdout=full,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
        )
    assert done.returncode == 1
    assert done.stderr == "provcat: the output could not be written: No space left on device\n"


def test_a_closed_stdout_and_a_command_run_inside_another_program() -> None:
    """Started with stdout closed (`provcat --version >&-`), a command still ends with 0; run in
    another program under `python -u`, it leaves that program's sys.stdout as it found it."""
    closed = subprocess.run(
        [sys.executable, "-m", "provcat", "--version"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        pass_fds=(),
        preexec_fn=lambda: os.close(1),
    )
    assert (closed.returncode, closed.stderr) == (0, "")
    script = (
        "import sys\n"
        "from provcat.cli.main import main\n"
        "before = sys.stdout\n"
        "try:\n"
        "    main(['--version'], standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('same stdout:', sys.stdout is before)\n"
    )
    inside = subprocess.run(
        [sys.executable, "-u", "-c", script], capture_output=True, text=True, check=True
    )
    assert inside.stdout.splitlines()[-1] == "same stdout: True"
