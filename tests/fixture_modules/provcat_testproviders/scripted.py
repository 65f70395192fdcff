"""The test-only 'scripted' provider lionagi keeps in its production registry; here it is a fixture."""

from provcat.endpoints.endpoint import AgenticEndpoint


class ScriptedEndpoint(AgenticEndpoint):
    pass
