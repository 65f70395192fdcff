"""Static export: the read-only subset as plain files, served by a plain static server, pulled
by the same RegistryClient."""

from __future__ import annotations

import errno
import functools
import json
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.hub import RegistryClient
from provcat.hub.errors import AdapterNotFoundError, MethodNotAllowedError
from provcat.hub.static_export import export_static
from tests.hub.conftest import Hub, Live
from tests.hub.helpers import safetensors


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def site_server(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    site = tmp_path / "site"
    handler = functools.partial(_Quiet, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_export_and_pull_from_a_static_mirror(
    live: Live, tmp_path: Path, site_server: tuple[Path, str]
) -> None:
    site, url = site_server
    files = tmp_path / "files"
    files.mkdir()
    with RegistryClient(live.url, live.hub.token, store=tmp_path / "unused") as client:
        for version, data in (("1.9.0", b"old"), ("1.10.0", b"new")):
            path = files / version
            path.write_bytes(safetensors(data))
            client.push(
                path,
                {"namespace": "acme", "name": "react-19", "version": version, "tags": ["frontend"]},
            )
        client.push(files / "1.9.0", {"namespace": "acme", "name": "gone", "version": "1.0.0"})
        client.delete("hub://acme/gone:1.0.0")
        client.push(files / "1.9.0", {"namespace": "acme", "name": "vue", "version": "0.1.0"})
    summary = export_static(live.hub.storage, site)
    assert (summary.adapters, summary.versions) == (2, 3)
    assert json.loads((site / "v1" / "health").read_text())["status"] == "ok"
    with RegistryClient(url, store=tmp_path / "store") as mirror:
        assert mirror.health()["static"] is True
        pulled = mirror.pull("hub://acme/react-19")
        assert pulled.version == "1.10.0"
        assert mirror.local_path(pulled).read_bytes() == safetensors(b"new")
        assert mirror.resolve("hub://acme/react-19:v1.9.0").version == "1.9.0"
        assert [r.name for r in mirror.search("react", tag="frontend")] == ["react-19"]
        assert [r.name for r in mirror.search(limit=1)] == ["react-19"]
        with pytest.raises(AdapterNotFoundError):
            mirror.resolve("hub://acme/gone:1.0.0")
    assert httpx.get(f"{url}/v1/adapters/acme/react-19/latest/payload").content == safetensors(
        b"new"
    )


def test_export_refuses_a_non_empty_target(hub: Hub, tmp_path: Path) -> None:
    target = tmp_path / "busy"
    target.mkdir()
    (target / "keep").write_text("x")
    with pytest.raises(OSError, match="not empty") as caught:  # a local path problem
        export_static(hub.storage, target)
    assert caught.value.errno == errno.ENOTEMPTY and caught.value.filename == str(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["busy", "hub-data"]
    # the command line calls it what it is, and says what to do
    where = ["--data-dir", str(hub.settings.data_dir)]
    if hub.settings.database_url:
        where += ["--database", hub.settings.database_url, "--blobs", str(hub.settings.blobs_url)]
    for fmt in ([], ["--format", "json"]):
        result = CliRunner().invoke(main, ["hub", "export-static", str(target), *where, *fmt])
        said = result.stdout if fmt else result.stderr
        assert result.exit_code == 1, said
        code = json.loads(said)["error"] if fmt else said.split(": ")[1]
        assert code == "LocalFileError", said
        # found by a new-user audit: "Directory not empty: ...; it is a directory that holds
        # files: ..." said the same twice
        message = json.loads(said)["message"] if fmt else said.split(": ", 2)[2].strip()
        assert message == (
            f"Directory not empty: {target}; give a new or empty directory, or move its files away"
        ), said
    assert (target / "keep").read_text() == "x"


def test_a_mirror_says_no_such_adapter_and_that_it_is_read_only(
    live: Live, tmp_path: Path, site_server: tuple[Path, str]
) -> None:
    """A static mirror has no error bodies: a file it lacks is its "no such adapter" (unlike any
    other server's bare 404, test_client.py::test_a_404_without_an_error_body_is_not_a_hub), and
    a push or delete it refuses (501 from a plain static server) says it is read-only."""
    site, url = site_server
    payload = tmp_path / "p.safetensors"
    payload.write_bytes(safetensors(b"m"))
    about = {"namespace": "acme", "name": "here", "version": "1.0.0"}
    with RegistryClient(live.url, live.hub.token, store=tmp_path / "unused") as client:
        client.push(payload, about)
    export_static(live.hub.storage, site)
    with RegistryClient(url, live.hub.token, store=tmp_path / "store") as mirror:
        for ref in ("hub://acme/gone:1.0.0", "hub://acme/here:2.0.0", "hub://acme/gone:latest"):
            with pytest.raises(AdapterNotFoundError) as err:
                mirror.pull(ref)
            assert str(err.value) == f"no adapter {ref} on the static mirror at {url}"
        for write in (
            lambda: mirror.push(payload, about),
            lambda: mirror.delete("hub://acme/here:1.0.0"),
        ):
            with pytest.raises(MethodNotAllowedError) as refused:
                write()
            message = str(refused.value)
            assert f"{url} is a read-only static mirror" in message, message
            assert "push to, or delete on, the live hub" in message
            assert refused.value.details == {"reason": "static_mirror", "status": 501}
    store = tmp_path / "store"
    assert not store.exists() or list(store.iterdir()) == []  # nothing was stored
    args = ["hub", "push", str(payload), "hub://acme/here:1.0.0", "--hub", url]
    result = CliRunner().invoke(main, args, env={"PROVCAT_HUB_TOKEN": live.hub.token})
    assert result.exit_code == 1, result.stderr
    assert result.stderr.startswith("provcat hub: MethodNotAllowedError: ") and (
        "read-only static mirror" in result.stderr
    )
