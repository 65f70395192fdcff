"""Render the snapshot package and docs in memory, compare with disk, and swap them in atomically.

Nothing is written unless the catalog is valid; then the whole ``generated/`` tree is staged
beside the old one and swapped in with renames, so a crash leaves either the old tree or the new
one (a leftover ``.old`` tree is restored by the next run), never a mix.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import jinja2

from generator import GENERATOR_VERSION
from generator.codes import all_codes
from generator.pyliteral import literal
from generator.snapshot import FORMAT_VERSION, fingerprint

TEMPLATES = Path(__file__).resolve().parent / "templates"
IGNORED = {"__pycache__"}


def _codes(values: Any) -> str:
    return ", ".join(f"`{v}`" for v in values) or "—"


def _code_or_dash(value: Any) -> str:
    return f"`{value}`" if value not in (None, "") else "—"


def _json_or_dash(value: Any) -> str:
    if not value:
        return "—"
    return "`" + json.dumps(value, sort_keys=True, ensure_ascii=False) + "`"


def _aliasmap(value: dict[str, str]) -> str:
    return "<br>".join(f"`{k}` → `{v}`" for k, v in value.items()) or "—"


def _mdcell(value: str) -> str:
    return value.replace("|", "\\|")


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters.update(
        pyrepr=repr,
        pyliteral=lambda value, indent=0: literal(value, 0, indent),
        codes=_codes,
        code_or_dash=_code_or_dash,
        json_or_dash=_json_or_dash,
        aliasmap=_aliasmap,
        yesno=lambda value: "yes" if value else "no",
        mdcell=_mdcell,
    )
    return env


def counts(snapshot: dict[str, Any]) -> dict[str, int]:
    providers = snapshot["providers"]
    endpoints = [e for p in providers for e in p["endpoints"]]
    return {
        "providers": len(providers),
        "endpoints": len(endpoints),
        "aliases": sum(len(p["aliases"]) for p in providers)
        + sum(len(e["aliases"]) for e in endpoints),
        "model_aliases": len(snapshot["model_alias_index"]),
        "models": sum(len(p["models"]) for p in providers),
    }


def render(snapshot: dict[str, Any], source: str) -> dict[str, str]:
    """Every generated file, relative path -> text."""
    env = _environment()
    providers = snapshot["providers"]
    context: dict[str, Any] = {
        "snapshot": snapshot,
        "source": source,
        "generator_version": GENERATOR_VERSION,
        "format_version": FORMAT_VERSION,
        "fingerprint": fingerprint(snapshot),
        "counts": counts(snapshot),
        "codes": all_codes(),
        "provider_keys": [p["provider"] for p in providers],
        "provider_names": sorted(
            {p["declared"] for p in providers} | {a for p in providers for a in p["aliases"]}
        ),
        "endpoint_keys": sorted({e["endpoint"] for p in providers for e in p["endpoints"]}),
        "endpoint_names": {
            p["provider"]: {e["key"]: e["endpoint"] for e in p["endpoints"]} for p in providers
        },
        "no_policy": [p["provider"] for p in providers if p["policy"] is None],
    }
    context["endpoint_names_all"] = sorted(
        {e["endpoint"] for p in providers for e in p["endpoints"]}
        | {a for p in providers for e in p["endpoints"] for a in e["aliases"]}
    )
    files = {}
    for name in ("__init__.py", "data.py", "names.py", "records.py"):
        files[f"provcat_catalog/{name}"] = env.get_template(f"package/{name}.j2").render(context)
    files["provcat_catalog/py.typed"] = ""
    for name in (
        "README.md",
        "providers.md",
        "endpoints.md",
        "aliases.md",
        "policies.md",
        "diagnostics.md",
    ):
        files[f"docs/{name}"] = env.get_template(f"docs/{name}.j2").render(context)
    return files


def read_tree(root: Path) -> dict[str, str]:
    """The text files under ``root`` (relative posix path -> text), without caches."""
    found: dict[str, str] = {}
    if not root.is_dir():
        return found
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part in IGNORED for part in rel.parts) or not path.is_file():
            continue
        try:
            found[rel.as_posix()] = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            found[rel.as_posix()] = "<unreadable>"
    return found


def changed_files(root: Path, files: dict[str, str]) -> list[str]:
    """Paths that differ between ``files`` and the tree on disk (added, changed or removed)."""
    current = read_tree(root)
    names = sorted(set(current) | set(files))
    return [n for n in names if current.get(n) != files.get(n)]


def diff(root: Path, files: dict[str, str], per_file: int = 12) -> str:
    """A short unified diff of the stale files: the snapshot data first, ``per_file`` lines each."""
    current = read_tree(root)
    names = sorted(changed_files(root, files), key=lambda n: (not n.endswith("data.py"), n))
    lines: list[str] = []
    for name in names:
        chunk = list(
            difflib.unified_diff(
                current.get(name, "").splitlines(),
                files.get(name, "").splitlines(),
                f"{root.name}/{name} (on disk)",
                f"{root.name}/{name} (from the catalog)",
                n=1,
                lineterm="",
            )
        )
        if len(chunk) > per_file:
            chunk = [*chunk[:per_file], f"... ({len(chunk) - per_file} more diff lines)"]
        lines.extend(chunk)
    return "\n".join(lines)


def recover(root: Path) -> None:
    """Restore a tree left half-swapped by a crash between the two renames."""
    if root.exists():
        for leftover in root.parent.glob(f".{root.name}.old-*"):
            shutil.rmtree(leftover, ignore_errors=True)
        return
    olds = sorted(root.parent.glob(f".{root.name}.old-*"))
    if olds:
        os.rename(olds[-1], root)


def write_tree(root: Path, files: dict[str, str]) -> list[str]:
    """Make ``root`` hold exactly ``files``. Returns the changed paths (empty: nothing written)."""
    recover(root)
    changed = changed_files(root, files)
    if not changed:
        return []
    root.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{root.name}.new-", dir=root.parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(stage, 0o777 & ~umask)  # mkdtemp makes it private; the tree is not
    try:
        for name, text in files.items():
            target = stage / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
        old = Path(tempfile.mkdtemp(prefix=f".{root.name}.old-", dir=root.parent))
        os.rmdir(old)
        if root.exists():
            os.rename(root, old)
        os.rename(stage, root)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        recover(root)
        raise
    shutil.rmtree(old, ignore_errors=True)
    return changed
