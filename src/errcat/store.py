"""Record stores: where a catalog's records live and how they are read.

:class:`MemoryStore` holds validated records. :class:`FileStore` serves a
large JSON Lines catalog without reading it: a stored index file (built once
per data release, written next to the data or in the cache directory) holds the
match index and a table of each record's few matching fields and byte offset.
Opening it memory-maps the file; a record body is read and validated only when
someone asks for that record.

The stored index is versioned and checksummed (CRC-32 per section); one built
for other data, by another format version, or on a machine of other byte order
is rebuilt, never trusted. It is not a pickle: it holds only strings and arrays.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> store = MemoryStore([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])
>>> store.summary(0).error_class, store.position_of("bad-value-x")
('ValueError', 0)
"""

from __future__ import annotations

import bisect
import hashlib
import json
import logging
import mmap
import os
import sys
import threading
import zlib
from array import array
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from errcat.errors import CatalogSourceError, InvalidRecordError
from errcat.index import IndexTables, PatternIndex, Postings, hash_slots
from errcat.tags import BASE_TAG_PREFIX, CALLER_CLASS_TAG, FUNCTION_TAG_PREFIX, WAS_TAG_PREFIX

if TYPE_CHECKING:
    from errcat.models import ErrorRecord, RecordEnvelope
    from errcat.view import RecordFields

__all__ = [
    "BASE_TAG_PREFIX",  # the tag names are errcat.tags', re-exported (the miner reads them here)
    "CACHE_ENV",
    "CALLER_CLASS_TAG",
    "FORMAT_VERSION",
    "FUNCTION_TAG_PREFIX",
    "WAS_TAG_PREFIX",
    "FileStore",
    "MemoryStore",
    "RecordSummary",
    "Store",
    "StringTable",
    "cache_dir",
    "file_tail",
    "index_path_for",
    "inflated_copy",
    "open_file_store",
]

logger = logging.getLogger("errcat")

#: Bumped whenever the stored index layout changes; other versions are rebuilt.
FORMAT_VERSION = 9
_MAGIC = b"ERRCATIX"
_SEP = "\x1f"
_JSONL = frozenset({".jsonl", ".ndjson"})

#: Environment variable naming errcat's cache directory (``ERRCAT_INDEX_DIR``, its
#: older name, is still read).
CACHE_ENV = "ERRCAT_CACHE_DIR"


@dataclass(frozen=True, slots=True)
class RecordSummary:
    """The fields of a record that matching, lookup and filtering need."""

    id: str
    slug: str
    error_class: str
    file_path: str
    line_number: int
    repo: str
    error_message: str
    tags: tuple[str, ...]

    def encode(self) -> str:
        """One string holding every field (the stored table's row)."""
        return _SEP.join(
            [
                self.id,
                self.slug,
                self.error_class,
                self.file_path,
                str(self.line_number),
                self.repo,
                self.error_message,
                "\x1e".join(self.tags),
            ]
        )

    @classmethod
    def decode(cls, row: str) -> RecordSummary:
        """Read a row written by :meth:`encode`."""
        rid, slug, cls_, path, line, repo, message, tags = row.split(_SEP)
        return cls(
            rid, slug, cls_, path, int(line), repo, message, tuple(filter(None, tags.split("\x1e")))
        )

    @classmethod
    def of(cls, record: ErrorRecord) -> RecordSummary:
        """The summary of a full record."""
        return cls(
            record.id,
            record.slug,
            record.error_class,
            record.file_path,
            record.line_number,
            record.repo,
            record.error_message,
            record.tags,
        )


def file_tail(path: str) -> str:
    r"""The file name of a path: the key under which frames look a record's file up.

    Which of the records with that name a frame really is in is decided by the
    matcher, from the whole paths (:func:`errcat.evidence.same_file_depth`).

    >>> file_tail("python/sglang/srt/server_args.py"), file_tail("C:\\Lib\\setup.py")
    ('server_args.py', 'setup.py')
    """
    return path.replace("\\", "/").rsplit("/", 1)[-1]


class Store(Protocol):
    """What a catalog needs from where its records live."""

    problems: tuple[InvalidRecordError, ...]

    def __len__(self) -> int: ...

    def summary(self, position: int) -> RecordSummary:
        """The matching fields of the record at ``position``."""

    def record(self, position: int) -> ErrorRecord:
        """The validated record at ``position``."""

    def view(self, position: int) -> RecordFields:
        """The fields of the record at ``position`` that answers show (no validation needed)."""
        ...

    def envelope(self, position: int) -> RecordEnvelope | None:
        """The record in its envelope, when it came in one."""

    def position_of(self, key: str) -> int | None:
        """Position of the record with this id, else of the first with this slug."""

    def records_in_file(self, tail: str) -> Sequence[int]:
        """Positions of the records raised in a file with this :func:`file_tail`."""

    @property
    def index(self) -> PatternIndex:
        """The match index over the store's patterns."""


