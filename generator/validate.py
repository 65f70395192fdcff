"""Whole-set validation: every key space, class, request model and policy, all problems at once.

Nothing here stops at the first problem. Each check reports at the node that introduced the
problem and names the earlier declaration it conflicts with. Declarations are visited in file and
position order, so which side is "first" never depends on the file system.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from generator.diagnostics import Diagnostic, Loc, diag
from generator.introspect import Importer, Resolved, request_model
from generator.loader import Document
from generator.model import EndpointDecl, Key, ProviderDecl, Valued, build
from provcat.catalog.keys import canonical_key, suggest
from provcat.catalog.keyspace import (
    ClassUse,
    EndpointKeys,
    KeyProblem,
    KeySpace,
    ProviderKeys,
    Spelling,
    check_keys,
)
from provcat.endpoints.checked import check_classes
from provcat.endpoints.protocols import PROTOCOLS
from provcat.endpoints.request import field_names, field_problem
from provcat.models.effort import EFFORT_LEVELS

if TYPE_CHECKING:
    from pydantic import BaseModel


def _at(loc: Loc) -> str:
    return f"{loc[0]}:{loc[1]}:{loc[2]}"


def _space(code: str) -> KeySpace[Loc]:
    return KeySpace(code, "")


def _claimed(problem: KeyProblem[Loc] | None) -> Diagnostic | None:
    """A generator-only space's problem: its own code, case variants included."""
    if problem is None:
        return None
    where = f" ({_at(problem.earlier)})" if problem.earlier is not None else ""
    return diag(problem.code, problem.at, problem.message + where)


def _report(problem: KeyProblem[Loc] | None) -> Diagnostic | None:
    """A shared validator's problem as a positioned diagnostic, naming the earlier claim."""
    if problem is None:
        return None
    code = "case_variant_collision" if problem.variant else problem.code
    code = {"not_an_endpoint_class": "invalid_endpoint_class"}.get(code, code)
    where = f" ({_at(problem.earlier)})" if problem.earlier is not None else ""
    return diag(code, problem.at, problem.message + where)


class _Context:
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


def validate(
    providers: Iterable[ProviderDecl],
    importer: Importer,
    keys_only: Iterable[ProviderDecl] = (),
) -> list[Diagnostic]:
    """Every whole-set problem of ``providers`` (which passed their schema check).

    ``keys_only`` are the records of files that failed their schema check but could be read:
    their provider and endpoint keys and aliases take part in the key-space checks, so that a
    collision is reported with the schema error instead of after it is fixed; nothing else of
    theirs is checked (the schema check already refused their values).
    """
    ctx = _Context(importer)
    ordered = sorted(providers, key=lambda p: (p.file, p.key.loc))
    _provider_keys(sorted([*ordered, *keys_only], key=lambda p: (p.file, p.key.loc)), ctx)
    classes: list[ClassUse[Loc]] = []
    for provider in ordered:
        _endpoints(provider, ctx, classes)
    for problem in check_classes(classes) if classes else ():
        ctx.report(_report(problem))
    _policies(ordered, ctx)
    return ctx.out


def keys_of(doc: Document, stem: str) -> ProviderDecl | None:
    """The record of a file that failed its schema check, for the key checks, or None when its
    shape is too broken to read keys from (then its schema errors are all it reports)."""
    data = doc.data
    if (
        not isinstance(data, dict)
        or not _strings(data, "aliases")
        or not isinstance(data.get("provider"), str)
    ):
        return None
    endpoints = data.get("endpoints", {})
    if not isinstance(endpoints, dict) or not all(
        isinstance(ep, dict) and _strings(ep, "aliases") for ep in endpoints.values()
    ):
        return None
    try:
        return build(doc, stem)
    except Exception:  # another shape the schema refused broke the builder: nothing to add
        return None


