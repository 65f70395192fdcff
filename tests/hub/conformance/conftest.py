"""Targets for the conformance suite. With ``PROVCAT_CONFORMANCE_URL`` set, the suite runs against
that hub only; otherwise against four local targets: both backends in-process, and both behind a
real ``provcat hub serve`` on 127.0.0.1 (the PostgreSQL + S3 one shares its database and bucket
with the in-process app: two instances, one hub); and two ``serve`` processes on one PostgreSQL +
S3, each with its own data dir, behind a round-robin balancer (consecutive requests of a test go
to different servers)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.hub.conformance.config import BALANCED, IN_PROCESS, PREFIX, Config

LOCAL_TARGETS = ("sqlite", "pg-s3", "sqlite-socket", "pg-s3-socket", "pg-s3-two-servers")
MAX_UPLOAD = 1 << 20


def _targets() -> tuple[str, ...]:
    return ("external",) if os.environ.get(PREFIX + "URL") else LOCAL_TARGETS


@pytest.fixture(scope="session", params=_targets())
def conformance(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Config]:
    if request.param == "external":
        yield Config.from_env()
        return
    from tests.hub.conftest import make_hub
    from tests.hub.services import Served, serve

    backend = request.param.removesuffix("-socket").removesuffix("-two-servers")
    root = tmp_path_factory.mktemp(request.param)
    hub = make_hub(backend, root / "hub-data", request)
    env = {
        PREFIX + "TOKEN": hub.token,
        PREFIX + "OTHER_TOKEN": hub.other_token,
        PREFIX + "MAX_UPLOAD_BYTES": str(hub.settings.max_upload_bytes),
    }
    served: list[Served] = []
    if request.param.endswith("-socket"):
        served.append(hub.serve())
        env[PREFIX + "URL"] = served[0].url
    elif request.param.endswith("-two-servers"):
        balancer = f"http://{request.param}.balancer"
        for data_dir in ("a", "b"):  # two hosts: one database, one bucket, local data dirs
            args = hub.serve_args()
            args[args.index("--data-dir") + 1] = str(root / data_dir)
            served.append(serve([*args, "--public-url", balancer], env=hub.env))
        BALANCED[balancer] = [s.url for s in served]
        env[PREFIX + "URL"] = balancer
    else:
        env[PREFIX + "URL"] = f"http://{request.param}.in-process"
        IN_PROCESS[env[PREFIX + "URL"]] = hub.app
    try:
        yield Config.from_env(env)
    finally:
        IN_PROCESS.pop(env[PREFIX + "URL"], None)
        BALANCED.pop(env[PREFIX + "URL"], None)
        for server in served:
            server.stop()
        hub.storage.close()
