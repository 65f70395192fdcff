"""AG2 group chat run in-process: the request model and the endpoint class.

``AG2GroupChatRequest`` describes one run of an AG2 (formerly AutoGen) group chat: the agents
that take part, the orchestration pattern that picks speakers, and the arguments AG2's
``run_group_chat`` / ``a_run_group_chat`` take per run (``messages``, ``max_rounds``,
``safeguard_policy``, ``safeguard_llm_config``, ``mask_llm_config``, ``isolate_agent_views``),
plus the pattern's ``context_variables`` and ``summary_method``. Field names follow AG2's own
parameter names. This module never imports AG2; how the optional dependency is loaded is
decided elsewhere.

Source: https://github.com/ag2ai/ag2/blob/main/autogen/agentchat/group/multi_agent_chat.py
Source: https://github.com/ag2ai/ag2/blob/main/autogen/agentchat/conversable_agent.py
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from provcat.endpoint import AgenticEndpoint
from provcat.request import RequestModel

__all__ = [
    "AG2GroupChatAgent",
    "AG2GroupChatEndpoint",
    "AG2GroupChatRequest",
    "AG2Handoff",
]


class AG2Handoff(RequestModel):
    """A condition under which one agent hands the conversation to another."""

    target: str = Field(description="Name of the agent that takes over.")
    condition: str = Field(
        description="Natural-language condition the LLM evaluates to trigger the handoff."
    )


class AG2GroupChatAgent(RequestModel):
    """One participant of the group chat, built as an AG2 ConversableAgent."""

    name: str = Field(description="Unique agent name within the group.")
    system_message: str | None = Field(None, description="System prompt of the agent.")
    description: str | None = Field(
        None, description="Short description other agents and the selector see."
    )
    tools: list[str] | None = Field(
        None, description="Names of registered tools this agent may call."
    )
    handoffs: list[AG2Handoff] | None = Field(
        None, description="LLM-evaluated handoff conditions to other agents."
    )
    nlip_url: str | None = Field(
        None, description="Base URL of a remote NLIP agent that stands in for this agent."
    )


class AG2GroupChatRequest(RequestModel):
    """Options of one AG2 group chat run."""

    messages: str | list[dict[str, Any]] = Field(
        description="Opening message, or a message history to resume from."
    )
    agents: list[AG2GroupChatAgent] | None = Field(
        None, description="Agents taking part, in their default speaking order."
    )
    pattern: Literal["auto", "default", "round_robin", "random", "manual"] | None = Field(
        None,
        description=(
            "Orchestration pattern: AutoPattern, DefaultPattern, RoundRobinPattern, "
            "RandomPattern or ManualPattern."
        ),
    )
    initial_agent: str | None = Field(None, description="Name of the agent that speaks first.")
    max_rounds: int | None = Field(
        None, ge=1, description="Maximum number of conversation rounds (AG2 default 20)."
    )
    context_variables: dict[str, Any] | None = Field(
        None, description="Initial shared context variables visible to all agents."
    )
    summary_method: Literal["last_msg", "reflection_with_llm"] | None = Field(
        None, description="How the chat result summary is produced."
    )
    safeguard_policy: dict[str, Any] | str | None = Field(
        None, description="Safeguard policy object, or a path to a policy JSON file."
    )
    safeguard_llm_config: dict[str, Any] | None = Field(
        None, description="LLM configuration used for safeguard checks."
    )
    mask_llm_config: dict[str, Any] | None = Field(
        None, description="LLM configuration used to mask sensitive content."
    )
    isolate_agent_views: bool | None = Field(
        None, description="Agents keep only their own history instead of every message."
    )
    llm_config: dict[str, Any] | None = Field(
        None, description="LLM configuration shared by the agents (model, api_type, ...)."
    )
    yield_on: list[str] | None = Field(
        None, description="AG2 event type names to stream, e.g. TextEvent or ToolCallEvent."
    )


class AG2GroupChatEndpoint(AgenticEndpoint):
    """AG2 group chat endpoint, run in-process.

    Builds the agents and pattern described by an :class:`AG2GroupChatRequest` and drives them
    with AG2's ``a_run_group_chat`` (or its event iterator); no subprocess or HTTP call is made.
    """

    DEFAULT_CONCURRENCY_LIMIT: ClassVar[int] = 1
    DEFAULT_QUEUE_CAPACITY: ClassVar[int] = 3
