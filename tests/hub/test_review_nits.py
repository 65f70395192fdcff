"""Found in review, each against a real hub on 127.0.0.1 (SQLite + files): the exit codes of
`token create` / `token revoke`, the sign-in's pasted token, the warning of a pull that replaced
an altered local copy, a bad `--manifest` file, and what a 413 and a 409 say."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from tests.hub.conftest import Hub, make_hub, served
from tests.hub.helpers import safetensors, sha256


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["hub", *args], env=env, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def small_hub(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Hub]:
    """A hub whose payload limit is 1000 bytes."""
    made = make_hub("sqlite", tmp_path / "hub-data", request, max_upload_bytes=1000)
    yield made
    made.storage.close()


def test_token_create_with_a_namespace_that_is_no_slug_is_a_usage_error(tmp_path: Path) -> None:
    where = ("--data-dir", str(tmp_path / "data"))
    code, out, err = run("token", "create", "--namespace", "../x", *where)
    assert code == 2 and out == "" and "Usage:" in err
    assert "--namespace" in err and "lower-kebab" in err and "'../x'" in err
    code, out, err = run("token", "create", "--namespace", "../x", *where, "--format", "json")
    body = json.loads(out)
    assert code == 2 and body["error"] == "UsageError" and "lower-kebab" in body["message"]
    code, out, _ = run("token", "list", *where, "--format", "json")
    assert code == 0 and json.loads(out)["tokens"] == []  # nothing was made


def test_revoking_a_token_already_revoked_says_so_and_exits_0_as_rm_does(tmp_path: Path) -> None:
    where = ("--data-dir", str(tmp_path / "data"))
    code, out, err = run("token", "create", "--namespace", "acme", *where, "--format", "json")
    assert code == 0, err
    token = json.loads(out)["token"]
    token_id = token[4:16]
    assert run("token", "revoke", token_id, *where)[0] == 0
    code, out, err = run("token", "revoke", token, *where)  # again, the whole token pasted
    assert code == 0 and out == f"token {token_id} was already revoked\n", err
    code, out, err = run("token", "revoke", token_id, *where, "--format", "json")
    assert code == 0 and json.loads(out) == {"token_id": token_id, "revoked": False}, err
    code, out, err = run("token", "revoke", "0123456789ab", *where)  # no such token: refused
    assert code == 1 and err.startswith("provcat hub: TokenNotFoundError: ")
    secret = token.split("_", 2)[2]
    assert all(secret not in text for text in (out, err))


def test_sign_in_takes_a_pasted_token_with_white_space_around_it(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Already so (the form handler strips it): kept that way."""
    hub = make_hub("sqlite", tmp_path / "hub-data", request, private_reads=True)
    try:
        with served(hub) as url:
            for pasted in (f"{hub.token} ", f"{hub.token}\n", f"\t{hub.token}\r\n"):
                with httpx.Client(base_url=url) as c:
                    r = c.post("/login", data={"token": pasted, "next": "/"})
                    assert r.status_code == 303, r.text
                    page = c.get("/", headers={"Accept": "text/html"})
                    assert page.status_code == 200 and "Sign out" in page.text
            with httpx.Client(base_url=url) as c:
                r = c.post("/login", data={"token": hub.token[:-1] + " ", "next": "/"})
                assert r.status_code == 401 and hub.token[:-1] not in r.text
    finally:
        hub.storage.close()


