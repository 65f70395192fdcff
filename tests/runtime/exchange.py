"""One call of an endpoint against the recording server (conftest's ``server``): what reached it,
or proof that nothing did. Shared by the vendor endpoint tests."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from provcat.errors import EndpointConfigurationError


def sent_unchanged(ep: Any, body: dict[str, Any], seen: list[dict[str, Any]], path: str) -> Any:
    """Call ``ep`` with ``body``: exactly one request reached the server, at ``path``, carrying
    ``body`` unchanged. Returns that request (path, headers, body)."""
    asyncio.run(ep.call(body))
    (request,) = seen
    assert request["path"] == path
    assert json.loads(request["body"]) == body
    return request


def refused(
    ep: Any, body: dict[str, Any], seen: list[dict[str, Any]], match: str
) -> EndpointConfigurationError:
    """``ep`` refuses ``body`` with an EndpointConfigurationError matching ``match``, and nothing
    reached the server. Returns the error."""
    with pytest.raises(EndpointConfigurationError, match=match) as caught:
        asyncio.run(ep.call(body))
    assert seen == []
    return caught.value
