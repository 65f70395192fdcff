"""Whole-set checks of the providers' model policies: model aliases, the effort mode and its
tables, and every policy kwarg accepted by one of the provider's request models."""

from __future__ import annotations

from generator.checking import Context, at, claimed, space
from generator.diagnostics import Diagnostic, diag
from generator.model import Key, ProviderDecl, Valued
from provcat.catalog.keys import canonical_key, suggest
from provcat.catalog.keyspace import Spelling
from provcat.endpoints.request import field_names, field_problem
from provcat.models.effort import EFFORT_LEVELS

__all__ = ["check_policies"]


def _policy_kwarg(
    p: ProviderDecl, key: str, valued: Valued, what: str, ctx: Context
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


def check_policies(providers: list[ProviderDecl], ctx: Context) -> None:
    aliases = space("duplicate_model_alias")
    for p in providers:
        if p.policy is None:
            continue
        policy = p.policy
        own = canonical_key(p.key.value)
        # every inventory spelling -> (the model's id, whether it is the id, where it is written)
        inventory: dict[str, tuple[str, bool, Key]] = {}
        for m in p.models:
            for k in (m.key, *m.aliases):
                inventory.setdefault(canonical_key(k.value), (m.key.value, k is m.key, k))
        model_ids = set(inventory)
        for alias, target in policy.model_aliases:
            canon = canonical_key(alias.value)
            if not canon:
                ctx.report(diag("empty_key", alias.loc, f"a model alias of {p.key.value} is empty"))
                continue
            ctx.report(_shadowing(p, alias, str(target.value), inventory))
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
                claimed(
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


def _shadowing(
    p: ProviderDecl, alias: Key, target: str, inventory: dict[str, tuple[str, bool, Key]]
) -> Diagnostic | None:
    """A policy model alias that spells its own target, or a model id or inventory alias of the
    provider: a spec would read it one way (the policy's alias) and the inventory another."""
    name = p.key.value
    canon = canonical_key(alias.value)
    model = target.partition("/")[2]
    if canon == canonical_key(model):
        return diag(
            "self_alias",
            alias.loc,
            f"model alias '{alias.value}' of {name} names its own target '{target}'",
            f"remove the alias: '{model}' already names the model",
        )
    found = inventory.get(canon)
    if found is None:
        return None
    owner, is_id, key = found
    target_model = inventory.get(canonical_key(model))
    if not is_id and target_model is not None and target_model[0] == owner:
        return None  # the inventory's alias of the same model: the two agree
    what = f"the id of model '{owner}'" if is_id else f"an alias of model '{owner}'"
    return diag(
        "model_alias_shadows_model",
        alias.loc,
        f"model alias '{alias.value}' of {name} points to '{target}' but is {what} ({at(key.loc)})",
    )


def _effort(p: ProviderDecl, ctx: Context) -> None:
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
                    f"{name}: effort level '{level.value}' is listed twice ({at(seen[canon].loc)})",
                )
            )
        else:
            seen[canon] = level
    if mode == "kwarg" and policy.effort_kwarg is not None:
        _effort_kwarg(p, policy.effort_kwarg, tuple(seen.values()), ctx)
    _effort_tables(p, mode, {canonical_key(level.value) for level in policy.effort_levels}, ctx)


def _effort_tables(p: ProviderDecl, mode: str, levels: set[str], ctx: Context) -> None:
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


def _effort_kwarg(p: ProviderDecl, kwarg: Valued, levels: tuple[Key, ...], ctx: Context) -> None:
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
