"""`make bench`'s runner keeps the HTTP clients' per-request log lines out of the terminal, even
after a baseline library configured the root logger at INFO (lionagi's provider modules call
``logging.basicConfig(level=logging.INFO)`` when imported)."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from benchmarks.__main__ import QUIET_LOGGERS, main


@pytest.fixture
def root_at_info() -> Iterator[io.StringIO]:
    """The root logger as lionagi leaves it: INFO, to a stream (here a buffer). Restored after."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    saved = root.level, {name: logging.getLogger(name).level for name in QUIET_LOGGERS}
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(saved[0])
        for name, level in saved[1].items():
            logging.getLogger(name).setLevel(level)


def test_http_request_lines_stay_off_the_terminal_and_warnings_still_show(
    root_at_info: io.StringIO, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["no-such-benchmark"]) == 2  # the runner's setup runs before the names are checked
    assert "unknown benchmark(s): bench_no-such-benchmark" in capsys.readouterr().err
    for name in ("httpx", "httpx2"):
        logging.getLogger(name).info('HTTP Request: POST http://127.0.0.1:1/v1 "HTTP/1.1 200 OK"')
        logging.getLogger(name).warning("a warning is still shown")
    shown = root_at_info.getvalue()
    assert "HTTP Request" not in shown
    assert shown.count("a warning is still shown") == 2
