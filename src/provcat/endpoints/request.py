"""The base every request model derives from, and the one check of a single request field.

A request model lists a vendor API's documented top-level request fields. It forbids unknown
fields, so a misspelled request default is rejected when the catalog is generated, or when a
caller configures an endpoint, instead of travelling to the vendor as request data.

Modules that define request models do not use ``from __future__ import annotations``: pydantic
would compile and evaluate each string annotation one field at a time, on the cold path of the
first use of an endpoint (and inspection imports every request model: ~100 classes, ~750 fields).
Quote only true forward references; a test checks that no request model has string annotations.
"""

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import AliasChoices, BaseModel, ConfigDict, ValidationError

from provcat.lazy_names import lazy_names

if TYPE_CHECKING:
    from provcat.endpoints.sdk_deviation import DeviationAspect, SdkDeviation

    _Deviations = tuple[SdkDeviation, ...]
else:  # the class is made where a model records a deviation (provcat.endpoints.sdk_deviation)
    _Deviations = tuple

__all__ = [
    "DeviationAspect",
    "RequestModel",
    "SdkDeviation",
    "field_names",
    "field_problem",
    "suggest",
]


# ``DeviationAspect`` and ``SdkDeviation`` live in provcat.endpoints.sdk_deviation, loaded when first named
# (most processes never create the class)
__getattr__ = lazy_names(
    __name__,
    {
        "DeviationAspect": "provcat.endpoints.sdk_deviation",
        "SdkDeviation": "provcat.endpoints.sdk_deviation",
    },
)


class RequestModel(BaseModel):
    """Strict pydantic model of one endpoint's request body or command options."""

    # defer_build: the validation schema is built on first use, so importing the catalog's ~100
    # request models stays cheap for a process that uses one or two of them.
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

    # Known differences from the vendor's SDK, read by the drift check; never request data.
    # A subclass inherits its parent's list (extend it with ``Parent.sdk_deviations + (...)``).
    sdk_deviations: ClassVar[_Deviations] = ()


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
    """Why ``model`` refuses ``key=value`` as one of its fields, or None when it accepts it."""
    names = field_names(model)
    if key not in names:
        return f"'{key}' is not a field of request model {model.__name__}"
    try:  # the model's own validator, so constraints and field validators apply
        model.__pydantic_validator__.validate_assignment(model.model_construct(), names[key], value)
    except ValidationError as exc:
        return f"{key}={value!r} is rejected by {model.__name__}: {exc.errors()[0]['msg']}"
    return None


def suggest(key: str, names: Iterable[str]) -> str | None:
    """A "did you mean" hint for a misspelled name, or None."""
    import difflib  # only when a name is wrong

    close = difflib.get_close_matches(key, sorted(names), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
