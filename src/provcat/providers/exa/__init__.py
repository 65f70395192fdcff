"""Exa, a web search API for LLMs (https://api.exa.ai): search, find-similar and contents."""

from provcat.providers.exa.contents import ExaContentsEndpoint
from provcat.providers.exa.find_similar import ExaFindSimilarEndpoint
from provcat.providers.exa.search import ExaSearchEndpoint

__all__ = ["ExaContentsEndpoint", "ExaFindSimilarEndpoint", "ExaSearchEndpoint"]
