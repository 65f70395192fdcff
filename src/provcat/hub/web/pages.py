"""The browse pages: ``/`` (search and filters, ``PAGE_LIMIT`` adapters a page, ``?page=N``),
``/namespaces``, ``/a/{namespace}/{name}[/{version}]``, ``/help`` (getting started with this hub),
sign in and out (private reads only), the favicon and the static files the pages use.

A storage outage is a 503 page ("try again") that leaves the sign-in cookie alone: a token that
could not be checked is not an invalid one.

Every value reaches the HTML through jinja2's autoescaping, as :mod:`provcat.hub.web.views`
prepares it (printable text; a URL keeps the value itself). Pages send a strict
Content-Security-Policy (scripts and styles from this origin only), and URLs in them come from
the hub's trusted base URL, never from a request header.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from provcat.hub.auth import verify_token
from provcat.hub.errors import HubError, RegistryUnavailableError, ValidationError
from provcat.hub.ref import LATEST, SLUG, SLUG_MAX, HubRef, resolve_latest
from provcat.hub.settings import HubSettings
from provcat.hub.storage import Storage, StoredAdapter
from provcat.hub.storage.searchquery import SORTS
from provcat.hub.text import bad_text
from provcat.hub.tokens import TokenRecord
from provcat.hub.web.usage import usage
from provcat.hub.web.views import adapter_url, environment, manifest_view, row_view, strings
from provcat.redact import secret_shapes_hidden

__all__ = ["COOKIE", "install_pages"]

COOKIE = "provcat_hub_token"
PAGE_LIMIT = 100  # adapters on one page of the list; ``?page=N`` reaches the others
PAGE_MAX = 10_000  # the highest page number asked for (past the last page: an empty page)
FILTER_SCAN = 10_000  # matches read for a base-model filter before the page is cut
_FORM_MAX_BYTES = 4096
SORT_LABELS = {
    "relevance": "Best match",
    "recent": "Recently updated",
    "name": "Name",
    "downloads": "Most downloads",
}
_SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
_STATIC = {
    "hub.css": "text/css; charset=utf-8",
    "copy.js": "text/javascript; charset=utf-8",
    "favicon.ico": "image/x-icon",
}

Reads = Callable[..., Awaitable[Any]]


def _local_path(target: str) -> str:
    """``target`` when it is a path on this site (never another origin), else ``/``."""
    plain = all(" " < c < "\x7f" and c != "\\" for c in target)  # browsers drop tabs, CRs...
    if plain and target.startswith("/") and not target.startswith("//"):
        return target
    return "/"


def _fits(row: StoredAdapter, base_model: str) -> bool:
    """Whether ``row`` serves ``base_model`` as the protocol reads it (``?base_model=`` on a
    manifest): an empty ``base_model_compatibility`` is any base model."""
    named = strings(row.manifest.get("base_model_compatibility"))
    return not named or base_model in named


def install_pages(
    app: FastAPI,
    store: Storage,
    settings: HubSettings,
    reads: Reads,
    base_url: Callable[[Request], str],
) -> None:
    """Add the browse pages to ``app``."""
    env = environment()
    static = {
        name: resources.files("provcat.hub.web").joinpath("static", name).read_bytes()
        for name in _STATIC
    }

    def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = env.get_template(template).render(
            signed_in=settings.private_reads and request.cookies.get(COOKIE) is not None,
            **context,
        )
        return HTMLResponse(html, status_code=status, headers=_SECURITY_HEADERS)

    def message(
        request: Request,
        status: int,
        heading: str,
        text: str,
        *,
        login: bool = False,
        target: str | None = None,
        suggestions: list[str] | None = None,
        versions: list[tuple[str, str]] | None = None,
    ) -> HTMLResponse:
        if target is None:  # back to this page after signing in
            target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        page = render(
            request,
            "message.html",
            status,
            heading=heading,
            message=text,
            login=login,
            next=_local_path(target),
            suggestions=suggestions or [],
            versions=versions or [],
        )
        if login:
            page.delete_cookie(COOKIE, path="/")
        return page

    async def viewer(request: Request) -> TokenRecord | Response | None:
        """The reader's token (None: reads are public), or the page to answer instead."""
        if not settings.private_reads:
            return None
        header = request.headers.get("authorization", "")
        scheme, _, value = header.partition(" ")
        presented = value.strip() if scheme.lower() == "bearer" else request.cookies.get(COOKIE)
        if not presented:
            return message(
                request, 401, "Sign in", "This hub's adapters need a token to read.", login=True
            )
        try:
            token: TokenRecord = await reads(verify_token, store, presented)
        except RegistryUnavailableError:  # the token could not be checked: keep the cookie
            return unavailable(request)
        except HubError:
            return message(
                request, 401, "Sign in", "That token is not valid (or was revoked).", login=True
            )
        return token

    def unavailable(request: Request) -> HTMLResponse:
        page = message(
            request,
            503,
            "Unavailable",
            "The hub cannot reach its storage right now; try again in a moment.",
        )
        page.headers["Retry-After"] = "5"
        return page

    def scope_of(token: TokenRecord | None) -> tuple[str, ...] | None:
        return None if token is None or token.admin else token.namespaces

    def page(fn: Callable[..., Awaitable[Response]]) -> Callable[..., Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            token = await viewer(request)
            if isinstance(token, Response):
                return token
            try:
                return await fn(request, token)
            except RegistryUnavailableError:
                return unavailable(request)
            except HubError as error:
                return message(request, error.status, error.wire_name, error.message)

        wrapped.__name__ = fn.__name__
        return wrapped

    def query(request: Request, name: str, limit: int) -> str:
        values = request.query_params.getlist(name)
        value = values[0].strip() if values else ""
        if len(values) > 1:
            raise ValidationError(f"'{name}' must be given once, not {len(values)} times")
        if bad_text(value):
            raise ValidationError(f"'{name}' must be valid Unicode without NUL")
        if len(value) > limit:
            raise ValidationError(f"'{name}' must be at most {limit} characters")
        # a token pasted into the search box is never shown back (nor searched for)
        return secret_shapes_hidden(value)

    def page_number(request: Request) -> int:
        text = query(request, "page", 8) or "1"
        if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= PAGE_MAX:
            raise ValidationError(f"'page' must be a whole number from 1 to {PAGE_MAX}")
        return int(text)

    @page
    async def index(request: Request, token: TokenRecord | None) -> Response:
        q = query(request, "q", 200)
        tag = query(request, "tag", 100)
        base_model = query(request, "base_model", 200)
        namespace = query(request, "namespace", SLUG_MAX)
        if namespace and not SLUG.fullmatch(namespace):
            raise ValidationError("namespace must be lower-kebab")
        sort = query(request, "sort", 20) or ("relevance" if q else "name")
        if sort not in SORTS:
            raise ValidationError(f"sort must be one of {', '.join(SORTS)}")
        number = page_number(request)
        scope = scope_of(token)
        wanted: tuple[str, ...] | None = scope
        if namespace:
            wanted = (namespace,) if scope is None or namespace in scope else ()
        counts = await reads(store.namespace_counts)
        visible = [ns for ns, _ in counts if scope is None or ns in scope]
        skip = (number - 1) * PAGE_LIMIT
        found: list[StoredAdapter] = []
        total: int | None = None  # known without a filter (the index's counts), else not said
        if wanted != ():
            if base_model:
                # the base-model filter reads manifests, so it runs on the matches before the
                # page is cut (up to FILTER_SCAN of them), never on one page of them
                found = await reads(
                    store.search, q or None, [tag] if tag else [], FILTER_SCAN, wanted, sort
                )
                matching = [r for r in found if _fits(r, base_model)]
                if len(found) < FILTER_SCAN:
                    total = len(matching)
                rows = matching[skip : skip + PAGE_LIMIT + 1]
            else:
                # one row more than the page: whether a next page exists
                rows = await reads(
                    store.search,
                    q or None,
                    [tag] if tag else [],
                    PAGE_LIMIT + 1,
                    wanted,
                    sort,
                    skip,
                )
                found = rows
                if not q and not tag:
                    total = sum(n for ns, n in counts if wanted is None or ns in wanted)
        else:
            rows, total = [], 0
        shown = rows[:PAGE_LIMIT]
        more = len(rows) > PAGE_LIMIT
        totals = await reads(store.download_totals, [(r.namespace, r.name) for r in shown])
        fields = {"q": q, "tag": tag, "base_model": base_model, "namespace": namespace}
        kept = {k: v for k, v in fields.items() if v}
        if query(request, "sort", 20):
            kept["sort"] = sort

        def page_url(n: int) -> str:
            params = {**kept, **({"page": str(n)} if n > 1 else {})}
            return "/" + (f"?{urllib.parse.urlencode(params)}" if params else "")

        return render(
            request,
            "index.html",
            sort=sort,
            sort_picked="sort" in kept,
            sorts=SORT_LABELS,
            hub_url=base_url(request),
            empty_hub=not visible,
            filtered=bool(q or tag or base_model or namespace),
            rows=[row_view(r, totals.get((r.namespace, r.name), 0)) for r in shown],
            first=skip + 1,
            last=skip + len(shown),
            total=total,
            page=number,
            next_url=page_url(number + 1) if more and number < PAGE_MAX else None,
            previous_url=page_url(number - 1) if number > 1 else None,
            first_url=page_url(1),
            scan_limited=bool(base_model) and len(found) >= FILTER_SCAN,
            base_models=sorted(
                {m for r in found for m in strings(r.manifest.get("base_model_compatibility"))}
            ),
            q=q,
            tag=tag,
            base_model=base_model,
            namespace=namespace,
            namespaces=visible,
        )

    @page
    async def namespaces(request: Request, token: TokenRecord | None) -> Response:
        scope = scope_of(token)
        counts = await reads(store.namespace_counts)
        visible = [(ns, n) for ns, n in counts if scope is None or ns in scope]
        return render(request, "namespaces.html", counts=visible)

    @page
    async def adapter(request: Request, token: TokenRecord | None) -> Response:
        params = request.path_params
        ref = HubRef.of(params["namespace"], params["name"], params.get("version", LATEST))
        if token is not None and not token.allows(ref.namespace):
            return message(
                request,
                403,
                "Not allowed",
                f"Your token may not read namespace '{ref.namespace}'.",
            )
        versions: list[StoredAdapter] = await reads(store.versions, ref.namespace, ref.name)
        counts: dict[str, int] = await reads(store.version_downloads, ref.namespace, ref.name)
        # latest from the list itself: one read, so the two can never disagree
        best = resolve_latest([v.semver for v in versions])
        latest = next((v for v in versions if v.semver == best), None)
        row = (
            latest
            if ref.is_latest
            else next((v for v in versions if v.version == ref.version), None)
        )
        if row is None or latest is None:
            suggestions: list[tuple[str, str]] = []
            if latest is None:  # no such adapter: the closest ones this reader may see
                suggestions = await reads(store.suggest, ref.namespace, ref.name, scope_of(token))
            if not ref.is_latest and await reads(
                store.tombstoned, ref.namespace, ref.name, ref.version
            ):  # as the API and the command line say it (details.deleted)
                said = f"{ref} was deleted; a deleted version is never served or pushed again."
            else:
                said = f"No adapter {ref}." if latest is None else f"{ref} has no such version."
            return message(
                request,
                404,
                "Not found",
                said,
                suggestions=[adapter_url(ns, n) for ns, n in suggestions],
                versions=[
                    (v.version, adapter_url(v.namespace, v.name, v.version)) for v in versions
                ],
            )
        base = base_url(request)
        reference = f"hub://{row.namespace}/{row.name}:{row.version}"
        view = manifest_view(row)
        use = usage(
            base,
            reference,
            rank=view["rank"],
            target_modules=view["target_modules"],
            base_models=view["base_model_compatibility"],
            private=settings.private_reads,
        )
        return render(
            request,
            "adapter.html",
            row=row,
            m=view,
            extra=view["extra"],
            versions=versions,
            latest_version=latest.version,
            private=settings.private_reads,
            use=use,
            downloads={v.version: counts.get(v.version, 0) for v in versions},
            # deleted versions' downloads too, as the list counts and sorts them
            total_downloads=sum(counts.values()),
            payload_url=f"{base}/v1/adapters/{row.namespace}/{row.name}/{row.version}/payload",
        )

    def same_origin(request: Request) -> bool:
        origin = request.headers.get("origin")
        if origin is None:
            return True  # not a browser's cross-site form (those always send Origin)
        ours = urllib.parse.urlsplit(base_url(request))
        theirs = urllib.parse.urlsplit(origin)
        return (theirs.scheme, theirs.netloc) == (ours.scheme, ours.netloc)

    async def form(request: Request) -> dict[str, str]:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > _FORM_MAX_BYTES:
                raise ValidationError("the form is too large")
        try:
            fields = urllib.parse.parse_qs(body.decode("utf-8"), max_num_fields=4)
        except (UnicodeDecodeError, ValueError):
            raise ValidationError("the form is not valid") from None
        return {k: v[0] for k, v in fields.items()}

    async def login(request: Request) -> Response:
        if not settings.private_reads:
            return RedirectResponse("/", status_code=303)
        if not same_origin(request):
            return message(request, 403, "Not allowed", "Sign in from this hub's own page.")
        try:
            fields = await form(request)
        except HubError as error:
            return message(request, error.status, error.wire_name, error.message)
        presented = fields.get("token", "").strip()
        target = _local_path(fields.get("next", "/"))
        try:
            await reads(verify_token, store, presented)
        except RegistryUnavailableError:  # not checked: say so, and keep any earlier sign-in
            return unavailable(request)
        except HubError:
            return message(
                request,
                401,
                "Sign in",
                "That token is not valid (or was revoked).",
                login=True,
                target=target,
            )
        answer = RedirectResponse(target, status_code=303)
        answer.set_cookie(
            COOKIE,
            presented,
            path="/",
            httponly=True,
            samesite="strict",
            secure=base_url(request).startswith("https://"),
        )
        return answer

    async def login_page(request: Request) -> Response:
        """``GET /login`` (the address bar after a failed sign-in): the sign-in page itself,
        never a 405; signed in, or with public reads, the list."""
        if settings.private_reads and request.cookies.get(COOKIE) is None:
            return message(
                request,
                401,
                "Sign in",
                "This hub's adapters need a token to read.",
                login=True,
                target="/",
            )
        return RedirectResponse("/", status_code=303)

    async def logout(request: Request) -> Response:
        if not same_origin(request):
            return message(request, 403, "Not allowed", "Sign out from this hub's own page.")
        answer = RedirectResponse("/", status_code=303)
        answer.delete_cookie(COOKIE, path="/")
        return answer

    @page
    async def help_page(request: Request, token: TokenRecord | None) -> Response:
        return render(
            request, "help.html", hub_url=base_url(request), private=settings.private_reads
        )

    async def favicon(request: Request) -> Response:
        headers = {"Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff"}
        return Response(static["favicon.ico"], media_type=_STATIC["favicon.ico"], headers=headers)

    async def static_file(request: Request) -> Response:
        name = request.path_params["file"]
        if name not in static:
            return message(request, 404, "Not found", "No such file.")
        headers = {"Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff"}
        return Response(static[name], media_type=_STATIC[name], headers=headers)

    def not_found_page(request: Request) -> Response:
        """The HTML 404 of a page address that names nothing (``/a/ns``, ``/a/``, a typo); the
        API's unknown routes (under ``/v1``) keep their JSON error."""
        return message(
            request,
            404,
            "Not found",
            "There is no page at this address: search the adapters, or see the namespaces.",
            target="/",
        )

    app.state.not_found_page = not_found_page

    for path, handler, method in (
        ("/", index, "GET"),
        ("/login", login_page, "GET"),
        ("/namespaces", namespaces, "GET"),
        ("/help", help_page, "GET"),
        ("/a/{namespace}/{name}", adapter, "GET"),
        ("/a/{namespace}/{name}/{version}", adapter, "GET"),
        ("/login", login, "POST"),
        ("/logout", logout, "POST"),
    ):
        app.add_api_route(
            path, handler, methods=[method], include_in_schema=False, response_class=HTMLResponse
        )
    app.add_api_route("/static/{file}", static_file, methods=["GET"], include_in_schema=False)
    app.add_api_route("/favicon.ico", favicon, methods=["GET"], include_in_schema=False)
