"""``provcat hub``: serve a hub, manage its tokens, and search, resolve, pull, push and delete.

Client commands read ``--hub`` / ``PROVCAT_HUB_URL`` and ``--token`` / ``PROVCAT_HUB_TOKEN``;
server-side commands read ``--data-dir``, ``--database`` and ``--blobs`` (or ``PROVCAT_HUB_*``).
Exit status: 0 success, 1 a hub error (printed as ``ErrorName: message``), 2 usage error; with
``--format json`` every error is a JSON object on stdout instead (``cli_errors``).
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from provcat.cli.choice import FORMAT_OPTION
from provcat.cli.failures import not_a_key
from provcat.cli.hub_errors import HubGroup, fail
from provcat.cli.hub_files import read_card, read_manifest, shown_path, warn_unknown_fields
from provcat.cli.hub_options import (
    client_options,
    data_dir_or_default,
    emit,
    open_client,
    open_tool_storage,
    storage_options,
)
from provcat.cli.hub_tokens import token
from provcat.cli.table import counted
from provcat.hub.errors import HubError
from provcat.hub.manifest import AdapterManifest
from provcat.hub.ref import HubRef
from provcat.hub.settings import (
    DEFAULT_MAX_UPLOAD_BYTES,
    DEFAULT_ORPHAN_GRACE_SECONDS,
    HubSettings,
)
from provcat.hub.urls import check_base_url
from provcat.terminal import printable

__all__ = ["hub"]


class FiniteFloat(click.FloatRange):
    """A float range that also refuses ``nan`` and ``inf`` (a NaN compares false with every
    bound, so a range alone lets it through)."""

    name = "number of seconds"  # in click's "'x' is not a valid ..."

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        converted = super().convert(value, param, ctx)
        if not math.isfinite(converted):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return converted


def _ref(ref: str, *, concrete: str | None = None) -> HubRef:
    """REF parsed, or a usage error (exit 2); ``concrete`` names a command that needs a version."""
    try:
        parsed = HubRef.parse(ref)
    except HubError as error:
        # the part that is wrong when the error names one (`1.0.0-rc.1`), else the whole REF
        path, _, version = ref.removeprefix("hub://").partition(":")
        namespace, _, name = path.partition("/")
        parts = {"namespace": namespace, "name": name, "version": version}
        shown = parts.get(str(error.details.get("field")), ref)
        raise click.BadParameter(f"{error.message}, not {shown!r}", param_hint="REF") from None
    if concrete and parsed.is_latest:
        raise click.UsageError(f"{concrete} needs a concrete version: hub://namespace/name:1.2.0")
    return parsed


class _EchoWarnings(logging.Handler):
    """The client's warnings (logger ``provcat.hub``: a local copy replaced, say) as one line
    each on stderr (never stdout, where ``--format json`` goes), text from disk escaped."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(f"provcat hub: warning: {printable(record.getMessage())}", err=True)


@contextlib.contextmanager
def _client_warnings() -> Iterator[None]:
    logger, handler = logging.getLogger("provcat.hub"), _EchoWarnings(logging.WARNING)
    logger.addHandler(handler)  # logging's last-resort handler then stays quiet
    try:
        yield
    finally:
        logger.removeHandler(handler)


def _manifest_text(m: AdapterManifest) -> str:
    fields = [
        ("ref", f"hub://{m.namespace}/{m.name}:{m.version}"),
        ("description", m.description),
        ("tags", ", ".join(m.tags)),
        ("base models", ", ".join(m.base_model_compatibility)),
        ("license", m.license),
        ("card", f"{len(m.card):,} characters" if m.card else None),
        ("sha256", m.checksum_sha256),
        ("created_at", m.created_at),
    ]
    # a field the manifest leaves empty shows as "-" (a blank read as a missing line); text from
    # the hub shows its control characters escaped (it must not overwrite or forge a line)
    return "\n".join(
        [
            m.canonical_id,
            *(f"  {name + ':':<13} {printable(value or '-')}" for name, value in fields),
        ]
    )


