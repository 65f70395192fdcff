"""v1 manifests as llm-patch writes them, read as the protocol says (§7: clients MUST tolerate v1
manifests on read, missing optional fields defaulting to None or []).

The documents are the ones issue #28 quotes: llm-patch 1.0.0rc1's ``AdapterManifest`` serializes
a v1 document with ``manifest_version: 1`` and ``namespace``, ``version``, ``checksum_sha256`` and
``description`` null (and no ``name`` at all); older writers leave out everything after
``storage_uri``. They are read on resolve, in search results, on pull and from a static mirror;
``pull`` still refuses a manifest with no checksum (§6: a client MUST NOT return a manifest whose
payload it could not verify).
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.hub import RegistryClient
from provcat.hub.errors import ValidationError
from tests.hub.helpers import safetensors, sha256

PAYLOAD = safetensors(b"\x42" * 32)
STORAGE_URI = "https://hub.example.com/v1/adapters/acme/react-19/1.2.0/payload"


def llm_patch_rc1(adapter_id: str, checksum: str | None = None) -> dict[str, Any]:
    """llm-patch 1.0.0rc1's serialization of a v1 manifest, key for key (issue #28)."""
    return {
        "adapter_id": adapter_id,
        "rank": 8,
        "target_modules": ["q_proj", "v_proj"],
        "storage_uri": STORAGE_URI,
        "created_at": "2026-04-26T12:00:00Z",
        "manifest_version": 1,
        "namespace": None,
        "version": None,
        "checksum_sha256": checksum,
        "base_model_compatibility": [],
        "tags": [],
        "description": None,
    }


def older_writer(adapter_id: str) -> dict[str, Any]:
    """An older writer: everything after ``storage_uri`` left out."""
    return {
        "adapter_id": adapter_id,
        "rank": 8,
        "target_modules": ["q_proj", "v_proj"],
        "storage_uri": STORAGE_URI,
    }


# a canonical id names the adapter; a free-form one (as many writers use) does not
DOCUMENTS = {
    "rc1-canonical-id": llm_patch_rc1("acme__react-19__v1.2.0"),
    "rc1-free-form-id": llm_patch_rc1("react-19-docs"),
    "older-canonical-id": older_writer("acme__react-19__v1.2.0"),
    "older-free-form-id": older_writer("react-19-docs"),
}


