"""Lattice, a local OpenAI-compatible inference server (default http://127.0.0.1:8080/v1):
the request models of its chat completions and embeddings endpoints.

Nothing is imported here: the catalog names each class and request model by its module, and the
runtime imports a module only when an endpoint that needs it is first used.
"""
