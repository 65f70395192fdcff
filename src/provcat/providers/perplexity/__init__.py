"""Perplexity: the Sonar chat completions endpoint."""

from provcat.providers.perplexity.chat import PerplexityChatEndpoint

__all__ = ["PerplexityChatEndpoint"]
