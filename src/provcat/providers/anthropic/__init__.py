"""Anthropic: the Messages endpoint class, the Claude Code CLI endpoint class and its request model.

The Messages API is the ``anthropic-messages`` protocol: its request model is
:mod:`provcat.endpoints.protocols.anthropic_messages`, its endpoint class (the API version's own
refusals) :mod:`provcat.providers.anthropic.messages`.

Nothing is imported here: the catalog names each class and request model by its module, and the
runtime imports a module only when an endpoint that needs it is first used.
"""
