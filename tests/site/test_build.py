"""`python -m generator site` without a browser: what it writes, always the same bytes, page
names that are safe and distinct, no reference that would make a request off the site, and a
clear error (nothing written) for a missing or wrong catalog.json."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.site.views import model_href, slug
from tests.conftest import ROOT, tree_bytes
from tests.site.conftest import BUNDLED_JSON


def _site(out: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["site", "--out", str(out), *extra])
    return result.exit_code, result.stdout + result.stderr


def test_every_model_and_provider_has_a_page_and_a_rebuild_writes_the_same_bytes(
    tmp_path: Path,
) -> None:
    code, output = _site(tmp_path / "site", "--from", str(BUNDLED_JSON), "--format", "json")
    assert code == 0, output
    first = tree_bytes(tmp_path / "site")
    data = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))
    for p in data["providers"]:
        assert f"providers/{slug(p['provider'])}.html" in first
        for m in p["models"]:
            assert model_href(p["provider"], m["model"]) in first
    assert first["catalog.json"] == BUNDLED_JSON.read_bytes()
    assert json.loads(output)["changed"] == len(first)

    code, output = _site(tmp_path / "site", "--from", str(BUNDLED_JSON), "--format", "json")
    assert json.loads(output)["changed"] == 0
    code, output = _site(tmp_path / "again", "--from", str(BUNDLED_JSON))
    assert tree_bytes(tmp_path / "again") == first


def test_page_names_are_safe_and_distinct() -> None:
    ids = [
        "gpt-4o",
        "Claude Opus 4.6 (Thinking)",
        "claude opus 4.6 (thinking)",
        "meta/llama-3.3-70b-instruct",
        "meta_llama-3.3-70b-instruct",
        "openai/gpt-4o:free",
        "../../etc/passwd",
        ".hidden",
        "",
        "y" * 300,  # longer than a file name may be: cut, and kept apart by its hash
        "y" * 301,
    ]
    # an id spelt as another id's hashed name: before, `Zed-Model` and `zed-model-3eea651c`
    # shared one page, and one model's page silently replaced the other's
    ids += [slug("Zed-Model").replace("~", "-"), slug("Zed-Model")]
    names = [slug(i) for i in ids]
    assert len(set(names)) == len(names)
    for name in names:
        assert re.fullmatch(r"[a-z0-9_][a-z0-9._~-]*", name), name
        assert len(name.encode()) + len(".html") <= 255, name
    assert slug("gpt-4o") == "gpt-4o"  # a safe id is its own name


def test_no_page_refers_to_anything_off_the_site(tmp_path: Path) -> None:
    """Scripts, styles and images load from the site's own folder; the only absolute URLs are
    links a reader may follow (the sources and vendors' pages), and nothing fetches."""
    assert _site(tmp_path / "site", "--from", str(BUNDLED_JSON))[0] == 0
    pages = 0
    for path in (tmp_path / "site").rglob("*"):
        if path.suffix == ".html":
            pages += 1
            text = path.read_text(encoding="utf-8")
            for attribute in re.findall(r'\b(?:src|srcset|action|poster|data)="([^"]*)"', text):
                assert not re.match(r"[a-z]+:|//", attribute), (path, attribute)
            for link in re.findall(r"<link\b[^>]*>", text):
                assert re.search(r'href="(?![a-z]+:|//)', link), (path, link)
            for href in re.findall(r'<a\b[^>]*href="([^"]*)"', text):
                assert not href.startswith(("javascript:", "//", "data:")), (path, href)
        elif path.suffix in (".js", ".css"):
            text = path.read_text(encoding="utf-8")
            for word in ("fetch(", "XMLHttpRequest", "import(", "@import", "url(", "WebSocket"):
                assert word not in text, (path, word)
    assert pages > 60


def test_a_missing_or_wrong_catalog_json_is_a_clear_error_and_writes_nothing(
    tmp_path: Path,
) -> None:
    out = tmp_path / "site"
    assert _site(out, "--from", str(BUNDLED_JSON))[0] == 0
    before = tree_bytes(out)

    code, output = _site(out, "--from", str(tmp_path / "nowhere.json"))
    assert code != 0
    assert "no catalog.json at" in output and "make generate" in output

    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"providers": []}', encoding="utf-8")
    code, output = _site(out, "--from", str(wrong))
    assert code != 0 and "is not a catalog.json" in output

    broken = tmp_path / "broken.json"
    broken.write_text('{"catalog_json_format": 1,', encoding="utf-8")
    code, output = _site(out, "--from", str(broken))
    assert code != 0 and "is not a catalog.json" in output

    # a part of one (it crashed with KeyError: 'providers'), and one of a format this generator
    # does not read (it was built as if it were this one's)
    whole = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))
    part = tmp_path / "part.json"
    part.write_text(json.dumps({k: v for k, v in whole.items() if k != "providers"}))
    code, output = _site(out, "--from", str(part))
    assert code == 1 and "is not a whole catalog.json: it lacks providers" in output
    assert "Traceback" not in output
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({**whole, "catalog_json_format": 999}), encoding="utf-8")
    code, output = _site(out, "--from", str(newer))
    assert code == 1 and "is catalog.json format 999, and this generator reads format 1" in output
    assert tree_bytes(out) == before