class MemoryStore:
    """Validated records held in memory; the match index is built on first use."""

    def __init__(
        self,
        items: Iterable[RecordEnvelope | ErrorRecord] = (),
        *,
        problems: Iterable[InvalidRecordError] = (),
        engine: str = "prefilter",
    ) -> None:
        """Keep ``items`` (a later record with the same id replaces an earlier one)."""
        from errcat.models import ErrorRecord, RecordEnvelope

        by_id: dict[str, RecordEnvelope | ErrorRecord] = {}
        for item in items:
            if isinstance(item, RecordEnvelope):
                rid = item.record.id
            elif isinstance(item, ErrorRecord):
                rid = item.id
            else:
                raise TypeError(
                    "Catalog items must be RecordEnvelope or ErrorRecord, "
                    f"got {type(item).__name__}"
                )
            by_id.pop(rid, None)  # a later version moves to the end
            by_id[rid] = item
        self._items = tuple(by_id.values())
        self._records = tuple(i.record if isinstance(i, RecordEnvelope) else i for i in self._items)
        self._positions = {r.id: n for n, r in enumerate(self._records)}
        for n, r in enumerate(self._records):
            self._positions.setdefault(r.slug, n)
        self.problems = tuple(problems)
        self._engine = engine
        self._index: PatternIndex | None = None
        self._by_file: dict[str, list[int]] | None = None
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """Number of records."""
        return len(self._records)

    def summary(self, position: int) -> RecordSummary:
        """The matching fields of the record at ``position``."""
        return RecordSummary.of(self._records[position])

    def record(self, position: int) -> ErrorRecord:
        """The record at ``position``."""
        return self._records[position]

    def view(self, position: int) -> RecordFields:
        """The record at ``position`` (already validated)."""
        return self._records[position]

    def envelope(self, position: int) -> RecordEnvelope | None:
        """The record in its envelope, when it came in one."""
        from errcat.models import RecordEnvelope

        item = self._items[position]
        return item if isinstance(item, RecordEnvelope) else None

    def position_of(self, key: str) -> int | None:
        """Position of the record with this id, else of the first with this slug."""
        return self._positions.get(key)

    def records_in_file(self, tail: str) -> Sequence[int]:
        """Positions of the records raised in a file with this :func:`file_tail`."""
        if self._by_file is None:
            by_file: dict[str, list[int]] = {}
            for position, record in enumerate(self._records):
                by_file.setdefault(file_tail(record.file_path), []).append(position)
            self._by_file = by_file
        return self._by_file.get(tail, ())

    @property
    def index(self) -> PatternIndex:
        """The match index, built once on first use (thread-safe)."""
        if self._index is None:
            with self._lock:
                if self._index is None:
                    from errcat.index import ScanIndex

                    kind = PatternIndex if self._engine == "prefilter" else ScanIndex
                    self._index = kind(r.message_pattern for r in self._records)
        return self._index


class StringTable(Sequence[str]):
    """Strings stored back to back in one buffer, decoded one at a time on access."""

    __slots__ = ("_blob", "_offsets")

    def __init__(self, blob: memoryview | bytes, offsets: Sequence[int]) -> None:
        """``offsets`` has one more item than there are strings."""
        self._blob = blob
        self._offsets = offsets

    @staticmethod
    def encode(strings: Iterable[str]) -> tuple[bytes, array[int]]:
        """The buffer and offsets of ``strings``."""
        parts = []
        offsets = array("Q", [0])
        total = 0
        for text in strings:
            data = text.encode("utf-8", "surrogatepass")
            parts.append(data)
            total += len(data)
            offsets.append(total)
        return b"".join(parts), offsets

    def __len__(self) -> int:
        """Number of strings."""
        return len(self._offsets) - 1

    def occurs_in(self, index: int, haystack: bytes) -> bool:
        """Whether string ``index`` occurs in ``haystack`` (UTF-8), without decoding it."""
        return haystack.find(self._blob[self._offsets[index] : self._offsets[index + 1]]) >= 0

    def __getitem__(self, index: int) -> str:  # type: ignore[override]
        """The string at ``index`` (slices are not supported)."""
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        index %= len(self)
        start, end = self._offsets[index], self._offsets[index + 1]
        return bytes(self._blob[start:end]).decode("utf-8", "surrogatepass")


