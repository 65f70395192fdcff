"""Schema violations are reported at the offending node, with a "did you mean" where it helps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import ROOT, Workspace

# The hub manifest's top level is open by a frozen decision: unknown manifest fields are stored
# and returned unchanged (registry-decisions.md, "Manifest"). Its known fields are still checked.
OPEN_BY_DESIGN = {"hub-manifest.schema.json"}


def test_every_schema_is_a_valid_strict_draft_2020_12_schema() -> None:
    for path in sorted((ROOT / "schemas").glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        _strict_and_described(schema, path.name, open_root=path.name in OPEN_BY_DESIGN)


def _strict_and_described(node: object, where: str, *, open_root: bool = False) -> None:
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            if open_root:
                extra = node.get("additionalProperties")
                assert isinstance(extra, dict) and "description" in extra, (
                    f"{where} open, undescribed"
                )
            else:  # a node that takes a shared block by $ref closes with unevaluatedProperties
                closed = node.get("additionalProperties", node.get("unevaluatedProperties"))
                assert closed is False, f"{where} is not closed"
            for name, sub in node["properties"].items():
                described = "description" in sub or "$ref" in sub
                assert described, f"{where}/{name} has no description"
        for key, value in node.items():
            _strict_and_described(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _strict_and_described(value, f"{where}/{i}")


def test_every_bundled_yaml_names_its_schema() -> None:
    for path in sorted((ROOT / "catalog" / "providers").glob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../schemas/provider.schema.json", path


def test_missing_schema_reference(workspace: Workspace) -> None:
    text = workspace.file("beta.yaml").read_text(encoding="utf-8").split("\n", 1)[1]
    workspace.file("beta.yaml").write_text(text, encoding="utf-8")
    workspace.fails(("missing_schema_reference", "beta.yaml", 1, 1))


def test_misspelled_top_level_field_suggests_the_right_one(workspace: Workspace) -> None:
    """The misspelling and the missing field it was meant to be are one problem, reported once
    at the misspelt key."""
    workspace.edit("beta.yaml", "display_name:", "display_nmae:")
    run = workspace.fails(("unknown_field", "beta.yaml", 3, 1))
    found = run.json["diagnostics"][0]
    assert found["hint"] == "did you mean 'display_name'? rename 'display_nmae' to 'display_name'"
    assert "the required field 'display_name' is missing" in found["message"]


def test_a_missing_field_hint_says_to_add_it(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "display_name: Beta\n", "")
    run = workspace.fails(("missing_field", "beta.yaml", 2, 1))
    assert run.json["diagnostics"][0]["hint"].startswith("add 'display_name': Human-readable")


def test_misspelled_endpoint_field_is_reported_at_the_key(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "    auth_type: none", "    auth_tpye: none")
    run = workspace.fails(("unknown_field", "beta.yaml", 11, 5))
    assert run.json["diagnostics"][0]["hint"] == "did you mean 'auth_type'?"
    assert "endpoints/chat" in run.json["diagnostics"][0]["message"]


def test_unknown_field_without_a_close_match_lists_the_allowed_ones(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "display_name: Beta\n", "display_name: Beta\nzzz: 1\n")
    run = workspace.fails(("unknown_field", "beta.yaml", 4, 1))
    assert run.json["diagnostics"][0]["hint"].startswith("allowed fields: aliases, ")


def test_bad_enum_value_suggests_the_closest_option(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "    type: api", "    type: api_")
    run = workspace.fails(("schema_violation", "beta.yaml", 8, 11))
    assert run.json["diagnostics"][0]["hint"] == "did you mean 'api'?"


def test_wrong_type(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "aliases: [beta-ai]", "aliases: beta-ai")
    run = workspace.fails(("schema_violation", "beta.yaml", 4, 10))
    assert "expected array, got a string" in run.json["diagnostics"][0]["message"]


def test_pattern_violation_names_the_field_description(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "api_key_env: ALPHA_API_KEY", "api_key_env: alpha-key")
    run = workspace.fails(("schema_violation", "alpha.yaml", 8, 16))
    assert "environment variable" in run.json["diagnostics"][0]["hint"]


@pytest.mark.parametrize(
    "key",
    [
        "sk-proj-Xk29aB7qLmN4pQ8rT1vW3yZ6cD0eF5gH",  # a vendor's prefix (OpenAI's project key)
        "Xk29aB7qLmN4pQ8rT1vW3yZ6cD0eF5gH",  # no prefix: long, mixed case, digits
        "Xk29aB7qLmN4pQ8rT1vW3yZ6",  # 24 characters of the same
        "3f9a1c07d2b84e6a9c5d0b7e1f2a3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b",  # 64 hex digits
        # in capitals, which the form of a variable's name (capitals, digits, _) would let in
        "3F9A1C07D2B84E6A9C5D0B7E1F2A3C4D5E6F7A8B",
    ],
)
def test_an_api_key_pasted_as_api_key_env_is_never_shown(workspace: Workspace, key: str) -> None:
    """An API key written where the variable's name goes was quoted in the message and, turned
    into a name, in the hint (`write SK_PROJ_XK29...`): in every output format, no part of it
    (no 8 characters of it, as written or in capitals) is shown, and the hint says to remove
    and revoke it and names a variable from the provider's key."""
    workspace.edit("alpha.yaml", "api_key_env: ALPHA_API_KEY", f"api_key_env: {key}")
    run = workspace.fails(("schema_violation", "alpha.yaml", 8, 16))
    found = run.json["diagnostics"][0]
    assert found["hint"] == (
        "this looks like an API key: remove it (and revoke it if it was committed), and name "
        "the environment variable instead, e.g. ALPHA_API_KEY"
    )
    derived = key.upper().replace("-", "_")
    pieces = {w[i : i + 8] for w in (key, derived) for i in range(len(w) - 7)}
    for fmt in ("json", "text", "github"):
        shown = workspace.run(fmt=fmt)
        output = shown.stdout + shown.stderr
        assert "alpha.yaml" in output
        leaked = sorted(p for p in pieces if p in output)
        assert not leaked, (fmt, leaked)


