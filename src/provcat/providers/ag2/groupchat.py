"""AG2 group chat run in-process: the request model and the endpoint class.

AG2 1.2 replaces the classic ``GroupChat``/``GroupChatManager`` with the ``ag2.network``
``workflow`` channel: agents registered with an in-process ``Hub`` take turns as a
``TransitionGraph`` says, and a tool returning ``Handoff`` redirects the next turn.
``AG2GroupChatRequest`` describes one such run: the opening ``message`` (posted by a human
participant named ``user``), the ``agents`` (name, prompt, model config, handoffs), the
turn ``pattern`` (``round_robin`` or ``sequence``), ``initial_agent``, ``max_rounds`` (the
graph's ``max_turns``) and the channel's initial ``context_vars``. Field names follow AG2's
parameter names where AG2 has one.

Source: https://pypi.org/project/ag2/1.2.1/ (modules ag2.network.transitions, ag2.network.handoff, ag2.network.hub)
Source: https://github.com/ag2ai/ag2-skills/blob/main/skills/ag2-network-workflow/SKILL.md
"""

import itertools
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self

from pydantic import BaseModel, Field, model_validator

from provcat.endpoints.agentic import AgenticEndpoint
from provcat.endpoints.request import RequestModel
from provcat.providers.ag2._runtime import (
    AG2ModelConfig,
    AG2Result,
    model_config,
    reported,
    validated,
)

if TYPE_CHECKING:
    from ag2.tools.final.function_tool import FunctionTool

__all__ = [
    "AG2GroupChatAgent",
    "AG2GroupChatEndpoint",
    "AG2GroupChatRequest",
    "AG2Handoff",
]

SEEDER = "user"
DEFAULT_ROUND_ROBIN_ROUNDS = 20  # AG2's classic GroupChat max_round default


class AG2Handoff(RequestModel):
    """A condition under which one agent hands the conversation to another.

    It becomes a tool of the agent, named ``transfer_to_<target>`` and described by
    ``condition``, that returns ``ag2.network.Handoff(target)``; the model calls it when the
    condition holds.
    """

    target: str = Field(description="Name of the agent that takes over.")
    condition: str = Field(
        min_length=1,
        description="When to hand over, in words; the tool description the model reads.",
    )


class AG2GroupChatAgent(RequestModel):
    """One participant of the group chat, built as an ``ag2.Agent``."""

    name: str = Field(
        min_length=1, description="Unique agent name within the group (its Passport name)."
    )
    prompt: str | list[str] | None = Field(
        None, description="System prompt of the agent, or several prompt parts in order."
    )
    config: AG2ModelConfig | None = Field(
        None, description="The LLM this agent uses; the request's config when omitted."
    )
    handoffs: list[AG2Handoff] | None = Field(
        None, description="Conditions under which this agent hands the next turn to another."
    )


class AG2GroupChatRequest(RequestModel):
    """Options of one AG2 group chat run."""

    message: str = Field(
        min_length=1, description="Opening message, posted to the channel by 'user'."
    )
    agents: list[AG2GroupChatAgent] = Field(
        min_length=1, description="Agents taking part, in their speaking order."
    )
    pattern: Literal["round_robin", "sequence"] | None = Field(
        None,
        description="Turn order: round_robin cycles through the agents until max_rounds "
        "(TransitionGraph.round_robin); sequence lets each speak once, then the chat ends "
        "(TransitionGraph.sequence). Default round_robin.",
    )
    initial_agent: str | None = Field(
        None, description="Name of the agent that answers the opening message (default: first)."
    )
    max_rounds: int | None = Field(
        None,
        ge=1,
        description="Turn cap, counting the opening message (the graph's max_turns); "
        f"round_robin defaults to {DEFAULT_ROUND_ROBIN_ROUNDS}.",
    )
    context_vars: dict[str, Any] | None = Field(
        None, description="Initial channel-scoped context variables (the workflow knob)."
    )
    config: AG2ModelConfig | None = Field(
        None, description="The LLM of every agent that does not set its own config."
    )

    @model_validator(mode="after")
    def _names_resolve(self) -> Self:
        names = [a.name for a in self.agents]
        if len(set(names)) != len(names):
            raise ValueError("agent names must be unique")
        if SEEDER in names:
            raise ValueError(f"'{SEEDER}' is the participant that posts the opening message")
        if self.initial_agent is not None and self.initial_agent not in names:
            raise ValueError(f"initial_agent '{self.initial_agent}' is not one of the agents")
        for agent in self.agents:
            for handoff in agent.handoffs or ():
                if handoff.target not in names or handoff.target == agent.name:
                    raise ValueError(
                        f"agent '{agent.name}' hands off to '{handoff.target}', "
                        "which is not another agent of the group"
                    )
        return self