def cache_dir() -> Path:
    """The user cache: ``$ERRCAT_CACHE_DIR``, else ``$XDG_CACHE_HOME/errcat``, ``~/.cache/errcat``.

    It holds the stored indexes of data that cannot have one beside it (the
    bundled catalog among them) and the decompressed copies of ``.jsonl.gz``
    files. It is created when first written, not here.

    >>> import os
    >>> os.environ["ERRCAT_CACHE_DIR"] = "/tmp/errcat-doc-cache"
    >>> str(cache_dir())
    '/tmp/errcat-doc-cache'
    >>> del os.environ["ERRCAT_CACHE_DIR"]
    """
    override = os.environ.get(CACHE_ENV) or os.environ.get("ERRCAT_INDEX_DIR")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "errcat"


def index_path_for(source: Path, *, cached: bool = False) -> Path:
    """Where the stored index of a data file or directory lives.

    Next to the data (``<file>.errcat-index``, ``<dir>/.errcat-index``) when that
    place is writable, no cache directory is set and ``cached`` is false, else in
    :func:`cache_dir` (compressed data goes there: its decompressed copy does).
    """
    source = source.resolve()
    beside = (
        source / ".errcat-index"
        if source.is_dir()
        else source.with_name(source.name + ".errcat-index")
    )
    override = os.environ.get(CACHE_ENV) or os.environ.get("ERRCAT_INDEX_DIR")
    if not override and not cached and os.access(beside.parent, os.W_OK):
        return beside
    digest = hashlib.sha256(str(source).encode()).hexdigest()[:20]
    return cache_dir() / f"{digest}.errcat-index"


def _inflated_target(path: Path, sha256: str | None, cache: Path | None) -> Path:
    """Where :func:`inflated_copy` puts the decompressed copy of ``path``."""
    from errcat.loaders import COMPRESSED_SUFFIX

    base = cache if cache is not None else cache_dir()
    if sha256 is None:
        stat = path.stat()
        key = f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}"
        name = hashlib.sha256(key.encode()).hexdigest()[:20]
    else:
        name = sha256[:20]
    return base / "inflated" / f"{name}-{path.name.removesuffix(COMPRESSED_SUFFIX)}"


