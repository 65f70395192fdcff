"""ProviderDiagnostic: one catalog problem found at run time, with its stable ADR-0028 code.

A leaf module: it imports nothing from provcat, so the errors, the snapshot and the shared
key-space validator can all use it without import cycles or pulling in pydantic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["CatalogDiagnosticCode", "ProviderDiagnostic"]

# The ADR-0028 codes. The generator reports the same problems with file positions and a few
# finer codes of its own (generator/codes.py), which map onto these.
CatalogDiagnosticCode = Literal[
    "empty_key",
    "self_alias",
    "duplicate_provider_key",
    "duplicate_endpoint_key",
    "inconsistent_provider_aliases",
    "invalid_endpoint_class",
    "invalid_request_options",
    "invalid_request_default",
    "import_error",
]


@dataclass(frozen=True, slots=True)
class ProviderDiagnostic:
    """One catalog problem, stable code first. Messages are sanitized: no secrets."""

    code: CatalogDiagnosticCode
    provider: str
    endpoint: str | None
    module: str | None
    key: str | None
    message: str
    cause_type: str | None = None

    def sort_key(self) -> tuple[str, str, str, str]:
        return (self.provider, self.endpoint or "", self.code, self.key or "")

    def as_dict(self) -> dict[str, str | None]:
        return {
            "code": self.code,
            "provider": self.provider,
            "endpoint": self.endpoint,
            "module": self.module,
            "key": self.key,
            "message": self.message,
            "cause_type": self.cause_type,
        }
