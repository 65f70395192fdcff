"""schemathesis over the published OpenAPI document: no 5xx, no response outside the schema."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from provcat.hub.server import create_app
from provcat.hub.settings import HubSettings
from provcat.hub.storage import open_storage

_root = Path(tempfile.mkdtemp(prefix="provcat-fuzz-"))
_storage = open_storage(HubSettings(data_dir=_root, max_upload_bytes=1 << 20))
TOKEN = _storage.create_token(["*"]).text
APP = create_app(HubSettings(data_dir=_root, public_url="http://hub.test"), storage=_storage)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms(case: schemathesis.Case) -> None:
    case.call_and_validate(headers={"Authorization": f"Bearer {TOKEN}"}, checks=CHECKS)
