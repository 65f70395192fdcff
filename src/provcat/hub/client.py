"""``RegistryClient``: search, resolve, pull, push and delete against any protocol v1 hub,
including a static mirror made by ``provcat hub export-static``.

Pull follows protocol §6 with the frozen decisions: stream to a temp file beside the local store,
hash while writing, check against the manifest's ``checksum_sha256`` and the ``Digest`` /
``Repr-Digest`` headers, then move into place in one rename; nothing is left behind on failure.
The token is sent only to the hub's own origin and never appears in messages or reprs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from provcat.hub import bodyless
from provcat.hub.card import check_card
from provcat.hub.errors import (
    ChecksumMismatchError,
    HubError,
    NotFoundError,
    PayloadTooLargeError,
    RegistryUnavailableError,
    ValidationError,
    error_class,
)
from provcat.hub.localstore import PAYLOAD_FILE, LocalStore, sha256_file
from provcat.hub.manifest import AdapterManifest, SearchResult, read_manifest, read_search_rows
from provcat.hub.progress import progress
from provcat.hub.receive import CHUNK, Sink, header_digests
from provcat.hub.ref import HubRef
from provcat.hub.safetensors import lora_facts
from provcat.hub.schema import manifest_schema
from provcat.hub.searching import DEFAULT_LIMIT, rank
from provcat.hub.text import check_document
from provcat.hub.tokens import PYTHON_TOKEN_ADVICE, token_problem
from provcat.hub.unanswered import origin, unanswered
from provcat.hub.urls import api_root_hint, check_base_url
from provcat.redact import HUB_TOKEN_SHAPE, secret_shapes_hidden, without_secrets

__all__ = ["Published", "RegistryClient"]

log = logging.getLogger("provcat.hub")

# what a hub URL holding a credential is told, in Python (the command line says its own options)
_CREDENTIALS_HINT = "; give the token as RegistryClient(url, token=...)"
_SERVER_FIELDS = ("adapter_id", "storage_uri", "created_at")
_REDIRECTS = {301, 302, 303, 307, 308}


@dataclass(frozen=True, slots=True)
class Published:
    """What a push did: the stored manifest, and whether this push created the version."""

    manifest: AdapterManifest
    created: bool


class RegistryClient:
    """A client of one hub (or static mirror) at ``base_url``."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        store: LocalStore | Path | str | None = None,
        timeout: float = 60.0,
        transport: httpx.BaseTransport | None = None,
        progress: bool | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        # the URL is named in errors and reprs, so it must hold no credential
        parsed = check_base_url(self.base_url, credentials_hint=_CREDENTIALS_HINT)
        if token and (problem := token_problem(token, PYTHON_TOKEN_ADVICE)):
            raise ValidationError(problem)  # before any request: httpx would fail or log it
        self._origin = origin(parsed)
        self._token = token
        self.store = store if isinstance(store, LocalStore) else LocalStore(store)
        self._progress = progress
        self._timeout = timeout
        self._http = httpx.Client(
            transport=transport,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            follow_redirects=False,
        )

    def __repr__(self) -> str:
        token = "<set>" if self._token else "None"
        # a token pasted into the URL (or the store's path) is not shown either
        shown = f"RegistryClient({self.base_url!r}, token={token}, store={self.store!r})"
        return secret_shapes_hidden(shown)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> RegistryClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- the protocol --------------------------------------------------------------------------
    def health(self) -> dict[str, Any]:
        data: dict[str, Any] = self._json("GET", "/v1/health")
        return data

    def search(
        self,
        query: str | None = None,
        *,
        tag: str | Sequence[str] | None = None,
        limit: int = DEFAULT_LIMIT,
    ) -> list[SearchResult]:
        """Latest version of each matching adapter, by relevance then namespace and name."""
        tags = [tag] if isinstance(tag, str) else list(tag or [])
        params: list[tuple[str, str | int]] = [("limit", limit)]
        if query:
            params.append(("q", query))
        params.extend(("tag", t) for t in tags)
        data = self._json("GET", "/v1/search", params=params)
        rows = data.get("results") if isinstance(data, dict) else None
        if not isinstance(rows, list):
            raise RegistryUnavailableError("the hub's search answer has no 'results' list")
        # a static mirror serves its whole index whatever the query: filtering again is a no-op
        # for a live hub and makes a mirror answer like one
        read = [r.model_dump() for r in read_search_rows(rows, self.base_url)]  # v1 rows too
        return [SearchResult.model_validate(r) for r in rank(read, query, tags, limit)]

    def resolve(self, ref: HubRef | str, *, base_model: str | None = None) -> AdapterManifest:
        """The manifest of a version (``latest`` resolved by the hub)."""
        ref = _ref(ref)
        params = [("base_model", base_model)] if base_model else None
        data = self._json("GET", ref.path(), params=params, ref=ref)
        manifest = read_manifest(data, ref)
        if (manifest.namespace, manifest.name) != (ref.namespace, ref.name) or (
            not ref.is_latest and manifest.version != ref.version
        ):
            raise ValidationError(f"the hub answered {manifest.ref} for {ref}")
        if (problem := manifest.adapter_id_problem()) is not None:
            raise ValidationError(f"the hub answered a wrong manifest for {ref}: {problem}")
        return manifest

    def pull(self, ref: HubRef | str) -> AdapterManifest:
        """Download, verify and store a version; return its manifest (concrete version).

        A version already in the local store is re-verified and served from there; a local copy
        that fails verification is removed and downloaded again. What killed pulls left in the
        store (staging directories no running pull holds) is removed first.
        """
        ref = _ref(ref)
        self.store.clean_staging()  # what killed pulls left (never a running pull's)
        replaced: list[str] = []  # what was wrong with a local copy that failed verification
        if not ref.is_latest and (hit := self._local_hit(ref.adapter_id, replaced)) is not None:
            return hit
        manifest = self.resolve(ref)
        if manifest.checksum_sha256 is None:
            raise ValidationError(f"{manifest.ref} has no checksum_sha256: it cannot be pulled")
        if self._same_bytes_here(manifest, replaced):
            return manifest
        with self.store.staging() as staging:
            target = staging / PAYLOAD_FILE
            actual, header_digests = self._download(manifest.ref, target)
            expected = manifest.checksum_sha256
            for where, value in [("manifest", expected), *header_digests]:
                if value != actual:
                    raise ChecksumMismatchError(
                        f"{manifest.ref}: the downloaded payload's SHA-256 disagrees with the "
                        f"{where}; nothing was stored",
                        {"expected": value, "actual": actual, "source": where},
                    )
            # a copy of this id from another hub, with other bytes, makes way for this hub's
            self.store.remove(manifest.canonical_id)
            self.store.install(staging, manifest, source=self.base_url)
        if replaced:  # a warning of logger provcat.hub; `provcat hub pull` prints it on stderr
            log.warning("%s; it was fetched again", replaced[0])
        return manifest

    def local_path(self, manifest: AdapterManifest) -> Path:
        """Where :meth:`pull` stored this version's payload."""
        return self.store.payload_path(manifest.canonical_id)

    def push(
        self, payload: Path | str, manifest: AdapterManifest | Mapping[str, Any]
    ) -> AdapterManifest:
        """Publish ``payload`` with ``manifest`` (v2); ``checksum_sha256`` is computed if absent.

        ``rank`` and ``target_modules`` are read from the payload's LoRA tensors (PEFT's names)
        where the manifest leaves them out. The stored manifest; :meth:`publish` also tells
        whether the version is new."""
        return self.publish(payload, manifest).manifest

    def publish(
        self, payload: Path | str, manifest: AdapterManifest | Mapping[str, Any]
    ) -> Published:
        """As :meth:`push`; ``created`` is False when the hub already held this version with
        these very bytes and manifest (nothing changed: versions are immutable)."""
        path = Path(payload)
        if not path.is_file():
            raise ValidationError(f"no payload file at {path}")
        size = path.stat().st_size
        if isinstance(manifest, AdapterManifest):
            document = manifest.model_dump(mode="json", exclude_unset=True)
        else:
            document = dict(manifest)
        for field in _SERVER_FIELDS:
            document.pop(field, None)
        check_document(document)  # text that cannot be sent (a lone surrogate), as the hub would
        check_card(document)  # before hashing or sending a byte
        _fill_lora_facts(document, path)
        document.setdefault("manifest_version", 2)
        if not document.get("checksum_sha256"):
            with progress("hashing", size, self._progress) as advance:
                document["checksum_sha256"] = sha256_file(path, advance)
        boundary = secrets.token_hex(16)
        head, tail = _multipart_frame(boundary, document)
        length = len(head) + size + len(tail)

        def body() -> Iterator[bytes]:
            yield head
            with progress("pushing", size, self._progress) as advance, path.open("rb") as f:
                while chunk := f.read(CHUNK):
                    advance(len(chunk))
                    yield chunk
            yield tail

        headers = {
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Content-Length": str(length),
        }
        response = self._send("POST", "/v1/adapters", content=body(), headers=headers)
        try:
            self._raise(response)
        except PayloadTooLargeError as error:  # the hub knows its limit, this side the size
            raise PayloadTooLargeError(
                f"{error.message}; the payload pushed is {size} bytes",
                {**error.details, "size": size},
            ) from None
        data = _body(response)
        if not isinstance(data, dict):
            raise RegistryUnavailableError(f"the hub at {self.base_url} did not answer JSON")
        # 201: published now; 200: the identical version was already there (frozen decisions)
        return Published(AdapterManifest.model_validate(data), response.status_code == 201)

    def delete(self, ref: HubRef | str) -> bool:
        """Delete a version: True if deleted now, False if it was already gone (404).

        AdapterNotFoundError when the hub says the version never existed (``details.deleted``
        false: a mistyped ref, which should not pass for success); a hub that does not say
        is taken to mean "already gone". A 404 without the protocol's error body is no hub's
        (``bodyless``)."""
        ref = _ref(ref)
        if ref.is_latest:
            raise ValidationError("delete needs a concrete version, not latest")
        response = self._send("DELETE", ref.path())
        if response.status_code == 404:
            body = _body(response)
            details = body.get("details") if isinstance(body, dict) else None
            never = isinstance(details, dict) and details.get("deleted") is False
            if (
                not never
                and bodyless.protocol_error(body)
                and body["error"] == "AdapterNotFoundError"
            ):
                return False
        self._raise(response, ref)
        return True

    # -- transport -----------------------------------------------------------------------------
    def _local_hit(self, adapter_id: str, replaced: list[str]) -> AdapterManifest | None:
        """The stored copy, verified, when it was pulled from this hub (versions are immutable
        on a hub, so it needs no network); None otherwise."""
        if self.store.source(adapter_id) != self.base_url:
            return None  # absent, or another hub's copy: this hub decides (_same_bytes_here)
        return self._verified(adapter_id, replaced)

    def _same_bytes_here(self, manifest: AdapterManifest, replaced: list[str]) -> bool:
        """Whether the stored copy of ``manifest``'s id (from any hub) has this hub's bytes; it
        is then recorded as this hub's and no byte is downloaded."""
        adapter_id = manifest.canonical_id
        kept = self.store.manifest(adapter_id)
        if kept is None or kept.checksum_sha256 != manifest.checksum_sha256:
            return False  # other bytes: no need to hash the stored copy to know it goes
        if self._verified(adapter_id, replaced) is None:
            return False
        self.store.adopt(adapter_id, manifest, self.base_url)
        return True

    def _verified(self, adapter_id: str, replaced: list[str]) -> AdapterManifest | None:
        """The stored copy when its payload has its recorded digest; else it is removed (and
        what was wrong with it added to ``replaced``) and None."""
        manifest = self.store.manifest(adapter_id)
        if manifest is None:
            return None
        payload = self.store.payload_path(adapter_id)
        if manifest.adapter_id_problem() is not None:
            problem = "has a manifest naming another adapter"
        elif not payload.is_file():
            problem = "has no payload file"
        elif manifest.checksum_sha256 != sha256_file(payload):
            problem = f"did not match its recorded digest (sha256 {manifest.checksum_sha256})"
        else:
            return manifest
        # tampered or damaged: never serve it; download a verified copy instead
        replaced.append(f"the local copy of {adapter_id} {problem}")
        self.store.remove(adapter_id)
        return None

    def _download(self, ref: HubRef, target: Path) -> tuple[str, list[tuple[str, str]]]:
        """Stream ``ref``'s payload into ``target``: the SHA-256 of the bytes and the announced
        digests.

        The calling thread receives; hashing and writing run in a worker thread, one batch behind
        (at most two batches of about ``CHUNK`` bytes in memory), so the two overlap.
        """
        # the bytes as stored: a compressed transfer would hash (and be stored) as the wrong bytes
        path = ref.path() + "/payload"
        response = self._send("GET", path, stream=True, headers={"Accept-Encoding": "identity"})
        try:
            self._raise(response, ref)
            digests = header_digests(response.headers)
            total = int(response.headers.get("content-length") or 0) or None
            encoded = response.headers.get("content-encoding", "identity").lower() != "identity"
            # raw chunks as received (no re-chunking copies) unless a host encoded them (or a
            # transport already read the body)
            raw = not encoded and not response.is_stream_consumed
            digest = hashlib.sha256()
            with (
                progress("pulling", total, self._progress) as advance,
                target.open("wb", buffering=0) as out,
                Sink(digest, out) as sink,
            ):
                try:
                    for chunk in response.iter_raw() if raw else response.iter_bytes():
                        sink.add(chunk)
                        advance(len(chunk))
                except httpx.TransportError as exc:
                    raise RegistryUnavailableError(
                        f"the download from {self.base_url} broke off ({type(exc).__name__})"
                    ) from None
        finally:
            response.close()
        return digest.hexdigest(), digests

    def _send(
        self,
        method: str,
        path: str,
        *,
        params: Any = None,
        content: Any = None,
        headers: dict[str, str] | None = None,
        stream: bool = False,
    ) -> httpx.Response:
        url = httpx.URL(self.base_url + path)
        for _ in range(6):
            request = self._http.build_request(
                method, url, params=params, content=content, headers=self._headers(url, headers)
            )
            try:
                response = self._http.send(request, stream=stream)
            except httpx.TransportError as exc:
                raise unanswered(exc, request, self.base_url, self._timeout) from None
            location = response.headers.get("location")
            if response.status_code not in _REDIRECTS or method not in ("GET", "HEAD"):
                return response
            response.close()
            if not location:
                break
            url = response.url.join(location)
            params = None  # the Location carries its own query
        raise RegistryUnavailableError(f"too many or broken redirects from {self.base_url}")

    def _headers(self, url: httpx.URL, extra: dict[str, str] | None) -> dict[str, str]:
        headers = {"Accept": "application/json", **(extra or {})}
        # the token goes to the hub's own origin only: never to a redirect target elsewhere
        if self._token and origin(url) == self._origin:
            headers["Authorization"] = f"Bearer {self._token}"
        return headers

    def _json(self, method: str, path: str, ref: HubRef | None = None, **kwargs: Any) -> Any:
        response = self._send(method, path, **kwargs)
        self._raise(response, ref)
        try:
            return json.loads(response.content)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise RegistryUnavailableError(
                f"the hub at {self.base_url} did not answer JSON for {path}"
            ) from None

    def _raise(self, response: httpx.Response, ref: HubRef | None = None) -> None:
        """The error an answer of 400 or more means; ``ref``: the adapter it was about."""
        if response.status_code < 400:
            return
        if not response.is_stream_consumed:
            response.read()
        body = _body(response)
        # the address that answered (the base URL's path in it once), without query or password
        url = str(response.url.copy_with(query=None, userinfo=b""))
        if not bodyless.protocol_error(body):
            status, method = response.status_code, response.request.method
            error = bodyless.explain(status, method, url, self.base_url, ref, self._is_mirror)
            if error is not None:
                raise error
        name = body.get("error") if isinstance(body, dict) else None
        message = body.get("message") if isinstance(body, dict) else None
        details = body.get("details") if isinstance(body, dict) else None
        if not isinstance(message, str):
            message = f"HTTP {response.status_code} from {url}"
        if self._token:  # the token, and a start of it the hub cut its message inside
            message = without_secrets(message, [self._token], label="<redacted>")
        message = HUB_TOKEN_SHAPE.sub("<redacted>", message)  # before a cut could split one
        cls = error_class(response.status_code, name)
        message = message[:500]
        if cls is NotFoundError:  # no such route: a base URL ending in /v1 says why
            message += api_root_hint(self.base_url)
        raise cls(message, details if isinstance(details, dict) else None)

    def _is_mirror(self) -> bool:
        """Whether this base URL serves a static mirror (its health file says so)."""
        try:
            response = self._send("GET", "/v1/health")
        except HubError:
            return False
        return response.status_code == 200 and bodyless.is_mirror(_body(response))


