"""`provcat tool check|compile|matrix|diff|probe`: inputs, outputs and exit codes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.toolschema import compile_tool
from tests.conftest import tree_bytes
from tests.toolschema.conftest import FIXTURES, TARGETS


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["tool", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _write(folder: Path, name: str, value: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


@pytest.fixture
def tools(tmp_path: Path) -> Path:
    folder = tmp_path / "tools"
    _write(folder, "refund.json", FIXTURES["refund_order"])
    _write(folder / "nested", "many.json", {"tools": [FIXTURES["ping"], FIXTURES["set_limit"]]})
    _write(folder, "list.json", [FIXTURES["tag_resource"]])
    _write(folder / ".hidden", "skip.json", {"not": "a tool"})
    _write(folder / "node_modules", "skip.json", {"not": "a tool"})
    return folder


def test_check_json_and_fail_on(tools: Path) -> None:
    code, out, _ = _run("check", str(tools), "--targets", "mcp", "--format", "json")
    assert code == 0
    payload = json.loads(out)
    assert [t["name"] for t in payload["tools"]] == [
        "ping",
        "refund_order",
        "set_limit",
        "tag_resource",
    ]
    assert payload["summary"]["tools"] == 4
    code, _, _ = _run("check", str(tools), "--targets", "anthropic")
    assert code == 0  # warnings and infos only
    code, _, _ = _run("check", str(tools), "--targets", "anthropic", "--fail-on", "warning")
    assert code == 1
    code, _, _ = _run("check", str(tools), "--targets", "openai")
    assert code == 1
    code, _, _ = _run("check", str(tools), "--targets", "openai", "--fail-on", "never")
    assert code == 0


def test_check_all_and_unknown_targets(tools: Path) -> None:
    code, out, _ = _run("check", str(tools), "--targets", "all", "--format", "json")
    assert code == 1
    assert sorted(json.loads(out)["tools"][0]["targets"]) == sorted(TARGETS)
    code, _, err = _run("check", str(tools), "--targets", "nope")
    assert code == 2 and "unknown tool-schema target" in err
    code, _, err = _run("check", str(tools), "--targets", "OpenAI")
    assert code == 2 and "did you mean 'openai'?" in err
    code, _, err = _run("check", str(tools), "--targets", " , ")  # not "all" by accident
    assert code == 2 and "--targets is empty" in err


@pytest.mark.parametrize("command", ["check", "compile"])
def test_an_empty_provider_or_endpoint_is_a_usage_error(tools: Path, command: str) -> None:
    """An unset `$PROVIDER` in a CI script (`--provider "$PROVIDER"`): before, the empty value
    was read as no --provider, every target was checked, and the verdict was the wrong one."""
    code, out, _ = _run(command, str(tools), "--provider", "", "--format", "json")
    assert code == 2
    assert json.loads(out)["error"] == "UsageError" and "--provider is empty" in out
    code, _, err = _run(command, str(tools), "--provider", "openai", "--endpoint", " ")
    assert code == 2 and "--endpoint is empty" in err


def test_a_path_the_file_system_refuses_is_an_input_error(tools: Path, tmp_path: Path) -> None:
    """A name longer than the file system allows: before, a traceback (text) or InternalError,
    exit 1, which a CI gate reads as findings."""
    too_long = str(tmp_path / ("b" * 300))
    code, out, _ = _run("check", too_long, "--format", "json")
    assert code == 2
    payload = json.loads(out)
    assert payload["error"] == "InputError" and "File name too long" in payload["message"]
    code, _, err = _run("check", str(tools), too_long)
    assert code == 2 and "cannot read it" in err


def test_compile_writes_files_and_manifest(tools: Path, tmp_path: Path) -> None:
    out = tmp_path / "build"
    code, _, _ = _run("compile", str(tools), "--out", str(out), "--targets", "openai,gemini")
    assert code == 1  # tag_resource is refused for both
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.json")) == [
        "gemini/ping.json",
        "gemini/refund-order.json",
        "gemini/set-limit.json",
        "manifest.json",
        "openai/ping.json",
        "openai/refund-order.json",
        "openai/set-limit.json",
    ]
    text = (out / "openai" / "refund-order.json").read_text(encoding="utf-8")
    assert text.endswith("}\n") and text.startswith('{\n  "type": "function"')
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["targets"] == ["gemini", "openai"]
    refund = next(t for t in manifest["tools"] if t["name"] == "refund_order")
    assert refund["source"].endswith("tools/refund.json")
    assert (
        refund["targets"]["openai"]["warnings"][0]["code"] == "openai/nullable-instead-of-omitted"
    )
    assert "tag_resource" not in {t["name"] for t in manifest["tools"]}
    first = tree_bytes(out)
    code, _, _ = _run(
        "compile", str(tools), "--out", str(out), "--targets", "openai,gemini", "--allow-lossy"
    )
    assert code == 0
    assert (out / "openai" / "tag-resource.json").is_file()
    assert tree_bytes(out)["openai/refund-order.json"] == first["openai/refund-order.json"]


def _closed(name: str, prop: str) -> dict[str, Any]:
    schema = {"type": "object", "properties": {prop: {"type": "string"}}, "required": [prop]}
    return {
        "name": name,
        "description": "d",
        "inputSchema": schema | {"additionalProperties": False},
    }


def test_compile_refuses_two_tools_written_to_one_file(tmp_path: Path) -> None:
    """`get_user`, `get-user` and `Get_User` are distinct tool names (all valid for OpenAI); as
    files they are one (`_` is written `-`; macOS and Windows ignore case): the second would
    overwrite the first. Nothing is written, and the error names both tools."""
    path = _write(
        tmp_path, "t.json", [_closed("get_user", "a"), _closed("get-user", "b"), _closed("x", "c")]
    )
    out = tmp_path / "out"
    code, _, err = _run("compile", str(path), "--targets", "openai", "--out", str(out))
    assert code == 2 and not out.exists()
    assert "tools 'get-user' and 'get_user' would both be written to openai/get-user.json" in err
    cased = _write(tmp_path, "c.json", [_closed("Get_User", "a"), _closed("get_user", "b")])
    code, _, err = _run("compile", str(cased), "--targets", "openai", "--out", str(out))
    assert code == 2 and not out.exists() and "'Get_User' and 'get_user'" in err
    nfc, nfd = "caf\u00e9", "cafe\u0301"  # one name to macOS's file system
    composed = _write(tmp_path, "u.json", [_closed(nfc, "a"), _closed(nfd, "b")])
    code, _, err = _run("compile", str(composed), "--targets", "mcp", "--out", str(out))
    assert code == 2 and not out.exists() and "would both be written" in err


def test_a_tool_name_never_writes_outside_the_output_folder(tmp_path: Path) -> None:
    """MCP names may hold `/` (`mcp` warns and compiles): a name is a file name inside its
    target's folder, whatever it holds."""
    names = ["../../escaped", "a/b", "c\\d", "名前", ".hidden"]
    path = _write(tmp_path, "t.json", [_closed(n, "a") for n in names])
    out = tmp_path / "deep" / "out"
    code, _, _ = _run("compile", str(path), "--targets", "mcp", "--out", str(out))
    assert code == 0
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.json"))
    assert written == [
        "deep/out/manifest.json",
        "deep/out/mcp/%2E.%2F..%2Fescaped.json",
        "deep/out/mcp/%2Ehidden.json",
        "deep/out/mcp/a%2Fb.json",
        "deep/out/mcp/c%5Cd.json",
        "deep/out/mcp/名前.json",
        "t.json",
    ]


