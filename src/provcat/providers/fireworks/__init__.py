"""Fireworks AI (https://api.fireworks.ai/inference/v1): the request model of its chat endpoint.

Nothing is imported here: the catalog names the request model by its module.
"""
