"""A diagnostic: a stable code, a severity, a position, a message and a hint; and its renderings."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from generator.codes import CODES, Severity

Loc = tuple[str, int, int]


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun in the number it takes: ``1 file``, ``2 files``, ``2 aliases``."""
    return f"{n} {one if n == 1 else many or one + 's'}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found: where (file, line, column), its code, severity, message and hint."""

    file: str
    line: int
    column: int
    code: str
    message: str
    hint: str

    @property
    def loc(self) -> Loc:
        return (self.file, self.line, self.column)

    @property
    def severity(self) -> Severity:
        return CODES[self.code].severity

    def sort_key(self) -> tuple[str, int, int, str, str, str]:
        # every field: two diagnostics that differ only in their hint still sort one way
        return (self.file, self.line, self.column, self.code, self.message, self.hint)

    def as_text(self) -> str:
        text = f"{self.file}:{self.line}:{self.column}: {self.severity}[{self.code}] {self.message}"
        return f"{text}\n    hint: {self.hint}" if self.hint else text

    def as_json(self) -> dict[str, str | int]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }

    def as_github(self) -> str:
        """A GitHub workflow command: its data escaped as GitHub's toolkit does (``%``, CR,
        LF), and each property's value also its ``:`` and ``,`` (a file name may hold them)."""

        def esc(value: str) -> str:
            return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

        def prop(value: object) -> str:
            return esc(str(value)).replace(":", "%3A").replace(",", "%2C")

        props = f"file={prop(self.file)},line={self.line},col={self.column},title={prop(self.code)}"
        return f"::{self.severity} {props}::{esc(self.message)} (hint: {esc(self.hint)})"


def diag(code: str, loc: Loc, message: str, hint: str | None = None) -> Diagnostic:
    """Make a diagnostic; the hint defaults to the code's own."""
    if code not in CODES:
        raise KeyError(f"unknown diagnostic code {code!r}")
    return Diagnostic(
        loc[0], loc[1], loc[2], code, message, CODES[code].hint if hint is None else hint
    )


def ordered(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sorted by file, line, column, code, message, hint; exact duplicates dropped."""
    return sorted(set(diagnostics), key=Diagnostic.sort_key)


def render(diagnostics: Sequence[Diagnostic], fmt: str) -> str:
    """Render for humans (text), machines (json) or GitHub annotations (github)."""
    if fmt == "json":
        return json.dumps([d.as_json() for d in diagnostics], indent=2, ensure_ascii=False)
    if fmt == "github":
        return "\n".join(d.as_github() for d in diagnostics)
    return "\n".join(d.as_text() for d in diagnostics)


def errors(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diagnostics if d.severity == "error"]
