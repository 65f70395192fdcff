"""Lattice, a local OpenAI-compatible inference server (default http://127.0.0.1:8080/v1).

Two endpoints, both keyless: chat completions and embeddings.
"""

from provcat.providers.lattice.chat import LatticeChatEndpoint
from provcat.providers.lattice.embed import LatticeEmbedEndpoint

__all__ = ["LatticeChatEndpoint", "LatticeEmbedEndpoint"]
