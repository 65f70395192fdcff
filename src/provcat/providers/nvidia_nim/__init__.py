"""NVIDIA NIM: the request model of its embeddings endpoint (chat is the ``openai-chat`` protocol).

Nothing is imported here: the catalog names each class and request model by its module, and the
runtime imports a module only when an endpoint that needs it is first used.
"""
