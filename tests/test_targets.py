"""The generator's checks of schema-target files: every bad rule gets its own stable code."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT, Workspace, tree_bytes
from tests.toolschema.conftest import TARGETS

TARGET_LINE = "# yaml-language-server: $schema=../../schemas/schema-target.schema.json\n"
MINIMAL = """id: demo
display_name: Demo
api_surface: Demo API tools
rules_reviewed_at: "2026-08-20"
review:
  - {source: "https://example.com/docs", checked: The rules, change: none}
docs:
  - {title: Demo docs, url: "https://example.com/docs"}
output:
  envelope: {name: $name, description: $description, schema: $schema}
  description: when-defined
  schema_style: verbatim
rules:
  - code: demo/tool-name
    severity: warning
    trigger: {kind: tool-name, pattern: "^[a-z_]+$"}
    action: keep
    lossy: false
    message: "Tool `{name}` should be lower case."
    compile: Emitted unchanged.
    docs_url: https://example.com/docs
    source: https://example.com/docs
"""
REWRITE = """id: strictish
display_name: Strictish
api_surface: Strictish API tools
rules_reviewed_at: "2026-08-20"
review:
  - {source: "https://example.com/docs", checked: The rules, change: none}
docs:
  - {title: Docs, url: "https://example.com/docs"}
output:
  envelope: {name: $name, parameters: $schema}
  description: when-non-empty
  schema_style: rewrite
  key_order: [type, properties, required, items]
keywords:
  supported: [type, properties, required, items]
  dropped: [minLength]
rules:
  - code: strictish/min-length
    severity: error
    trigger: {kind: keyword, keywords: [minLength]}
    action: drop-keyword
    lossy: true
    message: "`{keyword}` is not supported."
    compile: Drops it.
    transformation: {code: dropped-min-length, detail: "Dropped `{keyword}`."}
    docs_url: https://example.com/docs
    source: https://example.com/docs
  - code: strictish/unknown
    severity: error
    trigger: {kind: unknown-keyword}
    action: drop-keyword
    lossy: true
    message: "`{keyword}` is unknown."
    compile: Drops it.
    transformation: {code: dropped-unknown, detail: "Dropped `{keyword}`."}
    docs_url: https://example.com/docs
    source: https://example.com/docs
  - code: strictish/non-schema
    severity: error
    trigger: {kind: non-schema-subschema}
    action: replace-with-empty
    lossy: true
    message: "{value} is not a schema."
    compile: Emits an empty schema.
    transformation: {code: widened, detail: "Replaced {value}."}
    docs_url: https://example.com/docs
    source: https://example.com/docs
