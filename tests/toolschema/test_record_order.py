"""The order ``finalize_records(sort=True)`` gives a tool's diagnostics: by severity (error,
warning, info), then path, then code, compared by code point, ties kept in the order given
(what one stable sort on that triple gives, whichever way the compile orders them)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from provcat.toolschema.policy import finalize_records
from provcat.toolschema.records import diagnostic_record
from provcat.toolschema.types import CompileAbility, Diagnostic

_RANK = {"error": 0, "warning": 1, "info": 2}

_diagnostics = st.lists(
    st.builds(
        lambda severity, path, code, message: Diagnostic(
            provider_id="t",
            tool_name="tool",
            severity=severity,
            code=code,
            message=message,
            path=path,
            compile=CompileAbility(supported=True, lossy=False, detail="kept"),
        ),
        st.sampled_from(["error", "warning", "info"]),
        # prefixes of one another, a non-ASCII one and repeats, so ties and prefix order occur
        st.sampled_from(
            ["inputSchema", "inputSchema.a", "inputSchema.a.b", "inputSchema.Z", 'inputSchema["é"]']
        ),
        st.sampled_from(["t/a", "t/b", "t/a-b"]),
        st.integers(0, 3).map(str),  # tells apart records that tie on the triple
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(_diagnostics)
def test_kept_diagnostics_sort_by_severity_path_code_and_keep_ties_in_order(
    given_order: list[Diagnostic],
) -> None:
    result = finalize_records(
        provider_id="t",
        tool_name="tool",
        output={},
        transformations=[],
        diagnostics=[diagnostic_record(d) for d in given_order],
        allow_lossy=True,
        sort=True,
    )
    # errors that compiling resolved (all of these: ``compile.supported``) are dropped
    survivors = [d for d in given_order if d.severity != "error"]
    expected = sorted(survivors, key=lambda d: (_RANK[d.severity], d.path, d.code))
    assert [d.message for d in result.diagnostics] == [d.message for d in expected]
    assert list(result.diagnostics) == expected
