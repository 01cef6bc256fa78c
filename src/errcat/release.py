"""Versioned data releases: check, build, diff and the release artifact.

A data directory holds one JSON Lines file per repo and a manifest.
:func:`check` validates every record strictly and lints it (the rules are in
:mod:`errcat.lint`); :func:`build` rewrites the directory canonically, writes
the manifest and a single-file release artifact (``dist/errcat-data-<data
version>.zip``, which ``Catalog.from_path`` loads), and refuses when the check
finds errors; :func:`diff` says what a release added, changed and withdrew, as
Markdown for the CHANGELOG or as JSON.

>>> import json, tempfile
>>> from pathlib import Path
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> env = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)
>>> with tempfile.TemporaryDirectory() as tmp:
...     data = Path(tmp) / "data"
...     _ = write_data_dir(data, [env])
...     first = build(data, version="2026-09-01T00:00:00Z")
...     fixed = env.record.model_copy(update={"solutions": ("Pass x=1",)})
...     _ = write_data_dir(data, [env.model_copy(update={"record": fixed})])
...     report = check([data])
...     second = build(data, version="2026-09-02T00:00:00Z")
...     notes = diff(first.artifact, second.artifact).to_markdown()
>>> report.ok, first.artifact.name, second.manifest["previous"]
(True, 'errcat-data-2026-09-01T000000Z.zip', '2026-09-01T00:00:00Z')
>>> print(notes)
- Data version 2026-09-02T00:00:00Z (since 2026-09-01T00:00:00Z): 1 record; 0 added,
  1 changed, 0 withdrawn.
  - Changed `ValueError: bad value {x!r}` (0123456789abcdef): solutions.

The manifest keeps ``dataVersion`` (by default the newest ``datasetVersion``
of the records), ``schemaVersion``, ``count`` and each file's ``count`` and
``sha256``; ``release build`` adds ``codeVersion`` (the errcat that built it),
``previous`` (the data version it follows), ``counts`` by repo and class,
``drafts``, the release configuration (``allowDrafts``, ``withdrawn``) and the
``ids`` it holds, so that a record dropped without a withdrawal is caught.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import os
import re
import sys
import time
import zipfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any, Literal, TextIO

from pydantic import AwareDatetime, TypeAdapter, ValidationError

from errcat.errors import CatalogSourceError, ErrcatError, InvalidRecordError
from errcat.lint import Finding, LintItem, is_draft, lint_records, problem_finding
from errcat.loaders import (
    ARTIFACT_SUFFIX,
    COMPRESSED_SUFFIX,
    MANIFEST_NAME,
    Loaded,
    data_files,
    dump_envelope,
    is_artifact,
    is_compressed,
    iter_data_files,
    iter_path,
    read_artifact,
    read_manifest,
    sha256_file,
)
from errcat.models import SCHEMA_VERSION, ErrorRecord, RecordEnvelope, format_timestamp

__all__ = [
    "ARTIFACT_PREFIX",
    "BuildResult",
    "CheckReport",
    "RecordChange",
    "ReleaseDiff",
    "ReleaseRefusedError",
    "ReleaseSource",
    "Withdrawal",
    "add_arguments",
    "artifact_name",
    "build",
    "canonical_files",
    "check",
    "content_digest",
    "diff",
    "diff_records",
    "read_source",
    "records_file_name",
    "run",
    "write_data_dir",
]

#: Start of the release artifact's file name: ``errcat-data-<data version>.zip``.
ARTIFACT_PREFIX = "errcat-data-"

_RECORD_ID = re.compile(r"[0-9a-f]{16}")
_TIMESTAMP: TypeAdapter[datetime] = TypeAdapter(AwareDatetime)
#: Fields of the manifest a curator edits by hand; ``release build`` keeps them.
_CONFIG_KEYS = ("allowDrafts", "withdrawn")
_WITHDRAWAL_KEYS = frozenset({"id", "reason", "version", "slug"})
#: Record fields that only say where the message is raised (a re-anchored record).
_LOCATION_FIELDS = frozenset(
    {
        "lineNumber",
        "sourceCode",
        "sourceCodeStart",
        "sourceCodeEnd",
        "githubUrl",
        "analyzedSha",
        "analyzedAt",
    }
)


class ReleaseRefusedError(ErrcatError, ValueError):
    """``release build`` will not write this release (the check found errors, or a bad version).

    ``report`` is the check that refused it, when a check did.
    """

    def __init__(self, reason: str, report: CheckReport | None = None) -> None:
        self.reason = reason
        self.report = report
        super().__init__(reason)


# --- canonical data directories -----------------------------------------------------------


def records_file_name(repo: str) -> str:
    """The file, relative to a data directory, that holds a repo's records.

    >>> records_file_name("sgl-project/sglang")
    'records/sgl-project__sglang.jsonl'
    """
    return "records/" + repo.replace("/", "__") + ".jsonl"


def _sort_key(envelope: RecordEnvelope) -> tuple[str, int, str]:
    record = envelope.record
    return (record.file_path, record.line_number, record.id)


def canonical_files(
    envelopes: Iterable[RecordEnvelope], *, compress: bool = False
) -> dict[str, bytes]:
    r"""The canonical bytes of each records file: one per repo, sorted by file, line and id.

    With ``compress``, each file is gzip-compressed (:func:`compressed`) and its
    name ends with ``.jsonl.gz``.

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> env = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)
    >>> files = canonical_files([env])
    >>> list(files), files["records/example__project.jsonl"].count(b"\n")
    (['records/example__project.jsonl'], 1)
    """
    by_repo: dict[str, list[RecordEnvelope]] = defaultdict(list)
    for envelope in envelopes:
        by_repo[envelope.record.repo].append(envelope)
    files: dict[str, bytes] = {}
    for repo in sorted(by_repo):
        group = sorted(by_repo[repo], key=_sort_key)
        text = "".join(dump_envelope(e) + "\n" for e in group)
        files[records_file_name(repo)] = text.encode("utf-8")
    return compressed(files) if compress else files


def compressed(files: Mapping[str, bytes]) -> dict[str, bytes]:
    """Records files gzip-compressed reproducibly: level 9, no file name, mtime 0.

    The same bytes in give the same bytes out (with the same zlib).

    >>> out = compressed({"records/x.jsonl": b"[]"})
    >>> list(out), gzip.decompress(out["records/x.jsonl.gz"])
    (['records/x.jsonl.gz'], b'[]')
    """
    return {
        name + COMPRESSED_SUFFIX: gzip.compress(data, compresslevel=9, mtime=0)
        for name, data in files.items()
    }


def _plain(files: Mapping[str, bytes]) -> dict[str, bytes]:
    """Records files with compressed ones decompressed (and their names without ``.gz``)."""
    return {
        name.removesuffix(COMPRESSED_SUFFIX) if is_compressed(name) else name: (
            gzip.decompress(data) if is_compressed(name) else data
        )
        for name, data in files.items()
    }


def _write_bytes(path: Path, data: bytes) -> bool:
    """Write ``data`` atomically unless the file already holds it; True when written."""
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return True


def _manifest_text(manifest: Mapping[str, Any]) -> bytes:
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _base_manifest(files: Mapping[str, bytes], data_version: str | None) -> dict[str, Any]:
    counts = {
        name: (gzip.decompress(data) if is_compressed(name) else data).count(b"\n")
        for name, data in files.items()
    }
    return {
        "dataVersion": data_version,
        "schemaVersion": SCHEMA_VERSION,
        "count": sum(counts.values()),
        "files": {
            name: {"count": counts[name], "sha256": hashlib.sha256(data).hexdigest()}
            for name, data in files.items()
        },
    }


def content_digest(files: Mapping[str, bytes]) -> str:
    """One sha256 for a release's records: over each file's name and sha256, in order.

    ``release build`` stores it as ``contentSha256``; a later build compares it
    to tell whether the records changed since that release. Compressed files
    count as their decompressed text, so compressing a release changes nothing.

    >>> content_digest({}) == hashlib.sha256(b"").hexdigest()
    True
    """
    lines = "".join(
        f"{name}\0{hashlib.sha256(data).hexdigest()}\n"
        for name, data in sorted(_plain(files).items())
    )
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()


def _newest(envelopes: Iterable[RecordEnvelope]) -> str | None:
    versions = [e.dataset_version for e in envelopes]
    return format_timestamp(max(versions)) if versions else None


def write_data_dir(
    directory: str | os.PathLike[str],
    envelopes: Iterable[RecordEnvelope],
    *,
    compress: bool | None = None,
) -> dict[str, Any]:
    """Write ``envelopes`` to ``directory`` canonically and return the manifest written.

    Records are grouped by repo, sorted by file, line and id, and written one
    JSON object per line. Files of repos that no longer have records are
    removed. With ``compress`` the files are ``.jsonl.gz`` (default: as the
    directory's records are now). The manifest has the data version (the newest ``datasetVersion``),
    schema version, count and files; :func:`build` writes the full one. In a
    directory :func:`build` wrote, the other fields of the manifest are kept
    (the release configuration, the ids released) and so is the data version:
    the records written are pending until the next build.
    """
    root = Path(directory)
    items = list(envelopes)
    if compress is None:
        compress = _is_compressed_dir(root)
    files = canonical_files(items, compress=compress)
    (root / "records").mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        _write_bytes(root / name, data)
    for stale in [*(root / "records").glob("*.jsonl"), *(root / "records").glob("*.jsonl.gz")]:
        if f"records/{stale.name}" not in files:
            stale.unlink()
    manifest = _base_manifest(files, _newest(items))
    try:
        old = read_manifest(root) if (root / MANIFEST_NAME).is_file() else {}
    except CatalogSourceError:
        old = {}
    if "contentSha256" in old:
        # A built release: its version, configuration and ids stay until the next build
        # (which compares contentSha256 to see that the records changed).
        manifest["dataVersion"] = old.get("dataVersion")
    manifest.update({k: v for k, v in old.items() if k not in manifest})
    _write_bytes(root / MANIFEST_NAME, _manifest_text(manifest))
    return manifest


def _is_compressed_dir(root: Path) -> bool:
    """True when a data directory's records files are compressed (``.jsonl.gz``)."""
    return root.is_dir() and any(is_compressed(p.name) for p in data_files(root))


# --- reading releases -------------------------------------------------------------------


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


def _parse_withdrawn(source: ReleaseSource) -> tuple[list[Withdrawal], list[Finding]]:
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


def _allows_drafts(source: ReleaseSource) -> tuple[bool, list[Finding]]:
    value = (source.manifest or {}).get("allowDrafts", False)
    if isinstance(value, bool):
        return value, []
    line = source.manifest_line('"allowDrafts"')
    message = f"allowDrafts must be true or false, got {value!r}"
    return False, [Finding("manifest", "error", message, source.manifest_path, line)]


def _freshness(source: ReleaseSource) -> list[Finding]:
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


# --- check --------------------------------------------------------------------------------


@dataclass
class CheckReport:
    """What ``release check`` found: every finding, sorted, and what was checked."""

    findings: list[Finding]
    records: int
    paths: list[str]
    seconds: float = 0.0
    sources: list[ReleaseSource] = field(default_factory=list, repr=False)

    def count(self, level: str) -> int:
        """Number of findings of a level."""
        return sum(1 for f in self.findings if f.level == level)

    @property
    def ok(self) -> bool:
        """True when no finding is an error."""
        return self.count("error") == 0

    def by_rule(self) -> dict[str, dict[str, int]]:
        """Finding counts per rule and level."""
        table: dict[str, Counter[str]] = defaultdict(Counter)
        for finding in self.findings:
            table[finding.rule][finding.level] += 1
        return {rule: dict(sorted(levels.items())) for rule, levels in sorted(table.items())}

    def collisions(self) -> dict[str, int]:
        """Shadowing pairs: in total, and how many traceback frames tell apart."""
        pairs = [f for f in self.findings if f.rule == "shadowing" and "collides" in f.message]
        apart = sum(1 for f in pairs if "distinguishable by traceback frames" in f.message)
        return {"pairs": len(pairs), "distinguishableByFrames": apart}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: summary counts, then every finding."""
        return {
            "ok": self.ok,
            "paths": self.paths,
            "records": self.records,
            "seconds": round(self.seconds, 3),
            "counts": {level: self.count(level) for level in ("error", "warning", "info")},
            "rules": self.by_rule(),
            "collisions": self.collisions(),
            "findings": [f.to_dict() for f in self.findings],
        }

    def to_text(self, *, verbose: bool = False) -> str:
        """Findings one per line (info ones only when ``verbose``), then a summary."""
        lines = [str(f) for f in self.findings if verbose or f.level != "info"]
        hidden = Counter(f.rule for f in self.findings if f.level == "info" and not verbose)
        if hidden:
            shown = ", ".join(f"{rule} {n}" for rule, n in sorted(hidden.items()))
            lines.append(f"({sum(hidden.values())} info findings not shown: {shown}; --verbose)")
        plural = "s" if self.records != 1 else ""
        lines.append(
            f"checked {self.records} record{plural} from {', '.join(self.paths)} in "
            f"{self.seconds:.1f} s: {self.count('error')} error(s), "
            f"{self.count('warning')} warning(s), {self.count('info')} info"
        )
        for rule, levels in self.by_rule().items():
            counts = ", ".join(f"{n} {level}" for level, n in levels.items())
            lines.append(f"  {rule}: {counts}")
        collisions = self.collisions()
        if collisions["pairs"]:
            lines.append(
                f"  collisions: {collisions['pairs']} pair(s), "
                f"{collisions['distinguishableByFrames']} distinguishable by traceback frames"
            )
        return "\n".join(lines)


def _withdrawal_findings(
    source: ReleaseSource,
    withdrawn: Sequence[Withdrawal],
    present: Mapping[str, LintItem],
    previous: ReleaseSource | None,
) -> list[Finding]:
    found: list[Finding] = []
    withdrawn_ids = {w.id for w in withdrawn}
    for w in withdrawn:
        if w.id in present:
            item = present[w.id]
            found.append(
                Finding(
                    "withdrawn",
                    "error",
                    f"record is listed as withdrawn ({w.reason}) but is still in the data",
                    item.path,
                    item.line,
                    w.id,
                )
            )
    released = (source.manifest or {}).get("ids")
    if isinstance(released, list):
        version = source.data_version or "the last build"
        for rid in sorted({r for r in released if isinstance(r, str)}):
            if rid not in present and rid not in withdrawn_ids:
                found.append(
                    Finding(
                        "withdrawn",
                        "error",
                        f"record of release {version} is missing and not listed as withdrawn "
                        "(add {id, reason} to withdrawn in the manifest, or restore it)",
                        source.manifest_path,
                        source.manifest_line(f'"{rid}"'),
                        rid,
                    )
                )
    if previous is not None:
        before, _ = _parse_withdrawn(previous)
        for w in before:
            if w.id not in withdrawn_ids and w.id not in present:
                found.append(
                    Finding(
                        "withdrawn",
                        "error",
                        f"withdrawn in {previous.data_version or previous.path} ({w.reason}) "
                        "but no longer listed as withdrawn: keep its entry",
                        source.manifest_path or source.path,
                        None,
                        w.id,
                    )
                )
        for loaded in previous.items:
            if loaded.envelope is None:
                continue
            record = loaded.envelope.record
            if record.id not in present and record.id not in withdrawn_ids:
                found.append(
                    Finding(
                        "withdrawn",
                        "error",
                        f"record of the previous release {previous.data_version or previous.path}"
                        f" ({record.slug}) is missing from {source.path} and not listed as "
                        "withdrawn in its manifest",
                        loaded.source,
                        loaded.line,
                        record.id,
                    )
                )
    return found


def _check_sources(
    sources: Sequence[ReleaseSource],
    *,
    allow_drafts: bool | None,
    previous: ReleaseSource | None,
    thorough: bool,
) -> list[Finding]:
    found: list[Finding] = []
    items: list[LintItem] = []
    withdrawn: dict[int, list[Withdrawal]] = {}
    for index, source in enumerate(sources):
        allowed, config_findings = _allows_drafts(source)
        found.extend(config_findings)
        if allow_drafts is not None:
            allowed = allow_drafts
        entries, entry_findings = _parse_withdrawn(source)
        withdrawn[index] = entries
        found.extend(entry_findings)
        found.extend(_freshness(source))
        for loaded in source.items:
            if loaded.problem is not None:
                found.append(problem_finding(loaded.problem))
            elif loaded.envelope is not None:
                items.append(LintItem(loaded.envelope.record, loaded.source, loaded.line, allowed))
    found.extend(lint_records(items, thorough=thorough))
    present: dict[str, LintItem] = {}
    for item in items:
        present.setdefault(item.record.id, item)
    # A record withdrawn by any of the sources checked together is withdrawn.
    all_withdrawn = [w for entries in withdrawn.values() for w in entries]
    for index, source in enumerate(sources):
        prev = previous if index == 0 else None
        found.extend(_withdrawal_findings(source, all_withdrawn, present, prev))
    return found


def check(
    paths: Sequence[str | os.PathLike[str]] = ("data",),
    *,
    allow_drafts: bool | None = None,
    previous: str | os.PathLike[str] | None = None,
    thorough: bool = False,
) -> CheckReport:
    """Strictly validate and lint the records of ``paths``, checked together as one catalog.

    ``allow_drafts`` overrides the ``allowDrafts`` of each source's manifest.
    ``previous`` is an earlier release (directory, manifest or artifact): a
    record of it that is neither present nor listed as withdrawn is an error,
    as is a record of the data directory's own manifest (``ids``).
    ``thorough`` times every pattern on the 1 MB inputs instead of screening.
    """
    started = time.perf_counter()
    sources = [read_source(p, strict=True) for p in paths]
    prev = read_source(previous, strict=False) if previous is not None else None
    findings = _check_sources(sources, allow_drafts=allow_drafts, previous=prev, thorough=thorough)
    records = sum(len(s.envelopes) for s in sources)
    return CheckReport(
        sorted(findings, key=lambda f: f.sort_key),
        records,
        [s.path for s in sources],
        time.perf_counter() - started,
        sources,
    )


# --- build --------------------------------------------------------------------------------


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
    members = [(MANIFEST_NAME, _manifest_text(manifest)), *sorted(files.items())]
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
        return _TIMESTAMP.validate_python(text)
    except ValidationError:
        raise ValueError(
            f"invalid data version {text!r}: expected an ISO 8601 timestamp with a time zone "
            "(2026-09-01T00:00:00Z) or 'now'"
        ) from None


def _version_arg(text: str) -> str:
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
    findings = _check_sources([source], allow_drafts=None, previous=prev, thorough=thorough)
    report = CheckReport(
        sorted(findings, key=lambda f: f.sort_key),
        len(source.envelopes),
        [source.path],
        time.perf_counter() - started,
        [source],
    )
    if not report.ok:
        raise ReleaseRefusedError(
            f"{report.count('error')} error(s) in {root}; nothing was written", report
        )
    envelopes = source.envelopes
    files = canonical_files(envelopes, compress=_is_compressed_dir(root))
    base = _base_manifest(files, None)
    changed = _changed_since(old, files, base)
    data_version, follows = _decide_version(old, requested, _newest(envelopes), changed)
    withdrawn, _ = _parse_withdrawn(source)
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
        if _write_bytes(root / name, data):
            written.append(name)
    for path in data_files(root):
        name = path.relative_to(root).as_posix()
        if name not in files:
            path.unlink()  # its records are in the canonical files now
            removed.append(name)
    if _write_bytes(root / MANIFEST_NAME, _manifest_text(manifest)):
        written.append(MANIFEST_NAME)
    out_dir = Path(dist) if dist is not None else _default_dist(root)
    artifact = out_dir / artifact_name(str(data_version))
    if _write_bytes(artifact, _artifact_bytes(manifest, files)):
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


# --- diff ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordChange:
    """A record present in both releases whose fields differ."""

    old: ErrorRecord
    new: ErrorRecord
    fields: tuple[str, ...]

    @property
    def pattern_changed(self) -> bool:
        """True when ``messagePattern`` changed: what the record matches changed."""
        return "messagePattern" in self.fields

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        out: dict[str, Any] = {**_summary(self.new), "fields": list(self.fields)}
        out["patternChanged"] = self.pattern_changed
        if self.pattern_changed:
            out["pattern"] = {"old": self.old.message_pattern, "new": self.new.message_pattern}
        return out


def _summary(record: ErrorRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "slug": record.slug,
        "repo": record.repo,
        "errorClass": record.error_class,
        "errorMessage": record.error_message,
        "location": f"{record.file_path}:{record.line_number}",
    }


@dataclass(frozen=True)
class ReleaseDiff:
    """What changed between two releases: records added, changed and withdrawn.

    A withdrawn record without an entry in the new release's ``withdrawn``
    list (``withdrawal`` is None) was dropped silently: :attr:`ok` is False.
    """

    old_version: str | None
    new_version: str | None
    old_count: int
    new_count: int
    added: tuple[ErrorRecord, ...]
    changed: tuple[RecordChange, ...]
    withdrawn: tuple[tuple[ErrorRecord, Withdrawal | None], ...]

    @property
    def unlisted(self) -> list[ErrorRecord]:
        """Records missing from the new release that its manifest does not list as withdrawn."""
        return [record for record, why in self.withdrawn if why is None]

    @property
    def ok(self) -> bool:
        """True when no record was dropped silently."""
        return not self.unlisted

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "old": {"dataVersion": self.old_version, "count": self.old_count},
            "new": {"dataVersion": self.new_version, "count": self.new_count},
            "added": [_summary(r) for r in self.added],
            "changed": [c.to_dict() for c in self.changed],
            "withdrawn": [
                {
                    **_summary(r),
                    "reason": w.reason if w else None,
                    "listed": w is not None,
                }
                for r, w in self.withdrawn
            ],
            "ok": self.ok,
        }

    def to_markdown(self) -> str:
        """Release notes for the ``Data`` group of the CHANGELOG, one bullet per record."""
        head = f"Data version {self.new_version or 'unversioned'}"
        if self.old_version and self.old_version != self.new_version:
            head += f" (since {self.old_version})"
        parts = [
            f"{len(self.added)} added",
            f"{len(self.changed)} changed",
            f"{len(self.withdrawn)} withdrawn",
        ]
        plural = "" if self.new_count == 1 else "s"
        lines = [f"- {head}: {self.new_count} record{plural}; {', '.join(parts)}."]
        for record in self.added:
            lines.append(
                f"  - Added {_md_code(record.title)} ({record.id}, "
                f"{_md_code(f'{record.file_path}:{record.line_number}')} in {record.repo})."
            )
        for change in self.changed:
            what: list[str] = []
            if change.pattern_changed:
                what.append(
                    f"**pattern changed** (what it matches changed): "
                    f"{_md_code(change.old.message_pattern)} → "
                    f"{_md_code(change.new.message_pattern)}"
                )
            rest = [f for f in change.fields if f != "messagePattern"]
            if rest and set(rest) <= _LOCATION_FIELDS:
                what.append(
                    f"re-anchored ({change.old.line_number} → {change.new.line_number}: "
                    f"{', '.join(rest)})"
                )
            elif rest:
                what.append(", ".join(rest))
            lines.append(
                f"  - Changed {_md_code(change.new.title)} ({change.new.id}): {'; '.join(what)}."
            )
        for record, why in self.withdrawn:
            reason = why.reason if why else "**not listed as withdrawn in the new manifest**"
            lines.append(f"  - Withdrawn {_md_code(record.title)} ({record.id}): {reason}.")
        return "\n".join(lines)


def _md_code(text: str) -> str:
    """Inline Markdown code that survives backticks and newlines in the text."""
    flat = " ".join(text.split())
    fence = "`"
    while fence in flat:
        fence += "`"
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def _fields_differ(old: ErrorRecord, new: ErrorRecord) -> tuple[str, ...]:
    a = old.model_dump(mode="json")
    b = new.model_dump(mode="json")
    keys = list(a) + [k for k in b if k not in a]
    return tuple(k for k in keys if a.get(k) != b.get(k))


def diff_records(
    old: Mapping[str, ErrorRecord],
    new: Mapping[str, ErrorRecord],
    *,
    withdrawn: Iterable[Withdrawal] = (),
    old_version: str | None = None,
    new_version: str | None = None,
) -> ReleaseDiff:
    """Compare two sets of records by id; ``withdrawn`` is the new release's withdrawn list.

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> a = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> b = a.model_copy(update={"solutions": ("Pass x=1",)})
    >>> d = diff_records({a.id: a}, {b.id: b})
    >>> [c.fields for c in d.changed], d.added, d.withdrawn
    ([('solutions',)], (), ())
    """
    reasons = {w.id: w for w in withdrawn}
    added = tuple(new[i] for i in sorted(new.keys() - old.keys()))
    gone = tuple((old[i], reasons.get(i)) for i in sorted(old.keys() - new.keys()))
    changed = []
    for rid in sorted(old.keys() & new.keys()):
        fields = _fields_differ(old[rid], new[rid])
        if fields:
            changed.append(RecordChange(old[rid], new[rid], fields))
    return ReleaseDiff(old_version, new_version, len(old), len(new), added, tuple(changed), gone)


def _records_of(source: ReleaseSource) -> dict[str, ErrorRecord]:
    for item in source.items:
        if item.problem is not None:
            raise item.problem
    return {e.record.id: e.record for e in source.envelopes}


def diff(old: str | os.PathLike[str], new: str | os.PathLike[str]) -> ReleaseDiff:
    """Compare two releases (data directories, manifest files or release artifacts)."""
    old_source = read_source(old, strict=False)
    new_source = read_source(new, strict=False)
    withdrawn, problems = _parse_withdrawn(new_source)
    if problems:
        raise InvalidRecordError(problems[0].message, path=problems[0].path, line=problems[0].line)
    return diff_records(
        _records_of(old_source),
        _records_of(new_source),
        withdrawn=withdrawn,
        old_version=old_source.data_version,
        new_version=new_source.data_version,
    )


# --- command line -------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``check``, ``build`` and ``diff`` steps of ``errcat release`` to a parser.

    >>> p = argparse.ArgumentParser(prog="errcat release")
    >>> add_arguments(p)
    >>> args = p.parse_args(["check", "--allow-drafts"])
    >>> args.release_command, args.paths, args.allow_drafts
    ('check', ['data'], True)
    """
    sub = parser.add_subparsers(dest="release_command", metavar="STEP")
    sub.required = True

    p = sub.add_parser(
        "check",
        help="validate strictly and lint a catalog",
        description=(
            "Validate records strictly (schemaVersion 2) and lint them: patterns, "
            "shadowing, URLs and spans, slugs, ids, curation. Exit 1 on an error finding."
        ),
    )
    p.add_argument(
        "paths",
        nargs="*",
        default=["data"],
        metavar="PATH",
        help="data directories, manifests, release artifacts or JSONL files (default: data)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument(
        "--allow-drafts",
        action="store_true",
        default=None,
        help="accept draft records (as a mined catalog has) whatever the manifest says",
    )
    p.add_argument(
        "--previous",
        metavar="OLD",
        help="the previous release: its records must be present or listed as withdrawn",
    )
    p.add_argument(
        "--thorough",
        action="store_true",
        help="time every pattern on the 1 MB inputs (default: screen on 64 KB first)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="also print info findings")

    p = sub.add_parser(
        "build",
        help="rewrite data/ canonically, write the manifest and the release artifact",
        description=(
            "Check the data directory, refuse on errors, rewrite it canonically, write "
            "the manifest and dist/errcat-data-<version>.zip. Building twice changes nothing."
        ),
    )
    p.add_argument("path", nargs="?", default="data", metavar="PATH", help="default: data")
    p.add_argument(
        "--version",
        dest="data_version",
        type=_version_arg,
        metavar="V",
        help="data version of the new release (ISO 8601 timestamp or 'now'); "
        "default: unchanged, or the newest datasetVersion when records changed",
    )
    p.add_argument("--dist", metavar="DIR", help="where the artifact goes (default: dist/)")
    p.add_argument(
        "--allow-drafts",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="record in the manifest that this release accepts draft records",
    )
    p.add_argument("--previous", metavar="OLD", help="the previous release, as for check")
    p.add_argument("--thorough", action="store_true", help="as for check")
    p.add_argument("--json", action="store_true", help="print a JSON summary")

    p = sub.add_parser(
        "diff",
        help="records added, changed and withdrawn between two releases",
        description=(
            "Compare two releases (data directories, manifest files or release artifacts). "
            "Markdown for the CHANGELOG by default. Exit 1 when a record was dropped "
            "without being listed as withdrawn."
        ),
    )
    p.add_argument("old", metavar="OLD")
    p.add_argument("new", metavar="NEW")
    p.add_argument("--json", action="store_true", help="print JSON instead of Markdown")


def run(
    args: argparse.Namespace,
    *,
    stdin: IO[Any] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run one ``errcat release`` step; 0 ok, 1 errors or refused, 2 unreadable input."""
    del stdin
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    step = args.release_command
    try:
        if step == "check":
            report = check(
                args.paths,
                allow_drafts=args.allow_drafts,
                previous=args.previous,
                thorough=args.thorough,
            )
            if args.json:
                print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False), file=out)
            else:
                print(report.to_text(verbose=args.verbose), file=out)
            return 0 if report.ok else 1
        if step == "build":
            return _run_build(args, out, err)
        if step == "diff":
            result = diff(args.old, args.new)
            if args.json:
                print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False), file=out)
            else:
                print(result.to_markdown(), file=out)
            for record in result.unlisted:
                print(
                    f"errcat release diff: error: {record.id} ({record.slug}) is missing from "
                    f"{args.new} but not listed as withdrawn in its manifest",
                    file=err,
                )
            return 0 if result.ok else 1
    except ReleaseRefusedError as exc:
        print(f"errcat release {step}: refused: {exc}", file=err)
        return 1
    except BrokenPipeError:  # `errcat release check | head`: the caller handles it
        raise
    except (ErrcatError, OSError, ValueError) as exc:
        print(f"errcat release {step}: error: {exc}", file=err)
        return 2
    print(f"errcat release: unknown step {step!r}", file=err)
    return 2


def _run_build(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        result = build(
            args.path,
            version=args.data_version,
            dist=args.dist,
            allow_drafts=args.allow_drafts,
            previous=args.previous,
            thorough=args.thorough,
        )
    except ReleaseRefusedError as exc:
        if exc.report is not None:
            print(exc.report.to_text(), file=out)
        print(f"errcat release build: refused: {exc}", file=err)
        return 1
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False), file=out)
        return 0
    for line in result.report.to_text().splitlines():
        if not line.startswith(("checked ", "  ")):
            print(line, file=out)  # warnings stay visible
    manifest = result.manifest
    follows = f" (follows {manifest['previous']})" if manifest.get("previous") else ""
    print(
        f"data version {manifest['dataVersion']}{follows}: {manifest['count']} records in "
        f"{len(manifest['files'])} file(s), {manifest['drafts']} draft(s), "
        f"{len(manifest['withdrawn'])} withdrawn",
        file=out,
    )
    if result.written or result.removed:
        for name in result.written:
            print(f"  wrote {name}", file=out)
        for name in result.removed:
            print(f"  removed {name} (its records are in the canonical files)", file=out)
    else:
        print("  nothing to do: the release is already built", file=out)
    print(f"  artifact {result.artifact}", file=out)
    del err
    return 0
