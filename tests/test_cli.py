"""The generator's command line: formats, summary and exit codes."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.conftest import FIXTURE_MODULES, ROOT, Workspace


def test_summary_line(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    run = workspace.run(fmt="text")
    assert run.exit_code == 0
    line = run.stdout.strip().splitlines()[-1]
    # one policy model alias (alpha's policy); alpha-1's inventory alias `alpha-one` is not
    # counted, and the label says so
    assert line.startswith(
        "provcat: 3 providers, 6 endpoints, 10 aliases, 1 policy model alias, 2 models"
    )
    assert line.endswith("generated/ 5 files updated.")  # catalog.json among them


def test_summary_line_counts_one_in_the_singular(workspace: Workspace) -> None:
    assert workspace.run(fmt="text").exit_code == 0
    page = workspace.out / "docs" / "providers.md"
    page.write_text(page.read_text(encoding="utf-8") + "edited by hand\n", encoding="utf-8")
    run = workspace.run(fmt="text")  # writes that one file back
    line = run.stdout.strip().splitlines()[-1]
    assert ", 1 policy model alias, " in line
    assert line.endswith("generated/ 1 file updated.")


def test_text_diagnostics_with_hint_and_count(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "temperature: 0.5", "temprature: 0.5")
    workspace.edit("beta.yaml", "aliases: [code]", "aliases: [code, chat]")
    run = workspace.run(fmt="text")
    assert run.exit_code == 1
    lines = run.stderr.splitlines()
    assert lines[0].startswith("catalog/providers/alpha.yaml:15:40: error[invalid_request_default]")
    assert lines[1] == "    hint: did you mean 'temperature'?"
    assert lines[2].startswith("catalog/providers/beta.yaml:13:21: error[duplicate_endpoint_key]")
    assert lines[-1] == "provcat: 2 errors in the catalog; nothing was written."


def test_check_with_errors_says_it_compared_nothing_not_that_it_wrote_nothing(
    workspace: Workspace,
) -> None:
    """`check` never writes: its last line says what the errors stopped (the comparison), where
    `build`'s says nothing was written."""
    workspace.edit("alpha.yaml", "temperature: 0.5", "temprature: 0.5")
    run = workspace.run("check", fmt="text")
    assert run.exit_code == 1
    assert "error[invalid_request_default]" in run.stderr
    last = run.stderr.splitlines()[-1]
    assert (
        last == f"provcat: 1 error in the catalog; {workspace.out.name}/ was not compared with it."
    )
    assert workspace.run(fmt="text").stderr.splitlines()[-1] == (
        "provcat: 1 error in the catalog; nothing was written."
    )


def test_github_annotations(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "aliases: [code]", "aliases: [code, chat]")
    run = workspace.run(fmt="github")
    assert run.exit_code == 1
    assert run.stdout.startswith(
        "::error file=catalog/providers/beta.yaml,line=13,col=21,title=duplicate_endpoint_key::"
    )


def test_json_success_payload(workspace: Workspace) -> None:
    payload = workspace.run().json
    assert payload["ok"] is True and payload["diagnostics"] == [] and payload["changed"] == []
    assert payload["summary"].startswith("3 providers")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert _cli("build", "--format", "yaml").returncode == 2
    assert _cli("frobnicate").returncode == 2
    missing = _cli("build", "--catalog", str(tmp_path / "nope"), "--out", str(tmp_path / "o"))
    assert missing.returncode == 2
    assert "expected a providers/ folder" in missing.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["frobnicate", "--format", "json"],
        ["build", "--bogus", "--format=json"],
        ["--format", "json", "site", "--port", "99999"],
        ["import", "models-dev", "--format", "json"],  # its PATH is missing
    ],
)
def test_a_refused_command_line_is_json_with_format_json(argv: list[str]) -> None:
    """Found in review: click's own usage errors were text under --format json, where every
    other refusal of the generator is a JSON object on stdout."""
    result = _cli(*argv)
    assert result.returncode == 2
    answer = json.loads(result.stdout)
    assert (answer["ok"], answer["error"]) == (False, "UsageError")
    assert "--help' for help." in answer["message"]


