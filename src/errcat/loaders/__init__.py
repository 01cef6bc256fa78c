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

import gzip
import hashlib
import json
import os
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

from errcat._compat import Traversable
from errcat.errors import CatalogSourceError, InvalidRecordError
from errcat.loaders.artifact import is_artifact, read_artifact
from errcat.loaders.limits import (
    MAX_LINE_BYTES,
    JSONTooDeepError,
    OverlongLine,
    bounded_lines,
    inflate,
    inflate_limit,
    parse_json,
    too_large,
)
from errcat.loaders.names import (
    ARTIFACT_SUFFIX,
    COMPRESSED_SUFFIX,
    JSON_SUFFIXES,
    JSONL_SUFFIXES,
    MANIFEST_NAME,
    SNIFFED_SUFFIXES,
    SOURCES_NAME,
    data_suffix,
    is_compressed,
    member_path_problem,
)

if TYPE_CHECKING:
    from errcat.models import RecordEnvelope

__all__ = [
    "ARTIFACT_SUFFIX",
    "COMPRESSED_SUFFIX",
    "MANIFEST_NAME",
    "SOURCES_NAME",
    "Loaded",
    "bundled_data_dir",
    "data_files",
    "dump_envelope",
    "is_artifact",
    "is_compressed",
    "is_prose",
    "iter_data_files",
    "iter_path",
    "load_envelopes",
    "manifest_files",
    "open_data",
    "read_artifact",
    "read_manifest",
    "sha256_file",
    "write_jsonl",
]


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
    A manifest on disk is parsed once per process while its file is unchanged
    (a large release lists every record id); each call gets its own top-level dict.
    """
    manifest = directory / MANIFEST_NAME
    try:
        if isinstance(manifest, Path):
            stat = manifest.stat()
            key = (str(manifest), stat.st_mtime_ns, stat.st_size)
            cached = _MANIFESTS.get(key)
            if cached is None:
                cached = _MANIFESTS[key] = parse_json(manifest.read_bytes().decode("utf-8"))
            data = cached
        else:
            data = parse_json(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogSourceError(f"Cannot read manifest {manifest}: {exc}") from None
    if not isinstance(data, dict):
        raise CatalogSourceError(f"Manifest {manifest} is not a JSON object")
    return dict(data)


_MANIFESTS: dict[tuple[str, int, int], Any] = {}


def sha256_file(path: Traversable | Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@contextmanager
def open_data(path: Traversable | Path) -> Iterator[IO[bytes]]:
    """Open a data file for reading bytes, decompressing it when its name ends with ``.gz``.

    A compressed file reads as at most :func:`~errcat.loaders.limits.inflate_limit`
    bytes of its size: past that, reading raises
    :class:`~errcat.errors.CatalogSourceError`.

    >>> import gzip, tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "cat.jsonl.gz"
    ...     _ = p.write_bytes(gzip.compress(b"[1, 2]"))
    ...     with open_data(p) as fh:
    ...         fh.read()
    b'[1, 2]'
    """
    with path.open("rb") as fh:
        if not is_compressed(path.name):
            yield fh
            return
        limit = None
        if fh.seekable():
            limit = inflate_limit(fh.seek(0, os.SEEK_END))
            fh.seek(0)
        with gzip.GzipFile(fileobj=fh, mode="rb") as unpacked:
            yield cast(IO[bytes], _Inflating(unpacked, str(path), limit))


class _DamagedError(Exception):
    """A compressed data file that stops decompressing partway (raised inside the reader)."""


class _Inflating:
    """A gzip stream read to at most ``limit`` bytes; damage gives :class:`_DamagedError`."""

    def __init__(self, stream: gzip.GzipFile, source: str, limit: int | None) -> None:
        self._stream = stream
        self._source = source
        self._limit = limit
        self._done = 0

    @property
    def done(self) -> int:
        """Bytes decompressed so far."""
        return self._done

    def _counted(self, data: bytes) -> bytes:
        self._done += len(data)
        if self._limit is not None and self._done > self._limit:
            raise too_large(self._source, self._limit)
        return data

    def read(self, size: int = -1) -> bytes:
        if self._limit is not None and (size < 0 or size > self._limit + 1 - self._done):
            size = self._limit + 1 - self._done  # never more than the bound, plus one
        try:
            data = self._stream.read(size)
        except (OSError, EOFError, zlib.error) as exc:
            raise _DamagedError(str(exc) or type(exc).__name__) from None
        return self._counted(data)

    def readline(self, size: int = -1) -> bytes:
        try:
            data = self._stream.readline(size)
        except (OSError, EOFError, zlib.error) as exc:
            raise _DamagedError(str(exc) or type(exc).__name__) from None
        return self._counted(data)


def _validated(obj: Any, source: str, line: int, *, strict: bool) -> Loaded:
    from errcat.models import validate_envelope  # pydantic: only once records are read

    try:
        envelope = validate_envelope(obj, strict=strict, path=source, line=line)
    except InvalidRecordError as exc:
        return Loaded(source, line, problem=exc)
    return Loaded(source, line, envelope=envelope)


class _LineCounter:
    """Lines for the JSON Lines reader, numbered; an overlong line stands in as a bad one."""

    def __init__(self, lines: Iterable[bytes | OverlongLine]) -> None:
        self._lines = lines
        self.number = 0
        self.overlong: dict[int, int] = {}  # line number -> its size

    def __iter__(self) -> Iterator[bytes]:
        for line in self._lines:
            self.number += 1
            if isinstance(line, OverlongLine):
                self.overlong[self.number] = line.size
                yield b"\x00\n"  # not JSON: the reader reports this line, and goes on
            else:
                yield line


def _iter_jsonl(
    lines: Iterable[bytes | OverlongLine], source: str, *, strict: bool
) -> Iterator[Loaded]:
    import jsonlines

    counter = _LineCounter(lines)
    reader = jsonlines.Reader(counter, loads=parse_json)
    while True:
        try:
            obj = reader.read(skip_empty=True)
        except EOFError:
            return
        except _DamagedError as exc:
            raise CatalogSourceError(
                f"{source}:{counter.number + 1}: the compressed data is damaged or cut short "
                f"after line {counter.number} ({exc})"
            ) from None
        except jsonlines.InvalidLineError as exc:
            reason = str(exc).removesuffix(f" (line {exc.lineno})")
            size = counter.overlong.get(exc.lineno)
            if size is not None:
                reason = f"line of {size} bytes is longer than {MAX_LINE_BYTES} (not read)"
            problem = InvalidRecordError(reason, path=source, line=exc.lineno)
            yield Loaded(source, exc.lineno, problem=problem)
            continue
        yield _validated(obj, source, counter.number, strict=strict)


def _iter_json_document(text: str, source: str, *, strict: bool) -> Iterator[Loaded]:
    try:
        data = parse_json(text)
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


#: A file read as one JSON document (not JSON Lines) may hold at most this many bytes.
MAX_DOCUMENT_BYTES = 256 << 20


def _empty_compressed(source: str, size: int) -> Loaded:
    """The problem of a compressed data file holding nothing (not read as no records)."""
    reason = (
        "the file is empty (0 bytes): not gzip data, no records read"
        if size == 0
        else "the compressed file decompresses to nothing: no records read"
    )
    return Loaded(source, 0, problem=InvalidRecordError(reason, path=source))


def _iter_file(path: Traversable | Path, source: str, *, strict: bool) -> Iterator[Loaded]:
    suffix = data_suffix(path.name)
    try:
        if is_compressed(path.name):
            with path.open("rb") as probe:
                if not probe.read(1):  # gzip reads an empty file as no data at all
                    yield _empty_compressed(source, 0)
                    return
        if suffix in JSONL_SUFFIXES:
            with open_data(path) as fh:
                yield from _iter_jsonl(bounded_lines(fh), source, strict=strict)
                if isinstance(fh, _Inflating) and fh.done == 0:
                    yield _empty_compressed(source, 1)
            return
        with open_data(path) as fh:
            raw = fh.read(MAX_DOCUMENT_BYTES + 1)
        if not raw and is_compressed(path.name):
            yield _empty_compressed(source, 1)
            return
    except _DamagedError as exc:
        raise CatalogSourceError(f"Cannot read {source}: {exc}") from None
    except (OSError, EOFError, zlib.error) as exc:
        if isinstance(exc, CatalogSourceError):
            raise
        reason = getattr(exc, "strerror", None) or exc
        raise CatalogSourceError(f"Cannot read {source}: {reason}") from None
    text = raw.decode("utf-8", errors="surrogateescape")
    if len(raw) <= MAX_DOCUMENT_BYTES and (suffix in JSON_SUFFIXES or _is_single_document(text)):
        yield from _iter_json_document(text, source, strict=strict)
        return
    if suffix in JSON_SUFFIXES:
        raise CatalogSourceError(
            f"{source}: larger than {MAX_DOCUMENT_BYTES} bytes: too large to read as one JSON "
            "document (write it as JSON Lines)"
        )
    yield from _iter_jsonl(bounded_lines(raw.splitlines(keepends=True)), source, strict=strict)


def _is_single_document(text: str) -> bool:
    """True when ``text`` holds one JSON value (a pretty-printed or one-line envelope)."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return False
    try:
        parse_json(stripped)
    except JSONTooDeepError:
        return True  # one value, read as such: its problem is its depth
    except ValueError:
        return False
    return True


