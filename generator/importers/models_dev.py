"""models.dev -> provider documents: one per ``providers/<id>/``, with its ``models:`` inventory.

What the source owns is mapped field by field (:mod:`generator.importers.model_facts`); what it says
wrong is reported with its file position and left out, so the imported catalog builds clean.
A provider whose API is OpenAI's chat completions API (``OPENAI_CHAT_NPM``) at a stated base URL
gets an ``openai-chat`` endpoint and the tool-schema target the bundled catalog gives such a
provider (``OPENAI_CHAT_TARGET``); any other is imported as inventory only, with the reason in
``inventory_only``. What the catalog cannot hold (a model's own API, see ``own_api``; the fields
``ModelMapper`` leaves out) is warned about, never dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from generator.diagnostics import Diagnostic, diag
from generator.importers.model_facts import ModelMapper
from generator.importers.reader import Reader
from generator.importers.source import Snapshot

__all__ = [
    "HEADER",
    "OPENAI_CHAT_TARGET",
    "ImportResult",
    "ImportedProvider",
    "import_snapshot",
    "provider_ids",
]

OPENAI_COMPATIBLE_NPM = "@ai-sdk/openai-compatible"
# The SDK packages models.dev names for a provider whose API is OpenAI's chat completions API at
# the provider's `api` base URL: its generic OpenAI-compatible one, and OpenRouter's own (its API
# "is very similar to the OpenAI Chat API": https://openrouter.ai/docs/api-reference/overview,
# POST {base URL}/chat/completions with a bearer key; the bundled catalog's openrouter.yaml uses
# protocol openai-chat on the same base URL). Any other package gets no endpoint: the import
# cannot tell from a package name which API it speaks.
OPENAI_CHAT_NPM = frozenset({OPENAI_COMPATIBLE_NPM, "@openrouter/ai-sdk-provider"})
# The tool-schema target of a provider the import gives an `openai-chat` endpoint: the bundled
# catalog's for every OpenAI-compatible vendor it lists (cerebras, deepinfra, deepseek,
# fireworks, groq, mistral, openrouter, together, xai, ...: catalog/providers/*.yaml). Its rules
# are provcat's (catalog/schema-targets/openai-chat.yaml), which the import copies into a new
# catalog (generator.importers.cli).
OPENAI_CHAT_TARGET = "openai-chat"
# the schemas' api_key_env pattern, matched whole (Python's `$` would let a final newline in)
_ENV = re.compile(r"[A-Z][A-Z0-9]{0,30}(_[A-Z0-9]{0,31})*")
_URL = re.compile(r"^https?://[^\s]+$")


@dataclass
class ImportedProvider:
    """One provider document (plain data, in writing order) and what the import decided."""

    key: str
    document: dict[str, Any]
    protocol: str | None
    inventory_reason: str | None
    models: int = 0
    # models whose own `[provider]` table gives them another API than the provider's (each warned)
    own_api: int = 0
    # models the source lists whose file cannot be read (not TOML, not UTF-8, a dangling link):
    # each is an import_unreadable_source or import_dangling_link warning; a re-import keeps
    # what the catalog has of them, since the source did not drop them
    unreadable: list[str] = field(default_factory=list)


@dataclass
class ImportResult:
    providers: list[ImportedProvider] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    commit: str | None = None
    # providers the source lists (a folder under providers/) whose provider.toml cannot be read
    # or is missing: left out of the import, and a re-import keeps their files as they are
    unreadable: list[str] = field(default_factory=list)


def _provider_api(key: str, info: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """(endpoint settings, None) for an OpenAI-compatible provider, else (None, the reason)."""
    npm = info.get("npm")
    api = info.get("api")
    env = [v for v in info.get("env") or [] if isinstance(v, str) and _ENV.fullmatch(v)]
    if npm not in OPENAI_CHAT_NPM:
        package = f"the SDK package {npm}" if isinstance(npm, str) and npm else "no SDK package"
        where = "" if isinstance(api, str) and api else ", and no base URL"
        return None, (
            f"models.dev names {package} for it{where}; the import makes endpoints only for an "
            "API it knows to be the OpenAI chat completions API"
        )
    if not isinstance(api, str) or not _URL.match(api):
        return None, "models.dev gives no base URL for its OpenAI-compatible API"
    if "${" in api:
        return None, f"its base URL {api} depends on account variables"
    keys = [v for v in env if v.endswith(("_API_KEY", "_KEY", "_TOKEN"))] or env
    settings: dict[str, Any] = {"base_url": api.rstrip("/")}
    if keys:
        settings["auth_type"] = "bearer"
        settings["api_key_env"] = keys[0]
    else:
        settings["auth_type"] = "none"
    return settings, None


def own_api(info: dict[str, Any], override: Any) -> str | None:
    """What a model's own ``[provider]`` table says that its provider's ``provider.toml`` does
    not (``npm '@ai-sdk/anthropic', api 'https://...'``), or None when it repeats the provider."""
    if not isinstance(override, dict):
        return repr(override)
    differs = [
        f"{name} {value!r}"
        for name, value in sorted(override.items())
        if not (name in ("npm", "api") and value == info.get(name))
    ]
    return ", ".join(differs) or None


def _provider_said(info: dict[str, Any]) -> str:
    npm, api = info.get("npm"), info.get("api")
    said = [f"npm {npm!r}" if npm is not None else "no npm"]
    if api is not None:
        said.append(f"api {api!r}")
    return ", ".join(said)


def _commit(snap: Snapshot) -> str | None:
    text = snap.text("COMMIT")
    if text is None:
        return None
    value = text.strip()
    return value if re.fullmatch(r"[0-9a-f]{7,40}", value) else None


HEADER = (
    "# yaml-language-server: $schema=../../schemas/provider.schema.json\n"
    "# Imported from models.dev ({source}) by `python -m generator import models-dev`.\n"
    "# A re-import rewrites what the source owns (and a status nobody edited: see `imported:`) and\n"
    "# keeps what maintainers add: model aliases, an edited status, lifecycle dates, successors,\n"
    "# points_to, notes, reviewed_at.\n"
)


def provider_ids(snap: Snapshot) -> list[str]:
    return sorted(
        {e.path.split("/")[1] for e in snap.files("providers/") if e.path.count("/") >= 2}
    )


def import_snapshot(
    snap: Snapshot,
    only: frozenset[str] | None = None,
    tool_schema_target: str | None = OPENAI_CHAT_TARGET,
) -> ImportResult:
    """Map every provider of the snapshot (or those in ``only``); every source defect becomes a
    diagnostic. A provider given an ``openai-chat`` endpoint gets ``tool_schema_target`` (None:
    none, for a catalog without that target)."""
    result = ImportResult(commit=_commit(snap))
    reader = Reader(snap, result.diagnostics)
    if result.commit is None:  # said once, not once per model
        result.diagnostics.append(
            diag(
                "import_missing_commit",
                (reader.shown("COMMIT"), 1, 1),
                "the snapshot has no COMMIT file naming its commit (or it holds no commit id); "
                "no model gets a `source` link",
            )
        )
    mapper = ModelMapper(reader, result.commit)
    for key in provider_ids(snap):
        if only is not None and key not in only:
            continue
        info_path = f"providers/{key}/provider.toml"
        info = reader.load(info_path)
        if info is None:
            result.unreadable.append(key)
            if snap.get(info_path) is None:
                result.diagnostics.append(
                    diag(
                        "import_unreadable_source",
                        (reader.shown(f"providers/{key}"), 1, 1),
                        f"providers/{key}/ has no provider.toml; the provider is left out",
                    )
                )
            continue
        name = info.get("name")
        display = name if isinstance(name, str) and name.strip() else key
        document: dict[str, Any] = {"provider": key, "display_name": display}
        doc_url = info.get("doc")
        if isinstance(doc_url, str) and _URL.match(doc_url):
            document["docs_url"] = doc_url
        settings, reason = _provider_api(key, info)
        if settings is not None:
            if tool_schema_target is not None:
                document["tool_schema_target"] = tool_schema_target
            document["defaults"] = settings
            document["endpoints"] = {
                "chat/completions": {"aliases": ["chat"], "type": "api", "protocol": "openai-chat"}
            }
        else:
            document["inventory_only"] = reason
        models: dict[str, dict[str, Any]] = {}
        seen: dict[str, str] = {}
        own_apis = 0
        unreadable: list[str] = []
        prefix = f"providers/{key}/models/"
        for entry in snap.files(prefix):
            if not entry.path.endswith(".toml"):
                continue
            model_id = entry.path[len(prefix) : -len(".toml")]
            own = reader.load(entry.path)
            if own is None:
                unreadable.append(model_id)
                continue
            if model_id != model_id.strip() or not model_id:
                result.diagnostics.append(
                    diag(
                        "import_invalid_value",
                        (reader.shown(entry.path), 1, 1),
                        f"{key}: model id {model_id!r} has surrounding spaces; it is left out",
                    )
                )
                continue
            folded = model_id.casefold()
            if folded in seen:
                result.diagnostics.append(
                    diag(
                        "import_duplicate_model",
                        (reader.shown(entry.path), 1, 1),
                        f"{key}: model {model_id!r} differs from {seen[folded]!r} only in case or "
                        "spaces; it is left out",
                    )
                )
                continue
            seen[folded] = model_id
            facts = mapper.resolve(entry.path, own)
            models[model_id] = mapper.map(key, model_id, entry.path, facts)
            said = own_api(info, facts["provider"]) if "provider" in facts else None
            if said is not None:
                own_apis += 1
                served = (
                    "so it is listed under the provider's chat/completions endpoint, which may "
                    "not serve it"
                    if settings is not None
                    else "and the provider is inventory only: the model is listed for its facts "
                    "and prices alone"
                )
                result.diagnostics.append(
                    diag(
                        "import_unknown_field",
                        reader.at(entry.path, "provider"),
                        f"{key}/{model_id}: models.dev gives this model an API of its own "
                        f"([provider] {said}; the provider's: {_provider_said(info)}); the "
                        f"catalog has no per-model endpoint, {served}",
                        "to call this model, give its API a provider file of its own (or note "
                        "it in the model's `note:`); the import cannot express it",
                    )
                )
        if models:
            document["models"] = {m: models[m] for m in sorted(models)}
        result.providers.append(
            ImportedProvider(
                key=key,
                document=document,
                protocol="openai-chat" if settings is not None else None,
                inventory_reason=reason,
                models=len(models),
                own_api=own_apis,
                unreadable=unreadable,
            )
        )
    result.diagnostics.extend(mapper.left_out())
    return result
