"""AG2 (formerly AutoGen): in-process group chat, single-agent and remote NLIP endpoints."""

from provcat.providers.ag2.agent import AG2AgentEndpoint
from provcat.providers.ag2.groupchat import AG2GroupChatEndpoint
from provcat.providers.ag2.nlip import AG2NlipEndpoint

__all__ = ["AG2AgentEndpoint", "AG2GroupChatEndpoint", "AG2NlipEndpoint"]
