"""A small provider: two API endpoints, one agentic endpoint, request models and factories."""

from typing import Literal

from pydantic import BaseModel, Field

from provcat.endpoints.agentic import AgenticEndpoint
from provcat.endpoints.endpoint import Endpoint
from provcat.endpoints.request import RequestModel


class ChatRequest(RequestModel):
    model: str = Field(description="model id")
    temperature: float | None = Field(None, ge=0, le=2, description="sampling temperature")
    top_p: float | None = Field(None, alias="topP", description="nucleus sampling")


class AgentRequest(RequestModel):
    prompt: str = Field(description="the task")
    effort: Literal["low", "medium", "high"] | None = Field(None, description="effort")
    yolo: bool | None = Field(None, description="skip approvals")


FACTORY_CALLS = 0


def chat_request_factory() -> type[BaseModel]:
    global FACTORY_CALLS
    FACTORY_CALLS += 1
    return ChatRequest


def failing_factory() -> type[BaseModel]:
    raise RuntimeError("the factory could not build the model")


def wrong_factory() -> object:
    return 42


class NotAModel:
    pass


class NotAnEndpoint:
    pass


class AlphaChatEndpoint(Endpoint):
    pass


class AlphaEmbedEndpoint(Endpoint):
    pass


class AlphaAgentEndpoint(AgenticEndpoint):
    pass