def test_compile_without_out_prints_the_manifest_and_writes_nothing(
    tools: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first try needs no folder: the manifest manifest.json would hold goes to stdout (so it
    can be piped), refusals and the tally to stderr, with the exit code --out gives."""
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)  # sources are named from here, by both runs
    out = tmp_path / "build"
    code, _, _ = _run("compile", str(tools), "--out", str(out), "--targets", "openai,gemini")
    written = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    printed_code, printed, err = _run("compile", str(tools), "--targets", "openai,gemini")
    assert printed_code == code == 1  # tag_resource refused, as with --out
    assert json.loads(printed) == written
    assert "tag_resource [openai] refused: core/lossy-transformation-refused" in err
    assert "compiled 6 tool outputs; 2 refused." in err
    assert list(work.iterdir()) == []
    refund = next(t for t in written["tools"] if t["name"] == "refund_order")
    assert refund["targets"]["openai"]["output"] == json.loads(
        (out / "openai" / "refund-order.json").read_text(encoding="utf-8")
    )
    code, printed, _ = _run("compile", str(tools), "--targets", "openai", "--format", "json")
    report = json.loads(printed)
    assert code == 1 and report["written"] == []
    assert [r["name"] for r in report["refused"]] == ["tag_resource"]
    assert [t["name"] for t in report["manifest"]["tools"]] == ["ping", "refund_order", "set_limit"]
    assert list(work.iterdir()) == []


def test_compile_by_provider(tools: Path, tmp_path: Path) -> None:
    out = tmp_path / "groq"
    code, _, _ = _run("compile", str(tools), "--provider", "groq", "--out", str(out))
    assert code == 1
    body = json.loads((out / "openai-chat" / "refund-order.json").read_text(encoding="utf-8"))
    assert body["type"] == "function" and body["function"]["name"] == "refund_order"
    code, _, err = _run("compile", str(tools), "--provider", "nope", "--out", str(out))
    assert code == 2 and "unknown provider" in err


def test_compile_for_an_endpoint_with_its_own_target(tools: Path, tmp_path: Path) -> None:
    """xAI's responses endpoint is Responses-shaped: in xAI's OpenAPI spec (POST /v1/responses,
    ModelRequest) a function is named at the top level of its object ({"type": "function",
    "name": ...}, as ModelToolChoice and FunctionToolCall show), as in OpenAI's Responses API; its
    chat endpoint takes Chat Completions' nested "function" object."""
    out = tmp_path / "xai"
    code, _, _ = _run(
        "compile", str(tools), "--provider", "xai", "--endpoint", "response", "--out", str(out)
    )
    assert code == 1  # a lossy tool is refused, as for any target
    body = json.loads((out / "openai" / "refund-order.json").read_text(encoding="utf-8"))
    assert body["type"] == "function" and body["name"] == "refund_order"
    assert "function" not in body
    chat = tmp_path / "xai-chat"
    _run("compile", str(tools), "--provider", "xai", "--endpoint", "chat", "--out", str(chat))
    body = json.loads((chat / "openai-chat" / "refund-order.json").read_text(encoding="utf-8"))
    assert body["function"]["name"] == "refund_order"
    never = tmp_path / "never"
    code, _, err = _run(
        "compile", str(tools), "--provider", "xai", "--endpoint", "respnses", "--out", str(never)
    )
    assert code == 2 and "did you mean 'responses'?" in err and not never.exists()
    code, _, err = _run("compile", str(tools), "--endpoint", "responses", "--out", str(never))
    assert code == 2 and "--endpoint needs --provider" in err and not never.exists()


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"\xff\xfe\x00",
        b'{"name": "x"}',
        b'{"name": "x", "inputSchema": {"type": "object", "required": ["nope"]}}',
        b'{"name": "", "inputSchema": {"type": "object"}}',  # no file can be named by it
    ],
)
def test_bad_files_exit_2_and_write_nothing(tools: Path, tmp_path: Path, content: bytes) -> None:
    (tools / "bad.json").write_bytes(content)
    out = tmp_path / "never"
    code, _, err = _run("compile", str(tools), "--out", str(out))
    assert code == 2 and "bad.json" in err
    assert not out.exists()


