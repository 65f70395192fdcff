"""The test-only 'scripted' provider lionagi keeps in its production registry; here it is a fixture."""

from provcat.endpoints.agentic import AgenticEndpoint


class ScriptedEndpoint(AgenticEndpoint):
    pass
