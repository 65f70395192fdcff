"""NVIDIA NIM: the chat completions and embeddings endpoints."""

from provcat.providers.nvidia_nim.chat import NvidiaNimChatEndpoint
from provcat.providers.nvidia_nim.embed import NvidiaNimEmbedEndpoint

__all__ = ["NvidiaNimChatEndpoint", "NvidiaNimEmbedEndpoint"]
