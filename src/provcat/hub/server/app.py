"""The FastAPI app factory: every ``/v1`` endpoint of the registry protocol.

Failures always answer with ``{error, message, details}``: protocol errors, framework validation
(400, never 422), unknown routes (404) and methods (405 with ``Allow``), storage outages (503).
The one exception: outside ``/v1``, a browser (``Accept: text/html``) asking for an address that
names nothing gets the browse pages' HTML 404.

``/v1/health`` is liveness (the process answers); ``/v1/ready`` is readiness (the database and
the blob store answer too), the load balancer's check.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Annotated, Any

from fastapi import FastAPI, Query
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Match

import provcat
from provcat.hub.errors import (
    AdapterNotFoundError,
    HubError,
    IncompatibleBaseModelError,
    MethodNotAllowedError,
    NotFoundError,
    RegistryUnavailableError,
    ValidationError,
    error_class,
)
from provcat.hub.ref import LATEST, HubRef
from provcat.hub.safetensors import check_safetensors
from provcat.hub.schema import manifest_schema, warm_up
from provcat.hub.searching import DEFAULT_LIMIT, MAX_LIMIT
from provcat.hub.server.auth import authenticate, authorize, optional_token
from provcat.hub.server.middleware import CatchAll, HeaderGuard, PathGuard
from provcat.hub.server.offload import BoundedReads
from provcat.hub.server.openapi import SLUG_PATTERN, VERSION_OR_LATEST, build_openapi, responses
from provcat.hub.server.payload import digest_headers, etag_matches, parse_range
from provcat.hub.server.push import check_checksum, parse_manifest, record_for
from provcat.hub.server.responses import SortedJSON, error_response
from provcat.hub.server.upload import receive_upload
from provcat.hub.settings import HubSettings
from provcat.hub.storage import Storage, StoredAdapter, open_storage
from provcat.hub.storage.sql import READ_CONCURRENCY
from provcat.hub.text import check_query
from provcat.hub.web import install_pages

__all__ = ["READY_TIMEOUT", "create_app"]

log = logging.getLogger("provcat.hub")

# how long /v1/ready waits for the database and the blob store to answer before saying 503
READY_TIMEOUT = 3.0

Namespace = Annotated[
    str, PathParam(pattern=SLUG_PATTERN, max_length=64, description="Lower-kebab namespace.")
]
Name = Annotated[
    str, PathParam(pattern=SLUG_PATTERN, max_length=64, description="Lower-kebab name.")
]
VersionParam = Annotated[
    str,
    PathParam(
        pattern=VERSION_OR_LATEST, max_length=64, description="SemVer (or v-prefixed) or latest."
    ),
]


def create_app(settings: HubSettings | None = None, *, storage: Storage | None = None) -> FastAPI:
    """A hub app over ``storage`` (default: opened, migrated and cleaned from ``settings``)."""
    settings = settings or HubSettings()
    store = storage or open_storage(settings)

    # metadata reads: off the event loop, as many at once as the reader pool has connections
    reads = BoundedReads(READ_CONCURRENCY)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(warm_up)  # before the first request, not during the first push
        # claim this process's upload folder now: its lock tells other processes it is alive
        await run_in_threadpool(lambda: store.tmp_dir)
        yield
        reads.close()
        store.close()

    app = FastAPI(
        title="provcat adapter hub",
        version=provcat.__version__,
        description="Registry protocol v1: search, resolve, pull and push LoRA adapters.",
        lifespan=lifespan,
        redoc_url=None,
    )
    app.state.storage = store
    app.state.settings = settings
    _install_error_handlers(app)
    app.add_middleware(CatchAll)
    app.add_middleware(PathGuard)
    # with a public URL, Host is never used; without one it must be a trusted name
    app.add_middleware(
        HeaderGuard, allowed_hosts=None if settings.public_url else settings.allowed_hosts
    )

    def base_url(request: Request) -> str:
        # request.base_url is the connection's scheme + a Host HeaderGuard allowed
        return (settings.public_url or str(request.base_url)).rstrip("/")

    def version_url(request: Request, row: StoredAdapter) -> str:
        return f"{base_url(request)}/v1/adapters/{row.namespace}/{row.name}/{row.version}"

    def manifest_of(request: Request, row: StoredAdapter) -> dict[str, Any]:
        return {**row.manifest, "storage_uri": version_url(request, row) + "/payload"}

    async def read_scope(request: Request, namespace: str | None) -> tuple[str, ...] | None:
        if not settings.private_reads:
            return None
        token = await reads(optional_token, request, store, True)
        if token is None:
            return None
        if namespace is not None:
            authorize(token, namespace)
        return None if token.admin else token.namespaces

    async def found(ref: HubRef, scope: tuple[str, ...] | None = None) -> StoredAdapter:
        row = await reads(store.resolve, ref.namespace, ref.name, ref.version)
        if row is None:
            raise await not_found(ref, scope)
        return row

    async def not_found(ref: HubRef, scope: tuple[str, ...] | None) -> AdapterNotFoundError:
        """The 404, with the closest adapters the reader may see ("did you mean")."""
        details: dict[str, Any] = {
            "namespace": ref.namespace,
            "name": ref.name,
            "version": ref.version,
        }
        message = f"no adapter {ref}"
        if ref.version != LATEST and await reads(
            store.tombstoned, ref.namespace, ref.name, ref.version
        ):  # a tombstone: say so, not "no adapter" (a deleted version is never served again)
            details["deleted"] = True
            message = f"{ref} was deleted; a deleted version is never served or pushed again"
        versions = await reads(store.versions, ref.namespace, ref.name)
        if versions:  # the adapter exists: only this version does not
            available = [v.version for v in versions[:10]]
            details["available_versions"] = available
            message += f"; its versions: {', '.join(available)}"
        else:
            close = await reads(store.suggest, ref.namespace, ref.name, scope)
            if close:
                refs = [f"hub://{ns}/{n}" for ns, n in close]
                details["did_you_mean"] = refs
                message += f"; did you mean {' or '.join(refs)}?"
        return AdapterNotFoundError(message, details)

    @app.get("/v1/health", responses=responses("health"), summary="Liveness probe")
    async def health() -> Response:
        return SortedJSON({"status": "ok", "version": provcat.__version__})

    # readiness: at most one check of each store at a time per process (a load balancer's
    # probes share it), each given READY_TIMEOUT seconds before the store counts as down
    probes: dict[str, asyncio.Future[None]] = {}
    checks = {"database": store.ping, "blobs": store.ping_blobs}

    async def probe(name: str) -> str:
        running = probes.get(name)
        if running is None or running.done():
            running = probes[name] = asyncio.ensure_future(run_in_threadpool(checks[name]))
            # read the outcome even when nobody waits for it any more (no "never retrieved")
            running.add_done_callback(lambda f: f.cancelled() or f.exception())
        try:
            await asyncio.wait_for(asyncio.shield(running), READY_TIMEOUT)
        except TimeoutError:
            return "timeout"
        except Exception:
            return "unavailable"
        return "ok"

    @app.get("/v1/ready", responses=responses("ready"), summary="Readiness probe")
    async def ready() -> Response:
        names = list(checks)
        results = dict(zip(names, await asyncio.gather(*map(probe, names)), strict=True))
        down = [name for name, result in results.items() if result != "ok"]
        if down:
            what = " and ".join(
                "the database" if n == "database" else "the blob store" for n in down
            )
            error = RegistryUnavailableError(
                f"not ready: {what} cannot be used right now", {"checks": results}
            )
            error.headers["Retry-After"] = "5"
            raise error
        return SortedJSON({"status": "ready", "checks": results, "version": provcat.__version__})

    @app.get(
        "/v1/manifest.schema.json",
        responses=responses("schema"),
        summary="The manifest v2 JSON Schema that validates pushes",
    )
    async def schema() -> Response:
        return SortedJSON(manifest_schema())

    @app.get("/v1/search", responses=responses("search"), summary="Search adapters")
    async def search(
        request: Request,
        q: Annotated[str | None, Query(max_length=200, description="Text to find.")] = None,
        tag: Annotated[list[str] | None, Query(description="Exact tag (repeatable).")] = None,
        limit: Annotated[
            int, Query(ge=1, le=MAX_LIMIT, description="At most this many rows.")
        ] = DEFAULT_LIMIT,
    ) -> Response:
        for single in ("q", "limit"):
            if len(request.query_params.getlist(single)) > 1:
                raise ValidationError(f"query parameter '{single}' given more than once")
        tags = tag or []
        check_query("q", q)
        for t in tags:
            check_query("tag", t)
        if any(not t or len(t) > 100 for t in tags):
            raise ValidationError("tag must be 1 to 100 characters")
        scope = await read_scope(request, None)

        rows = await reads(store.search, q, tags, limit, scope)
        return SortedJSON({"results": [r.search_row() for r in rows]})

    @app.get(
        "/v1/adapters/{namespace}/{name}/{version}",
        responses=responses("resolve"),
        summary="Resolve a version (or latest) to its manifest",
    )
    async def resolve(
        request: Request,
        namespace: Namespace,
        name: Name,
        version: VersionParam,
        base_model: Annotated[
            str | None, Query(max_length=200, description="Refuse unless compatible.")
        ] = None,
    ) -> Response:
        check_query("base_model", base_model)
        ref = HubRef.of(namespace, name, version)
        row = await found(ref, await read_scope(request, ref.namespace))
        compatible = row.manifest.get("base_model_compatibility") or []
        if base_model is not None and compatible and base_model not in compatible:
            raise IncompatibleBaseModelError(
                f"{ref.namespace}/{ref.name}:{row.version} does not support base model "
                f"'{base_model}'",
                {"base_model": base_model, "base_model_compatibility": sorted(compatible)},
            )
        document = SortedJSON(manifest_of(request, row))
        # a validator for conditional GETs: changes with the document (latest moving on too)
        etag = f'"{hashlib.sha256(document.body).hexdigest()}"'
        if etag_matches(request.headers.get("if-none-match"), etag):
            return Response(status_code=304, headers={"ETag": etag})
        document.headers["ETag"] = etag
        return document

    async def payload(request: Request, namespace: str, name: str, version: str) -> Response:
        ref = HubRef.of(namespace, name, version)
        row = await found(ref, await read_scope(request, ref.namespace))
        span = parse_range(request.headers.get("range"), row.size_bytes)
        start, end = span or (0, row.size_bytes)
        headers = digest_headers(row.checksum_sha256)
        if etag_matches(request.headers.get("if-none-match"), headers["ETag"]):
            return Response(status_code=304, headers={"ETag": headers["ETag"]})
        headers["Content-Length"] = str(end - start)
        status = 200
        if span is not None:
            status = 206
            headers["Content-Range"] = f"bytes {start}-{end - 1}/{row.size_bytes}"
        # blob I/O (a file open, or S3 requests): the general thread pool, not a metadata slot
        reader = await run_in_threadpool(store.open_payload, row, start, end)
        if reader is None:  # deleted between the lookup and the open
            raise AdapterNotFoundError(f"no adapter {ref}")
        if request.method == "HEAD":
            reader.close()
            return Response(status_code=status, headers=headers)
        chunks = reader.chunks()
        if span is None:  # a whole payload is a download; a range (a resumed part) is not
            chunks = counted(chunks, row)
        return StreamingResponse(chunks, status_code=status, headers=headers)

    def counted(chunks: Iterator[bytes], row: StoredAdapter) -> Iterator[bytes]:
        """The payload's chunks; the download is counted as its last chunk is handed to the
        server to send (a connection dropped before that is not counted; the client closing
        once it holds every byte may cancel this response's task, so nothing waits for after
        the last chunk). Runs in the thread pool, as the sync iteration of a streamed body does.
        """
        sent = 0
        for chunk in chunks:
            sent += len(chunk)
            if sent >= row.size_bytes:
                try:
                    store.count_download(row.namespace, row.name, row.version)
                except HubError:  # the payload is served anyway; only its count is lost
                    log.warning(
                        "could not count a download of %s/%s:%s",
                        row.namespace,
                        row.name,
                        row.version,
                    )
            yield chunk

    payload_path = "/v1/adapters/{namespace}/{name}/{version}/payload"

    @app.get(
        payload_path,
        responses=responses("payload"),
        response_class=Response,
        summary="Download the safetensors payload (Range supported)",
    )
    async def get_payload(
        request: Request, namespace: Namespace, name: Name, version: VersionParam
    ) -> Response:
        return await payload(request, namespace, name, version)

    @app.head(
        payload_path,
        responses=responses("payload"),
        response_class=Response,
        summary="The payload's headers (size, digests) without its bytes",
    )
    async def head_payload(
        request: Request, namespace: Namespace, name: Name, version: VersionParam
    ) -> Response:
        return await payload(request, namespace, name, version)

    @app.post(
        "/v1/adapters",
        status_code=201,
        responses=responses("push"),
        summary="Publish a version (multipart: manifest + payload)",
    )
    async def push(request: Request) -> Response:
        token = await reads(authenticate, request, store)
        holder: dict[str, dict[str, Any]] = {}

        def on_manifest(raw: bytes) -> None:  # in the upload's worker thread
            manifest = parse_manifest(raw)
            authorize(token, manifest["namespace"])
            # refuse a taken version before reading its payload (the constraint still decides races);
            # a metadata read like any other: within the read bound
            reads.from_thread(
                store.precheck,
                manifest["namespace"],
                manifest["name"],
                manifest["version"],
                manifest["checksum_sha256"],
            )
            holder["manifest"] = manifest

        upload = await receive_upload(
            request,
            store.tmp_dir,
            settings.max_upload_bytes,
            on_manifest,
            durable=store.blobs.syncs_source,
        )
        try:
            manifest = holder["manifest"]
            check_checksum(manifest, upload.sha256)
            await run_in_threadpool(check_safetensors, upload.path)
            record = record_for(manifest, upload.size)
            stored, created = await run_in_threadpool(store.publish, record, upload.path)
        finally:
            upload.discard()
        answer = SortedJSON(manifest_of(request, stored), status_code=201 if created else 200)
        if created:
            answer.headers["Location"] = version_url(request, stored)
        return answer

    @app.delete(
        "/v1/adapters/{namespace}/{name}/{version}",
        status_code=204,
        responses=responses("delete"),
        response_class=Response,
        summary="Delete a version (it stays a tombstone: never reusable)",
    )
    async def delete(
        request: Request, namespace: Namespace, name: Name, version: VersionParam
    ) -> Response:
        if version == LATEST:
            raise ValidationError("DELETE needs a concrete version, not 'latest'")
        ref = HubRef.of(namespace, name, version)
        # the token check is a metadata read like any other: within the read bound
        token = await reads(authenticate, request, store)
        authorize(token, ref.namespace)
        if await run_in_threadpool(store.delete, ref.namespace, ref.name, ref.version):
            return Response(status_code=204)
        # details.deleted tells "already deleted" (a client's success) from "never existed"
        if await reads(store.tombstoned, ref.namespace, ref.name, ref.version):
            raise AdapterNotFoundError(
                f"{ref} was already deleted",
                {
                    "namespace": ref.namespace,
                    "name": ref.name,
                    "version": ref.version,
                    "deleted": True,
                },
            )
        scope = None if token.admin or not settings.private_reads else token.namespaces
        missing = await not_found(ref, scope)
        raise AdapterNotFoundError(missing.message, {**missing.details, "deleted": False})

    install_pages(app, store, settings, reads, base_url)
    app.openapi = lambda: build_openapi(app)  # type: ignore[method-assign]
    return app


def _allowed_methods(app: FastAPI, path: str) -> str:
    """Every method some route of ``path`` takes (FastAPI registers one route per method, and
    Starlette's 405 names only the first route's)."""
    methods: set[str] = set()
    scope = {"type": "http", "path": path, "method": "\x00"}
    for route in app.router.routes:
        match, _ = route.matches(scope)
        if match != Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    return ", ".join(sorted(methods))


def _install_error_handlers(app: FastAPI) -> None:
    async def hub_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, HubError)
        return error_response(exc)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        error: HubError
        if exc.status_code == 404:
            path = request.url.path
            page = (
                None
                if path == "/v1" or path.startswith("/v1/")
                else getattr(app.state, "not_found_page", None)
            )
            browser = _prefers_html(request.headers.get("accept", ""))
            if page is not None and browser and request.method in ("GET", "HEAD"):
                # a person's address (a browser asks for HTML): a page, not the API's JSON
                response: Response = page(request)
                return response
            # a token pasted into the path is not echoed: HubError hides token shapes
            error = NotFoundError(f"no route {path}; see /openapi.json")
        elif exc.status_code == 405:
            error = MethodNotAllowedError(f"{request.method} is not allowed here")
            error.headers["Allow"] = _allowed_methods(app, request.url.path)
        else:
            error = error_class(exc.status_code)(str(exc.detail))
        return error_response(error)

    async def validation_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        problems = sorted(
            {
                "/".join(str(p) for p in e.get("loc", ())): str(e.get("msg", ""))
                for e in exc.errors()
            }.items()
        )
        where, what = problems[0] if problems else ("request", "invalid")
        return error_response(
            ValidationError(
                f"invalid {where}: {what}",
                {"problems": [{"path": p, "message": m} for p, m in problems]},
            )
        )

    app.add_exception_handler(HubError, hub_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, validation_error)


def _prefers_html(accept: str) -> bool:
    """Whether an ``Accept`` header names ``text/html`` (any case) and ranks it at least as high
    as ``application/json``: a browser's, not an API client's (``*/*`` alone is no preference)."""
    ranks: dict[str, float] = {}
    for part in accept.split(","):
        media, *params = (p.strip() for p in part.split(";"))
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        ranks[media.lower()] = max(q, ranks.get(media.lower(), 0.0))
    html = ranks.get("text/html", 0.0)
    return html > 0 and html >= ranks.get("application/json", 0.0)
