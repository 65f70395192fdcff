"""Schema targets' probes against the model inventory.

``provcat tool probe`` sends a tool to ``probe.default_model`` when the user names no model. That
model must be one the catalog knows: an id or alias of the ``models:`` of the provider the probe
calls (``probe.provider``, its key or an alias), and not retired as of the check day; a
deprecated one is a warning. The same rule as for request defaults (generator.models_check), and
like those only the lifecycle half depends on the day.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from datetime import date
from urllib.parse import urlsplit

from generator.diagnostics import Diagnostic, diag
from generator.model import ProviderDecl
from generator.models_check import Listed, Summary, standing
from generator.target_files import TargetDecl
from provcat.catalog.keys import canonical_key, suggest

__all__ = ["check_probes"]

_SHOWN = 6  # current models a hint names at most


def check_probes(
    targets: Iterable[TargetDecl],
    providers: Iterable[tuple[ProviderDecl, Summary]],
    broken: Set[str],
    as_of: date,
) -> list[Diagnostic]:
    """Every problem of the targets' probe models, all at once. ``providers`` are the provider
    files that passed their schema check, with their inventory summaries; ``broken`` the
    canonical spellings of providers whose files did not (a probe naming one is checked no
    further: that file's own errors fail the build)."""
    listed = list(providers)
    owner, clashing = _owners(listed)
    out: list[Diagnostic] = []
    for decl in sorted(targets, key=lambda d: d.doc.file):
        probe = decl.data.get("probe")
        if not isinstance(probe, dict):
            continue
        if "provider" not in probe:  # a target written before probe.provider existed
            out.append(
                diag(
                    "probe_without_provider",
                    decl.doc.loc(("probe",)),
                    f"probe of target '{decl.id}' names no provider, so its default_model "
                    f"'{probe['default_model']}' cannot be checked against a catalog's models",
                )
            )
            continue
        named = str(probe["provider"])
        if canonical_key(named) in broken or canonical_key(named) in clashing:
            continue  # that file's errors, or the collision's, fail the build
        found = owner.get(canonical_key(named))
        if found is None:
            out.append(
                diag(
                    "unknown_probe_provider",
                    decl.doc.loc(("probe", "provider")),
                    f"probe of target '{decl.id}' names provider '{named}', which is no "
                    "provider key or alias of the catalog",
                    _provider_hint(decl, named, str(probe["default_model"]), listed),
                )
            )
            continue
        p, summary = found
        out.extend(_model(decl, str(probe["default_model"]), p.key.value, summary, as_of))
    return out


def _owners(
    providers: list[tuple[ProviderDecl, Summary]],
) -> tuple[dict[str, tuple[ProviderDecl, Summary]], set[str]]:
    """Each provider spelling's provider, and the spellings several providers claim. A key is
    its provider's whatever the files' order (an alias that repeats it is the alias's error);
    an alias two providers claim is theirs to settle (duplicate_provider_key says so), so it
    names neither."""
    owner: dict[str, tuple[ProviderDecl, Summary]] = {}
    clashing: set[str] = set()
    for p, summary in providers:
        key = canonical_key(p.key.value)
        if key in owner:
            clashing.add(key)
        owner[key] = (p, summary)
    keys = set(owner)
    for p, summary in providers:
        for alias in p.aliases:
            spelling = canonical_key(alias.value)
            if spelling in keys:
                continue
            if spelling in owner and owner[spelling][0] is not p:
                clashing.add(spelling)
            owner.setdefault(spelling, (p, summary))
    return owner, clashing


def _provider_hint(
    decl: TargetDecl,
    named: str,
    model: str,
    providers: Iterable[tuple[ProviderDecl, Summary]],
) -> str | None:
    """The providers a probe naming an unknown ``named`` may mean (a catalog imported from
    another source keys a vendor its own way): those listing its ``model`` (of many, the ones
    documented where the target is); else those whose documentation is where most of the
    target's own links point (the same site and first path segment); three at most, else the key
    nearest in spelling."""
    by_key = {p.key.value: (p, summary) for p, summary in providers}
    links = [_site(doc.get("url")) for doc in decl.data.get("docs") or () if isinstance(doc, dict)]
    score = {k: links.count(_site(p.docs_url)) for k, (p, _) in by_key.items() if p.docs_url}
    listing = sorted(k for k, (_, summary) in by_key.items() if summary.find(model) is not None)
    if len(listing) > 3:  # a model many resell: those documented where the target is
        best = max((score.get(k, 0) for k in listing), default=0)
        listing = [k for k in listing if best and score.get(k, 0) == best]
    if 0 < len(listing) <= 3:
        return f"did you mean {_either(listing)}? It lists the probe's default_model '{model}'"
    best = max(score.values(), default=0)
    documented = sorted(k for k, n in score.items() if n == best)
    if best and len(documented) <= 3:
        return (
            f"did you mean {_either(documented)}? Its docs_url is on the site most of the "
            f"docs links of target '{decl.id}' go to"
        )
    return suggest(named, sorted(by_key))


def _site(url: object) -> tuple[str, str] | None:
    """A documentation site: the host and the first path segment (``ai.example.com``, ``docs``)."""
    if not isinstance(url, str):
        return None
    parts = urlsplit(url)
    return (parts.hostname or "", parts.path.strip("/").split("/")[0])


def _either(keys: list[str]) -> str:
    quoted = [f"'{k}'" for k in keys]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def _model(
    decl: TargetDecl, model: str, provider: str, summary: Summary, as_of: date
) -> list[Diagnostic]:
    what = f"probe default_model of target '{decl.id}'"
    loc = decl.doc.loc(("probe", "default_model"))
    listed = summary.find(model)
    if listed is None:
        return [
            diag(
                "unknown_probe_model",
                loc,
                f"{what} names model '{model}', which {provider}'s models do not list",
                _unknown_hint(model, provider, summary, as_of),
            )
        ]
    try:
        found = standing(
            listed.status, listed.deprecation_date, listed.shutdown_date, listed.successor, as_of
        )
    except ValueError:  # a date that is no day: the model's own invalid_date says so
        return []
    if found is None:
        return []
    now, said = found
    instead = (
        f"write default_model: {listed.successor} (its successor) or another current model "
        f"of {provider}"
        if listed.successor
        else None
    )
    code = "retired_probe_model" if now == "retired" else "deprecated_probe_model"
    return [diag(code, loc, f"{what} names '{model}', {said}", instead)]


def _current(model: Listed, as_of: date) -> bool:
    """Whether a probe could send tools to ``model`` now: not retired nor deprecated, and not
    marked as unable to call tools."""
    if model.tool_call is False:
        return False
    try:
        return (
            standing(model.status, model.deprecation_date, model.shutdown_date, None, as_of) is None
        )
    except ValueError:
        return False


def _unknown_hint(model: str, provider: str, summary: Summary, as_of: date) -> str:
    """What to write instead: the closest listed spelling, and the provider's current models."""
    names = [n for m in summary.models for n in (m.id, *m.aliases)]
    close = suggest(model, names)
    current = [m.id for m in summary.models if _current(m, as_of)]
    shown = ", ".join(current[:_SHOWN]) + (", ..." if len(current) > _SHOWN else "")
    listing = f" (current ones that call tools: {shown})" if current else ""
    head = f"{close} Otherwise write" if close else "Write"
    return (
        f"{head} an id or alias listed under {provider}'s `models:`{listing}, "
        "or add the model there"
    )
