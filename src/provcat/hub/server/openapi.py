"""The published OpenAPI document: every status each endpoint can answer, with the protocol's
error body, the multipart push body and the manifest v2 schema (the same file that validates
pushes). FastAPI's ``422`` is never documented because it is never sent."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from provcat.hub.schema import manifest_schema

__all__ = ["SLUG_PATTERN", "VERSION_OR_LATEST", "build_openapi", "responses"]

SLUG_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
VERSION_OR_LATEST = r"^(latest|v?[0-9]+\.[0-9]+\.[0-9]+(-[A-Za-z0-9]+)?)$"

_ERROR_TEXT = {
    400: "ValidationError: malformed parameter, path segment, manifest, multipart or payload.",
    401: "AuthenticationError: missing or invalid bearer token.",
    403: "AuthorizationError: the token may not act on this namespace.",
    404: "AdapterNotFoundError: unknown or deleted version.",
    409: "AdapterExistsError or IncompatibleBaseModelError.",
    413: "PayloadTooLargeError: the upload exceeds the server's cap.",
    416: "RangeNotSatisfiableError: the range starts past the end.",
    503: "RegistryUnavailableError: storage unreachable.",
    507: "InsufficientStorageError: the hub's storage is full; nothing was stored.",
}
_JSON = "application/json"
_NOT_MODIFIED = {
    "description": "If-None-Match named the current ETag: no body.",
    "headers": {"ETag": {"description": "The current validator.", "schema": {"type": "string"}}},
}
_LOCATION = {
    "Location": {
        "description": "The new version's URL, under the hub's public URL.",
        "schema": {"type": "string"},
    }
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _error(status: int) -> dict[str, Any]:
    return {"description": _ERROR_TEXT[status], "content": {_JSON: {"schema": _ref("ErrorBody")}}}


def _ok(description: str, schema: str) -> dict[str, Any]:
    return {"description": description, "content": {_JSON: {"schema": _ref(schema)}}}


_DIGEST_HEADERS = {
    "Digest": {"description": "sha-256=<hex> of the whole payload.", "schema": {"type": "string"}},
    "Repr-Digest": {"description": "RFC 9530: sha-256=:<base64>:.", "schema": {"type": "string"}},
    "ETag": {"description": 'The payload\'s "<sha-256 hex>".', "schema": {"type": "string"}},
    "Accept-Ranges": {"description": "Always bytes.", "schema": {"type": "string"}},
}


def _binary(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "headers": _DIGEST_HEADERS,
        "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
    }


_RESPONSES: dict[str, dict[int, dict[str, Any]]] = {
    "health": {200: _ok("The server is up.", "Health")},
    "ready": {200: _ok("The database and the blob store answer.", "Ready"), 503: _error(503)},
    "schema": {
        200: {"description": "The JSON Schema.", "content": {_JSON: {"schema": {"type": "object"}}}}
    },
    "search": {200: _ok("Matching adapters, latest version each.", "SearchResponse")}
    | {s: _error(s) for s in (400, 401, 403, 503)},
    "resolve": {200: _ok("The manifest.", "Manifest"), 304: _NOT_MODIFIED}
    | {s: _error(s) for s in (400, 401, 403, 404, 409, 503)},
    "payload": {
        200: _binary("The payload."),
        206: _binary("A byte range of the payload."),
        304: _NOT_MODIFIED,
    }
    | {s: _error(s) for s in (400, 401, 403, 404, 416, 503)},
    "push": {
        200: _ok("The identical version was already published: the stored manifest.", "Manifest"),
        201: _ok("Published: the canonical manifest.", "Manifest") | {"headers": _LOCATION},
    }
    | {s: _error(s) for s in (400, 401, 403, 409, 413, 503, 507)},
    "delete": {204: {"description": "Deleted."}}
    | {s: _error(s) for s in (400, 401, 403, 404, 503, 507)},
}


def responses(kind: str) -> dict[int | str, dict[str, Any]]:
    """The documented responses of one endpoint kind (also used to rewrite the document)."""
    return {k: v for k, v in _RESPONSES[kind].items()}


_KINDS = {
    ("/v1/health", "get"): "health",
    ("/v1/ready", "get"): "ready",
    ("/v1/manifest.schema.json", "get"): "schema",
    ("/v1/search", "get"): "search",
    ("/v1/adapters/{namespace}/{name}/{version}", "get"): "resolve",
    ("/v1/adapters/{namespace}/{name}/{version}", "delete"): "delete",
    ("/v1/adapters/{namespace}/{name}/{version}/payload", "get"): "payload",
    ("/v1/adapters/{namespace}/{name}/{version}/payload", "head"): "payload",
    ("/v1/adapters", "post"): "push",
}
_SECURED = {"push", "delete"}


def _components() -> dict[str, Any]:
    manifest = manifest_schema()
    for key in ("$schema", "$id"):
        manifest.pop(key, None)
    return {
        "ErrorBody": {
            "type": "object",
            "required": ["error", "message", "details"],
            "properties": {
                "error": {"type": "string", "description": "The error class name."},
                "message": {"type": "string", "description": "What went wrong, what to do."},
                "details": {"type": "object", "description": "Machine-readable specifics."},
            },
        },
        "Health": {
            "type": "object",
            "required": ["status", "version"],
            "properties": {"status": {"const": "ok"}, "version": {"type": "string"}},
        },
        "Ready": {
            "type": "object",
            "required": ["status", "checks", "version"],
            "properties": {
                "status": {"const": "ready"},
                "checks": {
                    "type": "object",
                    "properties": {
                        "database": {"const": "ok"},
                        "blobs": {"const": "ok"},
                    },
                },
                "version": {"type": "string"},
            },
        },
        "SearchResult": {
            "type": "object",
            "required": ["adapter_id", "namespace", "name", "version", "tags"],
            "properties": {
                "adapter_id": {"type": "string"},
                "namespace": {"type": "string"},
                "name": {"type": "string"},
                "version": {"type": "string"},
                "description": {"type": ["string", "null"]},
                "tags": {"type": "array", "items": {"type": "string"}},
                "base_model_compatibility": {"type": "array", "items": {"type": "string"}},
            },
        },
        "SearchResponse": {
            "type": "object",
            "required": ["results"],
            "properties": {"results": {"type": "array", "items": _ref("SearchResult")}},
        },
        "Manifest": manifest,
        "PushBody": {
            "type": "object",
            "required": ["manifest", "payload"],
            "properties": {
                "manifest": _ref("Manifest"),
                "payload": {"type": "string", "format": "binary"},
            },
        },
    }


def build_openapi(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, built once per app."""
    if app.openapi_schema:
        return app.openapi_schema
    document = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            kind = _KINDS.get((path, method))
            if kind is None:
                continue
            operation["responses"] = {str(k): v for k, v in _RESPONSES[kind].items()}
            if kind in _SECURED:
                operation["security"] = [{"bearer": []}]
            if kind == "push":
                operation["requestBody"] = {
                    "required": True,
                    "content": {
                        "multipart/form-data": {
                            "schema": _ref("PushBody"),
                            "encoding": {
                                "manifest": {"contentType": _JSON},
                                "payload": {"contentType": "application/octet-stream"},
                            },
                        }
                    },
                }
    document["components"] = {
        "schemas": _components(),
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    }
    app.openapi_schema = document
    return document
