"""The :class:`Catalog`: a read-only collection of records, loaded and merged from sources.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> cat = Catalog([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])
>>> len(cat), "0123456789abcdef" in cat, cat.get("bad-value-x").error_class
(1, True, 'ValueError')
>>> [r.id for r in cat.filter(error_class="ValueError")]
['0123456789abcdef']
"""

from __future__ import annotations

import functools
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # pragma: no cover - Python 3.10
    from importlib.abc import Traversable

from errcat.bundled import bundled_data_version
from errcat.errors import InvalidRecordError, UnknownRecordError
from errcat.history import History, attach, find_sidecar, history_of, sidecars_in
from errcat.index import PatternIndex
from errcat.loaders import iter_path
from errcat.store import MemoryStore, RecordSummary, Store, open_file_store

if TYPE_CHECKING:
    from errcat.models import ErrorRecord, RecordEnvelope

__all__ = ["LAZY_BYTES", "Catalog", "Engine", "bundled_data_version", "data_size"]

logger = logging.getLogger("errcat")

#: How a catalog finds candidate patterns (see :mod:`errcat.index`).
Engine = Literal["prefilter", "scan"]

#: Sources of at least this many bytes of JSON Lines are served through a stored
#: index (records read on demand) rather than loaded into memory.
LAZY_BYTES = 16 << 20

_bundled: Catalog | None = None
_default: Catalog | None = None
_bundled_lock = threading.RLock()  # re-entrant: a plug-in may ask for the bundled catalog


def _short_class(name: str) -> str:
    return name.rsplit(".", 1)[-1]


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


