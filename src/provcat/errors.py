"""Every exception and warning provcat raises to its caller but the hub's, in one place.
Messages name keys, fields and dates, never a secret or a request value (the sanitizer is
:mod:`provcat.redact`).

The hub's errors stay in :mod:`provcat.hub.errors`, because the hub is an optional extra whose
errors are its registry protocol's, each with its own HTTP status and wire name. The command
line's ``CommandError`` (:mod:`provcat.cli.failures`) is internal: its signal to print a message
and exit, never raised to a caller. Everything a caller of provcat can catch::

    RuntimeError
    ├── ProviderCatalogError              a catalog lookup or configuration failed
    │   ├── CatalogValidationError        a catalog source is invalid; nothing was published
    │   ├── ProviderUnavailable           the provider's Python failed to import
    │   ├── EndpointNotFound              no registered endpoint answers to the spelling
    │   ├── EndpointConfigurationError    a configuration or request field is refused
    │   │   └── RequestValidationError    a request body is refused (every problem listed);
    │   │                                 an APIError too, so `except APIError` catches it
    │   ├── EndpointRetired               the vendor retired the endpoint (strict mode)
    │   ├── ModelRetired                  the vendor retired the model
    │   ├── ModelNotFound (LookupError)   the inventory lists no such model
    │   └── PricingUnavailable (LookupError)  no price for what an estimate needs
    └── APIError                          a call to a vendor's API failed
        ├── BadRequestError               400, 422
        ├── AuthenticationError           401, 403
        ├── NotFoundError                 404
        ├── RateLimitError                429
        ├── ServerError                   5xx
        ├── APIStatusError                any other unsuccessful status
        ├── APITimeoutError               no answer within the timeout
        ├── APIConnectionError            no response; ``never_sent`` when provably not sent
        │   └── LocalNetworkRefused       the host is local and the endpoint may not reach it
        ├── InvalidResponseError          a body that is not what the endpoint speaks
        └── StreamError                   an error event inside a stream
    LookupError
    └── KeyError
        └── UnknownTargetError            no schema target (or provider) of that name
    ValueError
    └── InvalidToolError                  not a canonical tool; ``problems`` lists every one
    ImportError
    └── SnapshotFormatError               the generated snapshot's format is not this runtime's
    Exception
    ├── LocalAddressError                 the network guard's refusal (a call raises
    │                                     LocalNetworkRefused)
    └── HubError                          provcat.hub.errors: a hub request failed; each one
        │                                 directly under HubError, with its HTTP status:
        └── ValidationError 400, AuthenticationError 401, AuthorizationError 403,
            AdapterNotFoundError 404, NotFoundError 404, MethodNotAllowedError 405,
            AdapterExistsError 409, IncompatibleBaseModelError 409, PayloadTooLargeError 413,
            UriTooLongError 414, RangeNotSatisfiableError 416, RequestHeadersTooLargeError 431,
            InternalServerError 500, ChecksumMismatchError 502, RegistryUnavailableError 503,
            InsufficientStorageError 507 (the hub's AuthenticationError and NotFoundError are
            not the APIError ones of the same names)
    FutureWarning                         (shown by default: a vendor's deprecation concerns
    │                                     whoever runs the application, not only its authors)
    ├── EndpointDeprecated                deprecated (or retired, outside strict mode) endpoint
    └── ModelDeprecated                   deprecated (or retired, outside strict mode) model
    UserWarning
    ├── EffortIgnored                     a model spec's effort that no request field carries
    └── UnknownProviderWarning            a model spec names a provider the catalog does not know
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from provcat.redact import secret_shapes_hidden

if TYPE_CHECKING:
    from provcat.catalog.diagnostic import ProviderDiagnostic

__all__ = [
    "APIConnectionError",
    "APIError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "CatalogValidationError",
    "EffortIgnored",
    "EndpointConfigurationError",
    "EndpointDeprecated",
    "EndpointNotFound",
    "EndpointRetired",
    "InvalidResponseError",
    "InvalidToolError",
    "LocalAddressError",
    "LocalNetworkRefused",
    "ModelDeprecated",
    "ModelNotFound",
    "ModelRetired",
    "NotFoundError",
    "PricingUnavailable",
    "ProviderCatalogError",
    "ProviderUnavailable",
    "RateLimitError",
    "RequestProblem",
    "RequestValidationError",
    "ServerError",
    "SnapshotFormatError",
    "StreamError",
    "UnknownProviderWarning",
    "UnknownTargetError",
]


def _rebuilt(cls: type[Any], args: tuple[object, ...], state: dict[str, object]) -> object:
    """An error as pickle stores it, made again without its ``__init__`` (which takes the fields
    the message is written from, not the message)."""
    error: Any = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class _Picklable:
    """Survives pickle (a process pool or a task queue handing the error back to its caller):
    rebuilt from its message and fields, where ``BaseException`` would call ``__init__`` with
    the message alone."""

    args: tuple[Any, ...]

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuilt, (type(self), self.args, self.__dict__))


class _KeyShapesHidden(_Picklable):
    """Its message never repeats a value shaped like an API key or a token (one passed where a
    provider, endpoint or model name goes, say): such a value is written ``<redacted>``
    (:func:`provcat.redact.secret_shapes_hidden`)."""

    def __init__(self, *args: object) -> None:
        super().__init__(*(secret_shapes_hidden(a) if isinstance(a, str) else a for a in args))

    @classmethod
    def already_hidden(cls, *args: object) -> Self:
        """One made from text hidden before (a message remembered with its spec): not scanned
        again. A new object each time, so a warning raised as an error keeps its own traceback."""
        return cls.__new__(cls, *args)


class ProviderCatalogError(_KeyShapesHidden, RuntimeError):
    """Base of every catalog error. Its message never repeats a value shaped like an API key or
    a token (one passed where a provider, endpoint or model name goes, say): such a value is
    written ``<redacted>`` (:func:`provcat.redact.secret_shapes_hidden`)."""


class CatalogValidationError(ProviderCatalogError):
    """The catalog did not validate; no snapshot was published (or the prior one stays)."""

    def __init__(self, diagnostics: Sequence[ProviderDiagnostic]) -> None:
        self.diagnostics: tuple[ProviderDiagnostic, ...] = tuple(diagnostics)
        lines = [f"{d.code}: {d.message}" for d in self.diagnostics[:10]]
        more = len(self.diagnostics) - len(lines)
        if more > 0:
            lines.append(f"... and {more} more")
        super().__init__(
            f"the provider catalog is invalid ({len(self.diagnostics)} problems):\n  "
            + "\n  ".join(lines)
        )


class ProviderUnavailable(ProviderCatalogError):
    """A provider the catalog knows, whose module failed to import."""

    def __init__(self, provider: str, diagnostic: ProviderDiagnostic) -> None:
        self.provider = provider
        self.diagnostic = diagnostic
        super().__init__(
            f"provider '{provider}' is unavailable: {diagnostic.message}. "
            "Fix or install what its module needs, then call EndpointRegistry.refresh()."
        )


class EndpointNotFound(ProviderCatalogError):
    """No registered endpoint answers to this provider and endpoint key."""

    def __init__(
        self,
        provider: str,
        endpoint: str,
        available: Sequence[str],
        *,
        reason: str | None = None,
    ) -> None:
        self.provider = provider
        self.endpoint = endpoint
        self.available: tuple[str, ...] = tuple(available)
        if reason is None:
            reason = f"{provider} has no endpoint '{endpoint}'"
        if self.available:
            reason = f"{reason}; available: {', '.join(self.available)}"
        super().__init__(reason)


class EndpointConfigurationError(ProviderCatalogError):
    """A configuration or request-default field that the endpoint does not accept."""

    def __init__(self, field: str, message: str | None = None) -> None:
        self.field = field
        super().__init__(message or f"invalid endpoint configuration field '{field}'")


class _LifecycleRetired(ProviderCatalogError):
    """One wording for every retired thing (endpoint, model): names the date and the successor."""

    _kind = "thing"

    def __init__(
        self, provider: str, name: str, shutdown_date: str | None, successor: str | None
    ) -> None:
        self.provider = provider
        self.shutdown_date = shutdown_date
        self.successor = successor
        since = f" since {shutdown_date}" if shutdown_date else ""
        instead = f"; use its successor '{successor}'" if successor else ""
        super().__init__(f"{self._kind} '{provider}/{name}' is retired{since}{instead}")


class _LifecycleDeprecated(_Picklable, FutureWarning):
    """One wording for every deprecation warning (endpoint, model), the retired-but-not-strict
    case included: names the shutdown date and the successor. A FutureWarning, which Python
    shows by default wherever the call is made: a DeprecationWarning is hidden outside
    ``__main__``, so an application calling from its own modules never saw that its model
    shuts down (or that its calls fail)."""

    _kind = "thing"

    def __init__(
        self,
        provider: str,
        name: str,
        shutdown_date: str | None,
        successor: str | None,
        *,
        retired: bool = False,
    ) -> None:
        self.provider = provider
        self.shutdown_date = shutdown_date
        self.successor = successor
        self.retired = retired
        subject = f"{self._kind} '{provider}/{name}'"
        instead = f"; move to its successor '{successor}'" if successor else ""
        if retired:
            since = f" since {shutdown_date}" if shutdown_date else ""
            text = f"{subject} is retired{since}: calls to it fail{instead}"
        else:
            until = (
                f"shuts down on {shutdown_date}" if shutdown_date else "no shutdown date announced"
            )
            text = f"{subject} is deprecated ({until}){instead}"
        super().__init__(text)


class EndpointRetired(_LifecycleRetired):
    """The vendor retired the endpoint (or its shutdown date has come): calls to it fail there.
    Raised in strict mode; otherwise :class:`EndpointDeprecated` warns with ``retired`` true."""

    _kind = "endpoint"

    def __init__(
        self, provider: str, endpoint: str, shutdown_date: str | None, successor: str | None
    ) -> None:
        self.endpoint = endpoint
        super().__init__(provider, endpoint, shutdown_date, successor)


class EndpointDeprecated(_LifecycleDeprecated):
    """The vendor deprecated the endpoint: it still answers until its shutdown date. Also the
    warning for a retired endpoint outside strict mode (``retired`` is then true)."""

    _kind = "endpoint"

    def __init__(
        self,
        provider: str,
        endpoint: str,
        shutdown_date: str | None,
        successor: str | None,
        *,
        retired: bool = False,
    ) -> None:
        self.endpoint = endpoint
        super().__init__(provider, endpoint, shutdown_date, successor, retired=retired)


class ModelNotFound(ProviderCatalogError, LookupError):
    """The provider's inventory lists no model by that id or alias (or the provider has none)."""

    def __init__(
        self, provider: str, model: str, closest: Sequence[str], reason: str, hint: str = ""
    ) -> None:
        self.provider = provider
        self.model = model
        self.closest: tuple[str, ...] = tuple(closest)
        close = f"; closest: {', '.join(self.closest)}" if self.closest else ""
        super().__init__(f"{reason}{close}{hint}")


