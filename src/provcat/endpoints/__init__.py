"""Endpoints: resolving a catalog record to an instance, and what an instance does with a call.

Resolution and matching (``match_endpoint``), the registry and the first use of an endpoint
(loading its provider's Python), the endpoint classes, their configuration and request models,
the generic protocols, and the HTTP machinery a call goes through (network guard, connection
pool, retries, responses, streaming).
"""
