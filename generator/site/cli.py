"""`python -m generator site`: build the static site from catalog.json (``make site``), and
optionally serve it on 127.0.0.1 to look at it."""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from generator.refusals import foreign_refusal, refuse, refuse_out, usage_error
from generator.tree import UnsafeOutput
from provcat.terminal import printable

if TYPE_CHECKING:
    import http.server

ROOT = Path(__file__).resolve().parent.parent.parent
SCHEMA = ROOT / "schemas" / "catalog.schema.json"
# a site an older provcat wrote carries no marker this one recognises
OLDER_SITE = " If an older provcat wrote the site there, delete that folder yourself."


@click.command("site")
@click.option(
    "--from",
    "source",
    type=click.Path(dir_okay=False, path_type=Path),
    default=ROOT / "generated" / "provcat_catalog" / "catalog.json",
    show_default="generated/provcat_catalog/catalog.json",
    help="The catalog.json to build from (a build's OUT/provcat_catalog/catalog.json).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=ROOT / "build" / "site",
    show_default="build/site/",
    help="Where the site is written (the folder is replaced whole).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text for people; json: one object on one line (with --serve, printed before serving).",
)
@click.option("--serve", is_flag=True, help="Then serve it on http://127.0.0.1:PORT/ until Ctrl-C.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="With --serve: the port of 127.0.0.1 to serve on (0: any free one).",
)
def site(source: Path, out: Path, fmt: str, serve: bool, port: int) -> None:
    """Build the static catalog site (HTML, no JavaScript build step) from catalog.json."""
    ctx = click.get_current_context()
    if not serve and ctx.get_parameter_source("port") is not ParameterSource.DEFAULT:
        usage_error(
            "UsageError", "--port is where --serve serves: add --serve, or leave --port out", fmt
        )
    # the port is taken first: one in use is said at once, before the build
    server = _bind(out, port, fmt) if serve else None
    with server if server is not None else contextlib.nullcontext():
        url = f"http://127.0.0.1:{server.server_address[1]}/" if server is not None else None
        _build(source, out, fmt, url)
        if server is not None:
            _serve(server, out, fmt)


def _build(source: Path, out: Path, fmt: str, url: str | None = None) -> None:
    """Build the site into ``out`` and say what was written (and ``url``, where it is served)."""
    # deferred: `generator --help` loads this module, and the build imports jinja2
    from generator.site.build import NotACatalogJson, build

    started = time.perf_counter()
    try:
        count, changed = build(source, SCHEMA, out)
    except NotACatalogJson as exc:
        if fmt != "json":
            raise click.ClickException(printable(str(exc), keep="\n\t")) from None
        failed = {"ok": False, "error": "NotACatalogJson", "message": str(exc)}
        click.echo(json.dumps(failed, indent=2, ensure_ascii=False))
        sys.exit(1)
    except UnsafeOutput as exc:
        if exc.foreign:  # no usage mistake: what to delete or move, in the words build uses
            refuse("UnsafeOutput", foreign_refusal(out, exc.foreign) + OLDER_SITE, fmt)
        refuse_out(str(exc), fmt)
    took = time.perf_counter() - started
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "ok": True,
                    "out": str(out),
                    "files": count,
                    "changed": len(changed),
                    "seconds": round(took, 2),
                    **({"url": url} if url is not None else {}),
                }
            )
        )
    else:
        state = f"{len(changed)} changed" if changed else "unchanged"
        click.echo(f"provcat: site of {count} files in {out} ({state}) in {took:.2f}s.")
        if url is None:  # served, the address below is where to open it
            click.echo(f"Open {(out / 'index.html').resolve().as_uri()}")


def _bind(root: Path, port: int, fmt: str) -> http.server.ThreadingHTTPServer:
    """A server of ``root`` on 127.0.0.1 only (the standard library's static file server), its
    port bound; a port it cannot have is a usage error (exit 2, ``PortUnavailable`` in JSON)
    saying what to do."""
    import http.server  # deferred: only --serve serves

    class Handler(http.server.SimpleHTTPRequestHandler):
        def list_directory(self, path: str | os.PathLike[str]) -> None:
            """A folder without index.html is not found, as on a static host (the standard
            library's server would list its files)."""
            self.send_error(404, "Not Found")
            return None

    handler = functools.partial(Handler, directory=str(root))
    try:
        return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            why = (
                f"port {port} of 127.0.0.1 is already in use (another server, or an earlier "
                "`site --serve` still running): stop that one, or pick another port with "
                "--port N (--port 0 takes any free one)"
            )
        elif exc.errno == errno.EACCES:
            why = (
                f"port {port} of 127.0.0.1 needs privileges this user lacks: pick a port "
                "above 1023 with --port N (--port 0 takes any free one)"
            )
        else:
            why = (
                f"cannot serve on 127.0.0.1 port {port}: {exc.strerror or exc}; try another --port"
            )
        usage_error("PortUnavailable", f"{why}; nothing was built", fmt)


def _serve(server: http.server.ThreadingHTTPServer, root: Path, fmt: str) -> None:
    """Serve until Ctrl-C (with ``--format json``, standard output holds the JSON alone)."""
    click.echo(
        f"Serving {root} on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)",
        err=fmt == "json",
    )
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
