"""What a provider maintainer reads: each message says what to do, and doing it works.

Found by a maintainer: `make check` and `make generate` sent each other round in circles over a
stray file in generated/; hints that led to another error (`input: 1e-3` told to write 0.001, a
float, or "1e-3", no price); hints that repeated the field's description; `base_url` at the top
level told "did you mean 'docs_url'?"; a misspelt model successor or target `extends` without a
suggestion. Each test runs the generator as a maintainer does and reads the printed diagnostic
(position, code, message, hint); where a hint says what to write, writing it makes the build pass.
"""

from __future__ import annotations

import contextlib
import itertools
import json

import pytest
from click.testing import CliRunner

from generator.cli import build, check, main
from tests.conftest import FIXTURE_MODULES, Run, Workspace, tree_bytes

# alpha.yaml's first model, and a line to replace it with (line 36 of alpha.yaml)
MODEL = "  alpha-1: {aliases: [alpha-one], context_window: 8192}\n"


def printed(run: Run) -> list[tuple[str, str, str]]:
    """The diagnostics ``build --format text`` printed: (position and code, message, hint)."""
    lines = run.stderr.splitlines()
    found = []
    for first, second in itertools.pairwise(lines):
        if ": error[" in first or ": warning[" in first:
            where, message = first.split("] ", 1)
            found.append((where + "]", message, second.removeprefix("    hint: ")))
    return found


def one(workspace: Workspace) -> tuple[str, str, str]:
    """Build (text), which must fail with exactly one diagnostic and write nothing."""
    before = tree_bytes(workspace.out)
    run = workspace.run(fmt="text")
    assert run.exit_code == 1, run.stdout + run.stderr
    assert tree_bytes(workspace.out) == before
    (found,) = printed(run)
    return found


def passes(workspace: Workspace) -> None:
    run = workspace.run()
    assert run.exit_code == 0, json.dumps(run.json, indent=1)
    assert run.json["diagnostics"] == []


def set_model(workspace: Workspace, line: str) -> None:
    workspace.edit("alpha.yaml", MODEL, line)


# -- 1. a file in generated/ the generator did not write ------------------------------------


def _default_out(workspace: Workspace, monkeypatch: pytest.MonkeyPatch, *args: str) -> Run:
    """The command run as `make generate` / `make check` run it: no --out, no --catalog (their
    defaults pointed at the workspace)."""
    for command in (build, check):
        for param in command.params:
            if param.name == "out":
                monkeypatch.setattr(param, "default", workspace.out)
            if param.name == "catalog":
                monkeypatch.setattr(param, "default", workspace.catalog)
    argv = [*args, "--import-path", str(FIXTURE_MODULES)]
    with contextlib.chdir(workspace.root):
        result = CliRunner().invoke(main, argv, catch_exceptions=False)
    return Run(result.exit_code, result.stdout, result.stderr)


