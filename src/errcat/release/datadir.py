"""Canonical data directories: one sorted JSON Lines file per repo, and the base manifest.

>>> records_file_name("sgl-project/sglang")
'records/sgl-project__sglang.jsonl'
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from errcat.errors import CatalogSourceError
from errcat.loaders import (
    COMPRESSED_SUFFIX,
    MANIFEST_NAME,
    data_files,
    dump_envelope,
    is_compressed,
    read_manifest,
)
from errcat.models import SCHEMA_VERSION, RecordEnvelope, format_timestamp

__all__ = [
    "base_manifest",
    "canonical_files",
    "compressed",
    "content_digest",
    "is_compressed_dir",
    "manifest_text",
    "newest",
    "records_file_name",
    "write_bytes",
    "write_data_dir",
]


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


def write_bytes(path: Path, data: bytes) -> bool:
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


def manifest_text(manifest: Mapping[str, Any]) -> bytes:
    """The bytes of a manifest as written: indented JSON, UTF-8, one final newline."""
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def base_manifest(files: Mapping[str, bytes], data_version: str | None) -> dict[str, Any]:
    """The manifest every data directory has: versions, counts and each file's sha256."""
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


def newest(envelopes: Iterable[RecordEnvelope]) -> str | None:
    """The newest ``datasetVersion`` of the envelopes (the default data version)."""
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
        compress = is_compressed_dir(root)
    files = canonical_files(items, compress=compress)
    (root / "records").mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        write_bytes(root / name, data)
    for stale in [*(root / "records").glob("*.jsonl"), *(root / "records").glob("*.jsonl.gz")]:
        if f"records/{stale.name}" not in files:
            stale.unlink()
    manifest = base_manifest(files, newest(items))
    try:
        old = read_manifest(root) if (root / MANIFEST_NAME).is_file() else {}
    except CatalogSourceError:
        old = {}
    if "contentSha256" in old:
        # A built release: its version, configuration and ids stay until the next build
        # (which compares contentSha256 to see that the records changed).
        manifest["dataVersion"] = old.get("dataVersion")
    manifest.update({k: v for k, v in old.items() if k not in manifest})
    write_bytes(root / MANIFEST_NAME, manifest_text(manifest))
    return manifest


def is_compressed_dir(root: Path) -> bool:
    """True when a data directory's records files are compressed (``.jsonl.gz``)."""
    return root.is_dir() and any(is_compressed(p.name) for p in data_files(root))
