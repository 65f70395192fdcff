"""The template filters: how a value is written in a generated page's Markdown or Python."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from generator.pyliteral import literal


def _codes(values: Any) -> str:
    return ", ".join(f"`{v}`" for v in values) or "—"


def _code_or_dash(value: Any) -> str:
    return f"`{value}`" if value not in (None, "") else "—"


def _json_or_dash(value: Any) -> str:
    if not value:
        return "—"
    return "`" + json.dumps(value, sort_keys=True, ensure_ascii=False) + "`"


def _aliasmap(value: dict[str, str]) -> str:
    return "<br>".join(f"`{k}` → `{v}`" for k, v in value.items()) or "—"


def _mdcell(value: str) -> str:
    return value.replace("|", "\\|")


def _envelope_keys(value: dict[str, Any]) -> str:
    def keys(v: Any) -> str:
        if isinstance(v, dict):
            return (
                "{"
                + ", ".join(
                    f"{k}{': ' + keys(x) if isinstance(x, dict) else ''}" for k, x in v.items()
                )
                + "}"
            )
        return ""

    return "`" + keys(value) + "`"


def _triggers(value: Any) -> str:
    parts = []
    for trig in value:
        params = {k: v for k, v in trig.items() if k != "kind"}
        text = f"`{trig['kind']}`"
        if params:
            text += " " + json.dumps(_plain(params), ensure_ascii=False)
        parts.append(_mdcell(text))
    return "<br>".join(parts)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _prettyjson(value: Any) -> str:
    return json.dumps(_plain(value), indent=2, ensure_ascii=False)


_PRICE_NAMES = (
    ("input", "in"),
    ("output", "out"),
    ("cache_read", "cache read"),
    ("cache_write", "cache write"),
    ("cache_write_1h", "cache write 1h"),
    ("input_audio", "audio in"),
    ("cache_read_audio", "audio cache read"),
    ("output_audio", "audio out"),
    ("reasoning", "reasoning"),
    ("citation", "citation"),
)


def _price_list(prices: dict[str, Any]) -> str:
    return ", ".join(f"{label} ${prices[name]}" for name, label in _PRICE_NAMES if name in prices)


def _span(period: dict[str, Any]) -> str:
    """The days a price period holds, as the docs say it (``until`` is exclusive)."""
    start, end = period.get("from"), period.get("until")
    if start and end:
        return f"from {start} until {end}"
    return f"from {start}" if start else f"until {end}" if end else "always"


def _prices_cell(prices: Any) -> str:
    """A model's prices in one table cell: base, long-context tiers, batch; a schedule gives each
    period's days before its prices."""
    if not prices:
        return "—"
    if isinstance(prices, (list, tuple)):
        return "<br>".join(f"**{_span(p)}**: {_prices_cell(p)}" for p in prices)
    parts = [_price_list(prices)]
    for fee in prices.get("fees", ()):
        per = (
            f"per {fee['per']:,} {fee['unit']}s" if fee.get("per", 1) > 1 else f"per {fee['unit']}"
        )
        when = fee.get("when")
        cond = ""
        if when:
            ((option, value),) = when.items()
            cond = f" ({option} {value}{', default' if fee.get('default') else ''})"
        parts.append(f"fee ${fee['price']} {per}{cond}")
    for tier in prices.get("tiers", ()):
        parts.append(f"above {tier['above_input_tokens']:,} input: {_price_list(tier)}")
    batch = prices.get("batch")
    if batch and "discount" in batch:
        off = (Decimal(batch["discount"]) * 100).normalize()
        parts.append(f"batch: {off:f}% off every price (cache and tiers included)")
    elif batch:
        parts.append(f"batch: {_price_list(batch)}")
        for tier in batch.get("tiers", ()):
            parts.append(f"batch above {tier['above_input_tokens']:,} input: {_price_list(tier)}")
    return "<br>".join(parts)


_CAPABILITIES = (
    ("tool_call", "tools"),
    ("structured_output", "structured output"),
    ("reasoning", "reasoning"),
    ("temperature", "temperature"),
    ("attachment", "attachments"),
    ("open_weights", "open weights"),
)


def _capabilities_cell(m: dict[str, Any]) -> str:
    parts = []
    for name, label in _CAPABILITIES:
        if name not in m:
            continue
        text = label if m[name] else f"no {label}"
        if name == "reasoning" and m[name] and m.get("reasoning_efforts"):
            text += " (" + "/".join(m["reasoning_efforts"]) + ")"
        parts.append(text)
    return ", ".join(parts) or "—"


def _modalities_cell(m: dict[str, Any]) -> str:
    modalities = m.get("modalities")
    if not modalities:
        return "—"
    ins = ", ".join(modalities.get("input", ())) or "—"
    outs = ", ".join(modalities.get("output", ())) or "—"
    return f"{ins} → {outs}"


def _lifecycle_cell(m: dict[str, Any]) -> str:
    parts = [m.get("status", "active")]
    if m.get("deprecation_date"):
        parts.append(f"deprecated {m['deprecation_date']}")
    if m.get("shutdown_date"):
        parts.append(f"shutdown {m['shutdown_date']}")
    if m.get("successor"):
        parts.append(f"successor `{m['successor']}`")
    if m.get("points_to"):
        parts.append(f"serves `{m['points_to']}`")
    return "<br>".join(parts)


def _tokens(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else "—"


def _sources(urls: Any) -> str:
    return " ".join(f"[{i}]({url})" for i, url in enumerate(urls or (), 1)) or "—"


def _model_row(m: dict[str, Any]) -> str:
    """One model's row of its provider's page."""
    get = m.get
    name = get("name")
    reviewed = get("reviewed_at")
    cells = (
        f"`{_mdcell(m['model'])}`" + (f"<br>{_mdcell(name)}" if name else ""),
        _codes(m["aliases"]),
        _tokens(get("context_window")),
        _tokens(get("max_input_tokens")),
        _tokens(get("max_output_tokens")),
        _capabilities_cell(m),
        _modalities_cell(m),
        _prices_cell(get("prices")),
        _lifecycle_cell(m),
        str(get("release_date") or "—"),
        str(get("knowledge_cutoff") or "—"),
        _sources(get("source")) + (f"<br>reviewed {reviewed}" if reviewed else ""),
    )
    return "| " + " | ".join(cells) + " |"


def _pyliteral(value: Any, indent: int = 0) -> str:
    return literal(value, 0, indent)


# name -> filter, as the templates call them
FILTERS: dict[str, Callable[..., Any]] = {
    "pyrepr": repr,
    "pyliteral": _pyliteral,
    "codes": _codes,
    "code_or_dash": _code_or_dash,
    "json_or_dash": _json_or_dash,
    "aliasmap": _aliasmap,
    "yesno": lambda value: "yes" if value else "no",
    "mdcell": _mdcell,
    "envelope_keys": _envelope_keys,
    "triggers": _triggers,
    "prettyjson": _prettyjson,
    "sources": _sources,
    "model_row": _model_row,
    "prices_cell": _prices_cell,
    "span": _span,
}
