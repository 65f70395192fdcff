"""AG2 remote NLIP agent: the request model and the endpoint class.

``AG2NlipRequest`` describes one exchange with a remote agent that speaks NLIP (Natural Language
Interaction Protocol). In AG2 1.2 a remote NLIP agent is an ``ag2.Agent`` whose model config is
``ag2.extensions.nlip.NlipConfig``: its options (``url``, ``timeout``, ``max_retries``), the
agent's ``name``, the turn (``message`` plus earlier ``history``, all posted to
``<url>/nlip/`` because NLIP is stateless) and the context ``variables`` sent along. Field names
follow AG2's parameter names. ``NlipConfig`` needs the ``nlip-sdk`` package; request headers
are left out because they would carry credentials.

Source: https://pypi.org/project/ag2/1.2.1/ (modules ag2.extensions.nlip.config, ag2.extensions.nlip.client)
"""

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from provcat.endpoints.agentic import AgenticEndpoint
from provcat.endpoints.request import RequestModel
from provcat.providers.ag2._runtime import (
    AG2Message,
    AG2Result,
    ask_once,
    reported,
    validated,
)

__all__ = ["AG2NlipEndpoint", "AG2NlipRequest"]


class AG2NlipRequest(RequestModel):
    """Options of one exchange with a remote NLIP agent."""

    message: str = Field(min_length=1, description="The text sent as the NLIP query.")
    url: str = Field(
        min_length=1, description="Base URL of the NLIP server, e.g. http://host:8000."
    )
    history: list[AG2Message] | None = Field(
        None, description="Earlier turns, oldest first, sent along as the conversation history."
    )
    name: str | None = Field(
        None, min_length=1, description="Local name of the remote agent (default 'remote')."
    )
    timeout: float | None = Field(
        None, gt=0, description="Per-request timeout in seconds (NlipConfig default 60)."
    )
    max_retries: int | None = Field(
        None, ge=1, description="Attempts on timeouts or connection errors (default 3)."
    )
    variables: dict[str, Any] | None = Field(
        None, description="Context variables sent as the NLIP context submessage."
    )


class AG2NlipEndpoint(AgenticEndpoint):
    """AG2 remote NLIP agent endpoint, driven in-process.

    Runs one ``Agent.ask`` turn on an ``ag2.Agent`` configured with ``NlipConfig(url=...)``,
    which posts the conversation to ``<url>/nlip/`` and returns the remote reply.
    ``call(client=...)`` accepts an AG2 ``ModelConfig`` that replaces ``NlipConfig`` (tests, or
    a ready-made ``NlipConfig`` with its own ``httpx_client_factory`` or headers).
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
        r = validated(self, AG2NlipRequest, request, kwargs, env)
        from ag2 import Agent  # ag2 loads on the first call (see the package's docstring)

        config = client
        if config is None:
            from ag2.extensions.nlip import NlipConfig

            options: dict[str, Any] = {}
            if r.timeout is not None:
                options["timeout"] = r.timeout
            if r.max_retries is not None:
                options["max_retries"] = r.max_retries
            # NlipConfig is a stand-in that raises ImportError naming nlip-sdk when it is missing
            config = NlipConfig(url=r.url, **options)  # type: ignore[abstract]
        name = r.name or "remote"
        agent: Agent[str] = Agent(
            name, config=config, variables=dict(r.variables) if r.variables else None
        )
        return await ask_once(agent, name, r.message, r.history, self.config.timeout)
