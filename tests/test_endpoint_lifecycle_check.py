"""The generator's endpoint lifecycle checks: every mistake reported at its position, with its
own code, and nothing written; a consistent lifecycle builds and reaches the snapshot record."""

from __future__ import annotations

from tests.conftest import Workspace


def _retire_embeddings(workspace: Workspace, lifecycle: str) -> list[str]:
    """Give alpha's embeddings endpoint ``lifecycle`` (YAML lines under ``lifecycle:``)."""
    block = "".join(f"      {line}\n" for line in lifecycle.strip().splitlines())
    workspace.edit(
        "alpha.yaml",
        "    request_options: chat_request_factory\n",
        f"    request_options: chat_request_factory\n    lifecycle:\n{block}",
    )
    return workspace.file("alpha.yaml").read_text(encoding="utf-8").splitlines()


def _at(lines: list[str], text: str) -> tuple[int, int]:
    """(line, column) of the value after ``text`` on the line that holds it."""
    for number, line in enumerate(lines, start=1):
        if text in line:
            return number, line.index(text) + len(text) + 1
    raise AssertionError(f"{text!r} not in the file")


SOURCE = "source: https://vendor.example/deprecations"


def test_a_consistent_lifecycle_builds_and_reaches_the_record(workspace: Workspace) -> None:
    _retire_embeddings(
        workspace,
        f"""
status: retired
deprecation_date: "2026-01-05"
shutdown_date: "2026-03-01"
successor: Chat
{SOURCE}
""",
    )
    run = workspace.run()
    assert run.exit_code == 0, run.stdout + run.stderr
    data = (workspace.out / "provcat_catalog" / "data.py").read_text(encoding="utf-8")
    assert "'successor': 'chat/completions'" in data  # the alias, written canonical
    assert "'shutdown_date': '2026-03-01'" in data


def test_retired_without_shutdown_date(workspace: Workspace) -> None:
    lines = _retire_embeddings(workspace, f"status: retired\n{SOURCE}")
    workspace.fails(
        ("retired_endpoint_without_shutdown_date", "alpha.yaml", *_at(lines, "status: "))
    )


def test_dates_out_of_order(workspace: Workspace) -> None:
    lines = _retire_embeddings(
        workspace,
        f'status: deprecated\ndeprecation_date: "2026-05-01"\nshutdown_date: "2026-04-30"\n{SOURCE}',
    )
    workspace.fails(("endpoint_dates_out_of_order", "alpha.yaml", *_at(lines, "shutdown_date: ")))


def test_a_date_that_is_no_day(workspace: Workspace) -> None:
    """Found in review: the shape passed the schema and the runtime then failed to read it."""
    lines = _retire_embeddings(workspace, f'status: retired\nshutdown_date: "2026-02-30"\n{SOURCE}')
    workspace.fails(("invalid_date", "alpha.yaml", *_at(lines, "shutdown_date: ")))


def test_unknown_successor_with_a_suggestion(workspace: Workspace) -> None:
    lines = _retire_embeddings(workspace, f"status: deprecated\nsuccessor: chta\n{SOURCE}")
    run = workspace.fails(("unknown_endpoint_successor", "alpha.yaml", *_at(lines, "successor: ")))
    (found,) = run.json["diagnostics"]
    assert "'chta' is not another endpoint of alpha" in found["message"]
    assert found["hint"] == "did you mean 'chat'?"


def test_successor_may_not_be_the_endpoint_itself(workspace: Workspace) -> None:
    lines = _retire_embeddings(workspace, f"status: deprecated\nsuccessor: embed\n{SOURCE}")
    workspace.fails(("unknown_endpoint_successor", "alpha.yaml", *_at(lines, "successor: ")))


def test_successor_that_is_itself_retired(workspace: Workspace) -> None:
    lines = _retire_embeddings(workspace, f"status: deprecated\nsuccessor: cli\n{SOURCE}")
    workspace.edit(
        "alpha.yaml",
        "    request_options: AgentRequest\n",
        "    request_options: AgentRequest\n    lifecycle:\n      status: retired\n"
        f'      shutdown_date: "2026-02-01"\n      {SOURCE}\n',
    )
    workspace.fails(("endpoint_successor_retired", "alpha.yaml", *_at(lines, "successor: ")))


def test_lifecycle_needs_a_status_and_a_source(workspace: Workspace) -> None:
    _retire_embeddings(workspace, "status: sunset")
    run = workspace.run()
    assert run.exit_code == 1
    codes = {d["code"] for d in run.json["diagnostics"]}
    assert codes and codes <= {"schema_violation", "missing_field"}


def test_request_defaults_on_a_retired_endpoint(workspace: Workspace) -> None:
    # no request reaches a retired endpoint: its defaults would mislead (issue #27 item 8)
    workspace.edit(
        "alpha.yaml",
        "    request_options: chat_request_factory\n",
        "    request_defaults: {model: alpha-1}\n    request_options: chat_request_factory\n",
    )
    lines = _retire_embeddings(workspace, f'status: retired\nshutdown_date: "2026-03-01"\n{SOURCE}')
    line = lines.index("    request_defaults: {model: alpha-1}") + 1
    column = len("    request_defaults: {") + 1  # the first default's key
    run = workspace.fails(("request_default_on_retired_endpoint", "alpha.yaml", line, column))
    assert "still gives request defaults (model)" in run.json["diagnostics"][0]["message"]