def test_check_and_build_say_to_delete_or_move_a_file_the_generator_did_not_write(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = workspace.out / "docs" / "my-notes.md"
    notes.write_text("notes\n", encoding="utf-8")
    checked = _default_out(workspace, monkeypatch, "check")
    assert checked.exit_code == 1
    assert checked.stderr.splitlines() == [
        "provcat: generated/docs/my-notes.md is not written by the generator: delete or move it "
        "(a build replaces generated/ as a whole and never deletes what it did not write)."
    ]
    built = _default_out(workspace, monkeypatch, "build")
    assert built.exit_code == 2
    # no usage text (it is no mistake of the command line), no --out the user never gave
    assert built.stderr.splitlines() == [
        "Error: generated/ holds 1 file the generator did not write: generated/docs/my-notes.md. "
        "The generator replaces generated/ as a whole and never deletes what it did not write: "
        "delete or move it, then build again."
    ]
    assert notes.read_text(encoding="utf-8") == "notes\n"  # refused: never deleted
    machine = _default_out(workspace, monkeypatch, "build", "--format", "json")
    assert (machine.exit_code, machine.stderr) == (2, "")
    assert json.loads(machine.stdout) == {
        "ok": False,
        "error": "UnsafeOutput",
        "message": built.stderr.splitlines()[0].removeprefix("Error: "),
    }
    stale = json.loads(_default_out(workspace, monkeypatch, "check", "--format", "json").stdout)
    assert (stale["stale"], stale["foreign"]) == (["docs/my-notes.md"], ["docs/my-notes.md"])
    # done as said: both agree
    notes.unlink()
    assert _default_out(workspace, monkeypatch, "build").exit_code == 0
    assert _default_out(workspace, monkeypatch, "check").exit_code == 0


def test_check_names_an_empty_folder_the_generator_did_not_write_as_build_does(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An empty folder in generated/ is refused by a build (it would drop it); check names it
    the same way instead of calling generated/ up to date."""
    stray = workspace.out / "docs" / "stray"
    stray.mkdir()
    checked = _default_out(workspace, monkeypatch, "check")
    assert checked.exit_code == 1
    assert checked.stderr.splitlines() == [
        "provcat: generated/docs/stray/ is not written by the generator: delete or move it "
        "(a build replaces generated/ as a whole and never deletes what it did not write)."
    ]
    stale = json.loads(_default_out(workspace, monkeypatch, "check", "--format", "json").stdout)
    assert (stale["ok"], stale["stale"], stale["foreign"]) == (
        False,
        ["docs/stray/"],
        ["docs/stray/"],
    )
    for flags in (["--no-cache"], []):  # a cached build's no-change check does not pass it by
        built = _default_out(workspace, monkeypatch, "build", *flags)
        assert built.exit_code == 2
        assert "generated/docs/stray/" in built.stderr
        assert stray.is_dir()  # refused: never deleted
    stray.rmdir()  # done as said: both agree
    assert _default_out(workspace, monkeypatch, "check").exit_code == 0
    assert _default_out(workspace, monkeypatch, "build", "--no-cache").exit_code == 0


def test_a_given_out_is_named_as_given_and_other_stale_files_still_say_to_rebuild(
    workspace: Workspace,
) -> None:
    (workspace.out / "docs" / "a.md").write_text("a\n", encoding="utf-8")
    (workspace.out / "docs" / "b.md").write_text("b\n", encoding="utf-8")
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    built = workspace.run(fmt="text")
    out = workspace.out
    assert built.exit_code == 2 and "Usage:" not in built.stderr
    assert built.stderr.splitlines() == [
        f"Error: --out {out} holds 2 files the generator did not write: {out}/docs/a.md, "
        f"{out}/docs/b.md. The generator replaces {out}/ as a whole and never deletes what it "
        "did not write: delete or move them, or name an empty or new folder with --out."
    ]
    checked = workspace.run("check", fmt="text")
    last = checked.stderr.splitlines()[-2:]
    assert last[0] == (
        "provcat: generated/docs/a.md, generated/docs/b.md are not written by the generator: "
        "delete or move them (a build replaces generated/ as a whole and never deletes what it "
        "did not write)."
    )
    assert last[1].startswith("provcat: generated/ is stale (generated/docs/README.md, ")
    assert "; then run `python -m generator build --catalog" in last[1]
    assert "a.md" not in last[1]
    assert "--- generated/docs/a.md" not in checked.stderr  # no diff of a file not the build's


# -- 2. a value YAML 1.1 reads otherwise: the hint is what the field takes --------------------


def follow_the_hint(
    workspace: Workspace, old: str, new: str, where: str, message: str, hint: str, fixed: str
) -> None:
    """Writing ``new`` for ``old`` gives the one diagnostic (at ``where``, with ``message`` and
    ``hint``); writing ``fixed``, as the hint says, builds."""
    workspace.edit("alpha.yaml", old, new)
    assert one(workspace) == (f"catalog/providers/{where}", message, hint)
    workspace.edit("alpha.yaml", new, fixed)
    passes(workspace)


@pytest.mark.parametrize(
    ("old", "new", "where", "message", "hint", "fixed"),
    [
        (
            MODEL,
            "  alpha-1: {context_window: 8192, prices: {input: 1e-3, output: '1'}}\n",
            "alpha.yaml:36:51: error[ambiguous_yaml_value]",
            "'1e-3' is a string in YAML 1.1 but the number 0.001 in YAML 1.2: tools would read "
            "it differently",
            'write "0.001"',
            "  alpha-1: {context_window: 8192, prices: {input: \"0.001\", output: '1'}}\n",
        ),
        (
            MODEL,
            "  alpha-1: {context_window: 64_000}\n",
            "alpha.yaml:36:29: error[ambiguous_yaml_value]",
            "'64_000' is the number 64000 in YAML 1.1 but a string in YAML 1.2: tools would read "
            "it differently",
            "write 64000",
            "  alpha-1: {context_window: 64000}\n",
        ),
        (
            "  api_key_env: ALPHA_API_KEY\n",
            "  api_key_env: ALPHA_API_KEY\n  requires_tokens: yes\n",
            "alpha.yaml:9:20: error[ambiguous_yaml_value]",
            "'yes' is the boolean true in YAML 1.1 but a string in YAML 1.2: tools would read it "
            "differently",
            "write true or false",
            "  api_key_env: ALPHA_API_KEY\n  requires_tokens: true\n",
        ),
        (
            MODEL,
            "  alpha-1: {name: 1e-3}\n",
            "alpha.yaml:36:19: error[ambiguous_yaml_value]",
            "'1e-3' is a string in YAML 1.1 but the number 0.001 in YAML 1.2: tools would read "
            "it differently",
            'quote it ("1e-3")',  # a text field: the text
            '  alpha-1: {name: "1e-3"}\n',
        ),
    ],
    ids=["price", "integer", "boolean", "text"],
)
def test_the_hint_of_a_value_yaml_1_1_reads_otherwise_is_what_the_field_takes(
    workspace: Workspace, old: str, new: str, where: str, message: str, hint: str, fixed: str
) -> None:
    follow_the_hint(workspace, old, new, where, message, hint, fixed)


def test_a_field_that_takes_none_of_the_readings_says_what_it_takes(workspace: Workspace) -> None:
    set_model(workspace, "  alpha-1: {status: yes}\n")
    assert one(workspace)[2] == "write one of preview, active, deprecated, retired"


@pytest.mark.parametrize(
    ("written", "hint"),
    [
        ("0.1", 'quote it: "0.1" (floats are refused: YAML reads 0.1 as a binary fraction)'),
        (
            "1.5",
            'quote it: "1.5" (floats are refused, even exact ones such as 1.5: most decimals, '
            "such as 0.1, are no exact binary fraction)",
        ),
        (
            "2.0",
            'quote it: "2.0" (floats are refused, even exact ones such as 2.0: most decimals, '
            "such as 0.1, are no exact binary fraction)",
        ),
    ],
)
def test_the_float_price_hint_is_true_of_the_value(
    workspace: Workspace, written: str, hint: str
) -> None:
    """1.5 and 2.0 are exact binary fractions: the hint said YAML read them as inexact ones."""
    set_model(workspace, f"  alpha-1: {{prices: {{input: {written}, output: '1'}}}}\n")
    assert one(workspace)[2] == hint


# -- 3. a schema violation says what to write -------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "where", "message", "hint", "fixed"),
    [
        (
            "  api_key_env: ALPHA_API_KEY\n",
            '  api_key_env: ALPHA_API_KEY\n  requires_tokens: "true"\n',
            "alpha.yaml:9:20: error[schema_violation]",
            "defaults/requires_tokens: expected boolean, got a string 'true'",
            "write true without quotes",
            "  api_key_env: ALPHA_API_KEY\n  requires_tokens: true\n",
        ),
        (
            "  api_key_env: ALPHA_API_KEY\n",
            "  api_key_env: ALPHA_API_KEY\n  requires_tokens: 1\n",
            "alpha.yaml:9:20: error[schema_violation]",
            "defaults/requires_tokens: expected boolean, got an integer 1",
            "write true (a boolean, not a number)",
            "  api_key_env: ALPHA_API_KEY\n  requires_tokens: true\n",
        ),
        (
            MODEL,
            "  alpha-1:\n    context_window: 64,000\n",
            "alpha.yaml:37:21: error[schema_violation]",
            "models/alpha-1/context_window: expected integer, got a string '64,000'",
            "write 64000",
            "  alpha-1:\n    context_window: 64000\n",
        ),
        (
            "display_name: Alpha\n",
            "display_name: 42\n",
            "alpha.yaml:3:15: error[schema_violation]",
            "display_name: expected string, got an integer 42",
            'quote it: "42"',
            'display_name: "42"\n',
        ),
        (
            MODEL,
            "  alpha-1: {prices: {input: \"$0.10\", output: '1'}}\n",
            "alpha.yaml:36:29: error[schema_violation]",
            "models/alpha-1/prices/input: '$0.10' does not have the expected form",
            'write "0.10" (US dollars per million tokens, no currency sign)',
            "  alpha-1: {prices: {input: \"0.10\", output: '1'}}\n",
        ),
        (
            MODEL,
            "  alpha-1: {prices: {input: \"1e-3\", output: '1'}}\n",
            "alpha.yaml:36:29: error[schema_violation]",
            "models/alpha-1/prices/input: '1e-3' does not have the expected form",
            'write "0.001" (US dollars per million tokens, no currency sign)',
            "  alpha-1: {prices: {input: \"0.001\", output: '1'}}\n",
        ),
        (
            "alpha-default: alpha/alpha-1",
            "alpha-default: alpha-1",
            "alpha.yaml:28:20: error[schema_violation]",
            "policy/model_aliases/alpha-default: 'alpha-1' does not have the expected form",
            "write alpha/alpha-1 (provider/model: this provider's key, a slash, then the model)",
            "alpha-default: alpha/alpha-1",
        ),
        (
            "display_name: Alpha\n",
            'display_name: Alpha\nreviewed_at: "2026-12-7"\n',
            "alpha.yaml:4:14: error[schema_violation]",
            "reviewed_at: '2026-12-7' does not have the expected form",
            'write "2026-12-07" (a day, YYYY-MM-DD)',
            'display_name: Alpha\nreviewed_at: "2026-12-07"\n',
        ),
    ],
    ids=[
        "quoted-boolean",
        "number-for-boolean",
        "grouped-digits",
        "number-for-text",
        "currency-sign",
        "exponent-price",
        "alias-without-provider",
        "unpadded-day",
    ],
)
def test_a_schema_violation_says_what_to_write(
    workspace: Workspace, old: str, new: str, where: str, message: str, hint: str, fixed: str
) -> None:
    follow_the_hint(workspace, old, new, where, message, hint, fixed)


# -- 4. a field in the wrong place --------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "where", "name", "hint", "fixed"),
    [
        (
            "module: provcat_testproviders.alpha\ndefaults:\n",
            "module: provcat_testproviders.alpha\ntimeout: 30\ndefaults:\n",
            "alpha.yaml:6:1",
            "'timeout' in the top level",
            "move it under `defaults:` or into an endpoint under `endpoints:` "
            "(it is no field of the top level)",
            "module: provcat_testproviders.alpha\ndefaults:\n  timeout: 30\n",
        ),
        (
            MODEL,
            "  alpha-1: {cache_read: '0.5', prices: {input: '1', output: '4'}}\n",
            "alpha.yaml:36:13",
            "'cache_read' in models/alpha-1",
            "move it under `prices:` (it is no field of models/alpha-1)",
            "  alpha-1: {prices: {input: '1', output: '4', cache_read: '0.5'}}\n",
        ),
        (  # found by a new maintainer: below the top level the hint listed the allowed fields
            "  api_key_env: ALPHA_API_KEY\n",
            "  api_key_env: ALPHA_API_KEY\n  request_defaults: {model: alpha-1}\n",
            "alpha.yaml:9:3",
            "'request_defaults' in defaults",
            "move it into an endpoint under `endpoints:` (it is no field of defaults)",
            "  api_key_env: ALPHA_API_KEY\n",  # the endpoint has it already
        ),
        (
            "    request_options: ChatRequest\n",
            "    request_options: ChatRequest\n    context_window: 8192\n",
            "alpha.yaml:15:5",
            "'context_window' in endpoints/chat/completions",
            "move it into a model under `models:` (it is no field of endpoints/chat/completions)",
            "    request_options: ChatRequest\n",
        ),
        (  # found in review: a field of the model inside its prices is sent up to it
            MODEL,
            "  alpha-1: {prices: {context_window: 8192, input: '1', output: '4'}}\n",
            "alpha.yaml:36:22",
            "'context_window' in models/alpha-1/prices",
            "move it up to models/alpha-1 (it is no field of models/alpha-1/prices)",
            "  alpha-1: {context_window: 8192, prices: {input: '1', output: '4'}}\n",
        ),
    ],
    ids=[
        "defaults",
        "prices",
        "endpoint-field-in-defaults",
        "model-field-in-an-endpoint",
        "model-field-in-its-prices",
    ],
)
def test_a_field_in_the_wrong_place_says_where_it_goes(
    workspace: Workspace, old: str, new: str, where: str, name: str, hint: str, fixed: str
) -> None:
    workspace.edit("alpha.yaml", old, new)
    assert one(workspace) == (
        f"catalog/providers/{where}: error[unknown_field]",
        f"unknown field {name}",
        hint,
    )
    workspace.edit("alpha.yaml", new, fixed)
    passes(workspace)


@pytest.mark.parametrize(
    ("name", "old", "new", "said"),
    [
        (
            "beta.yaml",
            "module: provcat_testproviders.beta\nendpoints:\n  chat:\n    type: api\n",
            "module: provcat_testproviders.beta\ntype: api\nendpoints:\n  chat:\n",
            (
                "catalog/providers/beta.yaml:6:1: error[unknown_field]",
                "unknown field 'type' in the top level, and the required field 'type' is "
                "missing in endpoints/chat",
                "move it into endpoints/chat (it is no field of the top level)",
            ),
        ),
        (
            "alpha.yaml",
            "display_name: Alpha\naliases: [alpha-ai, al]\nmodule: provcat_testproviders.alpha\n"
            "defaults:\n",
            "aliases: [alpha-ai, al]\nmodule: provcat_testproviders.alpha\ndefaults:\n"
            "  display_name: Alpha\n",
            (
                "catalog/providers/alpha.yaml:6:3: error[unknown_field]",
                "unknown field 'display_name' in defaults, and the required field "
                "'display_name' is missing in the top level",
                "move it up to the top level (it is no field of defaults)",
            ),
        ),
    ],
    ids=["down-into-an-endpoint", "up-to-the-top-level"],
)
def test_a_required_field_at_the_wrong_level_is_one_error_saying_where_it_goes(
    workspace: Workspace, name: str, old: str, new: str, said: tuple[str, str, str]
) -> None:
    """Not an unknown field and a missing one: one problem, the field's place."""
    workspace.edit(name, old, new)
    assert one(workspace) == said
    workspace.edit(name, new, old)  # moved as the hint says
    passes(workspace)


def test_a_top_level_base_url_is_moved_under_defaults_not_spelt_docs_url(
    workspace: Workspace,
) -> None:
    workspace.edit("beta.yaml", "module: provcat_testproviders.beta\n", "module: provcat_testproviders.beta\nbase_url: http://127.0.0.1:9/beta\n")  # fmt: skip
    assert one(workspace) == (
        "catalog/providers/beta.yaml:6:1: error[unknown_field]",
        "unknown field 'base_url' in the top level",
        "move it under `defaults:` or into an endpoint under `endpoints:` "
        "(it is no field of the top level)",
    )


def test_a_vendors_word_and_a_misspelling_keep_their_hints(workspace: Workspace) -> None:
    """The nested fields come after a vendor's word (x-also-called) and before difflib."""
    set_model(workspace, "  alpha-1: {context_length: 8192}\n")
    assert one(workspace)[2].startswith("did you mean 'context_window'?")
    workspace.edit("alpha.yaml", "context_length", "context_windw")
    assert one(workspace)[2] == "did you mean 'context_window'?"


# -- 5. "did you mean" for a model successor and a target's extends -------------------------


def test_a_misspelt_model_successor_gets_a_did_you_mean(workspace: Workspace) -> None:
    set_model(
        workspace,
        "  alpha-1: {successor: Alpha-Three}\n  alpha-three: {aliases: [a3]}\n",
    )
    workspace.edit("alpha.yaml", "successor: Alpha-Three", "successor: alpha-thre")
    assert one(workspace) == (
        "catalog/providers/alpha.yaml:36:24: error[unknown_successor]",
        "successor 'alpha-thre' of model 'alpha-1' is no model of alpha",
        "did you mean 'alpha-three'?",
    )
    workspace.edit("alpha.yaml", "successor: alpha-thre", "successor: zzz")
    assert one(workspace)[2] == (
        "name a model listed under the provider's `models:`, or add that model"
    )  # nothing close: the code's own hint


TARGET_LINE = "# yaml-language-server: $schema=../../schemas/schema-target.schema.json\n"


def _target(workspace: Workspace, name: str, extends: str | None = None) -> None:
    """A valid target file ``name``: its own rules, or (``extends``) another's."""
    from tests.test_targets import MINIMAL

    folder = workspace.catalog / "schema-targets"
    folder.mkdir(exist_ok=True)
    body = MINIMAL.replace("id: demo", f"id: {name}").replace("demo/", f"{name}/")
    if extends is not None:
        body = body.split("rules:")[0] + f"extends: {extends}\n"
    (folder / f"{name}.yaml").write_text(TARGET_LINE + body, encoding="utf-8")


def test_a_misspelt_extends_gets_a_did_you_mean_and_the_list(workspace: Workspace) -> None:
    _target(workspace, "openai")
    _target(workspace, "anthropic")
    _target(workspace, "child", extends="openaii")
    where, message, hint = one(workspace)
    assert where == "catalog/schema-targets/child.yaml:14:10: error[unknown_target_extends]"
    assert message == (
        "'openaii' is not a target with its own rules (targets with their own rules: "
        "anthropic, openai)"
    )
    assert hint == "did you mean 'openai'?"
    _target(workspace, "child", extends="openai")
    _target(workspace, "grandchild", extends="child")
    assert one(workspace)[1:] == (
        "'child' is not a target with its own rules (targets with their own rules: "
        "anthropic, openai)",
        "extend 'openai', which 'child' extends",
    )


# -- 7. providers.md shows an endpoint's lifecycle --------------------------------------------


def test_the_providers_page_shows_a_retired_endpoint_as_retired(workspace: Workspace) -> None:
    workspace.edit(
        "beta.yaml",
        "    auth_type: none\n",
        "    auth_type: none\n    lifecycle:\n      status: retired\n"
        '      shutdown_date: "2026-01-01"\n      successor: cli\n'
        "      source: https://example.com/retired\n",
    )
    passes(workspace)
    page = (workspace.out / "docs" / "providers.md").read_text(encoding="utf-8")
    assert "| `chat` | **retired**, shutdown date 2026-01-01; successor `cli` | — | api |" in page
    assert "| `cli` | active | `code` | agentic |" in page
