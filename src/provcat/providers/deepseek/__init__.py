"""DeepSeek: the chat completions endpoint."""

from provcat.providers.deepseek.chat import DeepSeekChatEndpoint

__all__ = ["DeepSeekChatEndpoint"]
