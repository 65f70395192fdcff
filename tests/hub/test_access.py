"""Who may read and write: private-reads mode (every read needs a token, scoped to its
namespaces) and token revocation (effective at once, on every process), on both backends."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from tests.hub.conftest import Hub, make_hub
from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors, unique

pytestmark = pytest.mark.anyio


@pytest.fixture(params=("sqlite", "pg-s3"))
def private_hub(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Hub]:
    made = make_hub(request.param, tmp_path / "hub-data", request, private_reads=True)
    yield made
    made.storage.close()


async def _publish(hub: Hub, c: httpx.AsyncClient, namespace: str, token: str) -> str:
    name, payload = unique(), safetensors(b"\x31" * 16)
    body = push_body(manifest(namespace, name, "1.0.0", payload, tags=["shared"]), payload)
    r = await c.post("/v1/adapters", content=body, headers=multipart_headers(token))
    assert r.status_code == 201, r.text
    return name


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_private_reads_need_a_token_scoped_to_the_namespace(private_hub: Hub) -> None:
    hub = private_hub
    async with hub.client() as c:
        mine = await _publish(hub, c, "acme", hub.token)
        theirs = await _publish(hub, c, "globex", hub.other_token)
        reads = [
            ("GET", "/v1/search"),
            ("GET", f"/v1/adapters/acme/{mine}/1.0.0"),
            ("GET", f"/v1/adapters/acme/{mine}/latest"),
            ("GET", f"/v1/adapters/acme/{mine}/1.0.0/payload"),
            ("HEAD", f"/v1/adapters/acme/{mine}/1.0.0/payload"),
        ]
        for method, path in reads:
            for headers in ({}, _bearer("pch_000000000000_" + "x" * 43), _bearer("junk")):
                r = await c.request(method, path, headers=headers)
                assert r.status_code == 401, (method, path, headers)
                assert r.headers["www-authenticate"].startswith("Bearer")
                if method == "GET":
                    assert r.json()["error"] == "AuthenticationError"
                if method == "GET" and not headers:  # found by a new user: it read "send
                    # '<redacted> <token>'", the hiding of secrets eating the header's name
                    assert "'Bearer <token>'" in r.json()["message"]
                    assert "redacted" not in r.json()["message"]
            assert (await c.request(method, path, headers=_bearer(hub.token))).status_code == 200
        # another namespace's token: 403 on its adapters, and search shows only its own
        for path in (f"/v1/adapters/acme/{mine}/1.0.0", f"/v1/adapters/acme/{mine}/1.0.0/payload"):
            r = await c.get(path, headers=_bearer(hub.other_token))
            assert r.status_code == 403 and r.json()["error"] == "AuthorizationError"
        names = {
            tok: [
                row["name"]
                for row in (
                    await c.get(
                        "/v1/search", params={"tag": "shared", "limit": 100}, headers=_bearer(tok)
                    )
                ).json()["results"]
            ]
            for tok in (hub.token, hub.other_token, hub.admin_token)
        }
        assert names[hub.token] == [mine]
        assert names[hub.other_token] == [theirs]
        assert sorted(names[hub.admin_token]) == sorted([mine, theirs])
        # liveness and the schema stay public (a load balancer probes them without a token)
        assert (await c.get("/v1/health")).status_code == 200
        assert (await c.get("/v1/manifest.schema.json")).status_code == 200


async def test_public_reads_ignore_tokens_but_writes_need_one(hub: Hub) -> None:
    async with hub.client() as c:
        mine = await _publish(hub, c, "acme", hub.token)
        assert (await c.get(f"/v1/adapters/acme/{mine}/1.0.0")).status_code == 200
        r = await c.get(f"/v1/adapters/acme/{mine}/1.0.0", headers=_bearer(hub.other_token))
        assert r.status_code == 200
        r = await c.delete(f"/v1/adapters/acme/{mine}/1.0.0")
        assert r.status_code == 401


async def test_a_revoked_token_stops_working_at_once(hub: Hub, tmp_path: Path) -> None:
    from provcat.cli.main import main

    runner = CliRunner()
    created = runner.invoke(
        main,
        ["hub", "token", "create", *hub.storage_args(), "--namespace", "acme", "--format", "json"],
        env=hub.env,
        catch_exceptions=False,
    )
    assert created.exit_code == 0, created.output
    data = json.loads(created.stdout)
    token, token_id = data["token"], data["token_id"]
    served = hub.serve()  # a second process on the same storage: no token cache anywhere
    try:
        async with hub.client() as c:
            name = await _publish(hub, c, "acme", token)
            revoked = runner.invoke(
                main, ["hub", "token", "revoke", *hub.storage_args(), token_id], env=hub.env
            )
            assert revoked.exit_code == 0 and token_id in revoked.output
            payload = safetensors(b"\x32" * 16)
            body = push_body(manifest("acme", unique(), "1.0.0", payload), payload)
            for base in (None, served.url):
                if base is None:
                    r = await c.post("/v1/adapters", content=body, headers=multipart_headers(token))
                    d = await c.delete(f"/v1/adapters/acme/{name}/1.0.0", headers=_bearer(token))
                else:
                    r = httpx.post(
                        f"{base}/v1/adapters", content=body, headers=multipart_headers(token)
                    )
                    d = httpx.delete(
                        f"{base}/v1/adapters/acme/{name}/1.0.0", headers=_bearer(token)
                    )
                for answer in (r, d):
                    assert answer.status_code == 401, answer.text
                    assert answer.json()["error"] == "AuthenticationError"
                    assert token not in answer.text
            # the version is still there; another token still works
            assert (await c.get(f"/v1/adapters/acme/{name}/1.0.0")).status_code == 200
            assert (
                await c.delete(f"/v1/adapters/acme/{name}/1.0.0", headers=_bearer(hub.token))
            ).status_code == 204
    finally:
        served.stop()
    again = runner.invoke(
        main, ["hub", "token", "revoke", *hub.storage_args(), token_id], env=hub.env
    )
    assert again.exit_code == 0 and "was already revoked" in again.output  # as rm says
    listed = runner.invoke(
        main, ["hub", "token", "list", *hub.storage_args(), "--format", "json"], env=hub.env
    )
    rows = {row["token_id"]: row for row in json.loads(listed.stdout)["tokens"]}
    assert rows[token_id]["revoked_at"] is not None
    assert token not in listed.stdout
