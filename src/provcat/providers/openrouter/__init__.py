"""OpenRouter: the chat completions endpoint."""

from provcat.providers.openrouter.chat import OpenRouterChatEndpoint

__all__ = ["OpenRouterChatEndpoint"]
