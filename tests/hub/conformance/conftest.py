"""Targets for the conformance suite. With ``PROVCAT_CONFORMANCE_URL`` set, the suite runs against
that hub only; otherwise against four local targets: both backends in-process, and both behind a
real ``provcat hub serve`` on 127.0.0.1 (the PostgreSQL + S3 one shares its database and bucket
with the in-process app: two instances, one hub)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.hub.conformance.config import IN_PROCESS, PREFIX, Config

LOCAL_TARGETS = ("sqlite", "pg-s3", "sqlite-socket", "pg-s3-socket")
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

    backend = request.param.removesuffix("-socket")
    hub = make_hub(backend, tmp_path_factory.mktemp(request.param) / "hub-data", request)
    env = {
        PREFIX + "TOKEN": hub.token,
        PREFIX + "OTHER_TOKEN": hub.other_token,
        PREFIX + "MAX_UPLOAD_BYTES": str(hub.settings.max_upload_bytes),
    }
    served = None
    if request.param.endswith("-socket"):
        served = hub.serve()
        env[PREFIX + "URL"] = served.url
    else:
        env[PREFIX + "URL"] = f"http://{request.param}.in-process"
        IN_PROCESS[env[PREFIX + "URL"]] = hub.app
    try:
        yield Config.from_env(env)
    finally:
        IN_PROCESS.pop(env[PREFIX + "URL"], None)
        if served is not None:
            served.stop()
        hub.storage.close()
