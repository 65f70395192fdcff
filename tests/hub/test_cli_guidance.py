"""``provcat hub`` speaks to a person at a terminal: a sample adapter to try ``push`` with, token
errors that name ``PROVCAT_HUB_TOKEN`` and ``--token``, a data directory outside the work tree
(printed at start), "already published, unchanged" for an identical re-push, "did you mean" for
namespaces and names, and a missing extra named instead of a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.hub.safetensors import check_safetensors
from tests.hub.conftest import Live, make_hub
from tests.hub.services import serve

CLI = "from provcat.cli.main import main; main()"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["hub", *args], env=env, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _token(live: Live, namespace: str = "acme") -> str:
    code, out, err = run(
        "token", "create", "--namespace", namespace, *live.hub.storage_args(), "--format", "json"
    )
    assert code == 0, err
    return str(json.loads(out)["token"])


def test_sample_writes_a_valid_lora_safetensors_file(tmp_path: Path) -> None:
    from safetensors import safe_open  # the format's reference implementation

    path = tmp_path / "adapter.safetensors"
    code, out, err = run("sample", str(path), "--format", "json")
    assert code == 0, err
    made = json.loads(out)
    assert made["path"] == str(path) and made["size_bytes"] == path.stat().st_size
    check_safetensors(path)  # what the hub checks on push
    with safe_open(str(path), framework="numpy") as f:
        tensors = {key: f.get_tensor(key) for key in f.keys()}  # noqa: SIM118
        assert f.metadata() == {"format": "pt"}
    module = "base_model.model.model.layers.0.self_attn.q_proj"
    a, b = tensors[f"{module}.lora_A.weight"], tensors[f"{module}.lora_B.weight"]
    assert (a.shape, b.shape, str(a.dtype)) == ((4, 16), (16, 4), "float32")
    assert not b.any() and a.any()  # PEFT's initialisation: B zero, A not
    code, out, err = run("sample", str(path))  # never overwritten by surprise
    assert code == 2 and "exists" in err and "--force" in err
    code, out, _ = run("sample", str(path), "--rank", "8", "--force")
    assert code == 0 and out.startswith(f"wrote {path}") and "provcat hub push" in out
    with safe_open(str(path), framework="numpy") as f:
        assert f.get_tensor(f"{module}.lora_A.weight").shape == (8, 16)


def test_sample_defaults_to_adapter_safetensors_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run("sample")
    assert code == 0, err
    check_safetensors(tmp_path / "adapter.safetensors")


def test_token_errors_name_the_variable_and_the_option(live: Live, tmp_path: Path) -> None:
    payload = tmp_path / "adapter.safetensors"
    assert run("sample", str(payload))[0] == 0
    env = {"PROVCAT_HUB_URL": live.url, "PROVCAT_HUB_TOKEN": ""}
    code, out, err = run("push", str(payload), "hub://acme/x:1.0.0", env=env)
    assert code == 1 and err.startswith("provcat hub: AuthenticationError: this needs a token")
    assert "PROVCAT_HUB_TOKEN" in err and "--token" in err and "token create" in err
    assert "Authorization" not in err
    forged = "pch_000000000000_" + "x" * 43
    code, out, err = run(
        "rm", "hub://acme/x:1.0.0", "--format", "json", env={**env, "PROVCAT_HUB_TOKEN": forged}
    )
    body = json.loads(out)
    assert code == 1 and body["error"] == "AuthenticationError"
    assert "invalid or revoked" in body["message"] and "PROVCAT_HUB_TOKEN" in body["message"]
    assert "--token" in body["message"] and forged not in out + err


def test_identical_re_push_says_already_published(live: Live, tmp_path: Path) -> None:
    payload = tmp_path / "adapter.safetensors"
    assert run("sample", str(payload))[0] == 0
    env = {"PROVCAT_HUB_URL": live.url, "PROVCAT_HUB_TOKEN": _token(live)}
    code, out, err = run("push", str(payload), "hub://acme/sample:0.1.0", env=env)
    assert code == 0 and out.startswith("pushed acme__sample__v0.1.0"), err
    code, out, err = run("push", str(payload), "hub://acme/sample:0.1.0", env=env)
    assert code == 0, err
    assert out.startswith("already published, unchanged: acme__sample__v0.1.0 (sha256 ")
    assert run("sample", str(payload), "--rank", "2", "--force")[0] == 0  # other bytes
    code, out, err = run("push", str(payload), "hub://acme/sample:0.1.0", env=env)
    assert code == 1 and "AdapterExistsError" in err and "other content" in err


def test_not_found_suggests_the_closest_namespaces_and_names(live: Live, tmp_path: Path) -> None:
    payload = tmp_path / "adapter.safetensors"
    assert run("sample", str(payload))[0] == 0
    env = {
        "PROVCAT_HUB_URL": live.url,
        "PROVCAT_HUB_TOKEN": _token(live),
        "PROVCAT_ADAPTERS_DIR": str(tmp_path / "store"),
    }
    for ref in ("hub://acme/react-19:1.2.0", "hub://acme/vue:1.0.0"):
        assert run("push", str(payload), ref, env=env)[0] == 0
    code, _, err = run("pull", "hub://acme/react-2", env=env)
    assert code == 1 and "did you mean hub://acme/react-19?" in err
    code, _, err = run("pull", "hub://acm/react-19", env=env)
    assert code == 1 and "did you mean hub://acme/react-19?" in err
    code, out, _ = run("resolve", "hub://acme/react-19:1.3.0", "--format", "json", env=env)
    body = json.loads(out)
    assert code == 1 and body["details"]["available_versions"] == ["1.2.0"]
    assert "its versions: 1.2.0" in body["message"]
    code, _, err = run("pull", "hub://globex/nothing-like-it", env=env)
    assert code == 1 and "did you mean" not in err


def test_suggestions_stay_within_what_a_private_reader_may_see(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    from provcat.hub.storage.sql import SqlMetadata

    hub = make_hub("sqlite", tmp_path / "hub-data", request, private_reads=True)
    try:
        assert isinstance(hub.storage.metadata, SqlMetadata)
        for namespace, token in (("globex", hub.other_token), ("acme", hub.token)):
            _push_direct(hub, namespace, "sql", token)
        assert hub.storage.suggest("acme", "sq", ("acme",)) == [("acme", "sql")]
        assert hub.storage.suggest("acm", "sql", ("globex",)) == []  # acme is not visible
        assert hub.storage.suggest("acm", "sql", None) == [("acme", "sql")]
    finally:
        hub.storage.close()


def _push_direct(hub: object, namespace: str, name: str, token: str) -> None:
    import anyio

    from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors

    payload = safetensors(name.encode() * 4)
    body = push_body(manifest(namespace, name, "1.0.0", payload), payload)

    async def go() -> None:
        async with hub.client() as c:  # type: ignore[attr-defined]
            r = await c.post("/v1/adapters", content=body, headers=multipart_headers(token))
            assert r.status_code == 201, r.text

    anyio.run(go)


def test_serve_keeps_its_data_outside_the_work_tree_and_says_where(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "clone"
    home.mkdir()
    work.mkdir()
    env = {"HOME": str(home), "XDG_DATA_HOME": ""}
    server = serve([], env=env, cwd=work)
    try:
        token = subprocess.run(
            [sys.executable, "-c", CLI, "hub", "token", "create", "--admin"],
            env={**os.environ, **env},
            cwd=work,
            capture_output=True,
            text=True,
            check=True,
        )
        assert token.stdout.startswith("pch_")  # the same default: the server's database
    finally:
        server.stop()
    expected = home / ".local" / "share" / "provcat" / "hub"
    assert f"provcat hub: data in {expected}\n" in server.log.read_text()
    assert (expected / "hub.sqlite3").is_file()
    assert list(work.iterdir()) == []  # nothing written into the clone


def test_a_missing_extra_is_named_not_a_traceback(tmp_path: Path) -> None:
    # the hub extra's packages made unimportable, as in a base install
    code = (
        "import sys\n"
        "for name in sys.argv[1].split(','):\n"
        "    sys.modules[name] = None\n"
        "from provcat.cli.main import main\n"
        "main(['hub', *sys.argv[2:]], 'provcat')\n"
    )
    data = str(tmp_path / "data")
    cases = [
        ("uvicorn,fastapi", ["serve", "--data-dir", data], False),
        ("sqlalchemy", ["token", "list", "--data-dir", data, "--format", "json"], True),
    ]
    for blocked, args, as_json in cases:
        done = subprocess.run(
            [sys.executable, "-c", code, blocked, *args],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        if as_json:
            body = json.loads(done.stdout)
            assert body["error"] == "MissingDependencyError" and body["details"]["extra"] == "hub"
            message = body["message"]
        else:
            assert done.stderr.startswith("provcat hub: MissingDependencyError: ")
            message = done.stderr
        assert "needs the package" in message
        # this checkout runs as make installs it, editable: the fix keeps it so
        assert "pip install -e '.[hub]' in your provcat clone, which keeps its editable" in message


def _peft_file(path: Path, ranks: dict[str, int]) -> Path:
    """A LoRA adapter as PEFT saves one, written by the safetensors reference library."""
    import numpy as np
    from safetensors.numpy import save_file

    tensors = {}
    for module, rank in ranks.items():
        prefix = f"base_model.model.model.layers.0.self_attn.{module}"
        tensors[f"{prefix}.lora_A.weight"] = np.ones((rank, 32), dtype=np.float32)
        tensors[f"{prefix}.lora_B.weight"] = np.zeros((32, rank), dtype=np.float32)
    save_file(tensors, str(path))
    return path


def test_push_reads_rank_and_target_modules_from_the_payload(live: Live, tmp_path: Path) -> None:
    env = {"PROVCAT_HUB_URL": live.url, "PROVCAT_HUB_TOKEN": _token(live)}
    payload = _peft_file(tmp_path / "a.safetensors", {"q_proj": 8, "v_proj": 8})
    code, out, err = run("push", str(payload), "hub://acme/lora:1.0.0", "--format", "json", env=env)
    assert code == 0, err
    manifest = json.loads(out)
    assert (manifest["rank"], manifest["target_modules"]) == (8, ["q_proj", "v_proj"])
    page = httpx.get(f"{live.url}/a/acme/lora").text  # the usage box fills PEFT's LoraConfig
    assert "LoraConfig(r=8, target_modules=[&#39;q_proj&#39;, &#39;v_proj&#39;])" in page
    # what the manifest states wins; a per-module rank is not one rank
    given = tmp_path / "manifest.json"
    given.write_text(json.dumps({"rank": 16}), encoding="utf-8")
    code, out, err = run(
        "push",
        str(payload),
        "hub://acme/lora:1.1.0",
        "--manifest",
        str(given),
        "--format",
        "json",
        env=env,
    )
    assert code == 0, err
    assert (json.loads(out)["rank"], json.loads(out)["target_modules"]) == (
        16,
        ["q_proj", "v_proj"],
    )
    mixed = _peft_file(tmp_path / "m.safetensors", {"q_proj": 4, "k_proj": 8})
    code, out, err = run("push", str(mixed), "hub://acme/mixed:1.0.0", "--format", "json", env=env)
    assert code == 0, err
    assert json.loads(out).get("rank") is None
    assert json.loads(out)["target_modules"] == ["k_proj", "q_proj"]


@pytest.mark.parametrize(
    "public_url",
    [
        "http://admin:hunter2@127.0.0.1:18087/x",
        "http://127.0.0.1:18087/x?y",
        "http://127.0.0.1:18087/x#z",
        "http://admin:hunter2@127.0.0.1:18087/x?y#z",
        "http://@127.0.0.1:18087/x",  # an empty user: still a credential part
    ],
)
def test_serve_refuses_a_public_url_with_a_password_query_or_fragment(
    tmp_path: Path, public_url: str
) -> None:
    import socket

    data = tmp_path / "data"
    with socket.socket() as busy:  # should the URL pass, serve fails on the port, not hangs
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        code, out, err = run(
            "serve", "--data-dir", str(data), "--port", port, "--public-url", public_url
        )
    assert code == 2 and "--public-url" in out + err
    assert "user:password@" in out + err and "?query" in out + err
    assert "hunter2" not in out + err and "serving" not in out + err
    assert not data.exists()  # refused before anything was opened


def test_a_public_url_with_a_port_out_of_range_is_refused(tmp_path: Path) -> None:
    code, out, err = run(
        "serve", "--data-dir", str(tmp_path / "d"), "--public-url", "http://hub.example:99999"
    )
    assert code == 2 and "port must be 1 to 65535" in out + err and "serving" not in out + err


def test_serve_on_a_busy_port_or_an_unknown_host_says_what_to_change(tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        for extra, advice in (
            (["--port", port], "give another --port"),
            (["--port", port, "--workers", "2"], "give another --port"),
            (["--host", "no-such-host.invalid", "--public-url", "http://x:1"], "--host"),
        ):
            done = subprocess.run(
                [sys.executable, "-c", CLI, "hub", "serve", "--data-dir", str(tmp_path), *extra],
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode == 1, done.stderr
            assert done.stderr.startswith("provcat hub: RegistryUnavailableError: cannot listen")
            assert advice in done.stderr and "serving on" not in done.stderr
            assert "Traceback" not in done.stderr and "ERROR" not in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["token", "list", "--data-dir", "data"],
        ["sample", "sample.safetensors"],
        ["sample", "json.safetensors", "--format", "json"],
    ],
)
def test_a_closed_stdout_exits_quietly_as_every_command_does(
    args: list[str], tmp_path: Path
) -> None:
    """Found by a tester: with the reader of stdout gone, `hub token list` and `hub sample`
    printed `LocalFileError: Broken pipe; check the path and its permissions` (as `provcat
    models` does, a broken pipe is click's: exit 1 with nothing on stderr)."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written
    try:
        done = subprocess.run(
            [sys.executable, "-c", CLI, "hub", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 1
    assert done.stderr == ""


@pytest.mark.parametrize(
    ("hub", "said"),
    [
        ("127.0.0.1:18080", "did you mean http://127.0.0.1:18080?"),
        ("localhost:18080/prefix", "did you mean http://localhost:18080/prefix?"),
        ("htp://127.0.0.1:18080", "must be an http:// or https:// URL"),
    ],
)
def test_a_hub_url_without_its_scheme_says_the_url_meant(hub: str, said: str) -> None:
    """Found by a new user: `--hub 127.0.0.1:18080` was told to give the token with --token,
    and not the URL it meant. Found by a new-user audit: it exited 1 as a ValidationError,
    where every other refused command line is a usage error (exit 2, as the docs' table says);
    from PROVCAT_HUB_URL too."""
    code, out, err = run("search", "--hub", hub, "hello")
    assert code == 2 and said in out + err and "'--hub' / PROVCAT_HUB_URL" in err
    assert "--token" not in out + err and "ValidationError" not in out + err
    code, out, err = run("pull", "hub://acme/hello", env={"PROVCAT_HUB_URL": hub})
    assert code == 2 and said in err, err
    code, out, err = run("pull", "hub://acme/hello", "--hub", hub, "--format", "json")
    body = json.loads(out)
    assert code == 2 and body["error"] == "UsageError" and said in str(body["message"])


def test_a_hub_url_with_a_password_is_a_usage_error_that_never_repeats_it() -> None:
    for hub in ("http://user:s3cr3t-pw@127.0.0.1:18080", "http://127.0.0.1:18080/?key=s3cr3t-pw"):
        code, out, err = run("resolve", "hub://acme/hello", "--hub", hub)
        assert code == 2 and "without user:password@" in err and "s3cr3t" not in out + err


def test_serve_names_its_public_url_only_where_it_differs_from_where_it_listens(
    tmp_path: Path,
) -> None:
    from tests.hub.services import serve

    served = serve(["--data-dir", str(tmp_path / "one")])
    served.stop()
    assert f"provcat hub: serving on {served.url} (1 process" in served.log.read_text()
    public = "https://hub.example.test"
    served = serve(["--data-dir", str(tmp_path / "two"), "--public-url", public])
    served.stop()
    assert f"provcat hub: serving on {served.url} as {public} (1 process" in served.log.read_text()
