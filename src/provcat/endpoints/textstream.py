"""One text stream over any chat-like protocol's events: text, reasoning and tool-call deltas in
one shape (:class:`Delta`), ending with the stream's usage and stop reason.

The vendors' raw events stay available: each delta carries the event it came from, and
:meth:`Endpoint.stream` still yields the events themselves. Shapes are recognised by the events'
own fields, never by the provider, so an OpenAI-compatible vendor reads as OpenAI does:

- Chat Completions chunks (``choices[].delta``: ``content``, ``refusal``, ``tool_calls``, and
  the ``reasoning_content`` some compatible vendors add; Mistral's ``content`` may be a list of
  text and thinking chunks, mistralai's ``DeltaMessage``):
  https://developers.openai.com/api/reference/chat-streaming
- Messages events (``content_block_start`` / ``content_block_delta`` with ``text_delta``,
  ``thinking_delta``, ``input_json_delta``; ``message_delta``):
  https://platform.claude.com/docs/en/build-with-claude/streaming
- Responses events (``response.output_text.delta``, ``response.refusal.delta``,
  ``response.output_item.added``,
  ``response.function_call_arguments.delta``, ``response.completed``):
  https://developers.openai.com/api/reference/responses-streaming
- Gemini ``streamGenerateContent`` chunks (``candidates[].content.parts[]``: ``text``, ``thought``,
  ``functionCall``): https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
- Ollama ``/api/chat`` and ``/api/generate`` lines (``message``, ``response``, ``done``):
  https://github.com/ollama/ollama/blob/main/docs/api.md
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from provcat.models.usage import TokenUsage, UsageTracker

__all__ = ["Delta", "text_stream", "text_stream_sync"]

Kind = Literal["text", "reasoning", "refusal", "tool_call", "end"]


@dataclass(frozen=True, slots=True)
class Delta:
    """One piece of a streamed answer.

    - ``kind == "text"``: ``text`` is the next piece of the answer's text;
    - ``kind == "reasoning"``: ``text`` is the next piece of the reasoning the vendor shows;
    - ``kind == "refusal"``: ``text`` is the next piece of the refusal the model gave instead of
      an answer (OpenAI's ``refusal``);
    - ``kind == "tool_call"``: ``arguments`` is the next piece of the JSON arguments of the tool
      call ``tool_index`` (the same number for every piece of one call), whose ``tool_id`` and
      ``tool_name`` are repeated on every piece once known;
    - ``kind == "end"``: the last item: ``usage`` is the stream's token usage (None if the vendor
      reported none) and ``stop_reason`` the vendor's own reason for stopping.

    ``choice`` is the choice (candidate) index where a vendor streams several; ``event`` is the
    raw event the piece came from (None for the end).
    """

    kind: Kind
    text: str = ""
    tool_index: int | None = None
    tool_id: str | None = None
    tool_name: str | None = None
    arguments: str = ""
    choice: int = 0
    usage: TokenUsage | None = None
    stop_reason: str | None = None
    event: Any = field(default=None, repr=False, compare=False)


def _chunks(content: list[Any], choice: int, event: Any) -> list[Delta]:
    """The deltas of a content given as a list of chunks: ``{"type": "text", "text"}`` and
    ``{"type": "thinking", "thinking": [text chunks]}`` (Mistral's ``DeltaMessage.content``)."""
    out: list[Delta] = []
    for chunk in content:
        if not isinstance(chunk, Mapping):
            continue
        if chunk.get("type") == "text" and isinstance(chunk.get("text"), str) and chunk["text"]:
            out.append(Delta("text", text=chunk["text"], choice=choice, event=event))
        elif chunk.get("type") == "thinking" and isinstance(chunk.get("thinking"), list):
            text = "".join(
                part["text"]
                for part in chunk["thinking"]
                if isinstance(part, Mapping) and isinstance(part.get("text"), str)
            )
            if text:
                out.append(Delta("reasoning", text=text, choice=choice, event=event))
    return out


class _Reader:
    """The deltas of one stream, event by event (the tool calls seen so far, the stop reason,
    the usage)."""

    def __init__(self) -> None:
        self.tools: dict[tuple[int, int], tuple[str | None, str | None]] = {}
        self.stop_reason: str | None = None
        self.usage = UsageTracker()

    def tool(
        self,
        event: Any,
        index: int,
        choice: int = 0,
        tool_id: str | None = None,
        name: str | None = None,
        arguments: str = "",
    ) -> Delta:
        known_id, known_name = self.tools.get((choice, index), (None, None))
        tool_id, name = tool_id or known_id, name or known_name
        self.tools[(choice, index)] = (tool_id, name)
        return Delta(
            "tool_call",
            tool_index=index,
            tool_id=tool_id,
            tool_name=name,
            arguments=arguments,
            choice=choice,
            event=event,
        )

    def read(self, event: Any) -> list[Delta]:
        self.usage.add(event)
        if not isinstance(event, Mapping):
            return []
        kind = event.get("type")
        if isinstance(kind, str) and kind.startswith("response."):
            return self._responses(event, kind)
        if isinstance(kind, str) and kind.startswith(("message_", "content_block_")):
            return self._messages(event, kind)
        if isinstance(event.get("choices"), list):
            return self._chat(event)
        if isinstance(event.get("candidates"), list):
            return self._gemini(event)
        if "done" in event and ("message" in event or "response" in event):
            return self._ollama(event)
        return []

    def _chat(self, event: Mapping[str, Any]) -> list[Delta]:
        out: list[Delta] = []
        for position, choice in enumerate(event["choices"]):
            if not isinstance(choice, Mapping):
                continue
            number = choice.get("index", position)
            number = number if isinstance(number, int) else position
            delta = choice.get("delta") or {}
            reasoning = delta.get("reasoning_content") or delta.get("reasoning")
            if isinstance(reasoning, str) and reasoning:
                out.append(Delta("reasoning", text=reasoning, choice=number, event=event))
            refusal = delta.get("refusal")
            if isinstance(refusal, str) and refusal:
                out.append(Delta("refusal", text=refusal, choice=number, event=event))
            content = delta.get("content")
            if isinstance(content, str) and content:
                out.append(Delta("text", text=content, choice=number, event=event))
            elif isinstance(content, list):  # content chunks (Mistral's text and thinking)
                out.extend(_chunks(content, number, event))
            for i, call in enumerate(delta.get("tool_calls") or ()):
                function = call.get("function") or {}
                index = call.get("index", i)
                out.append(
                    self.tool(
                        event,
                        index if isinstance(index, int) else i,
                        number,
                        call.get("id"),
                        function.get("name"),
                        function.get("arguments") or "",
                    )
                )
            if choice.get("finish_reason"):
                self.stop_reason = str(choice["finish_reason"])
        return out

    def _messages(self, event: Mapping[str, Any], kind: str) -> list[Delta]:
        index = event.get("index", 0)
        if kind == "content_block_start":
            block = event.get("content_block") or {}
            if block.get("type") in ("tool_use", "server_tool_use"):
                given = block.get("input")
                arguments = json.dumps(given) if given else ""  # the start holds {} as a rule
                return [self.tool(event, index, 0, block.get("id"), block.get("name"), arguments)]
            if block.get("type") == "text" and block.get("text"):
                return [Delta("text", text=block["text"], event=event)]
            return []
        if kind == "content_block_delta":
            delta = event.get("delta") or {}
            if delta.get("type") == "text_delta":
                return [Delta("text", text=delta.get("text", ""), event=event)]
            if delta.get("type") == "thinking_delta":
                return [Delta("reasoning", text=delta.get("thinking", ""), event=event)]
            if delta.get("type") == "input_json_delta":
                return [self.tool(event, index, arguments=delta.get("partial_json", ""))]
            return []
        if kind == "message_delta":
            reason = (event.get("delta") or {}).get("stop_reason")
            if reason:
                self.stop_reason = str(reason)
        return []

    def _responses(self, event: Mapping[str, Any], kind: str) -> list[Delta]:
        index = event.get("output_index", 0)
        if kind == "response.output_text.delta":
            return [Delta("text", text=event.get("delta", ""), event=event)]
        if kind == "response.refusal.delta":
            return [Delta("refusal", text=event.get("delta", ""), event=event)]
        if kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            return [Delta("reasoning", text=event.get("delta", ""), event=event)]
        if kind == "response.output_item.added":
            item = event.get("item") or {}
            if item.get("type") == "function_call":
                return [
                    self.tool(
                        event,
                        index,
                        0,
                        item.get("call_id"),
                        item.get("name"),
                        item.get("arguments") or "",
                    )
                ]
            return []
        if kind == "response.function_call_arguments.delta":
            return [self.tool(event, index, arguments=event.get("delta", ""))]
        if kind in ("response.completed", "response.incomplete", "response.failed"):
            response = event.get("response") or {}
            details = response.get("incomplete_details") or {}
            self.stop_reason = details.get("reason") or response.get("status")
        return []

    def _gemini(self, event: Mapping[str, Any]) -> list[Delta]:
        out: list[Delta] = []
        for position, candidate in enumerate(event["candidates"]):
            number = candidate.get("index", position)
            parts = (candidate.get("content") or {}).get("parts") or ()
            for part in parts:
                if isinstance(part.get("text"), str) and part["text"]:
                    kind: Kind = "reasoning" if part.get("thought") else "text"
                    out.append(Delta(kind, text=part["text"], choice=number, event=event))
                call = part.get("functionCall")
                if isinstance(call, Mapping):  # sent whole: one delta per call
                    index = len([k for k in self.tools if k[0] == number])
                    arguments = json.dumps(call.get("args") or {})
                    out.append(
                        self.tool(event, index, number, call.get("id"), call.get("name"), arguments)
                    )
            if candidate.get("finishReason"):
                self.stop_reason = str(candidate["finishReason"])
        return out

    def _ollama(self, event: Mapping[str, Any]) -> list[Delta]:
        out: list[Delta] = []
        message = event.get("message") or {}
        thinking = message.get("thinking") or event.get("thinking")
        if isinstance(thinking, str) and thinking:
            out.append(Delta("reasoning", text=thinking, event=event))
        text = message.get("content") if message else event.get("response")
        if isinstance(text, str) and text:
            out.append(Delta("text", text=text, event=event))
        for call in message.get("tool_calls") or ():
            function = call.get("function") or {}
            index = function.get("index", len(self.tools))
            arguments = function.get("arguments")
            out.append(
                self.tool(
                    event,
                    index,
                    0,
                    call.get("id"),
                    function.get("name"),
                    arguments if isinstance(arguments, str) else json.dumps(arguments or {}),
                )
            )
        if event.get("done") and event.get("done_reason"):
            self.stop_reason = str(event["done_reason"])
        return out

    def end(self) -> Delta:
        return Delta("end", usage=self.usage.usage, stop_reason=self.stop_reason)


async def text_stream(events: AsyncIterable[Any]) -> AsyncIterator[Delta]:
    """The deltas of a stream's raw ``events`` (what :meth:`Endpoint.stream` yields), then one
    ``end`` delta with the usage and the stop reason."""
    reader = _Reader()
    async for event in events:
        for delta in reader.read(event):
            yield delta
    yield reader.end()


def text_stream_sync(events: Iterable[Any]) -> Iterator[Delta]:
    """:func:`text_stream` over a blocking stream (what :meth:`Endpoint.stream_sync` returns)."""
    reader = _Reader()
    for event in events:
        yield from reader.read(event)
    yield reader.end()