def test_serve_answers_on_localhost(tmp_path: Path) -> None:
    """`site --serve` builds, then serves the folder on 127.0.0.1 until stopped."""
    import subprocess
    import sys

    import httpx

    from tests.conftest import ROOT

    command = [sys.executable, "-m", "generator", "site", "--from", str(BUNDLED_JSON)]
    command += ["--out", str(tmp_path / "site"), "--serve", "--port", "0"]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = ""
        while not line.startswith("Serving"):
            line = server.stdout.readline()
            assert line, "the server stopped before serving"
        url = line.split(" on ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        answer = httpx.get(url + "index.html", timeout=10)
        assert answer.status_code == 200
        assert answer.content == (tmp_path / "site" / "index.html").read_bytes()
        # a folder without index.html is not found, as on a static host, not listed
        assert httpx.get(url + "models/", timeout=10).status_code == 404
        assert httpx.get(url, timeout=10).status_code == 200  # the index is served for /
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_serve_on_a_port_in_use_is_a_usage_error_naming_the_port(tmp_path: Path) -> None:
    """It died with an OSError traceback (Errno 98); now it says which port and what to do,
    exits 2 like the generator's other usage errors, and builds nothing."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["site", "--from", str(BUNDLED_JSON), "--out", str(tmp_path / "site")]
        result = CliRunner().invoke(main, [*args, "--serve", "--port", str(port)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"Error: port {port} of 127.0.0.1 is already in use" in result.stderr
    assert "--port N (--port 0 takes any free one)" in result.stderr
    assert "Traceback" not in result.output and "Errno" not in result.output
    assert not (tmp_path / "site").exists()


def test_serve_on_a_port_in_use_is_json_with_format_json(tmp_path: Path) -> None:
    """Found by a new user: the refusal was click's text on stderr under --format json."""
    import json
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["site", "--from", str(BUNDLED_JSON), "--out", str(tmp_path / "site")]
        result = CliRunner().invoke(
            main, [*args, "--serve", "--port", str(port), "--format", "json"]
        )
    assert result.exit_code == 2, result.output
    answer = json.loads(result.stdout)
    assert (answer["ok"], answer["error"]) == (False, "PortUnavailable")
    assert f"port {port} of 127.0.0.1 is already in use" in answer["message"]
    assert not (tmp_path / "site").exists()


def test_the_code_lines_of_every_bundled_model_page_run(tmp_path: Path) -> None:
    """Every Python line a bundled model's page shows runs as shown (a retired model's
    get_model raises ModelRetired, as its page says)."""
    import html
    import warnings

    from provcat.errors import ModelRetired

    assert _site(tmp_path / "site", "--from", str(BUNDLED_JSON))[0] == 0
    ran = 0
    for path in sorted((tmp_path / "site" / "models").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for name in ("line-python", "line-call"):
            found = re.search(rf'<code id="{name}">(.*?)</code>', text, re.DOTALL)
            if found is None:
                continue
            scope: dict[str, object] = {}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    exec(html.unescape(found.group(1)), scope)
                except ModelRetired:
                    assert 'id="retired-note"' in text, path
                    continue
            ran += 1
    assert ran > 100


def test_the_secondary_page_lists_each_fact_a_model_marks_secondary() -> None:
    """The mark is the model's ``secondary`` entries (issue #27), not the words of its note:
    a note that says "secondary" without an entry lists nothing; each entry is one row naming
    its facts and the page they were read on."""
    from generator.site.views import secondary_rows

    provider = {
        "provider": "acme",
        "models": [
            {"model": "a", "note": "Release date as secondary sources give it."},
            {
                "model": "b",
                "secondary": [
                    {"facts": ["prices"], "source": "https://example.com/r"},
                    {"facts": ["context_window"], "source": "https://example.com/s", "note": "n"},
                ],
            },
            {"model": "d"},
        ],
    }
    rows = secondary_rows([provider])
    assert [(r["model"]["model"], r["facts"], r["source"], r["note"]) for r in rows] == [
        ("b", ["prices"], "https://example.com/r", None),
        ("b", ["context_window"], "https://example.com/s", "n"),
    ]
    data = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))
    listed = {
        (r["provider"], r["model"]["model"]): r["facts"] for r in secondary_rows(data["providers"])
    }
    # catalog/providers/*.yaml: the facts these models mark as read on a third party's page
    assert listed[("fireworks", "accounts/fireworks/models/gpt-oss-120b")] == ["prices.cache_read"]
    assert listed[("openai", "gpt-6.1-terra")][0] == "prices"
    # lifecycle facts read only on a third party's page (issue #27 item 8)
    assert listed[("openai", "gpt-4.1-mini")] == ["deprecation_date", "successor"]
    assert ("openai", "gpt-6-luna") not in listed  # its note's words are not a mark