def _data_files(directory: Path) -> list[Path]:
    found: list[Path] = []
    for root, dirs, names in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name in (MANIFEST_NAME, SOURCES_NAME) or name.startswith("."):
                continue
            if name.lower().endswith((".history.json", ".history.json.gz")):
                continue  # a history sidecar (errcat.history), not records
            suffix = data_suffix(name)
            if suffix in SNIFFED_SUFFIXES and is_prose(Path(root) / name):
                continue  # a notes.txt: not errcat's data, neither read nor touched
            if suffix in JSONL_SUFFIXES | JSON_SUFFIXES | SNIFFED_SUFFIXES:
                found.append(Path(root) / name)
    return found


#: Bytes read from the start of a ``.txt`` file to tell records from prose.
_SNIFF_BYTES = 4096


def is_prose(path: Traversable | Path) -> bool:
    r"""True for a ``.txt`` file that holds no records: it opens with neither ``{`` nor ``[{``.

    Such a file in a data directory (``notes.txt``, a README) is not data: a
    directory search leaves it out, so ``release check`` does not report its
    lines and ``release build`` neither reads nor removes it. A file that cannot
    be read is not called prose (reading it reports the problem).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     notes, records = pathlib.Path(tmp) / "notes.txt", pathlib.Path(tmp) / "r.txt"
    ...     _ = notes.write_text("Rebuild weekly.\n")
    ...     _ = records.write_text('\ufeff  {"schemaVersion": 2}\n')
    ...     is_prose(notes), is_prose(records)
    (True, False)
    """
    try:
        with open_data(path) as fh:
            head = fh.read(_SNIFF_BYTES)
    except (OSError, EOFError, zlib.error, _DamagedError):
        return False
    start = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if start[:1] == b"[":  # a list of envelopes, not "[draft] read me"
        start = start[1:].lstrip() or b"]"
    return bool(start) and start[:1] not in (b"{", b"]")


