"""EndpointConfig: the endpoint-control fields. Unknown fields are errors, never request data.

No ``from __future__ import annotations`` here (as in the request-model modules): pydantic would
compile and evaluate each string annotation at class creation, on the cold path.
"""

import contextlib
import re
import urllib.parse
from collections.abc import Iterator, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

# the settings a provider's `defaults:` may set, declared with ProviderEndpointSpec's fields; named
# here too for the generator, which reads their defaults from EndpointConfig
from provcat.catalog.specs import INHERITED_SETTINGS
from provcat.errors import ProviderCatalogError
from provcat.redact import secret_name, url_without_password

__all__ = [
    "INHERITED_SETTINGS",
    "AuthType",
    "DeferredModel",
    "EndpointConfig",
    "base_url_problem",
    "credential_header",
    "secret_header",
    "shown_headers",
]

AuthType = Literal["bearer", "x-api-key", "none"]

MAX_TIMEOUT = 86_400.0  # a day: longer is a mistake, not a timeout
MAX_RETRIES = 10  # attempts of one call, at most


class DeferredModel:
    """A request model named by reference, loaded the first time a config's ``request_options``
    is read: a catalog endpoint's model is not needed to resolve or build the endpoint, and
    defining a model's classes is most of what a first ``match_endpoint`` would otherwise cost.

    A config holds one only where the loader put it (:mod:`provcat.endpoints.load`, for the
    trusted bundled snapshot); reading ``config.request_options`` gives the model class, as it
    always does. The subclass loads the model once, whatever the thread count, and raises the
    same typed error every time it cannot.
    """

    __slots__ = ("ref",)

    def __init__(self, ref: str) -> None:
        self.ref = ref  # "package.module:Model" (or a factory), as the catalog record names it

    def resolve(self) -> "type[BaseModel]":
        """The model class; loaded on the first call."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if isinstance(other, DeferredModel):
            other = other.resolve()
        return isinstance(other, type) and self.resolve() is other

    def __hash__(self) -> int:
        return hash(self.resolve())

    def __repr__(self) -> str:
        return f"<request model {self.ref!r}, not loaded>"

    def __copy__(self) -> "DeferredModel":
        return self

    def __deepcopy__(self, memo: object) -> "DeferredModel":
        return self  # a reference to a class, as a class is (copy treats classes as atoms)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_same, (self.resolve(),))  # pickled as the class itself


def _same(value: Any) -> Any:
    return value


def base_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be a base URL (only http and https, a host, no credentials, query or
    fragment, no control characters), or None. The URL itself is never quoted: it may carry a
    password."""
    if any(ord(c) < 0x21 or ord(c) == 0x7F for c in url):
        return "base_url holds a space, a line break or a control character"
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in ("http", "https"):
        return "base_url must start with http:// or https://"
    authority = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    if "@" in authority:
        return (
            "base_url carries credentials (user info before '@'): they would replace the key "
            "and show in logs; put the key in api_key or api_key_env"
        )
    if "?" in rest or "#" in rest:
        return (
            "base_url holds a query or a fragment ('?' or '#'): the endpoint's path is appended "
            "to it; put a key in api_key or api_key_env, other parameters in the request"
        )
    host = authority
    if not host or host.startswith(":"):
        return "base_url names no host"
    try:  # an unclosed IPv6 bracket or a port out of range or not a number
        port = urllib.parse.urlsplit(url).port
    except ValueError:
        return "base_url's host or port is malformed (an IPv6 address goes in [brackets])"
    if port == 0:
        return "base_url's port is 0"
    return None


def credential_header(headers: Mapping[str, str]) -> str | None:
    """Why ``headers`` may not be default headers (they carry a credential), or None."""
    for name in headers:
        if name.casefold() in ("authorization", "x-api-key"):
            return f"put credentials in api_key or api_key_env, not header '{name}'"
    return None


# what a header's name adds to redact.secret_name's rule: auth (Authorization, X-Auth-...), any
# passw..., cookie, signature
_CREDENTIAL_HEADER = re.compile(r"auth|passw|cookie|signature", re.IGNORECASE)


def secret_header(name: str) -> bool:
    """Whether a header named ``name`` carries a credential, whatever its case: a name
    :func:`~provcat.redact.secret_name` calls a secret (key, token, secret, password, ...), or one
    naming authorization, a password, a cookie or a signature. Its value is redacted from errors
    and reprs."""
    return secret_name(name) or _CREDENTIAL_HEADER.search(name) is not None


