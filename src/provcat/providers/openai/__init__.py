"""OpenAI: request models of the endpoints no protocol shares (responses, images, batches) and
the Codex CLI endpoint (:mod:`provcat.providers.openai.codex`).

Chat completions, embeddings and audio are protocols (:mod:`provcat.endpoints.protocols`).

Nothing is imported here, and the catalog names no import unit (``module:``) for OpenAI: its
endpoints are protocols, each request model is named by its module, and the runtime imports a
module only when an endpoint that needs it is first used.
"""
