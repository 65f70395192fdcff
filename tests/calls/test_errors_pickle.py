"""Errors survive pickle, as a process pool or a task queue hands them back to the caller: the
same class, message and fields after the round trip (``BaseException`` alone would call the
class with its message only, and every provcat error takes its fields instead)."""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from provcat import get_model, match_endpoint
from provcat.errors import (
    APIError,
    EndpointNotFound,
    InvalidToolError,
    ModelNotFound,
    RateLimitError,
    RequestValidationError,
)
from provcat.toolschema import compile_tool
from tests.calls.conftest import SECRET, Server, replying


def _round_trip(error: BaseException) -> BaseException:
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert str(again) == str(error) and again.args == error.args
    assert vars(again) == vars(error)
    return again


def test_an_api_error_keeps_its_fields(serve: Callable[..., Server]) -> None:
    server = serve(
        replying(
            429,
            b'{"error": {"message": "slow down", "type": "requests", "code": "rate_limit"}}',
            ("Retry-After", "300"),
            ("x-request-id", "req_123"),
        )
    )
    ep = match_endpoint(
        "openai", "chat", base_url=server.url(), allow_local_network=True, api_key=SECRET
    )
    with pytest.raises(RateLimitError) as caught:
        asyncio.run(ep.call({"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}))
    again = _round_trip(caught.value)
    assert isinstance(again, RateLimitError)
    assert (again.status, again.retry_after, again.request_id) == (429, 300.0, "req_123")
    assert (again.error_code, again.vendor_message) == ("rate_limit", "slow down")
    assert SECRET.encode() not in pickle.dumps(caught.value)


def test_a_request_validation_error_keeps_its_problems() -> None:
    ep = match_endpoint("openai", "chat", api_key=SECRET)
    with pytest.raises(RequestValidationError) as caught:
        asyncio.run(ep.call({"model": "gpt-4o", "messages": [], "temprature": 1}))
    again = _round_trip(caught.value)
    assert isinstance(again, RequestValidationError) and isinstance(again, APIError)
    assert again.problems == caught.value.problems and again.problems


def _lookups() -> list[Any]:
    def model() -> None:
        get_model("openai", "gpt-4o-mni")

    def endpoint() -> None:
        match_endpoint("openai", "chatt")

    def tool() -> None:
        compile_tool({"name": "x y", "inputSchema": "object"}, "openai")

    return [(model, ModelNotFound), (endpoint, EndpointNotFound), (tool, InvalidToolError)]


@pytest.mark.parametrize(("fail", "kind"), _lookups(), ids=["model", "endpoint", "tool"])
def test_a_lookup_or_tool_error_keeps_its_fields(fail: Callable[[], None], kind: type) -> None:
    with pytest.raises(kind) as caught:
        fail()
    _round_trip(caught.value)
