"""``provcat hub`` end to end: token, push, search, resolve, pull, rm, export-static."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from tests.hub.conftest import Live, make_hub, served
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
    code, out, _ = run("token", "list", *where)  # a table for people: a header, a row per token
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "NAMESPACES", "STATE", "CREATED", "DESCRIPTION"]
    assert [token[4:16], "acme", "active"] in [line.split()[:3] for line in lines[2:]]
    assert token not in out
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
    code, out, _ = run("resolve", "hub://acme/react-19", env=env)
    lines = out.splitlines()
    assert lines[0] == "acme__react-19__v1.2.0"
    assert "  tags:         react, frontend" in lines
    assert "  license:      -" in lines  # the manifest gives none: "-", not a blank
    code, out, err = run("pull", "hub://acme/react-19", "--format", "json", env=env)
    assert code == 0, err
    pulled = json.loads(out)
    assert Path(pulled["path"]).read_bytes() == payload.read_bytes()
    assert pulled["adapter_id"] == "acme__react-19__v1.2.0"
    code, out, err = run("export-static", str(tmp_path / "one"), *where)
    assert code == 0, err
    size = payload.stat().st_size
    assert out.strip() == (
        f"exported 1 adapter (1 version, {size} payload bytes) to {tmp_path / 'one'}"
    )
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
    assert out.strip() == "hub://acme/react-19:1.2.0 was already deleted"
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
    assert code == 2 and "Invalid value for REF" in err and "not 'Bad'" in err
    # found by a new user: the whole REF was quoted, and a dotted pre-release not explained
    code, _, err = run("pull", "hub://acme/x:1.0.0-rc.1")
    assert code == 2 and "without dots), not '1.0.0-rc.1'" in err
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
    # found by a new user: the whole token with another secret revoked this one (by its id)
    other = token[:17] + ("A" if secret[0] != "A" else "B") + secret[1:]
    code, out, err = run("token", "revoke", other, *where, "--format", "json")
    assert code == 1 and "its secret does not match" in out and secret[1:] not in out + err
    # found by a new-user audit: the message said "the token <id>", which the hiding of secrets
    # took for a secret ("not the <redacted>"); the id is shown, the secret never
    assert json.loads(out)["message"] == (
        f"the token given is not the one with id {token[4:16]}: its secret does not match; "
        "give the id alone to revoke that one"
    )
    code, out, err = run("token", "revoke", other, *where)  # text mode: stderr
    assert code == 1 and out == "" and "<redacted>" not in err, err
    assert f"is not the one with id {token[4:16]}:" in err and secret[1:] not in err
    code, out, err = run("token", "list", *where, "--format", "json")
    assert [t["revoked_at"] for t in json.loads(out)["tokens"]] == [None]  # still active
    code, out, err = run("token", "revoke", token, *where)  # the whole token, pasted
    assert code == 0 and out == f"revoked {token[4:16]}\n"
    assert secret not in out + err
    code, out, err = run("token", "revoke", token, *where)  # already revoked: said, as rm does
    assert code == 0 and out == f"token {token[4:16]} was already revoked\n"
    assert secret not in out + err
    code, out, err = run("token", "revoke", "pch_" + secret, *where)  # a mangled token
    assert code == 2 and "12 hex digits" in err and secret not in out + err


def _json_error(out: str, err: str) -> dict[str, object]:
    """The one JSON object a failed command printed on stdout (nothing else there, no usage
    text on stderr)."""
    body = json.loads(out)
    assert set(body) == {"error", "message", "details"} and isinstance(body["details"], dict)
    assert "Usage:" not in err and "Traceback" not in err
    return body  # type: ignore[no-any-return]


# every hub command that takes --format, with arguments it would otherwise accept
JSON_COMMANDS = [
    ("token", "create", "--namespace", "acme"),
    ("token", "list"),
    ("token", "revoke", "0123456789ab"),
    ("search",),
    ("resolve", "hub://acme/x"),
    ("pull", "hub://acme/x"),
    ("rm", "hub://acme/x:1.0.0"),
    ("export-static", "site"),
]


@pytest.mark.parametrize("command", JSON_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_every_command_refuses_an_unknown_option_with_a_json_error(
    command: tuple[str, ...],
) -> None:
    for fmt in (["--format", "json"], ["--format=json"]):
        code, out, err = run(*command, "--bogus", *fmt)
        assert code == 2
        body = _json_error(out, err)
        assert body["error"] == "UsageError" and "--bogus" in str(body["message"])
    code, out, err = run(*command, "--bogus")  # text mode: click's usage text, as before
    assert code == 2 and out == "" and "Usage:" in err and "--bogus" in err


def test_usage_errors_are_json_objects_with_format_json(tmp_path: Path) -> None:
    cases = [
        (("pull", "hub://Bad/x"), "Invalid value for REF"),  # refused by the command
        (("search", "--limit", "0"), "'--limit'"),  # refused by click while parsing
        (("rm", "hub://acme/x"), "rm needs a concrete version"),
        (("token", "create", "--data-dir", str(tmp_path)), "--namespace"),
        (("nope",), "No such command 'nope'"),
    ]
    for args, expected in cases:
        code, out, err = run(*args, "--format", "json")
        body = _json_error(out, err)
        assert code == 2 and body["error"] == "UsageError", (args, body)
        assert expected in str(body["message"]), (args, body)
    # a later --format wins, as click reads it
    code, out, err = run("pull", "hub://Bad/x", "--format", "json", "--format", "text")
    assert code == 2 and out == "" and "Usage:" in err


def test_hub_errors_are_json_objects_without_the_token(tmp_path: Path) -> None:
    secret = "pch_0123456789ab_" + "s" * 43
    code, out, err = run(
        "resolve", "hub://acme/x", "--hub", "http://127.0.0.1:1", "--token", secret,
        "--format", "json",
    )  # fmt: skip
    body = _json_error(out, err)
    assert code == 1 and body["error"] == "RegistryUnavailableError"
    assert "http://127.0.0.1:1" in str(body["message"]) and secret not in out + err
    code, out, err = run("pull", secret, "--format", "json")  # a token pasted for the REF
    body = _json_error(out, err)
    assert code == 2 and body["error"] == "UsageError" and "<redacted>" in str(body["message"])
    assert secret[4:] not in out + err
    where = ("--data-dir", str(tmp_path / "data"))
    code, out, err = run("token", "revoke", "0123456789ab", *where, "--format", "json")
    body = _json_error(out, err)
    # found by a new-user audit: it said "no active token", but a revoked token's id is no
    # error (it says it was already revoked): this id is no token's at all
    assert code == 1 and body == {
        "error": "TokenNotFoundError",
        "message": "no token has the id 0123456789ab; `provcat hub token list` shows the ids",
        "details": {"token_id": "0123456789ab"},
    }
    code, out, err = run("token", "revoke", "0123456789ab", *where)  # text mode: stderr
    assert code == 1 and out == ""
    assert err.startswith("provcat hub: TokenNotFoundError: no token has the id 0123456789ab")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    code, out, err = run("token", "list", "--data-dir", str(blocker / "data"), "--format", "json")
    body = _json_error(out, err)
    assert code == 1 and body["error"] == "LocalFileError" and str(blocker) in str(body["message"])


def test_protocol_errors_from_a_live_hub_are_json_objects(live: Live, tmp_path: Path) -> None:
    env = {"PROVCAT_HUB_URL": live.url, "PROVCAT_ADAPTERS_DIR": str(tmp_path / "store")}
    code, out, err = run("pull", "hub://acme/missing:1.0.0", "--format", "json", env=env)
    body = _json_error(out, err)
    assert code == 1 and body["error"] == "AdapterNotFoundError"
    payload = tmp_path / "adapter.safetensors"
    payload.write_bytes(safetensors())
    forged = "pch_000000000000_" + "x" * 43
    code, out, err = run(
        "push", str(payload), "hub://acme/x:1.0.0", "--format", "json",
        env={**env, "PROVCAT_HUB_TOKEN": forged},
    )  # fmt: skip
    body = _json_error(out, err)
    assert code == 1 and body["error"] == "AuthenticationError" and forged not in out + err


TOKEN = "pch_0123456789ab_" + "S" * 43


@pytest.mark.parametrize(
    "args", [["pull", TOKEN], ["push", TOKEN, "hub://acme/q:1.0.0"], ["resolve", TOKEN]]
)
@pytest.mark.parametrize("fmt", [[], ["--format", "json"]])
def test_a_token_pasted_where_an_argument_goes_is_never_echoed(
    args: list[str], fmt: list[str]
) -> None:
    code, out, err = run(*args, *fmt)
    assert code == 2 and "<redacted>" in out + err
    assert "S" * 20 not in out + err
    # percent-encoded, as copied from a URL's query, too
    encoded = [a.replace("_", "%5F") if a == TOKEN else a for a in args]
    code, out, err = run(*encoded, *fmt)
    assert code == 2 and "<redacted>" in out + err
    assert "S" * 20 not in out + err
    # the environment's token is redacted too, whatever its shape
    secret = "not-shaped-like-a-token-42"
    code, out, err = run("pull", secret, *fmt, env={"PROVCAT_HUB_TOKEN": secret})
    assert code == 2 and secret not in out + err


def test_local_file_errors_are_named_in_text_mode_too(tmp_path: Path) -> None:
    plain = tmp_path / "plainfile"
    plain.write_text("not a folder")
    for args in (
        ["export-static", str(plain / "sub"), "--data-dir", str(tmp_path / "data")],
        ["sample", str(plain / "x.safetensors")],
        ["sample", str(plain / "deeper" / "x.safetensors")],
    ):
        code, out, err = run(*args)  # a raw OSError would escape CliRunner here
        assert code == 1 and out == "", err
        assert err.startswith("provcat hub: LocalFileError: ") and "Traceback" not in err
        assert str(plain) in err
        code, out, _ = run(*args, "--format", "json")
        assert code == 1 and json.loads(out)["error"] == "LocalFileError"


def test_sample_under_a_file_says_so_not_that_the_file_exists(tmp_path: Path) -> None:
    plain = tmp_path / "plainfile"
    plain.write_text("not a folder")
    code, _, err = run("sample", str(plain / "x.safetensors"))
    assert code == 1 and "Not a directory" in err and "not a directory" in err
    assert "--force" not in err and "exists" not in err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_sample_that_cannot_be_written_names_the_path_asked_for_not_a_temporary_file() -> None:
    # /proc takes no new file, whoever asks (root included)
    code, out, err = run("sample", "/proc/provcat-sample.safetensors")
    assert code == 1 and out == "" and "/proc/provcat-sample.safetensors" in err
    assert ".tmp" not in err and "Traceback" not in err
    code, out, _ = run("sample", "/proc/provcat-sample.safetensors", "--format", "json")
    report = json.loads(out)
    assert report["error"] == "LocalFileError" and ".tmp" not in report["message"]


def test_token_create_refuses_admin_with_a_namespace(tmp_path: Path) -> None:
    data = tmp_path / "data"
    code, _, err = run("token", "create", "--admin", "--namespace", "acme", "--data-dir", str(data))
    assert code == 2 and "--admin" in err and "--namespace" in err and "not both" in err
    assert not data.exists()  # refused before a token was made


def test_token_revoke_help_says_it_takes_an_id_or_the_whole_token() -> None:
    code, out, _ = run("token", "revoke", "--help")
    assert code == 0 and "whole token" in out


def test_rm_tells_already_deleted_from_never_existed(live: Live, tmp_path: Path) -> None:
    from provcat.hub import RegistryClient
    from provcat.hub.errors import AdapterNotFoundError

    payload = tmp_path / "adapter.safetensors"
    payload.write_bytes(safetensors(b"\x0a" * 10))
    with RegistryClient(live.url, live.hub.token, store=tmp_path / "store") as client:
        client.push(payload, {"namespace": "acme", "name": "kept", "version": "1.0.0"})
        client.push(payload, {"namespace": "acme", "name": "gone", "version": "1.0.0"})
        assert client.delete("hub://acme/gone:1.0.0") is True
        assert client.delete("hub://acme/gone:1.0.0") is False  # already deleted: no error
        with pytest.raises(AdapterNotFoundError):
            client.delete("hub://acme/nope:1.0.0")
        # a pull of the deleted version says it was deleted: before, only "no adapter"
        with pytest.raises(AdapterNotFoundError) as caught:
            client.pull("hub://acme/gone:1.0.0")
        assert "hub://acme/gone:1.0.0 was deleted" in str(caught.value)
        assert caught.value.details["deleted"] is True
    env = {"PROVCAT_HUB_URL": live.url, "PROVCAT_HUB_TOKEN": live.hub.token}
    code, out, err = run("rm", "hub://acme/gone:1.0.0", env=env)
    assert code == 0 and out.strip() == "hub://acme/gone:1.0.0 was already deleted", err
    code, out, err = run("rm", "hub://acme/kept:1.0.1", env=env)
    assert code == 1 and out == ""
    assert err.strip() == (
        "provcat hub: AdapterNotFoundError: no adapter hub://acme/kept:1.0.1; its versions: 1.0.0"
    )
    code, out, err = run("rm", "hub://acme/kep:1.0.0", "--format", "json", env=env)
    body = json.loads(out)
    assert code == 1 and body["error"] == "AdapterNotFoundError"
    assert body["details"]["deleted"] is False
    assert body["details"]["did_you_mean"] == ["hub://acme/kept"]


def _safetensors_of_size(size: int) -> bytes:
    return next(d for n in range(size) if len(d := safetensors(b"\x01" * n)) == size)


def test_max_upload_bytes_counts_the_payload_not_the_request(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """``--max-upload-bytes 1000``: a 792-byte sample goes through (its request body is larger),
    a payload of exactly 1000 bytes too, one of 1001 is refused with the limit in payload bytes."""
    hub = make_hub("sqlite", tmp_path / "hub-data", request, max_upload_bytes=1000)
    try:
        with served(hub) as url:
            env = {"PROVCAT_HUB_URL": url, "PROVCAT_HUB_TOKEN": hub.token}
            sample = tmp_path / "adapter.safetensors"
            assert run("sample", str(sample))[0] == 0 and sample.stat().st_size == 792
            code, out, err = run("push", str(sample), "hub://acme/small:0.1.0", env=env)
            assert code == 0 and out.startswith("pushed acme__small__v0.1.0"), err
            exact = tmp_path / "exact.safetensors"
            exact.write_bytes(_safetensors_of_size(1000))
            assert exact.stat().st_size == 1000
            code, out, err = run("push", str(exact), "hub://acme/exact:0.1.0", env=env)
            assert code == 0, err
            over = tmp_path / "over.safetensors"
            over.write_bytes(_safetensors_of_size(1001))
            code, out, err = run(
                "push", str(over), "hub://acme/over:0.1.0", "--format", "json", env=env
            )
            body = json.loads(out)
            assert code == 1 and body["error"] == "PayloadTooLargeError", err
            assert body["message"] == (
                "the payload is larger than this hub's limit of 1000 bytes; "
                "the payload pushed is 1001 bytes"
            )
            assert body["details"] == {"limit": 1000, "size": 1001}
    finally:
        hub.storage.close()


def test_push_json_says_whether_the_version_was_created(live: Live, tmp_path: Path) -> None:
    payload = tmp_path / "adapter.safetensors"
    payload.write_bytes(safetensors(b"\x0b" * 10))
    env = {"PROVCAT_HUB_URL": live.url, "PROVCAT_HUB_TOKEN": live.hub.token}
    args = ("push", str(payload), "hub://acme/twice:1.0.0", "--format", "json")
    code, out, err = run(*args, env=env)
    first = json.loads(out)
    assert code == 0 and first["created"] is True, err
    code, out, err = run(*args, env=env)
    again = json.loads(out)
    assert code == 0 and again["created"] is False, err
    # the manifest's fields stay where they were: created is the one key added
    code, out, _ = run("resolve", "hub://acme/twice:1.0.0", "--format", "json", env=env)
    stored = json.loads(out)
    assert {k: v for k, v in first.items() if k != "created"} == stored
    assert {k: v for k, v in again.items() if k != "created"} == stored


EVIL = "evil\rOVERWRITE\nsecond line\x1b[2J\x9b\u202e"


def test_text_output_escapes_control_characters_from_the_hub(live: Live, tmp_path: Path) -> None:
    """A description or tag can neither overwrite its line nor forge another in text output;
    JSON output keeps the values as the hub has them."""
    from provcat.hub import RegistryClient

    payload = tmp_path / "adapter.safetensors"
    payload.write_bytes(safetensors(b"\x0c" * 10))
    about = {
        "namespace": "acme",
        "name": "evil",
        "version": "1.0.0",
        "description": EVIL,
        "tags": ["a\rb", "c\td"],
        "license": "MIT\nforged: line",
    }
    with RegistryClient(live.url, live.hub.token, store=tmp_path / "store") as client:
        client.push(payload, about)
    env = {"PROVCAT_HUB_URL": live.url}
    escaped = "evil\\rOVERWRITE\\nsecond line\\x1b[2J\\x9b\\u202e"
    code, out, err = run("search", "evil", env=env)
    assert code == 0, err
    assert out == f"hub://acme/evil:1.0.0  {escaped}  [a\\rb, c\\td]\n"
    code, out, err = run("resolve", "hub://acme/evil:1.0.0", env=env)
    assert code == 0, err
    assert f"  description:  {escaped}\n" in out and "  license:      MIT\\nforged: line\n" in out
    assert "\r" not in out and "\x1b" not in out and "\x9b" not in out
    assert [line for line in out.splitlines() if line.startswith("forged")] == []
    code, out, _ = run("search", "evil", "--format", "json", env=env)
    assert json.loads(out)["results"][0]["description"] == EVIL
    code, out, _ = run("resolve", "hub://acme/evil:1.0.0", "--format", "json", env=env)
    assert json.loads(out)["description"] == EVIL


def test_an_error_message_from_a_hub_cannot_forge_lines(tmp_path: Path) -> None:
    import http.server
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *_: object) -> None:
            pass

        def do_GET(self) -> None:
            body = json.dumps(
                {"error": "AdapterNotFoundError", "message": EVIL, "details": {}}
            ).encode()
            self.send_response(404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        env = {"PROVCAT_HUB_URL": f"http://127.0.0.1:{server.server_address[1]}"}
        code, out, err = run("resolve", "hub://acme/x:1.0.0", env=env)
        assert code == 1 and out == ""
        assert err == (
            "provcat hub: AdapterNotFoundError: "
            "evil\\rOVERWRITE\\nsecond line\\x1b[2J\\x9b\\u202e\n"
        )
        code, out, _ = run("resolve", "hub://acme/x:1.0.0", "--format", "json", env=env)
        assert json.loads(out)["message"] == EVIL
    finally:
        server.shutdown()
        server.server_close()


def test_a_relative_xdg_data_home_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The XDG Base Directory spec: a relative $XDG_DATA_HOME is invalid and ignored, so the
    hub's data and the adapter store never land in the folder a command runs from."""
    from provcat.hub import LocalStore

    work = tmp_path / "work"
    work.mkdir()
    home = tmp_path / "home"
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", "relxdg")
    monkeypatch.delenv("PROVCAT_HUB_DATA_DIR", raising=False)
    monkeypatch.delenv("PROVCAT_ADAPTERS_DIR", raising=False)
    code, out, err = run("token", "list")
    assert code == 0 and out.strip() == "no tokens", err
    assert list(work.iterdir()) == []
    assert (home / ".local" / "share" / "provcat" / "hub" / "hub.sqlite3").is_file()
    assert LocalStore().root == home / ".local" / "share" / "provcat" / "adapters"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # an absolute one is used
    assert LocalStore().root == tmp_path / "xdg" / "provcat" / "adapters"