"""


def _targets(ws: Workspace) -> Path:
    folder = ws.catalog / "schema-targets"
    folder.mkdir(exist_ok=True)
    return folder


def _write(ws: Workspace, name: str, text: str, *, header: bool = True) -> Path:
    path = _targets(ws) / name
    path.write_text((TARGET_LINE if header else "") + text, encoding="utf-8")
    return path


def _codes(ws: Workspace) -> list[str]:
    before = tree_bytes(ws.out)
    run = ws.run()
    assert run.exit_code == 1, run.stdout
    assert tree_bytes(ws.out) == before, "a failed run changed generated/"
    return run.codes


def test_valid_targets_are_frozen_and_documented(workspace: Workspace) -> None:
    _write(workspace, "demo.yaml", MINIMAL)
    _write(workspace, "strictish.yaml", REWRITE)
    workspace.edit(
        "alpha.yaml",
        "module: provcat_testproviders.alpha",
        "module: provcat_testproviders.alpha\ntool_schema_target: demo",
    )
    run = workspace.run(fmt="text")
    assert run.exit_code == 0, run.stderr
    assert "2 schema targets" in run.stdout
    text = (workspace.out / "provcat_catalog" / "targets.py").read_text(encoding="utf-8")
    assert "'demo/tool-name'" in text and "PROVIDER_TARGETS" in text and "'alpha': 'demo'" in text
    page = (workspace.out / "docs" / "targets" / "demo.md").read_text(encoding="utf-8")
    assert "`demo/tool-name`" in page and "https://example.com/docs" in page
    matrix = (workspace.out / "docs" / "schema-targets.md").read_text(encoding="utf-8")
    assert "| `minLength` |" in matrix
    assert "| Demo API tools | [`demo`](targets/demo.md) |" in matrix
    assert "| <https://example.com/docs> | The rules | none |" in page


@pytest.mark.parametrize(
    ("old", "new", "code", "where"),
    [
        ("action: keep", "action: inline-everything", "unknown_rule_action", (18, 13)),
        ("kind: tool-name", "kind: tool-colour", "unknown_rule_trigger", (17, 21)),
    ],
)
def test_an_unknown_mechanism_is_a_diagnostic_with_its_position(
    workspace: Workspace, old: str, new: str, code: str, where: tuple[int, int]
) -> None:
    _write(workspace, "demo.yaml", MINIMAL.replace(old, new, 1))
    before = tree_bytes(workspace.out)
    run = workspace.run(fmt="text")
    assert run.exit_code == 1
    assert tree_bytes(workspace.out) == before
    line, col = where
    assert f"catalog/schema-targets/demo.yaml:{line}:{col}: error[{code}]" in run.stderr


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("action: keep", "action: frobnicate", "unknown_rule_action"),
        ("action: keep", "action: drop-keyword", "unknown_rule_action"),
        ("kind: tool-name", "kind: tool-title", "unknown_rule_trigger"),
        ('pattern: "^[a-z_]+$"', 'pattern: "^[a-z_+$"', "invalid_rule_regex"),
        # Python syntax that is no ECMA-262 pattern: refused here, not when a tool is checked
        ('pattern: "^[a-z_]+$"', 'pattern: "(?u)^[a-z_]+$"', "invalid_rule_regex"),
        ('pattern: "^[a-z_]+$"', 'pattern: "(?i)^[a-z_]+$"', "invalid_rule_regex"),
        ('pattern: "^[a-z_]+$"', 'pattern: "^[a-z_]+$", case: missing', "invalid_rule_trigger"),
        ("    docs_url: https://example.com/docs\n", "", "missing_docs_url"),
        ("{name}` should", "{nmae}` should", "invalid_message_template"),
        ("{name}` should", "{name` should", "invalid_message_template"),
        ("code: demo/tool-name", "code: other/tool-name", "rule_code_prefix"),
        ("lossy: false", "lossy: true", "safe_action_marked_lossy"),
        ("schema: $schema}", "schema: $name}", "invalid_target_envelope"),
        ("id: demo", "id: demo2", "target_file_name_mismatch"),
        (
            "rules:",
            "steps:\n  warp-drive: {code: warped, detail: Warped.}\nrules:",
            "unknown_target_step",
        ),
        ("rules:", "extends: nowhere\nrules:", "unknown_target_extends"),
        (
            "    source: https://example.com/docs\n",
            "    source: https://example.com/docs\n    transformation: {code: x, detail: y}\n",
            "invalid_rule_record",
        ),
    ],
)
def test_each_bad_rule_has_its_code(workspace: Workspace, old: str, new: str, code: str) -> None:
    assert old in MINIMAL
    _write(workspace, "demo.yaml", MINIMAL.replace(old, new, 1))
    assert code in _codes(workspace)


def test_duplicate_rule_code(workspace: Workspace) -> None:
    rule = MINIMAL[MINIMAL.index("  - code:") :]
    _write(workspace, "demo.yaml", MINIMAL + rule)
    assert "duplicate_rule_code" in _codes(workspace)


def test_lossy_action_marked_safe(workspace: Workspace) -> None:
    _write(workspace, "strictish.yaml", REWRITE.replace("lossy: true", "lossy: false", 1))
    assert "lossy_action_marked_safe" in _codes(workspace)
    _write(
        workspace,
        "strictish.yaml",
        REWRITE.replace(
            "action: drop-keyword\n    lossy: true", "action: drop-annotation\n    lossy: false", 1
        ),
    )
    assert "lossy_action_marked_safe" in _codes(workspace)


def test_a_rewrite_target_may_not_drop_keywords_silently(workspace: Workspace) -> None:
    _write(
        workspace,
        "strictish.yaml",
        REWRITE.replace("  dropped: [minLength]", "  dropped: [minLength, maxLength]"),
    )
    assert "keyword_dropped_silently" in _codes(workspace)
    start = REWRITE.index("  - code: strictish/unknown")
    end = REWRITE.index("  - code: strictish/non-schema")
    _write(workspace, "strictish.yaml", REWRITE[:start] + REWRITE[end:])
    assert "keyword_dropped_silently" in _codes(workspace)


def test_a_target_without_its_review_record_or_api_surface_is_refused(workspace: Workspace) -> None:
    start = MINIMAL.index("review:")
    end = MINIMAL.index("docs:")
    _write(workspace, "demo.yaml", MINIMAL[:start] + MINIMAL[end:])
    assert _codes(workspace) == ["missing_field"]
    _write(workspace, "demo.yaml", MINIMAL.replace("api_surface: Demo API tools\n", ""))
    assert _codes(workspace) == ["missing_field"]


def test_schema_violations_and_the_schema_line(workspace: Workspace) -> None:
    _write(workspace, "demo.yaml", MINIMAL.replace("severity: warning", "severity: fatal"))
    assert "schema_violation" in _codes(workspace)
    _write(workspace, "demo.yaml", MINIMAL, header=False)
    assert "missing_schema_reference" in _codes(workspace)
    (_targets(workspace) / "demo.yaml").unlink()
    (_targets(workspace) / "notes.txt").write_text("x", encoding="utf-8")
    assert "unexpected_file" in _codes(workspace)


def test_unknown_provider_target(workspace: Workspace) -> None:
    workspace.edit(
        "alpha.yaml",
        "module: provcat_testproviders.alpha",
        "module: provcat_testproviders.alpha\ntool_schema_target: nowhere",
    )
    assert _codes(workspace) == ["unknown_schema_target"]


def test_a_misspelt_target_in_a_file_with_schema_errors_is_reported_with_them(
    workspace: Workspace,
) -> None:
    """A file that breaks its schema is checked no further, but the target it names is checked
    with the other files' (it showed only on the run after the schema errors were fixed); a
    target name of the wrong type is the schema's error alone."""
    workspace.edit(
        "alpha.yaml",
        "module: provcat_testproviders.alpha",
        "module: provcat_testproviders.alpha\ntool_schema_target: nowhere\ndisplya: Alpha",
    )
    workspace.edit(
        "alpha.yaml",
        "    class: AlphaEmbedEndpoint\n",
        "    class: AlphaEmbedEndpoint\n    tool_schema_target: [openai]\n",
    )
    assert sorted(_codes(workspace)) == [
        "schema_violation",
        "unknown_field",
        "unknown_schema_target",
    ]


