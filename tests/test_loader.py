"""Every loader rejection: its code, its position, and that generated/ stays untouched."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator import loader
from tests.conftest import SCHEMA_LINE, Workspace

GOOD = "provider: gamma\ndisplay_name: Gamma\nmodule: provcat_testproviders.beta\n"


def test_yaml_syntax_error_is_reported_at_its_position(workspace: Workspace) -> None:
    # an unclosed bracket is reported where it opens, not where libyaml gives up (issue #25)
    workspace.write("gamma.yaml", GOOD + "endpoints: [1, 2\n")
    run = workspace.fails(("yaml_syntax", "gamma.yaml", 5, 12))
    assert "line 6, column 1" in run.json["diagnostics"][0]["message"]


def test_an_unclosed_quote_is_reported_on_the_line_that_opens_it(workspace: Workspace) -> None:
    workspace.write(
        "gamma.yaml",
        'provider: gamma\ndisplay_name: "Gamma\nmodule: provcat_testproviders.beta\n'
        "defaults:\n  base_url: http://127.0.0.1:9/v1\n",
    )
    run = workspace.fails(("yaml_syntax", "gamma.yaml", 3, 15))
    assert "never closed" in run.json["diagnostics"][0]["message"]


def test_an_unclosed_quote_before_another_quoted_value_is_reported_where_it_opens(
    workspace: Workspace,
) -> None:
    """`display_name: "Gamma` with a quoted date further down: libyaml reads the quote on to
    the date's opening quote and gives up on line 5; the error is the quoted scalar libyaml
    started at 3:15, the start mark of its token."""
    workspace.write(
        "gamma.yaml",
        'provider: gamma\ndisplay_name: "Gamma\nmodule: provcat_testproviders.beta\n'
        'reviewed_at: "2026-12-01"\ndefaults:\n  base_url: http://127.0.0.1:9/v1\n',
    )
    run = workspace.fails(("yaml_syntax", "gamma.yaml", 3, 15))
    found = run.json["diagnostics"][0]
    assert "never closed" in found["message"]
    assert "line 5" in found["message"]  # where libyaml gave up
    assert "never closed on this line" in found["hint"]


def test_a_quoted_value_over_two_lines_is_not_blamed_for_a_later_error(
    workspace: Workspace,
) -> None:
    """A double-quoted value may span lines (YAML 1.2, 7.3.1: a line break folds to a space);
    one that ends well before the line where the YAML breaks is not the fault."""
    workspace.write(
        "gamma.yaml",
        GOOD.replace("display_name: Gamma\n", 'display_name: "Gamma,\n  the second"\n')
        + "endpoints:\n  chat:\n    type: api\n    status active\n    protocol: openai-chat\n",
    )
    run = workspace.fails(("yaml_syntax", "gamma.yaml", 9, 5))
    assert "never closed" not in run.json["diagnostics"][0]["message"]


def test_a_missing_colon_is_reported_on_the_key_s_line(workspace: Workspace) -> None:
    """`    status active`: libyaml's context mark (the simple key it was scanning) is the line
    that lacks the colon; its problem mark is the next line."""
    workspace.write(
        "gamma.yaml",
        GOOD + "endpoints:\n  chat:\n    type: api\n    status active\n    protocol: openai-chat\n",
    )
    run = workspace.fails(("yaml_syntax", "gamma.yaml", 8, 5))
    assert run.json["diagnostics"][0]["hint"] == "add `: ` after the key"


def test_a_bad_indent_is_reported_on_its_own_line(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GOOD + "defaults:\n  base_url: x\n api_key_env: Y\n")
    workspace.fails(("yaml_syntax", "gamma.yaml", 7, 2))


def test_a_schema_error_does_not_hide_a_collision_with_another_file(workspace: Workspace) -> None:
    """Every problem a readable file has is reported in one run: the unknown field and the
    alias that another file already owns (issue #25)."""
    alpha = (workspace.providers / "alpha.yaml").read_text(encoding="utf-8")
    assert "aliases: [alpha-ai, al]" in alpha
    workspace.write("gamma.yaml", GOOD + "displya: x\naliases: [al]\n")
    run = workspace.fails(
        ("missing_field", "gamma.yaml", 2, 1),  # no endpoints
        ("unknown_field", "gamma.yaml", 5, 1),
        ("duplicate_provider_key", "gamma.yaml", 6, 11),
        ("duplicate_provider_key", "alpha.yaml", 4, 21),  # the other side of the clash
    )
    found = {(Path(d["file"]).name, d["code"]): d for d in run.json["diagnostics"]}
    assert "alpha" in found[("gamma.yaml", "duplicate_provider_key")]["message"]


def test_a_file_too_broken_to_read_keys_from_reports_its_schema_errors(
    workspace: Workspace,
) -> None:
    workspace.write("gamma.yaml", GOOD + "aliases: al\nendpoints: [1]\n")
    run = workspace.run()
    assert run.exit_code == 1
    codes = {d["code"] for d in run.json["diagnostics"]}
    assert codes and codes <= {"schema_violation", "unknown_field", "missing_required_field"}


def test_duplicate_mapping_key(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GOOD + "display_name: Again\n")
    run = workspace.fails(("duplicate_yaml_key", "gamma.yaml", 5, 1))
    assert "line 3, column 1" in run.json["diagnostics"][0]["message"]


def test_duplicate_endpoint_key_inside_one_mapping_is_a_duplicate_yaml_key(
    workspace: Workspace,
) -> None:
    workspace.edit("beta.yaml", "  cli:\n", "  chat:\n")
    workspace.fails(("duplicate_yaml_key", "beta.yaml", 12, 3))


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("1", "an integer"),
        ("yes", "the boolean true in YAML 1.1 but a string in YAML 1.2"),
        ("1e3", "a string in YAML 1.1 but the number 1000.0 in YAML 1.2"),
        ("null", "null"),
        ("1.5", "a number"),
    ],
)
def test_non_string_keys(workspace: Workspace, key: str, kind: str) -> None:
    workspace.write("gamma.yaml", GOOD + f"{key}: x\n")
    run = workspace.fails(("non_string_key", "gamma.yaml", 5, 1))
    assert kind in run.json["diagnostics"][0]["message"]


