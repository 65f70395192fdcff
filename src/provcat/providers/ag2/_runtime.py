"""What the three AG2 endpoints share: the model-config and history request objects, the result
type, and the bridge from those request objects to AG2 1.2 (the ``ag2`` package).

Nothing here imports ``ag2`` at module import time; the functions that need it import it when an
endpoint is called. Credentials never travel in a request: AG2's model configs read their API
keys from the environment (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ...), so a request that
names a credential option is refused.

Source: https://pypi.org/project/ag2/1.2.1/ (modules ag2.config, ag2.agent, ag2.events)
"""

import functools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from pydantic import BaseModel, Field, field_validator

from provcat.endpoints.agentic import AgentResult
from provcat.endpoints.endpoint import Endpoint
from provcat.endpoints.request import RequestModel
from provcat.errors import APIError, APITimeoutError, EndpointConfigurationError
from provcat.redact import sanitize

if TYPE_CHECKING:
    from ag2.config import ModelConfig
    from ag2.events import BaseEvent

__all__ = ["AG2Message", "AG2ModelConfig", "AG2Result"]

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

ModelProviderName = Literal[
    "openai",
    "openai_responses",
    "anthropic",
    "gemini",
    "vertexai",
    "bedrock",
    "mistral",
    "ollama",
    "dashscope",
    "xai",
    "zai",
    "typesafe",
]

# provider -> the ag2.config class that builds its client (each needs that vendor's ag2 extra)
_CONFIG_CLASSES: dict[str, str] = {
    "openai": "OpenAIConfig",
    "openai_responses": "OpenAIResponsesConfig",
    "anthropic": "AnthropicConfig",
    "gemini": "GeminiConfig",
    "vertexai": "VertexAIConfig",
    "bedrock": "BedrockConfig",
    "mistral": "MistralConfig",
    "ollama": "OllamaConfig",
    "dashscope": "DashScopeConfig",
    "xai": "XAIConfig",
    "zai": "ZAIConfig",
    "typesafe": "TypeSafeConfig",
}

_CREDENTIAL_WORDS = ("key", "token", "secret", "password", "credential")


