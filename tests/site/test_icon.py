"""The site's icon: every page links ``favicon.svg`` (written with the site, a marker on its
first line like every other file), so a browser served the site asks for it and for no
``/favicon.ico``, which 404'd on `site --serve` and on any static host."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

from selenium.webdriver.support.ui import WebDriverWait

from generator.site.build import MARKER
from tests.conftest import ROOT
from tests.site.conftest import BUNDLED_JSON


def test_every_page_links_the_icon_and_the_icon_is_a_plain_svg(bundled_site: Path) -> None:
    pages = sorted(bundled_site.rglob("*.html"))
    assert len(pages) > 60
    for path in pages:
        rel = path.relative_to(bundled_site).as_posix()
        head = path.read_text(encoding="utf-8").partition("</head>")[0]
        links = re.findall(r'<link rel="icon" href="([^"]*)" type="image/svg\+xml">', head)
        assert links == ["../" * rel.count("/") + "favicon.svg"], rel
        assert (path.parent / links[0]).resolve() == (bundled_site / "favicon.svg").resolve()
        # the content security policy lets a page load an image of its own site
        policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', head)
        assert policy is not None and "img-src 'self'" in policy.group(1), rel
    icon = (bundled_site / "favicon.svg").read_text(encoding="utf-8")
    assert MARKER in icon.partition("\n")[0]
    root = ElementTree.fromstring(icon)  # one well-formed XML document, the marker a comment
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # a mark of shapes: nothing that loads, links or runs
    for element in root.iter():
        assert element.tag.rpartition("}")[2] in {"svg", "title", "rect", "path"}, element.tag
        assert not any("href" in name or name.startswith("on") for name in element.attrib)
    assert "url(" not in icon and "http" not in icon.replace("http://www.w3.org/2000/svg", "")


def test_a_served_page_gets_its_icon_and_no_request_fails(browser: Any, tmp_path: Path) -> None:
    """Over `site --serve`, chromium fetches favicon.svg (200), never /favicon.ico, and logs no
    error (a 404 or a blocked load is a SEVERE console entry)."""
    command = [sys.executable, "-m", "generator", "site", "--from", str(BUNDLED_JSON)]
    command += ["--out", str(tmp_path / "site"), "--serve", "--port", "0"]
    server = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    served: list[str] = []  # the server's request log (standard error)
    try:
        assert server.stdout is not None and server.stderr is not None
        line = ""
        while not line.startswith("Serving"):
            line = server.stdout.readline()
            assert line, "the server stopped before serving"
        url = line.split(" on ", 1)[1].split()[0]
        log = server.stderr

        def listen() -> None:
            for entry in log:
                served.append(entry)

        threading.Thread(target=listen, daemon=True).start()
        browser.get_log("browser")  # forget what earlier pages logged
        for path in ("index.html", "models/openai/gpt-6-luna.html"):
            browser.get(url + path)
            WebDriverWait(browser, 30).until(
                lambda d: d.execute_script("return document.documentElement.dataset.ready")
            )
        deadline = time.monotonic() + 10  # the browser fetches the icon after the page
        while not any("/favicon" in entry for entry in served) and time.monotonic() < deadline:
            time.sleep(0.05)
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert any('"GET /favicon.svg HTTP/1.1" 200' in entry for entry in served), served
    assert not any("favicon.ico" in entry for entry in served), served
    assert errors == []
