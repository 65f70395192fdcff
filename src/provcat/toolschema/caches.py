"""What the compiler remembers between calls, and a way to forget it.

Compiling keeps, per process: each target's walk plan (with the verdicts it reached and the
programs and reports it worked out per key shape), built transformations, what
every record of one rule shares (compile abilities, diagnostic heads), path segments and filled
wording. All are bounded. :func:`clear_caches` empties them: the
next compile works as in a fresh process. ``make bench`` calls it before every round of
provcat's, so its figures never profit from having seen the corpus in an earlier round.
"""

from __future__ import annotations

from provcat.toolschema import core, plan, wording

__all__ = ["clear_caches"]


def clear_caches() -> None:
    """Forget everything remembered by earlier compiles (results are the same either way)."""
    plan._PLANS.clear()
    for memo in (
        core._ABILITIES,
        core._DIAGNOSTIC_HEADS,
        core._TRANSFORMATIONS,
        core.PATH_SEGMENTS,
        wording._FIELDS,
        wording.PARTS,
    ):
        memo.clear()