def test_a_long_variable_name_is_not_taken_for_a_key(workspace: Workspace) -> None:
    """`AzureOpenAIApiKey2024` is a name in the wrong case, not a key: the hint writes it in
    capitals, as for any name, and never says to revoke it."""
    workspace.edit("alpha.yaml", "api_key_env: ALPHA_API_KEY", "api_key_env: AzureOpenAIApiKey2024")
    run = workspace.fails(("schema_violation", "alpha.yaml", 8, 16))
    assert run.json["diagnostics"][0]["hint"].startswith("write AZUREOPENAIAPIKEY2024")


def test_a_pattern_is_matched_to_the_end_of_the_value(workspace: Workspace) -> None:
    """JSON Schema's `pattern` is an ECMA-262 regex: `$` is the end of the text, so a value with
    a final newline (easy to write with a YAML block scalar) does not match the name's `$`-ended
    (Python's own `$` would let it through)."""
    workspace.edit("alpha.yaml", "api_key_env: ALPHA_API_KEY", 'api_key_env: "ALPHA_API_KEY\\n"')
    run = workspace.fails(("schema_violation", "alpha.yaml", 8, 16))
    assert "environment variable" in run.json["diagnostics"][0]["hint"]


def test_request_options_must_be_a_reference_or_null(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "request_options: AgentRequest", "request_options: 12")
    run = workspace.fails(("schema_violation", "alpha.yaml", 25, 22))
    assert "does not match any allowed form" in run.json["diagnostics"][0]["message"]