def _strings(mapping: dict[str, object], name: str) -> bool:
    """Whether ``mapping[name]`` is absent or a list of strings (the keys' own shape)."""
    value = mapping.get(name, [])
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _keys(p: ProviderDecl) -> ProviderKeys[Loc]:
    return ProviderKeys(
        Spelling(p.key.value, p.key.loc),
        tuple(Spelling(a.value, a.loc) for a in p.aliases),
        tuple(
            EndpointKeys(
                Spelling(ep.key.value, ep.key.loc),
                tuple(Spelling(a.value, a.loc) for a in ep.aliases),
            )
            for ep in p.endpoints
        ),
    )


def _provider_keys(providers: list[ProviderDecl], ctx: _Context) -> None:
    for p in providers:
        if p.key.value != p.stem:
            ctx.report(
                diag(
                    "file_name_mismatch",
                    p.key.loc,
                    f"provider key '{p.key.value}' is declared in {p.stem}.yaml",
                    f"rename the file to {p.key.value.strip()}.yaml or set provider: {p.stem}",
                )
            )
    problems = check_keys([_keys(p) for p in providers])
    for problem in problems:
        ctx.report(_report(problem))
    refused = {problem.at for problem in problems if problem.code != "duplicate_endpoint_key"}
    for p in providers:
        own = canonical_key(p.key.value)
        for spelling in (p.key, *p.aliases):
            canon = canonical_key(spelling.value)
            if own and canon and spelling.loc not in refused and canon not in ctx.provider_owner:
                ctx.provider_owner[canon] = own


def _endpoints(p: ProviderDecl, ctx: _Context, classes: list[ClassUse[Loc]]) -> None:
    if p.module is not None:
        module = ctx.importer.module(p.module.value)
        if isinstance(module, str):
            ctx.report(
                diag(
                    "import_error",
                    p.module.loc,
                    f"provider '{p.key.value}': module '{p.module.value}' failed to import: "
                    f"{module}",
                )
            )
            return
    models = ctx.request_models.setdefault(canonical_key(p.key.value), [])
    for ep in p.endpoints:
        where = f"{p.key.value}/{ep.key.value}"
        if ep.type.value == "api" and not ep.settings["base_url"]:
            ctx.report(
                diag("missing_base_url", ep.key.loc, f"api endpoint {where} has no base_url")
            )
        from provcat.endpoints.config import (
            credential_header,  # imports pydantic: checked here only
        )

        headers = ep.settings["default_headers"]
        problem = credential_header(headers)
        if problem is not None:
            ctx.report(diag("credential_header", ep.header_loc, f"{where}: {problem}"))
        if not _implementation(p, ep, where, ctx, classes):
            continue
        model = _request_options(p, ep, where, ctx)
        if model is not None:
            if model not in models:
                models.append(model)
            for key, valued in ep.request_defaults.items():
                ctx.report(_field_value(model, key, valued, where))


def _resolve(p: ProviderDecl, ref: Valued, where: str, ctx: _Context) -> Resolved:
    """Resolve a class or request-model reference; a short name needs the provider's module."""
    if ":" not in ref.value and p.module is None:
        return Resolved(
            error=f"'{ref.value}' is a short name, but provider '{p.key.value}' has no module: "
            "write 'package.module:Name' or set module"
        )
    return ctx.importer.resolve(ref.value, p.module.value if p.module else "")