class AG2GroupChatEndpoint(AgenticEndpoint):
    """AG2 group chat endpoint, run in-process.

    Opens an in-memory ``ag2.network.Hub``, registers the agents of an
    :class:`AG2GroupChatRequest`, opens a ``workflow`` channel driven by a ``TransitionGraph``
    and waits until the channel closes; no subprocess is started. ``call(client=...)`` accepts
    an AG2 ``ModelConfig`` for every agent, or a mapping of agent name to ``ModelConfig``.
    """

    is_cli: ClassVar[bool] = False

    @reported
    async def call(
        self,
        request: Mapping[str, Any] | BaseModel | None = None,
        *,
        client: Any = None,
        env: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> AG2Result:
        r = validated(self, AG2GroupChatRequest, request, kwargs, env)
        configs = {a.name: model_config(a.config or r.config, client, a.name) for a in r.agents}
        # ag2 loads on the first call (see the package's docstring)
        from ag2 import Agent
        from ag2.knowledge import MemoryKnowledgeStore
        from ag2.network import (
            EV_CHANNEL_CLOSED,
            EV_PACKET,
            EV_TEXT,
            Hub,
            HubClient,
            LocalLink,
            Passport,
            Resume,
        )

        hub = await Hub.open(
            MemoryKnowledgeStore(), ttl_sweep_interval=0, expectation_sweep_interval=0
        )
        clients: list[HubClient] = []
        try:
            link = LocalLink(hub)
            seeder_client = HubClient(link, hub=hub)
            clients.append(seeder_client)
            seeder = await seeder_client.register_human(Passport(name=SEEDER, kind="human"))
            ids: dict[str, str] = {}
            for spec in r.agents:
                agent: Agent[str] = Agent(
                    spec.name,
                    prompt=spec.prompt or (),
                    config=configs[spec.name],
                    tools=[_handoff_tool(h) for h in spec.handoffs or ()],
                )
                hub_client = HubClient(link, hub=hub)
                clients.append(hub_client)
                handle = await hub_client.register(
                    agent, Passport(name=spec.name), Resume(), attach_plugin=False
                )
                ids[spec.name] = handle.agent_id
            graph = _graph(r, seeder.agent_id, ids)
            channel = await seeder.open(
                type="workflow",
                target=list(ids.values()),
                knobs={"graph": graph.to_dict(), "context_vars": dict(r.context_vars or {})},
            )
            await channel.send(r.message)
            closed = await seeder.next_envelope(
                predicate=lambda e: (
                    e.event_type == EV_CHANNEL_CLOSED and e.channel_id == channel.channel_id
                ),
                timeout=self.config.timeout,
            )
            wal = await hub.read_wal(channel.channel_id)
        finally:
            for hub_client in reversed(clients):
                await hub_client.close()
            await hub.close()
        names = {agent_id: name for name, agent_id in ids.items()}
        names[seeder.agent_id] = SEEDER
        messages: list[dict[str, str]] = []
        for envelope in wal:
            if envelope.event_type == EV_TEXT:
                text = envelope.event_data.get("text", "")
            elif envelope.event_type == EV_PACKET:
                text = envelope.event_data.get("body", "")
            else:
                continue
            messages.append(
                {"name": names.get(envelope.sender_id, envelope.sender_id), "content": str(text)}
            )
        final = messages[-1]["content"] if len(messages) > 1 else ""
        return AG2Result(
            (),
            0,
            final,
            "",
            messages=tuple(messages),
            close_reason=closed.event_data.get("reason"),
        )


def _graph(r: AG2GroupChatRequest, seeder_id: str, ids: Mapping[str, str]) -> Any:
    """The TransitionGraph: the opening message goes to the initial agent, then the pattern."""
    from ag2.network import AgentTarget, FromSpeaker, TerminateTarget, Transition, TransitionGraph

    order = [a.name for a in r.agents]
    if r.initial_agent is not None:
        start = order.index(r.initial_agent)
        order = order[start:] + order[:start]
    steps = [ids[name] for name in order]
    transitions = [Transition(when=FromSpeaker(seeder_id), then=AgentTarget(steps[0]))]
    max_turns: int | None
    if (r.pattern or "round_robin") == "round_robin":
        for i, speaker in enumerate(steps):
            nxt = steps[(i + 1) % len(steps)]
            transitions.append(Transition(when=FromSpeaker(speaker), then=AgentTarget(nxt)))
        reason, max_turns = "round_robin_complete", r.max_rounds or DEFAULT_ROUND_ROBIN_ROUNDS
    else:
        for speaker, nxt in itertools.pairwise(steps):
            transitions.append(Transition(when=FromSpeaker(speaker), then=AgentTarget(nxt)))
        reason, max_turns = "sequence_complete", r.max_rounds
    return TransitionGraph(
        initial_speaker=seeder_id,
        transitions=transitions,
        default_target=TerminateTarget(reason),
        max_turns=max_turns,
    )


def _handoff_tool(handoff: AG2Handoff) -> "FunctionTool":
    """A tool the model calls to hand the next turn to ``handoff.target``."""
    # ag2 loads on the first call (see the package's docstring)
    from ag2.network import Handoff
    from ag2.tools import tool

    def transfer(reason: str = "") -> Handoff:
        return Handoff(target=handoff.target, reason=reason)

    name = "transfer_to_" + re.sub(r"[^A-Za-z0-9_-]", "_", handoff.target)
    return tool(transfer, name=name[:64], description=handoff.condition)
