"""Resolving an endpoint its vendor deprecated or retired: a warning naming the successor, an
EndpointRetired error in strict mode, and nothing sent; the record still tells inspection.

Expected values come from the vendors' own pages:
- Perplexity retired Sonar chat completions on 2026-09-27 in favour of the Agent API (v1/agent):
  https://docs.perplexity.ai/docs/agent-api/migrate-from-sonar/how-to.md
- xAI marks Chat Completions deprecated in favour of its Responses API, with no shutdown date:
  https://docs.x.ai/developers/model-capabilities/text/comparison
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from provcat import iModel, match_endpoint, resolve
from provcat.endpoints.lifecycle import endpoint_state
from provcat.errors import EndpointDeprecated, EndpointNotFound, EndpointRetired
from provcat.strict import set_strict


@pytest.fixture(autouse=True)
def _not_strict() -> Iterator[None]:
    set_strict(False)
    yield
    set_strict(None)


def test_a_retired_endpoint_warns_every_time_and_names_its_successor() -> None:
    for _ in range(2):  # never answered from the fast path without the warning
        with pytest.warns(EndpointDeprecated) as caught:
            endpoint = match_endpoint("perplexity", "chat")
        (warning,) = [w.message for w in caught if isinstance(w.message, EndpointDeprecated)]
        assert warning.retired and warning.successor == "v1/agent"
        assert warning.shutdown_date == "2026-09-27"
        assert "perplexity/chat/completions' is retired since 2026-09-27" in str(warning)
        assert endpoint.config.endpoint == "chat/completions"


def test_a_retired_endpoint_raises_in_strict_mode_and_sends_nothing(
    server: tuple[str, list[dict[str, Any]]],
) -> None:
    url, seen = server
    set_strict(True)
    with pytest.raises(EndpointRetired, match="use its successor 'v1/agent'") as caught:
        endpoint = match_endpoint("perplexity", "chat", base_url=url, allow_local_network=True)
        asyncio.run(endpoint.call({"messages": []}))
    assert caught.value.successor == "v1/agent"
    with pytest.raises(EndpointRetired):
        iModel(provider="perplexity", endpoint="chat")
    assert seen == []
    match_endpoint("perplexity", "agent")  # its successor resolves


def test_naming_no_endpoint_says_which_listed_one_is_retired() -> None:
    """Perplexity lists its retired Sonar endpoint beside the Agent API: the "name one" error
    must not send a caller to the retired one."""
    with pytest.raises(EndpointNotFound) as caught:
        match_endpoint("perplexity")
    assert "name one (chat/completions is retired, use v1/agent)" in str(caught.value)
    with pytest.raises(EndpointNotFound) as caught:
        match_endpoint("xai")  # deprecated, not retired: nothing to say yet
    assert "is retired" not in str(caught.value)


def test_a_deprecated_endpoint_warns_with_no_shutdown_date() -> None:
    set_strict(True)  # deprecated is never an error
    with pytest.warns(EndpointDeprecated, match="no shutdown date announced") as caught:
        iModel(provider="xai", endpoint="chat")
    (warning,) = [w.message for w in caught if isinstance(w.message, EndpointDeprecated)]
    assert not warning.retired and warning.successor == "responses"


def test_endpoints_without_a_lifecycle_do_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        match_endpoint("xai", "responses")
        match_endpoint("perplexity", "v1/agent")
        match_endpoint("openai", "chat")


def test_the_record_tells_inspection_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        record = resolve("perplexity", "chat")
    assert record.lifecycle is not None
    assert record.lifecycle["status"] == "retired"
    assert endpoint_state(record) == "retired"
    xai = resolve("xai", "chat")
    assert endpoint_state(xai, date(2026, 12, 1)) == "deprecated"
    assert endpoint_state(resolve("xai", "responses")) == "active"
