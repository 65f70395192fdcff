"""Exa, a web search API for LLMs (https://api.exa.ai): request models of search, find-similar and contents.

Nothing is imported here: the catalog names each class and request model by its module, and the
runtime imports a module only when an endpoint that needs it is first used.
"""
