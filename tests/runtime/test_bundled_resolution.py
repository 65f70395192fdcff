"""The bundled catalog resolves every (provider, endpoint, alias) spelling of lionagi 0.36.0's
inventory (§2, §3), with ADR-0028's deliberate changes (§9 item 9)."""

from __future__ import annotations

import contextlib

import provcat_catalog
import pytest

from provcat import EndpointRegistry, match_endpoint, resolve
from provcat.errors import EndpointDeprecated, EndpointNotFound
from tests.runtime.conftest import assert_configs_equal_validated
from tests.test_bundled_catalog import ENDPOINTS, PROVIDER_ALIASES

CASES = [
    (spelling, endpoint_spelling, provider, endpoint)
    for (provider, endpoint), (aliases, *_rest) in sorted(ENDPOINTS.items())
    for spelling in (provider, *PROVIDER_ALIASES[provider])
    for endpoint_spelling in (endpoint, *aliases)
]


def test_the_bundled_snapshot_is_whole() -> None:
    EndpointRegistry._reset()
    rows = EndpointRegistry.list_providers()
    assert len(rows) == len(provcat_catalog.PROVIDERS) >= 24
    assert all(r["availability"] == "available" for r in rows), [r["diagnostics"] for r in rows]
    assert sum(len(r["endpoints"]) for r in rows) == sum(
        len(p["endpoints"]) for p in provcat_catalog.PROVIDERS
    )
    assert sum(len(r["endpoints"]) for r in rows if r["provider"] in PROVIDER_ALIASES) == 38


@pytest.mark.parametrize(("spelling", "endpoint_spelling", "provider", "endpoint"), CASES)
def test_every_inventory_spelling_resolves(
    spelling: str, endpoint_spelling: str, provider: str, endpoint: str
) -> None:
    # an endpoint its vendor deprecated or retired says so (tests/runtime/test_endpoint_lifecycle)
    deprecated = resolve(provider, endpoint).lifecycle is not None
    with pytest.warns(EndpointDeprecated) if deprecated else contextlib.nullcontext():
        ep = match_endpoint(spelling, endpoint_spelling)
    assert (ep.config.provider, ep.config.endpoint) == (provider, endpoint)
    assert ep.config.name == f"{provider}_{endpoint}"
    assert ep.config.openai_compatible is False


@pytest.mark.parametrize(
    ("provider", "endpoint", "expected"),
    [
        ("OpenAI", "Chat", "chat/completions"),  # 0.36: silent generic endpoint
        ("openai", " chat/completions", "chat/completions"),
        ("exa", "findsimilar", "findSimilar"),
        ("EXA", "FINDSIMILAR", "findSimilar"),
        (" Claude ", "CLI", "query_cli"),  # 0.36: " claude" is ProviderNotFoundError
    ],
)
def test_adr_widening_case_and_whitespace(provider: str, endpoint: str, expected: str) -> None:
    assert match_endpoint(provider, endpoint).config.endpoint == expected


@pytest.mark.parametrize(
    ("provider", "endpoint"),
    [
        ("openai", ""),  # 0.36: the first registered entry
        ("anthropic", "embeddings"),  # 0.36: the sole endpoint, whatever the string
        ("deepseek", "images/generations"),
        ("openai", "chta"),  # 0.36: a silent generic endpoint
        ("nvidia-nim", "chat"),  # only declared punctuation variants exist
        ("open_router", "chat"),
        ("claudecode", "cli"),
        ("scripted", "chat"),  # test-only, not bundled
    ],
)
def test_adr_fail_closed_changes(provider: str, endpoint: str) -> None:
    with pytest.raises(EndpointNotFound):
        match_endpoint(provider, endpoint)


def test_single_endpoint_providers_resolve_an_empty_endpoint() -> None:
    for provider in (
        "anthropic",
        "claude_code",
        "codex",
        "deepseek",
        "gemini",
        "gemini_code",
        "pi",
        "openrouter",
    ):
        assert match_endpoint(provider, "").config.provider == provider


def test_perplexity_now_has_two_endpoints_so_an_empty_endpoint_names_both() -> None:
    """Sonar chat completions (lionagi's one Perplexity endpoint) was retired on 2026-09-27 for
    the Agent API; with both listed, an empty endpoint no longer silently picks the retired one."""
    with pytest.raises(EndpointNotFound, match=r"available: chat/completions, v1/agent"):
        match_endpoint("perplexity", "")


def test_section_3_1_config_defaults() -> None:
    chat = match_endpoint("openai", "chat")
    assert chat.request_defaults == {"model": "gpt-6.1-terra"}
    assert (chat.config.timeout, chat.config.requires_tokens) == (600, True)
    assert match_endpoint("openai", "tts").config.timeout == 120
    assert match_endpoint("openai", "batch").config.idempotent_retries is True
    assert match_endpoint("exa", "search").config.serialize_by_alias is True
    messages = match_endpoint("anthropic", "chat")
    # lionagi sends 2023-06-01; the catalog follows the anthropic SDK (2.0+) to 2026-10-21
    # (https://platform.claude.com/docs/en/api/migration-2026-10-21)
    assert messages.config.default_headers == {"anthropic-version": "2026-10-21"}
    assert messages.config.auth_type == "x-api-key"
    cli = match_endpoint("codex", "cli")
    assert (cli.config.timeout, cli.config.base_url, cli.config.auth_type) == (3600, None, "none")
    assert match_endpoint("ollama", "embed").url == "http://localhost:11434/api/embed"


def test_no_request_model_has_string_annotations() -> None:
    """Request-model modules do not use ``from __future__ import annotations`` (see
    provcat.endpoints.request): pydantic would compile and evaluate each string annotation one by
    one when inspection imports every model."""
    from provcat.endpoints.request import RequestModel

    EndpointRegistry.list_providers()  # imports every provider's request models

    def every(cls: type) -> list[type]:
        return [x for sub in cls.__subclasses__() for x in (sub, *every(sub))]

    models = [m for m in every(RequestModel) if m.__module__.startswith("provcat.")]
    assert len(models) >= 100
    strings = sorted(
        f"{m.__module__}.{m.__name__}.{name}"
        for m in models
        for name, a in vars(m).get("__annotations__", {}).items()
        if isinstance(a, str)
    )
    assert strings == []


def test_bundled_configs_equal_validated_ones() -> None:
    """The bundled (trusted) snapshot builds its configs without the validator; each one equals
    the validated config, field by field and type by type."""
    EndpointRegistry._reset()
    assert_configs_equal_validated(EndpointRegistry.snapshot())
