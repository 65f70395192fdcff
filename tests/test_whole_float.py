"""A float is no price and no count, whole or not: JSON Schema's `integer` counts 2.0 as one, so
`input: 2.0` passed where `input: 0.1` was refused, and `context_window: 1000.0` reached the
snapshot as a float."""

from __future__ import annotations

import pytest

from tests.conftest import Workspace


@pytest.mark.parametrize("written", ["2.0", "0.1"])
def test_a_float_price_is_refused_whole_or_not(workspace: Workspace, written: str) -> None:
    workspace.edit(
        "alpha.yaml",
        "alpha-1: {aliases: [alpha-one], context_window: 8192}",
        "alpha-1: {aliases: [alpha-one], context_window: 8192, "
        f"prices: {{input: {written}, output: '1'}}}}",
    )
    run = workspace.run()
    assert run.exit_code == 1
    (found,) = run.json["diagnostics"]
    assert found["code"] == "schema_violation"
    assert found["message"].endswith(f"expected string or integer, got a number {written}")
    assert found["hint"].startswith(f'quote it: "{written}"')


def test_a_whole_float_count_is_refused(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "context_window: 8192}", "context_window: 8192.0}")
    run = workspace.run()
    assert run.exit_code == 1
    assert [d["message"] for d in run.json["diagnostics"]] == [
        "models/alpha-1/context_window: expected integer, got a number 8192.0"
    ]


def test_a_whole_float_where_a_number_may_be_passes(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "temperature: 0.5", "temperature: 1.0")
    assert workspace.run().exit_code == 0
