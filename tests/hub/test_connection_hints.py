"""Three ways a hub URL or a hub goes wrong, each told as what it is and what to do, against a
real ``provcat hub serve`` (SQLite + files): a hub that takes the connection but does not answer
in time (not "cannot reach"), ``https://`` to a hub that serves plain HTTP (not TLS; a
certificate error stays a certificate error), and a hub URL ending in the API root ``/v1``."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import socket
import ssl
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import trustme
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.hub import RegistryClient
from provcat.hub.errors import (
    AdapterNotFoundError,
    HubError,
    NotFoundError,
    RegistryUnavailableError,
)
from provcat.hub.static_export import export_static
from tests.hub.conftest import Hub, make_hub
from tests.hub.helpers import safetensors
from tests.hub.services import Served, free_port


@pytest.fixture(scope="module")
def real_hub(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Hub, Served]]:
    hub = make_hub("sqlite", tmp_path_factory.mktemp("hints") / "hub-data", request)
    served = hub.serve()
    try:
        yield hub, served
    finally:
        served.stop()
        hub.storage.close()


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["hub", *args], env=env, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_a_hub_that_does_not_answer_in_time_is_a_timeout_not_unreachable(
    real_hub: tuple[Hub, Served], tmp_path: Path
) -> None:
    """Found by a user: a hub that took the connection and never answered was reported as
    "cannot reach the hub ... is it running?"."""
    hub, served = real_hub
    payload = tmp_path / "p.safetensors"
    payload.write_bytes(safetensors(b"late"))
    about = {"namespace": "acme", "name": "late", "version": "1.0.0"}
    # a stopped server: its kernel still accepts connections, no answer ever comes
    os.kill(served.process.pid, signal.SIGSTOP)
    try:
        with RegistryClient(served.url, hub.token, timeout=1, store=tmp_path / "s") as client:
            with pytest.raises(RegistryUnavailableError) as read:
                client.search("x")
            with pytest.raises(RegistryUnavailableError) as push:
                client.push(payload, about)
    finally:
        os.kill(served.process.pid, signal.SIGCONT)
    assert str(read.value) == (
        f"the hub at {served.url} did not answer within 1 second (ReadTimeout): it took the "
        "connection but sent no answer in time; it may be overloaded or stuck: try again later "
        "(in Python, RegistryClient(..., timeout=SECONDS) waits longer)"
    )
    assert read.value.details == {"reason": "timeout", "timeout": 1}
    message = str(push.value)
    assert "did not answer within 1 second" in message and "can be retried" in message
    assert hub.token not in message and hub.token not in repr(push.value)
    # a connection that cannot be made at all is still "cannot reach"
    nobody = RegistryClient(f"http://127.0.0.1:{free_port()}", store=tmp_path / "s")
    with nobody, pytest.raises(RegistryUnavailableError) as refused:
        nobody.health()
    assert str(refused.value).startswith("cannot reach the hub at http://127.0.0.1:")


def test_https_to_a_plain_http_hub_says_it_does_not_speak_tls(
    real_hub: tuple[Hub, Served],
) -> None:
    _, served = real_hub
    port = served.url.rsplit(":", 1)[1]
    given = f"https://127.0.0.1:{port}"
    code, _, err = run("search", "x", "--hub", given)
    assert code == 1
    # the reason is OpenSSL's: "wrong version number", "record layer failure" (OpenSSL 3.2+)
    assert err.startswith(
        f"provcat hub: RegistryUnavailableError: the TLS handshake with the hub at {given} failed ("
    ), err
    assert err.endswith(
        f"): the server at 127.0.0.1:{port} does not speak TLS; if it serves plain HTTP, use "
        f"http://127.0.0.1:{port}\n"
    ), err
    code, out, _ = run("pull", "hub://acme/x:1.0.0", "--hub", given, "--format", "json")
    assert code == 1 and json.loads(out)["details"] == {"reason": "not_tls"}


def test_a_certificate_error_is_a_certificate_problem_not_plain_http(tmp_path: Path) -> None:
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    listener = socket.create_server(("127.0.0.1", 0))
    given = f"https://127.0.0.1:{listener.getsockname()[1]}"

    def handshakes(count: int) -> None:
        for _ in range(count):
            conn, _ = listener.accept()
            with contextlib.suppress(OSError):  # the client refuses the certificate
                context.wrap_socket(conn, server_side=True).close()
            conn.close()

    thread = threading.Thread(target=handshakes, args=(2,), daemon=True)
    thread.start()
    try:
        code, _, err = run("search", "x", "--hub", given)
        assert code == 1
        assert err.startswith(
            f"provcat hub: RegistryUnavailableError: the TLS certificate of the hub at {given} "
            "was not accepted ("
        ), err
        assert "this is a certificate problem" in err and "SSL_CERT_FILE" in err
        assert "does not speak TLS" not in err and "http://" not in err
        # the advice holds: with SSL_CERT_FILE naming the CA, the handshake passes
        bundle = tmp_path / "ca.pem"
        ca.cert_pem.write_to_path(str(bundle))
        code, _, err = run("search", "x", "--hub", given, env={"SSL_CERT_FILE": str(bundle)})
        assert code == 1 and "certificate" not in err, err
    finally:
        thread.join(timeout=10)
        listener.close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        return None


@contextlib.contextmanager
def _static_server(root: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_hub_url_ending_in_the_api_root_v1_says_to_drop_it(
    real_hub: tuple[Hub, Served], tmp_path: Path
) -> None:
    """Found by a user: ``--hub http://host:port/v1`` (the API root, pasted) ended as "no route
    /v1/v1/search"; the client adds ``/v1/...`` itself."""
    hub, served = real_hub
    hint = (
        "; drop the /v1 suffix: the hub URL is the server's root (or the prefix it is served "
        "under) and the client adds /v1/... itself: --hub "
    )
    store = str(tmp_path / "store")
    for given in (f"{served.url}/v1", f"{served.url}/v1/"):
        code, _, err = run("pull", "hub://acme/x:1.0.0", "--hub", given, "--store", store)
        assert code == 1
        assert err == (
            "provcat hub: NotFoundError: no route /v1/v1/adapters/acme/x/1.0.0; see "
            f"/openapi.json{hint}{served.url}\n"
        )
    pasted = RegistryClient(f"{served.url}/v1", store=store)
    with pasted, pytest.raises(NotFoundError) as routed:
        pasted.search("x")
    assert str(routed.value) == f"no route /v1/v1/search; see /openapi.json{hint}{served.url}"

    # a plain web server (a 404 without the protocol's error body) says so, with the same hint
    site = tmp_path / "site"
    site.mkdir()
    with _static_server(site) as url:
        code, _, err = run("search", "x", "--hub", f"{url}/v1")
        assert code == 1 and err.endswith(f"its host, port and path{hint}{url}\n"), err
        # a hub (here a static mirror) may be served under a prefix that ends in /v1: no refusal
        export_static(hub.storage, site / "v1")
        with RegistryClient(f"{url}/v1", store=store) as mirror:
            assert mirror.health()["static"] is True
            with pytest.raises(AdapterNotFoundError) as missing:
                mirror.resolve("hub://acme/x:1.0.0")
        assert (
            str(missing.value) == f"no adapter hub://acme/x:1.0.0 on the static mirror at {url}/v1"
        )


def test_an_api_key_pasted_into_the_hub_url_is_never_repeated(
    real_hub: tuple[Hub, Served],
) -> None:
    """Found in review: the TLS and `/v1` hints wrote the hub URL out again, and an OpenAI-shaped
    key pasted into its path with it (only hub-token shapes were hidden)."""
    _, served = real_hub
    port = served.url.rsplit(":", 1)[1]
    key = "sk-proj-" + "A1b2C3d4" * 5
    for given in (f"https://127.0.0.1:{port}/{key}", f"http://127.0.0.1:{port}/{key}/v1"):
        code, out, err = run("search", "x", "--hub", given)
        assert code == 1
        assert key[:12] not in out + err, err
        assert "<redacted>" in err
        with pytest.raises(HubError) as caught:  # unavailable, or the hub's NotFoundError
            RegistryClient(given).search("x")
        assert key[:12] not in str(caught.value) + repr(caught.value)