def test_duplicate_names_across_files_exit_2(tools: Path, tmp_path: Path) -> None:
    _write(tools / "again", "refund.json", FIXTURES["refund_order"])
    out = tmp_path / "never"
    code, _, err = _run("compile", str(tools), "--out", str(out), "--format", "text")
    assert code == 2 and "already used" in err
    assert not out.exists()
    code, out_text, _ = _run("check", str(tools), "--format", "json")
    assert code == 2 and json.loads(out_text)["errors"][0]["message"].startswith("tool name")


def test_missing_path_and_unreadable_file(tmp_path: Path) -> None:
    code, _, err = _run("check", str(tmp_path / "nope.json"))
    # a path outside the working folder is named as given, not as ../../tmp/...
    assert code == 2 and f"{tmp_path / 'nope.json'}: no such file or directory" in err
    code, _, err = _run("check", os.devnull)  # it exists: it is no file a tool can be in
    assert code == 2 and f"{os.devnull}: not a file or a folder" in err
    folder = tmp_path / "t"
    _write(folder, "a.json", FIXTURES["ping"])
    (folder / "broken.json").symlink_to(tmp_path / "missing-target.json")
    code, _, err = _run("check", str(folder))
    assert code == 2 and "broken.json" in err and "cannot read" in err


def test_matrix(tools: Path) -> None:
    code, out, _ = _run("matrix", str(tools), "--targets", "mcp,openai")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["tool", "mcp", "openai"]
    assert lines[-1] == "Clean: MCP 4/4 · OpenAI 0/4"
    assert lines[-2] == "Worst finding: ✓ none · i info · ! warning · ✗ error"  # the symbols
    code, out, _ = _run("matrix", str(tools), "--format", "json", "--targets", "mcp")
    assert json.loads(out)["tools"][0] == {"name": "ping", "targets": {"mcp": "clean"}}


