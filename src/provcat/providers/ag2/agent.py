"""A single AG2 agent run in-process: the request model and the endpoint class.

``AG2AgentRequest`` describes one turn with an AG2 1.2 ``ag2.Agent``: the agent's construction
options (``name``, ``prompt``, ``config``, ``variables``) and the turn ``Agent.ask`` runs
(``message``, plus earlier ``history`` replayed into the agent's stream). Field names follow
AG2's own parameter names. AG2 1.2 has no ``ConversableAgent``, ``llm_config``,
``human_input_mode`` or ``max_turns``: one ``ask`` runs the model and its tool calls until the
model answers. Tools are Python callables and cannot travel in a request.

Source: https://pypi.org/project/ag2/1.2.1/ (module ag2.agent: Agent, Agent.ask)
Source: https://docs.ag2.ai/latest/
"""

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from provcat.endpoints.agentic import AgenticEndpoint
from provcat.endpoints.request import RequestModel
from provcat.providers.ag2._runtime import (
    AG2Message,
    AG2ModelConfig,
    AG2Result,
    ask_once,
    model_config,
    reported,
    validated,
)

__all__ = ["AG2AgentEndpoint", "AG2AgentRequest"]


class AG2AgentRequest(RequestModel):
    """Options of one AG2 single-agent turn."""

    message: str = Field(min_length=1, description="The user message Agent.ask sends.")
    history: list[AG2Message] | None = Field(
        None, description="Earlier turns, oldest first, replayed into the agent's history."
    )
    name: str | None = Field(
        None, min_length=1, description="Agent name, Agent's first argument (default 'assistant')."
    )
    prompt: str | list[str] | None = Field(
        None, description="System prompt of the agent, or several prompt parts in order."
    )
    config: AG2ModelConfig | None = Field(
        None,
        description="The LLM the agent uses (Agent's config); required unless a test "
        "or caller passes a ModelConfig as call(client=...).",
    )
    variables: dict[str, Any] | None = Field(
        None, description="Context variables available to the agent and its tools."
    )


class AG2AgentEndpoint(AgenticEndpoint):
    """AG2 single-agent endpoint, run in-process.

    Builds the ``ag2.Agent`` described by an :class:`AG2AgentRequest` and runs one turn with
    ``Agent.ask``; no subprocess is started. ``call(client=...)`` accepts an AG2 ``ModelConfig``
    (for example ``ag2.testing.TestConfig``) that replaces the request's ``config``.
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
        r = validated(self, AG2AgentRequest, request, kwargs, env)
        from ag2 import Agent  # ag2 loads on the first call (see the package's docstring)

        name = r.name or "assistant"
        agent: Agent[str] = Agent(
            name,
            prompt=r.prompt or (),
            config=model_config(r.config, client, name),
            variables=dict(r.variables) if r.variables else None,
        )
        return await ask_once(agent, name, r.message, r.history, self.config.timeout)
