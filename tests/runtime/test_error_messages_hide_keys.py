"""A key pasted where a provider, endpoint, model or target name goes is not repeated by the
error that refuses it (an application logs such errors): it is written `<redacted>`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from provcat import estimate_cost, get_model, match_endpoint
from provcat.errors import EndpointNotFound, ModelNotFound
from provcat.toolschema import UnknownTargetError, compile_tool

OPENAI_KEY = "sk-proj-" + "Ab3dEf6h" * 4
ANTHROPIC_KEY = "sk-ant-api03-" + "Zy9xWv8u" * 5
GOOGLE_KEY = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"  # the shape of Google's documented example
TOOL = {"name": "t", "description": "d", "inputSchema": {"type": "object"}}


@pytest.mark.parametrize("key", [OPENAI_KEY, ANTHROPIC_KEY, GOOGLE_KEY])
@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda k: get_model("openai", k), ModelNotFound),
        (lambda k: estimate_cost("openai", k, {"input_tokens": 1}), ModelNotFound),
        (lambda k: match_endpoint(k, "chat"), EndpointNotFound),
        (lambda k: match_endpoint("openai", k), EndpointNotFound),
        (lambda k: compile_tool(TOOL, k), UnknownTargetError),
    ],
    ids=["get_model", "estimate_cost", "provider", "endpoint", "target"],
)
def test_an_error_never_repeats_a_key_given_as_a_name(
    call: Callable[[str], Any], error: type[Exception], key: str
) -> None:
    with pytest.raises(error) as raised:
        call(key)
    assert key not in str(raised.value) and key not in repr(raised.value)
    assert "<redacted>" in str(raised.value)


def test_a_name_that_is_no_key_is_still_named() -> None:
    with pytest.raises(ModelNotFound, match="lists no model 'gpt-5-mni'"):
        get_model("openai", "gpt-5-mni")