def test_diff(tmp_path: Path) -> None:
    old = _write(tmp_path / "old", "a.json", [FIXTURES["refund_order"], FIXTURES["ping"]])
    changed = json.loads(json.dumps(FIXTURES["refund_order"]))
    changed["inputSchema"]["properties"]["orderId"]["minLength"] = 1
    new = _write(tmp_path / "new", "a.json", [changed])
    code, out, _ = _run("diff", str(old), str(new), "--targets", "openai", "--format", "json")
    assert code == 1
    kinds = {(c["tool"], c["kind"]) for c in json.loads(out)["changes"]}
    assert ("ping", "removed") in kinds and ("refund_order", "regressed") in kinds
    code, _, _ = _run("diff", str(old), str(old), "--targets", "openai")
    assert code == 0
    code, _, _ = _run("diff", str(old), str(new), "--fail-on", "never")
    assert code == 0
    kept = _write(tmp_path / "kept", "a.json", [FIXTURES["refund_order"]])
    code, out, _ = _run("diff", str(old), str(kept), "--targets", "openai")
    assert out.splitlines()[-1] == "1 change, 1 breaking."  # ping removed


@pytest.mark.parametrize("command", ["check", "compile", "matrix", "probe"])
def test_paths_holding_no_tool_are_an_input_error(command: str, tmp_path: Path) -> None:
    """A wrong path must not pass a CI check by finding nothing to check."""
    empty = tmp_path / "empty"
    empty.mkdir()
    listed = _write(tmp_path / "listed", "none.json", {"tools": []})
    out = tmp_path / "out"
    extra = ["--out", str(out)] if command == "compile" else []
    for where in (empty, listed):
        code, _, err = _run(command, str(where), "--targets", "mcp", *extra)
        assert code == 2, err
        assert f"{where}: no tools found" in err and "nothing was processed" in err
    assert not out.exists()


def test_diff_from_or_to_no_tools(tmp_path: Path) -> None:
    """A side of a diff may hold no tools: every tool added, or every tool removed."""
    empty = tmp_path / "empty"
    empty.mkdir()
    tools = _write(tmp_path / "tools", "a.json", [FIXTURES["ping"]])
    code, out, _ = _run("diff", str(empty), str(tools), "--targets", "mcp", "--format", "json")
    assert code == 0
    assert [(c["tool"], c["kind"]) for c in json.loads(out)["changes"]] == [("ping", "added")]
    code, out, _ = _run("diff", str(tools), str(empty), "--targets", "mcp", "--format", "json")
    assert code == 1  # a removed tool breaks its callers
    assert [(c["tool"], c["kind"]) for c in json.loads(out)["changes"]] == [("ping", "removed")]


