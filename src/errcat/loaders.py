"""Read records from JSON Lines files, JSON files, directories and the bundled data.

Every reader yields :class:`Loaded` items: an envelope, or the
:class:`~errcat.errors.InvalidRecordError` that says which file, line and field
kept a line from loading. Callers decide whether a problem is fatal
(``strict=True``) or is reported and skipped; nothing else is dropped.

>>> from errcat.loaders import bundled_data_dir, read_manifest
>>> read_manifest(bundled_data_dir())["schemaVersion"]
2
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonlines

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # pragma: no cover - Python 3.10
    from importlib.abc import Traversable

from errcat.errors import CatalogSourceError, InvalidRecordError
from errcat.models import RecordEnvelope, validate_envelope

__all__ = [
    "MANIFEST_NAME",
    "Loaded",
    "bundled_data_dir",
    "dump_envelope",
    "iter_path",
    "read_manifest",
    "sha256_file",
    "write_jsonl",
]

#: Name of the manifest file at the top of a data directory.
MANIFEST_NAME = "manifest.json"

#: File name endings read as JSON Lines, as one JSON document, or sniffed.
_JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson"})
_JSON_SUFFIXES = frozenset({".json"})
_SNIFFED_SUFFIXES = frozenset({".txt"})


@dataclass(frozen=True, slots=True)
class Loaded:
    """One item read from a source: an envelope or the problem that replaced it."""

    source: str
    line: int
    envelope: RecordEnvelope | None = None
    problem: InvalidRecordError | None = None


def bundled_data_dir() -> Traversable:
    """The data directory shipped inside the errcat package (``data/`` in a checkout)."""
    return files("errcat") / "_data"


def read_manifest(directory: Traversable | Path) -> dict[str, Any]:
    """Read the ``manifest.json`` of a data directory.

    Raises :class:`~errcat.errors.CatalogSourceError` when it is missing or unreadable.
    """
    manifest = directory / MANIFEST_NAME
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogSourceError(f"Cannot read manifest {manifest}: {exc}") from None
    if not isinstance(data, dict):
        raise CatalogSourceError(f"Manifest {manifest} is not a JSON object")
    return data


def sha256_file(path: Traversable | Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _validated(obj: Any, source: str, line: int, *, strict: bool) -> Loaded:
    try:
        envelope = validate_envelope(obj, strict=strict, path=source, line=line)
    except InvalidRecordError as exc:
        return Loaded(source, line, problem=exc)
    return Loaded(source, line, envelope=envelope)


class _LineCounter:
    """Iterate over lines while remembering the number of the last one read."""

    def __init__(self, lines: Iterable[bytes]) -> None:
        self._lines = lines
        self.number = 0

    def __iter__(self) -> Iterator[bytes]:
        for line in self._lines:
            self.number += 1
            yield line


def _iter_jsonl(lines: Iterable[bytes], source: str, *, strict: bool) -> Iterator[Loaded]:
    counter = _LineCounter(lines)
    reader = jsonlines.Reader(counter)
    while True:
        try:
            obj = reader.read(skip_empty=True)
        except EOFError:
            return
        except jsonlines.InvalidLineError as exc:
            reason = str(exc).removesuffix(f" (line {exc.lineno})")
            problem = InvalidRecordError(reason, path=source, line=exc.lineno)
            yield Loaded(source, exc.lineno, problem=problem)
            continue
        yield _validated(obj, source, counter.number, strict=strict)


def _iter_json_document(text: str, source: str, *, strict: bool) -> Iterator[Loaded]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", None)
        yield Loaded(
            source,
            line or 1,
            problem=InvalidRecordError(f"invalid JSON: {exc}", path=source, line=line),
        )
        return
    items = data if isinstance(data, list) else [data]
    for index, item in enumerate(items, start=1):
        # A list's items are numbered as lines would be: the n-th envelope.
        yield _validated(item, source, index, strict=strict)


def _iter_file(path: Traversable | Path, source: str, *, strict: bool) -> Iterator[Loaded]:
    suffix = Path(path.name).suffix.lower()
    try:
        if suffix in _JSONL_SUFFIXES:
            with path.open("rb") as fh:
                yield from _iter_jsonl(fh, source, strict=strict)
            return
        raw = path.read_bytes()
    except OSError as exc:
        raise CatalogSourceError(f"Cannot read {source}: {exc.strerror or exc}") from None
    text = raw.decode("utf-8", errors="surrogateescape")
    if suffix in _JSON_SUFFIXES or _is_single_document(text):
        yield from _iter_json_document(text, source, strict=strict)
        return
    yield from _iter_jsonl(raw.splitlines(keepends=True), source, strict=strict)


def _is_single_document(text: str) -> bool:
    """True when ``text`` holds one JSON value (a pretty-printed or one-line envelope)."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return False
    try:
        json.loads(stripped)
    except ValueError:
        return False
    return True