def inflated_copy(path: Path, *, sha256: str | None = None, cache: Path | None = None) -> Path:
    """A decompressed copy of a ``.gz`` data file in the cache, made once.

    The stored index reads record bodies at byte offsets, which a gzip stream
    cannot give; its decompressed copy can. The copy is named after ``sha256``
    (the compressed file's, as a manifest lists it), which is then checked
    while decompressing, or else after the file's path, size and modification
    time. Raises :class:`~errcat.errors.CatalogSourceError` when the file is
    damaged or does not match ``sha256``, and ``OSError`` when the cache is not
    writable.
    """
    target = _inflated_target(path, sha256, cache)
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    digest = hashlib.sha256()
    try:
        with path.open("rb") as raw, tmp.open("wb") as out:
            inflater = zlib.decompressobj(wbits=31)  # gzip framing
            for block in iter(lambda: raw.read(1 << 20), b""):
                digest.update(block)
                out.write(inflater.decompress(block))
            out.write(inflater.flush())
            complete = inflater.eof
        if not complete:
            raise CatalogSourceError(f"{path}: cannot decompress: the compressed data is cut short")
        if sha256 is not None and digest.hexdigest() != sha256:
            raise CatalogSourceError(
                f"{path}: sha256 does not match the manifest (expected {sha256}); "
                "the file was altered or truncated"
            )
        tmp.replace(target)
    except zlib.error as exc:
        raise CatalogSourceError(f"{path}: cannot decompress: {exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _data_files(source: Path) -> list[Path] | None:
    """The JSON Lines files of a source (also ``.jsonl.gz``), or None when it holds others."""
    from errcat.loaders import MANIFEST_NAME, SOURCES_NAME, _data_suffix, read_manifest

    if source.is_file():
        return [source] if _data_suffix(source.name) in _JSONL else None
    if (source / MANIFEST_NAME).is_file():
        files = read_manifest(source).get("files")
        if not isinstance(files, dict):
            return None
        paths = [source / str(name) for name in sorted(files)]
    else:
        paths = []
        for root, dirs, names in os.walk(source):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if name.startswith(".") or name in (MANIFEST_NAME, SOURCES_NAME):
                    continue
                suffix = _data_suffix(name)
                if suffix in {".json", ".txt"}:
                    return None
                if suffix in _JSONL:
                    paths.append(Path(root) / name)
    return paths if all(_data_suffix(p.name) in _JSONL for p in paths) else None


def _manifest_shas(source: Path) -> dict[Path, str]:
    """The sha256 a data directory's manifest lists for each of its files."""
    from errcat.loaders import MANIFEST_NAME, read_manifest

    if not (source.is_dir() and (source / MANIFEST_NAME).is_file()):
        return {}
    files = read_manifest(source).get("files")
    out: dict[Path, str] = {}
    for name, meta in (files or {}).items():
        sha = meta.get("sha256") if isinstance(meta, dict) else None
        if isinstance(sha, str):
            out[source / str(name)] = sha
    return out


def _identity(files: Sequence[Path]) -> list[list[Any]]:
    out = []
    for path in files:
        stat = path.stat()
        out.append([str(path.resolve()), stat.st_size, stat.st_mtime_ns])
    return out


@dataclass
class _Built:
    files: list[Path]
    rows: bytearray
    row_offsets: array[int]
    ids: list[str]
    slugs: list[str]
    tails: list[str]
    file_of: array[int]
    offsets: array[int]
    lengths: array[int]
    lines: array[int]
    patterns: list[str]
    problems: list[InvalidRecordError]


@dataclass(frozen=True)
class _Chunk:
    """A run of whole lines of one data file, scanned by one worker."""

    number: int  # the file's position in the source
    path: Path
    start: int  # byte offsets
    end: int
    first_line: int
    source: str  # the name problems give (a compressed file, not its decompressed copy)
    #: The file is a released one whose sha256 matched its manifest: its records were
    #: validated when the release was built, so they are read without validating again.
    trusted: bool = False


@dataclass
class _Scanned:
    """What one chunk yields: a row per valid line and the problems of the others."""

    rows: list[bytes]
    ids: list[str]
    slugs: list[str]
    tails: list[str]
    patterns: list[str]
    offsets: list[int]
    lengths: list[int]
    lines: list[int]
    problems: list[dict[str, Any]]


#: Sources at least this large are validated on every core, in chunks of about this size.
_PARALLEL_BYTES = 64 << 20
_CHUNK_BYTES = 32 << 20


def _scan_chunk(chunk: _Chunk) -> _Scanned:
    """Validate every line of a chunk (runs in a worker process for large sources)."""
    out = _Scanned([], [], [], [], [], [], [], [], [])
    source = chunk.source

    with chunk.path.open("rb") as fh:
        fh.seek(chunk.start)
        offset = chunk.start
        line_no = chunk.first_line - 1
        while offset < chunk.end:
            raw = fh.readline()
            if not raw:
                break
            start = offset
            offset += len(raw)
            line_no += 1
            if not raw.strip():
                continue
            fields = _trusted_fields(raw) if chunk.trusted else None
            if fields is None:
                try:
                    fields = _validated_fields(raw, source, line_no)
                except InvalidRecordError as problem:
                    out.problems.append(_problem_dict(problem))
                    continue
            summary, pattern = fields
            out.rows.append(summary.encode().encode("utf-8", "surrogatepass"))
            out.ids.append(summary.id)
            out.slugs.append(summary.slug)
            out.tails.append(sys.intern(file_tail(summary.file_path)))  # shared by a file's records
            out.patterns.append(pattern)
            out.offsets.append(start)
            out.lengths.append(len(raw))
            out.lines.append(line_no)
    return out


def _validated_fields(raw: bytes, source: str, line: int) -> tuple[RecordSummary, str]:
    """Validate one line; its summary and pattern, or :class:`InvalidRecordError`."""
    from errcat.models import RecordEnvelope, validate_envelope

    try:
        envelope = RecordEnvelope.model_validate_json(raw)
    except ValueError:
        try:
            envelope = validate_envelope(json.loads(raw), path=source, line=line)
        except InvalidRecordError:
            raise
        except ValueError as exc:
            raise InvalidRecordError(f"invalid JSON: {exc}", path=source, line=line) from None
    return RecordSummary.of(envelope.record), envelope.record.message_pattern


def _trusted_fields(raw: bytes) -> tuple[RecordSummary, str] | None:
    """A checked release's line read without validation; None if it is not what one holds."""
    try:
        r = json.loads(raw)["record"]
        summary = RecordSummary(
            r["id"],
            r["slug"],
            r["errorClass"],
            r["filePath"],
            r["lineNumber"],
            r["repo"],
            r["errorMessage"],
            tuple(r["tags"]),
        )
        pattern = r["messagePattern"]
    except (ValueError, KeyError, TypeError):
        return None
    fields = (summary.id, summary.slug, summary.error_class, summary.file_path, summary.repo)
    if not (
        all(isinstance(f, str) for f in (*fields, summary.error_message, pattern, *summary.tags))
        and type(summary.line_number) is int
    ):
        return None  # validation says precisely what is wrong
    return summary, pattern


def _problem_dict(problem: InvalidRecordError) -> dict[str, Any]:
    return {
        "reason": problem.reason,
        "path": problem.path,
        "line": problem.line,
        "field": problem.field,
        "id": problem.record_id,
    }


def _problem(data: dict[str, Any]) -> InvalidRecordError:
    return InvalidRecordError(
        data["reason"],
        path=data["path"],
        line=data["line"],
        field=data["field"],
        record_id=data["id"],
    )


def _chunks(
    files: Sequence[Path],
    size: int,
    names: Sequence[str] | None = None,
    trusted: Container[Path] = (),
) -> list[_Chunk]:
    """Split files into runs of whole lines of about ``size`` bytes."""
    names = [str(f) for f in files] if names is None else names
    chunks = []
    for number, path in enumerate(files):
        length = path.stat().st_size
        # Read in blocks rather than mapping the file: mapped pages would count as
        # this process's memory (a 1M-record catalog is 2.5 GB).
        with path.open("rb") as fh:
            start, line = 0, 1
            while start < length:
                newlines = 0
                remaining = min(size, length - start)
                while remaining > 0:
                    block = fh.read(min(1 << 20, remaining))
                    if not block:
                        break
                    newlines += block.count(b"\n")
                    remaining -= len(block)
                rest = fh.readline()  # finish the line the cut fell in
                end = min(length, start + min(size, length - start) + len(rest))
                newlines += rest.count(b"\n")
                chunks.append(
                    _Chunk(number, path, start, end, line, names[number], path in trusted)
                )
                line += newlines
                start = end
    return chunks


def _scan(
    files: Sequence[Path],
    progress: bool,
    names: Sequence[str] | None = None,
    trusted: Container[Path] = (),
) -> _Built:
    """Read and validate every line once, keeping what the stored index needs.

    Lines of ``trusted`` files (released data whose checksum was verified) are
    read without validating them again.

    Large sources are validated in chunks on every core (forked workers); the
    chunks are merged in file order, so the result does not depend on it.
    """
    import multiprocessing

    total = sum(p.stat().st_size for p in files)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    parallel = (
        total >= _PARALLEL_BYTES
        and (cores or 1) > 1
        and "fork" in multiprocessing.get_all_start_methods()
    )
    # Chunks bound the memory held for results not yet merged, in either mode.
    names = [str(f) for f in files] if names is None else names
    chunks = _chunks(files, _CHUNK_BYTES, names, trusted)
    if parallel:
        pool = multiprocessing.get_context("fork").Pool(min(cores or 1, len(chunks)))
        results: Iterable[_Scanned] = pool.imap(_scan_chunk, chunks)
    else:
        pool = None
        results = map(_scan_chunk, chunks)
    rows = bytearray()
    row_offsets = array("Q", [0])
    ids: list[str] = []
    slugs: list[str] = []
    tails: list[str] = []
    patterns: list[str] = []
    file_of, offsets, lengths, lines = array("I"), array("Q"), array("I"), array("I")
    problems: list[InvalidRecordError] = []
    seen: dict[int, int] = {}  # id (as the integer its 16 hex digits spell) -> position
    try:
        for done, (chunk, part) in enumerate(zip(chunks, results, strict=True), start=1):
            if progress:
                share = done * 100 // len(chunks)
                print(f"\rerrcat: indexing {share}%", end="", file=sys.stderr, flush=True)
            problems.extend(_problem(p) for p in part.problems)
            for n, rid in enumerate(part.ids):
                key = int(rid, 16)
                previous = seen.get(key)
                if previous is not None:
                    problems.append(
                        InvalidRecordError(
                            f"duplicate id {rid!r} (first at {names[file_of[previous]]}:"
                            f"{lines[previous]}); the later line wins",
                            path=chunk.source,
                            line=part.lines[n],
                            field="record.id",
                            record_id=rid,
                        )
                    )
                seen[key] = len(ids)
                rows += part.rows[n]
                row_offsets.append(len(rows))
                ids.append(rid)
                slugs.append(part.slugs[n])
                tails.append(sys.intern(part.tails[n]))
                patterns.append(part.patterns[n])
                file_of.append(chunk.number)
                offsets.append(part.offsets[n])
                lengths.append(part.lengths[n])
                lines.append(part.lines[n])
    finally:
        if pool is not None:
            pool.terminate()
    if progress:
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr, flush=True)
    problems.sort(key=lambda p: (names.index(p.path) if p.path in names else 0, p.line or 0))
    # Drop lines that a later line with the same id replaced.
    keep = sorted(seen.values())
    if len(keep) != len(ids):
        old_rows, old_offsets = rows, row_offsets
        rows, row_offsets = bytearray(), array("Q", [0])
        for n in keep:
            rows += old_rows[old_offsets[n] : old_offsets[n + 1]]
            row_offsets.append(len(rows))
        ids = [ids[n] for n in keep]
        slugs = [slugs[n] for n in keep]
        tails = [tails[n] for n in keep]
        patterns = [patterns[n] for n in keep]
        file_of = array("I", (file_of[n] for n in keep))
        offsets = array("Q", (offsets[n] for n in keep))
        lengths = array("I", (lengths[n] for n in keep))
        lines = array("I", (lines[n] for n in keep))
    return _Built(
        list(files),
        rows,
        row_offsets,
        ids,
        slugs,
        tails,
        file_of,
        offsets,
        lengths,
        lines,
        patterns,
        problems,
    )


