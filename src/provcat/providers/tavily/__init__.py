"""Tavily, a web search and extraction API for LLM agents (https://api.tavily.com): request models.

Nothing is imported here: the catalog names each class and request model by its module, and the
runtime imports a module only when an endpoint that needs it is first used.
"""