def test_serve_with_format_json_writes_one_json_object_naming_the_url(tmp_path: Path) -> None:
    """`--serve --format json`: standard output is the JSON object alone, with the address
    (`--port 0` picks one); the "Serving" line goes to standard error."""
    import subprocess
    import sys

    import httpx

    from tests.conftest import ROOT

    command = [sys.executable, "-m", "generator", "site", "--from", str(BUNDLED_JSON)]
    command += ["--out", str(tmp_path / "site"), "--serve", "--port", "0", "--format", "json"]
    server = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None and server.stderr is not None
        said = json.loads(server.stdout.readline())
        assert said["ok"] is True and said["url"].startswith("http://127.0.0.1:")
        assert server.stderr.readline().startswith("Serving ")
        assert httpx.get(said["url"] + "index.html", timeout=10).status_code == 200
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=10)
    assert out == ""  # nothing after the object


def test_a_port_without_serve_is_a_usage_error(tmp_path: Path) -> None:
    # it was ignored without a word: the site was built and nothing served
    code, output = _site(tmp_path / "site", "--from", str(BUNDLED_JSON), "--port", "9000")
    assert code == 2 and "--port is where --serve serves" in output
    assert not (tmp_path / "site").exists()


def test_a_model_added_to_one_provider_leaves_the_other_pages_as_they_were(
    tmp_path: Path,
) -> None:
    """A host (`aws s3 sync`, `rsync`) uploads what changed: before, every page's footer named
    the catalog's fingerprint and model count, and one edit rewrote all 5,442 pages of the
    models.dev site."""
    data = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))
    _site(tmp_path / "site", "--from", str(BUNDLED_JSON))
    before = tree_bytes(tmp_path / "site")
    edited, other = [p for p in data["providers"] if p["models"]][:2]
    added = {**edited["models"][0], "model": "added-model", "aliases": []}
    edited["models"].append(added)
    data["fingerprint"] = "sha256:" + "0" * 64
    changed_json = tmp_path / "catalog.json"
    changed_json.write_text(json.dumps(data), encoding="utf-8")
    code, output = _site(tmp_path / "site", "--from", str(changed_json))
    assert code == 0, output
    after = tree_bytes(tmp_path / "site")
    rewritten = {name for name in after if before.get(name) != after[name]}
    assert model_href(other["provider"], other["models"][0]["model"]) not in rewritten
    assert f"providers/{slug(other['provider'])}.html" not in rewritten
    assert {"index.html", "models.js", "catalog.json"} <= rewritten
    assert model_href(edited["provider"], "added-model") in rewritten
    assert "sha256:" + "0" * 64 in after["index.html"].decode()


def test_every_model_page_has_a_title_of_its_own(tmp_path: Path) -> None:
    """Two models of a provider may share a name (models.dev's amazon-bedrock lists
    `gpt-oss-20b` twice): the title names the id too, so tabs and bookmarks tell them apart."""
    data = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))
    provider = next(p for p in data["providers"] if len(p["models"]) >= 2)
    twin = {**provider["models"][0], "model": "twin-model", "aliases": []}
    provider["models"].append(twin)
    source = tmp_path / "catalog.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    code, output = _site(tmp_path / "site", "--from", str(source))
    assert code == 0, output
    titles = [
        re.search(r"<title>(.*?)</title>", path.read_text(encoding="utf-8"), re.S).group(1)  # type: ignore[union-attr]
        for path in sorted((tmp_path / "site" / "models").rglob("*.html"))
    ]
    assert len(titles) == len(set(titles)) == sum(len(p["models"]) for p in data["providers"])