@click.group(cls=HubGroup)
def hub() -> None:
    """The adapter hub: registry protocol v1 server and client."""


hub.add_command(token)


@hub.command()
@storage_options
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option(
    "--port",
    envvar="PROVCAT_HUB_PORT",
    default=8080,
    show_default=True,
    show_envvar=True,
    type=click.IntRange(1, 65535),
    help="TCP port.",
)
@click.option(
    "--max-upload-bytes",
    type=click.IntRange(min=1),
    default=None,
    help="Largest accepted payload of a push, in bytes (default 4 GiB); the manifest part has "
    "its own limit of 1 MiB.",
)
@click.option("--private", is_flag=True, help="Reads need a token too (default: public reads).")
@click.option(
    "--public-url",
    default=None,
    help="The URL clients reach this hub by (behind a load balancer: its URL); used for "
    "storage_uri and Location. Default: http://HOST:PORT.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Server processes sharing the port (and the database, blobs and data dir).",
)
@click.option(
    "--orphan-grace-seconds",
    envvar="PROVCAT_HUB_ORPHAN_GRACE_SECONDS",
    type=FiniteFloat(min=0),
    metavar="SECONDS",  # not the type's name, FINITE FLOAT RANGE
    default=DEFAULT_ORPHAN_GRACE_SECONDS,
    show_default=True,
    show_envvar=True,
    help="At start, unfinished S3 multipart uploads and blobs no version references are "
    "removed once older than this; another server sharing the store may be publishing "
    "younger ones.",
)
@click.option(
    "--log-level",
    type=click.Choice(["critical", "error", "warning", "info", "debug", "trace"]),
    default="info",
    show_default=True,
    help="uvicorn log level.",
)
def serve(
    data_dir: Path | None,
    database: str | None,
    blobs: str | None,
    host: str,
    port: int,
    max_upload_bytes: int | None,
    private: bool,
    public_url: str | None,
    workers: int,
    orphan_grace_seconds: float,
    log_level: str,
) -> None:
    """Run the hub (SQLite + files under --data-dir unless --database/--blobs say otherwise)."""
    from provcat.hub.server.serving import run  # fastapi and uvicorn: the hub extra, on use

    if public_url is None:
        if host in ("0.0.0.0", "::", ""):
            shown = host or "''"
            raise click.UsageError(
                f"--host {shown} listens on every interface: give --public-url, the "
                "address clients use (it goes into storage_uri; a Host header never does)"
            )
        public_url = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    else:
        try:
            check_base_url(public_url, "--public-url")
        except HubError as error:  # its message never repeats the URL (it may hold a password)
            raise click.UsageError(error.message) from None
    settings = HubSettings(
        data_dir=data_dir_or_default(data_dir),
        database_url=database,
        blobs_url=blobs,
        max_upload_bytes=max_upload_bytes or DEFAULT_MAX_UPLOAD_BYTES,
        private_reads=private,
        public_url=public_url,
        orphan_grace_seconds=orphan_grace_seconds,
    )

    def opened() -> None:
        listening = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
        shown = "" if public_url.rstrip("/") == listening else f" as {public_url}"
        click.echo(
            f"provcat hub: serving on {listening}{shown} "
            f"({workers} process{'es' if workers > 1 else ''}; database: "
            f"{settings.database_kind}, blobs: {settings.blobs_kind})",
            err=True,
        )
        click.echo(f"provcat hub: data in {shown_path(settings.data_dir)}", err=True)

    try:
        run(settings, host, port, workers, log_level, opened)
    except HubError as error:
        fail(error)


