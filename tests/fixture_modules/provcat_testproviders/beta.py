"""A second provider, so that cross-provider key spaces have something to collide with."""

from provcat.endpoints.endpoint import AgenticEndpoint, Endpoint


class BetaChatEndpoint(Endpoint):
    pass


class BetaCliEndpoint(AgenticEndpoint):
    pass
