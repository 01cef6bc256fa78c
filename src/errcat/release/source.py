"""Reading a release source (a data directory or an artifact) and its release configuration.

The configuration is what a curator edits in the manifest by hand:
``allowDrafts`` and the ``withdrawn`` list.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import AwareDatetime, TypeAdapter

from errcat.errors import CatalogSourceError
from errcat.lint import Finding
from errcat.loaders import (
    MANIFEST_NAME,
    Loaded,
    data_files,
    is_artifact,
    iter_data_files,
    iter_path,
    read_artifact,
    read_manifest,
    sha256_file,
)
from errcat.models import RecordEnvelope
from errcat.release.datadir import canonical_files, content_digest

__all__ = [
    "TIMESTAMP",
    "ReleaseSource",
    "Withdrawal",
    "allows_drafts",
    "freshness",
    "parse_withdrawn",
    "read_source",
]


_RECORD_ID = re.compile(r"[0-9a-f]{16}")


TIMESTAMP: TypeAdapter[datetime] = TypeAdapter(AwareDatetime)


#: Fields of the manifest a curator edits by hand; ``release build`` keeps them.
_CONFIG_KEYS = ("allowDrafts", "withdrawn")


_WITHDRAWAL_KEYS = frozenset({"id", "reason", "version", "slug"})


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A record withdrawn from the catalog: its id, why, and the data version that withdrew it."""

    id: str
    reason: str
    version: str | None = None
    slug: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The manifest entry (``version`` and ``slug`` only when known)."""
        out: dict[str, Any] = {"id": self.id, "reason": self.reason}
        if self.slug:
            out["slug"] = self.slug
        if self.version:
            out["version"] = self.version
        return out


@dataclass
class ReleaseSource:
    """A release (or any catalog source) as read from disk, with its manifest if it has one.

    ``kind`` is ``directory`` (a data directory; every data file is read as it
    is now, whatever the manifest's checksums say), ``artifact`` (verified whole
    before reading) or ``file``.
    """

    path: str
    kind: Literal["directory", "artifact", "file"]
    manifest: dict[str, Any] | None
    manifest_path: str | None
    items: list[Loaded]
    manifest_text: str = ""

    @property
    def envelopes(self) -> list[RecordEnvelope]:
        """The envelopes that loaded (problems left out)."""
        return [item.envelope for item in self.items if item.envelope is not None]

    @property
    def data_version(self) -> str | None:
        """The manifest's data version, when there is a manifest."""
        value = self.manifest.get("dataVersion") if self.manifest else None
        return value if isinstance(value, str) else None

    def manifest_line(self, needle: str) -> int | None:
        """The line of the manifest where ``needle`` first occurs (for findings)."""
        index = self.manifest_text.find(needle)
        return None if index < 0 else self.manifest_text.count("\n", 0, index) + 1


def read_source(path: str | os.PathLike[str], *, strict: bool = True) -> ReleaseSource:
    """Read a data directory, its ``manifest.json``, a release artifact or a records file.

    Raises :class:`~errcat.errors.CatalogSourceError` when it cannot be read.
    """
    p = Path(path)
    if p.is_file() and p.name == MANIFEST_NAME:
        p = p.parent
    if p.is_dir():
        manifest_file = p / MANIFEST_NAME
        if not manifest_file.is_file():
            return ReleaseSource(str(p), "directory", None, None, list(iter_path(p, strict=strict)))
        manifest = read_manifest(p)
        text = manifest_file.read_text(encoding="utf-8")
        items = list(iter_data_files(p, strict=strict))
        return ReleaseSource(str(p), "directory", manifest, str(manifest_file), items, text)
    if not p.exists():
        raise CatalogSourceError(f"No such file or directory: {str(p)!r}")
    if is_artifact(p):
        manifest, _ = read_artifact(p)
        items = list(iter_path(p, strict=strict))
        text = json.dumps(manifest, indent=2, ensure_ascii=False)
        return ReleaseSource(str(p), "artifact", manifest, f"{p}!{MANIFEST_NAME}", items, text)
    return ReleaseSource(str(p), "file", None, None, list(iter_path(p, strict=strict)))


def parse_withdrawn(source: ReleaseSource) -> tuple[list[Withdrawal], list[Finding]]:
    """The manifest's withdrawn entries, and findings for malformed ones."""
    manifest = source.manifest or {}
    raw = manifest.get("withdrawn", [])
    found: list[Finding] = []

    def bad(message: str, needle: str = '"withdrawn"') -> None:
        found.append(
            Finding(
                "manifest", "error", message, source.manifest_path, source.manifest_line(needle)
            )
        )

    if not isinstance(raw, list):
        bad("withdrawn must be a list of {id, reason} entries")
        return [], found
    out: list[Withdrawal] = []
    for entry in raw:
        if not isinstance(entry, dict):
            bad(f"withdrawn entry {entry!r} is not an object")
            continue
        rid = entry.get("id")
        needle = f'"{rid}"' if isinstance(rid, str) else '"withdrawn"'
        unknown = sorted(set(entry) - _WITHDRAWAL_KEYS)
        if unknown:
            bad(f"withdrawn entry has unknown field {unknown[0]!r}", needle)
        if not isinstance(rid, str) or not _RECORD_ID.fullmatch(rid):
            bad(f"withdrawn entry id {rid!r} is not 16 lowercase hex digits", needle)
            continue
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            bad(f"withdrawn entry {rid} has no reason", needle)
            continue
        version = entry.get("version")
        slug = entry.get("slug")
        if version is not None and not isinstance(version, str):
            bad(f"withdrawn entry {rid} has a non-string version", needle)
            version = None
        out.append(
            Withdrawal(rid, reason.strip(), version, slug if isinstance(slug, str) else None)
        )
    return out, found


def allows_drafts(source: ReleaseSource) -> tuple[bool, list[Finding]]:
    """Whether the release allows drafts (``allowDrafts`` in its manifest), and findings."""
    value = (source.manifest or {}).get("allowDrafts", False)
    if isinstance(value, bool):
        return value, []
    line = source.manifest_line('"allowDrafts"')
    message = f"allowDrafts must be true or false, got {value!r}"
    return False, [Finding("manifest", "error", message, source.manifest_path, line)]


def freshness(source: ReleaseSource) -> list[Finding]:
    """Info findings for data files that changed since the manifest was written."""
    if source.kind != "directory" or source.manifest is None:
        return []
    root = Path(source.path)
    listed = source.manifest.get("files")
    listed = listed if isinstance(listed, dict) else {}
    found: list[Finding] = []
    for name, meta in sorted(listed.items()):
        path = root / name
        expected = meta.get("sha256") if isinstance(meta, dict) else None
        if not path.is_file():
            message = f"{name} is listed in the manifest but missing (release build updates it)"
        elif expected != sha256_file(path):
            message = f"{name} changed since the manifest was written (release build updates it)"
        else:
            continue
        found.append(
            Finding("manifest", "info", message, source.manifest_path, source.manifest_line(name))
        )
    for path in data_files(root):
        name = path.relative_to(root).as_posix()
        if name not in listed:
            message = f"{name} is not in the manifest yet (release build adds it)"
            found.append(Finding("manifest", "info", message, str(path)))
    digest = source.manifest.get("contentSha256")
    if isinstance(digest, str) and digest != content_digest(canonical_files(source.envelopes)):
        version = source.data_version or "the last build"
        message = f"the records differ from release {version}: the next build is a new release"
        line = source.manifest_line('"contentSha256"')
        found.append(Finding("manifest", "info", message, source.manifest_path, line))
    return found
