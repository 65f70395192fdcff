"""JSON responses with sorted keys, and the protocol's error body for every failure."""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import JSONResponse

from provcat.hub.errors import AuthenticationError, HubError

__all__ = ["SortedJSON", "error_response"]


class SortedJSON(JSONResponse):
    """Deterministic JSON: sorted keys, UTF-8, compact.

    Text that UTF-8 cannot encode (a lone surrogate in a row stored before pushes were checked)
    is written as a JSON ``\\u`` escape instead of failing the whole response.
    """

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(content, sort_keys=True, separators=(",", ":")).encode("ascii")


def error_response(error: HubError) -> SortedJSON:
    headers = dict(error.headers)
    if isinstance(error, AuthenticationError):
        headers.setdefault("WWW-Authenticate", 'Bearer realm="provcat-hub"')
    return SortedJSON(error.body(), status_code=error.status, headers=headers)
