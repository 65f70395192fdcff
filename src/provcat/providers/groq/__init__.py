"""Groq (https://api.groq.com/openai/v1): request models of its chat and transcription endpoints.

Groq's API follows OpenAI's shapes but not its field set (reasoning_format, search_settings,
documents, its own service tiers and reasoning efforts; no audio output or predictions), so its
endpoints name these models instead of the shared OpenAI ones. Nothing is imported here.
"""