def test_collection_key_and_merge_key(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GOOD + "? [a]\n: x\nextra:\n  <<: {a: 1}\n")
    workspace.fails(("non_string_key", "gamma.yaml", 5, 3), ("non_string_key", "gamma.yaml", 8, 3))


def test_anchors_and_aliases(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GOOD + "aliases: &names [g]\ndescription: *names\n")
    workspace.fails(
        ("anchor_not_allowed", "gamma.yaml", 5, 10), ("anchor_not_allowed", "gamma.yaml", 6, 14)
    )


def test_explicit_tags(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GOOD + "description: !!str 12\ndocs_url: !custom x\n")
    workspace.fails(
        ("yaml_tag_not_allowed", "gamma.yaml", 5, 14),
        ("yaml_tag_not_allowed", "gamma.yaml", 6, 11),
    )


def test_tabs_are_reported_per_line(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GOOD + "endpoints:\n\tchat: {}\naliases: [a,\tb]\n")
    workspace.fails(("tab_character", "gamma.yaml", 6, 1), ("tab_character", "gamma.yaml", 7, 13))


def test_invalid_utf8(workspace: Workspace) -> None:
    path = workspace.file("gamma.yaml")
    path.write_bytes(SCHEMA_LINE.encode() + GOOD.encode() + b"description: caf\xe9\n")
    workspace.fails(("invalid_utf8", "gamma.yaml", 5, 17))


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n"])
def test_empty_files(workspace: Workspace, text: str) -> None:
    workspace.file("gamma.yaml").write_text(text, encoding="utf-8")
    workspace.fails(("empty_file", "gamma.yaml", 1, 1))


def test_symlink(workspace: Workspace) -> None:
    os.symlink(workspace.file("beta.yaml"), workspace.file("gamma.yaml"))
    workspace.fails(("symlink_not_allowed", "gamma.yaml", 1, 1))


def test_file_over_the_size_cap(workspace: Workspace) -> None:
    padding = "# " + "x" * 98 + "\n"
    body = GOOD + padding * (loader.MAX_BYTES // len(padding) + 1)
    workspace.write("gamma.yaml", body)
    run = workspace.fails(("file_too_large", "gamma.yaml", 1, 1))
    assert str(loader.MAX_BYTES) in run.json["diagnostics"][0]["message"]


def test_multiple_documents(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GOOD + "---\nprovider: delta\n")
    workspace.fails(("multiple_documents", "gamma.yaml", 5, 1))


@pytest.mark.parametrize("depth", [loader.MAX_DEPTH + 1, 500, 5000])
def test_deep_nesting_is_refused_before_it_can_overflow(workspace: Workspace, depth: int) -> None:
    workspace.write("gamma.yaml", GOOD + "description: " + "[" * depth + "]" * depth + "\n")
    run = workspace.fails(
        *[("nesting_too_deep", "gamma.yaml", 5, d["column"]) for d in _diags(workspace)]
    )
    assert len(run.json["diagnostics"]) == 1
    assert str(loader.MAX_DEPTH) in run.json["diagnostics"][0]["message"]


def _diags(workspace: Workspace) -> list[dict[str, object]]:
    run = workspace.run()
    return [d for d in run.json["diagnostics"] if d["code"] == "nesting_too_deep"]


@pytest.mark.parametrize("name", ["gamma.yml", "notes.txt", "gamma.YAML"])
def test_unexpected_files(workspace: Workspace, name: str) -> None:
    (workspace.providers / name).write_text(GOOD, encoding="utf-8")
    workspace.fails(("unexpected_file", name, 1, 1))


@pytest.mark.parametrize("where", ["gamma.yaml", "models/gamma.yaml", "old/x/gamma.yml"])
def test_a_provider_file_outside_providers_is_an_unexpected_file(
    workspace: Workspace, where: str
) -> None:
    """A provider file moved to the catalog's root or a folder the generator does not read was
    dropped without a word (the build passed without the provider)."""
    path = workspace.catalog / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SCHEMA_LINE + GOOD, encoding="utf-8")
    run = workspace.fails(("unexpected_file", path.name, 1, 1))
    found = run.json["diagnostics"][0]
    assert found["file"].endswith(f"catalog/{where}")
    assert "catalog/providers/" in found["hint"]