class ModelRetired(_LifecycleRetired):
    """The model is retired, or its shutdown date has come: a call to it fails at the vendor."""

    _kind = "model"

    def __init__(
        self, provider: str, model: str, shutdown_date: str | None, successor: str | None
    ) -> None:
        self.model = model
        super().__init__(provider, model, shutdown_date, successor)


class ModelDeprecated(_LifecycleDeprecated):
    """The model is deprecated: it still answers until its shutdown date. Also the warning for a
    retired model outside strict mode (``retired`` is then true)."""

    _kind = "model"

    def __init__(
        self,
        provider: str,
        model: str,
        shutdown_date: str | None,
        successor: str | None,
        *,
        retired: bool = False,
    ) -> None:
        self.model = model
        super().__init__(provider, model, shutdown_date, successor, retired=retired)


class PricingUnavailable(ProviderCatalogError, LookupError):
    """The catalog holds no price for what the estimate needs: an error, never a zero."""


class APIError(_Picklable, RuntimeError):
    """Base of every error of a call to a vendor's API. Never carries a credential.

    ``status`` is the HTTP status (None when no response came back); ``request_id`` is the
    vendor's request id header; ``error_type``, ``error_code`` and ``vendor_message`` come from the
    vendor's JSON error body; ``excerpt`` is a short, sanitized start of a body that was not JSON.
    """

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        endpoint: str,
        status: int | None = None,
        request_id: str | None = None,
        error_type: str | None = None,
        error_code: str | None = None,
        vendor_message: str | None = None,
        excerpt: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.provider = provider
        self.retry_after = retry_after
        self.endpoint = endpoint
        self.status = status
        self.request_id = request_id
        self.error_type = error_type
        self.error_code = error_code
        self.vendor_message = vendor_message
        self.excerpt = excerpt
        where = f"{provider}/{endpoint}"
        parts = [f"{where}: {message}"]
        if vendor_message:
            kind = "/".join(x for x in (error_type, error_code) if x)
            parts.append(f"vendor says{f' ({kind})' if kind else ''}: {vendor_message}")
        elif excerpt:
            parts.append(f"body: {excerpt!r}")
        if request_id:
            parts.append(f"request id {request_id}")
        super().__init__("; ".join(parts))