@pytest.mark.parametrize("secret", [TOKEN, "sk-proj-" + "K" * 40], ids=["hub-token", "api-key"])
def test_key_shaped_paths_are_redacted_in_what_commands_print(
    live: Live, tmp_path: Path, secret: str
) -> None:
    """Found by a tester: ``hub pull --store /tmp/<token>``, ``hub sample /tmp/<token>.x`` and
    ``hub export-static /tmp/<token>-site`` printed the token back, in text and in JSON. A path
    shaped like a key is shown ``<redacted>``, as the tool commands show theirs; the files are
    written where asked all the same."""
    adapter = tmp_path / f"{secret}.x"
    store = tmp_path / secret
    site = tmp_path / f"{secret}-site"
    env = {"PROVCAT_HUB_URL": live.url, "PROVCAT_HUB_TOKEN": live.hub.token}
    for fmt in ([], ["--format", "json"]):
        code, out, err = run("sample", str(adapter), "--force", *fmt)
        assert code == 0, err
        assert secret not in out + err and "<redacted>" in out, out
        if fmt:
            assert json.loads(out)["path"] == str(tmp_path / "<redacted>.x")
    assert adapter.is_file()
    code, _, err = run("push", str(adapter), "hub://acme/paths:1.0.0", env=env)
    assert code == 0, err
    for fmt in ([], ["--format", "json"]):
        code, out, err = run("pull", "hub://acme/paths:1.0.0", "--store", str(store), *fmt, env=env)
        assert code == 0, err
        assert secret not in out + err and "<redacted>" in out, out
    assert (store / "acme__paths__v1.0.0" / "adapter.safetensors").is_file()
    for fmt, out_dir in (([], site), (["--format", "json"], tmp_path / f"2-{secret}")):
        where = live.hub.storage_args()
        code, out, err = run("export-static", str(out_dir), *where, *fmt)
        assert code == 0, err
        assert secret not in out + err and "<redacted>" in out, out
        assert (out_dir / "v1" / "health").is_file()
    from tests.hub.services import serve

    served = serve(["--data-dir", str(tmp_path / f"data-{secret}")])
    served.stop()
    said = served.log.read_text()
    assert secret not in said and f"data in {tmp_path / 'data-<redacted>'}" in said, said