def _client(tmp_path: Path, document: dict[str, Any], payload: bytes = PAYLOAD) -> RegistryClient:
    """A client of a hub that answers ``document`` for acme/react-19 (any version)."""

    def handler(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/v1/search":
            return httpx.Response(200, json={"results": [document]})
        if path.startswith("/v1/adapters/acme/react-19/"):
            if path.endswith("/payload"):
                return httpx.Response(200, content=payload)
            return httpx.Response(200, json=document)
        return httpx.Response(404, json={"error": "AdapterNotFoundError", "message": path})

    return RegistryClient(
        "http://hub.test", store=tmp_path / "store", transport=httpx.MockTransport(handler)
    )


@pytest.mark.parametrize("document", DOCUMENTS.values(), ids=DOCUMENTS.keys())
def test_resolve_reads_a_v1_manifest(tmp_path: Path, document: dict[str, Any]) -> None:
    with _client(tmp_path, document) as client:
        m = client.resolve("hub://acme/react-19:1.2.0")
    assert (m.manifest_version, m.namespace, m.name, m.version) == (1, "acme", "react-19", "1.2.0")
    assert m.canonical_id == "acme__react-19__v1.2.0"
    assert (m.rank, m.target_modules, m.storage_uri) == (8, ["q_proj", "v_proj"], STORAGE_URI)
    assert m.tags == [] and m.base_model_compatibility == []
    assert m.description is None and m.checksum_sha256 is None
    assert m.created_at == document.get("created_at")


def test_latest_takes_its_version_from_a_canonical_adapter_id(tmp_path: Path) -> None:
    with _client(tmp_path, llm_patch_rc1("acme__react-19__v1.2.0")) as client:
        assert client.resolve("hub://acme/react-19").version == "1.2.0"


def test_latest_without_any_version_is_a_clear_error(tmp_path: Path) -> None:
    with (
        _client(tmp_path, llm_patch_rc1("react-19-docs")) as client,
        pytest.raises(ValidationError, match=r"names no version.*concrete version"),
    ):
        client.resolve("hub://acme/react-19")


def test_an_adapter_id_naming_another_adapter_is_reported(tmp_path: Path) -> None:
    with (
        _client(tmp_path, llm_patch_rc1("acme__vue__v1.2.0")) as client,
        pytest.raises(ValidationError, match=r"answered hub://acme/vue:1\.2\.0 for"),
    ):
        client.resolve("hub://acme/react-19:1.2.0")


@pytest.mark.parametrize("document", DOCUMENTS.values(), ids=DOCUMENTS.keys())
def test_pull_refuses_a_v1_manifest_without_a_checksum(
    tmp_path: Path, document: dict[str, Any]
) -> None:
    with (
        _client(tmp_path, document) as client,
        pytest.raises(ValidationError, match="no checksum_sha256: it cannot be pulled"),
    ):
        client.pull("hub://acme/react-19:1.2.0")
    store = tmp_path / "store"
    assert not store.exists() or list(store.iterdir()) == []  # nothing downloaded or left


@pytest.mark.parametrize("adapter_id", ["acme__react-19__v1.2.0", "react-19-docs"])
def test_pull_of_a_v1_manifest_with_a_checksum_is_verified_and_stored(
    tmp_path: Path, adapter_id: str
) -> None:
    document = llm_patch_rc1(adapter_id, checksum=sha256(PAYLOAD))
    with _client(tmp_path, document) as client:
        pulled = client.pull("hub://acme/react-19:1.2.0")
        path = client.local_path(pulled)
        assert path.read_bytes() == PAYLOAD
        assert path.parent.name == "acme__react-19__v1.2.0"
        # the stored manifest reads back (the local store serves the next pull from it)
        again = client.pull("hub://acme/react-19:1.2.0")
    assert (again.namespace, again.name, again.version) == ("acme", "react-19", "1.2.0")
    kept = json.loads((path.parent / "manifest.json").read_text(encoding="utf-8"))
    assert kept["rank"] == 8 and kept["name"] == "react-19"


def test_pull_of_a_v1_manifest_still_verifies_the_bytes(tmp_path: Path) -> None:
    from provcat.hub.errors import ChecksumMismatchError

    document = llm_patch_rc1("acme__react-19__v1.2.0", checksum=sha256(b"other bytes"))
    with _client(tmp_path, document) as client, pytest.raises(ChecksumMismatchError):
        client.pull("hub://acme/react-19:1.2.0")
    assert list((tmp_path / "store").iterdir()) == []


def test_search_reads_v1_rows_and_leaves_out_a_row_that_names_no_adapter(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rows = [
        llm_patch_rc1("acme__react-19__v1.2.0"),
        older_writer("globex__sql__v0.1.0"),
        {**llm_patch_rc1("free-form"), "namespace": "acme/vue", "version": "2.0.0"},
        llm_patch_rc1("react-19-docs"),  # no reference anywhere: cannot be resolved or pulled
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"results": rows})

    with (
        RegistryClient("http://hub.test", transport=httpx.MockTransport(handler)) as client,
        caplog.at_level("WARNING", logger="provcat.hub"),
    ):
        found = client.search()
    assert [(r.adapter_id, r.namespace, r.name, r.version) for r in found] == [
        ("acme__react-19__v1.2.0", "acme", "react-19", "1.2.0"),
        ("free-form", "acme", "vue", "2.0.0"),
        ("globex__sql__v0.1.0", "globex", "sql", "0.1.0"),
    ]
    assert all(r.tags == [] and r.description is None for r in found)
    assert "'react-19-docs'" in caplog.text and "left out" in caplog.text


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def mirror(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A plain static file server on 127.0.0.1 over ``tmp_path/site``."""
    site = tmp_path / "site"
    site.mkdir()
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())


def test_a_static_mirror_of_v1_manifests_is_read(tmp_path: Path, mirror: tuple[Path, str]) -> None:
    """A mirror laid out as export-static lays it, holding llm-patch's documents."""
    site, url = mirror
    base = site / "v1" / "adapters" / "acme"
    checked = llm_patch_rc1("acme__react-19__v1.2.0", checksum=sha256(PAYLOAD))
    for version in ("1.2.0", "latest"):
        _write(base / "react-19" / version / "index.html", checked)
        _write(base / "react-19" / version / "payload", PAYLOAD)
    _write(base / "old" / "0.1.0" / "index.html", older_writer("acme__old__v0.1.0"))
    _write(base / "old" / "0.1.0" / "payload", PAYLOAD)
    _write(site / "v1" / "search", {"results": [checked, older_writer("acme__old__v0.1.0")]})
    with RegistryClient(url, store=tmp_path / "store") as client:
        assert [(r.name, r.version) for r in client.search("react")] == [("react-19", "1.2.0")]
        assert [r.name for r in client.search()] == ["old", "react-19"]
        pulled = client.pull("hub://acme/react-19")  # latest: the version the id names
        assert (pulled.version, pulled.manifest_version) == ("1.2.0", 1)
        assert client.local_path(pulled).read_bytes() == PAYLOAD
        old = client.resolve("hub://acme/old:0.1.0")
        assert (old.namespace, old.name, old.rank, old.checksum_sha256) == ("acme", "old", 8, None)
        with pytest.raises(ValidationError, match="cannot be pulled"):
            client.pull("hub://acme/old:0.1.0")
    assert sorted(p.name for p in (tmp_path / "store").iterdir()) == ["acme__react-19__v1.2.0"]


BOGUS_IDS = {
    "v2-path": (2, "../../../tmp/hubx/pwned"),
    "v2-other-adapter": (2, "other__zz__v1.0.0"),
    "v2-without-v": (2, "acme__ev__1.0.0"),
    "v1-other-adapter": (1, "other__zz__v1.0.0"),
}


@pytest.mark.parametrize(("manifest_version", "bogus"), BOGUS_IDS.values(), ids=BOGUS_IDS.keys())
def test_an_adapter_id_that_names_no_or_another_adapter_is_refused(
    tmp_path: Path, mirror: tuple[Path, str], manifest_version: int, bogus: str
) -> None:
    """The hub sets a v2 manifest's adapter_id to the canonical one; a mirror answering another
    is answering wrongly, as one naming another adapter in a v1 document is."""
    site, url = mirror
    document = {
        "manifest_version": manifest_version,
        "adapter_id": bogus,
        "namespace": "acme",
        "name": "ev",
        "version": "1.0.0",
        "checksum_sha256": sha256(PAYLOAD),
    }
    for version in ("1.0.0", "latest"):
        _write(site / "v1" / "adapters" / "acme" / "ev" / version / "index.html", document)
        _write(site / "v1" / "adapters" / "acme" / "ev" / version / "payload", PAYLOAD)
    store = tmp_path / "store"
    with RegistryClient(url, store=store) as client:
        for ref in ("hub://acme/ev:1.0.0", "hub://acme/ev"):
            with pytest.raises(ValidationError, match=r"adapter_id .* is not 'acme__ev__v1\.0\.0'"):
                client.pull(ref)
    assert not store.exists() or list(store.iterdir()) == []  # nothing stored
    result = CliRunner().invoke(
        main, ["hub", "resolve", "--hub", url, "hub://acme/ev:1.0.0", "--format", "json"]
    )
    assert result.exit_code == 1 and json.loads(result.stdout)["error"] == "ValidationError"
    assert "acme__ev__v1.0.0" in json.loads(result.stdout)["message"]


def test_the_canonical_adapter_id_and_a_free_form_v1_one_are_read(
    tmp_path: Path, mirror: tuple[Path, str]
) -> None:
    site, url = mirror
    for name, manifest_version, given in (("a", 2, "acme__a__v1.0.0"), ("b", 1, "b-docs")):
        document = {
            "manifest_version": manifest_version,
            "adapter_id": given,
            "namespace": "acme",
            "name": name,
            "version": "v1.0.0",
            "checksum_sha256": sha256(PAYLOAD),
        }
        _write(site / "v1" / "adapters" / "acme" / name / "1.0.0" / "index.html", document)
        _write(site / "v1" / "adapters" / "acme" / name / "1.0.0" / "payload", PAYLOAD)
    with RegistryClient(url, store=tmp_path / "store") as client:
        assert client.pull("hub://acme/a:1.0.0").adapter_id == "acme__a__v1.0.0"
        assert client.pull("hub://acme/b:1.0.0").adapter_id == "b-docs"
