"""EndpointConfig: the endpoint-control fields. Unknown fields are errors, never request data.

No ``from __future__ import annotations`` here (as in the request-model modules): pydantic would
compile and evaluate each string annotation at class creation, on the cold path.
"""

from collections.abc import Iterator, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from provcat.redact import url_without_password

__all__ = ["INHERITED_SETTINGS", "AuthType", "EndpointConfig", "credential_header"]

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


def credential_header(headers: Mapping[str, str]) -> str | None:
    """Why ``headers`` may not be default headers (they carry a credential), or None."""
    for name in headers:
        if name.casefold() in ("authorization", "x-api-key"):
            return f"put credentials in api_key or api_key_env, not header '{name}'"
    return None


class EndpointConfig(BaseModel):
    """How to reach one endpoint. Request payload values live in request defaults, not here."""

    # defer_build: the validator is built on the first validation (a caller's overrides), not at
    # import; registered endpoints get their configs from trusted catalog data (``_from_catalog``).
    model_config = ConfigDict(
        extra="forbid", frozen=True, arbitrary_types_allowed=True, defer_build=True
    )

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
    timeout: float = Field(300, gt=0, description="Seconds a call may take, per attempt.")
    max_retries: int = Field(
        3, ge=1, description="Total attempts of a call (provcat.retry says which failures retry)."
    )
    max_response_bytes: int = Field(
        64 * 1024 * 1024, gt=0, description="Largest answer (or streamed event) read, in bytes."
    )
    default_headers: dict[str, str] = Field(default_factory=dict)
    requires_tokens: bool = Field(
        False, description="Parse the token usage the answer reports into Result.usage."
    )
    idempotent_retries: bool = Field(
        False,
        description="A POST may be replayed after a failure that may have reached the server.",
    )
    serialize_by_alias: bool = Field(False, description="Send the request model's field aliases.")
    allow_local_network: bool = Field(
        False, description="Whether the base URL may resolve to a loopback or private address."
    )
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
        problem = credential_header(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    @classmethod
    def _from_catalog(cls, values: Mapping[str, Any]) -> "EndpointConfig":
        """The config ``values`` describe, built without running the validator.

        Only for catalog records the generator already checked against the provider JSON Schema
        (types, literals, ``timeout > 0``): the result equals ``EndpointConfig(**values)``. The
        two checks the schema does not make, a canonical provider key and no credential header,
        are made here with the validators' own rules.
        """
        fields = dict(values)
        provider = fields.get("provider")
        if (
            not fields.keys() <= cls.model_fields.keys()  # an unknown field: the validator refuses
            or any(f.is_required() and n not in fields for n, f in cls.model_fields.items())
            or not isinstance(provider, str)
            or not provider
            or provider != provider.strip().casefold()  # not canonical: the validator folds it
            or credential_header(fields.get("default_headers") or {}) is not None
        ):
            return cls(**fields)  # the validator's own result, or its own error
        headers = dict(fields.get("default_headers") or {})
        fields["default_headers"] = headers
        if fields.get("timeout") is not None:
            fields["timeout"] = float(fields["timeout"])
        return cls.model_construct(**fields)

    @classmethod
    def field_names(cls) -> frozenset[str]:
        return frozenset(cls.model_fields)

    def url(self) -> str:
        """base_url joined with path (or the endpoint key)."""
        if not self.base_url:
            raise ValueError(f"{self.provider}/{self.endpoint} has no base_url")
        return self.base_url.rstrip("/") + "/" + (self.path or self.endpoint).lstrip("/")

    def summary(self) -> dict[str, Any]:
        """A JSON-safe view without the key (nor a password written into the base URL)."""
        view = self.model_dump(mode="json", exclude={"api_key", "request_options"})
        if view.get("base_url"):
            view["base_url"] = url_without_password(view["base_url"])
        return view

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        for name, value in super().__repr_args__():
            if name == "base_url" and isinstance(value, str):
                value = url_without_password(value)
            yield name, value
