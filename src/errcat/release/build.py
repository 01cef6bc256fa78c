"""``release build``: the canonical directory, the full manifest and the release artifact.

>>> artifact_name("2026-09-01T00:00:00Z")
'errcat-data-2026-09-01T000000Z.zip'
"""

from __future__ import annotations

import argparse
import io
import os
import re
import time
import zipfile
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from errcat.errors import CatalogSourceError, ErrcatError
from errcat.lint import is_draft
from errcat.loaders import (
    ARTIFACT_SUFFIX,
    MANIFEST_NAME,
    data_files,
    read_artifact,
)
from errcat.models import RecordEnvelope, format_timestamp
from errcat.release.check import CheckReport, check_sources
from errcat.release.datadir import (
    base_manifest,
    canonical_files,
    content_digest,
    is_compressed_dir,
    manifest_text,
    newest,
    write_bytes,
)
from errcat.release.source import TIMESTAMP, Withdrawal, parse_withdrawn, read_source

__all__ = [
    "ARTIFACT_PREFIX",
    "BuildResult",
    "ReleaseRefusedError",
    "artifact_name",
    "build",
    "version_arg",
]


#: Start of the release artifact's file name: ``errcat-data-<data version>.zip``.
ARTIFACT_PREFIX = "errcat-data-"


class ReleaseRefusedError(ErrcatError, ValueError):
    """``release build`` will not write this release (the check found errors, or a bad version).

    ``report`` is the check that refused it, when a check did.
    """

    def __init__(self, reason: str, report: CheckReport | None = None) -> None:
        self.reason = reason
        self.report = report
        super().__init__(reason)


def artifact_name(data_version: str) -> str:
    """The release artifact's file name for a data version (colons dropped, for Windows).

    >>> artifact_name("2026-08-28T06:17:29.519Z")
    'errcat-data-2026-08-28T061729.519Z.zip'
    """
    safe = re.sub(r"[^A-Za-z0-9._+-]", "", data_version.replace(":", ""))
    return f"{ARTIFACT_PREFIX}{safe}{ARTIFACT_SUFFIX}"


def _artifact_bytes(manifest: Mapping[str, Any], files: Mapping[str, bytes]) -> bytes:
    """A zip of the manifest and the records files, byte-for-byte reproducible."""
    buffer = io.BytesIO()
    members = [(MANIFEST_NAME, manifest_text(manifest)), *sorted(files.items())]
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # unix, whatever the building platform
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=9)
    return buffer.getvalue()


def _parse_version(text: str) -> datetime:
    if text == "now":
        return datetime.now(timezone.utc)
    try:
        return TIMESTAMP.validate_python(text)
    except ValidationError:
        raise ValueError(
            f"invalid data version {text!r}: expected an ISO 8601 timestamp with a time zone "
            "(2026-09-01T00:00:00Z) or 'now'"
        ) from None