def manifest_files(
    directory: Traversable | Path, manifest: dict[str, Any] | None = None
) -> list[tuple[str, Traversable | Path, str | None]]:
    """The files a data directory's manifest lists: ``(name, path, sha256 or None)``, sorted.

    Raises :class:`~errcat.errors.CatalogSourceError` when the manifest has no
    ``files`` table or names a file outside the directory (``../x.jsonl``, an
    absolute path, a link leading out): a manifest never makes errcat read,
    or a release build touch, anything else.
    """
    if manifest is None:
        manifest = read_manifest(directory)
    entries = manifest.get("files")
    if not isinstance(entries, dict):
        raise CatalogSourceError(f"Manifest in {directory} has no 'files' table")
    root = directory.resolve() if isinstance(directory, Path) else None
    out: list[tuple[str, Traversable | Path, str | None]] = []
    for name, meta in sorted(entries.items()):
        problem = member_path_problem(name)
        path: Traversable | Path = directory
        for part in str(name).split("/"):
            path = path / part
        if problem is None and root is not None and isinstance(path, Path):
            inside = path.resolve()
            if root != inside and root not in inside.parents:
                problem = f"{name!r} leads out of the data directory (through a link)"
        if problem is not None:
            raise CatalogSourceError(f"{directory}/{MANIFEST_NAME}: files: {problem}")
        sha = meta.get("sha256") if isinstance(meta, dict) else None
        out.append((name, path, sha if isinstance(sha, str) else None))
    return out