def test_a_misspelt_target_gets_a_did_you_mean(workspace: Workspace) -> None:
    _write(workspace, "demo.yaml", MINIMAL)
    workspace.edit(
        "alpha.yaml",
        "module: provcat_testproviders.alpha",
        "module: provcat_testproviders.alpha\ntool_schema_target: dmeo",
    )
    run = workspace.run()
    (found,) = [d for d in run.json["diagnostics"] if d["code"] == "unknown_schema_target"]
    assert found["hint"] == "did you mean 'demo'?"


def test_unknown_endpoint_target_is_reported_at_its_position(workspace: Workspace) -> None:
    workspace.edit(
        "alpha.yaml",
        "    class: AlphaEmbedEndpoint\n",
        "    class: AlphaEmbedEndpoint\n    tool_schema_target: nowhere\n",
    )
    before = tree_bytes(workspace.out)
    run = workspace.run()
    assert run.exit_code == 1 and tree_bytes(workspace.out) == before
    (found,) = [d for d in run.json["diagnostics"] if d["code"] == "unknown_schema_target"]
    text = workspace.file("alpha.yaml").read_text(encoding="utf-8").splitlines()
    assert text[found["line"] - 1].strip() == "tool_schema_target: nowhere"
    assert found["file"].endswith("providers/alpha.yaml") and found["column"] == 25
    assert "'nowhere' is not a schema target" in found["message"]


