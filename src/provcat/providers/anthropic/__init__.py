"""Anthropic: the Claude Code CLI endpoint class and its request model.

The Messages API is the ``anthropic-messages`` protocol (:mod:`provcat.endpoints.protocols.anthropic_messages`).

Nothing is imported here: the catalog names each class and request model by its module, and the
runtime imports a module only when an endpoint that needs it is first used.
"""
