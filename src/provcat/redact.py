"""Keep secrets out of messages: the one sanitizer for diagnostics, errors, logs and reprs."""

from __future__ import annotations

import os
import re

__all__ = ["sanitize"]

_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.IGNORECASE)
_SECRET_SHAPES = (
    re.compile(r"\b(sk|pk|rk|gsk|xai|pplx|fc|tvly|nvapi)[-_][A-Za-z0-9_-]{8,}"),
    re.compile(r"(?i)\b(bearer|token|api[-_]?key)\s*[:=]?\s+[A-Za-z0-9._~+/-]{8,}=*"),
    re.compile(r"(?i)\b(authorization|x-api-key)\s*[:=]\s*\S+"),
)
MAX_LENGTH = 300


def sanitize(message: str, *, limit: int = MAX_LENGTH) -> str:
    """Redact secret-looking values and the values of secret-named environment variables."""
    text = message
    for name, value in os.environ.items():
        if len(value) >= 6 and _SECRET_NAME.search(name) and value in text:
            text = text.replace(value, f"<{name} redacted>")
    for shape in _SECRET_SHAPES:
        text = shape.sub("<redacted>", text)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