class Catalog:
    """A read-only set of records with lookup by id or slug and a lazily built match index.

    Build one from envelopes or records, or with :meth:`from_path` and
    :meth:`bundled`. A record appearing twice (same id) keeps its last version.
    A catalog is made of one or more *stores* (see :mod:`errcat.store`); a
    record in a later store hides the record with the same id in earlier ones.
    """

    __slots__ = ("_parts", "data_version", "problems")

    def __init__(
        self,
        items: Iterable[RecordEnvelope | ErrorRecord] = (),
        *,
        problems: Iterable[InvalidRecordError] = (),
        data_version: str | None = None,
        engine: Engine = "prefilter",
    ) -> None:
        """Collect ``items``; ``problems`` are the load problems to keep on record.

        ``engine`` picks how candidates are found: ``"prefilter"`` (the word
        index) or ``"scan"`` (every pattern's regex, for checking and measuring).
        """
        if engine not in ("prefilter", "scan"):
            raise ValueError(f"Unknown engine: {engine!r} (use 'prefilter' or 'scan')")
        problems = tuple(problems)
        self._parts: tuple[Store, ...] = (MemoryStore(items, problems=problems, engine=engine),)
        #: Lines that could not be loaded (each names its file, line and field).
        self.problems: tuple[InvalidRecordError, ...] = problems
        #: The data version of the release the records come from, when known.
        self.data_version = data_version

    @classmethod
    def _of_parts(cls, parts: Iterable[Store], data_version: str | None = None) -> Catalog:
        catalog = cls.__new__(cls)
        catalog._parts = tuple(parts)
        catalog.problems = tuple(p for part in catalog._parts for p in part.problems)
        catalog.data_version = data_version
        return catalog

    @classmethod
    def from_path(
        cls,
        *paths: str | os.PathLike[str] | Traversable,
        strict: bool = False,
        lazy: bool | None = None,
    ) -> Catalog:
        """Load and merge records from files and directories, later sources overriding earlier.

        A line that is not a valid record is logged (``errcat`` logger), kept in
        :attr:`problems` and skipped, or raised when ``strict`` is true.
        Unreadable sources raise :class:`~errcat.errors.CatalogSourceError`.

        JSON Lines sources of :data:`LAZY_BYTES` or more (or any, with
        ``lazy=True``) are served through a stored index built on first use:
        later loads take milliseconds and read a record only when it is used.
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
                sidecars.extend(_sidecars_of(Path(path)))
            if lazy is not False and not (
                isinstance(path, Traversable) and not isinstance(path, Path)
            ):
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
        catalog = cls._of_parts(parts)
        if sidecars:
            catalog._keep_history(_history_loader(sidecars))
        return catalog

    @classmethod
    def from_sources(
        cls,
        paths: Sequence[str | os.PathLike[str]] = (),
        *,
        bundled: bool = True,
    ) -> Catalog:
        """The default catalog (unless ``bundled=False``) with the records of ``paths`` on top.

        This is how the ``errcat`` commands and the server load what
        ``--catalog`` and ``--no-bundled`` name; the records that could not be
        read are in :attr:`problems`.

        >>> Catalog.from_sources(bundled=False)
        Traceback (most recent call last):
        ...
        ValueError: no catalog to load: no paths given and the bundled catalog left out
        """
        if not bundled and not paths:
            raise ValueError("no catalog to load: no paths given and the bundled catalog left out")
        extra = cls.from_path(*paths) if paths else None
        if not bundled:
            assert extra is not None
            return extra
        base = cls.default()
        if extra is None:
            return base
        merged = base.merge(extra)
        merged.data_version = base.data_version
        return merged

    @classmethod
    def bundled(cls) -> Catalog:
        """The catalog shipped with errcat, loaded once on first use (thread-safe).

        A large one is served through its stored index, built once into the
        user cache (:mod:`errcat.bundled`).
        """
        global _bundled  # noqa: PLW0603 - the process-wide cache of the bundled catalog
        if _bundled is None:
            with _bundled_lock:
                if _bundled is None:
                    from errcat.bundled import load_bundled

                    _bundled = load_bundled()
        return _bundled

    @classmethod
    def default(cls) -> Catalog:
        """The bundled catalog plus every ``errcat.catalogs`` plug-in, loaded once (thread-safe).

        This is what :func:`~errcat.match_error` and the other functions use
        when given no catalog. Plug-ins (:mod:`errcat.plugins`) come after the
        bundled records and override those with the same id; a broken one is
        skipped with a warning.
        """
        global _default  # noqa: PLW0603 - the process-wide cache of the default catalog
        if _default is None:
            base = cls.bundled()
            with _bundled_lock:
                if _default is None:
                    from errcat.plugins import plugin_catalogs

                    extra = plugin_catalogs()
                    catalog = base.merge(*extra) if extra else base
                    catalog.data_version = base.data_version
                    _default = catalog
        return _default

    # -- history --------------------------------------------------------------------

    @property
    def history(self) -> History | None:
        """When each record's message existed (from ``NAME.history.json`` sidecars), if known."""
        found = [h for h in dict.fromkeys(map(history_of, self._parts)) if h is not None]
        if len(found) > 1:
            return found[0].merged(*found[1:])
        return found[0] if found else None

    def _keep_history(self, history: History | Callable[[], History] | None) -> Catalog:
        if history is not None:
            for part in self._parts:
                attach(part, history)
        return self

    # -- stores ---------------------------------------------------------------------

    @property
    def parts(self) -> tuple[Store, ...]:
        """The stores this catalog is made of, in override order."""
        return self._parts

    def hidden(self, part: int, record_id: str) -> bool:
        """True when a later store holds a record with this id (which then wins)."""
        return any(p.position_of(record_id) is not None for p in self._parts[part + 1 :])

    def _visible(self) -> Iterator[tuple[Store, int]]:
        for number, store in enumerate(self._parts):
            last = number == len(self._parts) - 1
            for position in range(len(store)):
                if last or not self.hidden(number, store.summary(position).id):
                    yield store, position

    # -- collection -----------------------------------------------------------------

    def __len__(self) -> int:
        """Number of records."""
        if len(self._parts) == 1:
            return len(self._parts[0])
        return sum(1 for _ in self._visible())

    def __iter__(self) -> Iterator[ErrorRecord]:
        """Iterate over the records in load order."""
        for store, position in self._visible():
            yield store.record(position)

    def __contains__(self, key: object) -> bool:
        """True for a record of this catalog, or the id or slug of one."""
        if isinstance(key, str):
            return self._locate(key) is not None
        from errcat.models import ErrorRecord

        if isinstance(key, ErrorRecord):
            return self.get(key.id) == key
        return False

    def __getitem__(self, key: str) -> ErrorRecord:
        """The record with this id or slug; raises :class:`~errcat.errors.UnknownRecordError`."""
        record = self.get(key)
        if record is None:
            raise UnknownRecordError(key)
        return record

    def __repr__(self) -> str:
        """Show the size and data version."""
        version = f", data_version={self.data_version!r}" if self.data_version else ""
        return f"<Catalog of {len(self)} records{version}>"

    def _locate(self, key: str) -> tuple[Store, int] | None:
        for store in reversed(self._parts):
            position = store.position_of(key)
            if position is not None:
                return store, position
        return None

    def get(self, key: str, default: ErrorRecord | None = None) -> ErrorRecord | None:
        """The record with this id, else the first with this slug, else ``default``."""
        found = self._locate(key)
        return found[0].record(found[1]) if found else default

    def dataset_version(self, record_id: str) -> datetime | None:
        """The ``datasetVersion`` of the envelope a record came in, if it came in one."""
        found = self._locate(record_id)
        if found is None:
            return None
        envelope = found[0].envelope(found[1])
        return envelope.dataset_version if envelope is not None else None

    def envelopes(self) -> Iterator[RecordEnvelope]:
        """The records in their envelopes (records given bare are not included)."""
        for store, position in self._visible():
            envelope = store.envelope(position)
            if envelope is not None:
                yield envelope

    def _items(self) -> list[RecordEnvelope | ErrorRecord]:
        items: list[RecordEnvelope | ErrorRecord] = []
        for store, position in self._visible():
            items.append(store.envelope(position) or store.record(position))
        return items

    def filter(
        self,
        *,
        repo: str | None = None,
        error_class: str | None = None,
        tag: str | None = None,
    ) -> Catalog:
        """The records that have this repo, exception class (full or last part) and tag."""

        def keep(summary: RecordSummary) -> bool:
            if repo is not None and summary.repo != repo:
                return False
            if error_class is not None and error_class not in {
                summary.error_class,
                _short_class(summary.error_class),
            }:
                return False
            return tag is None or tag in summary.tags

        items: list[RecordEnvelope | ErrorRecord] = []
        for store, position in self._visible():
            if keep(store.summary(position)):
                items.append(store.envelope(position) or store.record(position))
        return Catalog(items, data_version=self.data_version)._keep_history(self.history)

    def with_engine(self, engine: Engine) -> Catalog:
        """The same records, in memory, with another candidate engine."""
        return Catalog(
            self._items(), problems=self.problems, data_version=self.data_version, engine=engine
        )._keep_history(self.history)

    def merge(self, *others: Catalog) -> Catalog:
        """A new catalog with this one's records, then the others' (later ids win)."""
        parts = [p for catalog in (self, *others) for p in catalog._parts]
        if all(isinstance(p, MemoryStore) for p in parts):
            problems = [p for part in parts for p in part.problems]
            items = [i for catalog in (self, *others) for i in catalog._items()]
            histories = [h for c in (self, *others) if (h := c.history) is not None]
            merged = histories[0].merged(*histories[1:]) if histories else None
            return Catalog(items, problems=problems)._keep_history(merged)
        return Catalog._of_parts(parts)

    @property
    def index(self) -> PatternIndex:
        """The match index (of the last store; every store's is built), built once."""
        for part in self._parts:
            index = part.index
        return index


def _sidecars_of(path: Path) -> list[Path]:
    """The history sidecars that go with a catalog source: beside a file, or inside a folder."""
    if path.is_dir():
        return sidecars_in(path)
    found = find_sidecar(path)
    return [found] if found is not None else []


def _history_loader(paths: Sequence[Path]) -> Callable[[], History]:
    """A function reading the sidecars once, when a match first needs their history."""

    @functools.cache
    def load() -> History:
        first, *rest = (History.load(p) for p in paths)
        return first.merged(*rest) if rest else first

    return load
