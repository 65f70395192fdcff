"""A second provider, so that cross-provider key spaces have something to collide with."""

from provcat.endpoints.agentic import AgenticEndpoint
from provcat.endpoints.endpoint import Endpoint


class BetaChatEndpoint(Endpoint):
    pass


class BetaCliEndpoint(AgenticEndpoint):
    pass