def shown_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """``headers`` as a repr or a summary shows them: each secret-named one's value redacted
    (``<redacted>``: a cookie or a signature is no API key)."""
    return {k: "<redacted>" if secret_header(k) else v for k, v in headers.items()}


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
    # strict: a number (an int or a float), never a bool or a string ("5", True)
    timeout: float = Field(
        300,
        gt=0,
        strict=True,
        le=MAX_TIMEOUT,
        allow_inf_nan=False,
        description="Seconds one attempt may take, the address lookup and the whole answer "
        "included; for a stream, its first event and each next one.",
    )
    total_timeout: float | None = Field(
        None,
        gt=0,
        strict=True,
        le=MAX_TIMEOUT,
        allow_inf_nan=False,
        description="Seconds a call may take in all, its attempts and the waits between them "
        "included, and a stream up to its last event (None: max_retries attempts of timeout "
        "each, plus the waits).",
    )
    # strict: an int, never a bool, a float or a string (True, 2.0, "2"), as per call
    max_retries: int = Field(
        3,
        ge=1,
        strict=True,
        le=MAX_RETRIES,
        description="Total attempts of a call (provcat.endpoints.retry says which failures retry).",
    )
    max_response_bytes: int = Field(
        64 * 1024 * 1024,
        gt=0,
        strict=True,
        description="Largest answer (or streamed event) read, in bytes.",
    )
    default_headers: dict[str, str] = Field(default_factory=dict)
    requires_tokens: bool = Field(
        True,
        description="Parse the token usage the answer reports into Result.usage (off: None).",
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

    @field_validator("base_url")
    @classmethod
    def _base_url_is_http(cls, value: str | None) -> str | None:
        if value is None:
            return value
        problem = base_url_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value

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
        """A JSON-safe view without the key (nor a password written into the base URL, nor the
        value of a default header named like a secret)."""
        view = self.model_dump(mode="json", exclude={"api_key", "request_options"})
        if view.get("base_url"):
            view["base_url"] = url_without_password(view["base_url"])
        view["default_headers"] = shown_headers(view["default_headers"])
        return view

    def stored_request_options(self) -> "type[BaseModel] | DeferredModel | None":
        """``request_options`` as stored: a catalog endpoint's :class:`DeferredModel`, loaded
        or not, stays one (carried into a copy with overrides)."""
        value: type[BaseModel] | DeferredModel | None = vars(self)["request_options"]
        return value

    def __iter__(self) -> Iterator[tuple[str, Any]]:  # type: ignore[override]
        for name, value in super().__iter__():
            yield name, self.request_options if name == "request_options" else value

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        for name, value in super().__repr_args__():
            if name == "base_url" and isinstance(value, str):
                value = url_without_password(value)
            elif name == "default_headers" and isinstance(value, Mapping):
                value = shown_headers(value)
            elif name == "request_options" and isinstance(value, DeferredModel):
                # the class, as always; a model that cannot load shows its reference
                with contextlib.suppress(ProviderCatalogError):
                    value = value.resolve()
            yield name, value


class _RequestOptions:
    """``EndpointConfig.request_options`` on an instance: the class a :class:`DeferredModel`
    names (loaded on the first read, then kept by the reference itself); any other value is
    returned as stored. Nothing is written into the frozen config.

    This and :meth:`EndpointConfig.stored_request_options` are the runtime's one reach past
    pydantic's documented API: they read the field from the instance's ``__dict__``, where
    pydantic 2 keeps field values (``make oldest`` runs the runtime's tests on the oldest pydantic
    ``pyproject.toml`` allows, too). Installed on the class after pydantic made it (a class
    attribute in the body would be the field's default); reading it on the class raises
    AttributeError, as for every pydantic field, so that pydantic (a subclass's field
    collection) sees no default there.
    """

    def __get__(self, config: EndpointConfig | None, owner: type | None = None) -> Any:
        if config is None:
            raise AttributeError("request_options")
        value = vars(config)["request_options"]
        return value.resolve() if isinstance(value, DeferredModel) else value

    def __set__(self, config: EndpointConfig, value: Any) -> None:
        # pydantic's __setattr__ refuses first (the config is frozen); kept a data descriptor so
        # that it, not the instance's __dict__, answers every read
        raise AttributeError("EndpointConfig is frozen")


setattr(EndpointConfig, "request_options", _RequestOptions())  # noqa: B010
