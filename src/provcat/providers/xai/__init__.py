"""xAI (https://api.x.ai/v1): the request model of its Responses endpoint.

Nothing is imported here: the catalog names the request model by its module.
"""
