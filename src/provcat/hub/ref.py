"""Names, versions and ``hub://`` references (protocol §2 and the frozen decisions).

``namespace`` and ``name`` are lower-kebab slugs of at most 64 characters; a version is
``v?MAJOR.MINOR.PATCH(-PRE)?`` with no build metadata, and ``1.2.0`` equals ``v1.2.0``. The
frozen pattern allows leading zeros: ``01.0.0`` is ``1.0.0``, while ``1.0.0-01`` is a version
apart from ``1.0.0-1`` of the same precedence, ordered by its text so that ``latest`` never
depends on the order rows come in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering

from provcat.hub.errors import ValidationError

__all__ = [
    "LATEST",
    "HubRef",
    "Version",
    "adapter_id",
    "check_slug",
    "parse_version",
    "resolve_latest",
]

LATEST = "latest"
SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
SLUG_MAX = 64
# the protocol's pattern, ASCII digits only (``\d`` would also match other scripts' digits)
VERSION = re.compile(r"v?([0-9]+)\.([0-9]+)\.([0-9]+)(?:-([A-Za-z0-9]+))?")


def check_slug(value: object, field: str) -> str:
    """``value`` if it is a valid namespace or name, else a ValidationError naming ``field``."""
    if not isinstance(value, str) or not SLUG.fullmatch(value) or len(value) > SLUG_MAX:
        raise ValidationError(
            f"{field} must be lower-kebab ([a-z0-9][a-z0-9-]*, at most {SLUG_MAX} characters)",
            {"field": field},
        )
    return value


@total_ordering
@dataclass(frozen=True, slots=True)
class Version:
    """A SemVer version without build metadata; ordered by SemVer precedence."""

    major: int
    minor: int
    patch: int
    prerelease: str | None = None

    def __str__(self) -> str:
        core = f"{self.major}.{self.minor}.{self.patch}"
        return f"{core}-{self.prerelease}" if self.prerelease else core

    def _key(self) -> tuple[int, int, int, int, tuple[int, int | str, str]]:
        pre = self.prerelease
        if pre is None:
            return (self.major, self.minor, self.patch, 1, (0, 0, ""))
        # SemVer: numeric identifiers compare numerically and sort before alphanumeric ones;
        # the text last, so a stored 1.0.0-01 and 1.0.0-1 still have one order
        ident: tuple[int, int | str, str] = (0, int(pre), pre) if pre.isdigit() else (1, pre, "")
        return (self.major, self.minor, self.patch, 0, ident)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() < other._key()


def parse_version(value: object, field: str = "version") -> Version:
    """Parse ``1.2.0`` / ``v1.2.0`` / ``1.2.0-rc1``; anything else (``+build`` too) is an error."""
    match = VERSION.fullmatch(value) if isinstance(value, str) and len(value) <= 64 else None
    if match is None:
        raise ValidationError(
            f"{field} must match ^v?MAJOR.MINOR.PATCH(-PRERELEASE)?$ (e.g. 1.2.0 or v1.2.0-rc1; "
            "a pre-release is letters and digits, without dots)",
            {"field": field},
        )
    major, minor, patch, pre = match.groups()
    return Version(int(major), int(minor), int(patch), pre)


def adapter_id(namespace: str, name: str, version: Version | str) -> str:
    """The canonical, filesystem-safe id: ``ns__name__v1.2.0``."""
    parsed = version if isinstance(version, Version) else parse_version(version)
    return f"{namespace}__{name}__v{parsed}"


def resolve_latest(versions: list[Version]) -> Version | None:
    """The highest release; a pre-release only when there is no release."""
    releases = [v for v in versions if v.prerelease is None]
    pool = releases or versions
    return max(pool) if pool else None


@dataclass(frozen=True, slots=True)
class HubRef:
    """``hub://namespace/name[:version]``; a missing version means ``latest``."""

    namespace: str
    name: str
    version: str = LATEST

    @classmethod
    def parse(cls, uri: str) -> HubRef:
        """Parse a ``hub://`` URI; ValidationError on anything else."""
        if not isinstance(uri, str) or not uri.startswith("hub://"):
            raise ValidationError("a hub reference looks like hub://namespace/name[:version]")
        body = uri[len("hub://") :]
        path, sep, version = body.partition(":")
        if sep and not version:
            raise ValidationError("empty version after ':' in the hub reference")
        parts = path.split("/")
        if len(parts) != 2:
            raise ValidationError("a hub reference has exactly namespace/name")
        return cls.of(parts[0], parts[1], version if sep else LATEST)

    @classmethod
    def of(cls, namespace: str, name: str, version: str = LATEST) -> HubRef:
        """A validated reference; the version is kept canonical (no leading ``v``)."""
        check_slug(namespace, "namespace")
        check_slug(name, "name")
        if version != LATEST:
            version = str(parse_version(version))
        return cls(namespace, name, version)

    @property
    def is_latest(self) -> bool:
        return self.version == LATEST

    @property
    def adapter_id(self) -> str:
        """The canonical id; only defined for a concrete version."""
        if self.is_latest:
            raise ValidationError("'latest' has no adapter_id; resolve it first")
        return adapter_id(self.namespace, self.name, self.version)

    def with_version(self, version: str) -> HubRef:
        return HubRef.of(self.namespace, self.name, version)

    def path(self) -> str:
        """The ``/v1/adapters/...`` path of this reference."""
        return f"/v1/adapters/{self.namespace}/{self.name}/{self.version}"

    def __str__(self) -> str:
        return f"hub://{self.namespace}/{self.name}:{self.version}"