def test_extends_takes_the_rules_with_this_targets_prefix(workspace: Workspace) -> None:
    _write(workspace, "demo.yaml", MINIMAL)
    child = MINIMAL.split("rules:")[0].replace("id: demo", "id: demo-child") + "extends: demo\n"
    _write(workspace, "demo-child.yaml", child)
    run = workspace.run()
    assert run.exit_code == 0, run.stdout
    text = (workspace.out / "provcat_catalog" / "targets.py").read_text(encoding="utf-8")
    assert "'demo-child/tool-name'" in text


def test_a_broken_target_is_reported_once_not_by_each_user_of_it(workspace: Workspace) -> None:
    """A target file that breaks its schema is checked no further; the provider naming it and
    the target extending it get no "is not a schema target" of their own (one typo was five
    errors, four of them pointing away from it)."""
    _write(workspace, "demo.yaml", MINIMAL.replace("severity: warning", "severity: fatal"))
    child = MINIMAL.split("rules:")[0].replace("id: demo", "id: demo-child") + "extends: demo\n"
    _write(workspace, "demo-child.yaml", child)
    workspace.edit(
        "alpha.yaml",
        "module: provcat_testproviders.alpha",
        "module: provcat_testproviders.alpha\ntool_schema_target: demo",
    )
    assert _codes(workspace) == ["schema_violation"]


def test_a_rewrite_target_extending_one_with_a_bad_rule_is_checked_after_it(
    workspace: Workspace,
) -> None:
    """The child sorts first (strictish-child < strictish) and is checked against its parent's
    rules: an unknown trigger kind there was a KeyError, and a build that crashed."""
    _write(
        workspace,
        "strictish.yaml",
        REWRITE.replace("kind: unknown-keyword", "kind: unknown-keywrod"),
    )
    child = REWRITE.split("keywords:")[0].replace("id: strictish", "id: strictish-child")
    _write(workspace, "strictish-child.yaml", child + "extends: strictish\n")
    run = workspace.run()
    assert run.exit_code == 1 and run.codes == ["unknown_rule_trigger"], run.stdout
    assert run.json["diagnostics"][0]["hint"] == "did you mean 'unknown-keyword'?"


def test_bundled_targets_cover_every_provider() -> None:
    import provcat_catalog
    import provcat_catalog.targets

    assert sorted(provcat_catalog.targets.PROVIDER_TARGETS) == sorted(
        p["provider"] for p in provcat_catalog.PROVIDERS
    )
    ids = {t["id"] for t in provcat_catalog.targets.TARGETS}
    assert ids == set(TARGETS)
    for path in sorted((ROOT / "catalog" / "schema-targets").glob("*.yaml")):
        assert path.read_text(encoding="utf-8").startswith(TARGET_LINE), path


# a probe as `provcat tool probe` reads it; its model is checked against probe.provider's models
PROBE = """probe:
  sdk_module: demo_sdk
  sdk_client: Client
  provider: alpha
  default_model: alpha-1
  api_key_envs: [ALPHA_API_KEY]
  method: [tools, create]
  request: {model: $model, tools: [$tool]}
  tool_calls: {at: [calls, "*"], name: [name], arguments: [arguments]}
"""
PROBE_CODES = {
    "unknown_probe_provider",
    "unknown_probe_model",
    "retired_probe_model",
    "deprecated_probe_model",
}


