"""AgentResult: what one run of an agentic endpoint produced.

Its own module so that a process using only endpoints reached over HTTP never creates the class;
:mod:`provcat.endpoints.endpoint` re-exports it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["AgentResult"]


@dataclass(frozen=True, slots=True)
class AgentResult:
    """What an agentic run produced."""

    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0
