"""Tavily, a web search and extraction API for LLM agents (https://api.tavily.com)."""

from provcat.providers.tavily.extract import TavilyExtractEndpoint
from provcat.providers.tavily.search import TavilySearchEndpoint

__all__ = ["TavilyExtractEndpoint", "TavilySearchEndpoint"]