def _probing(ws: Workspace, **fields: str) -> Path:
    """demo.yaml with a probe (``fields`` replace its values) and where each value starts."""
    probe = PROBE
    for name, value in fields.items():
        start = probe.index(f"  {name}: ")
        end = probe.index("\n", start)
        probe = probe[:start] + f"  {name}: {value}" + probe[end:]
    return _write(ws, "demo.yaml", MINIMAL.replace("output:", probe + "output:", 1))


def _at(path: Path, field: str) -> tuple[int, int]:
    """(line, column) of the value of probe field ``field`` in ``path``, 1-based."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith(f"  {field}: "):
            return number, len(f"  {field}: ") + 1
    raise AssertionError(f"{field} not in {path}")


def test_a_probe_model_its_provider_does_not_list_is_warned_about(workspace: Workspace) -> None:
    """The default model of `provcat tool probe` should be a model the catalog knows: one its
    provider's `models:` do not list is a warning at the value, with a hint naming what to
    write (a warning: a catalog imported from models.dev with the bundled targets lists other
    models, and still builds)."""
    path = _probing(workspace, default_model="alpha-9")
    line, column = _at(path, "default_model")
    assert (line, column) == (14, 18)
    run = workspace.run()
    assert run.exit_code == 0, run.stdout
    (found,) = run.json["diagnostics"]
    assert (found["code"], found["line"], found["column"]) == ("unknown_probe_model", line, column)
    assert found["severity"] == "warning"
    assert found["message"] == (
        "probe default_model of target 'demo' names model 'alpha-9', which alpha's models do "
        "not list"
    )
    assert found["hint"] == (
        "did you mean 'alpha-1'? Otherwise write an id or alias listed under alpha's `models:` "
        "(current ones that call tools: alpha-1, vendor/alpha-2:7b), or add the model there"
    )
    text = workspace.run(fmt="text")
    assert f"catalog/schema-targets/demo.yaml:{line}:{column}: warning[unknown_probe_model]" in (
        text.stderr
    )


def test_every_problem_of_the_probes_is_reported_in_one_run(workspace: Workspace) -> None:
    _probing(workspace, default_model="alpha-9")
    child = MINIMAL.split("rules:")[0].replace("id: demo", "id: demo-child") + "extends: demo\n"
    probe = PROBE.replace("provider: alpha", "provider: nowhere")
    _write(workspace, "demo-child.yaml", child.replace("output:", probe + "output:", 1))
    run = workspace.run()
    assert run.exit_code == 0
    assert sorted(run.codes) == ["unknown_probe_model", "unknown_probe_provider"]


@pytest.mark.parametrize(
    ("provider", "model"),
    [
        ("alpha", "alpha-1"),  # the id
        ("alpha", "alpha-one"),  # an alias of the model
        ("al", '"vendor/alpha-2:7b"'),  # an alias of the provider
    ],
)
def test_a_probe_model_named_by_id_or_alias_passes(
    workspace: Workspace, provider: str, model: str
) -> None:
    _probing(workspace, provider=provider, default_model=model)
    run = workspace.run()
    assert run.exit_code == 0, run.stdout
    assert not PROBE_CODES & set(run.codes)
    text = (workspace.out / "provcat_catalog" / "targets.py").read_text(encoding="utf-8")
    assert f"'provider': '{provider}'" in text


@pytest.mark.parametrize(
    ("claimed", "named"),
    [
        ("alpha", "alpha"),  # another provider's key
        ("al", "al"),  # another provider's alias
    ],
)
def test_a_probe_provider_claimed_by_an_alias_of_another_file_is_not_resolved_through_it(
    workspace: Workspace, claimed: str, named: str
) -> None:
    """aa.yaml, read before alpha.yaml, claims alpha's key (or alias) as an alias: the collision
    is reported in both files, and the probe naming alpha is not checked against aa's models
    (before, the alias claimed the spelling first and the probe got an unknown_probe_model
    warning naming aa's models)."""
    _probing(workspace, provider=named)
    workspace.write(
        "aa.yaml",
        f"provider: aa\ndisplay_name: AA\naliases: [aa-x, {claimed}]\nendpoints:\n"
        "  chat:\n    type: api\n    protocol: openai-chat\n"
        "    base_url: http://127.0.0.1:9/aa\n    auth_type: none\n",
    )
    run = workspace.run()
    assert run.exit_code == 1
    assert sorted(run.codes) == ["duplicate_provider_key", "duplicate_provider_key"], run.stdout


def test_a_probe_provider_the_catalog_does_not_have(workspace: Workspace) -> None:
    path = _probing(workspace, provider="alpah", default_model="alpha-0")
    run = workspace.run()
    (found,) = run.json["diagnostics"]
    assert (found["code"], found["severity"]) == ("unknown_probe_provider", "warning")
    assert (found["line"], found["column"]) == _at(path, "provider")
    assert "names provider 'alpah', which is no provider key or alias" in found["message"]
    assert found["hint"] == "did you mean 'alpha'?"


def test_an_unknown_probe_provider_hint_names_the_provider_listing_its_model(
    workspace: Workspace,
) -> None:
    """A catalog imported from models.dev keys Google's Gemini API `google`, while the copied
    targets' probes name `gemini`: the spelling nearest `gemini` is `minimax`. The provider
    that lists the probe's model is the one meant."""
    _probing(workspace, provider="vendor", default_model="alpha-1")
    (found,) = workspace.run().json["diagnostics"]
    assert found["code"] == "unknown_probe_provider"
    assert found["hint"] == "did you mean 'alpha'? It lists the probe's default_model 'alpha-1'"


def test_an_unknown_probe_provider_hint_names_the_provider_documented_where_the_target_is(
    workspace: Workspace,
) -> None:
    """When no provider lists the probe's model (a newer one than the catalog knows), the hint
    names the provider whose docs_url is on the site most of the target's docs links go to."""
    workspace.edit(
        "beta.yaml", "display_name: Beta", "display_name: Beta\ndocs_url: https://beta.example/api"
    )
    path = _probing(workspace, provider="vendor", default_model="beta-9")
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            'url: "https://example.com/docs"}',
            'url: "https://beta.example/api/tools"}\n  - {title: More, url: "https://beta.example/api/schema"}',
        ),
        encoding="utf-8",
    )
    (found,) = workspace.run().json["diagnostics"]
    assert found["code"] == "unknown_probe_provider"
    assert found["hint"] == (
        "did you mean 'beta'? Its docs_url is on the site most of the docs links of target "
        "'demo' go to"
    )


