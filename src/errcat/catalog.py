"""The :class:`Catalog`: a read-only collection of records, loaded and merged from sources.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> cat = Catalog([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])
>>> len(cat), "0123456789abcdef" in cat, cat.get("bad-value-x").error_class
(1, True, 'ValueError')
>>> [r.id for r in cat.filter(error_class="ValueError")]
['0123456789abcdef']
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from errcat._compat import Traversable
from errcat.errors import InvalidRecordError, UnknownRecordError
from errcat.history import History, attach, history_of
from errcat.index import PatternIndex
from errcat.sources import LAZY_BYTES, bundled_data_version, data_size, history_loader, open_stores
from errcat.store import MemoryStore, RecordSummary, Store
from errcat.text import short_class

if TYPE_CHECKING:
    from errcat.models import ErrorRecord, RecordEnvelope

__all__ = ["LAZY_BYTES", "Catalog", "Engine", "bundled_data_version", "data_size"]

#: How a catalog finds candidate patterns (see :mod:`errcat.index`).
Engine = Literal["prefilter", "scan"]


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
    def of_stores(
        cls,
        stores: Iterable[Store],
        data_version: str | None = None,
        history: History | Callable[[], History] | None = None,
    ) -> Catalog:
        """A catalog made of ``stores`` (later ones override), as they are: nothing is copied.

        ``history`` (or a function that loads it when a match first asks) is
        attached to every store. The stores' load problems are the catalog's.
        """
        catalog = cls.__new__(cls)
        catalog._parts = tuple(stores)
        catalog.problems = tuple(p for part in catalog._parts for p in part.problems)
        catalog.data_version = data_version
        return catalog._keep_history(history)

    #: The former private name of :meth:`of_stores` (spark and older callers use it).
    _of_parts = of_stores

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
        parts, sidecars = open_stores(paths, strict=strict, lazy=lazy)
        return cls.of_stores(parts, history=history_loader(sidecars) if sidecars else None)

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
        from errcat.default import catalog_from_sources  # the one upward link, made late

        return catalog_from_sources(paths, bundled=bundled)

    @classmethod
    def bundled(cls) -> Catalog:
        """The catalog shipped with errcat, loaded once on first use (thread-safe).

        A large one is served through its stored index, built once into the
        user cache (:mod:`errcat.bundled`; the policy is :mod:`errcat.default`'s).
        """
        from errcat.default import bundled_catalog

        return bundled_catalog()

    @classmethod
    def default(cls) -> Catalog:
        """The bundled catalog plus every ``errcat.catalogs`` plug-in, loaded once (thread-safe).

        This is what :func:`~errcat.match_error` and the other functions use
        when given no catalog. Plug-ins (:mod:`errcat.plugins`) come after the
        bundled records and override those with the same id; a broken one is
        skipped with a warning.
        """
        from errcat.default import default_catalog

        return default_catalog()

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
        """True when a later store holds a record with this id (which then wins).

        Each store's ids are read once: a match asks this of every candidate record,
        and searching each later store's sorted ids every time cost more than the
        match itself with the stack's eight packages installed.
        """
        return any(record_id in p.ids() for p in self._parts[part + 1 :])

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
                short_class(summary.error_class),
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
