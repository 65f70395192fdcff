"""probe() through its client seam only: no test touches the network."""

from __future__ import annotations

import dataclasses
import json
import sys
from types import SimpleNamespace
from typing import Any

import pytest

from provcat.toolschema import classify_provider_error, get_target, probe
from tests.toolschema.conftest import FIXTURES


class APIError(Exception):
    def __init__(self, message: str, status: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status
        self.code = code


class Recorder:
    """An SDK-shaped client for every protocol; returns ``response`` or raises ``error``."""

    def __init__(self, response: Any = None, error: BaseException | None = None) -> None:
        self.calls: list[dict[str, Any]] = []
        self.response, self.error = response, error
        self.responses = SimpleNamespace(create=self._create)
        self.messages = SimpleNamespace(create=self._create)
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))
        self.models = SimpleNamespace(generate_content=self._create)

    def _create(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        if self.error is not None:
            raise self.error
        return self.response


def responses_call(args: dict[str, Any]) -> Any:
    return {
        "output": [{"type": "function_call", "name": "refund_order", "arguments": json.dumps(args)}]
    }


def test_accepted_with_valid_arguments_null_meaning_omitted() -> None:
    client = Recorder(responses_call({"orderId": "o-1", "amount": None}))
    result = probe(FIXTURES["refund_order"], "openai", client=client)
    assert result.status == "accepted" and result.schema_accepted and result.tool_call_returned
    assert result.arguments_valid is True and result.model == "gpt-6-luna"
    (call,) = client.calls
    assert call["tools"][0]["strict"] is True
    assert call["tool_choice"] == {"type": "function", "name": "refund_order"}
    assert call["max_output_tokens"] == 1024


def test_accepted_but_wrong_shape_is_checked_against_the_canonical_schema() -> None:
    client = Recorder(responses_call({"orderId": "o-1", "amount": -5}))
    result = probe(FIXTURES["refund_order"], "openai", client=client)
    assert result.status == "accepted" and result.arguments_valid is False
    assert result.argument_errors and "minimum" in result.argument_errors[0]
    data = result.model_dump(mode="json", by_alias=True)
    assert data["argumentsReceived"] == {"orderId": "o-1", "amount": -5}


def test_rejected_is_the_only_schema_verdict() -> None:
    client = Recorder(error=APIError("Invalid schema for function 'refund_order'", 400))
    result = probe(FIXTURES["refund_order"], "openai", client=client)
    assert result.status == "rejected" and result.provider_error is not None
    assert result.provider_error.status == 400 and result.error_kind is None


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (APIError("Rate limit reached", 429), "rate-limit"),
        (APIError("Incorrect API key provided", 401), "authentication"),
        (APIError("The model `gpt-x` does not exist", 404), "model-not-found"),
        (
            APIError("The model gpt-x does not exist or you do not have access", 400),
            "model-not-found",
        ),
        (APIError("upstream failure", 503), "network"),
        (APIError("getaddrinfo failed", code="ENOTFOUND"), "network"),
        (ConnectionError("connection reset"), "network"),
        (APIError("something odd"), "unknown"),
    ],
)
def test_environment_failures_are_never_rejections(error: BaseException, kind: str) -> None:
    result = probe(FIXTURES["refund_order"], "openai", client=Recorder(error=error))
    assert result.status == "error" and result.error_kind == kind
    assert not result.schema_accepted


def test_classify_reads_dicts_too() -> None:
    kind, error = classify_provider_error({"error": {"code": 422, "message": "bad tool schema"}})
    assert kind == "rejected" and error.status == 422


def test_missing_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    result = probe(FIXTURES["refund_order"], "gemini")
    assert result.status == "error" and result.error_kind == "missing-credentials"


def test_secrets_are_redacted_from_provider_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-abcdefghijklmnop")
    error = APIError("bad key sk-test-abcdefghijklmnop", 401)
    result = probe(FIXTURES["refund_order"], "openai", client=Recorder(error=error))
    assert result.provider_error is not None
    assert "abcdefghijklmnop" not in result.provider_error.message


def test_compile_refused_is_never_sent() -> None:
    client = Recorder(responses_call({}))
    result = probe(FIXTURES["tag_resource"], "openai", client=client)
    assert result.status == "error" and result.error_kind == "compile-refused"
    assert client.calls == []


def test_mcp_is_skipped() -> None:
    assert probe(FIXTURES["refund_order"], "mcp").status == "skipped"


def test_anthropic_and_gemini_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    block = {"type": "tool_use", "name": "refund_order", "input": {"orderId": "o"}}
    anthropic = Recorder({"content": [block], "stop_reason": "tool_use"})
    result = probe(FIXTURES["refund_order"], "anthropic", client=anthropic)
    assert result.status == "accepted" and result.arguments_valid is True
    assert result.model == "claude-haiku-5-5"  # a model of the anthropic provider's inventory
    assert anthropic.calls[0]["tool_choice"] == {"type": "tool", "name": "refund_order"}
    stopped = probe(
        FIXTURES["refund_order"],
        "anthropic",
        client=Recorder({"content": [], "stop_reason": "max_tokens"}),
    )
    assert stopped.status == "accepted" and not stopped.tool_call_returned and stopped.notes
    part = {"function_call": {"name": "refund_order", "args": {"orderId": "o", "amount": 3}}}
    gemini = Recorder({"candidates": [{"content": {"parts": [part]}}]})
    monkeypatch.setenv("PROVCAT_GEMINI_PROBE_MODEL", "gemini-next")
    result = probe(FIXTURES["refund_order"], "gemini", client=gemini)
    assert result.status == "accepted" and result.arguments_valid is True
    assert result.model == "gemini-next"
    chat = Recorder(
        {
            "choices": [
                {
                    "message": {
                        "tool_calls": [
                            {
                                "function": {
                                    "name": "refund_order",
                                    "arguments": '{"orderId": "o", "amount": null}',
                                }
                            }
                        ]
                    }
                }
            ]
        }
    )
    result = probe(FIXTURES["refund_order"], "openai-chat", client=chat, model="gpt-x")
    assert result.arguments_valid is True and result.model == "gpt-x"
    # gpt-6-luna, the default, calls functions on Chat Completions only with no reasoning
    assert chat.calls[0]["reasoning_effort"] == "none"


