"""Runtime fixtures: the registry pointed at a test catalog, restored afterwards."""

from __future__ import annotations

import copy
import json
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest

from generator.pipeline import run
from provcat.catalog.keyspace import indexes, record_keys
from provcat.catalog.publish import trusted_snapshot
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.endpoints.checked import CatalogSource
from provcat.endpoints.load import Importer
from provcat.endpoints.registry import EndpointRegistry
from tests.conftest import BASE_CATALOG, FIXTURE_MODULES

Records = list[dict[str, Any]]

if str(FIXTURE_MODULES) not in sys.path:
    sys.path.insert(0, str(FIXTURE_MODULES))


def _base_records() -> Records:
    result = run(BASE_CATALOG, (FIXTURE_MODULES,))
    assert result.ok and result.snapshot is not None, result.diagnostics
    return [dict(r) for r in result.snapshot["providers"]]


_BASE = _base_records()


def base_records() -> Records:
    """A deep copy of the base test catalog's snapshot records (alpha, beta, scripted)."""
    return copy.deepcopy(_BASE)


def source_of(records: Records) -> CatalogSource:
    return CatalogSource(lambda: records, fingerprint=lambda: "test")


@pytest.fixture
def use_catalog() -> Iterator[Callable[[Records], CatalogSource]]:
    """Point the registry at records for one test; the bundled catalog is restored after."""

    def use(records: Records) -> CatalogSource:
        source = source_of(records)
        EndpointRegistry._reset(source)
        return source

    yield use
    EndpointRegistry._reset()


@pytest.fixture
def base(use_catalog: Callable[[Records], CatalogSource]) -> Records:
    records = base_records()
    use_catalog(records)
    return records


def record(records: Records, provider: str) -> dict[str, Any]:
    return next(r for r in records if r["provider"] == provider)


def assert_configs_equal_validated(snapshot: Any) -> None:
    """Every bound config of ``snapshot`` (after inspection loaded them all) equals the validated
    ``EndpointConfig`` of its record: the same values, of the same types, with the same fields set
    (what the trusted publication must give)."""
    from provcat.endpoints.config import EndpointConfig

    EndpointRegistry.list_providers()
    bindings = EndpointRegistry.state(snapshot).bindings
    assert bindings, "nothing was loaded"
    for provider in snapshot.providers.values():
        for spec in provider.endpoints.values():
            config = bindings[spec.provider][spec.key].config
            validated = EndpointConfig(
                **spec.config_values(), request_options=config.request_options
            )
            assert config == validated
            assert [(k, type(v)) for k, v in config] == [(k, type(v)) for k, v in validated]
            assert config.model_fields_set == validated.model_fields_set


class TrustedSource(CatalogSource):
    """Records published as the bundled snapshot is (the generator wrote them): no check, nothing
    imported until first use."""

    def build(self, importer: Importer) -> CatalogSnapshot:
        records: Sequence[Mapping[str, Any]] = self.records()
        provider_index, _ = indexes(record_keys(r) for r in records)
        return trusted_snapshot(records, provider_index, {}, "test")


def run_threads(threads: int, work: Callable[[int], None]) -> list[BaseException]:
    """Run ``work(i)`` in ``threads`` threads released together; what they raised."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(threads)

    def body(i: int) -> None:
        try:
            barrier.wait()
            work(i)
        except BaseException as exc:
            errors.append(exc)

    pool = [threading.Thread(target=body, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return errors


class Recorder(BaseHTTPRequestHandler):
    """A loopback HTTP server's handler: records each POST, answers ``reply`` (500 on /fail)."""

    seen: ClassVar[list[dict[str, Any]]] = []
    reply: ClassVar[dict[str, Any]] = {"ok": True}

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.seen.append({"path": self.path, "headers": dict(self.headers), "body": body})
        status = 500 if self.path.endswith("/fail") else 200
        data = json.dumps(self.reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A recording HTTP server on 127.0.0.1: its base URL and the requests it saw."""
    Recorder.seen = []
    Recorder.reply = {"ok": True}
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", Recorder.seen
    finally:
        httpd.shutdown()
        httpd.server_close()