def _sections(built: _Built, index: PatternIndex) -> Iterator[tuple[str, bytes | memoryview]]:
    """The stored index's sections, built one at a time so each can be written and dropped."""
    tables = index.tables()

    def arr(kind: str, values: Iterable[int]) -> bytes:
        return array(kind, values).tobytes()

    def strings(name: str, offsets_name: str, values: Iterable[str]) -> Iterator[tuple[str, bytes]]:
        blob, offsets = StringTable.encode(values)
        yield name, blob
        del blob
        yield offsets_name, offsets.tobytes()

    def postings(name: str, table: Postings) -> Iterator[tuple[str, bytes]]:
        yield from strings(f"{name}_words", f"{name}_word_offsets", table.words)
        yield f"{name}_starts", arr("I", table.starts)
        yield f"{name}_ids", arr("I", table.ids)
        yield f"{name}_slots", arr("I", table.slots or hash_slots(table.words))

    yield from strings("patterns", "pattern_offsets", tables.patterns)
    yield "starts", arr("I", tables.starts)
    yield "records", arr("I", tables.records)
    yield from postings("anchor", tables.anchors)
    yield from postings("first", tables.first_words)
    yield "always", arr("I", tables.always)
    yield "rarity", arr("I", tables.rarity)
    yield from strings("keys", "key_offsets", tables.keys)
    yield from postings("pair", tables.pairs)
    yield from postings("common", tables.common)
    by_file: dict[str, list[int]] = {}
    for position, tail in enumerate(built.tails):
        by_file.setdefault(tail, []).append(position)
    yield from postings("file", Postings.from_lists(by_file))
    del by_file
    yield "rows", memoryview(built.rows)
    yield "row_offsets", built.row_offsets.tobytes()
    yield "file_of", built.file_of.tobytes()
    yield "offsets", built.offsets.tobytes()
    yield "lengths", built.lengths.tobytes()
    yield "lines", built.lines.tobytes()
    yield "by_id", arr("I", sorted(range(len(built.ids)), key=built.ids.__getitem__))
    yield "by_slug", arr("I", sorted(range(len(built.slugs)), key=lambda n: (built.slugs[n], n)))


