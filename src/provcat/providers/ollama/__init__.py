"""Ollama, a local model server on http://localhost:11434: request models of its native
``/api/generate`` and ``/api/embed`` routes and of its OpenAI-compatible chat (the ``openai-chat``
protocol with Ollama's own subset of fields).

Nothing is imported here: the catalog names each class and request model by its module, and the
runtime imports a module only when an endpoint that needs it is first used.
"""
