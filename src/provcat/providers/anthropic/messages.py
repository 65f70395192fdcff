"""The Messages endpoint class: what the API version it sends refuses, checked before sending.

The request model (:mod:`provcat.endpoints.protocols.anthropic_messages`) holds every field of
every API version; the version is a header (``anthropic-version``). Version 2026-10-21, the
catalog's and the anthropic SDK's default from 2.0.0, refuses the sampling parameters (at any
value), a document block placed directly in an assistant message and citations on a user
message's text block; 2023-06-01 still takes them.

Source: https://platform.claude.com/docs/en/api/migration-2026-10-21
"""

import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from provcat.endpoints.config import EndpointConfig
from provcat.endpoints.endpoint import Endpoint
from provcat.errors import EndpointConfigurationError, RequestProblem, RequestValidationError

__all__ = ["MessagesEndpoint", "api_version", "version_problems"]

SAMPLING = ("temperature", "top_k", "top_p")
OLDER = "match_endpoint(..., default_headers={'anthropic-version': '2023-06-01'})"
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def api_version(headers: Mapping[str, str]) -> str | None:
    """The ``anthropic-version`` header's value, whatever the case of its name."""
    for name, value in headers.items():
        if name.casefold() == "anthropic-version":
            return value
    return None


def version_problems(body: Mapping[str, Any], version: str) -> list[RequestProblem]:
    """What API ``version`` refuses in a valid ``body``: nothing before 2026-10-21 (a version
    is its date, so the strings compare as the dates do)."""
    if not (_DATE.fullmatch(version) and version >= "2026-10-21"):
        return []
    refused = f"API version {version} (the anthropic-version header) refuses"
    older = f"or send API version 2023-06-01: {OLDER}"
    problems = [
        RequestProblem(
            name,
            f"is a sampling parameter, which {refused} on every model",
            "leave it out, or, for a model that takes sampling options, send API version "
            f"2023-06-01: {OLDER}",
        )
        for name in SAMPLING
        if name in body
    ]
    for i, message in enumerate(body.get("messages") or ()):
        blocks = message.get("content") if isinstance(message, Mapping) else None
        if not isinstance(blocks, list):
            continue
        role = message.get("role")
        for j, block in enumerate(blocks):
            if not isinstance(block, Mapping):
                continue
            if role == "assistant" and block.get("type") == "document":
                problems.append(
                    RequestProblem(
                        f"messages.{i}.content.{j}",
                        f"is a document block in an assistant message, which {refused}",
                        f"send the document in a user message, {older}",
                    )
                )
            elif role == "user" and block.get("type") == "text" and block.get("citations"):
                problems.append(
                    RequestProblem(
                        f"messages.{i}.content.{j}.citations",
                        f"are citations on a user message's text block, which {refused}",
                        f"leave them out, {older}",
                    )
                )
    return problems


class MessagesEndpoint(Endpoint):
    """The Messages endpoint: the request model's checks, then what the API version it sends
    refuses (:func:`version_problems`), all before anything is sent. A version that is no date,
    or request defaults the version refuses, are refused when the endpoint is made."""

    def __init__(
        self,
        config: EndpointConfig | None = None,
        *,
        request_defaults: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(config, request_defaults=request_defaults)
        where = f"{self.config.provider}/{self.config.endpoint}"
        version = api_version(self.config.default_headers)
        if version is not None and not _DATE.fullmatch(version):
            raise EndpointConfigurationError(
                "default_headers",
                f"{where}: the anthropic-version header is {version!r}; an API version is a "
                "date such as '2026-10-21' or '2023-06-01', with no spaces",
            )
        problems = version_problems(self.request_defaults, version) if version else []
        if problems:
            first = problems[0]
            raise EndpointConfigurationError(
                "request_defaults",
                f"{where}: request default '{first.location}' {first.message}; leave it out of "
                f"request_defaults (iModel's settings), or send API version 2023-06-01: {OLDER}",
            )

    def payload(
        self, request: Mapping[str, Any] | BaseModel | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        body = super().payload(request, **kwargs)
        version = api_version(self.config.default_headers)
        problems = version_problems(body, version) if version is not None else []
        if problems:
            raise RequestValidationError(self.config.provider, self.config.endpoint, problems)
        return body
