"""``provcat hub``: serve a hub, manage its tokens, and search, resolve, pull, push and delete.

Client commands read ``--hub`` / ``PROVCAT_HUB_URL`` and ``--token`` / ``PROVCAT_HUB_TOKEN``;
server-side commands read ``--data-dir``, ``--database`` and ``--blobs`` (or ``PROVCAT_HUB_*``).
Exit status: 0 success, 1 a hub error (printed as ``ErrorName: message``), 2 usage error; with
``--format json`` every error is a JSON object on stdout instead (``cli_errors``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from provcat.cli.hub_errors import TOKEN_NOT_FOUND, HubGroup, fail, fail_with
from provcat.hub.errors import HubError
from provcat.hub.manifest import AdapterManifest
from provcat.hub.ref import HubRef

__all__ = ["hub"]

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_HUB = "http://127.0.0.1:8080"


def _emit(fmt: str, data: Any, text: str) -> None:
    click.echo(json.dumps(data, sort_keys=True, indent=2) if fmt == "json" else text)


def _ref(ref: str, *, concrete: str | None = None) -> HubRef:
    """REF parsed, or a usage error (exit 2); ``concrete`` names a command that needs a version."""
    try:
        parsed = HubRef.parse(ref)
    except HubError as error:
        raise click.BadParameter(f"{error.message}, not {ref!r}", param_hint="REF") from None
    if concrete and parsed.is_latest:
        raise click.UsageError(f"{concrete} needs a concrete version: hub://namespace/name:1.2.0")
    return parsed


def _warn_unknown_fields(document: dict[str, Any], manifest_path: Path) -> None:
    """Unknown fields are stored as extensions (protocol), so a misspelt one would pass silently."""
    import difflib

    known = sorted(AdapterManifest.model_fields)
    for key in sorted(document):
        if key in known:
            continue
        close = difflib.get_close_matches(key, known, n=1, cutoff=0.75)
        if close:
            click.echo(
                f"provcat hub: warning: {manifest_path}: '{key}' is not a manifest v2 field "
                f"(did you mean '{close[0]}'?); it is stored as an extension field",
                err=True,
            )


def format_option(fn: F) -> F:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help="Output format.",
    )(fn)


def client_options(fn: F) -> F:
    fn = click.option(
        "--token",
        envvar="PROVCAT_HUB_TOKEN",
        default=None,
        show_envvar=True,
        help="Bearer token (prefer the environment variable: it stays out of shell history).",
    )(fn)
    fn = click.option(
        "--hub",
        "hub_url",
        envvar="PROVCAT_HUB_URL",
        default=DEFAULT_HUB,
        show_default=True,
        show_envvar=True,
        help="Base URL of the hub or static mirror.",
    )(fn)
    return fn


def storage_options(fn: F) -> F:
    fn = click.option(
        "--blobs",
        envvar="PROVCAT_HUB_BLOBS",
        default=None,
        show_envvar=True,
        help="Blob store: a directory (default: the data dir) or s3://bucket/prefix.",
    )(fn)
    fn = click.option(
        "--database",
        envvar="PROVCAT_HUB_DATABASE",
        default=None,
        show_envvar=True,
        help="SQLAlchemy URL (default: SQLite in the data dir), e.g. postgresql+psycopg://...",
    )(fn)
    fn = click.option(
        "--data-dir",
        envvar="PROVCAT_HUB_DATA_DIR",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("hub-data"),
        show_default=True,
        show_envvar=True,
        help="Local state: SQLite database, blobs and upload temp files.",
    )(fn)
    return fn


def _client(hub_url: str, token: str | None, store: Path | None = None) -> Any:
    from provcat.hub.client import RegistryClient

    return RegistryClient(hub_url, token, store=store)


def _storage(data_dir: Path, database: str | None, blobs: str | None) -> Any:
    """For the tools (token, export-static): migrate, but never clean what a live server uses."""
    from provcat.hub.settings import HubSettings
    from provcat.hub.storage import open_storage

    settings = HubSettings(data_dir=data_dir, database_url=database, blobs_url=blobs)
    return settings, open_storage(settings, housekeeping=False)


def _manifest_text(m: AdapterManifest) -> str:
    lines = [
        f"{m.canonical_id}",
        f"  ref:          hub://{m.namespace}/{m.name}:{m.version}",
        f"  description:  {m.description or ''}",
        f"  tags:         {', '.join(m.tags)}",
        f"  base models:  {', '.join(m.base_model_compatibility)}",
        f"  sha256:       {m.checksum_sha256 or ''}",
        f"  created_at:   {m.created_at or ''}",
    ]
    return "\n".join(lines)


@click.group(cls=HubGroup)
def hub() -> None:
    """The adapter hub: registry protocol v1 server and client."""


@hub.command()
@storage_options
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option(
    "--port", default=8080, show_default=True, type=click.IntRange(1, 65535), help="TCP port."
)
@click.option(
    "--max-upload-bytes",
    type=click.IntRange(min=1),
    default=None,
    help="Largest accepted push body (default 4 GiB).",
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
    "--log-level",
    type=click.Choice(["critical", "error", "warning", "info", "debug", "trace"]),
    default="info",
    show_default=True,
    help="uvicorn log level.",
)
def serve(
    data_dir: Path,
    database: str | None,
    blobs: str | None,
    host: str,
    port: int,
    max_upload_bytes: int | None,
    private: bool,
    public_url: str | None,
    workers: int,
    log_level: str,
) -> None:
    """Run the hub (SQLite + files under --data-dir unless --database/--blobs say otherwise)."""
    from provcat.hub.server.serving import run
    from provcat.hub.settings import DEFAULT_MAX_UPLOAD_BYTES, HubSettings

    if public_url is None:
        if host in ("0.0.0.0", "::", ""):
            shown = host or "''"
            raise click.UsageError(
                f"--host {shown} listens on every interface: give --public-url, the "
                "address clients use (it goes into storage_uri; a Host header never does)"
            )
        public_url = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    elif not public_url.startswith(("http://", "https://")):
        raise click.UsageError("--public-url must be an http:// or https:// URL")
    settings = HubSettings(
        data_dir=data_dir,
        database_url=database,
        blobs_url=blobs,
        max_upload_bytes=max_upload_bytes or DEFAULT_MAX_UPLOAD_BYTES,
        private_reads=private,
        public_url=public_url,
    )

    def opened() -> None:
        click.echo(
            f"provcat hub: serving on http://{host}:{port} as {public_url} "
            f"({workers} process{'es' if workers > 1 else ''}; database: "
            f"{settings.database_kind}, blobs: {settings.blobs_kind})",
            err=True,
        )

    try:
        run(settings, host, port, workers, log_level, opened)
    except HubError as error:
        fail(error)


@hub.group()
def token() -> None:
    """Create, list and revoke bearer tokens (stored hashed in the hub's database)."""


@token.command("create")
@storage_options
@click.option("--namespace", "namespaces", multiple=True, help="Namespace the token may write.")
@click.option("--admin", is_flag=True, help="A token for every namespace.")
@click.option("--description", default="", help="A note to recognise the token by.")
@format_option
def token_create(
    data_dir: Path,
    database: str | None,
    blobs: str | None,
    namespaces: tuple[str, ...],
    admin: bool,
    description: str,
    fmt: str,
) -> None:
    """Create a token and print it once (it cannot be shown again)."""
    from provcat.hub.ref import check_slug
    from provcat.hub.tokens import ADMIN

    if not namespaces and not admin:
        raise click.UsageError("give --namespace NAME (repeatable) or --admin")
    try:
        for ns in namespaces:
            check_slug(ns, "namespace")
        _, storage = _storage(data_dir, database, blobs)
        scope = [ADMIN] if admin else sorted(set(namespaces))
        created = storage.create_token(scope, description)
        storage.close()
    except HubError as error:
        fail(error)
    _emit(
        fmt,
        {"token": created.text, "token_id": created.token_id, "namespaces": scope},
        created.text,
    )
    click.echo(
        f"token {created.token_id} for {', '.join(scope)}: store it now, it is not shown again",
        err=True,
    )


@token.command("list")
@storage_options
@format_option
def token_list(data_dir: Path, database: str | None, blobs: str | None, fmt: str) -> None:
    """List tokens (ids and scopes only)."""
    try:
        _, storage = _storage(data_dir, database, blobs)
        records = storage.list_tokens()
        storage.close()
    except HubError as error:
        fail(error)
    rows = [
        {
            "token_id": r.token_id,
            "namespaces": list(r.namespaces),
            "description": r.description,
            "created_at": r.created_at,
            "revoked_at": r.revoked_at,
        }
        for r in records
    ]
    text = "\n".join(
        f"{r['token_id']}  {','.join(r['namespaces'])}  {'revoked' if r['revoked_at'] else 'active'}"
        f"  {r['description']}".rstrip()
        for r in rows
    )
    _emit(fmt, {"tokens": rows}, text or "no tokens")


@token.command("revoke")
@storage_options
@click.argument("token_id")
@format_option
def token_revoke(
    data_dir: Path, database: str | None, blobs: str | None, token_id: str, fmt: str
) -> None:
    """Revoke a token by its id."""

    from provcat.hub.tokens import TOKEN_ID, split_token

    whole = split_token(token_id)
    if whole is not None:  # the whole token was pasted: revoke it by its id, never echo it
        token_id = whole[0]
    elif not TOKEN_ID.fullmatch(token_id):
        raise click.BadParameter(
            "a token id is 12 hex digits (the first column of `provcat hub token list`)",
            param_hint="TOKEN_ID",
        )  # the text is not echoed: it may be a mistyped secret
    try:
        _, storage = _storage(data_dir, database, blobs)
        revoked = storage.revoke_token(token_id)
        storage.close()
    except HubError as error:
        fail(error)
    if not revoked:
        fail_with(
            TOKEN_NOT_FOUND,
            f"no active token {token_id}; `provcat hub token list` shows the ids",
            {"token_id": token_id},
        )
    _emit(fmt, {"token_id": token_id, "revoked": True}, f"revoked {token_id}")


@hub.command()
@client_options
@click.argument("query", required=False)
@click.option("--tag", "tags", multiple=True, help="Only adapters with this exact tag.")
@click.option("--limit", type=click.IntRange(1, 100), default=10, show_default=True)
@format_option
def search(
    hub_url: str, token: str | None, query: str | None, tags: tuple[str, ...], limit: int, fmt: str
) -> None:
    """Search adapters (latest version of each)."""
    try:
        with _client(hub_url, token) as client:
            results = client.search(query, tag=list(tags), limit=limit)
    except HubError as error:
        fail(error)
    rows = [r.model_dump(mode="json") for r in results]
    text = "\n".join(
        f"hub://{r['namespace']}/{r['name']}:{r['version']}  {r['description'] or ''}"
        f"  [{', '.join(r['tags'])}]".rstrip()
        for r in rows
    )
    _emit(fmt, {"results": rows}, text or "no adapters found")


@hub.command()
@client_options
@click.argument("ref")
@click.option("--base-model", default=None, help="Fail unless the adapter supports this model.")
@format_option
def resolve(hub_url: str, token: str | None, ref: str, base_model: str | None, fmt: str) -> None:
    """Print the manifest of REF (hub://namespace/name[:version])."""
    parsed = _ref(ref)
    try:
        with _client(hub_url, token) as client:
            manifest = client.resolve(parsed, base_model=base_model)
    except HubError as error:
        fail(error)
    _emit(fmt, manifest.to_dict(), _manifest_text(manifest))


@hub.command()
@client_options
@click.argument("ref")
@click.option(
    "--store",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Local adapter store (default $PROVCAT_ADAPTERS_DIR or ~/.local/share/provcat/adapters).",
)
@format_option
def pull(hub_url: str, token: str | None, ref: str, store: Path | None, fmt: str) -> None:
    """Download and verify REF into the local store (latest is resolved to a concrete version)."""
    parsed = _ref(ref)
    try:
        with _client(hub_url, token, store) as client:
            manifest = client.pull(parsed)
            path = client.local_path(manifest)
    except HubError as error:
        fail(error)
    _emit(
        fmt,
        {"adapter_id": manifest.canonical_id, "path": str(path), "manifest": manifest.to_dict()},
        f"pulled {manifest.canonical_id} (sha256 {manifest.checksum_sha256} verified)\n  {path}",
    )


@hub.command()
@client_options
@click.argument("payload", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.argument("ref")
@click.option(
    "--manifest",
    "manifest_path",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="Manifest v2 JSON; namespace, name and version default to REF's.",
)
@format_option
def push(
    hub_url: str,
    token: str | None,
    payload: Path,
    ref: str,
    manifest_path: Path | None,
    fmt: str,
) -> None:
    """Publish PAYLOAD (safetensors) as REF (hub://namespace/name:version)."""
    parsed = _ref(ref, concrete="push")
    try:
        document: dict[str, Any] = {}
        if manifest_path is not None:
            try:
                document = json.loads(manifest_path.read_text(encoding="utf-8"))
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise click.UsageError(f"{manifest_path} is not JSON: {exc}") from None
            if not isinstance(document, dict):
                raise click.UsageError(f"{manifest_path} must hold a JSON object")
            _warn_unknown_fields(document, manifest_path)
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
        with _client(hub_url, token) as client:
            manifest = client.push(payload, document)
    except HubError as error:
        fail(error)
    _emit(
        fmt,
        manifest.to_dict(),
        f"pushed {manifest.canonical_id} (sha256 {manifest.checksum_sha256})",
    )


@hub.command()
@client_options
@click.argument("ref")
@format_option
def rm(hub_url: str, token: str | None, ref: str, fmt: str) -> None:
    """Delete REF (a concrete version); the version can never be pushed again."""
    parsed = _ref(ref, concrete="rm")
    try:
        with _client(hub_url, token) as client:
            deleted = client.delete(parsed)
    except HubError as error:
        fail(error)
    _emit(
        fmt,
        {"ref": str(parsed), "deleted": deleted},
        f"deleted {parsed}" if deleted else f"{parsed} was already gone",
    )


@hub.command("export-static")
@storage_options
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--base-url", default=None, help="Public URL of the site (for storage_uri).")
@format_option
def export_static_cmd(
    data_dir: Path,
    database: str | None,
    blobs: str | None,
    out: Path,
    base_url: str | None,
    fmt: str,
) -> None:
    """Write the read-only subset (health, resolve, latest, payloads, search index) to OUT."""
    from provcat.hub.static_export import export_static

    try:
        _, storage = _storage(data_dir, database, blobs)
        summary = export_static(storage, out, base_url=base_url)
        storage.close()
    except HubError as error:
        fail(error)
    _emit(
        fmt,
        {
            "out": str(summary.out),
            "adapters": summary.adapters,
            "versions": summary.versions,
            "payload_bytes": summary.payload_bytes,
        },
        f"exported {summary.adapters} adapters ({summary.versions} versions, "
        f"{summary.payload_bytes} payload bytes) to {summary.out}",
    )