_ARRAY_KINDS = {
    "pattern_offsets": "Q",
    "starts": "I",
    "records": "I",
    "anchor_word_offsets": "Q",
    "anchor_starts": "I",
    "anchor_ids": "I",
    "anchor_slots": "I",
    "first_word_offsets": "Q",
    "first_starts": "I",
    "first_ids": "I",
    "first_slots": "I",
    "always": "I",
    "rarity": "I",
    "key_offsets": "Q",
    "pair_word_offsets": "Q",
    "pair_starts": "I",
    "pair_ids": "I",
    "pair_slots": "I",
    "common_word_offsets": "Q",
    "common_starts": "I",
    "common_ids": "I",
    "common_slots": "I",
    "file_word_offsets": "Q",
    "file_starts": "I",
    "file_ids": "I",
    "file_slots": "I",
    "row_offsets": "Q",
    "file_of": "I",
    "offsets": "Q",
    "lengths": "I",
    "lines": "I",
    "by_id": "I",
    "by_slug": "I",
}


def _write(path: Path, identity: list[list[Any]], built: _Built, index: PatternIndex) -> None:
    """Write the stored index: magic, sections (8-byte aligned), then the header as a trailer.

    The header (format, byte order, the data files it was built from, problems
    and each section's offset, length and CRC-32) comes last so that sections can
    be written as they are built; its length and the magic close the file.
    """
    layout: dict[str, list[int]] = {}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with tmp.open("wb") as fh:
        fh.write(_MAGIC)
        for name, data in _sections(built, index):
            layout[name] = [fh.tell(), len(data), zlib.crc32(data)]
            fh.write(data)
            fh.write(b"\0" * (-len(data) % 8))
            del data
        header = json.dumps(
            {
                "format": FORMAT_VERSION,
                "byteorder": sys.byteorder,
                "sources": identity,
                "records": len(built.ids),
                "problems": [_problem_dict(p) for p in built.problems],
                "sections": layout,
            }
        ).encode()
        fh.write(header)
        fh.write(len(header).to_bytes(8, "little"))
        fh.write(_MAGIC)
    tmp.replace(path)


