"""What the whole-set checks share: the context they report into, and the wording of a key
space's problems as positioned diagnostics (naming the earlier claim)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.diagnostics import Diagnostic, Loc, diag
from generator.introspect import Importer, Resolved
from provcat.catalog.keyspace import KeyProblem, KeySpace

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["Context", "at", "claimed", "reported", "space"]


def at(loc: Loc) -> str:
    return f"{loc[0]}:{loc[1]}:{loc[2]}"


def space(code: str) -> KeySpace[Loc]:
    return KeySpace(code, "")


def claimed(problem: KeyProblem[Loc] | None) -> Diagnostic | None:
    """A generator-only space's problem: its own code, case variants included."""
    if problem is None:
        return None
    where = f" ({at(problem.earlier)})" if problem.earlier is not None else ""
    return diag(problem.code, problem.at, problem.message + where)


def reported(problem: KeyProblem[Loc] | None) -> Diagnostic | None:
    """A shared validator's problem as a positioned diagnostic, naming the earlier claim."""
    if problem is None:
        return None
    code = "case_variant_collision" if problem.variant else problem.code
    code = {"not_an_endpoint_class": "invalid_endpoint_class"}.get(code, code)
    where = f" ({at(problem.earlier)})" if problem.earlier is not None else ""
    return diag(code, problem.at, problem.message + where, problem.hint)


class Context:
    """What the whole-set checks share: the importer and what they found so far."""

    def __init__(self, importer: Importer) -> None:
        self.importer = importer
        self.out: list[Diagnostic] = []
        # canonical provider spelling -> canonical provider key, for every valid claim
        self.provider_owner: dict[str, str] = {}
        # provider canonical key -> request models of its endpoints (those that resolved)
        self.request_models: dict[str, list[type[BaseModel]]] = {}
        self._factory_results: dict[int, Resolved] = {}

    def report(self, found: Diagnostic | None) -> None:
        if found is not None:
            self.out.append(found)
