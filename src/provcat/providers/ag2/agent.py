"""A single AG2 agent run in-process: the request model and the endpoint class.

``AG2AgentRequest`` describes one conversation with a single AG2 (formerly AutoGen)
``ConversableAgent``: the agent's construction options (``name``, ``system_message``,
``description``, ``human_input_mode``, ``max_consecutive_auto_reply``, ``llm_config``,
``context_variables``) and the per-chat options of ``initiate_chat`` / ``run`` (``message``,
``max_turns``, ``clear_history``, ``silent``, ``summary_method``, ``summary_args``). Field
names follow AG2's own parameter names. This module never imports AG2.

Source: https://github.com/ag2ai/ag2/blob/main/autogen/agentchat/conversable_agent.py
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from provcat.endpoint import AgenticEndpoint
from provcat.request import RequestModel

__all__ = ["AG2AgentEndpoint", "AG2AgentRequest"]


class AG2AgentRequest(RequestModel):
    """Options of one AG2 single-agent run."""

    message: str | dict[str, Any] | None = Field(
        None, description="Message that opens the chat, as text or a message object."
    )
    messages: list[dict[str, Any]] | None = Field(
        None, description="Earlier messages to carry into the chat, oldest first."
    )
    name: str | None = Field(None, description="Agent name.")
    system_message: str | None = Field(None, description="System prompt of the agent.")
    description: str | None = Field(
        None, description="Short description of the agent shown to other agents."
    )
    human_input_mode: Literal["ALWAYS", "NEVER", "TERMINATE"] | None = Field(
        None, description="When the agent asks a human for input."
    )
    max_consecutive_auto_reply: int | None = Field(
        None, ge=0, description="Cap on automatic replies in a row."
    )
    max_turns: int | None = Field(
        None, ge=1, description="Maximum conversation turns before the chat stops."
    )
    clear_history: bool | None = Field(
        None, description="Start from an empty history instead of the agent's earlier chat."
    )
    silent: bool | None = Field(None, description="Suppress printing of messages.")
    summary_method: Literal["last_msg", "reflection_with_llm"] | None = Field(
        None, description="How the chat result summary is produced."
    )
    summary_args: dict[str, Any] | None = Field(
        None, description="Arguments for the summary method, e.g. summary_prompt."
    )
    context_variables: dict[str, Any] | None = Field(
        None, description="Context variables available to the agent and its tools."
    )
    tools: list[str] | None = Field(
        None, description="Names of registered tools the agent may call."
    )
    llm_config: dict[str, Any] | None = Field(
        None, description="LLM configuration of the agent (model, api_type, temperature, ...)."
    )


class AG2AgentEndpoint(AgenticEndpoint):
    """AG2 single-agent endpoint, run in-process.

    Builds the ``ConversableAgent`` described by an :class:`AG2AgentRequest` and runs one chat
    with it through AG2's ``a_run`` / ``a_initiate_chat``; no subprocess or HTTP call is made.
    """

    DEFAULT_CONCURRENCY_LIMIT: ClassVar[int] = 1
    DEFAULT_QUEUE_CAPACITY: ClassVar[int] = 3