def _ref(ref: HubRef | str) -> HubRef:
    return ref if isinstance(ref, HubRef) else HubRef.parse(ref)


def _body(response: httpx.Response) -> Any:
    try:
        return json.loads(response.content)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None


def _multipart_frame(boundary: str, document: dict[str, Any]) -> tuple[bytes, bytes]:
    manifest = json.dumps(document, sort_keys=True, ensure_ascii=False).encode("utf-8")
    head = (
        f"--{boundary}\r\n"
        'Content-Disposition: form-data; name="manifest"\r\n'
        "Content-Type: application/json\r\n\r\n"
    ).encode("ascii")
    head += manifest
    head += (
        f"\r\n--{boundary}\r\n"
        'Content-Disposition: form-data; name="payload"; filename="adapter.safetensors"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode("ascii")
    return head, f"\r\n--{boundary}--\r\n".encode("ascii")


def _fill_lora_facts(document: dict[str, Any], payload: Path) -> None:
    """``rank`` and ``target_modules`` read from the payload's LoRA tensors where the manifest
    leaves them out (the adapter page's PEFT lines use them); a file whose header cannot be
    read is left to the hub, which refuses it with the reason. What the file shows is a hint,
    never a reason to refuse the push: module names the manifest schema does not take (empty,
    too long, too many) are not filled in."""
    if "rank" in document and "target_modules" in document:
        return
    try:
        rank, modules = lora_facts(payload)
    except (HubError, OSError):
        return
    if rank is not None:
        document.setdefault("rank", rank)
    field = manifest_schema()["properties"]["target_modules"]  # its bounds, as the hub checks
    shortest, longest = field["items"]["minLength"], field["items"]["maxLength"]
    if (
        modules
        and len(modules) <= field["maxItems"]
        and all(shortest <= len(m) <= longest for m in modules)
    ):
        document.setdefault("target_modules", modules)
