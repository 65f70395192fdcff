"""``provcat hub`` end to end: token, push, search, resolve, pull, rm, export-static."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from provcat.cli import main
from tests.hub.conftest import Live
from tests.hub.helpers import safetensors


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["hub", *args], env=env, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_cli_round_trip(live: Live, tmp_path: Path) -> None:
    where = live.hub.storage_args()
    code, out, err = run("token", "create", "--namespace", "acme", *where, "--format", "json")
    assert code == 0, err
    token = json.loads(out)["token"]
    assert token.startswith("pch_") and "not shown again" in err and token not in err
    code, out, _ = run("token", "list", *where, "--format", "json")
    assert token not in out and "acme" in out
    payload = tmp_path / "adapter.safetensors"
    payload.write_bytes(safetensors(b"\x09" * 100))
    manifest = tmp_path / "manifest.json"
    manifest.write_text(
        json.dumps(
            {
                "manifest_version": 2,
                "description": "React 19 reference.",
                "tags": ["react", "frontend"],
            }
        )
    )
    env = {
        "PROVCAT_HUB_URL": live.url,
        "PROVCAT_HUB_TOKEN": token,
        "PROVCAT_ADAPTERS_DIR": str(tmp_path / "store"),
    }
    code, out, err = run(
        "push", str(payload), "--manifest", str(manifest), "hub://acme/react-19:1.2.0", env=env
    )
    assert code == 0, err
    assert out.startswith("pushed acme__react-19__v1.2.0")
    code, out, _ = run("search", "react", "--tag", "frontend", "--format", "json", env=env)
    assert [r["adapter_id"] for r in json.loads(out)["results"]] == ["acme__react-19__v1.2.0"]
    code, out, _ = run("search", "react", env=env)
    assert out.strip() == "hub://acme/react-19:1.2.0  React 19 reference.  [react, frontend]"
    code, out, _ = run("resolve", "hub://acme/react-19", "--format", "json", env=env)
    assert json.loads(out)["version"] == "1.2.0"
    code, out, err = run("pull", "hub://acme/react-19", "--format", "json", env=env)
    assert code == 0, err
    pulled = json.loads(out)
    assert Path(pulled["path"]).read_bytes() == payload.read_bytes()
    assert pulled["adapter_id"] == "acme__react-19__v1.2.0"
    code, out, err = run(
        "push",
        str(payload),
        "hub://acme/react-19:1.2.1",
        env={**env, "PROVCAT_HUB_TOKEN": "pch_000000000000_" + "x" * 43},
    )
    assert code == 1 and "AuthenticationError" in err and "xxxxxxxx" not in err
    code, out, _ = run("rm", "hub://acme/react-19:1.2.0", env=env)
    assert code == 0 and out.strip() == "deleted hub://acme/react-19:1.2.0"
    code, out, _ = run("rm", "hub://acme/react-19:1.2.0", env=env)
    assert out.strip() == "hub://acme/react-19:1.2.0 was already gone"
    code, out, _ = run("rm", "hub://acme/react-19:1.2.0", "--format", "json", env=env)
    assert code == 0 and json.loads(out) == {"ref": "hub://acme/react-19:1.2.0", "deleted": False}
    code, _, err = run("pull", "hub://acme/react-19", env=env)
    assert code == 1 and err.startswith("provcat hub: AdapterNotFoundError:")
    code, out, err = run("export-static", str(tmp_path / "site"), *where, "--format", "json")
    assert code == 0, err
    assert json.loads(out)["versions"] == 0


def test_cli_usage_errors(tmp_path: Path) -> None:
    code, _, err = run("token", "create", "--data-dir", str(tmp_path))
    assert code == 2 and "--namespace" in err
    code, _, err = run("pull", "hub://Bad/x")
    assert code == 2 and "Invalid value for REF" in err and "'hub://Bad/x'" in err
    code, _, err = run("resolve", "acme/x:1.0.0")
    assert code == 2 and "hub://namespace/name[:version]" in err
    code, _, err = run("rm", "hub://acme/x")
    assert code == 2 and "rm needs a concrete version" in err
    payload = tmp_path / "p"
    payload.write_bytes(b"x")
    code, _, err = run("push", str(payload), "hub://acme/x")
    assert code == 2 and "concrete version" in err
    code, _, err = run("push", str(payload), "acme/x:1.0.0")
    assert code == 2 and "Invalid value for REF" in err
    # refused before anything starts (99999 used to start a server announcing that port)
    code, _, err = run("serve", "--data-dir", str(tmp_path), "--port", "99999")
    assert code == 2 and "'--port'" in err and "1<=x<=65535" in err
    code, _, err = run("serve", "--data-dir", str(tmp_path), "--log-level", "loud")
    assert code == 2 and "'loud' is not one of 'critical'" in err
    code, _, err = run("search", "--hub", "http://127.0.0.1:1")
    assert code == 1 and "RegistryUnavailableError" in err


def test_push_warns_about_a_misspelt_manifest_field_and_keeps_it(
    live: Live, tmp_path: Path
) -> None:
    # unknown fields are extensions (protocol): stored, but a near-miss of a v2 field is named
    payload = tmp_path / "adapter.safetensors"
    payload.write_bytes(safetensors())
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"rnak": 8, "x-team": "ml"}), encoding="utf-8")
    where = live.hub.storage_args()
    code, out, err = run("token", "create", "--namespace", "acme", *where, "--format", "json")
    assert code == 0, err
    env = {"PROVCAT_HUB_URL": live.url, "PROVCAT_HUB_TOKEN": json.loads(out)["token"]}
    code, out, err = run(
        "push", str(payload), "--manifest", str(manifest), "hub://acme/typo:1.0.0",
        "--format", "json", env=env,
    )  # fmt: skip
    assert code == 0, err
    assert "'rnak' is not a manifest v2 field (did you mean 'rank'?)" in err
    assert "x-team" not in err
    stored = json.loads(out)
    assert stored["rnak"] == 8 and stored.get("rank") is None


def test_token_revoke_takes_an_id_or_the_whole_token_and_never_echoes_a_secret(
    tmp_path: Path,
) -> None:
    where = ("--data-dir", str(tmp_path))
    code, out, err = run("token", "create", "--namespace", "acme", *where, "--format", "json")
    assert code == 0, err
    token = json.loads(out)["token"]
    secret = token.split("_", 2)[2]
    code, out, err = run("token", "revoke", token, *where)  # the whole token, pasted
    assert code == 0 and out == f"revoked {token[4:16]}\n"
    assert secret not in out + err
    code, out, err = run("token", "revoke", token, *where)  # already revoked
    assert code == 1 and f"no active token {token[4:16]}" in err and "token list" in err
    assert secret not in out + err
    code, out, err = run("token", "revoke", "pch_" + secret, *where)  # a mangled token
    assert code == 2 and "12 hex digits" in err and secret not in out + err
