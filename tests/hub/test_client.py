"""RegistryClient: the pull flow of protocol §6 with the frozen decisions, push, delete, error
mapping, connection failures, and the token kept out of messages and off other hosts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from provcat.hub import AdapterManifest, HubRef, RegistryClient
from provcat.hub.errors import (
    AdapterExistsError,
    AdapterNotFoundError,
    AuthenticationError,
    AuthorizationError,
    ChecksumMismatchError,
    HubError,
    IncompatibleBaseModelError,
    InsufficientStorageError,
    PayloadTooLargeError,
    RegistryUnavailableError,
    ValidationError,
)
from tests.hub.conftest import Live
from tests.hub.helpers import safetensors, sha256
from tests.hub.services import free_port
from tests.hub.test_cli import run


def _payload(tmp_path: Path, data: bytes = b"\x11" * 256, name: str = "p.safetensors") -> Path:
    path = tmp_path / name
    path.write_bytes(safetensors(data))
    return path


def _store_entries(store: Path) -> list[str]:
    return sorted(p.name for p in store.iterdir()) if store.exists() else []


def test_push_pull_latest_stores_concrete_version(live: Live, tmp_path: Path) -> None:
    store = tmp_path / "store"
    with RegistryClient(live.url, live.hub.token, store=store) as client:
        m1 = client.push(
            _payload(tmp_path, b"1" * 64, "a"),
            {"namespace": "acme", "name": "r", "version": "1.9.0"},
        )
        m2 = client.push(
            _payload(tmp_path, b"2" * 64, "b"),
            AdapterManifest(namespace="acme", name="r", version="v1.10.0", tags=["x"]),
        )
        assert m1.checksum_sha256 == sha256(safetensors(b"1" * 64))  # computed by the client
        assert m2.version == "1.10.0" and m2.manifest_version == 2
        pulled = client.pull("hub://acme/r")
        assert pulled.version == "1.10.0"
        assert _store_entries(store) == ["acme__r__v1.10.0"]  # never __latest, no staging left
        assert client.local_path(pulled).read_bytes() == safetensors(b"2" * 64)
        saved = json.loads((store / "acme__r__v1.10.0" / "manifest.json").read_text())
        assert saved["version"] == "1.10.0" and saved["checksum_sha256"] == m2.checksum_sha256
        assert (
            client.resolve(HubRef.parse("hub://acme/r:1.9.0")).checksum_sha256 == m1.checksum_sha256
        )
        assert [r.version for r in client.search("r")] == ["1.10.0"]
        assert client.delete("hub://acme/r:1.9.0") is True
        assert client.delete("hub://acme/r:1.9.0") is False
        with pytest.raises(AdapterNotFoundError):
            client.resolve("hub://acme/r:1.9.0")


def test_push_from_python_reads_rank_and_target_modules_as_the_command_does(
    live: Live, tmp_path: Path
) -> None:
    from tests.hub.test_cli_guidance import _peft_file

    payload = _peft_file(tmp_path / "a.safetensors", {"q_proj": 8, "v_proj": 8})
    with RegistryClient(live.url, live.hub.token, store=tmp_path / "store") as client:
        read = client.push(payload, {"namespace": "acme", "name": "lora", "version": "1.0.0"})
        stated = client.push(
            payload, {"namespace": "acme", "name": "lora", "version": "1.1.0", "rank": 16}
        )
    assert (read.rank, read.target_modules) == (8, ["q_proj", "v_proj"])
    assert (stated.rank, stated.target_modules) == (16, ["q_proj", "v_proj"])  # stated wins


def test_push_never_fails_on_module_names_a_manifest_cannot_hold(
    live: Live, tmp_path: Path
) -> None:
    # found by a reviewer: filling in 300 module names (at most 256) or a 300-character one made
    # a valid file's push fail the manifest's own schema
    from tests.hub.test_cli_guidance import _peft_file

    many = _peft_file(tmp_path / "many.safetensors", {f"m{i}": 4 for i in range(300)})
    long = _peft_file(tmp_path / "long.safetensors", {"x" * 300: 4})
    with RegistryClient(live.url, live.hub.token, store=tmp_path / "store") as client:
        for i, payload in enumerate((many, long)):
            pushed = client.push(
                payload, {"namespace": "acme", "name": f"odd{i}", "version": "1.0.0"}
            )
            assert (pushed.rank, pushed.target_modules) == (4, [])


def _unreachable(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("the hub is down", request=request)


def test_local_hit_is_reverified_and_served_offline(live: Live, tmp_path: Path) -> None:
    store = tmp_path / "store"
    with RegistryClient(live.url, live.hub.token, store=store) as client:
        client.push(_payload(tmp_path), {"namespace": "acme", "name": "off", "version": "1.0.0"})
        client.pull("hub://acme/off:1.0.0")
    # the same hub, now unreachable: its own copy needs no network
    down = httpx.MockTransport(_unreachable)
    with RegistryClient(live.url, store=store, transport=down) as offline:
        assert offline.pull("hub://acme/off:1.0.0").version == "1.0.0"
        with pytest.raises(RegistryUnavailableError):
            offline.pull("hub://acme/off")  # latest always asks the hub
    # another hub never gets this hub's copy without asking: its bytes may differ
    other = RegistryClient(f"http://127.0.0.1:{free_port()}", store=store)
    with other, pytest.raises(RegistryUnavailableError):
        other.pull("hub://acme/off:1.0.0")
    assert (store / "acme__off__v1.0.0" / "source").read_text().strip() == live.url


def _serving(payload: bytes) -> httpx.MockTransport:
    """A hub holding acme/m 1.0.0 with ``payload``; it counts the payload downloads."""
    document = _manifest(payload)

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/payload"):
            handler.downloads += 1  # type: ignore[attr-defined]
            return httpx.Response(200, content=payload)
        return httpx.Response(200, json=document)

    handler.downloads = 0  # type: ignore[attr-defined]
    return httpx.MockTransport(handler)


def test_two_hubs_with_other_bytes_under_one_id_each_get_their_own(tmp_path: Path) -> None:
    """Found by hand: a store shared by clients of two hubs served hub A's bytes to a pull from
    hub B (and said "verified"), because a concrete version in the store was taken as it stood."""
    store = tmp_path / "store"
    bytes_a, bytes_b = safetensors(b"A" * 32), safetensors(b"B" * 32)
    hub_a, hub_b = _serving(bytes_a), _serving(bytes_b)
    with RegistryClient("http://hub-a.example", store=store, transport=hub_a) as a:
        got = a.pull("hub://acme/m:1.0.0")
        assert a.local_path(got).read_bytes() == bytes_a
    with RegistryClient("http://hub-b.example", store=store, transport=hub_b) as b:
        got = b.pull("hub://acme/m:1.0.0")
        assert got.checksum_sha256 == sha256(bytes_b)
        assert b.local_path(got).read_bytes() == bytes_b
        b.pull("hub://acme/m:1.0.0")  # now its own copy: no second download
    assert hub_b.handler.downloads == 1  # type: ignore[attr-defined]
    assert _store_entries(store) == ["acme__m__v1.0.0"]  # replaced, nothing left behind
    assert (store / "acme__m__v1.0.0" / "source").read_text().strip() == "http://hub-b.example"


def test_another_hubs_copy_with_the_same_bytes_is_adopted_without_download(
    tmp_path: Path,
) -> None:
    store = tmp_path / "store"
    same = safetensors(b"S" * 32)
    hub_a, mirror = _serving(same), _serving(same)
    with RegistryClient("http://hub-a.example", store=store, transport=hub_a) as a:
        a.pull("hub://acme/m:1.0.0")
    with RegistryClient("http://mirror.example", store=store, transport=mirror) as m:
        assert m.pull("hub://acme/m:1.0.0").checksum_sha256 == sha256(same)
    assert mirror.handler.downloads == 0  # type: ignore[attr-defined]
    assert (store / "acme__m__v1.0.0" / "source").read_text().strip() == "http://mirror.example"


def test_tampered_local_file_is_caught_on_next_pull(live: Live, tmp_path: Path) -> None:
    store = tmp_path / "store"
    good = safetensors(b"\x42" * 128)
    with RegistryClient(live.url, live.hub.token, store=store) as client:
        client.push(
            _payload(tmp_path, b"\x42" * 128),
            {"namespace": "acme", "name": "t", "version": "1.0.0"},
        )
        manifest = client.pull("hub://acme/t:1.0.0")
        path = client.local_path(manifest)
        path.write_bytes(good[:-1] + b"\x00")  # tamper
        client.pull("hub://acme/t:1.0.0")  # detected: removed and downloaded again, verified
        assert path.read_bytes() == good
        path.write_bytes(b"evil")
    offline = RegistryClient(live.url, store=store, transport=httpx.MockTransport(_unreachable))
    with offline, pytest.raises(RegistryUnavailableError):
        offline.pull("hub://acme/t:1.0.0")  # its own copy, but tampered: never served
    assert _store_entries(store) == []  # the tampered copy is never left to be used


def _mock(handler: object, tmp_path: Path, token: str | None = None) -> RegistryClient:
    return RegistryClient(
        "http://hub.example",
        token,
        store=tmp_path / "store",
        transport=httpx.MockTransport(handler),  # type: ignore[arg-type]
    )


def _manifest(payload: bytes, **extra: object) -> dict[str, object]:
    return {
        "manifest_version": 2,
        "namespace": "acme",
        "name": "m",
        "version": "1.0.0",
        "checksum_sha256": sha256(payload),
        **extra,
    }


@pytest.mark.parametrize("digest_header", [None, "manifest", "digest", "repr-digest"])
def test_checksum_mismatch_leaves_nothing(tmp_path: Path, digest_header: str | None) -> None:
    real = safetensors(b"real")
    served = safetensors(b"evil") if digest_header in (None, "manifest") else real

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/payload"):
            headers = {}
            if digest_header == "digest":
                headers["Digest"] = f"sha-256={sha256(b'other')}"
            if digest_header == "repr-digest":
                headers["Repr-Digest"] = "sha-256=:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=:"
            return httpx.Response(200, content=served, headers=headers)
        return httpx.Response(200, json=_manifest(real))

    with _mock(handler, tmp_path) as client, pytest.raises(ChecksumMismatchError) as err:
        client.pull("hub://acme/m:1.0.0")
    assert err.value.details["actual"] != err.value.details["expected"]
    assert _store_entries(tmp_path / "store") == []  # no temp file, no partial adapter


def test_manifest_without_checksum_cannot_be_pulled(tmp_path: Path) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        body = {"namespace": "acme", "name": "m", "version": "1.0.0"}  # a v1 manifest
        return httpx.Response(200, json=body)

    with _mock(handler, tmp_path) as client:
        resolved = client.resolve("hub://acme/m:1.0.0")
        assert resolved.manifest_version == 1 and resolved.tags == []
        with pytest.raises(ValidationError, match="cannot be pulled"):
            client.pull("hub://acme/m:1.0.0")


def test_v1_manifest_with_packed_namespace_is_read() -> None:
    m = AdapterManifest.model_validate(
        {"namespace": "acme/react", "version": "v1.0.0", "tags": None}
    )
    assert (m.namespace, m.name, m.version, m.tags) == ("acme", "react", "1.0.0", [])


# v1 documents as a v1 hub writes them (protocol §7: no manifest_version, optional fields
# missing, null or empty); the client must read each of them on resolve, pull and search
V1_DOCUMENTS = [
    {"namespace": "acme", "name": "m", "version": "1.0.0", "manifest_version": None},
    {
        "adapter_id": "",
        "namespace": "acme",
        "name": "m",
        "version": "v1.0.0",
        "description": None,
        "tags": None,
        "base_model_compatibility": None,
        "rank": None,
        "target_modules": None,
        "storage_uri": "",
        "created_at": "",
    },
    {"namespace": "acme/m", "version": "1.0.0", "legacy_field": {"kept": True}},
]


@pytest.mark.parametrize("document", V1_DOCUMENTS)
def test_v1_manifests_and_search_rows_are_read(tmp_path: Path, document: dict[str, object]) -> None:
    payload = safetensors(b"\x42" * 16)

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/search":
            return httpx.Response(200, json={"results": [document]})
        if request.url.path.endswith("/payload"):
            return httpx.Response(200, content=payload)
        return httpx.Response(200, json={**document, "checksum_sha256": sha256(payload)})

    with _mock(handler, tmp_path) as client:
        m = client.resolve("hub://acme/m:1.0.0")
        assert (m.manifest_version, m.namespace, m.name, m.version) == (1, "acme", "m", "1.0.0")
        assert m.tags == [] and m.base_model_compatibility == [] and m.target_modules == []
        assert m.canonical_id == "acme__m__v1.0.0"
        pulled = client.pull("hub://acme/m")
        assert client.local_path(pulled).read_bytes() == payload
        [row] = client.search("m")
        assert (row.adapter_id, row.namespace, row.name) == ("acme__m__v1.0.0", "acme", "m")


@pytest.mark.parametrize(
    ("status", "name", "cls"),
    [
        (400, "ValidationError", ValidationError),
        (401, "AuthenticationError", AuthenticationError),
        (403, "AuthorizationError", AuthorizationError),
        (404, "AdapterNotFoundError", AdapterNotFoundError),
        (409, "AdapterExistsError", AdapterExistsError),
        (409, "IncompatibleBaseModelError", IncompatibleBaseModelError),
        (413, "PayloadTooLargeError", PayloadTooLargeError),
        (502, "ChecksumMismatchError", ChecksumMismatchError),
        (503, "RegistryUnavailableError", RegistryUnavailableError),
        (507, "InsufficientStorageError", InsufficientStorageError),
        (500, None, RegistryUnavailableError),
        (507, None, InsufficientStorageError),
        # no protocol error body on a 404: no hub answered (test_a_404_without_...)
        (404, None, RegistryUnavailableError),
    ],
)
def test_status_maps_to_exception(tmp_path: Path, status: int, name: str | None, cls: type) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if name is None:
            return httpx.Response(status, text="<html>oops</html>")
        return httpx.Response(status, json={"error": name, "message": "m", "details": {"k": 1}})

    with _mock(handler, tmp_path) as client, pytest.raises(cls) as err:
        client.resolve("hub://acme/m:1.0.0")
    if name:
        assert err.value.details == {"k": 1}


def test_connection_failure_is_registry_unavailable(tmp_path: Path) -> None:
    with (
        RegistryClient(
            f"http://127.0.0.1:{free_port()}",
            "pch_000000000000_secretsecretsecretsecret",
            store=tmp_path,
        ) as c,
        pytest.raises(RegistryUnavailableError) as err,
    ):
        c.search("x")
    assert "secret" not in str(err.value)


def test_token_stays_out_of_reprs_and_messages(tmp_path: Path) -> None:
    token = "pch_0123456789ab_" + "S" * 43

    def handler(request: httpx.Request) -> httpx.Response:
        echoed = request.headers.get("authorization", "")
        return httpx.Response(
            401, json={"error": "AuthenticationError", "message": f"bad {echoed}", "details": {}}
        )

    with _mock(handler, tmp_path, token) as client:
        assert token not in repr(client)
        with pytest.raises(AuthenticationError) as err:
            client.delete("hub://acme/m:1.0.0")
    assert token not in str(err.value) and token not in repr(err.value)


def test_token_is_never_sent_to_another_host(tmp_path: Path) -> None:
    seen: list[tuple[str, str | None]] = []
    payload = safetensors(b"cdn")

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append((request.url.host, request.headers.get("authorization")))
        if request.url.host == "hub.example" and request.url.path.endswith("/payload"):
            return httpx.Response(302, headers={"Location": "https://cdn.example/blob"})
        if request.url.host == "cdn.example":
            return httpx.Response(200, content=payload)
        if request.url.path.endswith("/1.0.0"):
            return httpx.Response(301, headers={"Location": "/v1/adapters/acme/m/1.0.0/"})
        return httpx.Response(200, json=_manifest(payload))

    with _mock(handler, tmp_path, "pch_0123456789ab_" + "T" * 43) as client:
        client.pull("hub://acme/m:1.0.0")
    assert ("cdn.example", None) in seen
    assert all(auth is None for host, auth in seen if host != "hub.example")
    assert all(auth is not None for host, auth in seen if host == "hub.example")


def test_push_errors_come_back_typed(live: Live, tmp_path: Path) -> None:
    other = RegistryClient(live.url, live.hub.other_token, store=tmp_path / "s")
    with other, pytest.raises(AuthorizationError):
        other.push(_payload(tmp_path), {"namespace": "acme", "name": "x", "version": "1.0.0"})
    with RegistryClient(live.url, live.hub.token, store=tmp_path / "s") as client:
        with pytest.raises(ValidationError, match="checksum"):
            client.push(
                _payload(tmp_path),
                {"namespace": "acme", "name": "x", "version": "1.0.0", "checksum_sha256": "0" * 64},
            )
        big = tmp_path / "big"
        big.write_bytes(safetensors(b"\x00" * (live.hub.settings.max_upload_bytes + 1)))
        with pytest.raises((PayloadTooLargeError, RegistryUnavailableError)):
            client.push(big, {"namespace": "acme", "name": "x", "version": "1.0.0"})
        with pytest.raises(AdapterNotFoundError):
            client.resolve("hub://acme/x:1.0.0")


def test_progress_bar_draws_when_asked(
    live: Live, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with RegistryClient(live.url, live.hub.token, store=tmp_path / "s", progress=True) as client:
        client.push(
            _payload(tmp_path, b"\x01" * 4096),
            {"namespace": "acme", "name": "pb", "version": "1.0.0"},
        )
        client.pull("hub://acme/pb:1.0.0")
    err = capsys.readouterr().err
    assert "pushing" in err and "pulling" in err


_GOOD_TOKEN = "pch_0123456789ab_" + "T" * 43


@pytest.mark.parametrize(
    ("token", "what"),
    [
        (_GOOD_TOKEN + "\n", "whitespace"),
        (_GOOD_TOKEN + "\r\n", "whitespace"),
        (_GOOD_TOKEN + " ", "whitespace"),
        (" " + _GOOD_TOKEN, "whitespace"),
        (_GOOD_TOKEN[:20] + "\x1b" + _GOOD_TOKEN[20:], "control character"),
        (_GOOD_TOKEN + "é", "non-ASCII"),
    ],
)
def test_a_token_that_cannot_be_sent_is_refused_before_any_request(
    tmp_path: Path, token: str, what: str
) -> None:
    from click.testing import CliRunner

    from provcat.cli.main import main

    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"results": []})

    with pytest.raises(ValidationError) as err:
        _mock(handler, tmp_path, token).search("x")
    assert what in err.value.message and "T" * 20 not in str(err.value)
    # Python code is told Python (not a shell line): how to read a token from a file
    assert "token=Path(FILE).read_text().strip()" in err.value.message
    assert "tr -d" not in err.value.message
    assert seen == []
    env = {"PROVCAT_HUB_TOKEN": token, "PROVCAT_HUB_URL": f"http://127.0.0.1:{free_port()}"}
    for fmt in ([], ["--format", "json"]):
        done = CliRunner().invoke(main, ["hub", "search", "x", *fmt], env=env)
        assert done.exit_code == 2, done.output
        assert what in done.output and "PROVCAT_HUB_TOKEN" in done.output
        assert "tr -d" in done.output and "read_text" not in done.output
        assert "T" * 20 not in done.output
    done = CliRunner().invoke(main, ["hub", "pull", "hub://acme/x:1.0.0", "--token", token])
    assert done.exit_code == 2 and what in done.output and "T" * 20 not in done.output


def test_a_lone_surrogate_in_a_manifest_is_refused_before_sending(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from provcat.cli.main import main

    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(500)

    payload = _payload(tmp_path)
    with pytest.raises(ValidationError) as err:
        _mock(handler, tmp_path, _GOOD_TOKEN).push(
            payload,
            {"namespace": "acme", "name": "lim", "version": "2.0.0", "description": "\ud800"},
        )
    assert "invalid text at /description" in err.value.message and seen == []
    document = tmp_path / "m.json"
    with document.open("w") as f:
        json.dump({"manifest_version": 2, "description": "\ud800"}, f)  # ensure_ascii: "\ud800"
    args = ["hub", "push", str(payload), "--manifest", str(document), "hub://acme/lim:2.0.0"]
    env = {"PROVCAT_HUB_URL": f"http://127.0.0.1:{free_port()}", "PROVCAT_HUB_TOKEN": _GOOD_TOKEN}
    done = CliRunner().invoke(main, args, env=env, catch_exceptions=False)
    assert done.exit_code == 1
    assert done.stderr.startswith("provcat hub: ValidationError: invalid text at /description")
    done = CliRunner().invoke(main, [*args, "--format", "json"], env=env)
    assert done.exit_code == 1 and json.loads(done.stdout)["error"] == "ValidationError"


def test_a_hub_that_stops_mid_push_is_a_lost_connection(tmp_path: Path) -> None:
    """Found by a tester: a server dying mid-push made the client say "cannot reach the hub ...
    is it running, and is the URL right?", as if it had never answered. The connection was made
    and then lost: say so, and that the push can be retried."""
    import socket
    import struct
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def read_some_then_die() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)  # the request has started: its head and some of the body
            # close with a reset, as a killed process's socket does
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        listener.close()  # the hub is gone

    threading.Thread(target=read_some_then_die, daemon=True).start()
    token = "pch_0123456789ab_" + "S" * 43
    payload = _payload(tmp_path, b"\x33" * (8 << 20))
    about = {"namespace": "acme", "name": "cut", "version": "1.0.0"}
    with (
        RegistryClient(f"http://127.0.0.1:{port}", token, store=tmp_path / "store") as c,
        pytest.raises(RegistryUnavailableError) as err,
    ):
        c.push(payload, about)
    message = str(err.value)
    assert "was lost during the upload" in message and "can be retried" in message, message
    assert "cannot reach" not in message and token not in message
    assert err.value.details == {"reason": "connection_lost"}


def test_an_error_names_the_address_that_answered_once(tmp_path: Path) -> None:
    """Found by a tester: with ``--hub http://host/site2``, an error said ``HTTP 404 from
    http://host/site2/site2/v1/...``: the base URL's path came twice."""

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, text="<html>Internal Server Error</html>")

    transport = httpx.MockTransport(handler)
    with (
        RegistryClient("http://hub.example/site2", store=tmp_path, transport=transport) as c,
        pytest.raises(RegistryUnavailableError) as err,
    ):
        c.search("x")
    assert str(err.value) == "HTTP 500 from http://hub.example/site2/v1/search"