def test_gemini_json_schema_and_openai_compatibility_shapes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    part = {"function_call": {"name": "refund_order", "args": {"orderId": "o", "amount": 3}}}
    gemini = Recorder({"candidates": [{"content": {"parts": [part]}}]})
    result = probe(FIXTURES["refund_order"], "gemini-json-schema", client=gemini)
    assert result.status == "accepted" and result.arguments_valid is True
    (declaration,) = gemini.calls[0]["config"]["tools"][0]["function_declarations"]
    assert declaration["parametersJsonSchema"] == FIXTURES["refund_order"]["inputSchema"]
    assert "tool_choice" not in gemini.calls[0]
    call = {"function": {"name": "refund_order", "arguments": '{"orderId": "o"}'}}
    compat = Recorder({"choices": [{"message": {"tool_calls": [call]}}]})
    result = probe(FIXTURES["refund_order"], "gemini-openai", client=compat)
    assert result.status == "accepted" and result.arguments_valid is True
    sent = compat.calls[0]
    assert sent["tool_choice"] == {"type": "function", "function": {"name": "refund_order"}}
    assert sent["tools"][0]["function"]["parameters"] == FIXTURES["refund_order"]["inputSchema"]


def test_the_sdk_client_gets_the_targets_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[dict[str, Any]] = []

    def factory(**kwargs: Any) -> Recorder:
        made.append(kwargs)
        return Recorder({"choices": []})

    monkeypatch.setitem(sys.modules, "openai", SimpleNamespace(OpenAI=factory))
    monkeypatch.setenv("GEMINI_API_KEY", "k-secret")
    result = probe(FIXTURES["refund_order"], "gemini-openai")
    assert result.status == "accepted" and not result.tool_call_returned
    assert made == [
        {
            "api_key": "k-secret",
            "base_url": "https://generativelanguage.googleapis.com/v1beta/openai/",
        }
    ]
    monkeypatch.setenv("OPENAI_API_KEY", "k2")
    probe(FIXTURES["refund_order"], "openai-chat")
    assert made[-1] == {"api_key": "k2"}


def test_a_new_request_shape_is_target_data_only() -> None:
    """A target whose API is called and answered differently needs no probe code."""
    base = get_target("openai")
    spec = {
        **base.probe,
        "method": ["agents", "invoke"],
        "request": {"model": "$model", "ask": {"text": "$prompt", "fns": ["$tool"]}},
        "pin": {"force": "$name"},
        "tool_calls": {
            "at": ["steps", "*"],
            "where": {"kind": "call"},
            "name": ["fn"],
            "arguments": ["with"],
        },
    }
    target = dataclasses.replace(base, probe=spec)
    seen: list[dict[str, Any]] = []

    def invoke(**kwargs: Any) -> Any:
        seen.append(kwargs)
        steps = [{"kind": "text"}, {"kind": "call", "fn": "refund_order", "with": {"orderId": "o"}}]
        return {"steps": steps}

    client = SimpleNamespace(agents=SimpleNamespace(invoke=invoke))
    result = probe(FIXTURES["refund_order"], target, client=client, model="m1")
    assert result.status == "accepted" and result.arguments_valid is True
    assert result.arguments_received == {"orderId": "o"}
    (request,) = seen
    assert request["model"] == "m1" and request["force"] == "refund_order"
    assert request["ask"]["fns"][0]["name"] == "refund_order"


def test_the_commands_text_says_what_the_vendor_said_and_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Found by a new user: `provcat tool probe` printed "rejected" or "error (network)" without
    the vendor's message (only --format json had it), and a missing SDK's note said "or pass a
    client", which the command line cannot."""
    from click.testing import CliRunner

    from provcat.cli.main import main

    tool = tmp_path / "refund.json"
    tool.write_text(json.dumps(FIXTURES["refund_order"]), encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-abcdefghijklmnop")

    def run() -> str:
        result = CliRunner().invoke(main, ["tool", "probe", str(tool), "--targets", "openai"])
        assert "abcdefghijklmnop" not in result.output
        return result.output

    monkeypatch.setitem(sys.modules, "openai", None)  # not installed: importing it fails
    assert "`pip install openai`" in run()
    refused = APIError(
        "Invalid schema for function 'refund_order': sk-test-abcdefghijklmnop\x1b[2K\nok", 400
    )
    monkeypatch.setitem(
        sys.modules, "openai", SimpleNamespace(OpenAI=lambda **_: Recorder(error=refused))
    )
    said = run()
    assert "    HTTP 400: Invalid schema for function 'refund_order'" in said
    assert "\\x1b[2K" in said and "\x1b" not in said  # no escape reaches the terminal
    wrong = Recorder(responses_call({"orderId": "o-1", "amount": -5}))
    monkeypatch.setitem(sys.modules, "openai", SimpleNamespace(OpenAI=lambda **_: wrong))
    assert "    arguments: $.amount" in run()