def version_arg(text: str) -> str:
    """``--version``: a data version as ``release build`` writes it (argparse type)."""
    try:
        return format_timestamp(_parse_version(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _as_time(version: str | None) -> datetime | None:
    if version is None:
        return None
    try:
        return _parse_version(version)
    except ValueError:
        return None


@dataclass
class BuildResult:
    """What ``release build`` wrote."""

    manifest: dict[str, Any]
    artifact: Path
    written: list[str]
    removed: list[str]
    report: CheckReport

    @property
    def data_version(self) -> str:
        """The data version of the release built."""
        return str(self.manifest["dataVersion"])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        return {
            "dataVersion": self.manifest["dataVersion"],
            "previous": self.manifest.get("previous"),
            "count": self.manifest["count"],
            "artifact": str(self.artifact),
            "written": self.written,
            "removed": self.removed,
            "check": {
                "counts": {lv: self.report.count(lv) for lv in ("error", "warning", "info")},
                "rules": self.report.by_rule(),
            },
        }


def _decide_version(
    old: Mapping[str, Any] | None,
    requested: str | None,
    newest: str | None,
    changed: bool,
) -> tuple[str | None, str | None]:
    """The data version of the release being built, and the one it follows."""
    old_version = old.get("dataVersion") if old else None
    old_version = old_version if isinstance(old_version, str) else None
    old_previous = old.get("previous") if old else None
    old_previous = old_previous if isinstance(old_previous, str) else None
    if requested is not None:
        version: str | None = requested
        new_time, newest_time = _as_time(requested), _as_time(newest)
        if new_time and newest_time and new_time < newest_time:
            raise ReleaseRefusedError(
                f"data version {requested} is older than the newest record ({newest})"
            )
        old_time = _as_time(old_version)
        if requested != old_version and new_time and old_time and new_time < old_time:
            raise ReleaseRefusedError(
                f"data version {requested} is older than the release it follows ({old_version})"
            )
    elif old_version is not None and not changed:
        version = old_version
    else:
        version = newest
        old_time, new_time = _as_time(old_version), _as_time(newest)
        if old_version is not None and (
            newest == old_version or (old_time and new_time and new_time <= old_time)
        ):
            raise ReleaseRefusedError(
                f"the data changed since release {old_version} but no record is newer; "
                "pass --version to name the new release"
            )
    if version is None:
        raise ReleaseRefusedError("no records and no --version: nothing to name the release by")
    if version == old_version and changed:
        raise ReleaseRefusedError(
            f"the data changed since release {old_version}; a new release needs a new --version"
        )
    previous = old_previous if version == old_version else old_version
    return version, previous


def build(
    directory: str | os.PathLike[str] = "data",
    *,
    version: str | None = None,
    dist: str | os.PathLike[str] | None = None,
    allow_drafts: bool | None = None,
    previous: str | os.PathLike[str] | None = None,
    thorough: bool = False,
) -> BuildResult:
    """Check, then rewrite a data directory canonically with its manifest, and write the artifact.

    The data version is ``version`` when given (an ISO 8601 timestamp or
    ``"now"``); otherwise it stays the manifest's when the records did not
    change, else it is the newest ``datasetVersion``. A release whose records
    changed needs a new version. Refuses (:class:`ReleaseRefusedError`) when the
    check has errors; writes nothing then. ``dist`` defaults to ``dist/`` next
    to the directory. Building twice changes nothing.
    """
    root = Path(directory)
    if not root.is_dir():
        raise CatalogSourceError(f"Not a data directory: {str(root)!r}")
    requested = format_timestamp(_parse_version(version)) if version is not None else None
    source = read_source(root, strict=True)
    old = source.manifest
    if allow_drafts is not None:
        source.manifest = {**(old or {}), "allowDrafts": allow_drafts}
    prev = read_source(previous, strict=False) if previous is not None else None
    started = time.perf_counter()
    findings = check_sources([source], allow_drafts=None, previous=prev, thorough=thorough)
    report = CheckReport(
        sorted(findings, key=lambda f: f.sort_key),
        len(source.envelopes),
        [source.path],
        time.perf_counter() - started,
        [source],
    )
    if not report.ok:
        errors = [str(f) for f in report.findings if f.level == "error"]
        shown = "".join(f"\n  {line}" for line in errors[:5])
        more = f"\n  ... and {len(errors) - 5} more" if len(errors) > 5 else ""
        raise ReleaseRefusedError(
            f"{report.count('error')} error(s) in {root}; nothing was written:{shown}{more}",
            report,
        )
    envelopes = source.envelopes
    files = canonical_files(envelopes, compress=is_compressed_dir(root))
    base = base_manifest(files, None)
    changed = _changed_since(old, files, base)
    data_version, follows = _decide_version(old, requested, newest(envelopes), changed)
    withdrawn, _ = parse_withdrawn(source)
    old_code = old.get("codeVersion") if old and not changed else None
    manifest = _full_manifest(
        {**base, "contentSha256": content_digest(files)},
        envelopes,
        data_version=data_version,
        previous=follows,
        code_version=(
            old_code
            if isinstance(old_code, str) and old and old.get("dataVersion") == data_version
            else _code_version()
        ),
        allow_drafts=bool((source.manifest or {}).get("allowDrafts", False)),
        withdrawn=[
            Withdrawal(w.id, w.reason, w.version or data_version, w.slug) for w in withdrawn
        ],
    )
    # Fields the build does not manage (who built the data from what) are kept.
    manifest.update({k: v for k, v in (old or {}).items() if k not in manifest})
    written: list[str] = []
    removed: list[str] = []
    for name, data in files.items():
        if write_bytes(root / name, data):
            written.append(name)
    # A file whose records are now in the canonical files goes; one that held none (a
    # notes.txt, a settings.json holding []) is not errcat's to delete.
    held_records = {item.source for item in source.items if item.envelope is not None}
    for path in data_files(root):
        name = path.relative_to(root).as_posix()
        if name not in files and str(path) in held_records:
            path.unlink()
            removed.append(name)
    if write_bytes(root / MANIFEST_NAME, manifest_text(manifest)):
        written.append(MANIFEST_NAME)
    out_dir = Path(dist) if dist is not None else _default_dist(root)
    artifact = out_dir / artifact_name(str(data_version))
    if write_bytes(artifact, _artifact_bytes(manifest, files)):
        written.append(str(artifact))
    read_artifact(artifact)  # what was written loads and verifies
    return BuildResult(manifest, artifact, written, removed, report)


def _changed_since(
    old: Mapping[str, Any] | None, files: Mapping[str, bytes], base: Mapping[str, Any]
) -> bool:
    """True when the records differ from those of the release the manifest describes."""
    if old is None:
        return True
    if isinstance(old.get("contentSha256"), str):
        return bool(old["contentSha256"] != content_digest(files))
    old_files = old.get("files")
    if not isinstance(old_files, dict):
        return True
    old_shas = {n: m.get("sha256") for n, m in old_files.items() if isinstance(m, dict)}
    return old_shas != {n: m["sha256"] for n, m in base["files"].items()}


def _default_dist(root: Path) -> Path:
    """``dist/`` next to the data directory (``data`` gives ``dist``)."""
    if root.name in {"", ".", ".."}:
        return root.resolve().parent / "dist"
    return root.parent / "dist"


def _code_version() -> str:
    from errcat import __version__

    return __version__


def _full_manifest(
    base: Mapping[str, Any],
    envelopes: Sequence[RecordEnvelope],
    *,
    data_version: str | None,
    previous: str | None,
    code_version: str,
    allow_drafts: bool,
    withdrawn: Sequence[Withdrawal],
) -> dict[str, Any]:
    records = [e.record for e in envelopes]
    by_repo = Counter(r.repo for r in records)
    by_class = Counter(r.error_class for r in records)
    return {
        **base,
        "dataVersion": data_version,
        "codeVersion": code_version,
        "previous": previous,
        "counts": {
            "byRepo": dict(sorted(by_repo.items())),
            "byClass": dict(sorted(by_class.items())),
        },
        "drafts": sum(1 for r in records if is_draft(r)),
        "allowDrafts": allow_drafts,
        "withdrawn": [w.to_dict() for w in sorted(withdrawn, key=lambda w: w.id)],
        "ids": sorted(r.id for r in records),
    }
