"""One voice on the command line (issue #25): every closed set answers a misspelling with a "did
you mean", `--format` takes the same values on every command, tables fit a terminal and never
split an id, and money is printed with every digit it has."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from generator.cli import main as generator_main
from provcat.cli.main import main
from provcat.models.inventory import list_models
from tests.conftest import ROOT


def _all_commands(group: click.Command, ctx: click.Context) -> list[tuple[str, click.Command]]:
    found = [(ctx.command_path, group)]
    if isinstance(group, click.Group):
        for name in group.list_commands(ctx):
            sub = group.get_command(ctx, name)
            if sub is not None:
                found += _all_commands(sub, click.Context(sub, info_name=name, parent=ctx))
    return found


def test_help_lists_each_command_as_the_command_describes_itself() -> None:
    """`provcat --help` lists the commands without importing them: its listing must be the one
    click makes from the commands themselves (a docstring edited alone fails here)."""
    ctx = click.Context(main, info_name="provcat")
    ours, clicks = click.HelpFormatter(), click.HelpFormatter()
    main.format_commands(ctx, ours)
    click.Group.format_commands(main, ctx, clicks)  # click's own listing imports every command
    assert ours.getvalue() == clicks.getvalue()
    assert all(f"  {name} " in ours.getvalue() for name in ("cost", "hub", "providers", "tool"))


def test_every_option_says_what_it_does() -> None:
    """Found by a tester: `tool diff --fail-on` and `hub search --limit` had no help text."""
    commands = _all_commands(main, click.Context(main, info_name="provcat"))
    silent = [
        f"{path} {param.opts[0]}"
        for path, command in commands
        for param in command.params
        if isinstance(param, click.Option) and not param.hidden and not param.help
    ]
    assert silent == []
    assert {"provcat tool diff", "provcat hub search"} <= {path for path, _ in commands}


def test_compile_help_names_the_files_as_they_are_written() -> None:
    """Found by a tester: the help promised `<tool-name>.json`; `refund_order` is written
    `refund-order.json`."""
    run = CliRunner().invoke(main, ["tool", "compile", "--help"])
    assert run.exit_code == 0
    assert "<tool-name>.json" not in run.output
    assert "`refund_order` is `refund-order.json`" in " ".join(run.output.split())


def test_format_takes_text_and_json_on_every_command() -> None:
    commands = _all_commands(main, click.Context(main, info_name="provcat"))
    with_format = []
    for path, command in commands:
        for param in command.params:
            if "--format" in getattr(param, "opts", ()):
                assert isinstance(param.type, click.Choice), path
                assert list(param.type.choices) == ["text", "json"], path
                assert param.default == "text", path
                with_format.append(path)
    assert {"provcat providers", "provcat models", "provcat cost", "provcat tool check"} <= set(
        with_format
    )
    # the generator's own command takes the same two, plus GitHub annotations for CI
    (fmt,) = [p for p in generator_main.commands["build"].params if p.name == "fmt"]
    assert isinstance(fmt.type, click.Choice)
    assert list(fmt.type.choices)[:2] == ["text", "json"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["models", "--status", "activ"], "did you mean 'active'?"),
        (["providers", "--format", "jsn"], "did you mean 'json'?"),
        (["model", "codex/gpt-5.4", "--effort", "hihg"], "did you mean 'high'?"),
        (["modles"], "No such command 'modles'. Did you mean 'models'?"),  # click's words
        (["tool", "chek", "examples/tools"], "No such command 'chek'. Did you mean 'check'?"),
        (["tool", "check", "examples/tools", "--fail-on", "warnin"], "did you mean 'warning'?"),
        (["tool", "check", "examples/tools", "--targets", "opena"], "did you mean 'openai'?"),
    ],
)
def test_a_misspelt_value_of_a_closed_set_gets_a_did_you_mean(argv: list[str], said: str) -> None:
    argv = [str(ROOT / a) if a == "examples/tools" else a for a in argv]
    run = CliRunner().invoke(main, argv, catch_exceptions=False)
    assert run.exit_code == 2, run.output
    assert said in run.output


@pytest.mark.parametrize(
    ("spec", "note"),
    [
        ("codex/gpt-5.4-hihg", "'-hihg' is not an effort level (did you mean '-high'?)"),
        ("codex/gpt-5.4-XHIG", "'-XHIG' is not an effort level (did you mean '-xhigh'?)"),
        ("codex/gpt-5.4-mini", None),  # a model name, not an effort
        ("openrouter/qwen/qwen3-hihg", None),  # a vendor id is literal: no suffix is read
        ("codex/gpt-5.4-high", None),
    ],
)
def test_a_spec_ending_in_a_misspelt_effort_says_so(spec: str, note: str | None) -> None:
    """The grammar reads `-hihg` as part of the model name (as lionagi does), so the vendor gets
    `gpt-5.4-hihg`; the command still answers, and says what it read on stderr."""
    run = CliRunner().invoke(main, ["model", spec], catch_exceptions=False)
    assert run.exit_code == 0, run.output
    if note is None:
        assert "effort level" not in run.stderr
    else:
        assert run.stdout.splitlines()[1] == "effort: -"
        assert f"note: {note}; it was read as part of the model name" in run.stderr


@pytest.mark.parametrize(
    ("spec", "note"),
    [
        (
            "openai/gpt-6.1-tera",
            "provider 'openai' lists no model 'gpt-6.1-tera'; closest: gpt-6.1-terra",
        ),
        ("openai/gpt-6.1-terra", None),
        ("openai/gpt-6.1-terra-high", None),  # the effort split off: the model is listed
        ("codex/gpt-5.4", None),  # codex has no model inventory: nothing to compare with
        # nothing after the slash, with or without an inventory to compare with
        ("openai/", "'openai/' names no model after the provider; the vendor would get ''"),
        ("codex/ ", "'codex/' names no model after the provider; the vendor would get ''"),
    ],
)
def test_a_spec_naming_a_model_the_catalog_does_not_list_says_so(
    spec: str, note: str | None
) -> None:
    """Unlisted models are passed on (vendors add models faster than catalogs), so `provcat
    model` answers; on stderr it says the catalog does not list the model, with the closest."""
    run = CliRunner().invoke(main, ["model", spec], catch_exceptions=False)
    assert run.exit_code == 0, run.output
    if note is None:
        assert "lists no model" not in run.stderr
    else:
        assert f"note: {note}" in run.stderr
        assert "it is sent as written" in run.stderr or "names no model" in note
    machine = CliRunner().invoke(main, ["model", spec, "--format", "json"])
    notes = json.loads(machine.stdout)["notes"]
    assert notes == [] if note is None else notes[0].startswith(note)


def test_the_generator_answers_a_misspelt_format_with_a_did_you_mean() -> None:
    run = CliRunner().invoke(generator_main, ["check", "--format", "githb"])
    assert run.exit_code == 2
    assert "did you mean 'github'?" in run.output


@pytest.mark.parametrize("argv", [["providers"], ["models"], ["models", "--status", "retired"]])
def test_a_table_to_a_pipe_keeps_each_row_on_one_line(argv: list[str]) -> None:
    """A pipe or a file has no width: no cell wraps (a wrapped row would split what grep finds)."""
    run = CliRunner().invoke(main, argv)
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    assert len(lines) > 3
    assert not any(line.startswith(" ") for line in lines), "a continuation line"


def test_model_ids_stay_whole_in_a_pipe() -> None:
    """Found by a tester: `provcat models | grep DeepSeek-V4-Flash` printed `ai/DeepSeek-V4-Flash`,
    the id split at a hyphen (and `claude-` / `opus-5-5` as successors)."""
    run = CliRunner().invoke(main, ["models"])
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    found = list_models()
    ids = [f"{m.provider}/{m.id}" for m in found]
    assert max(len(i) for i in ids) > 35  # the case at hand: ids that split within 100 columns
    for model_id in ids:
        assert any(line.startswith(model_id + " ") for line in lines), model_id
    for successor in {m.successor for m in found if m.successor}:
        assert any(line.endswith(" " + successor) for line in lines), successor


def test_a_free_text_cell_wraps_at_its_spaces_and_never_inside_a_word() -> None:
    from provcat.cli.table import table

    long = "openrouter/" + "-".join(["very-long-model-name"] * 3)
    text = table(
        ["MODEL", "NOTE"], [[long, "a note that is long enough to wrap"]], wrap=(1, 0), limit=90
    )
    lines = text.splitlines()
    assert lines[2].startswith(long + "  a note")  # the id whole, though it may wrap
    assert max(len(line) for line in lines) <= 90
    assert len(lines) > 3 and all(line.startswith(" " * len(long)) for line in lines[3:])
    note = " ".join(line[len(long) :].strip() for line in lines[2:])
    assert note == "a note that is long enough to wrap"


def test_money_prints_every_digit_and_at_least_cents() -> None:
    # the cost of one token at $0.05 per million is 0.00000005: no rounding, no exponent
    run = CliRunner().invoke(
        main, ["cost", "openai", "gpt-6.1-terra", "--input", "1", "--output", "1", "--cached", "1"]
    )
    assert run.exit_code == 0, run.output
    assert "$0.00000005" in run.output  # cache_read: 1 x 0.05 / 1,000,000
    assert "$0.000005" in run.output  # output: 1 x 5.00 / 1,000,000
    big = CliRunner().invoke(
        main, ["cost", "openai", "gpt-6.1-terra", "--input", "300000", "--output", "2000"]
    )
    assert "$0.60" in big.output  # 300,000 x 2.00 / 1,000,000 (long-context tier), cents kept
    prices = [m.prices.base.input for m in list_models("openai") if m.prices and m.prices.base]
    assert all(isinstance(p, Decimal) for p in prices if p is not None)


def test_an_embedding_request_is_priced_from_its_input_alone() -> None:
    run = CliRunner().invoke(main, ["cost", "openai", "text-embedding-3-small", "--input", "1000"])
    assert run.exit_code == 0, run.output
    # $0.02 per million input tokens (https://developers.openai.com/api/docs/pricing)
    assert run.stdout.splitlines()[-1].split() == ["total", "$0.00002", "USD"]


def test_models_show_prints_prices_for_people() -> None:
    """Rates, tiers, batch, fees and the price schedule one line each, never a JSON blob; counts
    with thousands separators, lists of names comma-separated.
    Expected rates: Perplexity's pricing page (Sonar Pro: $3 / $15 per million tokens and $6,
    $10 or $14 per thousand requests by search context size) and Google's Gemini 3.8 Flash
    schedule as the catalog cites it (introductory $0.75 / $3.75 until 2027-01-01, then the list
    $1.50 / $7.50; batch at half)."""
    run = CliRunner().invoke(main, ["models", "show", "perplexity", "sonar-pro"])
    assert run.exit_code == 0, run.output
    lines = [line.strip() for line in run.output.splitlines()]
    # counts and lists as people write them (200K context, text and image in: as cited)
    assert "context_window: 200,000" in lines and "input_modalities: text, image" in lines
    at = lines.index("prices (USD per 1M tokens; fees as stated):")
    assert lines[at + 1 : at + 5] == [
        "input 3.00, output 15.00",
        "fee: $6 per 1,000 requests when search_context_size=low (the default)",
        "fee: $10 per 1,000 requests when search_context_size=medium",
        "fee: $14 per 1,000 requests when search_context_size=high",
    ]
    day = ["--as-of", "2026-12-06"]
    run = CliRunner().invoke(main, ["models", "show", "gemini", "gemini-3.8-flash", *day])
    assert run.exit_code == 0, run.output
    lines = [line.strip() for line in run.output.splitlines()]
    at = lines.index("prices (USD per 1M tokens; fees as stated):")
    assert lines[at + 1].startswith("input 0.75, output 3.75")
    assert lines[at + 2].startswith("batch (50% off): input 0.375, output 1.875")
    at = lines.index("next price change on 2027-01-01:")
    assert lines[at + 1].startswith("input 1.50, output 7.50")
    assert "until 2027-01-01:" in lines and "from 2027-01-01:" in lines
    assert not any(line.startswith(("prices: {", "price_schedule: [")) for line in lines)


def _provcat_in_a_terminal(columns: int, *args: str) -> str:
    """What `provcat ARGS` prints to a terminal ``columns`` wide (a pseudo-terminal)."""
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": str(columns)}
    code = "from provcat.cli.main import main; main()"
    with subprocess.Popen(
        [sys.executable, "-c", code, *args], stdout=follower, stderr=follower, env=env
    ) as process:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed: the process is done writing
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert process.wait() == 0
    os.close(leader)
    return b"".join(chunks).decode().replace("\r\n", "\n")


def test_a_table_takes_the_terminal_width_and_keeps_ids_whole() -> None:
    """In a terminal 80 columns wide a table's free text wraps within 80 columns (it was 100
    wide); model ids never split, in any terminal; piped, no row wraps."""
    narrow = _provcat_in_a_terminal(80, "providers").splitlines()
    assert max(len(line) for line in narrow) <= 80
    assert any(line.startswith(" ") for line in narrow)  # an endpoint list continues below
    ids = [f"{m.provider}/{m.id}" for m in list_models()]
    for columns in (80, 200):
        lines = _provcat_in_a_terminal(columns, "models").splitlines()
        for model_id in ids:
            assert any(line.startswith(model_id + " ") for line in lines), (columns, model_id)
    piped = subprocess.run(
        [sys.executable, "-c", "from provcat.cli.main import main; main()", "providers"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "80"},
    ).stdout.splitlines()
    assert not any(line.startswith(" ") for line in piped)


def test_money_groups_thousands_as_the_counts_do() -> None:
    # a million Sonar requests at Perplexity's $5 per 1,000 (low search context, the default)
    run = CliRunner().invoke(
        main, ["cost", "perplexity", "sonar", "--input", "1000", "--requests", "1000000"]
    )
    assert run.exit_code == 0, run.output
    assert "$5,000.00 (1,000,000 requests x $5.00 per 1,000" in run.output


def test_model_takes_the_endpoint_whose_field_carries_the_effort() -> None:
    """Found by a tester: model_kwargs takes endpoint=, the command had no way to ask for it.
    OpenAI's Responses API carries the effort as `reasoning: {effort}` (its API reference)."""
    run = CliRunner().invoke(
        main, ["model", "openai/gpt-6.1-terra-high", "--endpoint", "responses", "--format", "json"]
    )
    assert run.exit_code == 0, run.output
    assert json.loads(run.output)["kwargs"]["reasoning"] == {"effort": "high"}
    wrong = CliRunner().invoke(
        main, ["model", "openai/gpt-6.1-terra-high", "--endpoint", "respnses"]
    )
    assert wrong.exit_code == 1 and "did you mean 'responses'?" in wrong.output


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_refused_configuration_is_said_without_pydantic_prefixes(fmt: str) -> None:
    """Found by a tester: `resolve --base-url ftp://x` said `'base_url': Value error, base_url
    must start with http:// or https://`."""
    run = CliRunner().invoke(
        main, ["resolve", "openai", "chat/completions", "--base-url", "ftp://x", "--format", fmt]
    )
    assert run.exit_code == 1
    said = json.loads(run.stdout)["message"] if fmt == "json" else run.stderr
    assert "'base_url': base_url must start with http:// or https://" in said
    assert "Value error" not in said


