"""What the matcher reads of a store's records, read once and kept: summaries, raise lines by file.

A stored index decodes a record's summary from its table on every
:meth:`~errcat.store.Store.summary` call, and a match reads the same few
records' summaries again and again (to score, to rank, to tell apart); the
matcher reads them through :func:`summary`, which keeps the last
:data:`KEPT` of each store. :func:`raised_near` finds the records raised
near a line of a file through a table of their lines built once per file
name (a common name, ``__init__.py``, holds thousands of records).

>>> from errcat.catalog import Catalog
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> store = Catalog([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)]).parts[0]
>>> summary(store, 0) is summary(store, 0), summary(store, 0).id
(True, '0123456789abcdef')
>>> raised_near(store, "core.py", 13, 3), raised_near(store, "core.py", 20, 3)
([0], [])
"""

from __future__ import annotations

import bisect
import weakref
from collections.abc import Sequence

from errcat.store import RecordSummary, Store
from errcat.store.base import SEP
from errcat.store.file import FileStore

__all__ = ["KEPT", "class_may_end", "raised_near", "summary"]

#: How many summaries are kept per store before the table starts over.
KEPT = 1 << 16

_KEPT: weakref.WeakKeyDictionary[Store, dict[int, RecordSummary]] = weakref.WeakKeyDictionary()


def summary(store: Store, position: int) -> RecordSummary:
    """The summary of the record at ``position`` in ``store``, read once and kept."""
    kept = _KEPT.get(store)
    if kept is None:
        kept = _KEPT[store] = {}
    found = kept.get(position)
    if found is None:
        if len(kept) >= KEPT:
            kept.clear()
        found = kept[position] = store.summary(position)
    return found


def class_may_end(store: Store, position: int, tail: str) -> bool:
    """Whether the class of the record at ``position`` may end with ``tail`` (never a miss).

    False only when it surely does not: a kept summary says so, or the stored
    row does not hold ``tail`` just before a field's end (the class is followed
    by one), which is read without decoding the row.
    """
    kept = _KEPT.get(store)
    found = kept.get(position) if kept is not None else None
    if found is not None:
        return found.error_class.endswith(tail)
    if isinstance(store, FileStore):
        return store.row_holds(position, (tail + SEP).encode("utf-8", "surrogatepass"))
    return True


_LINES: weakref.WeakKeyDictionary[Store, dict[str, tuple[Sequence[int], Sequence[int]]]] = (
    weakref.WeakKeyDictionary()
)


def raised_near(store: Store, tail: str, line: int, within: int) -> list[int]:
    """Positions of the records in files named ``tail`` raised ``within`` lines of ``line``."""
    tables = _LINES.get(store)
    if tables is None:
        tables = _LINES[store] = {}
    table = tables.get(tail)
    if table is None:
        if len(tables) >= KEPT:
            tables.clear()
        if isinstance(store, FileStore):
            table = store.raised_lines(tail)  # stored in line order: no row is read
        else:
            order = sorted((store.summary(p).line_number, p) for p in store.records_in_file(tail))
            table = ([n for n, _ in order], [p for _, p in order])
        tables[tail] = table
    lines, positions = table
    start = bisect.bisect_left(lines, line - within)
    end = bisect.bisect_right(lines, line + within)
    return list(positions[start:end])