def _static_site(root: Path) -> Iterator[str]:
    """A plain static file server (not a hub) on 127.0.0.1, serving ``root``."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def static_site(tmp_path: Path) -> Iterator[str]:
    root = tmp_path / "www"
    root.mkdir()
    (root / "index.html").write_text("<h1>Someone's web site</h1>")
    yield from _static_site(root)


def test_a_404_without_an_error_body_is_not_a_hub(static_site: str, tmp_path: Path) -> None:
    """Found by a tester: a plain static server (or the wrong port) answering 404 was reported as
    ``AdapterNotFoundError``, even for a search: the reader hunts a typo in the reference when
    the URL is wrong. Say that the URL does not look like a hub, and what to check."""
    with RegistryClient(static_site, store=tmp_path / "store") as c:
        for call in (
            lambda: c.search("x"),
            lambda: c.resolve("hub://acme/x:1.0.0"),
            lambda: c.pull("hub://acme/x"),
            lambda: c.delete("hub://acme/x:1.0.0"),
            c.health,
        ):
            with pytest.raises(RegistryUnavailableError) as err:
                call()
            message = str(err.value)
            assert "does not look like a provcat hub" in message, message
            assert "check --hub / PROVCAT_HUB_URL" in message and static_site in message
            assert err.value.details["reason"] == "not_a_hub"
    assert _store_entries(tmp_path / "store") == []
    # another web app on that port: JSON, but not the protocol's error body
    other_app = httpx.Response(404, json={"detail": "Not Found"})
    with (
        _mock(lambda r: other_app, tmp_path) as c,
        pytest.raises(RegistryUnavailableError, match="does not look like a provcat hub"),
    ):
        c.resolve("hub://acme/x:1.0.0")
    for fmt in ([], ["--format", "json"]):
        code, out, err = run("search", "x", "--hub", static_site, *fmt)
        said = json.loads(out)["message"] if fmt else err
        assert code == 1 and "RegistryUnavailableError" in (out + err), said
        assert "does not look like a provcat hub" in said and "AdapterNotFound" not in out + err


def test_a_token_in_the_hub_url_is_never_shown(tmp_path: Path) -> None:
    """Found by a tester: ``RegistryClient("http://127.0.0.1:PORT/pch_...")`` showed the token in
    its repr and repeated it in every error (the client hid only its own token)."""
    token = "pch_0123456789ab_" + "P" * 43
    closed = f"http://127.0.0.1:{free_port()}/{token}"
    with RegistryClient(closed, store=tmp_path / token) as c:
        assert token not in repr(c) and "<redacted>" in repr(c)
        with pytest.raises(RegistryUnavailableError) as err:  # nothing listens there
            c.search("x")
        assert token not in str(err.value) and "<redacted>" in str(err.value)

    def echoing(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/search"):  # a hub that echoes the path it was asked
            body = {"error": "NotFoundError", "message": f"no {request.url.path}", "details": {}}
            return httpx.Response(404, json=body)
        return httpx.Response(404, text="not here")

    transport = httpx.MockTransport(echoing)
    with RegistryClient(f"http://hub.example/{token}", store=tmp_path, transport=transport) as c:
        for call in (lambda: c.search("x"), lambda: c.resolve("hub://acme/x:1.0.0")):
            with pytest.raises(HubError) as caught:
                call()
            assert token not in str(caught.value) and token not in repr(caught.value)
            assert "<redacted>" in str(caught.value)