def test_pull_says_on_stderr_when_an_altered_local_copy_was_fetched_again(
    small_hub: Hub, tmp_path: Path
) -> None:
    payload = tmp_path / "adapter.safetensors"
    payload.write_bytes(safetensors(b"\x05" * 64))
    store = tmp_path / "store"
    with served(small_hub) as url:
        env = {
            "PROVCAT_HUB_URL": url,
            "PROVCAT_HUB_TOKEN": small_hub.token,
            "PROVCAT_ADAPTERS_DIR": str(store),
        }
        assert run("push", str(payload), "hub://acme/kept:1.0.0", env=env)[0] == 0
        code, out, err = run("pull", "hub://acme/kept:1.0.0", env=env)
        assert code == 0 and err == "", err
        local = store / "acme__kept__v1.0.0" / "adapter.safetensors"
        for fmt in ([], ["--format", "json"]):
            local.write_bytes(local.read_bytes() + b"x")  # altered on disk
            code, out, err = run("pull", "hub://acme/kept:1.0.0", *fmt, env=env)
            assert code == 0 and local.read_bytes() == payload.read_bytes()
            assert err == (
                "provcat hub: warning: the local copy of acme__kept__v1.0.0 did not match its "
                f"recorded digest (sha256 {sha256(payload.read_bytes())}); it was fetched again\n"
            )
            assert small_hub.token not in out + err
            if fmt:
                assert json.loads(out)["adapter_id"] == "acme__kept__v1.0.0"
        code, out, err = run("pull", "hub://acme/kept:1.0.0", env=env)  # intact: nothing said
        assert code == 0 and err == ""


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("missing.json", None, "No such file or directory"),
        ("a-folder", "dir", "Is a directory"),
        ("broken.json", b"{bad", "is not JSON"),
        ("latin1.json", b"\xff\xfe{}", "is not UTF-8 text"),
        ("list.json", b"[1, 2]", "holds JSON that is not an object"),
    ],
)
def test_a_bad_manifest_file_is_a_local_file_error_naming_the_path(
    small_hub: Hub, tmp_path: Path, name: str, content: bytes | str | None, problem: str
) -> None:
    payload = tmp_path / "adapter.safetensors"
    payload.write_bytes(safetensors())
    manifest = tmp_path / name
    if content == "dir":
        manifest.mkdir()
    elif isinstance(content, bytes):
        manifest.write_bytes(content)
    with served(small_hub) as url:
        env = {"PROVCAT_HUB_URL": url, "PROVCAT_HUB_TOKEN": small_hub.token}
        args = ("push", str(payload), "--manifest", str(manifest), "hub://acme/m:1.0.0")
        code, out, err = run(*args, env=env)
        assert code == 1 and out == "", err
        assert err.startswith("provcat hub: LocalFileError: ") and "Usage:" not in err
        assert str(manifest) in err and problem in err
        code, out, err = run(*args, "--format", "json", env=env)
        body = json.loads(out)
        assert code == 1 and body["error"] == "LocalFileError", err
        assert str(manifest) in body["message"] and problem in body["message"]
        assert small_hub.token not in out + err
        nothing = httpx.get(f"{url}/v1/adapters/acme/m/1.0.0")
        assert nothing.status_code == 404  # nothing was sent


def test_payload_too_large_names_the_limit_and_the_sizes(small_hub: Hub, tmp_path: Path) -> None:
    """A payload refused while it streams in is in tests/hub/test_cli.py
    (test_max_upload_bytes_counts_the_payload_not_the_request); one refused by its request's
    Content-Length also gives the request body's size."""
    huge = tmp_path / "huge.safetensors"  # past the framing room too: refused by Content-Length
    huge.write_bytes(safetensors(b"\x00" * (2 << 20)))
    size = huge.stat().st_size
    with served(small_hub) as url:
        env = {"PROVCAT_HUB_URL": url, "PROVCAT_HUB_TOKEN": small_hub.token}
        code, out, err = run(
            "push", str(huge), "hub://acme/over:1.0.0", "--format", "json", env=env
        )
        body = json.loads(out)
        assert code == 1 and body["error"] == "PayloadTooLargeError", err
        assert body["details"]["limit"] == 1000 and body["details"]["size"] == size
        length = body["details"]["body_bytes"]
        assert length > size
        assert f"its request body is {length} bytes" in body["message"]
        assert "at most 1000 bytes" in body["message"]
        assert body["message"].endswith(f"; the payload pushed is {size} bytes")
        assert small_hub.token not in out + err


def test_adapter_exists_says_whether_the_stored_bytes_are_the_same(
    small_hub: Hub, tmp_path: Path
) -> None:
    first, other = tmp_path / "first.safetensors", tmp_path / "other.safetensors"
    first.write_bytes(safetensors(b"\x01" * 32))
    other.write_bytes(safetensors(b"\x02" * 32))
    described = tmp_path / "manifest.json"
    described.write_text(json.dumps({"description": "another description"}))
    stored = sha256(first.read_bytes())
    with served(small_hub) as url:
        env = {"PROVCAT_HUB_URL": url, "PROVCAT_HUB_TOKEN": small_hub.token}
        ref = "hub://acme/fixed:1.0.0"
        assert run("push", str(first), ref, env=env)[0] == 0
        code, out, err = run("push", str(other), ref, "--format", "json", env=env)
        body = json.loads(out)
        assert code == 1 and body["error"] == "AdapterExistsError", err
        assert body["details"]["same_bytes"] is False
        assert body["details"]["stored_sha256"] == stored
        assert (
            f"other bytes (stored sha256 {stored}, pushed {sha256(other.read_bytes())})"
            in body["message"]
        )
        code, out, err = run(
            "push", str(first), "--manifest", str(described), ref, "--format", "json", env=env
        )
        body = json.loads(out)
        assert code == 1 and body["error"] == "AdapterExistsError", err
        assert body["details"]["same_bytes"] is True
        assert body["details"]["stored_sha256"] == stored
        assert body["details"]["fields"] == ["description"]
        assert (
            f"the same bytes (sha256 {stored}) but another manifest (description)"
            in body["message"]
        )
        code, _, err = run("push", str(other), ref, env=env)  # text mode: one line on stderr
        assert code == 1 and err.startswith("provcat hub: AdapterExistsError: ")
        assert "other bytes" in err and small_hub.token not in err
        raw = httpx.get(f"{url}/v1/adapters/acme/fixed/1.0.0")  # the stored version unchanged
        assert raw.json()["checksum_sha256"] == stored and "description" not in raw.json()