def test_a_probe_without_its_provider_still_builds_with_a_warning(workspace: Workspace) -> None:
    """Found in review: targets written before `probe.provider` existed (a maintainer's copy
    the import never overwrites) stopped building; they build, and a warning says why their
    probe model is not checked."""
    _write(
        workspace,
        "demo.yaml",
        MINIMAL.replace("output:", PROBE.replace("  provider: alpha\n", "") + "output:", 1),
    )
    run = workspace.run()
    assert run.exit_code == 0, run.stdout
    (found,) = run.json["diagnostics"]
    assert (found["code"], found["severity"]) == ("probe_without_provider", "warning")
    assert "cannot be checked" in found["message"]


def test_a_probe_naming_a_provider_file_with_errors_gets_no_error_of_its_own(
    workspace: Workspace,
) -> None:
    """The provider file's schema error fails the build; the probe naming it is not a second
    problem (its models are not known until the file is fixed)."""
    _probing(workspace, default_model="alpha-9")
    workspace.edit("alpha.yaml", "display_name: Alpha", "display_name: Alpha\ndisplya: Alpha")
    assert _codes(workspace) == ["unknown_field"]


@pytest.mark.parametrize(
    ("lifecycle", "code", "exit_code"),
    [
        ('status: retired, shutdown_date: "2026-01-15"', "retired_probe_model", 1),
        ('status: deprecated, shutdown_date: "2026-09-01"', "deprecated_probe_model", 0),
        ('deprecation_date: "2026-05-01"', "deprecated_probe_model", 0),  # announced by the day
        ('shutdown_date: "2026-05-01"', "retired_probe_model", 1),  # the day has come
    ],
)
def test_a_probe_model_that_is_no_longer_current(
    workspace: Workspace, lifecycle: str, code: str, exit_code: int
) -> None:
    """Judged as of the check day, as request defaults are: retired is an error (nothing is
    written), deprecated a warning; the hint names the successor."""
    workspace.edit(
        "alpha.yaml",
        "vendor/alpha-2:7b: {context_window: 4096}",
        f"vendor/alpha-2:7b: {{context_window: 4096, {lifecycle}, successor: alpha-1}}",
    )
    path = _probing(workspace, default_model='"vendor/alpha-2:7b"')
    before = tree_bytes(workspace.out)
    run = workspace.run("build", "--as-of", "2026-06-01")
    assert run.exit_code == exit_code, run.stdout
    (found,) = [d for d in run.json["diagnostics"] if d["code"] in PROBE_CODES]
    assert found["code"] == code
    assert (found["line"], found["column"]) == _at(path, "default_model")
    assert found["hint"] == (
        "write default_model: alpha-1 (its successor) or another current model of alpha"
    )
    if exit_code:
        assert tree_bytes(workspace.out) == before
    if "status:" not in lifecycle:  # by its dates alone: current before them
        current = workspace.run("build", "--as-of", "2025-12-01")
        assert current.exit_code == 0 and not PROBE_CODES & set(current.codes)


