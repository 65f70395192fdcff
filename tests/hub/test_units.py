"""References, versions, latest, the manifest schema, safetensors checks and tokens."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from provcat.hub import AdapterManifest, HubRef
from provcat.hub.errors import ValidationError, error_class
from provcat.hub.ref import parse_version, resolve_latest
from provcat.hub.safetensors import check_safetensors
from provcat.hub.schema import manifest_schema, validate_manifest
from provcat.hub.searching import rank
from provcat.hub.tokens import new_token, split_token
from tests.conftest import ROOT
from tests.hub.helpers import manifest, safetensors


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("hub://acme/react-19:1.2.0", ("acme", "react-19", "1.2.0")),
        ("hub://acme/react-19:v1.2.0", ("acme", "react-19", "1.2.0")),
        ("hub://acme/react-19", ("acme", "react-19", "latest")),
        ("hub://acme/react-19:latest", ("acme", "react-19", "latest")),
        ("hub://a1/b-2:0.0.1-rc1", ("a1", "b-2", "0.0.1-rc1")),
    ],
)
def test_hub_ref_parses(uri: str, expected: tuple[str, str, str]) -> None:
    ref = HubRef.parse(uri)
    assert (ref.namespace, ref.name, ref.version) == expected


@pytest.mark.parametrize(
    "uri",
    [
        "hub://a.b/c_d",
        "hub://Acme/x",
        "hub://a/b/c",
        "hub://a",
        "hub://a/b:",
        "hub://a/b:1.2",
        "hub://a/b:1.2.0+build",
        "hub://-a/b",
        "http://a/b",
        "hub:///b",
        "hub://a/b:1.2.0-rc.1",
        "hub://a/b:\u0661.\u0662.\u0663",  # non-ASCII digits
        "hub://" + "a" * 65 + "/b",
    ],
)
def test_hub_ref_rejects(uri: str) -> None:
    with pytest.raises(ValidationError):
        HubRef.parse(uri)


def test_adapter_id_and_latest_precedence() -> None:
    assert HubRef.parse("hub://acme/r:v1.2.0").adapter_id == "acme__r__v1.2.0"
    versions = [parse_version(v) for v in ["1.9.0", "1.10.0", "1.10.0-rc1", "1.2.0", "0.9.9"]]
    assert str(resolve_latest(versions)) == "1.10.0"
    pre = [parse_version(v) for v in ["2.0.0-alpha", "2.0.0-beta", "2.0.0-2", "2.0.0-10"]]
    assert str(resolve_latest(pre)) == "2.0.0-beta"  # alphanumeric beats numeric identifiers
    assert parse_version("2.0.0-2") < parse_version("2.0.0-10")  # numeric, not lexicographic
    assert resolve_latest([]) is None


def test_versions_of_equal_precedence_have_one_order() -> None:
    """Found by a tester: the frozen pattern allows ``1.0.0-01`` beside ``1.0.0-1``, two versions
    of the same SemVer precedence, and which was ``latest`` depended on row order. Their text
    orders them now; ``01.0.0`` is ``1.0.0``, as ``v1.0.0`` is."""
    odd, plain = parse_version("1.0.0-01"), parse_version("1.0.0-1")
    assert odd != plain and odd < plain
    assert resolve_latest([odd, plain]) == resolve_latest([plain, odd]) == plain
    assert parse_version("01.0.0") == parse_version("1.0.0") == parse_version("v1.0.0")


def test_error_classes_by_name_and_status() -> None:
    assert error_class(409, "IncompatibleBaseModelError").status == 409
    assert error_class(418).wire_name == "HubError"
    assert error_class(599).wire_name == "RegistryUnavailableError"


def test_schema_file_is_packaged_and_matches_the_repo_copy() -> None:
    repo = json.loads((ROOT / "schemas" / "hub-manifest.schema.json").read_text())
    assert manifest_schema() == repo
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"schemas/hub-manifest.schema.json" = "provcat/hub/manifest.schema.json"' in pyproject


def test_schema_accepts_unknown_fields_and_rejects_bad_known_ones() -> None:
    good = manifest("acme", "x", "1.0.0", b"p", extra_field={"kept": True})
    validate_manifest(good)
    bad = [("version", "1.0"), ("namespace", "A"), ("rank", 0), ("tags", [1])]
    # `$` in the schema's patterns is the end of the text, as JSON Schema means it
    bad += [("namespace", "acme\n"), ("name", "x\n"), ("version", "1.0.0\n")]
    for key, value in bad:
        with pytest.raises(ValidationError) as err:
            validate_manifest({**good, key: value})
        assert err.value.details["problems"][0]["path"].startswith(f"/{key}")


def test_manifest_model_round_trips_unknown_fields() -> None:
    doc = {**manifest("acme", "x", "v1.0.0", b"p"), "x_vendor": [1, {"a": None}]}
    m = AdapterManifest.model_validate(doc)
    assert m.to_dict()["x_vendor"] == [1, {"a": None}] and m.version == "1.0.0"
    with pytest.raises(ValueError):
        AdapterManifest.model_validate({**doc, "checksum_sha256": "ABC"})


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "f.safetensors"
    path.write_bytes(data)
    return path


def test_safetensors_checks(tmp_path: Path) -> None:
    assert check_safetensors(_write(tmp_path, safetensors(b"\x00" * 12))) == 1
    two = safetensors(
        b"\x00" * 10,
        header={
            "__metadata__": {"format": "pt"},
            "b": {"dtype": "F16", "shape": [3], "data_offsets": [4, 10]},
            "a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
        },
    )
    assert check_safetensors(_write(tmp_path, two)) == 2
    bad = {
        "2^63 header": struct.pack("<Q", 2**63) + b"{}",
        "header too big": struct.pack("<Q", 25_000_001) + b"{}",
        "short": b"\x01\x00",
        "dup keys": struct.pack("<Q", 2) + b"{}",
        "gap": safetensors(
            b"\x00" * 8, header={"a": {"dtype": "U8", "shape": [4], "data_offsets": [4, 8]}}
        ),
        "bad dtype": safetensors(
            b"\x00", header={"a": {"dtype": "X", "shape": [1], "data_offsets": [0, 1]}}
        ),
        "bool shape": safetensors(
            b"\x00", header={"a": {"dtype": "U8", "shape": [True], "data_offsets": [0, 1]}}
        ),
        "extra key": safetensors(
            b"\x00", header={"a": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1], "x": 1}}
        ),
        "trailing bytes": safetensors(b"\x00") + b"\x00",
    }
    raw = b'{"a": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1]}, "a": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1]}}'
    bad["dup keys"] = struct.pack("<Q", len(raw)) + raw + b"\x00"
    for case, data in bad.items():
        with pytest.raises(ValidationError, match="safetensors"):
            check_safetensors(_write(tmp_path, data))
        assert case


def test_tokens_never_show_their_secret() -> None:
    token = new_token()
    assert token.text not in repr(token)
    assert split_token(token.text) is not None
    assert split_token("pch_zz_" + "a" * 30) is None


def test_search_ranking_is_literal_and_stable() -> None:
    rows = [
        {"namespace": "b", "name": "react", "tags": [], "description": None},
        {"namespace": "a", "name": "react-x", "tags": ["react"], "description": None},
        {"namespace": "a", "name": "vue", "tags": [], "description": "not REACT"},
        {"namespace": "a", "name": "zz", "tags": [], "description": "50% off_"},
    ]
    assert [r["name"] for r in rank(rows, "React", ())] == ["react", "react-x", "vue"]
    assert [r["name"] for r in rank(rows, "%", ())] == ["zz"]
    assert [r["name"] for r in rank(rows, None, ["react"])] == ["react-x"]
    assert [r["name"] for r in rank(rows, None, (), 2)] == ["react-x", "vue"]


@pytest.mark.parametrize(
    "url",
    ["http://bob:s3cret@127.0.0.1:1", "http://127.0.0.1:1/?token=s3cret", "https://h.test/#s3cret"],
)
def test_a_hub_url_holding_a_credential_is_refused_without_echoing_it(url: str) -> None:
    from provcat.hub import RegistryClient

    with pytest.raises(ValidationError) as caught:
        RegistryClient(url)
    assert "user:password@" in str(caught.value) and "s3cret" not in str(caught.value)
    assert "--token" not in str(caught.value)  # Python code is told the keyword instead:
    assert ("token=..." in str(caught.value)) == ("@" in url)
