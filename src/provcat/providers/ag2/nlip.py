"""AG2 remote NLIP agent: the request model and the endpoint class.

``AG2NlipRequest`` describes one exchange with a remote agent that speaks NLIP (Natural Language
Interaction Protocol), reached through AG2's ``NlipRemoteAgent``: its constructor options
(``url``, ``name``, ``timeout``, ``max_retries``, ``silent``) and the parts of AG2's remote
``RequestMessage`` (``messages``, ``context``, ``client_tools``). The agent posts to
``<url>/nlip/``. Field names follow AG2's own parameter names. This module never imports AG2.

Source: https://github.com/ag2ai/ag2/blob/main/autogen/agentchat/contrib/nlip_agent.py
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from provcat.endpoint import AgenticEndpoint
from provcat.request import RequestModel

__all__ = ["AG2NlipEndpoint", "AG2NlipRequest"]


class AG2NlipRequest(RequestModel):
    """Options of one exchange with a remote NLIP agent."""

    messages: list[dict[str, Any]] = Field(
        min_length=1,
        description="Chat history; the last text message becomes the NLIP query.",
    )
    url: str | None = Field(None, description="Base URL of the NLIP server, e.g. http://host:8000.")
    name: str | None = Field(None, description="Local name of the remote agent.")
    timeout: float | None = Field(None, gt=0, description="Request timeout in seconds.")
    max_retries: int | None = Field(
        None, ge=1, description="Attempts before a connection or timeout error is raised."
    )
    silent: bool | None = Field(None, description="Suppress printing of messages.")
    context: dict[str, Any] | None = Field(
        None, description="Context variables sent along as the ag2_context submessage."
    )
    client_tools: list[dict[str, Any]] | None = Field(
        None, description="Tool schemas the client offers, sent as ag2_client_tools."
    )


class AG2NlipEndpoint(AgenticEndpoint):
    """AG2 remote NLIP agent endpoint.

    Sends an :class:`AG2NlipRequest` through AG2's ``NlipRemoteAgent``, which posts an NLIP
    message to ``<url>/nlip/`` and turns the reply back into a chat message.
    """
