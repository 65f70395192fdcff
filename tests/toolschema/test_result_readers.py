"""A compile result reads the same every way a caller may read it: attributes, dumps, equality,
repr, pickling, copies."""

from __future__ import annotations

import copy
import pickle

import pytest

from provcat.toolschema import CompileResult, compile_tool
from tests.toolschema.conftest import FIXTURES


def _validated(result: CompileResult) -> CompileResult:
    return CompileResult.model_validate(result.model_dump(by_alias=True))


@pytest.mark.parametrize("lossy", [False, True])
@pytest.mark.parametrize("name", ["refund_order", "tag_resource", "apply_coupon"])
def test_every_reader_sees_the_records(name: str, lossy: bool) -> None:
    def fresh() -> CompileResult:
        return compile_tool(FIXTURES[name], "openai", allow_lossy=lossy)

    reference = _validated(fresh())
    assert fresh() == reference
    assert fresh().model_dump(mode="json", by_alias=True) == reference.model_dump(
        mode="json", by_alias=True
    )
    assert fresh().model_dump_json(by_alias=True) == reference.model_dump_json(by_alias=True)
    assert repr(fresh()) == repr(reference)
    assert pickle.loads(pickle.dumps(fresh())) == reference
    assert copy.deepcopy(fresh()) == reference
    assert fresh().model_copy(update={"tool_name": "x"}).diagnostics == (reference.diagnostics)
    assert fresh().transformations == reference.transformations
    assert fresh().lossy == reference.lossy
