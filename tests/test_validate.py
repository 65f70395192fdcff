"""Whole-set validation: every ADR-0028 code and every generator code, at its node.

Each test breaks a valid test catalog in one place and proves the code, the position and that
generated/ stayed byte-for-byte the same (Workspace.fails).
"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, Workspace

# --- ADR-0028 codes -------------------------------------------------------------------------


def test_empty_provider_alias(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "aliases: [alpha-ai, al]", 'aliases: [alpha-ai, "  "]')
    workspace.fails(("empty_key", "alpha.yaml", 4, 21))


def test_empty_provider_key(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "provider: beta", 'provider: " "')
    workspace.fails(("empty_key", "beta.yaml", 2, 11), ("file_name_mismatch", "beta.yaml", 2, 11))


def test_empty_endpoint_key_and_alias(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "  chat:\n", '  "":\n')
    workspace.edit("beta.yaml", "aliases: [code]", 'aliases: [code, ""]')
    workspace.fails(("empty_key", "beta.yaml", 7, 3), ("empty_key", "beta.yaml", 13, 21))


def test_self_alias_of_a_provider_is_caught_through_case_and_whitespace(
    workspace: Workspace,
) -> None:
    workspace.edit("alpha.yaml", "aliases: [alpha-ai, al]", 'aliases: [alpha-ai, al, " Alpha "]')
    run = workspace.fails(("self_alias", "alpha.yaml", 4, 25))
    assert "' Alpha '" in run.json["diagnostics"][0]["message"]


def test_self_alias_of_an_endpoint(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "aliases: [chat]", "aliases: [chat, Chat/Completions]")
    workspace.fails(("self_alias", "alpha.yaml", 11, 21))


def test_duplicate_provider_key_across_files(workspace: Workspace) -> None:
    """Reported in both files: which side the key checks find depends on the files' order, and
    the maintainer adding either file sees it named (beta's alias, alpha's earlier claim)."""
    workspace.edit("beta.yaml", "aliases: [beta-ai]", "aliases: [beta-ai, al]")
    run = workspace.fails(
        ("duplicate_provider_key", "beta.yaml", 4, 20),
        ("duplicate_provider_key", "alpha.yaml", 4, 21),
    )
    alpha, beta = run.json["diagnostics"]
    assert "an alias of provider 'alpha'" in beta["message"]
    assert "alpha.yaml:4:21" in beta["message"]
    assert alpha["message"].startswith(
        "'al' here is claimed again in catalog/providers/beta.yaml:4:20"
    )


def test_provider_alias_equal_to_another_providers_key_is_reported_at_the_alias(
    workspace: Workspace,
) -> None:
    """beta.yaml is read before scripted.yaml, but the key is fixed (it is the file's name): the
    alias is what to change, so the error is the alias's, wherever the files sort."""
    workspace.edit("beta.yaml", "aliases: [beta-ai]", "aliases: [beta-ai, scripted]")
    run = workspace.fails(
        ("duplicate_provider_key", "beta.yaml", 4, 20),
        ("duplicate_provider_key", "scripted.yaml", 3, 11),
    )
    message = run.json["diagnostics"][0]["message"]
    assert message.startswith("alias 'scripted' of provider 'beta' is already the key of ")
    assert "scripted.yaml:3:11" in message
    hint = run.json["diagnostics"][0]["hint"]
    assert hint == "remove or rename the alias 'scripted': 'scripted' is a key"


def test_duplicate_alias_within_one_provider(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "aliases: [alpha-ai, al]", "aliases: [alpha-ai, al, al]")
    workspace.fails(("duplicate_provider_key", "alpha.yaml", 4, 25))


def test_duplicate_endpoint_key_within_a_provider(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "aliases: [code]", "aliases: [code, chat]")
    run = workspace.fails(("duplicate_endpoint_key", "beta.yaml", 13, 21))
    assert "beta/chat" in run.json["diagnostics"][0]["message"]


def test_endpoint_alias_equal_to_a_later_endpoints_key_is_reported_at_the_alias(
    workspace: Workspace,
) -> None:
    workspace.edit(
        "beta.yaml", "  chat:\n    type: api", "  chat:\n    aliases: [cli]\n    type: api"
    )
    run = workspace.fails(("duplicate_endpoint_key", "beta.yaml", 8, 15))
    message = run.json["diagnostics"][0]["message"]
    assert message.startswith("alias 'cli' of beta/chat is already the key of endpoint beta/cli")
    assert run.json["diagnostics"][0]["hint"] == "remove or rename the alias 'cli': 'cli' is a key"


def test_same_endpoint_spelling_in_two_providers_is_allowed(workspace: Workspace) -> None:
    # scripted already uses chat, query_cli and cli, which alpha and beta use too (D2 scope)
    assert workspace.run().exit_code == 0


def test_invalid_endpoint_class_missing(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "class: AlphaChatEndpoint", "class: AlphaChatEndpiont")
    run = workspace.fails(("invalid_endpoint_class", "alpha.yaml", 13, 12))
    assert "has no attribute 'AlphaChatEndpiont'" in run.json["diagnostics"][0]["message"]


def test_invalid_endpoint_class_not_an_endpoint(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "class: AlphaChatEndpoint", "class: NotAnEndpoint")
    workspace.fails(("invalid_endpoint_class", "alpha.yaml", 13, 12))


def test_invalid_endpoint_class_in_a_module_that_does_not_exist(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "class: AlphaChatEndpoint", "class: no_such.module:Endpoint")
    run = workspace.fails(("invalid_endpoint_class", "alpha.yaml", 13, 12))
    assert "ModuleNotFoundError" in run.json["diagnostics"][0]["message"]


def test_invalid_request_options(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "request_options: ChatRequest", "request_options: NotAModel")
    workspace.edit(
        "alpha.yaml", "request_options: AgentRequest", "request_options: failing_factory"
    )
    workspace.edit(
        "alpha.yaml", "request_options: chat_request_factory", "request_options: wrong_factory"
    )
    run = workspace.fails(
        ("invalid_request_options", "alpha.yaml", 14, 22),
        ("invalid_request_options", "alpha.yaml", 20, 22),
        ("invalid_request_options", "alpha.yaml", 25, 22),
    )
    messages = [d["message"] for d in run.json["diagnostics"]]
    assert "not a pydantic BaseModel" in messages[0]
    assert "returned int" in messages[1]
    assert "the factory raised RuntimeError" in messages[2]


def test_request_options_factory_is_called_once_per_build(workspace: Workspace) -> None:
    from provcat_testproviders import alpha

    before = alpha.FACTORY_CALLS
    workspace.edit(
        "beta.yaml",
        "    class: BetaCliEndpoint",
        "    class: BetaCliEndpoint\n    request_options: provcat_testproviders.alpha:chat_request_factory",
    )
    assert workspace.run().exit_code == 0
    assert before + 1 == alpha.FACTORY_CALLS


def test_invalid_request_default_unknown_field_suggests_a_fix(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "temperature: 0.5", "temprature: 0.5")
    run = workspace.fails(("invalid_request_default", "alpha.yaml", 15, 40))
    assert run.json["diagnostics"][0]["hint"] == "did you mean 'temperature'?"


def test_invalid_request_default_value(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "temperature: 0.5", "temperature: 5")
    run = workspace.fails(("invalid_request_default", "alpha.yaml", 15, 40))
    [found] = run.json["diagnostics"]
    assert "less than or equal to 2" in found["message"]
    # the field is declared: the hint speaks of its value, not of "a field the model declares"
    assert found["hint"].startswith("give 'temperature' a value of the type and range")


def test_request_default_by_field_alias_is_accepted(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "temperature: 0.5", "topP: 0.9")
    assert workspace.run().exit_code == 0


def test_import_error_is_sanitized_and_names_the_module(workspace: Workspace) -> None:
    workspace.edit(
        "beta.yaml", "module: provcat_testproviders.beta", "module: provcat_testproviders.broken"
    )
    run = workspace.fails(("import_error", "beta.yaml", 5, 9))
    message = run.json["diagnostics"][0]["message"]
    assert "provcat_testproviders.broken" in message and "RuntimeError" in message
    assert "sk-testsecret" not in run.stdout


def test_inconsistent_provider_aliases_is_documented_as_impossible_in_yaml() -> None:
    docs = (ROOT / "generated" / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    section = docs.split("## ADR-0028 codes the YAML shape makes impossible", 1)[1]
    assert "`inconsistent_provider_aliases`" in section


# --- the generator's own codes ----------------------------------------------------------------


def test_file_name_mismatch(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "provider: beta", "provider: Beta")
    run = workspace.fails(("file_name_mismatch", "beta.yaml", 2, 11))
    assert "rename the file to Beta.yaml" in run.json["diagnostics"][0]["hint"]


def test_case_variant_collision_between_providers(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "aliases: [beta-ai]", "aliases: [beta-ai, AL]")
    run = workspace.fails(
        ("case_variant_collision", "beta.yaml", 4, 20),
        ("case_variant_collision", "alpha.yaml", 4, 21),
    )
    alpha, beta = run.json["diagnostics"]
    assert (
        "alias 'AL' of provider 'beta' is a case or whitespace variant of 'al'" in beta["message"]
    )
    assert "beta.yaml:4:20" in alpha["message"]
    assert "remove one or rename it" in beta["hint"]


def test_case_variant_collision_between_endpoints(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "aliases: [code]", "aliases: [code, ' CHAT']")
    workspace.fails(("case_variant_collision", "beta.yaml", 13, 21))


def test_duplicate_endpoint_class(workspace: Workspace) -> None:
    workspace.edit(
        "beta.yaml",
        "class: BetaChatEndpoint",
        "class: provcat_testproviders.alpha:AlphaChatEndpoint",
    )
    run = workspace.fails(("duplicate_endpoint_class", "beta.yaml", 9, 12))
    assert "already serves alpha/chat/completions" in run.json["diagnostics"][0]["message"]


def test_endpoint_type_mismatch_both_ways(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "    type: api", "    type: agentic")
    workspace.edit(
        "beta.yaml",
        "    type: agentic\n    class: BetaCliEndpoint",
        "    type: api\n    class: BetaCliEndpoint",
    )
    workspace.fails(
        ("endpoint_type_mismatch", "beta.yaml", 9, 12),
        ("endpoint_type_mismatch", "beta.yaml", 15, 12),
        ("missing_base_url", "beta.yaml", 12, 3),
        ("missing_api_key_env", "beta.yaml", 12, 3),  # an api endpoint's bearer default
    )


def test_missing_base_url(workspace: Workspace) -> None:
    workspace.edit("beta.yaml", "    base_url: http://127.0.0.1:9/beta\n", "")
    workspace.fails(("missing_base_url", "beta.yaml", 7, 3))


def test_an_api_endpoint_that_sends_a_key_but_names_no_variable_is_warned_about(
    workspace: Workspace,
) -> None:
    """Without api_key_env, every call of a bearer (or x-api-key) endpoint fails at run time
    with "needs an API key: set api_key in the configuration" unless the caller passes the key:
    a warning at each api endpoint (not the agentic one, whose type sends no key)."""
    workspace.edit("alpha.yaml", "  api_key_env: ALPHA_API_KEY\n", "")
    run = workspace.run()
    assert run.exit_code == 0, run.stdout
    assert run.where("missing_api_key_env") == [
        ("catalog/providers/alpha.yaml", 9, 3),
        ("catalog/providers/alpha.yaml", 15, 3),
    ]
    found = run.json["diagnostics"][0]
    assert found["severity"] == "warning"
    assert "alpha/chat/completions" in found["message"] and "bearer" in found["message"]
    assert "api_key_env" in found["hint"] and "auth_type: none" in found["hint"]


def test_an_api_endpoint_that_takes_no_key_needs_no_variable(workspace: Workspace) -> None:
    """A local server (auth_type: none, as the bundled ollama says) names no variable."""
    workspace.edit("alpha.yaml", "  api_key_env: ALPHA_API_KEY\n", "  auth_type: none\n")
    run = workspace.run()
    assert run.exit_code == 0 and "missing_api_key_env" not in run.codes, run.stdout


def test_no_bundled_provider_lacks_the_variable_its_endpoints_need() -> None:
    import provcat_catalog

    for provider in provcat_catalog.PROVIDERS:
        for endpoint in provider["endpoints"]:
            if endpoint["type"] == "api" and endpoint["auth_type"] != "none":
                assert endpoint["api_key_env"], (provider["provider"], endpoint["endpoint"])


def test_effort_kwarg_mode_needs_a_kwarg(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "    kwarg: effort\n", "")
    workspace.fails(("invalid_effort_policy", "alpha.yaml", 30, 11))


def test_effort_model_name_mode_forbids_a_kwarg(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "mode: kwarg", "mode: model_name")
    workspace.fails(
        ("invalid_effort_policy", "alpha.yaml", 31, 12),
        ("invalid_effort_policy", "alpha.yaml", 29, 3),  # and it has no model_name_format
    )


def test_effort_none_mode_takes_no_levels_or_kwarg(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "mode: kwarg", "mode: none")
    workspace.fails(
        ("invalid_effort_policy", "alpha.yaml", 31, 12),
        ("invalid_effort_policy", "alpha.yaml", 32, 14),
        ("invalid_effort_policy", "alpha.yaml", 33, 17),
    )


def test_effort_levels_needed_unique_and_lowercase(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "levels: [low, medium, high]", "levels: [low, High, low]")
    run = workspace.fails(
        ("invalid_effort_policy", "alpha.yaml", 29, 3),  # and medium now has no vendor value
        ("invalid_effort_policy", "alpha.yaml", 32, 19),
        ("invalid_effort_policy", "alpha.yaml", 32, 25),
    )
    assert "listed twice" in run.json["diagnostics"][2]["message"]


def test_effort_kwarg_mode_without_levels(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "    levels: [low, medium, high]\n", "")
    workspace.fails(("invalid_effort_policy", "alpha.yaml", 30, 11))


def test_every_generic_effort_needs_a_vendor_value(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "ultra: high}", "}")
    run = workspace.fails(("invalid_effort_policy", "alpha.yaml", 29, 3))
    assert "ultra have no vendor value" in run.json["diagnostics"][0]["message"]


def test_effort_translate_keys_and_values(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "ultra: high}", "ultra: highest, ultar: low}")
    run = workspace.fails(
        ("invalid_effort_policy", "alpha.yaml", 33, 66),
        ("invalid_effort_policy", "alpha.yaml", 33, 82),
    )
    assert run.json["diagnostics"][1]["hint"] == "did you mean 'ultra'?"


def test_effort_model_rules_stay_inside_the_levels(workspace: Workspace) -> None:
    workspace.edit(
        "alpha.yaml",
        "ultra: high}\n",
        "ultra: high}\n    model_rules:\n      - models: [alpha-1]\n        translate: {high: extreme}\n",
    )
    workspace.fails(("invalid_effort_policy", "alpha.yaml", 36, 21))


def test_model_name_format_only_in_model_name_mode(workspace: Workspace) -> None:
    workspace.edit(
        "alpha.yaml", "ultra: high}\n", "ultra: high}\n    model_name_format: '{model}'\n"
    )
    workspace.fails(("invalid_effort_policy", "alpha.yaml", 34, 24))


def test_effort_kwarg_and_levels_must_fit_the_request_model(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "kwarg: effort", "kwarg: efort")
    run = workspace.fails(("invalid_policy_kwarg", "alpha.yaml", 31, 12))
    assert run.json["diagnostics"][0]["hint"] == "did you mean 'effort'?"


def test_effort_level_the_vendor_cannot_take(workspace: Workspace) -> None:
    workspace.edit(
        "alpha.yaml", "levels: [low, medium, high]", "levels: [low, medium, high, ultra]"
    )
    workspace.fails(("invalid_policy_kwarg", "alpha.yaml", 32, 33))


def test_policy_kwargs_are_request_fields_with_valid_values(workspace: Workspace) -> None:
    workspace.edit(
        "alpha.yaml",
        "  yolo_kwargs: {yolo: true}",
        "  yolo_kwargs: {yollo: true}\n  bypass_kwargs: {yolo: maybe}\n  fast_kwargs: {model: 12}",
    )
    run = workspace.fails(
        ("invalid_policy_kwarg", "alpha.yaml", 34, 17),
        ("invalid_policy_kwarg", "alpha.yaml", 35, 19),
        ("invalid_policy_kwarg", "alpha.yaml", 36, 17),
    )
    assert run.json["diagnostics"][0]["hint"] == "did you mean 'yolo'?"


def test_duplicate_model_alias_across_providers(workspace: Workspace) -> None:
    workspace.edit(
        "beta.yaml",
        "module: provcat_testproviders.beta\n",
        "module: provcat_testproviders.beta\npolicy:\n  model_aliases:\n    ALPHA-default: beta/b1\n",
    )
    run = workspace.fails(("duplicate_model_alias", "beta.yaml", 8, 5))
    assert "alpha.yaml:28:5" in run.json["diagnostics"][0]["message"]


def test_foreign_model_alias_target_and_spelling(workspace: Workspace) -> None:
    workspace.edit(
        "beta.yaml",
        "module: provcat_testproviders.beta\n",
        "module: provcat_testproviders.beta\npolicy:\n  model_aliases:\n"
        "    b-default: alpha/alpha-1\n    al: beta/b1\n    beta-ai: beta-ai/b1\n",
    )
    workspace.fails(
        ("foreign_model_alias", "beta.yaml", 8, 16),
        ("foreign_model_alias", "beta.yaml", 9, 5),
    )


def test_unknown_alias_target(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "alpha-default: alpha/alpha-1", "alpha-default: alpha/alpha-3")
    workspace.fails(("unknown_alias_target", "alpha.yaml", 28, 20))


def test_alias_target_by_model_alias_and_by_provider_alias(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "alpha-default: alpha/alpha-1", "alpha-default: AL/alpha-one")
    assert workspace.run().exit_code == 0


def test_duplicate_model_key(workspace: Workspace) -> None:
    workspace.edit(
        "alpha.yaml", "{context_window: 4096}", "{aliases: [Alpha-One], context_window: 4096}"
    )
    workspace.fails(("duplicate_model_key", "alpha.yaml", 37, 33))


# --- all at once ----------------------------------------------------------------------------


def test_ten_independent_faults_are_all_reported_in_one_run(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "aliases: [alpha-ai, al]", "aliases: [alpha-ai, al, ALPHA]")  # 1
    workspace.edit("alpha.yaml", "class: AlphaEmbedEndpoint", "class: AlphaEmbedEndpoit")  # 2
    workspace.edit("alpha.yaml", "temperature: 0.5", "temprature: 0.5")  # 3
    workspace.edit("alpha.yaml", "kwarg: effort", "kwarg: efort")  # 4
    workspace.edit("alpha.yaml", "alpha/alpha-1", "alpha/alpha-9")  # 5
    workspace.edit("beta.yaml", "aliases: [beta-ai]", "aliases: [beta-ai, al]")  # 6
    workspace.edit("beta.yaml", "aliases: [code]", "aliases: [code, chat]")  # 7
    workspace.edit("beta.yaml", "    base_url: http://127.0.0.1:9/beta\n", "")  # 8
    workspace.edit(
        "scripted.yaml", "display_name: Scripted", "display_name: Scripted\ndisplay_nam: x"
    )  # 9
    workspace.write(
        "gamma.yaml", "provider: gamma\ndisplay_name: G\nmodule: x\nendpoints: [1\n"
    )  # 10
    run = workspace.run()
    assert run.exit_code == 1
    assert sorted(run.codes) == sorted(
        [
            "self_alias",
            "invalid_endpoint_class",
            "invalid_request_default",
            "invalid_policy_kwarg",
            "unknown_alias_target",
            "duplicate_provider_key",
            "duplicate_provider_key",  # in both files
            "duplicate_endpoint_key",
            "missing_base_url",
            "unknown_field",
            "yaml_syntax",
        ]
    )
    keys = [(d["file"], d["line"], d["column"], d["code"]) for d in run.json["diagnostics"]]
    assert keys == sorted(keys), "diagnostics are sorted by file, line, column, code"


def test_a_policy_model_alias_that_is_another_models_id(workspace: Workspace) -> None:
    """parse_model_spec would read 'vendor/alpha-2:7b' as alpha-1 (the policy's alias) while
    get_model reads it as the model of that id."""
    workspace.edit(
        "alpha.yaml", "alpha-default: alpha/alpha-1", '"vendor/alpha-2:7b": alpha/alpha-1'
    )
    run = workspace.fails(("model_alias_shadows_model", "alpha.yaml", 28, 5))
    assert "the id of model 'vendor/alpha-2:7b' (" in run.json["diagnostics"][0]["message"]


def test_a_policy_model_alias_that_is_another_models_inventory_alias(workspace: Workspace) -> None:
    workspace.edit(
        "alpha.yaml", "alpha-default: alpha/alpha-1", "alpha-one: alpha/vendor/alpha-2:7b"
    )
    run = workspace.fails(("model_alias_shadows_model", "alpha.yaml", 28, 5))
    assert "an alias of model 'alpha-1' (" in run.json["diagnostics"][0]["message"]


def test_a_policy_model_alias_that_names_its_own_target(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "alpha-default: alpha/alpha-1", "Alpha-1: alpha/alpha-1")
    workspace.fails(("self_alias", "alpha.yaml", 28, 5))


def test_a_policy_model_alias_may_repeat_its_targets_inventory_alias(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "alpha-default: alpha/alpha-1", "alpha-one: alpha/alpha-1")
    assert workspace.run().exit_code == 0


def test_a_short_class_name_without_a_module_says_how_to_name_it(workspace: Workspace) -> None:
    workspace.edit("scripted.yaml", "module: provcat_testproviders.scripted\n", "")
    run = workspace.fails(("invalid_endpoint_class", "scripted.yaml", 9, 12))
    hint = run.json["diagnostics"][0]["hint"]
    assert "'package.module:Class'" in hint and "set the provider's `module`" in hint
    assert "a class of the provider's module" not in hint


def test_a_protocol_on_an_agentic_endpoint_says_what_to_change(workspace: Workspace) -> None:
    workspace.edit("scripted.yaml", "class: ScriptedEndpoint", "protocol: openai-chat")
    run = workspace.fails(("endpoint_type_mismatch", "scripted.yaml", 10, 15))
    assert run.json["diagnostics"][0]["hint"].startswith("set `type: api`, or replace `protocol`")


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http:///v1", "names no host"),
        ("http://bob:Sentinel-PW@127.0.0.1:9/v1", "carries credentials"),
        ("http://Sentinel-TOKEN@127.0.0.1:9/v1", "carries credentials"),
        ("http://127.0.0.1:9/v1?key=Sentinel-KEY", "query or a fragment"),
        ("http://127.0.0.1:9/v1#Sentinel", "query or a fragment"),
        ("http://127.0.0.1:99999/v1", "malformed"),
    ],
)
def test_a_bad_base_url_is_reported_once_without_quoting_it(
    workspace: Workspace, url: str, problem: str
) -> None:
    """Found by a new maintainer: `https:///v1` and `https://user:pw@host/v1` built cleanly, the
    password into the snapshot, and the first failed at call time. Both endpoints inherit the
    URL from `defaults:`, where it is written once: one error, there."""
    workspace.edit("alpha.yaml", "  base_url: http://127.0.0.1:9/v1\n", f"  base_url: {url}\n")
    run = workspace.fails(("bad_base_url", "alpha.yaml", 7, 13))
    message = run.json["diagnostics"][0]["message"]
    assert problem in message and "Sentinel" not in run.stdout + run.stderr
    # said as the defaults it is written in, not as the first endpoint that inherits it
    assert message.startswith("alpha defaults (the base_url of ") and " endpoints): " in message


def test_a_bad_base_url_on_an_endpoint_is_reported_there(workspace: Workspace) -> None:
    workspace.edit(
        "alpha.yaml",
        "    class: AlphaEmbedEndpoint\n",
        "    class: AlphaEmbedEndpoint\n    base_url: https://api.alpha.example/v1?x=1\n",
    )
    workspace.fails(("bad_base_url", "alpha.yaml", 20, 15))


def test_a_credential_header_in_defaults_is_reported_once(workspace: Workspace) -> None:
    """Every endpoint inherits `defaults:`, but the header is written once: one error, there."""
    workspace.edit(
        "alpha.yaml",
        "  api_key_env: ALPHA_API_KEY\n",
        "  api_key_env: ALPHA_API_KEY\n  default_headers: {Authorization: Bearer x}\n",
    )
    run = workspace.fails(("credential_header", "alpha.yaml", 9, 3))
    message = run.json["diagnostics"][0]["message"]
    assert message.startswith("alpha defaults (the default_headers of 3 endpoints): ")
