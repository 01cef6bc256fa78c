"""Validated records held in memory (:class:`MemoryStore`).

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> store = MemoryStore([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])
>>> store.summary(0).error_class, store.position_of("bad-value-x")
('ValueError', 0)
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from errcat.errors import InvalidRecordError
from errcat.index import PatternIndex
from errcat.store.base import RecordSummary, file_tail
from errcat.tags import tag_values

if TYPE_CHECKING:
    from errcat.models import ErrorRecord, RecordEnvelope
    from errcat.view import RecordFields

__all__ = ["MemoryStore"]


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
        self._ids: frozenset[str] | None = None
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

    def with_slug(self, slug: str) -> Sequence[int]:
        """Positions of every record with this slug, in store order."""
        return [n for n, r in enumerate(self._records) if r.slug == slug]

    def tagged(self, prefix: str) -> Sequence[int]:
        """Positions of the records with a tag that starts with ``prefix``."""
        return [n for n, r in enumerate(self._records) if tag_values(r.tags, prefix)]

    def ids(self) -> frozenset[str]:
        """The ids of the store's records."""
        if self._ids is None:
            self._ids = frozenset(r.id for r in self._records)
        return self._ids

    def records_in_file(self, tail: str) -> Sequence[int]:
        """Positions of the records raised in a file with this :func:`file_tail`."""
        return self._files().get(tail, ())

    def file_tails(self) -> Sequence[str]:
        """Every :func:`file_tail` some record is raised in."""
        return list(self._files())

    def _files(self) -> dict[str, list[int]]:
        """The records' positions by :func:`file_tail`, worked out once (thread-safe)."""
        if self._by_file is None:
            with self._lock:
                if self._by_file is None:
                    by_file: dict[str, list[int]] = {}
                    for position, record in enumerate(self._records):
                        by_file.setdefault(file_tail(record.file_path), []).append(position)
                    self._by_file = by_file
        return self._by_file

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
