"""Endpoint base classes that every catalog endpoint class derives from.

The catalog names one concrete class per endpoint. The generator checks that an ``api``
endpoint names an :class:`Endpoint` subclass that is not an :class:`AgenticEndpoint`, and that an
``agentic`` endpoint names an :class:`AgenticEndpoint` subclass.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar

__all__ = ["AgenticEndpoint", "Endpoint", "EndpointType"]


class EndpointType(StrEnum):
    """How an endpoint reaches its vendor: over HTTP or by driving an agent/CLI."""

    API = "api"
    AGENTIC = "agentic"


class Endpoint:
    """An endpoint reached over HTTP.

    ``_ENDPOINT_META`` is the class-bound projection of the endpoint's catalog record; the runtime
    sets it from the validated snapshot, never the class itself.
    """

    endpoint_type: ClassVar[EndpointType] = EndpointType.API
    _ENDPOINT_META: ClassVar[Any] = None


class AgenticEndpoint(Endpoint):
    """An endpoint that runs an agent: a command-line tool or an in-process framework."""

    endpoint_type: ClassVar[EndpointType] = EndpointType.AGENTIC
    is_cli: ClassVar[bool] = True
    DEFAULT_CONCURRENCY_LIMIT: ClassVar[int] = 3
    DEFAULT_QUEUE_CAPACITY: ClassVar[int] = 10