@hub.command()
@client_options
@click.argument("query", required=False)
@click.option("--tag", "tags", multiple=True, help="Only adapters with this exact tag.")
@click.option(
    "--limit",
    type=click.IntRange(1, 100),
    default=10,
    show_default=True,
    help="At most this many adapters, the best matches first (1 to 100).",
)
@FORMAT_OPTION
def search(
    hub_url: str, token: str | None, query: str | None, tags: tuple[str, ...], limit: int, fmt: str
) -> None:
    """Search adapters (latest version of each)."""
    try:
        with open_client(hub_url, token) as client:
            results = client.search(query, tag=list(tags), limit=limit)
    except HubError as error:
        fail(error)
    rows = [r.model_dump(mode="json") for r in results]
    # the hub's text with its control characters escaped (JSON keeps it as it is)
    text = "\n".join(
        "  ".join(
            printable(part)
            for part in (
                f"hub://{r['namespace']}/{r['name']}:{r['version']}",
                r["description"] or "",
                f"[{', '.join(r['tags'])}]" if r["tags"] else "",
            )
            if part
        )
        for r in rows
    )
    emit(fmt, {"results": rows}, text or "no adapters found")


@hub.command()
@client_options
@click.argument("ref")
@click.option(
    "--base-model",
    default=None,
    callback=not_a_key(None),
    help="Fail unless the adapter supports this model.",
)
@FORMAT_OPTION
def resolve(hub_url: str, token: str | None, ref: str, base_model: str | None, fmt: str) -> None:
    """Print the manifest of REF (hub://namespace/name[:version])."""
    parsed = _ref(ref)
    try:
        with open_client(hub_url, token) as client:
            manifest = client.resolve(parsed, base_model=base_model)
    except HubError as error:
        fail(error)
    emit(fmt, manifest.to_dict(), _manifest_text(manifest))


