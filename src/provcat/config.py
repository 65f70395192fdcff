"""EndpointConfig: the endpoint-control fields. Unknown fields are errors, never request data."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

__all__ = ["INHERITED_SETTINGS", "AuthType", "EndpointConfig"]

# The endpoint settings a provider's catalog `defaults` may set for all its endpoints.
INHERITED_SETTINGS = (
    "base_url",
    "auth_type",
    "api_key_env",
    "content_type",
    "timeout",
    "default_headers",
    "requires_tokens",
    "idempotent_retries",
    "serialize_by_alias",
    "allow_local_network",
)

AuthType = Literal["bearer", "x-api-key", "none"]


class EndpointConfig(BaseModel):
    """How to reach one endpoint. Request payload values live in request defaults, not here."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    name: str = Field(description="Instance name, f'{provider}_{endpoint}' for registered ones.")
    provider: str = Field(description="Canonical provider key.")
    endpoint: str = Field(description="Canonical endpoint key as declared.")
    base_url: str | None = Field(None, description="Base URL; None for agentic endpoints.")
    path: str | None = Field(None, description="URL path appended to base_url (default: endpoint).")
    method: Literal["GET", "POST", "PUT", "PATCH", "DELETE"] = "POST"
    auth_type: AuthType = "bearer"
    api_key_env: str | None = Field(None, description="Environment variable read at call time.")
    api_key: SecretStr | None = Field(
        None, description="An explicit key; overrides api_key_env. Never printed."
    )
    content_type: str = "application/json"
    timeout: float = Field(300, gt=0)
    max_retries: int = Field(3, ge=0)
    default_headers: dict[str, str] = Field(default_factory=dict)
    requires_tokens: bool = True
    idempotent_retries: bool = False
    serialize_by_alias: bool = False
    allow_local_network: bool = False
    request_options: type[BaseModel] | None = Field(None, exclude=True)
    openai_compatible: bool = False

    @field_validator("provider")
    @classmethod
    def _provider_is_canonical(cls, value: str) -> str:
        folded = value.strip().casefold()
        if not folded:
            raise ValueError("provider must not be empty")
        return folded

    @field_validator("default_headers")
    @classmethod
    def _no_credentials_in_headers(cls, value: dict[str, str]) -> dict[str, str]:
        for name in value:
            if name.casefold() in ("authorization", "x-api-key"):
                raise ValueError(f"put credentials in api_key or api_key_env, not header '{name}'")
        return value

    @classmethod
    def field_names(cls) -> frozenset[str]:
        return frozenset(cls.model_fields)

    def url(self) -> str:
        """base_url joined with path (or the endpoint key)."""
        if not self.base_url:
            raise ValueError(f"{self.provider}/{self.endpoint} has no base_url")
        return self.base_url.rstrip("/") + "/" + (self.path or self.endpoint).lstrip("/")

    def summary(self) -> dict[str, Any]:
        """A JSON-safe view without the key."""
        return self.model_dump(mode="json", exclude={"api_key", "request_options"})