class BadRequestError(APIError):
    """400 or 422: the vendor refused the request as written."""


class AuthenticationError(APIError):
    """401 or 403: the credential is missing, wrong or not allowed this."""


class NotFoundError(APIError):
    """404: no such route, model or resource."""


class RateLimitError(APIError):
    """429: slow down; ``retry_after`` is the wait the vendor asked for, in seconds, if any."""


class ServerError(APIError):
    """5xx: the vendor failed."""


class APIStatusError(APIError):
    """Any other unsuccessful status (408, 409, an unexpected 3xx redirect, ...)."""


class APITimeoutError(APIError):
    """The call did not complete within the endpoint's timeout. ``never_sent`` is true when the
    connection was never made (a connect timeout): the request never reached the server."""

    never_sent: bool = False


class APIConnectionError(APIError):
    """No response: the connection could not be made or broke. ``never_sent`` is true when the
    request provably never reached the server (the connection was never made)."""

    never_sent: bool = False


class LocalNetworkRefused(APIConnectionError):
    """The host resolves to a loopback, private, link-local, multicast or reserved address and the
    endpoint does not allow the local network; nothing was sent."""


class InvalidResponseError(APIError):
    """A successful status with a body that is not what the endpoint speaks (bad JSON, a broken
    event stream), or a body larger than the bound."""


