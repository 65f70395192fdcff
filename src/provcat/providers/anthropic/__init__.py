"""Anthropic vendor package: the Messages API endpoint and the Claude Code CLI endpoint.

The request models live in :mod:`provcat.providers.anthropic.messages` and
:mod:`provcat.providers.anthropic.claude_code`.
"""

from provcat.providers.anthropic.messages import AnthropicMessagesEndpoint

__all__ = ["AnthropicMessagesEndpoint"]