def test_a_model_date_that_is_no_day_is_reported_not_a_crash(workspace: Workspace) -> None:
    """A request default (alpha-1) and a probe naming a model whose shutdown date is no
    calendar day: the date's invalid_date, no traceback from judging its lifecycle."""
    workspace.edit(
        "alpha.yaml",
        "alpha-1: {aliases: [alpha-one], context_window: 8192}",
        'alpha-1: {aliases: [alpha-one], context_window: 8192, shutdown_date: "2026-02-30"}',
    )
    _probing(workspace)
    assert _codes(workspace) == ["invalid_date"]


def test_bundled_probes_name_current_catalog_models() -> None:
    """Every bundled target's probe names a model of its provider's inventory that is neither
    retired nor deprecated today: the build reports none of the probe codes."""
    from generator.pipeline import run

    result = run(ROOT / "catalog")
    assert result.ok
    assert [d.as_text() for d in result.diagnostics if d.code in PROBE_CODES] == []
    import yaml

    for path in sorted((ROOT / "catalog" / "schema-targets").glob("*.yaml")):
        probe = yaml.safe_load(path.read_text(encoding="utf-8")).get("probe")
        if probe is not None:
            models = yaml.safe_load(
                (ROOT / "catalog" / "providers" / f"{probe['provider']}.yaml").read_text(
                    encoding="utf-8"
                )
            )["models"]
            assert probe["default_model"] in models, path.name


def test_an_unknown_probe_provider_hint_of_a_model_many_list_names_the_documented_one(
    workspace: Workspace,
) -> None:
    """Found in review: a model that many resellers list (Gemini on a dozen gateways in a
    models.dev import) made the hint name them all; of those, the one documented where the
    target's docs links go is meant."""
    for name in ("resell-a", "resell-b", "resell-c"):
        workspace.write(
            f"{name}.yaml",
            f"provider: {name}\ndisplay_name: {name}\ndocs_url: https://{name}.example/\n"
            "inventory_only: a reseller\nmodels:\n  alpha-1: {context_window: 8192}\n",
        )
    workspace.edit(
        "alpha.yaml",
        "display_name: Alpha",
        "display_name: Alpha\ndocs_url: https://example.com/docs",
    )
    _probing(workspace, provider="vendor", default_model="alpha-1")
    (found,) = workspace.run().json["diagnostics"]
    assert found["code"] == "unknown_probe_provider"
    assert found["hint"] == "did you mean 'alpha'? It lists the probe's default_model 'alpha-1'"
