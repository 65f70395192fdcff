"""docs/reference/ (the API and CLI references) is what the code gives today: a changed docstring,
signature, command or option without `make docs` fails here."""

from __future__ import annotations

import pytest

from generator import reference
from tests.conftest import ROOT


@pytest.mark.parametrize("page", ["api.md", "cli.md"])
def test_the_reference_is_not_stale(page: str) -> None:
    want = reference.pages()[reference.OUT / page]
    on_disk = (ROOT / "docs" / "reference" / page).read_text(encoding="utf-8")
    assert on_disk == want, f"docs/reference/{page} is stale: run `make docs` and commit it"


def test_every_public_name_and_command_is_in_the_reference() -> None:
    import provcat
    import provcat.toolschema
    from provcat.cli.main import main

    api = (ROOT / "docs" / "reference" / "api.md").read_text(encoding="utf-8")
    for name in provcat.__all__:
        assert f"### `provcat.{name}`" in api, name
    assert "### `provcat.toolschema.InvalidToolError`" in api
    cli = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    for command in main.list_commands(None):  # type: ignore[arg-type]
        assert f"## `provcat {command}`" in cli, command


def test_a_class_is_shown_with_bases_a_reader_can_catch_or_subclass() -> None:
    # a private base (`_LifecycleRetired`) is no name to write in an `except`: its public bases
    # stand in for it
    api = (ROOT / "docs" / "reference" / "api.md").read_text(encoding="utf-8")
    assert "*exception* (_" not in api and "*class* (_" not in api
    retired = api.split("### `provcat.errors.ModelRetired`", 1)[1].split("###", 1)[0]
    assert "*exception* (ProviderCatalogError)" in retired