def _implementation(
    p: ProviderDecl,
    ep: EndpointDecl,
    where: str,
    ctx: _Context,
    classes: list[ClassUse[Loc]],
) -> bool:
    """Exactly one of class/protocol, and it resolves; False when the endpoint cannot be checked
    further (its request model is then not known either)."""
    if ep.class_ref is not None and ep.protocol is not None:
        ctx.report(
            diag(
                "class_and_protocol",
                ep.protocol.loc,
                f"{where} names both class '{ep.class_ref.value}' and protocol "
                f"'{ep.protocol.value}'",
            )
        )
        return False
    if ep.protocol is not None:
        name = str(ep.protocol.value)
        protocol = PROTOCOLS.get(name)
        if protocol is None:
            ctx.report(
                diag(
                    "unknown_protocol",
                    ep.protocol.loc,
                    f"{where}: unknown protocol '{name}' (protocols: {', '.join(PROTOCOLS)})",
                    suggest(name, PROTOCOLS),
                )
            )
            return False
        if ep.type.value != "api":
            ctx.report(
                diag(
                    "endpoint_type_mismatch",
                    ep.protocol.loc,
                    f"{where} has type '{ep.type.value}' but protocol '{name}' serves api "
                    "endpoints",
                )
            )
            return False
        return True
    if ep.class_ref is None:
        ctx.report(
            diag(
                "missing_endpoint_implementation",
                ep.key.loc,
                f"{where} names neither a class nor a protocol",
            )
        )
        return False
    found = _resolve(p, ep.class_ref, where, ctx)
    if found.error is not None:
        ctx.report(diag("invalid_endpoint_class", ep.class_ref.loc, f"{where}: {found.error}"))
        return False
    classes.append(
        ClassUse(
            found.value, ep.type.value == "agentic", p.key.value, ep.key.value, ep.class_ref.loc
        )
    )
    return True


def request_options_ref(ep: EndpointDecl) -> Valued:
    """The endpoint's request model reference: its own, or its protocol's default."""
    if ep.request_options.value is None and ep.protocol is not None:
        protocol = PROTOCOLS.get(str(ep.protocol.value))
        if protocol is not None and protocol.request_options is not None:
            return Valued(protocol.request_options, ep.protocol.loc)
    return ep.request_options


def _request_options(
    p: ProviderDecl, ep: EndpointDecl, where: str, ctx: _Context
) -> type[BaseModel] | None:
    ref = request_options_ref(ep)
    if ref.value is None:
        return None
    found = _resolve(p, ref, where, ctx)
    if found.error is None:
        key = id(found.value)
        if key not in ctx._factory_results:  # a factory is called exactly once per run
            ctx._factory_results[key] = request_model(found.value)
        found = ctx._factory_results[key]
    if found.error is not None:
        ctx.report(diag("invalid_request_options", ref.loc, f"{where}: {found.error}"))
        return None
    model: type[BaseModel] = found.value
    return model


def _field_value(model: type[BaseModel], key: str, valued: Valued, where: str) -> Diagnostic | None:
    problem = field_problem(model, key, valued.value)
    if problem is None:
        return None
    return diag(
        "invalid_request_default",
        valued.loc,
        f"{where}: {problem}",
        suggest(key, field_names(model)) if key not in field_names(model) else None,
    )


def _policy_kwarg(
    p: ProviderDecl, key: str, valued: Valued, what: str, ctx: _Context
) -> Diagnostic | None:
    """A policy kwarg must be accepted, name and value, by one of the provider's request models."""
    models = ctx.request_models.get(canonical_key(p.key.value))
    if not models:  # the provider failed to import or has no request model: nothing to check
        return None
    problems = [field_problem(model, key, valued.value) for model in models]
    if any(problem is None for problem in problems):
        return None
    known = any(key in field_names(m) for m in models)
    if known:
        detail = "; ".join(p for p in problems if p and "is not a field" not in p)
    else:
        detail = f"'{key}' is not a field of " + ", ".join(sorted(m.__name__ for m in models))
    return diag(
        "invalid_policy_kwarg",
        valued.loc,
        f"{p.key.value} policy {what}: {detail}",
        None if known else suggest(key, {n for m in models for n in field_names(m)}),
    )