@hub.command()
@client_options
@click.argument("ref")
@click.option(
    "--store",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Local adapter store (default $PROVCAT_ADAPTERS_DIR, else "
    "$XDG_DATA_HOME/provcat/adapters, else ~/.local/share/provcat/adapters).",
)
@FORMAT_OPTION
def pull(hub_url: str, token: str | None, ref: str, store: Path | None, fmt: str) -> None:
    """Download and verify REF into the local store (latest is resolved to a concrete version)."""
    parsed = _ref(ref)
    try:
        with open_client(hub_url, token, store) as client, _client_warnings():
            manifest = client.pull(parsed)
            path = client.local_path(manifest)
    except HubError as error:
        fail(error)
    shown = shown_path(path)
    emit(
        fmt,
        {"adapter_id": manifest.canonical_id, "path": shown, "manifest": manifest.to_dict()},
        f"pulled {manifest.canonical_id} (sha256 {manifest.checksum_sha256} verified)\n  {shown}",
    )


@hub.command()
@client_options
@click.argument("payload", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.argument("ref")
@click.option(
    "--manifest",
    "manifest_path",
    type=click.Path(path_type=Path),  # read by read_manifest: LocalFileError when unusable
    metavar="FILE",
    default=None,
    help="Manifest v2 JSON; namespace, name and version default to REF's.",
)
@click.option(
    "--card",
    "card_path",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="The adapter's card: a Markdown file (at most 100,000 characters), shown on its page.",
)
@click.option(
    "--license",
    "license_text",
    default=None,
    help="The adapter's licence, an SPDX license expression such as Apache-2.0.",
)
@FORMAT_OPTION
def push(
    hub_url: str,
    token: str | None,
    payload: Path,
    ref: str,
    manifest_path: Path | None,
    card_path: Path | None,
    license_text: str | None,
    fmt: str,
) -> None:
    """Publish PAYLOAD (safetensors) as REF (hub://namespace/name:version).

    The LoRA rank and target modules are read from PAYLOAD's tensors (PEFT's names) where the
    manifest does not state them."""
    parsed = _ref(ref, concrete="push")
    try:
        document: dict[str, Any] = {}
        if manifest_path is not None:
            document = read_manifest(manifest_path)
            warn_unknown_fields(document, manifest_path)
        if card_path is not None:
            document["card"] = read_card(card_path)
        if license_text is not None:
            document["license"] = license_text
        for field, value in (
            ("namespace", parsed.namespace),
            ("name", parsed.name),
            ("version", parsed.version),
        ):
            given = document.setdefault(field, value)
            same = str(given).removeprefix("v") == value if field == "version" else given == value
            if not same:
                raise click.UsageError(
                    f"the manifest's {field} {given!r} is not {value!r} of {ref}"
                )
        with open_client(hub_url, token) as client:
            published = client.publish(payload, document)
    except HubError as error:
        fail(error)
    manifest = published.manifest
    what = "pushed" if published.created else "already published, unchanged:"
    emit(
        fmt,
        # the stored manifest, as before, and whether this push made the version (the hub's 201
        # or 200): the one key added, so readers of the manifest's fields keep working
        {**manifest.to_dict(), "created": published.created},
        f"{what} {manifest.canonical_id} (sha256 {manifest.checksum_sha256})",
    )


@hub.command()
@click.argument(
    "path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("adapter.safetensors"),
    required=False,
)
@click.option("--rank", type=click.IntRange(1, 64), default=4, show_default=True, help="LoRA rank.")
@click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
@FORMAT_OPTION
def sample(path: Path, rank: int, force: bool, fmt: str) -> None:
    """Write a tiny valid LoRA adapter (safetensors) to PATH, to try `push` with."""
    from provcat.hub.sample import write_sample  # only this command needs it

    try:
        made = write_sample(path, rank, overwrite=force)
    except FileExistsError:
        raise click.UsageError(f"{path} exists; give another PATH or --force") from None
    shown = shown_path(made.path)
    emit(
        fmt,
        {
            "path": shown,
            "sha256": made.sha256,
            "size_bytes": made.size_bytes,
            "rank": made.rank,
            "target_modules": list(made.target_modules),
        },
        f"wrote {shown} ({made.size_bytes} bytes, LoRA rank {made.rank} on q_proj, "
        f"sha256 {made.sha256})\n"
        f"  next: provcat hub push {shown} hub://NAMESPACE/NAME:0.1.0",
    )


@hub.command()
@client_options
@click.argument("ref")
@FORMAT_OPTION
def rm(hub_url: str, token: str | None, ref: str, fmt: str) -> None:
    """Delete REF (a concrete version); the version can never be pushed again.

    A version already deleted is not an error; one that never existed is."""
    parsed = _ref(ref, concrete="rm")
    try:
        with open_client(hub_url, token) as client:
            deleted = client.delete(parsed)
    except HubError as error:
        fail(error)
    emit(
        fmt,
        {"ref": str(parsed), "deleted": deleted},
        f"deleted {parsed}" if deleted else f"{parsed} was already deleted",
    )


@hub.command("export-static")
@storage_options
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--base-url", default=None, help="Public URL of the site (for storage_uri).")
@FORMAT_OPTION
def export_static_cmd(
    data_dir: Path | None,
    database: str | None,
    blobs: str | None,
    out: Path,
    base_url: str | None,
    fmt: str,
) -> None:
    """Write the read-only subset (health, resolve, latest, payloads, search index) to OUT."""
    from provcat.hub.static_export import export_static  # sqlalchemy (the hub extra), on use

    try:
        _, storage = open_tool_storage(data_dir, database, blobs)
        summary = export_static(storage, out, base_url=base_url)
        storage.close()
    except HubError as error:
        fail(error)
    emit(
        fmt,
        {
            "out": shown_path(summary.out),
            "adapters": summary.adapters,
            "versions": summary.versions,
            "payload_bytes": summary.payload_bytes,
        },
        f"exported {counted(summary.adapters, 'adapter')} "
        f"({counted(summary.versions, 'version')}, {summary.payload_bytes} payload bytes) "
        f"to {shown_path(summary.out)}",
    )
