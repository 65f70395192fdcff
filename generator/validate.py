"""Whole-set validation: every key space, class, request model and policy, all problems at once.

Nothing here stops at the first problem. Each check reports at the node that introduced the
problem and names the earlier declaration it conflicts with. Declarations are visited in file and
position order, so which side is "first" never depends on the file system.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from generator.checking import Context, at, reported
from generator.diagnostics import Diagnostic, Loc, diag
from generator.introspect import Importer, Resolved, request_model
from generator.loader import Document
from generator.model import EndpointDecl, ProviderDecl, Valued, build
from generator.policies import check_policies
from provcat.catalog.keys import canonical_key, suggest
from provcat.catalog.keyspace import (
    ClassUse,
    EndpointKeys,
    KeyProblem,
    ProviderKeys,
    Spelling,
    check_keys,
)
from provcat.endpoints.checked import check_classes
from provcat.endpoints.config import base_url_problem, credential_header
from provcat.endpoints.protocols import PROTOCOLS
from provcat.endpoints.request import field_names, field_problem

if TYPE_CHECKING:
    from pydantic import BaseModel


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
    ctx = Context(importer)
    ordered = sorted(providers, key=lambda p: (p.file, p.key.loc))
    _provider_keys(sorted([*ordered, *keys_only], key=lambda p: (p.file, p.key.loc)), ctx)
    classes: list[ClassUse[Loc]] = []
    for provider in ordered:
        _endpoints(provider, ctx, classes)
    for problem in check_classes(classes) if classes else ():
        ctx.report(reported(problem))
    check_policies(ordered, ctx)
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


def _provider_keys(providers: list[ProviderDecl], ctx: Context) -> None:
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
        ctx.report(reported(problem))
        ctx.report(_other_side(problem))
    refused = {problem.at for problem in problems if problem.code != "duplicate_endpoint_key"}
    for p in providers:
        own = canonical_key(p.key.value)
        for spelling in (p.key, *p.aliases):
            canon = canonical_key(spelling.value)
            if own and canon and spelling.loc not in refused and canon not in ctx.provider_owner:
                ctx.provider_owner[canon] = own


def _other_side(problem: KeyProblem[Loc]) -> Diagnostic | None:
    """A provider spelling claimed in two files is reported in both: which one the key checks
    report depends on the files' order, and a maintainer adding a provider should see their
    own file named whichever it is."""
    earlier = problem.earlier
    if problem.code != "duplicate_provider_key" or earlier is None or earlier[0] == problem.at[0]:
        return None
    found = reported(problem)
    assert found is not None
    return diag(
        found.code,
        earlier,
        f"'{problem.key}' here is claimed again in {at(problem.at)}: {problem.message}",
        found.hint,
    )


def _endpoints(p: ProviderDecl, ctx: Context, classes: list[ClassUse[Loc]]) -> None:
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
    # `defaults:` are every endpoint's: a problem there is reported once
    headers_seen: set[Loc] = set()
    urls_seen: set[Loc] = set()
    # a value several endpoints share is their provider's `defaults:`, and is said as such
    shared_urls = Counter(ep.base_url_loc for ep in p.endpoints)
    shared_headers = Counter(ep.header_loc for ep in p.endpoints)
    for ep in p.endpoints:
        where = f"{p.key.value}/{ep.key.value}"
        url_where = (
            f"{p.key.value} defaults (the base_url of {shared_urls[ep.base_url_loc]} endpoints)"
            if shared_urls[ep.base_url_loc] > 1
            else where
        )
        header_where = (
            f"{p.key.value} defaults (the default_headers of {shared_headers[ep.header_loc]} "
            "endpoints)"
            if shared_headers[ep.header_loc] > 1
            else where
        )
        base_url = ep.settings["base_url"]
        if ep.type.value == "api" and not base_url:
            ctx.report(
                diag("missing_base_url", ep.key.loc, f"api endpoint {where} has no base_url")
            )
        auth = ep.settings["auth_type"]
        if ep.type.value == "api" and auth != "none" and not ep.settings["api_key_env"]:
            ctx.report(
                diag(
                    "missing_api_key_env",
                    ep.key.loc,
                    f"api endpoint {where} sends its key as auth_type '{auth}' but names no "
                    "api_key_env: each call fails unless the caller passes api_key=",
                )
            )
        url_problem = base_url_problem(base_url) if isinstance(base_url, str) else None
        if url_problem is not None and ep.base_url_loc not in urls_seen:
            urls_seen.add(ep.base_url_loc)  # the URL is never quoted: it may carry a password
            ctx.report(diag("bad_base_url", ep.base_url_loc, f"{url_where}: {url_problem}"))
        headers = ep.settings["default_headers"]
        problem = credential_header(headers)
        if problem is not None and ep.header_loc not in headers_seen:
            headers_seen.add(ep.header_loc)
            ctx.report(diag("credential_header", ep.header_loc, f"{header_where}: {problem}"))
        if not _implementation(p, ep, where, ctx, classes):
            continue
        model = _request_options(p, ep, where, ctx)
        if model is not None:
            if model not in models:
                models.append(model)
            for key, valued in ep.request_defaults.items():
                ctx.report(_field_value(model, key, valued, where))


def _resolve(p: ProviderDecl, ref: Valued, where: str, ctx: Context) -> Resolved:
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
    ctx: Context,
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
                    "set `type: api`, or replace `protocol` with `class` naming an "
                    "AgenticEndpoint subclass",
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
        hint = (
            None
            if p.module is not None
            else "write the class as 'package.module:Class' (a subclass of "
            "provcat.endpoints.endpoint.Endpoint), or set the provider's `module`"
        )
        ctx.report(
            diag("invalid_endpoint_class", ep.class_ref.loc, f"{where}: {found.error}", hint)
        )
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
    p: ProviderDecl, ep: EndpointDecl, where: str, ctx: Context
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
        suggest(key, field_names(model))
        if key not in field_names(model)
        else f"give '{key}' a value of the type and range {model.__name__} declares",
    )
