"""The :class:`Catalog`: a read-only collection of records, loaded and merged from sources.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> cat = Catalog([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])
>>> len(cat), "0123456789abcdef" in cat, cat.get("bad-value-x").error_class
(1, True, 'ValueError')
>>> [r.id for r in cat.filter(error_class="ValueError")]
['0123456789abcdef']
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Literal

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # pragma: no cover - Python 3.10
    from importlib.abc import Traversable

from errcat.errors import InvalidRecordError, UnknownRecordError
from errcat.index import PatternIndex, ScanIndex
from errcat.loaders import bundled_data_dir, iter_path, read_manifest
from errcat.models import ErrorRecord, RecordEnvelope

__all__ = ["Catalog", "bundled_data_version"]

logger = logging.getLogger("errcat")

#: How a catalog finds candidate patterns (see :mod:`errcat.index`).
Engine = Literal["prefilter", "scan"]

_bundled: Catalog | None = None
_bundled_lock = threading.Lock()


def bundled_data_version() -> str:
    """The data version of the bundled catalog, from its manifest (read on each call)."""
    return str(read_manifest(bundled_data_dir())["dataVersion"])


def _short_class(name: str) -> str:
    return name.rsplit(".", 1)[-1]


class Catalog:
    """A read-only set of records with lookup by id or slug and a lazily built match index.

    Build one from envelopes or records, or with :meth:`from_path` and
    :meth:`bundled`. A record appearing twice (same id) keeps its last version.
    """

    __slots__ = (
        "_by_id",
        "_by_slug",
        "_engine",
        "_index",
        "_lock",
        "_records",
        "_versions",
        "data_version",
        "problems",
    )

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
        self._engine: Engine = engine
        by_id: dict[str, ErrorRecord] = {}
        versions: dict[str, datetime] = {}
        for item in items:
            if isinstance(item, RecordEnvelope):
                record = item.record
                versions[record.id] = item.dataset_version
            elif isinstance(item, ErrorRecord):
                record = item
            else:
                raise TypeError(
                    "Catalog items must be RecordEnvelope or ErrorRecord, "
                    f"got {type(item).__name__}"
                )
            by_id.pop(record.id, None)  # a later version moves to the end
            by_id[record.id] = record
        self._by_id = by_id
        self._records = tuple(by_id.values())
        self._versions = versions
        by_slug: dict[str, ErrorRecord] = {}
        for record in self._records:
            by_slug.setdefault(record.slug, record)
        self._by_slug = by_slug
        #: Lines that could not be loaded (each names its file, line and field).
        self.problems: tuple[InvalidRecordError, ...] = tuple(problems)
        #: The data version of the release the records come from, when known.
        self.data_version = data_version
        self._index: PatternIndex | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_path(
        cls,
        *paths: str | os.PathLike[str] | Traversable,
        strict: bool = False,
    ) -> Catalog:
        """Load and merge records from files and directories, later sources overriding earlier.

        A line that is not a valid record is logged (``errcat`` logger), kept in
        :attr:`problems` and skipped, or raised when ``strict`` is true.
        Unreadable sources raise :class:`~errcat.errors.CatalogSourceError`.
        """
        envelopes: list[RecordEnvelope] = []
        problems: list[InvalidRecordError] = []
        for path in paths:
            seen: dict[str, int] = {}
            for item in iter_path(path, strict=strict):
                if item.problem is not None:
                    if strict:
                        raise item.problem
                    logger.warning("skipped: %s", item.problem)
                    problems.append(item.problem)
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
                    problems.append(dup)
                seen[rid] = item.line
                envelopes.append(item.envelope)
        return cls(envelopes, problems=problems)

    @classmethod
    def bundled(cls) -> Catalog:
        """The catalog shipped with errcat, loaded once on first use (thread-safe)."""
        global _bundled  # noqa: PLW0603 - the process-wide cache of the bundled catalog
        if _bundled is None:
            with _bundled_lock:
                if _bundled is None:
                    directory = bundled_data_dir()
                    catalog = cls.from_path(directory)
                    catalog.data_version = bundled_data_version()
                    _bundled = catalog
        return _bundled

    def __len__(self) -> int:
        """Number of records."""
        return len(self._records)

    def __iter__(self) -> Iterator[ErrorRecord]:
        """Iterate over the records in load order."""
        return iter(self._records)

    def __contains__(self, key: object) -> bool:
        """True for a record of this catalog, or the id or slug of one."""
        if isinstance(key, ErrorRecord):
            return self._by_id.get(key.id) == key
        if isinstance(key, str):
            return key in self._by_id or key in self._by_slug
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

    def get(self, key: str, default: ErrorRecord | None = None) -> ErrorRecord | None:
        """The record with this id, else the first with this slug, else ``default``."""
        return self._by_id.get(key) or self._by_slug.get(key, default)

    def record_at(self, position: int) -> ErrorRecord:
        """The record at a position in load order (used by the match index)."""
        return self._records[position]

    def dataset_version(self, record_id: str) -> datetime | None:
        """The ``datasetVersion`` of the envelope a record came in, if it came in one."""
        return self._versions.get(record_id)

    def envelopes(self) -> Iterator[RecordEnvelope]:
        """The records in their envelopes (records given bare are not included)."""
        for record in self._records:
            version = self._versions.get(record.id)
            if version is not None:
                yield RecordEnvelope(record=record, dataset_version=version)

    def filter(
        self,
        *,
        repo: str | None = None,
        error_class: str | None = None,
        tag: str | None = None,
    ) -> Catalog:
        """The records that have this repo, exception class (full or last part) and tag."""

        def keep(record: ErrorRecord) -> bool:
            if repo is not None and record.repo != repo:
                return False
            if error_class is not None and error_class not in {
                record.error_class,
                _short_class(record.error_class),
            }:
                return False
            return tag is None or tag in record.tags

        chosen = [r for r in self._records if keep(r)]
        items: list[RecordEnvelope | ErrorRecord] = []
        for record in chosen:
            version = self._versions.get(record.id)
            items.append(
                record
                if version is None
                else RecordEnvelope(record=record, dataset_version=version)
            )
        return Catalog(items, data_version=self.data_version)

    def with_engine(self, engine: Engine) -> Catalog:
        """The same records with another candidate engine."""
        items = [*self.envelopes()] or list(self)
        return Catalog(items, problems=self.problems, data_version=self.data_version, engine=engine)

    def merge(self, *others: Catalog) -> Catalog:
        """A new catalog with this one's records, then the others' (later ids win)."""
        items: list[RecordEnvelope | ErrorRecord] = []
        problems: list[InvalidRecordError] = list(self.problems)
        for catalog in (self, *others):
            problems.extend(p for p in catalog.problems if p not in problems)
            for record in catalog:
                version = catalog.dataset_version(record.id)
                items.append(
                    record
                    if version is None
                    else RecordEnvelope(record=record, dataset_version=version)
                )
        return Catalog(items, problems=problems)

    @property
    def index(self) -> PatternIndex:
        """The match index over the records' patterns, built once on first use (thread-safe)."""
        if self._index is None:
            with self._lock:
                if self._index is None:
                    kind = PatternIndex if self._engine == "prefilter" else ScanIndex
                    self._index = kind(r.message_pattern for r in self._records)
        return self._index
