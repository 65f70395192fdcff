"""Ollama, a local model server on http://localhost:11434: request models of its native
``/api/generate`` and ``/api/embed`` routes (chat is the ``openai-chat`` protocol).

Nothing is imported here: the catalog names each class and request model by its module, and the
runtime imports a module only when an endpoint that needs it is first used.
"""