def test_the_catalog_root_may_hold_other_files(workspace: Workspace) -> None:
    (workspace.catalog / "REVIEWS.md").write_text("# Reviews\n", encoding="utf-8")
    (workspace.catalog / "notes").mkdir()
    (workspace.catalog / "notes" / "todo.txt").write_text("x\n", encoding="utf-8")
    (workspace.catalog / ".hidden.yaml").write_text("x: 1\n", encoding="utf-8")
    run = workspace.run()
    assert run.exit_code == 0 and run.json["diagnostics"] == []


def test_hidden_files_and_editor_backups_are_skipped(workspace: Workspace) -> None:
    for name in (".DS_Store", ".gamma.yaml.swp", "beta.yaml~"):
        (workspace.providers / name).write_bytes(b"\x00 not yaml")
    run = workspace.run()
    assert run.exit_code == 0 and run.json["diagnostics"] == []


def test_a_folder_among_the_providers_is_named_as_a_folder(workspace: Workspace) -> None:
    (workspace.providers / "old").mkdir()
    (workspace.providers / "old" / "gamma.yaml").write_text(GOOD, encoding="utf-8")
    run = workspace.fails(("unexpected_file", "old", 1, 1))
    found = run.json["diagnostics"][0]
    assert found["file"].endswith("providers/old/")
    assert "is a folder" in found["message"] and "move the folder out" in found["hint"]
    text = workspace.run(fmt="text").stderr
    assert "provcat: 1 error in the catalog; nothing was written.\n" in text
    assert "were not checked further" not in text  # no file had YAML or schema errors


def test_dates_stay_strings() -> None:
    doc, problems = _load("when: 2026-01-02\n")
    assert problems == []
    assert doc is not None and doc.data == {"when": "2026-01-02"}


def test_positions_of_keys_and_values() -> None:
    doc, _ = _load("a:\n  b: [x, {c: 1}]\n")
    assert doc is not None
    assert doc.positions[("a", "b", 1, "c")] == (2, 14)
    assert doc.key_positions[("a", "b")] == (2, 3)


def _load(text: str) -> tuple[loader.Document | None, list[object]]:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.yaml"
        path.write_text(text, encoding="utf-8")
        doc, problems = loader.load_file(path, "x.yaml")
        return doc, list(problems)


def test_a_plain_equals_sign_is_a_string() -> None:
    # YAML 1.1 gave a plain '=' the 'value' tag, which the safe constructor cannot build; the
    # catalog is read as YAML 1.2, where it is text
    doc, problems = _load("notes: =\n")
    assert problems == [] and doc is not None and doc.data == {"notes": "="}


@pytest.mark.parametrize(
    ("written", "column", "hint"),
    [
        # a text field: quoting is what it takes
        ("description: 1:30", 14, 'quote it ("1:30")'),
        ("description: 09", 14, 'quote it ("09")'),
        ("description: No", 14, 'quote it ("No")'),
        # a number, an integer, a boolean: the value YAML 1.2 reads, or true/false
        ("defaults: {timeout: 1:30}", 21, "write 90"),
        ("defaults: {timeout: 010}", 21, "write 10"),
        ("defaults: {max_retries: 1_0}", 25, "write 10"),
        ("defaults: {requires_tokens: on}", 29, "write true or false"),
        ("defaults: {requires_tokens: OFF}", 29, "write true or false"),
    ],
)
def test_a_value_yaml_1_1_reads_otherwise_is_refused_with_what_to_write(
    workspace: Workspace, written: str, column: int, hint: str
) -> None:
    """pyyaml's default (YAML 1.1) reads ``timeout: 1:30`` as 90 and ``010`` as 8, and
    ``description: No`` as false: each is refused at its position, never changed silently, with
    the hint of what the field takes (it was "quote it for the text, or write the number",
    whichever the field took: one of the two led to another error)."""
    workspace.write("gamma.yaml", GOOD + f"{written}\n")
    run = workspace.fails(("ambiguous_yaml_value", "gamma.yaml", 5, column))
    found = run.json["diagnostics"][0]
    assert found["hint"] == hint
    value = written.rsplit(" ", 1)[-1].rstrip("}")
    assert f"'{value}'" in found["message"] and "YAML 1.1" in found["message"]