def _policies(providers: list[ProviderDecl], ctx: _Context) -> None:
    aliases = _space("duplicate_model_alias")
    for p in providers:
        if p.policy is None:
            continue
        policy = p.policy
        own = canonical_key(p.key.value)
        model_ids = {canonical_key(k.value) for m in p.models for k in (m.key, *m.aliases)}
        for alias, target in policy.model_aliases:
            canon = canonical_key(alias.value)
            if not canon:
                ctx.report(diag("empty_key", alias.loc, f"a model alias of {p.key.value} is empty"))
                continue
            owner = ctx.provider_owner.get(canon)
            if owner is not None and owner != own:
                ctx.report(
                    diag(
                        "foreign_model_alias",
                        alias.loc,
                        f"model alias '{alias.value}' of {p.key.value} is a key of provider "
                        f"'{owner}'",
                    )
                )
            ctx.report(
                _claimed(
                    aliases.claim(
                        Spelling(alias.value, alias.loc),
                        f"a model alias of {p.key.value}",
                        f"model alias '{alias.value}' of {p.key.value}",
                    )
                )
            )
            prov, _, model = str(target.value).partition("/")
            target_owner = ctx.provider_owner.get(canonical_key(prov))
            if target_owner != own:
                ctx.report(
                    diag(
                        "foreign_model_alias",
                        target.loc,
                        f"model alias '{alias.value}' of {p.key.value} targets '{target.value}', "
                        f"which is not a model of {p.key.value}",
                    )
                )
            elif p.models and canonical_key(model) not in model_ids:
                ctx.report(
                    diag(
                        "unknown_alias_target",
                        target.loc,
                        f"model alias '{alias.value}' targets '{model}', which {p.key.value}'s "
                        "models do not list",
                    )
                )
        _effort(p, ctx)
        for what, table in (
            ("yolo kwarg", policy.yolo_kwargs),
            ("bypass kwarg", policy.bypass_kwargs),
            ("fast kwarg", policy.fast_kwargs),
        ):
            for key, valued in table.items():
                ctx.report(_policy_kwarg(p, key, valued, what, ctx))


def _effort(p: ProviderDecl, ctx: _Context) -> None:
    policy = p.policy
    if policy is None or policy.effort_mode is None:
        return
    mode = policy.effort_mode.value
    name = p.key.value
    if mode == "kwarg" and policy.effort_kwarg is None:
        ctx.report(
            diag(
                "invalid_effort_policy",
                policy.effort_mode.loc,
                f"{name}: effort mode 'kwarg' needs `kwarg`",
            )
        )
    if mode in ("none", "model_name") and policy.effort_kwarg is not None:
        ctx.report(
            diag(
                "invalid_effort_policy",
                policy.effort_kwarg.loc,
                f"{name}: effort mode '{mode}' forbids `kwarg`",
            )
        )
    if mode == "none" and policy.effort_levels:
        ctx.report(
            diag(
                "invalid_effort_policy",
                policy.effort_levels[0].loc,
                f"{name}: effort mode 'none' takes no levels",
            )
        )
    if mode in ("kwarg", "model_name") and not policy.effort_levels:
        ctx.report(
            diag(
                "invalid_effort_policy",
                policy.effort_mode.loc,
                f"{name}: effort mode '{mode}' needs `levels`",
            )
        )
    seen: dict[str, Key] = {}
    for level in policy.effort_levels:
        canon = canonical_key(level.value)
        if not canon or canon != level.value:
            ctx.report(
                diag(
                    "invalid_effort_policy",
                    level.loc,
                    f"{name}: effort level {level.value!r} must be lowercase without spaces",
                )
            )
        elif canon in seen:
            ctx.report(
                diag(
                    "invalid_effort_policy",
                    level.loc,
                    f"{name}: effort level '{level.value}' is listed twice "
                    f"({_at(seen[canon].loc)})",
                )
            )
        else:
            seen[canon] = level
    if mode == "kwarg" and policy.effort_kwarg is not None:
        _effort_kwarg(p, policy.effort_kwarg, tuple(seen.values()), ctx)
    _effort_tables(p, mode, {canonical_key(level.value) for level in policy.effort_levels}, ctx)