def test_missing_required_fields_are_all_reported(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", "provider: gamma\n")
    run = workspace.fails(
        ("missing_field", "gamma.yaml", 2, 1),
        ("missing_field", "gamma.yaml", 2, 1),
    )
    messages = " ".join(d["message"] for d in run.json["diagnostics"])
    for name in ("display_name", "endpoints"):  # module is optional: YAML-only providers
        assert f"'{name}'" in messages


def test_root_must_be_a_mapping(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", "- a\n- b\n")
    workspace.fails(("schema_violation", "gamma.yaml", 2, 1))


def test_a_file_with_schema_errors_does_not_hide_other_files_problems(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "display_name:", "display_nmae:")
    workspace.edit("alpha.yaml", "aliases: [alpha-ai, al]", "aliases: [alpha-ai, al, alpha]")
    codes = sorted(workspace.run().codes)
    assert codes == ["self_alias", "unknown_field"]


def test_schema_file_is_where_editors_find_it() -> None:
    line = "# yaml-language-server: $schema=../../schemas/provider.schema.json"
    target = (ROOT / "catalog" / "providers" / line.split("$schema=")[1]).resolve()
    assert target == (ROOT / "schemas" / "provider.schema.json").resolve()
    assert Path(target).is_file()


def test_an_endpoint_key_is_checked_as_the_url_path_it_is_by_default(
    workspace: Workspace,
) -> None:
    """The key is appended to base_url when the endpoint sets no `path`: it takes what `path`
    takes, and the error is at the key."""
    workspace.edit("beta.yaml", "  chat:\n", '  "embeddings?api-version=1 x":\n')
    run = workspace.fails(("schema_violation", "beta.yaml", 7, 3))
    found = run.json["diagnostics"][0]
    assert "key 'embeddings?api-version=1 x'" in found["message"]
    assert "letters, digits" in found["hint"]


def test_a_header_name_is_reported_at_its_key(workspace: Workspace) -> None:
    workspace.edit(
        "beta.yaml", "    auth_type: none", "    auth_type: none\n    default_headers: {' X': y}"
    )
    workspace.fails(("schema_violation", "beta.yaml", 12, 23))


def test_hints_say_what_to_write(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "aliases: [beta-ai]", "aliases: beta-ai")
    found = workspace.fails(("schema_violation", "beta.yaml", 4, 10)).json["diagnostics"][0]
    assert found["hint"] == "write it as a list: [beta-ai]"
    workspace.edit("beta.yaml", "aliases: beta-ai", "aliases: [beta-ai]")
    workspace.edit("beta.yaml", "    auth_type: none", '    auth_type: none\n    timeout: "30"')
    found = workspace.fails(("schema_violation", "beta.yaml", 12, 14)).json["diagnostics"][0]
    assert found["hint"] == "write the number without quotes: 30"
    workspace.edit("beta.yaml", '    timeout: "30"', "    timeout: 30")
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta\ndescription:")
    found = workspace.fails(("schema_violation", "beta.yaml", 4, 13)).json["diagnostics"][0]
    assert found["message"] == "description: expected string, got null (an empty value)"
    assert found["hint"] == "write the value after the colon, or remove the field"


def test_endpoints_beside_inventory_only_are_named_not_printed(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta\ninventory_only: no api")
    found = workspace.fails(("schema_violation", "beta.yaml", 7, 1)).json["diagnostics"][0]
    assert found["message"] == "'endpoints' is not allowed here"
    assert found["hint"].startswith("An inventory-only provider has no endpoints")


def test_a_bad_url_in_a_list_is_reported_at_the_item(workspace: Workspace) -> None:
    workspace.edit(
        "alpha.yaml",
        "alpha-1: {aliases: [alpha-one], context_window: 8192}",
        'alpha-1: {aliases: [alpha-one], context_window: 8192, source: ["https://x", notaurl]}',
    )
    run = workspace.fails(("schema_violation", "alpha.yaml", 36, 79))
    found = run.json["diagnostics"][0]
    assert found["message"].startswith("models/alpha-1/source/1: 'notaurl'")
    assert "https://" in found["hint"]


def test_a_document_only_jsonschema_rs_refuses_is_still_refused(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the two validators ever disagree again, the file is refused, not let through."""
    from generator import schema_check

    class Silent:
        schema = None  # no document schema: hints look no further than the mapping

        def iter_errors(self, _data: object) -> list[object]:
            return []

    monkeypatch.setattr(schema_check, "validator", lambda _name: Silent())
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: 1")
    run = workspace.run("build", "--no-cache")
    assert run.exit_code == 1
    assert run.codes == ["schema_violation"]
    assert "no field could be named" in run.json["diagnostics"][0]["message"]


@pytest.mark.parametrize("blank", ['" "', '"\\u00a0"'])
def test_a_blank_display_name_is_refused(workspace: Workspace, blank: str) -> None:
    workspace.edit("beta.yaml", "display_name: Beta", f"display_name: {blank}")
    found = workspace.fails(("schema_violation", "beta.yaml", 3, 15)).json["diagnostics"][0]
    assert found["hint"] == "write a value: a blank one says nothing"


def test_github_annotations_escape_the_file_property() -> None:
    from generator.diagnostics import diag

    found = diag("yaml_syntax", ("a,b:c%.yaml", 1, 2), "x: 100%\nnext", "h")
    assert found.as_github() == (
        "::error file=a%2Cb%3Ac%25.yaml,line=1,col=2,title=yaml_syntax::x: 100%25%0Anext (hint: h)"
    )


def test_the_endpoint_settings_marks_match_the_schema_and_the_config() -> None:
    """Found in review: the settings are declared once, by marks on ProviderEndpointSpec's fields
    (provcat.catalog.specs); a wrong mark would build the same output. The inherited ones are
    exactly what a provider's `defaults:` may set, and every setting is an EndpointConfig field."""
    from provcat.catalog.specs import INHERITED_SETTINGS, SETTINGS
    from provcat.endpoints.config import EndpointConfig

    schema = json.loads((ROOT / "schemas" / "provider.schema.json").read_text(encoding="utf-8"))
    assert set(INHERITED_SETTINGS) == set(schema["properties"]["defaults"]["properties"])
    assert set(SETTINGS) - set(INHERITED_SETTINGS) == {"method", "path"}
    assert set(SETTINGS) <= set(EndpointConfig.model_fields)


@pytest.mark.parametrize("key", ["../../x", "./chat", "v1/../x", "chat/..", ".", "chat//x"])
def test_an_endpoint_key_that_leaves_the_base_urls_path_is_refused(
    workspace: Workspace, key: str
) -> None:
    """An endpoint key is the URL path appended to base_url: `../../x` made a call post to
    https://api.example/x, out of the base URL's path (a URL's `.` and `..` segments are
    removed as RFC 3986, section 5.2.4, says, as httpx does). A key is a plain path: segments
    of letters, digits and . _ ~ { } -, none of them `.` or `..` or empty."""
    workspace.edit("alpha.yaml", "  embeddings:\n", f'  "{key}":\n')
    run = workspace.fails(("schema_violation", "alpha.yaml", 16, 3))
    assert "`.` or `..`" in run.json["diagnostics"][0]["hint"]


@pytest.mark.parametrize("path", ["../../x", "v1/./chat", "/v1//chat"])
def test_an_endpoint_path_that_leaves_the_base_urls_path_is_refused(
    workspace: Workspace, path: str
) -> None:
    workspace.edit(
        "alpha.yaml", "    aliases: [embed]\n", f'    aliases: [embed]\n    path: "{path}"\n'
    )
    run = workspace.fails(("schema_violation", "alpha.yaml", 18, 11))
    assert "`.` or `..`" in run.json["diagnostics"][0]["hint"]


@pytest.mark.parametrize(
    "path", ["v1/chat/completions", "/v1/chat", "v1/models/{model}", "v1.2/a..b/.well-known/"]
)
def test_plain_endpoint_paths_pass(workspace: Workspace, path: str) -> None:
    workspace.edit(
        "alpha.yaml", "    aliases: [embed]\n", f'    aliases: [embed]\n    path: "{path}"\n'
    )
    run = workspace.run()
    assert run.exit_code == 0, run.stdout