def test_probe_exit_codes(tools: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    one = tools / "refund.json"
    hosted = [t for t in TARGETS if t not in ("mcp", "anthropic-strict")]
    code, out, _ = _run("probe", str(one), "--format", "json", "--targets", ",".join(hosted))
    assert code == 3  # missing credentials: the environment, not the schema
    results = json.loads(out)["results"]
    assert {r["providerId"] for r in results} == set(hosted)
    assert {r["errorKind"] for r in results} == {"missing-credentials"}
    code, _, _ = _run("probe", str(one), "--targets", "mcp")
    assert code == 0
    # refund_order's `minimum` is lossy for strict tool use: never sent, a finding (exit 1)
    code, out, _ = _run("probe", str(one), "--targets", "anthropic-strict", "--format", "json")
    assert code == 1
    assert [r["errorKind"] for r in json.loads(out)["results"]] == ["compile-refused"]
    code, _, _ = _run("probe", str(tools / "list.json"), "--targets", "openai")
    assert code == 1  # compile refused


def test_compile_into_an_unwritable_folder_is_a_clear_input_error(
    tools: Path, tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    code, _, err = _run("compile", str(tools), "--out", str(blocker / "out"), "--targets", "mcp")
    assert code == 2
    assert "cannot write the output folder" in err and "Traceback" not in err


def test_unknown_provider_gets_a_suggestion(tools: Path) -> None:
    code, _, err = _run("check", str(tools), "--provider", "opnai")
    assert code == 2
    assert "unknown provider 'opnai' (did you mean 'openai'?" in err and "provcat providers" in err


def test_summaries_count_in_the_singular_and_matrix_rows_end_cleanly(tmp_path: Path) -> None:
    folder = tmp_path / "one"
    _write(folder, "ping.json", FIXTURES["ping"])
    code, out, _ = _run("check", str(folder), "--targets", "mcp")
    assert code == 0 and "1 tool, 1 target: 0 errors," in out
    code, out, _ = _run("matrix", str(folder), "--targets", "mcp,openai")
    assert code == 0 and all(line == line.rstrip() for line in out.splitlines())


def test_what_a_target_judges_is_its_diagnostic_not_an_input_error(tmp_path: Path) -> None:
    """The schemas pydantic writes for a recursive model (a root `$ref`) and for `limit: int =
    None` (`default: null` beside `type: integer`), a `true` subschema and a name with a space:
    each target says what it makes of them, as `compile_tool` does; none stops the batch."""
    node = {
        "type": "object",
        "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
        "required": ["kids"],
    }
    tools = [
        {
            "name": "tree",
            "description": "d",
            "inputSchema": {"$defs": {"Node": node}, "$ref": "#/$defs/Node"},
        },
        {
            "name": "lim",
            "description": "d",
            "inputSchema": {
                "type": "object",
                "properties": {"limit": {"type": "integer", "default": None}},
            },
        },
        {
            "name": "any",
            "description": "d",
            "inputSchema": {"type": "object", "properties": {"a": True}},
        },
        {"name": "a b", "description": "d", "inputSchema": {"type": "object"}},
    ]
    path = _write(tmp_path, "t.json", tools)
    code, out, _ = _run("check", str(path), "--targets", "mcp,openai", "--format", "json")
    assert code == 1  # openai's errors; every tool was checked
    report = json.loads(out)
    assert sorted(t["name"] for t in report["tools"]) == ["a b", "any", "lim", "tree"]
    codes = {
        d["code"] for t in report["tools"] for r in t["targets"].values() for d in r["diagnostics"]
    }
    assert {"openai/ref-with-sibling-keywords", "openai/tool-name-invalid-characters"} <= codes


def test_an_mcp_tools_list_result_is_read_as_it_is(tmp_path: Path) -> None:
    """A `tools/list` result as an MCP server sends it: each Tool with the fields of the MCP
    specification (schema.ts, revision 2026-07-28: title, outputSchema, annotations, icons, _meta;
    2025-11-25's execution too) beside the three a vendor's tool takes. Read as is: `mcp` writes
    those fields of 2026-07-28 as given and leaves `execution` out, a vendor's target leaves them
    all out; a misspelt field is still refused."""
    read = {
        "name": "read_file",
        "title": "Read File",
        "description": "Read a file.",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
        "outputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
        "annotations": {"readOnlyHint": True},
        "icons": [{"src": "https://example.com/i.png"}],
        "execution": {"taskSupport": "optional"},
        "_meta": {"x": 1},
    }
    path = _write(tmp_path, "list.json", {"tools": [read]})
    code, out, _ = _run("compile", str(path), "--targets", "mcp,anthropic", "--format", "json")
    assert code == 0
    (compiled,) = json.loads(out)["manifest"]["tools"]
    assert compiled["targets"]["mcp"]["output"] == {
        k: v for k, v in read.items() if k != "execution"
    }
    assert compiled["targets"]["anthropic"]["output"] == {
        "name": "read_file",
        "description": "Read a file.",
        "input_schema": read["inputSchema"],
    }
    assert compile_tool(read, "mcp").output == compiled["targets"]["mcp"]["output"]
    typo = _write(tmp_path, "typo.json", {**read, "outputSchem": {}})
    code, _, err = _run("check", str(typo), "--targets", "mcp")
    assert code == 2 and "`outputSchem` is not a field of a tool" in err
    assert "did you mean 'outputSchema'" in err


def _undecodable_file(folder: Path) -> Path:
    """A tool file whose name holds a byte that is no UTF-8 (0xFF), where the file system
    takes one (Linux does; macOS and Windows refuse it)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / os.fsdecode(b"a\xffb.json")
    try:
        path.write_text(json.dumps(FIXTURES["refund_order"]), encoding="utf-8")
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses a file name that is no UTF-8")
    return path


def test_a_file_name_that_is_no_utf8_is_printed_escaped_and_compiles(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    _undecodable_file(folder)
    out = tmp_path / "o"
    result = CliRunner().invoke(
        main,
        ["tool", "compile", str(folder), "--targets", "mcp", "--out", str(out)],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.rglob("*")) == ["manifest.json", "mcp", "refund-order.json"]
    manifest = json.loads((out / "manifest.json").read_bytes().decode("utf-8"))
    assert manifest["tools"][0]["source"].endswith("a\\xffb.json")
    for command in ("check", "compile"):
        result = CliRunner().invoke(
            main,
            ["tool", command, str(folder), "--targets", "mcp", "--format", "json"],
            catch_exceptions=False,
        )
        payload = json.loads(result.stdout_bytes.decode("utf-8"))  # strict: valid UTF-8
        tools = payload["tools"] if command == "check" else payload["manifest"]["tools"]
        assert tools[0]["source"].endswith("a\\xffb.json")
    missing = os.fsdecode(str(tmp_path).encode() + b"/gone\xff.json")
    result = CliRunner().invoke(main, ["tool", "check", missing, "--format", "json"])
    assert result.exit_code == 2
    error = json.loads(result.stdout_bytes.decode("utf-8"))["errors"][0]
    assert error["sourcePath"].endswith("gone\\xff.json")


def test_a_failed_write_leaves_no_temporary_file(
    tools: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    out = tmp_path / "o"
    code, _, err = _run("compile", str(tools), "--targets", "mcp", "--out", str(out))
    assert code == 2 and "No space left on device" in err
    assert [p for p in out.rglob("*") if p.is_file()] == []


def test_a_path_given_twice_is_read_once(tools: Path, tmp_path: Path) -> None:
    """Found by a tester: `tool check f.json f.json` said the tool name was already used in
    f.json."""
    refund = tools / "refund.json"
    again = tools / "nested" / ".." / "refund.json"  # the same file, spelled another way
    code, out, err = _run("check", str(refund), str(again), "--targets", "mcp")
    assert code == 0, err
    assert out.splitlines()[-1].startswith("1 tool, 1 target:")
    code, _, err = _run("compile", str(tools), str(tools), "--targets", "mcp")
    assert code == 0, err
    code, out, err = _run("check", str(tools), str(refund), "--targets", "mcp")  # folder + file
    assert code == 0, err


@pytest.mark.parametrize("content", ["", "  \n"])
def test_an_empty_tool_file_is_named_empty_and_nothing_is_written(
    tmp_path: Path, content: str
) -> None:
    """Found by a new user: an empty file got the JSON parser's "Expecting value: line 1 column 1
    (char 0)", where an empty standard input is called empty."""
    empty = tmp_path / "empty.json"
    empty.write_text(content, encoding="utf-8")
    out = tmp_path / "o"
    for command in (["check"], ["compile", "--out", str(out)]):
        code, _, err = _run(*command, str(empty), "--targets", "mcp")
        assert code == 2
        assert "empty.json: the file is empty: write a tool's JSON in it" in err
        assert "Expecting value" not in err
    assert not out.exists()
