"""The snapshot's TOML files, each parsed once, every problem reported where it is (file, line
and column) instead of raised: a broken file is left out of the import, never its neighbours."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from typing import Any

from generator.diagnostics import Diagnostic, diag
from generator.importers.source import Snapshot
from generator.importers.tomlpos import decode_error_position, key_position


class Reader:
    """Parses the snapshot's TOML files once each and reports where they go wrong."""

    def __init__(self, snap: Snapshot, out: list[Diagnostic]) -> None:
        self.snap = snap
        self.out = out
        self.cache: dict[str, dict[str, Any] | None] = {}

    def shown(self, path: str) -> str:
        return f"{self.snap.display}/{path}"

    def at(self, path: str, dotted: str) -> tuple[str, int, int]:
        text = self.snap.text(path) or ""
        line, column = key_position(text, dotted)
        return (self.shown(path), line, column)

    def load(self, path: str) -> dict[str, Any] | None:
        if path in self.cache:
            return self.cache[path]
        entry = self.snap.get(path)
        result: dict[str, Any] | None = None
        if entry is None:
            result = None
        elif entry.data is None:
            self.out.append(
                diag(
                    "import_dangling_link",
                    (self.shown(path), 1, 1),
                    f"{path} is a {entry.problem}; the model is left out",
                )
            )
        else:
            try:
                result = tomllib.loads(entry.data.decode("utf-8"), parse_float=Decimal)
            except UnicodeDecodeError:
                self.out.append(
                    diag(
                        "import_unreadable_source",
                        (self.shown(path), 1, 1),
                        f"{path} is not valid UTF-8; it is left out",
                    )
                )
            except tomllib.TOMLDecodeError as exc:
                line, column = decode_error_position(str(exc))
                self.out.append(
                    diag(
                        "import_unreadable_source",
                        (self.shown(path), line, column),
                        f"{path} is not valid TOML ({exc}); it is left out",
                    )
                )
        self.cache[path] = result
        return result
