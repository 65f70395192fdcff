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
from provcat.models.spec import split_effort_suffix

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


# canonical spelling of a model id or inventory alias -> each (provider, model id, is the id, where)
Inventories = dict[str, list[tuple[str, str, bool, Key]]]


def _inventories(providers: list[ProviderDecl]) -> Inventories:
    found: Inventories = {}
    for p in providers:
        for m in p.models:
            for k in (m.key, *m.aliases):
                found.setdefault(canonical_key(k.value), []).append(
                    (p.key.value, m.key.value, k is m.key, k)
                )
    return found


def check_policies(providers: list[ProviderDecl], ctx: Context) -> None:
    aliases = space("duplicate_model_alias")
    everyone = _inventories(providers)
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
            ctx.report(
                _spelled_as_another_provider(p, alias, str(target.value), ctx)
                or _another_providers_model(p, alias, str(target.value), everyone)
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
                if target_owner is None:
                    hint = (
                        f"'{prov}' names no provider: write the target as "
                        f"'{p.key.value}/{model}', a model of {p.key.value}"
                    )
                else:
                    hint = (
                        f"point the alias at a model of {p.key.value} ('{p.key.value}/<model>'); "
                        f"an alias for {target_owner}'s model belongs in {target_owner}'s policy"
                    )
                ctx.report(
                    diag(
                        "foreign_model_alias",
                        target.loc,
                        f"model alias '{alias.value}' of {p.key.value} targets '{target.value}', "
                        f"which is not a model of {p.key.value}",
                        hint,
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


def _spelled_as_another_provider(
    p: ProviderDecl, alias: Key, target: str, ctx: Context
) -> Diagnostic | None:
    """A policy alias spelled as another provider: its key or alias (the whole alias), or a spec
    ``<provider>/<model>`` of it. A spec is looked up among the model aliases before its provider
    is read (provcat.models.spec.read_spec; with a "/" in any alias, for every spec), so such an
    alias would send every spec ``<provider>/<model>`` to ``target`` instead of to its provider:
    it changes what an existing spec resolves to."""
    name = p.key.value
    own = canonical_key(name)
    canon = canonical_key(alias.value)
    owner = ctx.provider_owner.get(canon)
    if owner is not None and owner != own:
        return diag(
            "foreign_model_alias",
            alias.loc,
            f"model alias '{alias.value}' of {name} is a key of provider '{owner}'",
            f"rename the alias: '{alias.value}' already names provider '{owner}' (a provider "
            f"key or alias), so it cannot also name a model of {name}",
        )
    head, slash, rest = alias.value.partition("/")
    owner = ctx.provider_owner.get(canonical_key(head)) if slash else None
    if owner is None or owner == own:
        return None
    return diag(
        "foreign_model_alias",
        alias.loc,
        f"model alias '{alias.value}' of {name} is spelled as a model spec of provider "
        f"'{owner}': model aliases are read before the provider, so the spec '{alias.value}' "
        f"would go to '{target}' instead of to {owner}'s '{rest.strip()}'",
        f"rename the alias: the part before its first '/' ('{head.strip()}') names provider "
        f"'{owner}', and a spec spelled so is {owner}'s",
    )


def _another_providers_model(
    p: ProviderDecl, alias: Key, target: str, everyone: Inventories
) -> Diagnostic | None:
    """A policy alias spelled as a model id or inventory alias of another provider. A warning,
    not an error: the alias is looked up as the whole spec only, so ``<provider>/<model>`` still
    names the other provider's model, and the bare spelling named no provider before (model_kwargs
    refuses it); but it now reads as one vendor's model and goes to another (with that one's
    key, where it takes one)."""
    name = p.key.value
    own = canonical_key(name)
    hits = [
        hit for hit in everyone.get(canonical_key(alias.value), ()) if canonical_key(hit[0]) != own
    ]
    if not hits:
        return None
    said = ", ".join(
        f"{'the id' if is_id else 'an alias'} of {owner}'s model '{model}' ({at(key.loc)})"
        for owner, model, is_id, key in hits
    )
    first, _, _, key = hits[0]
    return diag(
        "model_alias_is_foreign_model",
        alias.loc,
        f"model alias '{alias.value}' of {name} is {said}: the spec '{alias.value}' goes to "
        f"{name}'s '{target}', not to {first}",
        f"rename the alias so that it does not read as {first}'s model; "
        f"'{first}/{key.value}' names that model either way",
    )


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
    if mode in ("kwarg", "model_name"):
        _rule_models(p, mode, ctx)


def _rule_names(p: ProviderDecl, mode: str) -> dict[str, str]:
    """Every model name a rule can be matched against, canonical -> the catalog's spelling.

    model_kwargs compares a rule's names (strip().casefold()) with the spec's model after its
    effort suffix is split off: in mode model_name, with the id of the listed model the spec
    names (kwargs._fold), so an inventory alias in a rule never matches; in mode kwarg, with the
    model as the catalog spells it (an id or an alias, after the prefix rule) or as written."""
    policy = p.policy
    assert policy is not None
    names: dict[str, str] = {}
    for m in p.models:
        names.setdefault(canonical_key(m.key.value), m.key.value)
    if mode == "model_name":
        return names
    for m in p.models:
        for a in m.aliases:
            names.setdefault(canonical_key(a.value), a.value)
    for _, target in policy.model_aliases:  # a listed model, unless unknown_alias_target says not
        _, slash, model = str(target.value).partition("/")
        if slash and model.strip():
            names.setdefault(canonical_key(model), model.strip())
    if policy.model_prefix is not None:  # read_spec: opus-4-7 -> claude-opus-4-7
        prefix = str(policy.model_prefix.value["prefix"])
        starts = [canonical_key(str(s)) for s in policy.model_prefix.value["for"]]
        for spelling in list(names.values()):
            folded = canonical_key(spelling)
            if any(folded.startswith(s) and folded != s for s in starts):
                names.setdefault(canonical_key(prefix + spelling), prefix + spelling)
    return names


def _rule_models(p: ProviderDecl, mode: str, ctx: Context) -> None:
    """Each name in a rule's `models` must be one the rule can be matched against: otherwise a
    typo drops the clamp and the vendor gets a level the rule was written to keep from it.

    Only for a provider with an inventory. Without one the provider's model set is open (the CLI
    agents pass any model name on, model_kwargs sends an unlisted model as written and matches it
    against the rules), so there is no list a name could be missing from."""
    policy = p.policy
    assert policy is not None
    if not p.models or not policy.effort_model_rules:
        return
    names = _rule_names(p, mode)
    alias_of = {canonical_key(a.value): m.key.value for m in p.models for a in m.aliases}
    for models, _table in policy.effort_model_rules:
        for entry in models:
            canon = canonical_key(entry.value)
            if canon != "*" and canon not in names:
                ctx.report(_unknown_rule_model(p, mode, entry, names, alias_of))


def _unknown_rule_model(
    p: ProviderDecl, mode: str, entry: Key, names: dict[str, str], alias_of: dict[str, str]
) -> Diagnostic:
    where = f"{p.key.value}: effort model rule names '{entry.value}'"
    canon = canonical_key(entry.value)
    model_id = alias_of.get(canon)
    if mode == "model_name" and model_id is not None:
        return diag(
            "unknown_effort_rule_model",
            entry.loc,
            f"{where}, an alias of model '{model_id}': in effort mode 'model_name' a rule is "
            "matched against the id of the model a spec names, so it never applies",
            f"name the model by its id: '{model_id}'",
        )
    split = split_effort_suffix(entry.value.strip())
    if split is not None and canonical_key(split[0]) in names:
        return diag(
            "unknown_effort_rule_model",
            entry.loc,
            f"{where}, which ends in the effort suffix '-{split[1]}': a rule is matched against "
            "the model without the spec's effort suffix, so it never applies",
            f"did you mean '{names[canonical_key(split[0])]}'?",
        )
    listed = "ids" if mode == "model_name" else "ids and aliases"
    return diag(
        "unknown_effort_rule_model",
        entry.loc,
        f"{where}, which is no model of {p.key.value} (the {listed} of its `models:`), so the "
        "rule never applies",
        suggest(entry.value.strip(), names.values()),
    )


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
