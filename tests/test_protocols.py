"""`protocol:` endpoints in the generator: YAML-only providers and every bad input, at its node.

Each bad input proves its code, its position and that generated/ stayed byte-for-byte the same
(Workspace.fails).
"""

from __future__ import annotations

import provcat_catalog

from provcat.endpoints.protocols import PROTOCOLS
from tests.conftest import Workspace

GAMMA = """provider: gamma
display_name: Gamma
defaults:
  base_url: http://127.0.0.1:9/v1
  api_key_env: GAMMA_API_KEY
endpoints:
  chat/completions:
    aliases: [chat]
    type: api
    protocol: openai-chat
    request_defaults: {model: gamma-1}
"""


def test_a_provider_declared_in_yaml_alone_builds(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GAMMA)
    run = workspace.run()
    assert run.exit_code == 0, run.stdout
    data = (workspace.out / "provcat_catalog" / "data.py").read_text(encoding="utf-8")
    assert "'protocol': 'openai-chat'" in data
    assert (
        "'request_options': 'provcat.endpoints.protocols.openai_chat:ChatCompletionsRequest'"
        in data
    )
    assert "'module': None" in data


def test_class_and_protocol_both(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GAMMA.replace("    protocol:", "    class: X\n    protocol:"))
    run = workspace.fails(("class_and_protocol", "gamma.yaml", 12, 15))
    assert (
        "names both class 'X' and protocol 'openai-chat'" in run.json["diagnostics"][0]["message"]
    )


def test_neither_class_nor_protocol(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GAMMA.replace("    protocol: openai-chat\n", ""))
    workspace.fails(("missing_endpoint_implementation", "gamma.yaml", 8, 3))


def test_unknown_protocol_with_a_did_you_mean(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GAMMA.replace("openai-chat", "openai-chta"))
    run = workspace.fails(("unknown_protocol", "gamma.yaml", 11, 15))
    assert run.json["diagnostics"][0]["hint"] == "did you mean 'openai-chat'?"


def test_a_request_default_the_protocols_model_does_not_have(workspace: Workspace) -> None:
    workspace.write(
        "gamma.yaml", GAMMA.replace("{model: gamma-1}", "{model: gamma-1, temprature: 1}")
    )
    run = workspace.fails(("invalid_request_default", "gamma.yaml", 12, 40))
    diagnostic = run.json["diagnostics"][0]
    assert "not a field of request model ChatCompletionsRequest" in diagnostic["message"]
    assert diagnostic["hint"] == "did you mean 'temperature'?"


def test_a_request_default_value_the_protocols_model_refuses(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GAMMA.replace("{model: gamma-1}", "{model: gamma-1, n: 0}"))
    workspace.fails(("invalid_request_default", "gamma.yaml", 12, 40))


def test_a_protocol_serves_api_endpoints_only(workspace: Workspace) -> None:
    workspace.write("gamma.yaml", GAMMA.replace("type: api", "type: agentic"))
    workspace.fails(("endpoint_type_mismatch", "gamma.yaml", 11, 15))


def test_an_endpoints_own_request_model_replaces_the_protocols(workspace: Workspace) -> None:
    own = "    request_options: provcat_testproviders.alpha:ChatRequest\n"
    text = GAMMA.replace("    request_defaults:", own + "    request_defaults:")
    workspace.write("gamma.yaml", text.replace("{model: gamma-1}", "{model: gamma-1, top_k: 3}"))
    # ChatRequest (the test model) has no top_k: the protocol's model is not consulted
    workspace.fails(("invalid_request_default", "gamma.yaml", 13, 40))


def test_a_short_name_needs_a_module(workspace: Workspace) -> None:
    text = GAMMA.replace(
        "    request_defaults:", "    request_options: ChatRequest\n    request_defaults:"
    )
    workspace.write("gamma.yaml", text)
    run = workspace.fails(("invalid_request_options", "gamma.yaml", 12, 22))
    assert "has no module" in run.json["diagnostics"][0]["message"]


def test_credentials_in_default_headers_are_refused(workspace: Workspace) -> None:
    text = GAMMA.replace(
        "  api_key_env: GAMMA_API_KEY\n", "  default_headers: {Authorization: x}\n"
    )
    workspace.write("gamma.yaml", text)
    workspace.fails(
        ("credential_header", "gamma.yaml", 6, 3),
        ("missing_api_key_env", "gamma.yaml", 8, 3),  # the key's place
    )


def test_every_protocol_is_documented_and_used_by_the_bundled_catalog() -> None:
    """The documented set holds openai-chat and every shape two or more bundled endpoints share."""
    used: dict[str, int] = {}
    for p in provcat_catalog.PROVIDERS:
        for e in p["endpoints"]:
            if e["protocol"] is not None:
                used[e["protocol"]] = used.get(e["protocol"], 0) + 1
    assert set(used) == set(PROTOCOLS)
    assert used["openai-chat"] >= 2 and used["openai-embeddings"] >= 2
    assert used["openai-transcriptions"] >= 2
    from tests.conftest import ROOT

    page = (ROOT / "generated" / "docs" / "protocols.md").read_text(encoding="utf-8")
    for name in PROTOCOLS:
        assert f"## {name}" in page


def test_the_provider_schema_names_every_protocol() -> None:
    """An editor shows the `protocol` field's description as its help: a protocol added to
    PROTOCOLS and not to that list is one a maintainer cannot find there."""
    import json

    from tests.conftest import ROOT

    schema = json.loads((ROOT / "schemas" / "provider.schema.json").read_text(encoding="utf-8"))
    described = schema["$defs"]["endpoint"]["properties"]["protocol"]["description"]
    missing = [name for name in PROTOCOLS if name not in described]
    assert missing == [], f"add {missing} to the `protocol` description of provider.schema.json"
