"""Anthropic's API version 2026-10-21: what it refuses is refused before anything is sent.

Source: https://platform.claude.com/docs/en/api/migration-2026-10-21 (breaking changes of the
Messages API under 2026-10-21: ``temperature``, ``top_p`` and ``top_k`` return an error even at
their defaults; a document block placed directly in an assistant message returns an error;
non-empty citations on a text block in a user message return an error). 2023-06-01 is still
served and takes them.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from provcat import match_endpoint
from provcat.endpoints.pool import ConnectionPool
from provcat.errors import EndpointConfigurationError, RequestValidationError

OLD = {"anthropic-version": "2023-06-01"}


async def _public(host: str, port: int) -> list[str]:
    return ["93.184.216.34"]  # api.anthropic.com, as a public address; nothing leaves the host


def _pool(answer: Any) -> ConnectionPool:
    return ConnectionPool(transport=httpx.MockTransport(answer), resolver=_public)


def _body(**extra: Any) -> dict[str, Any]:
    return {
        "model": "claude-sonnet-5-5",
        "max_tokens": 16,
        "messages": [{"role": "user", "content": "hi"}],
        **extra,
    }


def _send(body: dict[str, Any], **settings: Any) -> list[httpx.Request]:
    """Call the Anthropic endpoint through a transport that records what reaches it."""
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"type": "message", "content": []})

    async def run() -> None:
        ep = match_endpoint("anthropic", "messages", api_key="sk-ant-test0000", **settings)
        async with _pool(answer) as pool:
            await ep.call(body, client=pool)

    asyncio.run(run())
    return seen


@pytest.mark.parametrize(("name", "value"), [("temperature", 1.0), ("top_p", 0.9), ("top_k", 5)])
def test_a_sampling_parameter_is_refused_under_the_default_version(name: str, value: Any) -> None:
    with pytest.raises(RequestValidationError) as caught:
        _send(_body(**{name: value}))  # the default value (temperature 1.0) too
    error = caught.value
    assert error.field == name
    assert "2026-10-21" in str(error)
    assert "'anthropic-version': '2023-06-01'" in str(error)  # the way to keep sampling


def test_nothing_is_sent_when_the_version_refuses_the_request() -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={})

    async def run() -> None:
        ep = match_endpoint("anthropic", "messages", api_key="sk-ant-test0000")
        async with _pool(answer) as pool:
            await ep.call(_body(temperature=0.2), client=pool)

    with pytest.raises(RequestValidationError):
        asyncio.run(run())
    assert seen == []


def test_every_refused_part_is_reported_at_once() -> None:
    body = _body(
        temperature=0.2,
        messages=[
            {
                "role": "user",
                "content": [
                    {
                        "type": "text",
                        "text": "as the report says",
                        "citations": [{"type": "char_location", "cited_text": "x"}],
                    }
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "document",
                        "source": {"type": "text", "data": "d", "media_type": "text/plain"},
                    }
                ],
            },
        ],
    )
    with pytest.raises(RequestValidationError) as caught:
        _send(body)
    assert [p.location for p in caught.value.problems] == [
        "temperature",
        "messages.0.content.0.citations",
        "messages.1.content.0",
    ]
    assert "user message" in caught.value.problems[2].suggestion  # where a document goes


def test_what_the_new_version_still_takes_is_sent() -> None:
    document = {
        "type": "document",
        "source": {"type": "text", "data": "d", "media_type": "text/plain"},
    }
    body = _body(
        messages=[
            {"role": "user", "content": [document, {"type": "text", "text": "t", "citations": []}]},
            {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
            {"role": "user", "content": "thanks"},
        ]
    )
    (request,) = _send(body)
    assert request.headers["anthropic-version"] == "2026-10-21"
    assert json.loads(request.content)["messages"] == body["messages"]


def test_api_version_2023_06_01_still_takes_sampling_parameters() -> None:
    (request,) = _send(_body(temperature=0.2, top_k=5), default_headers=OLD)
    assert request.headers["anthropic-version"] == "2023-06-01"
    sent = json.loads(request.content)
    assert (sent["temperature"], sent["top_k"]) == (0.2, 5)


def test_default_headers_add_to_the_catalogs_as_the_sdk_does() -> None:
    """The anthropic SDK's ``default_headers`` are added to its own; the version header stays
    (without it the API refuses every request)."""
    (request,) = _send(_body(), default_headers={"anthropic-beta": "files-api-2025-04-14"})
    assert request.headers["anthropic-version"] == "2026-10-21"
    assert request.headers["anthropic-beta"] == "files-api-2025-04-14"


def test_a_default_header_given_in_another_case_replaces_the_catalogs() -> None:
    (request,) = _send(_body(temperature=0.5), default_headers={"Anthropic-Version": "2023-06-01"})
    assert request.headers.get_list("anthropic-version") == ["2023-06-01"]


def test_a_sampling_request_default_is_refused_when_the_endpoint_is_made() -> None:
    """Not on every later call: the value came from the construction, which says where it is."""
    with pytest.raises(EndpointConfigurationError) as caught:
        match_endpoint("anthropic", "messages", request_defaults={"temperature": 0.2})
    assert caught.value.field == "request_defaults"
    assert "'temperature'" in str(caught.value) and "2023-06-01" in str(caught.value)
    kept = match_endpoint(
        "anthropic", "messages", request_defaults={"temperature": 0.2}, default_headers=OLD
    )
    assert kept.request_defaults == {"temperature": 0.2}


@pytest.mark.parametrize("version", [" 2026-10-21 ", "latest", "2026-10-21T00:00"])
def test_an_api_version_that_is_no_date_is_refused_when_the_endpoint_is_made(version: str) -> None:
    # the versioning page: "anthropic-version: 2023-06-01", a version is its release date; a
    # padded value fails in the HTTP client as an illegal header, which reads as a network error
    with pytest.raises(EndpointConfigurationError, match="is a date such as") as caught:
        match_endpoint("anthropic", "messages", default_headers={"anthropic-version": version})
    assert caught.value.field == "default_headers"


def test_a_default_header_given_as_none_is_not_sent() -> None:
    ep = match_endpoint(
        "anthropic", "messages", default_headers={"anthropic-version": None, "x-trace": "t1"}
    )
    assert ep.config.default_headers == {"x-trace": "t1"}


def test_one_header_given_in_two_cases_is_refused() -> None:
    with pytest.raises(EndpointConfigurationError, match="one header in two cases") as caught:
        match_endpoint(
            "anthropic",
            "messages",
            default_headers={"anthropic-version": "2023-06-01", "ANTHROPIC-VERSION": "2026-10-21"},
        )
    assert caught.value.field == "default_headers"
