"""One models.dev model -> a provcat model's fields: what the source owns, mapped field by field
(``MODEL_FIELDS`` names the result, in writing order); a value the source states wrongly is
reported with its file position and left out. ``base_model`` inheritance is resolved first."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Context, Decimal
from typing import Any

from generator.diagnostics import Diagnostic, counted, diag
from generator.importers.left_out import LeftOut, left_out_kinds
from generator.importers.reader import Reader
from provcat.models.lifecycle import parse_day

SOURCE_REPO = "https://github.com/anomalyco/models.dev"
MODALITIES = ("text", "image", "audio", "video", "pdf")
STATUS = {"deprecated": "deprecated", "beta": "preview", "alpha": "preview"}
PRICE_KEYS = {  # models.dev cost key -> provcat price key
    "input": "input",
    "output": "output",
    "cache_read": "cache_read",
    "cache_write": "cache_write",
    "input_audio": "input_audio",
    "output_audio": "output_audio",
    "reasoning": "reasoning",
}
# cost keys some model files write that models.dev's own schema (packages/core/src/schema.ts,
# whose Cost object strips unknown keys) does not define, mapped where the meaning is the
# catalog field's: `cached_input` / `cache_input` are the price of cached input tokens, the
# name OpenAI's pricing and Venice's API use for what models.dev calls `cache_read` (its
# Venice sync maps `cache_input` to `cache_read`); `cached_write` is `cache_write` spelled the
# same way; `citation` is Perplexity's citation-token price (Sonar Deep Research), the
# catalog's `citation`. A key spelled both ways takes models.dev's own. `request` (a fee per
# request or search) and `image` have no per-token meaning and stay warned about.
PRICE_SYNONYMS = {
    "cached_input": "cache_read",
    "cache_input": "cache_read",
    "cached_write": "cache_write",
    "citation": "citation",
}
# models.dev model fields with no provcat counterpart, left out on purpose and without a warning:
# facts about the file or the model's publication, not about calling it or its price
NOT_MAPPED = frozenset(
    {
        "last_updated",
        "benchmarks",
        "weights",
        "links",
        "license",
        "base_model",
        "base_model_omit",
    }
)
KNOWN = frozenset(
    {
        "name",
        "interleaved",  # LEFT_OUT
        "experimental",  # its `modes` (fast mode's prices): LEFT_OUT, by mode
        "provider",  # a model's own API: warned about per model (models_dev.own_api)
        "family",
        "release_date",
        "attachment",
        "reasoning",
        "reasoning_options",
        "tool_call",
        "structured_output",
        "temperature",
        "knowledge",
        "open_weights",
        "status",
        "modalities",
        "limit",
        "cost",
    }
)
# every provcat model field the importer writes, in the order it writes them
MODEL_FIELDS = (
    "name",
    "family",
    "status",
    "release_date",
    "knowledge_cutoff",
    "context_window",
    "max_input_tokens",
    "max_output_tokens",
    "tool_call",
    "structured_output",
    "reasoning",
    "reasoning_efforts",
    "temperature",
    "attachment",
    "modalities",
    "open_weights",
    "prices",
    "source",
)
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$")


def _real_day(text: str) -> bool:
    try:
        parse_day(text)
    except ValueError:
        return False
    return True


# The significant digits a double holds for any decimal (C's DBL_DIG). models.dev computes some
# prices in floating point and writes every digit of the result (0.1 + 0.2 is
# 0.30000000000000004); digits past these are noise, not a price.
PRICE_DIGITS = 15
_PRICE_CONTEXT = Context(prec=PRICE_DIGITS)


def _price(value: Any) -> tuple[str, str | None] | None:
    """``value`` as price text, and the source's own text when it carried floating-point noise
    (more than ``PRICE_DIGITS`` significant digits: then rounded to them); None when it is no
    price."""
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        return None
    number = Decimal(value)
    if number < 0 or not number.is_finite():
        return None
    if len(number.normalize().as_tuple().digits) > PRICE_DIGITS:
        return format(_PRICE_CONTEXT.plus(number).normalize(), "f"), format(number, "f")
    return format(number, "f"), None


def _omit(data: dict[str, Any], dotted: str) -> None:
    parts = dotted.split(".")
    node: Any = data
    for part in parts[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
        if node is None:
            return
    if isinstance(node, dict):
        node.pop(parts[-1], None)


def _overlay(base: dict[str, Any], own: Mapping[str, Any]) -> dict[str, Any]:
    """``own`` over ``base``: tables merge key by key, anything else replaces."""
    merged = dict(base)
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _overlay(merged[key], value)
        else:
            merged[key] = value
    return merged


def _copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy(v) for v in data]
    return data


class ModelMapper:
    """Maps one model's facts, reporting into the reader's diagnostics; what the catalog has no
    field for is gathered by kind and reported once per kind by ``left_out``."""

    def __init__(self, reader: Reader, commit: str | None) -> None:
        self.r = reader
        self.commit = commit
        self.dropped: dict[str, LeftOut] = {}

    def left_out(self) -> list[Diagnostic]:
        """One warning per kind of fact the catalog has no field for, at its first model."""
        return [
            diag(
                "import_unknown_field",
                d.first,
                f"{d.what}: left out of {counted(d.models, 'model')} "
                + (
                    f"({d.example})"
                    if d.models == 1
                    else f"(the first is {d.example}; one warning for all of them)"
                )
                + f": {d.did}",
                "the catalog has no field for it: where it matters to you, record it by hand "
                "in the model's `note:`; docs/big-catalog.md lists what the import leaves out",
            )
            for _, d in sorted(self.dropped.items())
        ]

    def resolve(self, path: str, own: dict[str, Any], seen: tuple[str, ...] = ()) -> dict[str, Any]:
        """The model's facts after ``base_model`` inheritance and ``base_model_omit``."""
        ref = own.get("base_model")
        if ref is None:
            return own
        base_path = f"models/{ref}.toml"
        if not isinstance(ref, str) or base_path in seen:
            self.r.out.append(
                diag(
                    "import_broken_base_model",
                    self.r.at(path, "base_model"),
                    f"base_model {ref!r} of {path} forms a cycle or is not a string",
                )
            )
            return own
        base = self.r.load(base_path)
        if base is None:
            if self.r.snap.get(base_path) is None:
                self.r.out.append(
                    diag(
                        "import_broken_base_model",
                        self.r.at(path, "base_model"),
                        f"base_model {ref!r} of {path} names no file ({base_path})",
                    )
                )
            return own
        inherited = _copy(self.resolve(base_path, base, (*seen, path)))
        inherited.pop("base_model", None)
        omit = own.get("base_model_omit", [])
        for dotted in omit if isinstance(omit, list) else []:
            if isinstance(dotted, str):
                _omit(inherited, dotted)
        return _overlay(inherited, own)

    def _invalid(self, path: str, dotted: str, message: str) -> None:
        self.r.out.append(diag("import_invalid_value", self.r.at(path, dotted), message))

    def map(self, provider: str, model_id: str, path: str, facts: dict[str, Any]) -> dict[str, Any]:
        where = path
        out: dict[str, Any] = {}
        for key in sorted(facts):
            if key not in KNOWN and key not in NOT_MAPPED:
                self.r.out.append(
                    diag(
                        "import_unknown_field",
                        self.r.at(where, key),
                        f"{provider}/{model_id}: field {key!r} is not mapped",
                    )
                )
        for src, dst in (("name", "name"), ("family", "family")):
            value = facts.get(src)
            if isinstance(value, str) and value.strip():
                out[dst] = value
        status = facts.get("status")
        if status is not None:
            if status in STATUS:
                out["status"] = STATUS[status]
            else:
                self._invalid(where, "status", f"{provider}/{model_id}: unknown status {status!r}")
        for src, dst in (("release_date", "release_date"), ("knowledge", "knowledge_cutoff")):
            value = facts.get(src)
            if value is None:
                continue
            if isinstance(value, str) and _DATE.match(value) and _real_day(value):
                out[dst] = value
            else:
                self._invalid(where, src, f"{provider}/{model_id}: {src} {value!r} is not a date")
        self._limits(provider, model_id, where, facts.get("limit"), out)
        for key in ("tool_call", "structured_output", "reasoning"):
            if isinstance(facts.get(key), bool):
                out[key] = facts[key]
        efforts: list[str] = []
        for option in facts.get("reasoning_options") or []:
            if isinstance(option, dict) and option.get("type") == "effort":
                for value in option.get("values") or []:
                    if isinstance(value, str) and value and value not in efforts:
                        efforts.append(value)
        if efforts:
            out["reasoning_efforts"] = efforts
        for kind, (what, did, dotted) in left_out_kinds(facts).items():
            if kind in self.dropped:
                self.dropped[kind].models += 1
            else:
                at = self.r.at(where, dotted)
                self.dropped[kind] = LeftOut(what, did, at, f"{provider}/{model_id}")
        for key in ("temperature", "attachment"):
            if isinstance(facts.get(key), bool):
                out[key] = facts[key]
        modalities = self._modalities(provider, model_id, where, facts.get("modalities"))
        if modalities:
            out["modalities"] = modalities
        if isinstance(facts.get("open_weights"), bool):
            out["open_weights"] = facts["open_weights"]
        prices = self._prices(
            provider,
            model_id,
            where,
            facts.get("cost"),
            out.get("context_window"),
            out.get("max_input_tokens"),
        )
        if prices:
            out["prices"] = prices
        if self.commit:
            out["source"] = f"{SOURCE_REPO}/blob/{self.commit}/{path}"
        return out

    def _limits(
        self, provider: str, model_id: str, where: str, limit: Any, out: dict[str, Any]
    ) -> None:
        if not isinstance(limit, dict):
            return
        found: dict[str, int] = {}
        for src, dst in (
            ("context", "context_window"),
            ("input", "max_input_tokens"),
            ("output", "max_output_tokens"),
        ):
            value = limit.get(src)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                self._invalid(
                    where,
                    f"limit.{src}",
                    f"{provider}/{model_id}: limit.{src} is {value!r}, not a positive token count",
                )
                continue
            found[dst] = value
        context = found.get("context_window")
        for dst, src in (("max_output_tokens", "output"), ("max_input_tokens", "input")):
            if context is not None and dst in found and found[dst] > context:
                self.r.out.append(
                    diag(
                        "import_limit_conflict",
                        self.r.at(where, f"limit.{src}"),
                        f"{provider}/{model_id}: limit.{src} {found[dst]} is above the context "
                        f"window {context}; {dst} is left out",
                    )
                )
                del found[dst]
        out.update(
            (k, found[k])
            for k in ("context_window", "max_input_tokens", "max_output_tokens")
            if k in found
        )

    def _modalities(
        self, provider: str, model_id: str, where: str, value: Any
    ) -> dict[str, list[str]]:
        result: dict[str, list[str]] = {}
        if not isinstance(value, dict):
            return result
        for side in ("input", "output"):
            items = value.get(side)
            if not isinstance(items, list):
                continue
            kept = []
            for item in items:
                if item in MODALITIES and item not in kept:
                    kept.append(item)
                else:
                    self._invalid(
                        where,
                        f"modalities.{side}",
                        f"{provider}/{model_id}: modality {item!r} is not one of {', '.join(MODALITIES)}",
                    )
            result[side] = kept
        return result

    def _price_table(
        self, provider: str, model_id: str, where: str, dotted: str, table: dict[str, Any]
    ) -> dict[str, str]:
        prices: dict[str, str] = {}
        for src, dst in (*PRICE_KEYS.items(), *PRICE_SYNONYMS.items()):
            if src not in table:
                continue
            found = _price(table[src])
            if dst in prices:  # spelled both ways: models.dev's own key stands
                if found is not None and found[0] != prices[dst]:
                    self._invalid(
                        where,
                        f"{dotted}.{src}",
                        f"{provider}/{model_id}: {dotted}.{src} {found[0]} differs from "
                        f"{dotted}.{dst} {prices[dst]}; {dst} {prices[dst]} is imported",
                    )
                continue
            if found is None:
                self._invalid(
                    where,
                    f"{dotted}.{src}",
                    f"{provider}/{model_id}: {dotted}.{src} {table[src]!r} is not a price",
                )
                continue
            prices[dst], noisy = found
            if noisy is not None:
                self.r.out.append(
                    diag(
                        "import_float_noise",
                        self.r.at(where, f"{dotted}.{src}"),
                        f"{provider}/{model_id}: {dotted}.{src} {noisy} has more significant "
                        f"digits than a floating-point number holds; imported as {prices[dst]}",
                    )
                )
        return prices

    def _prices(
        self,
        provider: str,
        model_id: str,
        where: str,
        cost: Any,
        context: Any,
        max_input: Any = None,
    ) -> dict[str, Any]:
        if not isinstance(cost, dict):
            return {}
        for key in sorted(cost):
            if (
                key not in PRICE_KEYS
                and key not in PRICE_SYNONYMS
                and key
                not in (
                    "tiers",
                    "context_over_200k",
                )
            ):
                self.r.out.append(
                    diag(
                        "import_unknown_field",
                        self.r.at(where, f"cost.{key}"),
                        f"{provider}/{model_id}: cost field {key!r} is not mapped",
                    )
                )
        prices: dict[str, Any] = self._price_table(provider, model_id, where, "cost", cost)
        if "input" not in prices or "output" not in prices:
            if prices:
                self._invalid(
                    where,
                    "cost",
                    f"{provider}/{model_id}: cost has no input or no output price; prices are left out",
                )
            return {}
        tiers: dict[int, dict[str, Any]] = {}
        for tier in cost.get("tiers") or []:
            spec = tier.get("tier") if isinstance(tier, dict) else None
            if (
                not isinstance(spec, dict)
                or spec.get("type", "context") != "context"
                or not isinstance(spec.get("size"), int)
                or isinstance(spec.get("size"), bool)
            ):
                self._invalid(
                    where,
                    "cost.tiers",
                    f"{provider}/{model_id}: a cost tier that is not an input-size (context) tier; left out",
                )
                continue
            found = self._price_table(provider, model_id, where, "cost.tiers", tier)
            if found:
                tiers[spec["size"]] = {"above_input_tokens": spec["size"], **found}
        over = cost.get("context_over_200k")
        if isinstance(over, dict) and 200_000 not in tiers:
            found = self._price_table(provider, model_id, where, "cost.context_over_200k", over)
            if found:
                tiers[200_000] = {"above_input_tokens": 200_000, **found}
        # a tier prices the input above its size: past the context window (or the input
        # limit, where one is set below it) no request reaches it
        bounds = [
            (limit, what)
            for limit, what in ((context, "context window"), (max_input, "input limit"))
            if isinstance(limit, int) and not isinstance(limit, bool)
        ]
        if tiers and bounds:
            limit, what = min(bounds)
            for size in [s for s in tiers if s >= limit]:
                self.r.out.append(
                    diag(
                        "import_limit_conflict",
                        self.r.at(where, "cost.tiers"),
                        f"{provider}/{model_id}: a price tier above {size} input tokens can never "
                        f"apply within the {what} {limit}; the tier is left out",
                    )
                )
                del tiers[size]
        if tiers:
            prices["tiers"] = [tiers[size] for size in sorted(tiers)]
        return prices
