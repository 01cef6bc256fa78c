"""Where a catalog's records come from: the stores opened from paths, their sidecars, sizes.

:meth:`errcat.Catalog.from_path` is these stores put together; the bundled
data (:mod:`errcat.bundled`) and plug-ins (:mod:`errcat.plugins`) open their
sources through the same functions. This module sits below the catalog: it
knows stores and files, never a :class:`~errcat.Catalog`.

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as tmp:
...     empty = Path(tmp) / "empty.jsonl"
...     _ = empty.write_text("", encoding="utf-8")
...     stores, sidecars = open_stores([empty])
>>> [len(s) for s in stores], sidecars
([0], [])
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from errcat._compat import Traversable
from errcat.errors import InvalidRecordError
from errcat.history import History, find_sidecar, sidecars_in
from errcat.loaders import bundled_data_dir, iter_path, read_manifest
from errcat.store import MemoryStore, Store, open_file_store

if TYPE_CHECKING:
    from errcat.models import RecordEnvelope

__all__ = [
    "LAZY_BYTES",
    "bundled_data_version",
    "data_size",
    "history_loader",
    "open_stores",
    "sidecars_of",
]

logger = logging.getLogger("errcat")

#: Sources of at least this many bytes of JSON Lines are served through a stored
#: index (records read on demand) rather than loaded into memory.
LAZY_BYTES = 16 << 20


def bundled_data_version() -> str:
    """The data version of the bundled catalog, from its manifest (read on each call)."""
    return str(read_manifest(bundled_data_dir())["dataVersion"])


def _file_size(path: Path) -> int:
    """Bytes of a file; of a ``.gz`` file, the size it decompresses to (its gzip trailer)."""
    size = path.stat().st_size
    if size >= 18 and path.name.lower().endswith(".gz"):  # header and trailer of a gzip
        with path.open("rb") as fh:
            fh.seek(-4, os.SEEK_END)
            return max(size, int.from_bytes(fh.read(4), "little"))  # ISIZE: size mod 2**32
    return size


def data_size(path: Path) -> int:
    """Bytes of JSON a file or directory holds, counting compressed files decompressed."""
    if path.is_file():
        return _file_size(path)
    total = 0
    for root, _dirs, names in os.walk(path):
        total += sum(_file_size(Path(root) / n) for n in names)
    return total


def sidecars_of(path: Path) -> list[Path]:
    """The history sidecars that go with a catalog source: beside a file, or inside a folder."""
    if path.is_dir():
        return sidecars_in(path)
    found = find_sidecar(path)
    return [found] if found is not None else []


def history_loader(paths: Sequence[Path]) -> Callable[[], History]:
    """A function reading the sidecars once, when a match first needs their history."""

    @functools.cache
    def load() -> History:
        first, *rest = (History.load(p) for p in paths)
        return first.merged(*rest) if rest else first

    return load


def open_stores(
    paths: Iterable[str | os.PathLike[str] | Traversable],
    *,
    strict: bool = False,
    lazy: bool | None = None,
) -> tuple[list[Store], list[Path]]:
    """The stores holding the records of ``paths`` (later ones override), and their sidecars.

    See :meth:`errcat.Catalog.from_path` for ``strict`` and ``lazy``. Sources
    loaded into memory one after another share one store; a source served
    through its stored index is a store of its own.
    """
    parts: list[Store] = []
    sidecars: list[Path] = []
    pending: list[RecordEnvelope] = []
    pending_problems: list[InvalidRecordError] = []

    def flush() -> None:
        if pending or pending_problems:
            parts.append(MemoryStore(list(pending), problems=list(pending_problems)))
            pending.clear()
            pending_problems.clear()

    for path in paths:
        store = None
        if isinstance(path, (str, os.PathLike)):
            sidecars.extend(sidecars_of(Path(path)))
        if lazy is not False and not (isinstance(path, Traversable) and not isinstance(path, Path)):
            p = Path(path)
            if p.exists() and (lazy or data_size(p) >= LAZY_BYTES):
                store = open_file_store(p)
        if store is not None:
            if strict and store.problems:
                raise store.problems[0]
            for problem in store.problems:
                logger.warning("skipped: %s", problem)
            flush()
            parts.append(store)
            continue
        seen: dict[str, int] = {}
        for item in iter_path(path, strict=strict):
            if item.problem is not None:
                if strict:
                    raise item.problem
                logger.warning("skipped: %s", item.problem)
                pending_problems.append(item.problem)
                continue
            assert item.envelope is not None
            rid = item.envelope.record.id
            if rid in seen:
                dup = InvalidRecordError(
                    f"duplicate id {rid!r} (first on line {seen[rid]}); the later line wins",
                    path=item.source,
                    line=item.line,
                    field="record.id",
                    record_id=rid,
                )
                if strict:
                    raise dup
                logger.warning("%s", dup)
                pending_problems.append(dup)
            seen[rid] = item.line
            pending.append(item.envelope)
    flush()
    if not parts:
        parts.append(MemoryStore())
    return parts, sidecars
