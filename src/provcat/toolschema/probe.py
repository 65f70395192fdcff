"""``probe``: does the hosted API accept the compiled tool right now (SchemaPort section 2.6)?

The rules keep a probe from lying: compile first (never send what provcat would not generate);
a missing key, an expired key, a stale model, a rate limit or a network failure are environment
problems, never a verdict on the schema (only ``rejected`` is); returned arguments are checked
against the *canonical* schema, so a constraint accepted and then ignored shows up as
accepted-but-wrong-shape. The official SDKs are an optional extra, imported only when no
``client`` is passed; ``client`` is the test seam.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from provcat.redact import sanitize
from provcat.toolschema.api import as_tool, compile_tool
from provcat.toolschema.decode import decode_arguments, null_means_omitted
from provcat.toolschema.targets import Target, get_target
from provcat.toolschema.types import CanonicalTool, ProbeErrorKind, ProbeResult, ProviderError
from provcat.toolschema.validate import validate_value

__all__ = ["classify_provider_error", "probe", "probe_prompt", "resolve_probe_model"]

ErrorClass = ProbeErrorKind | Literal["rejected"]

_MODEL_MISSING = re.compile(
    r"\bmodel\b[^.]{0,60}?(not found|does not exist|is not supported)", re.IGNORECASE
)
_SCHEMA_WORDS = re.compile(
    r"\b(schema|parameters|function|tool|property|properties|required|json)\b", re.IGNORECASE
)
_NETWORK_CODES = {"ENOTFOUND", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EAI_AGAIN"}
_NETWORK_TYPES = {
    "AbortError",
    "TimeoutError",
    "ConnectError",
    "ConnectTimeout",
    "ReadTimeout",
    "APIConnectionError",
    "APITimeoutError",
    "ConnectionError",
}


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def _status(err: Any) -> int | None:
    for candidate in (
        _get(err, "status"),
        _get(err, "status_code"),
        _get(err, "statusCode"),
        _get(err, "code"),
        _get(_get(err, "error"), "code"),
        _get(_get(err, "response"), "status_code"),
    ):
        if isinstance(candidate, int) and not isinstance(candidate, bool):
            return candidate
        if isinstance(candidate, str) and candidate.isdigit():
            return int(candidate)
    return None


def _message(err: Any) -> str:
    for candidate in (_get(_get(err, "error"), "message"), _get(err, "message")):
        if isinstance(candidate, str) and candidate:
            return candidate
    return str(err) if isinstance(err, BaseException) else json.dumps(err, default=str)[:300]


def classify_provider_error(err: Any) -> tuple[ErrorClass, ProviderError]:
    """Why a probe request failed: ``rejected`` (the schema) or an environment problem.

    401/403 authentication, 429 rate-limit, 404 model-not-found, 5xx network, 400/422 rejected
    unless the message says the model is missing and mentions nothing about the schema; no status
    and a connection-level failure: network; anything else: unknown.
    """
    status = _status(err)
    message = sanitize(_message(err))
    kind = _get(_get(err, "error"), "type") or _get(err, "type")
    code = _get(err, "code")
    error = ProviderError(
        message=message,
        status=status,
        type=str(kind) if isinstance(kind, str) else (code if isinstance(code, str) else None),
    )
    result: ErrorClass
    if status in (401, 403):
        result = "authentication"
    elif status == 429:
        result = "rate-limit"
    elif status == 404:
        result = "model-not-found"
    elif status is not None and status >= 500:
        result = "network"
    elif status in (400, 422):
        if _MODEL_MISSING.search(message) and not _SCHEMA_WORDS.search(message):
            result = "model-not-found"
        else:
            result = "rejected"
    elif status is None and (
        (isinstance(code, str) and code in _NETWORK_CODES)
        or type(err).__name__ in _NETWORK_TYPES
        or _get(err, "name") in _NETWORK_TYPES
        or isinstance(err, (ConnectionError, TimeoutError))
        or any(s in message.lower() for s in ("fetch failed", "network", "timeout"))
    ):
        result = "network"
    else:
        result = "unknown"
    return result, error


def probe_prompt(tool: CanonicalTool) -> str:
    """The one short instruction a probe sends."""
    return (
        f"Call the `{tool.name}` tool exactly once using plausible placeholder values that satisfy "
        "every constraint in its schema. This is an automated schema compatibility check; the call "
        "will not be executed. Do not ask questions."
    )


def resolve_probe_model(explicit: str | None, env_var: str | None, default: str) -> str:
    """``explicit``, else the environment variable (empty counts as unset), else ``default``."""
    if explicit:
        return explicit
    if env_var and os.environ.get(env_var):
        return os.environ[env_var]
    return default


def _fill(template: Any, values: Mapping[str, Any]) -> Any:
    """``template`` with every string that names a placeholder replaced by its value."""
    if isinstance(template, str):
        return values.get(template, template)
    if isinstance(template, Mapping):
        return {k: _fill(v, values) for k, v in template.items()}
    if isinstance(template, (list, tuple)):
        return [_fill(v, values) for v in template]
    return template


def _request(
    tool: CanonicalTool, compiled: dict[str, Any], model: str, spec: Mapping[str, Any]
) -> dict[str, Any]:
    """The SDK call's keyword arguments: the target's request template, filled in, with the
    ``pin`` template merged in when the target forces the tool call."""
    values = {
        "$model": model,
        "$prompt": probe_prompt(tool),
        "$tool": compiled,
        "$name": tool.name,
        "$max_output_tokens": int(spec.get("max_output_tokens") or 512),
    }
    request: dict[str, Any] = _fill(spec["request"], values)
    if spec.get("pin"):
        request.update(_fill(spec["pin"], values))
    return request


def _send(client: Any, spec: Mapping[str, Any], request: dict[str, Any]) -> Any:
    """Call the SDK method the target names (``method``: attributes from the client)."""
    call = client
    for name in spec["method"]:
        call = getattr(call, str(name))
    return call(**request)


def _parse_args(raw: Any) -> Any:
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except ValueError:
            return raw
    if isinstance(raw, Mapping):
        return dict(raw)
    return raw


def _at(value: Any, path: Sequence[str]) -> list[Any]:
    """Everything ``path`` reaches from ``value``; ``*`` visits every item of a list."""
    found = [value]
    for step in path:
        nxt: list[Any] = []
        for item in found:
            if step == "*":
                if isinstance(item, (list, tuple)):
                    nxt.extend(item)
            else:
                child = _get(item, step)
                if child is not None:
                    nxt.append(child)
        found = nxt
    return found


_NO_ARGS = object()


def _arguments(spec: Mapping[str, Any], response: Any, name: str) -> tuple[Any, str | None]:
    """The arguments of the first call of ``name`` (or _NO_ARGS) and a note, read where the
    target's ``tool_calls`` says the response holds them."""
    where = spec["tool_calls"]
    wanted = dict(where.get("where") or {})
    for item in _at(response, where["at"]):
        if any(_get(item, k) != v for k, v in wanted.items()):
            continue
        names = _at(item, where["name"])
        if names and names[0] == name:
            args = _at(item, where["arguments"])
            return _parse_args(args[0] if args else None), None
    stop = spec.get("stop")
    if stop:
        reasons = _at(response, stop["at"])
        if reasons and reasons[0] in tuple(stop["values"]):
            return (
                _NO_ARGS,
                f"The model stopped ({reasons[0]}) before calling the tool; the schema was accepted.",
            )
    return _NO_ARGS, None