class StreamError(APIError):
    """The vendor sent an error event in the middle of a stream."""


class EffortIgnored(_KeyShapesHidden, UserWarning):
    """A model spec's effort (its suffix, or ``effort=``) is dropped: the model declares other
    efforts, none, or the inventory does not list it (the spec's model is used without it). Its
    message writes a key-shaped value ``<redacted>``, as catalog errors do."""


@dataclass(frozen=True, slots=True)
class RequestProblem:
    """One problem of a request body: where (``messages.0.role``), what, and the suggestion
    ("did you mean 'temperature'?"), if any. Never the value itself."""

    location: str
    message: str
    suggestion: str | None = None

    def __str__(self) -> str:
        hint = f"; {self.suggestion}" if self.suggestion else ""
        return f"'{self.location}' {self.message}{hint}"


class RequestValidationError(EndpointConfigurationError, APIError):
    """The request body does not fit the endpoint's request model; nothing was sent.

    ``problems`` lists every problem, each with a suggestion where one helps; ``field`` is the
    first one's location. Both an :class:`EndpointConfigurationError` (as before) and an
    :class:`APIError` (so that the ``except APIError`` around a call catches it too)."""

    def __init__(self, provider: str, endpoint: str, problems: Sequence[RequestProblem]) -> None:
        self.problems: tuple[RequestProblem, ...] = tuple(problems)
        self.field = self.problems[0].location if self.problems else "request"
        self.provider = provider
        self.endpoint = endpoint
        self.status = None
        self.request_id = None
        self.error_type = "request_validation"
        self.error_code = None
        self.vendor_message = None
        self.excerpt = None
        self.retry_after = None
        text = f"{provider}/{endpoint}: {self.problems[0] if self.problems else 'invalid request'}"
        if len(self.problems) > 1:
            text += f" ({len(self.problems)} problems in the request)\n  " + "\n  ".join(
                str(p) for p in self.problems[1:]
            )
        RuntimeError.__init__(self, text)


class UnknownProviderWarning(_KeyShapesHidden, UserWarning):
    """``parse_model_spec`` read a spec whose provider the catalog does not know (the answer is
    lionagi's, unchanged); ``model_kwargs`` refuses the same spec with the same words (a
    key-shaped value written ``<redacted>``, as catalog errors do)."""


class SnapshotFormatError(ImportError):
    """The generated snapshot's format is not the one this runtime reads."""


class LocalAddressError(Exception):
    """The host resolves to an address the endpoint may not reach (the network guard's refusal;
    a call turns it into :class:`LocalNetworkRefused`)."""


class InvalidToolError(_Picklable, ValueError):
    """A value that is not a canonical tool: every problem, each with where it is and the fix.

    ``problems`` holds the lines ``provcat tool check`` prints for the same input.
    """

    def __init__(self, problems: list[str] | tuple[str, ...]) -> None:
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"not a canonical tool ({len(self.problems)} problem(s)):\n{lines}")


class UnknownTargetError(_KeyShapesHidden, KeyError):
    """No target (or provider) of that name is in the snapshot. The message never repeats a
    value shaped like an API key (one passed as the target): it is written ``<redacted>``."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown target"