def _data_files(directory: Path) -> list[Path]:
    found: list[Path] = []
    for root, dirs, names in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name == MANIFEST_NAME or name.startswith("."):
                continue
            suffix = Path(name).suffix.lower()
            if suffix in _JSONL_SUFFIXES | _JSON_SUFFIXES | _SNIFFED_SUFFIXES:
                found.append(Path(root) / name)
    return found


def _iter_manifest_dir(directory: Traversable, *, strict: bool) -> Iterator[Loaded]:
    """Read a data directory through its manifest, checking each file's sha256."""
    manifest = read_manifest(directory)
    entries = manifest.get("files")
    if not isinstance(entries, dict):
        raise CatalogSourceError(f"Manifest in {directory} has no 'files' table")
    for name, meta in sorted(entries.items()):
        path = directory
        for part in str(name).split("/"):
            path = path / part
        source = f"{directory}/{name}"
        if not path.is_file():
            raise CatalogSourceError(f"{source}: listed in the manifest but missing")
        expected = meta.get("sha256") if isinstance(meta, dict) else None
        if expected and sha256_file(path) != expected:
            raise CatalogSourceError(
                f"{source}: sha256 does not match the manifest (expected {expected}); "
                "the file was altered or truncated"
            )
        yield from _iter_file(path, source, strict=strict)


def iter_path(
    path: str | os.PathLike[str] | Traversable, *, strict: bool = False
) -> Iterator[Loaded]:
    """Yield every envelope (or problem) of a file or directory.

    A directory with a ``manifest.json`` is read through it (files checked
    against their sha256); any other directory is searched for ``.jsonl``,
    ``.ndjson``, ``.json`` and ``.txt`` files, in sorted order. A file whose
    whole text is one JSON value is one envelope (or a list of them); other
    files are JSON Lines.
    """
    if isinstance(path, Traversable) and not isinstance(path, Path):
        if (path / MANIFEST_NAME).is_file():
            yield from _iter_manifest_dir(path, strict=strict)
            return
        raise CatalogSourceError(f"{path}: not a data directory (no {MANIFEST_NAME})")
    p = Path(path)
    if p.is_dir():
        if (p / MANIFEST_NAME).is_file():
            yield from _iter_manifest_dir(p, strict=strict)
            return
        for file in _data_files(p):
            yield from _iter_file(file, str(file), strict=strict)
        return
    if not p.exists():
        raise CatalogSourceError(f"No such file or directory: {str(p)!r}")
    yield from _iter_file(p, str(p), strict=strict)


def dump_envelope(envelope: RecordEnvelope) -> str:
    """One envelope as a compact JSON line, fields in schema order, UTF-8 kept."""
    return json.dumps(envelope.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))


def write_jsonl(path: str | os.PathLike[str], envelopes: Iterable[RecordEnvelope]) -> int:
    """Write envelopes to a JSON Lines file (atomically); return how many were written."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    count = 0
    with tmp.open("w", encoding="utf-8", newline="\n") as fh:
        for envelope in envelopes:
            fh.write(dump_envelope(envelope))
            fh.write("\n")
            count += 1
    tmp.replace(target)
    return count