def _client(target: Target, spec: Mapping[str, Any]) -> tuple[Any, ProbeResult | None, str]:
    key_vars = tuple(spec.get("api_key_envs") or ())
    key = next((os.environ[v] for v in key_vars if os.environ.get(v)), None)
    if key is None:
        return None, None, "missing-credentials"
    module_name = str(spec["sdk_module"])
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None, None, f"unsupported:{module_name}"
    factory = getattr(module, str(spec.get("sdk_client") or "Client"))
    if spec.get("base_url"):
        return factory(api_key=key, base_url=str(spec["base_url"])), None, ""
    return factory(api_key=key), None, ""


def probe(
    tool: CanonicalTool | Mapping[str, Any],
    target: str | Target,
    *,
    client: Any = None,
    model: str | None = None,
    allow_lossy: bool = False,
) -> ProbeResult:
    """Send the compiled tool to the target's hosted API once and report what happened."""
    canonical = as_tool(tool)
    resolved = get_target(target)
    spec = resolved.probe
    base: dict[str, Any] = {
        "provider_id": resolved.id,
        "tool_name": canonical.name,
        "schema_accepted": False,
        "tool_call_returned": False,
    }
    if spec is None:
        return ProbeResult(
            **base,
            status="skipped",
            notes=(f"{resolved.display_name} has no hosted API to probe.",),
        )
    compiled = compile_tool(canonical, resolved, allow_lossy=allow_lossy)
    if not compiled.ok or compiled.output is None:
        codes = ", ".join(sorted({d.code for d in compiled.diagnostics if d.severity == "error"}))
        return ProbeResult(
            **base,
            status="error",
            error_kind="compile-refused",
            notes=(f"Not sent: compiling was refused ({codes}).",),
        )
    chosen = resolve_probe_model(model, spec.get("model_env"), str(spec["default_model"]))
    base["model"] = chosen
    if client is None:
        client, _, problem = _client(resolved, spec)
        if problem == "missing-credentials":
            names = " or ".join(spec.get("api_key_envs") or ())
            return ProbeResult(
                **base,
                status="error",
                error_kind="missing-credentials",
                notes=(f"Set {names} to probe {resolved.display_name}.",),
            )
        if problem.startswith("unsupported:"):
            return ProbeResult(
                **base,
                status="error",
                error_kind="unsupported",
                notes=(
                    f"The official SDK `{problem.split(':', 1)[1]}` is not installed: "
                    f"`pip install {problem.split(':', 1)[1]}` (or pass run_probe a client).",
                ),
            )
    request = _request(canonical, compiled.output, chosen, spec)
    try:
        response = _send(client, spec, request)
    except Exception as exc:  # every SDK raises its own types; classify them all
        kind, error = classify_provider_error(exc)
        if kind == "rejected":
            return ProbeResult(**base, status="rejected", provider_error=error)
        return ProbeResult(
            **base,
            status="error",
            provider_error=error,
            error_kind=kind,
            notes=("An environment problem, not a verdict on the schema.",),
        )
    args, note = _arguments(spec, response, canonical.name)
    notes = (note,) if note else ()
    if args is _NO_ARGS:
        return ProbeResult(**{**base, "schema_accepted": True}, status="accepted", notes=notes)
    decoded = (
        decode_arguments(canonical.input_schema, args) if null_means_omitted(resolved) else args
    )
    errors = validate_value(canonical.input_schema, decoded)
    return ProbeResult(
        **{**base, "schema_accepted": True, "tool_call_returned": True},
        status="accepted",
        arguments_valid=not errors,
        argument_errors=tuple(errors),
        arguments_received=args,
        notes=notes,
    )
