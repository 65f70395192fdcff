"""Search as a query over the search index: the same answers, in the same order, as the decided
rules (``searching.rank`` over every adapter's latest version), on both backends; the index kept
current by publish and delete; existing data indexed by the migration that adds it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from provcat.hub.searching import rank
from provcat.hub.server.push import parse_manifest, record_for
from provcat.hub.settings import HubSettings
from provcat.hub.storage import open_storage
from tests.hub.conftest import Hub
from tests.hub.helpers import manifest, safetensors

pytestmark = pytest.mark.anyio


def _publish(hub: Hub, tmp: Path, namespace: str, name: str, version: str, **extra: Any) -> None:
    payload = safetensors(f"{namespace}/{name}:{version}".encode())
    source = tmp / "payload.part"
    source.write_bytes(payload)
    document = parse_manifest(
        json.dumps(manifest(namespace, name, version, payload, **extra)).encode()
    )
    hub.storage.publish(record_for(document, len(payload)), source)


def _expected(hub: Hub, q: str | None, tags: list[str], limit: int) -> list[str]:
    rows = [r.search_row() for r in hub.storage.latest_rows()]
    return [r["adapter_id"] for r in rank(rows, q, tags, limit)]


def _found(hub: Hub, q: str | None, tags: list[str], limit: int) -> list[str]:
    return [r.manifest["adapter_id"] for r in hub.storage.search(q, tags, limit)]


CATALOG: list[tuple[str, str, str, dict[str, Any]]] = [
    ("acme", "react", "1.0.0", {"tags": ["frontend", "React"], "description": "Hooks"}),
    ("acme", "react", "1.10.0", {"tags": ["frontend"], "description": "Hooks and RSC"}),
    ("acme", "react", "2.0.0-rc1", {"tags": ["beta"], "description": "pre-release"}),
    ("acme", "react-x", "0.1.0", {"tags": ["Straße"], "description": "100% literal_text"}),
    ("beta", "vue", "1.0.0", {"tags": ["frontend", "a/b"], "description": "no react here"}),
    ("beta", "zz", "1.0.0", {"tags": ["x\x1fy", "100%"], "description": None}),
    ("react", "tools", "1.0.0", {"tags": [], "description": "İstanbul ÉCOLE"}),
    ("a-b", "ab", "1.0.0", {"tags": ["frontend"], "description": "dash order"}),
    ("ab", "a-b", "1.0.0", {"tags": ["frontend"], "description": "dash order"}),
]


async def test_search_query_matches_the_decided_rules(hub: Hub, tmp_path: Path) -> None:
    for namespace, name, version, extra in CATALOG:
        _publish(hub, tmp_path, namespace, name, version, **extra)
    queries: list[str | None] = [
        None, "", "react", "REACT", "acme/react", "re", "act", "frontend", "FrontEnd", "front",
        "beta", "%", "_", "100%", "100%_literal", "100__literal", "a/b", "/", "a-b", "-",
        "STRASSE", "straße", "x\x1fy", "\x1f", "i̇stanbul", "école", "hooks", "nothing-like-it",
    ]  # fmt: skip
    tag_sets: list[list[str]] = [[], ["frontend"], ["Frontend"], ["frontend", "React"], ["100%"]]
    for q in queries:
        for tags in tag_sets:
            for limit in (1, 3, 100):
                assert _found(hub, q, tags, limit) == _expected(hub, q, tags, limit), (q, tags)
    async with hub.client() as c:
        r = await c.get("/v1/search", params={"q": "react"})
        assert [x["adapter_id"] for x in r.json()["results"]] == _expected(hub, "react", [], 10)
        assert r.json()["results"][0]["version"] == "1.10.0"  # latest: a release, numerically


async def test_index_follows_publish_and_delete(hub: Hub, tmp_path: Path) -> None:
    _publish(hub, tmp_path, "acme", "m", "1.0.0", tags=["old"])
    _publish(hub, tmp_path, "acme", "m", "0.9.0", tags=["older"])  # not the latest: no change
    assert _found(hub, None, ["old"], 10) == ["acme__m__v1.0.0"]
    _publish(hub, tmp_path, "acme", "m", "1.1.0", tags=["new"], description="Fresh")
    assert _found(hub, None, ["old"], 10) == []
    assert _found(hub, "fresh", ["new"], 10) == ["acme__m__v1.1.0"]
    assert hub.storage.delete("acme", "m", "1.1.0")
    assert _found(hub, "m", [], 10) == ["acme__m__v1.0.0"]
    assert _found(hub, "fresh", [], 10) == []
    assert hub.storage.delete("acme", "m", "1.0.0") and hub.storage.delete("acme", "m", "0.9.0")
    assert _found(hub, None, [], 10) == []
    assert _found(hub, None, ["old"], 10) == []


def test_search_scope_restricts_namespaces(hub: Hub, tmp_path: Path) -> None:
    for namespace in ("acme", "globex"):
        _publish(hub, tmp_path, namespace, "m", "1.0.0")
    assert [r.namespace for r in hub.storage.search(None, (), 10, ("globex",))] == ["globex"]
    assert hub.storage.search(None, (), 10, ()) == []


def test_migration_indexes_existing_adapters(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    from provcat.hub.storage.migrate import MIGRATIONS

    database = tmp_path / "hub.sqlite3"
    engine = create_engine(f"sqlite:///{database}")
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        for version, deleted, tags in (
            ("1.0.0", None, ["a"]),
            ("1.2.0", None, ["b", "B"]),
            ("2.0.0", "2024-01-01T00:00:00Z", ["c"]),
        ):
            document = {"adapter_id": f"acme__m__v{version}", "tags": tags, "description": "Dé"}
            connection.execute(
                text("INSERT INTO hub_adapters VALUES (:ns, :n, :v, :sha, 1, :m, :at, :deleted)"),
                {
                    "ns": "acme",
                    "n": "m",
                    "v": version,
                    "sha": "0" * 64,
                    "m": json.dumps(document),
                    "at": "2024-01-01T00:00:00Z",
                    "deleted": deleted,
                },
            )
    engine.dispose()
    storage = open_storage(HubSettings(data_dir=tmp_path))
    try:
        assert [r.version for r in storage.search("dé", ["B"], 10)] == ["1.2.0"]
        assert storage.search(None, ["c"], 10) == []
    finally:
        storage.close()