def test_without_a_schema_the_hint_names_both_readings() -> None:
    """The loader alone (the importer reads existing files with it) does not know the field:
    the hint gives both ways of writing the value."""
    doc, problems = loader.load_bytes(b"a: 1:30\nb: on\n", "x.yaml")
    assert doc is None
    assert [p.hint for p in problems] == [
        'quote it ("1:30") for the text, or write the number as 90',
        'quote it ("on") for the text, or write true',
    ]


def test_prices_and_limits_are_never_read_as_octal_or_base_60(workspace: Workspace) -> None:
    workspace.edit(
        "alpha.yaml",
        "alpha-1: {aliases: [alpha-one], context_window: 8192}",
        "alpha-1: {context_window: 8192, prices: {input: 010, output: 1:00}}",
    )
    workspace.fails(
        ("ambiguous_yaml_value", "alpha.yaml", 36, 51),
        ("ambiguous_yaml_value", "alpha.yaml", 36, 64),
    )


def test_yaml_1_2_scalars() -> None:
    doc, problems = _load(
        "a: true\nb: false\nc: 10\nd: 0\ne: -3\nf: 1.5\ng: 1.0e+3\nh: null\ni: ~\n"
        'j: "010"\nk: "1:30"\nl: "no"\nm: yes-please\nn: 0.25\no: 2026-01-02\n'
    )
    assert problems == [] and doc is not None
    assert doc.data == {
        "a": True,
        "b": False,
        "c": 10,
        "d": 0,
        "e": -3,
        "f": 1.5,
        "g": 1000.0,
        "h": None,
        "i": None,
        "j": "010",
        "k": "1:30",
        "l": "no",
        "m": "yes-please",
        "n": 0.25,
        "o": "2026-01-02",
    }


def test_what_follows_a_refused_key_is_still_checked(workspace: Workspace) -> None:
    # the value under a refused key is left out whole; the keys after it are read as usual
    workspace.write("gamma.yaml", GOOD + "? [a, {b: 1}]\n: {c: 1, c: 2}\ndisplay_name: Again\n")
    run = workspace.fails(
        ("non_string_key", "gamma.yaml", 5, 3), ("duplicate_yaml_key", "gamma.yaml", 7, 1)
    )
    assert len(run.json["diagnostics"]) == 2


@pytest.mark.parametrize(
    ("written", "value"),
    [("00", 0), ("007.5", 7.5), ("0x1F", 31), ("-0", 0), (".5", 0.5), ("+1", 1), ("1.", 1.0)],
)
def test_a_form_yaml_1_1_and_1_2_read_alike_is_accepted(written: str, value: object) -> None:
    """``00`` is 0 and ``007.5`` is 7.5 in both versions: nothing to refuse (it was refused as
    "the number 0 in YAML 1.1 but the number 0 in YAML 1.2")."""
    doc, problems = _load(f"a: {written}\n")
    assert problems == [] and doc is not None and doc.data == {"a": value}


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("-0x1F", "'-0x1F' is the number -31 in YAML 1.1 but a string in YAML 1.2"),
        ("1e3", "'1e3' is a string in YAML 1.1 but the number 1000.0 in YAML 1.2"),
        ("2E5", "'2E5' is a string in YAML 1.1 but the number 200000.0 in YAML 1.2"),
        ("1.5e3", "'1.5e3' is a string in YAML 1.1 but the number 1500.0 in YAML 1.2"),
        ("08", "'08' is a string in YAML 1.1 but the number 8 in YAML 1.2"),
        ("0o17", "'0o17' is a string in YAML 1.1 but the number 15 in YAML 1.2"),
        ("010", "'010' is the number 8 in YAML 1.1 but the number 10 in YAML 1.2"),
        ("0b11", "'0b11' is the number 3 in YAML 1.1 but a string in YAML 1.2"),
    ],
)
def test_a_form_yaml_1_1_and_1_2_read_differently_is_refused_with_both_readings(
    written: str, message: str
) -> None:
    """Signed hex was read as -31 and ``1e3`` as 1000.0 silently, though YAML 1.1 tools read
    them as text (or -31 where 1.2 reads text)."""
    doc, problems = _load(f"a: {written}\n")
    assert doc is None
    assert [(p.code, p.message.split(":")[0]) for p in problems] == [
        ("ambiguous_yaml_value", message)
    ]
