"""The comparison engine on small hand-made SDK types: every aspect it reports, in each of the
three forms SDKs publish request parameters in, and the deviation record."""

# The SDK-side types below are spelled the way SDKs spell them (Optional, Union), on purpose.
# ruff: noqa: UP007, UP045

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, Optional, Required, Union

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from provcat.endpoints.request import RequestModel, SdkDeviation

from .compare import Difference, compare, split_recorded
from .facts import model_facts, sdk_facts


class Ours(RequestModel):
    model: str
    mode: Literal["a", "b"] | None = None
    kind: str | None = None
    count: int | None = Field(None, ge=1, le=10)
    camel_name: bool | None = Field(None, alias="camelName")
    only_ours: bool | None = None


class SdkDict(TypedDict, total=False):
    model: Required[Union[str, Literal["m-1"]]]
    mode: Optional[Literal["a", "b", "c"]]  # a value the model lacks
    kind: Literal["x", "y"]  # the model takes any string: looser
    count: int
    camelName: bool
    only_sdk: NotRequired[str]


class SdkModel(BaseModel):
    model: Annotated[str, Field(min_length=1)]
    mode: Optional[Literal["a"]] = None  # the model has an extra value
    count: Optional[int] = Field(None, ge=0, le=10)
    camel_name: Optional[bool] = None
    only_ours: bool  # required in the SDK


def sdk_function(
    model: str,
    *,
    mode: Optional[Literal["a", "b"]] = None,
    camel_name: bool = False,
    timeout: float = 1,
) -> None:
    """An SDK method whose keyword arguments are the request fields."""


def _diffs(target: object, ignore: tuple[str, ...] = ()) -> set[tuple[str, str]]:
    return {(d.field, d.aspect) for d in compare(model_facts(Ours), sdk_facts(target), ignore)}


def test_typeddict_fields_required_values_and_extras() -> None:
    assert _diffs(SdkDict) == {
        ("mode", "values"),
        ("kind", "values"),
        ("only_sdk", "missing"),
        ("only_ours", "extra"),
    }


def test_pydantic_fields_required_values_and_bounds() -> None:
    assert _diffs(SdkModel) == {
        ("model", "bounds"),
        ("mode", "values"),
        ("count", "bounds"),
        ("only_ours", "required"),
        ("kind", "extra"),
    }


def test_signature_parameters_with_call_options_ignored() -> None:
    assert _diffs(sdk_function, ignore=("timeout",)) == {
        ("kind", "extra"),
        ("count", "extra"),
        ("only_ours", "extra"),
    }
    assert ("timeout", "missing") in _diffs(sdk_function)


def test_a_difference_reads_as_vendor_endpoint_field_and_both_sides() -> None:
    diff = next(d for d in compare(model_facts(Ours), sdk_facts(SdkDict)) if d.field == "mode")
    line = diff.line("acme chat (x:Ours)", "acme-sdk 1.0 (acme:Params)")
    assert line == (
        "acme chat (x:Ours) field 'mode' [values]: model says ['a', 'b']; "
        "acme-sdk 1.0 (acme:Params) says ['a', 'b', 'c']"
    )


def test_recorded_deviations_hide_only_their_own_sdk_field_and_aspect() -> None:
    diffs = [Difference("mode", "values", "x", "y"), Difference("only_sdk", "missing", "x", "y")]
    mine = SdkDeviation("acme", "mode", "values", "the API reference lists c as beta only")
    other_sdk = SdkDeviation("other", "only_sdk", "missing", "a header")
    other_aspect = SdkDeviation("acme", "only_sdk", "extra", "a header")
    left, used = split_recorded(diffs, "acme", (mine, other_sdk, other_aspect))
    assert [d.field for d in left] == ["only_sdk"]
    assert used == {mine}


def test_a_deviation_needs_a_reason() -> None:
    with pytest.raises(ValueError, match="needs a reason"):
        SdkDeviation("acme", "mode", "values", "  ")
