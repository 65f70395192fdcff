"""Google: the Gemini CLI endpoint class and its request model.

Gemini's API is reached through its OpenAI-compatible endpoint, the ``openai-chat`` protocol.

Nothing is imported here: the catalog names each class and request model by its module, and the
runtime imports a module only when an endpoint that needs it is first used.
"""