def _effort_tables(p: ProviderDecl, mode: str, levels: set[str], ctx: _Context) -> None:
    """translate covers every generic level; model rules and defaults stay inside the levels."""
    policy = p.policy
    assert policy is not None
    name = p.key.value
    if mode == "none":
        entries = [*policy.effort_translate.values()]
        entries += [v for _, t in policy.effort_model_rules for v in t.values()]
        if entries:
            ctx.report(
                diag(
                    "invalid_effort_policy",
                    entries[0].loc,
                    f"{name}: effort mode 'none' takes no translate or model_rules",
                )
            )
    elif not levels:
        pass  # "needs levels" is already reported; the tables cannot be checked without them
    else:
        for key, valued in policy.effort_translate.items():
            if key not in EFFORT_LEVELS:
                ctx.report(
                    diag(
                        "invalid_effort_policy",
                        valued.loc,
                        f"{name}: '{key}' is not a generic effort level "
                        f"({', '.join(EFFORT_LEVELS)})",
                        suggest(key, EFFORT_LEVELS),
                    )
                )
            elif valued.value not in levels:
                ctx.report(
                    diag(
                        "invalid_effort_policy",
                        valued.loc,
                        f"{name}: effort '{key}' translates to '{valued.value}', which is not "
                        "one of its levels",
                        suggest(str(valued.value), levels),
                    )
                )
        if levels:
            missing = [
                g for g in EFFORT_LEVELS if g not in policy.effort_translate and g not in levels
            ]
            if missing:
                ctx.report(
                    diag(
                        "invalid_effort_policy",
                        policy.effort_loc,
                        f"{name}: generic effort level(s) {', '.join(missing)} have no vendor "
                        "value; the vendor would receive a value it cannot take",
                        f"add them to effort.translate, e.g. '{missing[0]}: <one of its levels>'",
                    )
                )
        for _models, table in policy.effort_model_rules:
            for key, valued in table.items():
                for level in (key, valued.value):
                    if level not in levels:
                        ctx.report(
                            diag(
                                "invalid_effort_policy",
                                valued.loc,
                                f"{name}: model rule maps '{key}' -> '{valued.value}', but "
                                f"'{level}' is not one of its levels",
                            )
                        )
        for model in p.models:
            default = model.facts.get("default_effort")
            if default is not None and default not in levels:
                ctx.report(
                    diag(
                        "invalid_effort_policy",
                        model.key.loc,
                        f"{name}: model '{model.key.value}' default_effort '{default}' is not one "
                        "of its levels",
                    )
                )
    fmt = policy.effort_name_format
    if mode == "model_name":
        text = str(fmt.value) if fmt is not None else ""
        if "{model}" not in text or ("{level}" not in text and "{Level}" not in text):
            ctx.report(
                diag(
                    "invalid_effort_policy",
                    fmt.loc if fmt is not None else policy.effort_loc,
                    f"{name}: effort mode 'model_name' needs model_name_format with {{model}} "
                    "and {Level} or {level}",
                )
            )
    elif fmt is not None:
        ctx.report(
            diag(
                "invalid_effort_policy",
                fmt.loc,
                f"{name}: model_name_format belongs to effort mode 'model_name' only",
            )
        )


def _effort_kwarg(p: ProviderDecl, kwarg: Valued, levels: tuple[Key, ...], ctx: _Context) -> None:
    """The effort kwarg is a request field of the provider, and it accepts every level."""
    models = ctx.request_models.get(canonical_key(p.key.value))
    if not models:
        return
    name = str(kwarg.value)
    if not any(name in field_names(m) for m in models):
        ctx.report(
            diag(
                "invalid_policy_kwarg",
                kwarg.loc,
                f"{p.key.value} effort kwarg '{name}' is not a field of any of its request models",
                suggest(name, {n for m in models for n in field_names(m)}),
            )
        )
        return
    for level in levels:
        ctx.report(_policy_kwarg(p, name, Valued(level.value, level.loc), "effort level", ctx))
