"""Schema-target files: catalog/schema-targets/*.yaml listed, loaded with positions and checked
against schemas/schema-target.schema.json; the schema-valid ones as :class:`TargetDecl`
(generator.targets then checks their rules against the compiler's vocabulary)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.diagnostics import Diagnostic, errors
from generator.files import display_path, yaml_files
from generator.loader import Document
from generator.schema_check import check, check_schema_reference, load_file

TARGET_SCHEMA = "schema-target.schema.json"
FOLDER = "schema-targets"


@dataclass(frozen=True, slots=True)
class TargetDecl:
    """A schema-valid target file."""

    doc: Document
    stem: str

    @property
    def data(self) -> dict[str, Any]:
        value: dict[str, Any] = self.doc.data
        return value

    @property
    def id(self) -> str:
        return str(self.data["id"])


def target_files(catalog: Path, base: Path) -> tuple[list[Path], list[Diagnostic]]:
    return yaml_files(catalog / FOLDER, base, "schema-target")


def load(catalog: Path, base: Path) -> tuple[list[TargetDecl], set[str], list[Diagnostic]]:
    """Load and schema-check every target file: the valid ones, the ids of those that are not
    (their ``id`` when it is a string, else the file's name: a provider or a target naming one
    is no further error, the file's own errors say what to fix) and the problems."""
    files, problems = target_files(catalog, base)
    decls: list[TargetDecl] = []
    broken: set[str] = set()
    for path in files:
        doc, found = load_file(path, display_path(path, base), TARGET_SCHEMA)
        problems.extend(found)
        if doc is None:
            broken.add(path.stem)
            continue
        found = check_schema_reference(doc, TARGET_SCHEMA) + check(doc, TARGET_SCHEMA)
        problems.extend(found)
        if not errors(found):
            decls.append(TargetDecl(doc, path.stem))
        else:
            named = doc.data.get("id") if isinstance(doc.data, dict) else None
            broken.add(named if isinstance(named, str) else path.stem)
    return decls, broken, problems