class AG2ModelConfig(RequestModel):
    """The LLM an AG2 agent talks to: one of ``ag2.config``'s ``*Config`` classes."""

    provider: ModelProviderName = Field(
        description="Which ag2.config class builds the client, e.g. openai -> OpenAIConfig, "
        "anthropic -> AnthropicConfig (each needs that vendor's ag2 extra installed)."
    )
    model: str = Field(min_length=1, description="Model name passed as the config's model.")
    options: dict[str, Any] | None = Field(
        None,
        description="Other keyword arguments of that config class (temperature, base_url, "
        "max_tokens, ...). Credentials are refused: AG2 reads API keys from the environment.",
    )

    @field_validator("options")
    @classmethod
    def _no_credentials(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        for name in value or {}:
            if name == "model":
                raise ValueError("give the model in 'model', not in options")
            if any(word in name.casefold() for word in _CREDENTIAL_WORDS):
                raise ValueError(
                    f"'{name}' looks like a credential; AG2 reads API keys from the environment"
                )
        return value


class AG2Message(RequestModel):
    """One earlier turn of a conversation, replayed into the agent's history."""

    role: Literal["user", "assistant"] = Field(
        description="'user' for a turn sent to the model, 'assistant' for the model's reply."
    )
    content: str = Field(description="The turn's text.")


@dataclass(frozen=True, slots=True)
class AG2Result(AgentResult):
    """An in-process AG2 run: ``stdout`` is the final reply, ``argv`` is empty.

    ``messages`` is the transcript (``{"name": ..., "content": ...}``), ``variables`` the context
    variables after the run and ``close_reason`` why a group chat ended.
    """

    messages: tuple[Mapping[str, str], ...] = ()
    variables: Mapping[str, Any] = field(default_factory=dict)
    close_reason: str | None = None


def validated(
    endpoint: Endpoint,
    model: type[M],
    request: Mapping[str, Any] | BaseModel | None,
    kwargs: Mapping[str, Any],
    env: Mapping[str, str] | None,
) -> M:
    """The request defaults, ``request`` and ``kwargs`` validated by ``model`` (typos raise
    :class:`EndpointConfigurationError` before anything runs)."""
    if env is not None:
        raise EndpointConfigurationError(
            "env", "AG2 runs in this process: set its environment with os.environ instead"
        )
    return model.model_validate(endpoint.payload(request, **kwargs))


def model_config(spec: AG2ModelConfig | None, override: Any, agent: str) -> "ModelConfig":
    """The AG2 ``ModelConfig`` for ``agent``: ``override`` (a ModelConfig, or a mapping of
    agent name to one) wins over ``spec``; one of them is required."""
    if isinstance(override, Mapping):
        override = override.get(agent)
    if override is not None:
        return override  # type: ignore[no-any-return]
    if spec is None:
        raise EndpointConfigurationError(
            "config", f"agent '{agent}' has no model config: set 'config' in the request"
        )
    import ag2.config  # ag2 loads on the first call (see the package's docstring)

    factory = getattr(ag2.config, _CONFIG_CLASSES[spec.provider])
    made: ModelConfig = factory(model=spec.model, **(spec.options or {}))
    return made


def history_events(history: Sequence[AG2Message] | None) -> list["BaseEvent"]:
    """AG2 history events for earlier turns: a ModelRequest per user turn, a ModelResponse per
    assistant turn."""
    from ag2.events import ModelMessage, ModelRequest, ModelResponse, TextInput

    events: list[BaseEvent] = []
    for turn in history or ():
        if turn.role == "user":
            events.append(ModelRequest([TextInput(turn.content)]))
        else:
            events.append(ModelResponse(ModelMessage(turn.content)))
    return events


def transcript(
    history: Sequence[AG2Message] | None, *turns: tuple[str, str]
) -> tuple[dict[str, str], ...]:
    earlier = tuple({"name": t.role, "content": t.content} for t in history or ())
    return earlier + tuple({"name": name, "content": text} for name, text in turns)


C = TypeVar("C", bound=Callable[..., Awaitable[Any]])


def reported(call: C) -> C:
    """An AG2 endpoint's ``call`` whose failures are provcat's: AG2 and the vendor SDK it drives
    raise their own errors, whose messages may quote a credential (an SDK's 401 echoes the key
    it sent), so anything else is an :class:`~provcat.errors.APIError` with a sanitized message
    (a timeout an :class:`~provcat.errors.APITimeoutError`), the original left unchained."""

    @functools.wraps(call)
    async def run(self: Endpoint, *args: Any, **kwargs: Any) -> Any:
        config = self.config
        try:
            return await call(self, *args, **kwargs)
        except (APIError, EndpointConfigurationError, ImportError):  # provcat's own, or an extra
            raise
        except TimeoutError:
            error: APIError = APITimeoutError(
                f"the agent did not answer within {config.timeout:g} s",
                provider=config.provider,
                endpoint=config.endpoint,
            )
        except Exception as exc:
            status = getattr(exc, "status_code", None)
            error = APIError(
                f"{type(exc).__name__}: {sanitize(str(exc))}",
                provider=config.provider,
                endpoint=config.endpoint,
                status=status if isinstance(status, int) else None,
            )
        raise error

    return cast(C, run)


async def within(timeout: float, work: Awaitable[T]) -> T:
    """``work``, cancelled with :class:`TimeoutError` after the endpoint's timeout."""
    import asyncio  # only when an agent runs: importing it costs a cold start ~30 ms

    return await asyncio.wait_for(work, timeout=timeout)


async def ask_once(
    agent: Any,
    name: str,
    message: str,
    history: Sequence[AG2Message] | None,
    timeout: float,
) -> AG2Result:
    """One ``Agent.ask`` turn on top of ``history``, as an :class:`AG2Result`."""
    from ag2.stream import MemoryStream

    stream = MemoryStream()
    if history:
        await stream.history.replace(history_events(history))
    reply = await within(timeout, agent.ask(message, stream=stream))
    text = reply.body or ""
    return AG2Result(
        (),
        0,
        text,
        "",
        messages=transcript(history, ("user", message), (name, text)),
        variables=dict(reply.context.variables),
    )
