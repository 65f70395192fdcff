"""Mistral AI (https://api.mistral.ai/v1): request models of its chat and embeddings endpoints.

Nothing is imported here: the catalog names each request model by its module.
"""