def _iter_manifest_dir(directory: Traversable, *, strict: bool) -> Iterator[Loaded]:
    """Read a data directory through its manifest, checking each file's sha256."""
    for name, path, expected in manifest_files(directory):
        source = f"{directory}/{name}"
        if not path.is_file():
            raise CatalogSourceError(f"{source}: listed in the manifest but missing")
        if expected and sha256_file(path) != expected:
            raise CatalogSourceError(
                f"{source}: sha256 does not match the manifest (expected {expected}); "
                "the file was altered or truncated"
            )
        yield from _iter_file(path, source, strict=strict)


def data_files(directory: str | os.PathLike[str]) -> list[Path]:
    """The data files under a directory, sorted, whatever its manifest lists.

    These are the ``.jsonl``, ``.ndjson``, ``.json`` and ``.txt`` files, also
    gzip-compressed (``.jsonl.gz``), the manifest, ``SOURCES.json``, hidden
    files and prose ``.txt`` files (:func:`is_prose`) aside: what a release
    check reads, so that a record added or edited since the last build is seen.
    """
    return _data_files(Path(directory))


def iter_data_files(directory: str | os.PathLike[str], *, strict: bool = False) -> Iterator[Loaded]:
    """Yield every envelope (or problem) of every data file under ``directory``.

    Unlike :func:`iter_path`, a manifest is not used: its checksums describe the
    last build, and a release check reads the files as they are now.
    """
    for file in _data_files(Path(directory)):
        yield from _iter_file(file, str(file), strict=strict)


def _iter_artifact(path: Path, *, strict: bool) -> Iterator[Loaded]:
    """Verify a whole artifact first, then yield its records file by file."""
    manifest, contents = read_artifact(path)
    del manifest
    for name, data in contents.items():
        source = f"{path}!{name}"
        text = inflate(data, source) if is_compressed(name) else data
        yield from _iter_jsonl(bounded_lines(text.splitlines(keepends=True)), source, strict=strict)


def iter_path(
    path: str | os.PathLike[str] | Traversable, *, strict: bool = False
) -> Iterator[Loaded]:
    """Yield every envelope (or problem) of a file, directory or release artifact.

    A directory with a ``manifest.json`` is read through it (files checked
    against their sha256); any other directory is searched for ``.jsonl``,
    ``.ndjson``, ``.json`` and ``.txt`` files (prose ``.txt`` files aside), in
    sorted order; any of them may
    be gzip-compressed (``cat.jsonl.gz``). A release artifact
    (``errcat-data-<version>.zip``) is verified whole before its first record
    is yielded. A file whose whole text is one JSON value is one envelope
    (or a list of them); other files are JSON Lines.
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
    if is_artifact(p):
        yield from _iter_artifact(p, strict=strict)
        return
    yield from _iter_file(p, str(p), strict=strict)


def load_envelopes(path: str | os.PathLike[str]) -> list[RecordEnvelope]:
    """Every envelope of a file, directory or artifact; the first bad line raises its problem.

    For commands that take a catalog to update (``errcat mine --update``):
    such a catalog must load whole, or the command would silently drop records.
    """
    envelopes = []
    for loaded in iter_path(path):
        if loaded.problem is not None:
            raise loaded.problem
        assert loaded.envelope is not None
        envelopes.append(loaded.envelope)
    return envelopes


def dump_envelope(envelope: RecordEnvelope) -> str:
    """One envelope as a compact JSON line, fields in schema order, UTF-8 kept."""
    return json.dumps(envelope.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))


def write_jsonl(path: str | os.PathLike[str], envelopes: Iterable[RecordEnvelope]) -> int:
    """Write envelopes to a JSON Lines file (atomically); return how many were written.

    Raises ``OSError`` when the file cannot be written; nothing is left behind then.
    """
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    count = 0
    try:
        with tmp.open("w", encoding="utf-8", newline="\n") as fh:
            for envelope in envelopes:
                fh.write(dump_envelope(envelope))
                fh.write("\n")
                count += 1
        tmp.replace(target)
    finally:
        tmp.unlink(missing_ok=True)  # left only when writing failed
    return count
