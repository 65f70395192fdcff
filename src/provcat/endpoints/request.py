"""The base every request model derives from, the one check of a single request field, and the
known deviations of a request model from its vendor's SDK.

A request model lists a vendor API's documented top-level request fields. It forbids unknown
fields, so a misspelled request default is rejected when the catalog is generated, or when a
caller configures an endpoint, instead of travelling to the vendor as request data.

Modules that define request models do not use ``from __future__ import annotations``: pydantic
would compile and evaluate each string annotation one field at a time, on the cold path of the
first use of an endpoint (and inspection imports every request model: ~100 classes, ~750 fields).
Quote only true forward references; a test checks that no request model has string annotations.
"""

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, ValidationError

__all__ = [
    "DeviationAspect",
    "RequestModel",
    "SdkDeviation",
    "field_names",
    "field_problem",
]

DeviationAspect = Literal["missing", "extra", "required", "values", "bounds"]
"""What differs: a field only the SDK has, one only the model has, which side requires it, the
enum/literal values accepted, or a numeric or length bound."""


@dataclass(frozen=True, slots=True)
class SdkDeviation:
    """A known, intended difference between a request model and a vendor's official SDK.

    The drift check (``tests/drift``) compares every request model with the typed request
    parameters of its vendor's SDK at the pinned version; a difference fails unless the model
    records it here with the reason the model is right (or the SDK is), e.g. a field the SDK sends
    as a header, or an SDK type that lags the vendor's API reference.
    """

    sdk: str  # the SDK's distribution name on PyPI, e.g. "openai"
    field: str  # the field as the report names it: the SDK's spelling, else the model's
    aspect: DeviationAspect
    reason: str  # why the difference is right, with the vendor page that says so

    def __post_init__(self) -> None:
        if not self.reason.strip():
            raise ValueError(f"SdkDeviation {self.sdk}:{self.field}:{self.aspect} needs a reason")


class RequestModel(BaseModel):
    """Strict pydantic model of one endpoint's request body or command options."""

    # defer_build: the validation schema is built on first use, so importing the catalog's ~100
    # request models stays cheap for a process that uses one or two of them. Vendors name body
    # fields model_* (Cerebras' model_parameters), which pydantic before 2.10 warns about
    # unless its protected namespaces are off.
    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, defer_build=True, protected_namespaces=()
    )

    # Known differences from the vendor's SDK, read by the drift check; never request data.
    # A subclass inherits its parent's list (extend it with ``Parent.sdk_deviations + (...)``).
    sdk_deviations: ClassVar[tuple[SdkDeviation, ...]] = ()

    # Whether the server streams an answer when the body names no ``stream`` (Ollama's native
    # routes): ``call()`` then sends ``stream: false`` itself, as the vendor's SDK does, so that
    # it gets one JSON answer (with its usage) instead of raw NDJSON. Never request data.
    streams_by_default: ClassVar[bool] = False


def field_names(model: type[BaseModel]) -> dict[str, str]:
    """Every accepted spelling of a field (its name and aliases) -> the field's name."""
    names: dict[str, str] = {}
    for name, info in model.model_fields.items():
        names[name] = name
        spellings: list[Any] = [info.alias, info.validation_alias]
        if isinstance(info.validation_alias, AliasChoices):
            spellings.extend(info.validation_alias.choices)
        for spelling in spellings:
            if isinstance(spelling, str):
                names[spelling] = name
    return names


def field_problem(model: type[BaseModel], key: str, value: Any) -> str | None:
    """Why ``model`` refuses ``key=value`` as one of its fields, or None when it accepts it.
    The value is never quoted (a request default may hold anything, a credential included):
    its type and the model's reason say what is wrong with it."""
    names = field_names(model)
    if key not in names:
        return f"'{key}' is not a field of request model {model.__name__}"
    try:  # the model's own validator, so constraints and field validators apply
        model.__pydantic_validator__.validate_assignment(model.model_construct(), names[key], value)
    except ValidationError as exc:
        kind = type(value).__name__
        article = "an" if kind[:1] in ("a", "e", "i", "o", "u") else "a"
        return (
            f"'{key}' ({article} {kind}) is rejected by {model.__name__}: "
            f"{exc.errors(include_url=False)[0]['msg']}"
        )
    return None
