"""Building a stored index: read and validate every line of a source once, keep its rows.

Large sources are validated in chunks on every core (forked workers); the
chunks are merged in file order, so the result does not depend on it.
"""

from __future__ import annotations

import os
import sys
from array import array
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from errcat.errors import CatalogSourceError, InvalidRecordError
from errcat.loaders.limits import MAX_LINE_BYTES, parse_json
from errcat.pattern_cost import pattern_problem
from errcat.patterns import is_simple_pattern
from errcat.store.base import RecordSummary, file_tail, problem_dict, problem_of

__all__ = [
    "CHUNK_BYTES",
    "JSONL_SUFFIXES",
    "PARALLEL_BYTES",
    "Built",
    "chunks_of",
    "data_files",
    "identity_of",
    "manifest_shas",
    "scan_files",
    "trusted_fields",
    "validated_fields",
]

JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson"})


def data_files(source: Path) -> list[Path] | None:
    """The JSON Lines files of a source (also ``.jsonl.gz``), or None when it holds others.

    A manifest that names a file outside the directory (see
    :func:`errcat.loaders.manifest_files`) or a file that is not there raises
    :class:`~errcat.errors.CatalogSourceError`.
    """
    from errcat.loaders import MANIFEST_NAME, SOURCES_NAME, manifest_files
    from errcat.loaders.names import data_suffix

    if source.is_file():
        return [source] if data_suffix(source.name) in JSONL_SUFFIXES else None
    if (source / MANIFEST_NAME).is_file():
        paths = []
        for name, path, _ in manifest_files(source):
            if not path.is_file():  # as the eager loader says it
                raise CatalogSourceError(f"{source}/{name}: listed in the manifest but missing")
            paths.append(Path(str(path)))
    else:
        paths = []
        for root, dirs, names in os.walk(source):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if name.startswith(".") or name in (MANIFEST_NAME, SOURCES_NAME):
                    continue
                suffix = data_suffix(name)
                if suffix in {".json", ".txt"}:
                    return None
                if suffix in JSONL_SUFFIXES:
                    paths.append(Path(root) / name)
    return paths if all(data_suffix(p.name) in JSONL_SUFFIXES for p in paths) else None


def manifest_shas(source: Path) -> dict[Path, str]:
    """The sha256 a data directory's manifest lists for each of its files."""
    from errcat.loaders import MANIFEST_NAME, manifest_files

    if not (source.is_dir() and (source / MANIFEST_NAME).is_file()):
        return {}
    return {Path(str(path)): sha for _, path, sha in manifest_files(source) if sha is not None}


def identity_of(files: Sequence[Path]) -> list[list[Any]]:
    """What the stored index remembers of its data files: path, size, modification time."""
    out = []
    for path in files:
        stat = path.stat()
        out.append([str(path.resolve()), stat.st_size, stat.st_mtime_ns])
    return out


@dataclass
class Built:
    """What a scan of a source keeps: the rows, the positions of the records, the problems."""

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
    #: Each record's raise line (``lineNumber``), so the stored index can find the
    #: records raised near a traceback frame without reading their rows.
    raise_lines: array[int] = field(default_factory=lambda: array("q"))


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
    raise_lines: list[int] = field(default_factory=list)


#: Sources at least this large are validated on every core, in chunks of about this size.
PARALLEL_BYTES = 64 << 20
CHUNK_BYTES = 32 << 20


def _scan_chunk(chunk: _Chunk) -> _Scanned:
    """Validate every line of a chunk (runs in a worker process for large sources)."""
    out = _Scanned([], [], [], [], [], [], [], [], [])
    source = chunk.source

    with chunk.path.open("rb") as fh:
        fh.seek(chunk.start)
        offset = chunk.start
        line_no = chunk.first_line - 1
        while offset < chunk.end:
            raw = fh.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            start = offset
            offset += len(raw)
            line_no += 1
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                size = len(raw) + rest_of_line(fh)[0]  # never held whole
                offset = start + size
                out.problems.append(problem_dict(_overlong(source, line_no, size)))
                continue
            if not raw.strip():
                continue
            fields = trusted_fields(raw) if chunk.trusted else None
            if fields is None:
                try:
                    fields = validated_fields(raw, source, line_no)
                except InvalidRecordError as problem:
                    out.problems.append(problem_dict(problem))
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
            out.raise_lines.append(summary.line_number)
    return out


def validated_fields(raw: bytes, source: str, line: int) -> tuple[RecordSummary, str]:
    """Validate one line; its summary and pattern, or :class:`InvalidRecordError`."""
    from errcat.models import RecordEnvelope, validate_envelope

    try:
        envelope = RecordEnvelope.model_validate_json(raw)
    except ValueError:
        try:
            envelope = validate_envelope(parse_json(raw), path=source, line=line)
        except InvalidRecordError:
            raise
        except ValueError as exc:
            raise InvalidRecordError(f"invalid JSON: {exc}", path=source, line=line) from None
    return RecordSummary.of(envelope.record), envelope.record.message_pattern


def trusted_fields(raw: bytes) -> tuple[RecordSummary, str] | None:
    """A checked release's line read without validation; None if it is not what one holds."""
    try:
        r = parse_json(raw)["record"]
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
    if not is_simple_pattern(pattern) and pattern_problem(pattern) is not None:
        return None  # a pattern too costly to compile: validation says so
    return summary, pattern


def rest_of_line(fh: IO[bytes]) -> tuple[int, int]:
    """Read past the rest of the current line in blocks: its bytes, and 1 if it ended."""
    size = 0
    while True:
        block = fh.readline(1 << 20)
        size += len(block)
        if not block:
            return size, 0
        if block.endswith(b"\n"):
            return size, 1


def _overlong(source: str, line: int, size: int) -> InvalidRecordError:
    return InvalidRecordError(
        f"line of {size} bytes is longer than {MAX_LINE_BYTES} (not read)", path=source, line=line
    )


def chunks_of(
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
                rest, ended = rest_of_line(fh)  # finish the line the cut fell in
                end = min(length, start + min(size, length - start) + rest)
                newlines += ended
                chunks.append(
                    _Chunk(number, path, start, end, line, names[number], path in trusted)
                )
                line += newlines
                start = end
    return chunks


def scan_files(
    files: Sequence[Path],
    progress: bool,
    names: Sequence[str] | None = None,
    trusted: Container[Path] = (),
) -> Built:
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
        total >= PARALLEL_BYTES
        and (cores or 1) > 1
        and "fork" in multiprocessing.get_all_start_methods()
    )
    # Chunks bound the memory held for results not yet merged, in either mode.
    names = [str(f) for f in files] if names is None else names
    chunks = chunks_of(files, CHUNK_BYTES, names, trusted)
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
    raise_lines = array("q")
    problems: list[InvalidRecordError] = [
        # A compressed file that decompressed to nothing is reported, not read as no records.
        InvalidRecordError("the compressed file decompresses to nothing: no records read", path=n)
        for f, n in zip(files, names, strict=True)
        if n.lower().endswith(".gz") and f.stat().st_size == 0
    ]
    seen: dict[int, int] = {}  # id (as the integer its 16 hex digits spell) -> position
    try:
        for done, (chunk, part) in enumerate(zip(chunks, results, strict=True), start=1):
            if progress:
                share = done * 100 // len(chunks)
                print(f"\rerrcat: indexing {share}%", end="", file=sys.stderr, flush=True)
            problems.extend(problem_of(p) for p in part.problems)
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
                raise_lines.append(part.raise_lines[n])
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
        raise_lines = array("q", (raise_lines[n] for n in keep))
    return Built(
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
        raise_lines,
    )
