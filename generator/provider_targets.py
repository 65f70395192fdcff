"""Providers' ``tool_schema_target`` names resolved to schema targets: which target each
provider (or endpoint) uses. The names live in the provider files, not the target files
(generator.targets checks those), so their resolution is kept apart from the rule checks."""

from __future__ import annotations

from collections.abc import Set

from generator.diagnostics import Diagnostic, Loc, diag
from provcat.catalog.keys import suggest


def provider_targets(
    providers: list[tuple[str, str | None, Loc]],
    target_ids: set[str],
    broken: Set[str] = frozenset(),
) -> tuple[dict[str, str], list[Diagnostic]]:
    """key (a provider, or "provider/endpoint") -> target id, and a diagnostic for each name
    that is not a target (a name in ``broken``, a target file with errors of its own, gets
    none: the build fails on those)."""
    mapping: dict[str, str] = {}
    problems: list[Diagnostic] = []
    for key, target, loc in providers:
        if target is None or target in broken:
            continue
        if target not in target_ids:
            known = ", ".join(sorted(target_ids)) or "none"
            problems.append(
                diag(
                    "unknown_schema_target",
                    loc,
                    f"tool_schema_target '{target}' is not a schema target (known: {known})",
                    suggest(target, target_ids),
                )
            )
        else:
            mapping[key] = target
    return dict(sorted(mapping.items())), problems