def test_every_fact_a_model_can_mark_secondary_is_marked_where_its_page_shows_it() -> None:
    """docs/site.md: facts a model marks as read on a third party's page "say *secondary*
    beside them". Every field of the model schema a page shows as a fact (the lifecycle's
    dates and successor included, and a whole that holds parts: `modalities`, `prices` with
    its tiers, batch and fees), each marked from a page of its own, has its mark beside it."""

    from generator.site.build import site_files

    schema = json.loads((ROOT / "schemas" / "provider.schema.json").read_text(encoding="utf-8"))
    not_facts = {"source", "note", "reviewed_at", "secondary", "differences", "imported"}
    fields = sorted(set(schema["$defs"]["model"]["properties"]) - not_facts)
    data = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))
    provider = next(p for p in data["providers"] if p["provider"] == "openai")
    model = next(m for m in provider["models"] if m["model"] == "gpt-4.1-mini")
    model.update(
        {
            "aliases": ["gpt-4.1-mini-latest"],
            "family": "gpt-mini",
            "knowledge_cutoff": "2024-06",
            "max_input_tokens": 1_000_000,
            "reasoning_efforts": ["low", "high"],
            "default_effort": "low",
            "temperature": True,
            "structured_output": True,
            "tool_call": True,
            "status": "deprecated",
            "prices": {
                "input": "0.40",
                "output": "1.60",
                "tiers": [{"above_input_tokens": 200_000, "input": "0.80"}],
                "batch": {"input": "0.20", "output": "0.80"},
                "fees": [{"unit": "web_search", "price": "10", "per": 1000}],
            },
        }
    )
    assert set(fields) <= set(model), set(fields) - set(model)
    facts = [*fields, "prices.tiers", "prices.batch", "prices.fees", "modalities.input"]
    model["secondary"] = [
        {"facts": [fact], "source": f"https://example.com/{fact}"} for fact in facts
    ]
    files = site_files(data, "{}", "{}")
    text = files[model_href("openai", "gpt-4.1-mini")]
    shown = re.sub(r'<ul id="secondary">.*?</ul>', "", text, flags=re.DOTALL)  # the list itself
    unmarked = [
        fact
        for fact in facts
        if f'class="secondary" href="https://example.com/{fact}"' not in shown
    ]
    assert unmarked == []
    # each beside its own fact: the lifecycle's dates and successor in their rows
    for label, fact in (
        ("Deprecation announced", "deprecation_date"),
        ("Shutdown (first day not served)", "shutdown_date"),
        ("Successor", "successor"),
    ):
        row = re.search(rf"<dt>{re.escape(label)}</dt><dd[^>]*>(.*?)</dd>", text, re.DOTALL)
        assert row is not None and f"https://example.com/{fact}" in row.group(1), label


def test_every_page_writes_prices_one_way_as_the_table_does(tmp_path: Path) -> None:
    """The table's price() (static/table.js) writes at least two decimals and every digit the
    catalog gives; the model, provider and lifecycle pages wrote `10`, `0.10`, `12.50`, `0.5`
    side by side. One filter writes them all the table's way."""
    from generator.site.prices import price

    assert [price(v) for v in ("10", "0.5", "0.625", "0", "12.50", "0.0125", None)] == [
        "10.00",
        "0.50",
        "0.625",
        "0.00",
        "12.50",
        "0.0125",
        "",
    ]
    assert _site(tmp_path / "site", "--from", str(BUNDLED_JSON))[0] == 0
    site = tmp_path / "site"
    shown = re.compile(r"\d+\.\d{2,}")
    checked = 0
    for path in sorted((site / "models").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for table in re.findall(r'<table class="prices[^"]*">.*?</table>', text, re.DOTALL):
            for cell in re.findall(r'<td class="num">(.*?)</td>', table):
                assert shown.fullmatch(cell), (path.name, cell)
                checked += 1
    for path in sorted((site / "providers").glob("*.html")):
        text = path.read_text(encoding="utf-8")
        for row in re.findall(r"<tr>\s*<td><a href=\"\.\./models/.*?</tr>", text, re.DOTALL):
            cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)
            for cell in cells[4:6]:
                for one in re.sub(r"<small>.*?</small>", "", cell).split("<br>"):
                    assert one.strip() == "" or shown.fullmatch(one.strip()), (path.name, cell)
                    checked += one.strip() != ""
    assert checked > 200
    lifecycle = (site / "lifecycle.html").read_text(encoding="utf-8")
    for amount in re.findall(r"\$([0-9.]+)", lifecycle):
        assert shown.fullmatch(amount), amount


def test_a_price_change_without_a_source_of_its_own_cites_the_models_sources() -> None:
    """DeepSeek-V4-Pro's periods name no `source` of their own, its model does: the lifecycle
    page's Source column cites the model's pages, not "—"; a period's own source comes first."""
    from generator.site.prices import change_rows

    data = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))
    models = {(p["provider"], m["model"]): m for p in data["providers"] for m in p["models"]}
    rows = {(r["provider"], r["model"]): r for r in change_rows(data["providers"], model_href)}
    pro = models[("deepseek", "deepseek-v4-pro")]
    assert pro["source"] and not any(p.get("source") for p in pro["prices"])
    assert rows[("deepseek", "deepseek-v4-pro")]["source"] == pro["source"]
    flash = models[("gemini", "gemini-3.8-flash")]
    assert rows[("gemini", "gemini-3.8-flash")]["source"] == flash["prices"][-1]["source"]
