"""A JSON Lines catalog served through its stored index (:class:`FileStore`).

Opening the index memory-maps it; a record body is read (and validated) only
when someone asks for that record. :func:`open_file_store` builds the index
when it is missing, stale, foreign or damaged.
"""

from __future__ import annotations

import bisect
import json
import logging
import mmap
import sys
import threading
import zlib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from errcat import background
from errcat.errors import CatalogSourceError, InvalidRecordError
from errcat.index import PatternIndex
from errcat.loaders.limits import parse_json
from errcat.store import build
from errcat.store.base import SEP, RecordSummary, problem_of
from errcat.store.cache import copy_is_intact, index_path_for, inflated_copy, inflated_target
from errcat.store.format import (
    ARRAY_KINDS,
    FORMAT_VERSION,
    MAGIC,
    PHRASE_ROWS,
    UNTICKED,
    StringTable,
    near_of,
    postings_of,
    priors_of,
    tables_of,
    write_index,
)
from errcat.tags import PHRASE_TAG_PREFIX, tag_values

if TYPE_CHECKING:
    from errcat.models import ErrorRecord, RecordEnvelope
    from errcat.view import RecordFields

__all__ = ["FileStore", "open_file_store"]

logger = logging.getLogger("errcat")


class FileStore:
    """A JSON Lines catalog served through its stored index (see the module docstring)."""

    def __init__(self, path: Path, files: Sequence[Path], identity: list[list[Any]]) -> None:
        """Open the stored index at ``path``; raise ``ValueError`` if it is not usable."""
        with path.open("rb") as fh:
            self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        view = memoryview(self._map)
        if len(view) < 24 or bytes(view[:8]) != MAGIC or bytes(view[-8:]) != MAGIC:
            raise ValueError("not an errcat index, or a truncated one")
        size = int.from_bytes(view[-16:-8], "little")
        if size > len(view) - 24:
            raise ValueError("damaged header")
        header = json.loads(bytes(view[-16 - size : -16]))
        if header.get("format") != FORMAT_VERSION or header.get("byteorder") != sys.byteorder:
            raise ValueError("built by another format version or byte order")
        if header.get("sources") != identity:
            raise ValueError("built for other data (files changed since)")
        if header.get("background") != background.fingerprint():
            raise ValueError("built with another background model (its word evidence is stale)")
        parts: dict[str, Any] = {}
        for name, (offset, length, crc) in header["sections"].items():
            chunk = view[offset : offset + length]
            if zlib.crc32(chunk) != crc:
                raise ValueError(f"section {name} fails its checksum")
            kind = ARRAY_KINDS.get(name)
            parts[name] = chunk.cast(kind) if kind else chunk  # type: ignore[call-overload]
        self._files = list(files)
        #: The stored index file this store maps, and the identity of the data it indexes
        #: (what :mod:`errcat.spark` ships to executors).
        self.index_path = path
        self.identity = identity
        self._data_maps: dict[int, mmap.mmap] = {}
        # Built on first use, once: the match index and the data files' maps.
        self._lock = threading.Lock()
        self._rows = StringTable(parts["rows"], parts["row_offsets"])
        self._file_of = parts["file_of"]
        self._offsets = parts["offsets"]
        self._lengths = parts["lengths"]
        self._lines = parts["lines"]
        self._by_id = parts["by_id"]
        self._by_slug = parts["by_slug"]
        self._tables = replace(
            tables_of(parts),
            priors=priors_of(parts),
            pieces=StringTable(parts["pieces"], parts["piece_offsets"]),
            near=near_of(parts),
            unticked=(tables_of(parts, UNTICKED), parts[f"{UNTICKED}origins"]),
        )
        self._index: PatternIndex | None = None
        self._cache: dict[int, RecordEnvelope] = {}
        self._ids: frozenset[str] | None = None
        self._by_file = postings_of(parts, "file")
        self._near_ids = parts["near_ids"]
        self._near_lines = parts["near_lines"]
        self._phrase_rows: Sequence[int] = parts[PHRASE_ROWS]
        self.problems = tuple(problem_of(p) for p in header["problems"])

    def __len__(self) -> int:
        """Number of records."""
        return len(self._rows)

    def summary(self, position: int) -> RecordSummary:
        """The matching fields of the record at ``position`` (no record body is read)."""
        return RecordSummary.decode(self._rows[position])

    def row_holds(self, position: int, data: bytes) -> bool:
        """Whether the stored row of the record at ``position`` holds ``data`` (not decoded)."""
        return self._rows.holds(position, data)

    def _raw(self, position: int) -> bytes:
        """The JSON line of the record at ``position``."""
        number = self._file_of[position]
        data = self._data_maps.get(number)
        if data is None:
            with self._lock:
                data = self._data_maps.get(number)
                if data is None:
                    try:
                        with self._files[number].open("rb") as fh:
                            data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
                    except (OSError, ValueError) as exc:
                        raise CatalogSourceError(
                            f"Cannot read {self._files[number]}: {exc}"
                        ) from None
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
        where = str(self._files[number])
        try:
            envelope = RecordEnvelope.model_validate_json(raw)
        except ValueError:
            # The file changed under the index: say where, precisely.
            try:
                data = parse_json(raw)
            except ValueError as exc:
                raise InvalidRecordError(
                    f"invalid JSON: {exc}", path=where, line=self._lines[position]
                ) from None
            envelope = validate_envelope(data, path=where, line=self._lines[position])
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
            data = parse_json(self._raw(position))["record"]
        except (ValueError, KeyError, TypeError):
            return self.record(position)  # let validation say precisely what is wrong
        return RecordView(data) if isinstance(data, dict) else self.record(position)

    def records_in_file(self, tail: str) -> Sequence[int]:
        """Positions of the records raised in a file with this :func:`file_tail`."""
        return self._by_file.get(tail)

    def file_tails(self) -> Sequence[str]:
        """Every :func:`file_tail` some record is raised in, read from the index."""
        return self._by_file.words

    def raised_lines(self, tail: str) -> tuple[Sequence[int], Sequence[int]]:
        """The raise lines of the records in files named ``tail``, ascending, and their positions.

        Read from the index (no record's row is decoded): what
        :func:`errcat.matcher.summaries.raised_near` bisects.
        """
        start, end = self._by_file.span(tail)
        return self._near_lines[start:end], self._near_ids[start:end]

    def position_of(self, key: str) -> int | None:
        """Position of the record with this id, else of the first with this slug."""
        for order, field in ((self._by_id, 0), (self._by_slug, 1)):
            run = self._run(order, field, key)
            if run:
                return run[0]
        return None

    def with_slug(self, slug: str) -> Sequence[int]:
        """Positions of every record with this slug: a run of the slug order, found by bisection."""
        return self._run(self._by_slug, 1, slug, every=True)

    def _run(self, order: Sequence[int], field: int, key: str, *, every: bool = False) -> list[int]:
        """Positions in ``order`` (sorted by row field ``field``) spelled ``key``.

        The first only, or ``every`` one: the run of them, found by bisection.
        """

        def spelled(n: int) -> str:
            return self._field(n, field)

        at = bisect.bisect_left(order, key, key=spelled)
        found: list[int] = []
        while at < len(order) and spelled(order[at]) == key:
            found.append(int(order[at]))
            if not every:
                break
            at += 1
        return found

    def tagged(self, prefix: str) -> Sequence[int]:
        """Positions of the records with a tag starting with ``prefix`` (one scan of the rows).

        The rows a phrase tag may be in were found when the index was built.
        """
        rows = (
            self._phrase_rows
            if prefix == PHRASE_TAG_PREFIX
            else self._rows.holding(prefix.encode("utf-8"))
        )
        return [n for n in rows if tag_values(self.summary(n).tags, prefix)]

    def ids(self) -> frozenset[str]:
        """The ids of the stored records (read from the rows once, on first use)."""
        if self._ids is None:
            self._ids = frozenset(self._field(n, 0) for n in range(len(self._rows)))
        return self._ids

    def _field(self, position: int, field: int) -> str:
        return self._rows[position].split(SEP, 2)[field]

    @property
    def index(self) -> PatternIndex:
        """The match index over the stored tables, built once on first use (thread-safe)."""
        if self._index is None:
            with self._lock:
                if self._index is None:
                    self._index = PatternIndex.from_tables(self._tables)
        return self._index


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

    listed = build.data_files(source)
    if not listed:
        return None
    packed = [f for f in listed if is_compressed(f.name)]
    inflated: dict[Path, Path] = {}
    shas: dict[Path, str] = {}
    if packed:
        shas = build.manifest_shas(source)

        def inflate(f: Path) -> Path:
            return inflated_copy(f, sha256=shas.get(f), cache=cache)

        ready = {f: inflated_target(f, shas.get(f), cache) for f in packed}
        if all(copy_is_intact(target) for target in ready.values()):
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
        for f, entry in zip(listed, build.identity_of(files), strict=True)
    ]
    path = index_path if index_path is not None else index_path_for(source, cached=bool(packed))
    if not rebuild and path.is_file():
        try:
            return FileStore(path, files, identity)
        except (ValueError, KeyError, TypeError, OSError) as exc:
            logger.info("rebuilding the index of %s: %s", source, exc)
    if progress is None:
        progress = sys.stderr.isatty()
    built = build.scan_files(files, progress, [str(f) for f in listed], trusted)
    index = PatternIndex(built.patterns, priors=True)
    try:
        write_index(path, identity, built, index)
    except OSError as exc:
        raise CatalogSourceError(f"Cannot write the index of {source} to {path}: {exc}") from None
    return FileStore(path, files, identity)