def test_module_entry_point_end_to_end(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "aliases: [code]", "aliases: [code, chat]")
    common = ["--catalog", str(workspace.catalog), "--out", str(workspace.out)]
    result = _cli("check", *common, "--import-path", str(FIXTURE_MODULES), "--format", "json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["diagnostics"][0]["code"] == "duplicate_endpoint_key"


def test_a_stale_custom_out_names_the_command_that_rebuilds_it(workspace: Workspace) -> None:
    assert workspace.run(fmt="text").exit_code == 0
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    run = workspace.run("check", fmt="text")
    assert run.exit_code == 1
    last = run.stderr.strip().splitlines()[-1]
    assert "make generate" not in last  # it would rebuild the repository's generated/, not this
    assert f"--catalog {workspace.catalog} --out {workspace.out}" in last


def test_diagnostics_that_differ_only_in_their_hint_sort_one_way() -> None:
    from generator.diagnostics import Diagnostic, ordered

    a = Diagnostic("catalog/providers/x.yaml", 3, 5, "unknown_field", "same message", "hint a")
    b = Diagnostic("catalog/providers/x.yaml", 3, 5, "unknown_field", "same message", "hint b")
    assert ordered([a, b]) == ordered([b, a]) == [a, b]
    assert ordered([a, a, b]) == [a, b]  # exact duplicates once


def test_diagnostic_paths_open_from_where_the_generator_runs(workspace: Workspace) -> None:
    """From the project's root they are catalog/...; from a folder above it, relative to that
    folder; from anywhere else, in full: every path printed (the message's too) opens as shown."""
    workspace.edit("beta.yaml", "aliases: [code]", "aliases: [code, chat]")
    args = ["build", "--catalog", str(workspace.catalog), "--out", str(workspace.out),
            "--import-path", str(FIXTURE_MODULES)]  # fmt: skip
    aside = workspace.root / "elsewhere"
    aside.mkdir()
    for cwd, prefix in [
        (workspace.root, "catalog/"),
        (workspace.root.parent, f"{workspace.root.name}/catalog/"),
        (aside, f"{workspace.catalog.as_posix()}/"),
    ]:
        with contextlib.chdir(cwd):
            text = CliRunner().invoke(main, [*args, "--format", "text"])
            data = CliRunner().invoke(main, [*args, "--format", "json"])
        (found,) = json.loads(data.stdout)["diagnostics"]
        assert found["file"] == f"{prefix}providers/beta.yaml"
        assert f"({prefix}providers/beta.yaml:7:3)" in found["message"]  # the other place
        assert text.stderr.startswith(f"{prefix}providers/beta.yaml:13:21: error[")
        assert (cwd / found["file"]).is_file()


def test_check_finds_a_generated_file_converted_to_crlf(workspace: Workspace) -> None:
    """`check` compares what is stored: line endings a checkout or an editor changed make the
    file stale, as the build (which compares bytes) sees it."""
    assert workspace.run("check", fmt="text").exit_code == 0
    page = workspace.out / "docs" / "providers.md"
    data = page.read_bytes()
    assert b"\r\n" not in data
    page.write_bytes(data.replace(b"\n", b"\r\n"))
    run = workspace.run("check", fmt="text")
    assert run.exit_code == 1
    assert "docs/providers.md" in run.stderr.strip().splitlines()[-1]
    assert "docs/providers.md: the line endings differ (the catalog gives LF)" in run.stderr
    assert page.read_bytes() == data.replace(b"\n", b"\r\n")  # check writes nothing


def test_a_file_with_schema_errors_is_said_to_be_checked_no_further(workspace: Workspace) -> None:
    """alpha.yaml's schema error hides its request default's misspelling until it is fixed;
    the summary says so, and the next run shows the rest."""
    workspace.edit("alpha.yaml", "temperature: 0.5", "temprature: 0.5")
    workspace.edit("alpha.yaml", "display_name: Alpha", "display_name: [Alpha]")
    run = workspace.run(fmt="text")
    assert run.exit_code == 1
    assert "error[schema_violation]" in run.stderr
    assert "invalid_request_default" not in run.stderr
    assert run.stderr.splitlines()[-1] == (
        "provcat: 1 error in the catalog; nothing was written. Files with YAML or schema errors "
        "were not checked further: fix those and run again to see the rest."
    )
    workspace.edit("alpha.yaml", "display_name: [Alpha]", "display_name: Alpha")
    run = workspace.run(fmt="text")
    assert "error[invalid_request_default]" in run.stderr
    assert run.stderr.splitlines()[-1] == "provcat: 1 error in the catalog; nothing was written."


def test_a_control_character_of_a_path_is_shown_as_its_escape(tmp_path: Path) -> None:
    """An escape sequence in a path the generator quotes (here one that retitles the terminal's
    window) is written as `\\x1b`, never sent to the terminal; JSON keeps the path as it is."""
    catalog = str(tmp_path / "cat\x1b]0;pwned\x07")
    refused = _cli("check", "--catalog", catalog)
    assert refused.returncode == 2
    assert "\x1b" not in refused.stderr and "\x07" not in refused.stderr
    assert "cat\\x1b]0;pwned\\x07" in refused.stderr
    said = _cli("check", "--catalog", catalog, "--format", "json")
    assert said.returncode == 2 and catalog in json.loads(said.stdout)["message"]
    # every command's text error, not only the refusals of build and check: the importer's
    snapshot = tmp_path / "snap\x1b[31m"
    snapshot.mkdir()
    imported = _cli("import", "models-dev", str(snapshot), "--into", str(tmp_path / "into"))
    assert imported.returncode == 2 and "\x1b" not in imported.stderr
    assert "snap\\x1b[31m" in imported.stderr