class FileStore:
    """A JSON Lines catalog served through its stored index (see the module docstring)."""

    def __init__(self, path: Path, files: Sequence[Path], identity: list[list[Any]]) -> None:
        """Open the stored index at ``path``; raise ``ValueError`` if it is not usable."""
        with path.open("rb") as fh:
            self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        view = memoryview(self._map)
        if len(view) < 24 or bytes(view[:8]) != _MAGIC or bytes(view[-8:]) != _MAGIC:
            raise ValueError("not an errcat index, or a truncated one")
        size = int.from_bytes(view[-16:-8], "little")
        if size > len(view) - 24:
            raise ValueError("damaged header")
        header = json.loads(bytes(view[-16 - size : -16]))
        if header.get("format") != FORMAT_VERSION or header.get("byteorder") != sys.byteorder:
            raise ValueError("built by another format version or byte order")
        if header.get("sources") != identity:
            raise ValueError("built for other data (files changed since)")
        parts: dict[str, Any] = {}
        for name, (offset, length, crc) in header["sections"].items():
            chunk = view[offset : offset + length]
            if zlib.crc32(chunk) != crc:
                raise ValueError(f"section {name} fails its checksum")
            kind = _ARRAY_KINDS.get(name)
            parts[name] = chunk.cast(kind) if kind else chunk  # type: ignore[call-overload]
        self._files = list(files)
        #: The stored index file this store maps, and the identity of the data it indexes
        #: (what :mod:`errcat.spark` ships to executors).
        self.index_path = path
        self.identity = identity
        self._data_maps: dict[int, mmap.mmap] = {}
        self._rows = StringTable(parts["rows"], parts["row_offsets"])
        self._file_of = parts["file_of"]
        self._offsets = parts["offsets"]
        self._lengths = parts["lengths"]
        self._lines = parts["lines"]
        self._by_id = parts["by_id"]
        self._by_slug = parts["by_slug"]
        self._tables = IndexTables(
            patterns=StringTable(parts["patterns"], parts["pattern_offsets"]),
            starts=parts["starts"],
            records=parts["records"],
            anchors=_postings(parts, "anchor"),
            first_words=_postings(parts, "first"),
            always=parts["always"],
            rarity=parts["rarity"],
            keys=StringTable(parts["keys"], parts["key_offsets"]),
            pairs=_postings(parts, "pair"),
            common=_postings(parts, "common"),
        )
        self._index: PatternIndex | None = None
        self._cache: dict[int, RecordEnvelope] = {}
        self._by_file = _postings(parts, "file")
        self.problems = tuple(_problem(p) for p in header["problems"])

    def __len__(self) -> int:
        """Number of records."""
        return len(self._rows)

    def summary(self, position: int) -> RecordSummary:
        """The matching fields of the record at ``position`` (no record body is read)."""
        return RecordSummary.decode(self._rows[position])

    def _raw(self, position: int) -> bytes:
        """The JSON line of the record at ``position``."""
        number = self._file_of[position]
        data = self._data_maps.get(number)
        if data is None:
            try:
                with self._files[number].open("rb") as fh:
                    data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            except OSError as exc:
                raise CatalogSourceError(f"Cannot read {self._files[number]}: {exc}") from None
            self._data_maps[number] = data
        start = self._offsets[position]
        return data[start : start + self._lengths[position]]

    def envelope(self, position: int) -> RecordEnvelope:
        """Read and validate the record at ``position`` (cached)."""
        cached = self._cache.get(position)
        if cached is not None:
            return cached
        from errcat.models import RecordEnvelope, validate_envelope

        number = self._file_of[position]
        raw = self._raw(position)
        try:
            envelope = RecordEnvelope.model_validate_json(raw)
        except ValueError:
            # The file changed under the index: say where, precisely.
            envelope = validate_envelope(
                json.loads(raw), path=str(self._files[number]), line=self._lines[position]
            )
        self._cache[position] = envelope
        return envelope

    def record(self, position: int) -> ErrorRecord:
        """The record at ``position``, read and validated on first access."""
        return self.envelope(position).record

    def view(self, position: int) -> RecordFields:
        """The record's shown fields, read from its JSON without validating it again.

        The records were validated when the index was built; a file changed
        since then is caught by the index's freshness check on open.
        """
        cached = self._cache.get(position)
        if cached is not None:
            return cached.record
        from errcat.view import RecordView

        try:
            data = json.loads(self._raw(position))["record"]
        except (ValueError, KeyError, TypeError):
            return self.record(position)  # let validation say precisely what is wrong
        return RecordView(data) if isinstance(data, dict) else self.record(position)

    def records_in_file(self, tail: str) -> Sequence[int]:
        """Positions of the records raised in a file with this :func:`file_tail`."""
        return self._by_file.get(tail)

    def position_of(self, key: str) -> int | None:
        """Position of the record with this id, else of the first with this slug."""
        for order, field in ((self._by_id, 0), (self._by_slug, 1)):

            def spelled(n: int, f: int = field) -> str:
                return self._field(n, f)

            at = bisect.bisect_left(order, key, key=spelled)
            if at < len(order) and spelled(order[at]) == key:
                return int(order[at])
        return None

    def _field(self, position: int, field: int) -> str:
        return self._rows[position].split(_SEP, 2)[field]

    @property
    def index(self) -> PatternIndex:
        """The match index over the stored tables."""
        if self._index is None:
            self._index = PatternIndex.from_tables(self._tables)
        return self._index