def test_ctrl_c_exits_130_with_a_short_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by a tester: Ctrl-C printed click's `Aborted!` and exited 1; a shell's convention
    for an interrupted command is 128 + SIGINT, 130."""
    import provcat.cli.models

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(provcat.cli.models, "list_models", interrupted)
    run = CliRunner().invoke(main, ["models"])
    assert run.exit_code == 130
    assert run.stderr.strip() == "provcat: interrupted"
    assert run.stdout == ""


def test_the_generator_says_its_version() -> None:
    """Found by a tester: `provcat --version` worked, `python -m generator --version` did not;
    the version is the one generated modules name (their header)."""
    from generator import GENERATOR_VERSION

    run = CliRunner().invoke(generator_main, ["--version"])
    assert run.exit_code == 0 and run.output.strip() == f"provcat generator {GENERATOR_VERSION}"
    assert f"generator {GENERATOR_VERSION}" in (
        ROOT / "generated/provcat_catalog/__init__.py"
    ).read_text(encoding="utf-8")


@pytest.mark.parametrize("blocked", ["yaml", "jinja2"])
def test_the_generator_without_its_extra_names_the_extra(blocked: str, tmp_path: Path) -> None:
    """Found by a tester: after `pip install .` (no `generate` extra), `python -m generator`
    ended in a ModuleNotFoundError traceback, where a provcat command names its extra."""
    code = (
        "import runpy, sys\n"
        "sys.modules[sys.argv[1]] = None\n"
        "sys.argv[1:] = ['build', '--no-cache', '--out', sys.argv[2]]\n"
        "runpy.run_module('generator', run_name='__main__', alter_sys=True)\n"
    )
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-c", code, blocked, str(out)], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"python -m generator: needs the package '{blocked}'")
    assert "'generate' extra" in done.stderr
    as_json = subprocess.run(
        [
            sys.executable,
            "-c",
            code.replace("]\n", ", '--format', 'json']\n", 1),
            blocked,
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert as_json.returncode == 1 and as_json.stderr == ""
    answer = json.loads(as_json.stdout)
    assert (answer["ok"], answer["error"]) == (False, "MissingDependencyError")