def _postings(parts: dict[str, Any], name: str) -> Postings:
    """The Postings stored in the ``<name>_words``/``_starts``/``_ids`` sections."""
    # Words were written sorted with their hash slots (Postings.from_lists): looked up
    # through the slots, decoded one at a time, so that opening the index builds no
    # per-word table.
    words = StringTable(parts[f"{name}_words"], parts[f"{name}_word_offsets"])
    return Postings(
        words,
        parts[f"{name}_starts"],
        parts[f"{name}_ids"],
        sorted_words=True,
        slots=parts[f"{name}_slots"],
    )


def open_file_store(
    source: Path,
    *,
    rebuild: bool = False,
    progress: bool | None = None,
    index_path: Path | None = None,
    cache: Path | None = None,
) -> FileStore | None:
    """Open ``source`` through its stored index, building (and storing) it when needed.

    Returns None when the source is not made of JSON Lines files (it is then
    loaded into memory instead). A stale, foreign or damaged index is rebuilt.
    Compressed files (``.jsonl.gz``) are read through their decompressed copy
    in ``cache`` (default :func:`cache_dir`), checked against the sha256 their
    manifest lists. ``index_path`` overrides :func:`index_path_for`.
    """
    from errcat.loaders import is_compressed

    listed = _data_files(source)
    if not listed:
        return None
    packed = [f for f in listed if is_compressed(f.name)]
    inflated: dict[Path, Path] = {}
    shas: dict[Path, str] = {}
    if packed:
        shas = _manifest_shas(source)

        def inflate(f: Path) -> Path:
            return inflated_copy(f, sha256=shas.get(f), cache=cache)

        ready = {f: _inflated_target(f, shas.get(f), cache) for f in packed}
        if all(target.is_file() for target in ready.values()):
            inflated = ready  # decompressed on an earlier run (and checked then)
        else:
            from concurrent.futures import ThreadPoolExecutor

            # zlib and hashlib let go of the GIL: files decompress side by side.
            with ThreadPoolExecutor(max_workers=min(4, len(packed))) as pool:
                inflated = dict(zip(packed, pool.map(inflate, packed), strict=True))
    files = [inflated.get(f, f) for f in listed]
    # A decompressed copy was checked against the sha256 its manifest lists: that is
    # the released file, validated when the release was built. Such files are known
    # by that checksum, not by where they sit, so an index built from them anywhere
    # (another cache, a wheel's prebuilt one) serves them.
    trusted = {inflated[f] for f in packed if f in shas}
    identity = [
        ["sha256", shas[f]] if f in shas and f in inflated else entry
        for f, entry in zip(listed, _identity(files), strict=True)
    ]
    path = index_path if index_path is not None else index_path_for(source, cached=bool(packed))
    if not rebuild and path.is_file():
        try:
            return FileStore(path, files, identity)
        except (ValueError, KeyError, TypeError, OSError) as exc:
            logger.info("rebuilding the index of %s: %s", source, exc)
    if progress is None:
        progress = sys.stderr.isatty()
    built = _scan(files, progress, [str(f) for f in listed], trusted)
    index = PatternIndex(built.patterns)
    try:
        _write(path, identity, built, index)
    except OSError as exc:
        raise CatalogSourceError(f"Cannot write the index of {source} to {path}: {exc}") from None
    return FileStore(path, files, identity)
