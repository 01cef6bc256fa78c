"""Events of a log scan grouped by what raised them, with counts and where to find them.

A group is one catalog record (every event it answered), or, for events no
record answered, one exception class and message shape (numbers and quoted
values masked, so ``unknown mode 3`` and ``unknown mode 7`` are one group).
Each group keeps its count, the files it occurred in with their first and last
line, and its first and last occurrence.

>>> from errcat.scan import ScanEvent
>>> def event(path, line, message, record=None):
...     return ScanEvent(
...         path, line, line, "ValueError", message, record, 0.9 if record else 0.0, True
...     )
>>> groups = group_events(
...     [
...         event("a.log", 3, "unknown mode 3"),
...         event("b.log", 9, "bad x", "0123456789abcdef"),
...         event("a.log", 40, "unknown mode 7"),
...     ]
... )
>>> [(g.record_id, g.events, g.files) for g in groups]
[(None, 2, 1), ('0123456789abcdef', 1, 1)]
>>> groups[0].places[0]
Place(path='a.log', events=2, first_line=3, last_line=40)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from errcat.scan import ScanEvent

__all__ = [
    "EventGroup",
    "FileRow",
    "Place",
    "file_rows",
    "group_events",
    "group_key",
    "message_shape",
]

# Quoted values, hex and decimal numbers: the parts of a message that differ between occurrences.
_QUOTED: Final = re.compile(r"'[^'\n]{0,200}'|\"[^\"\n]{0,200}\"")
_NUMBER: Final = re.compile(r"\b0x[0-9a-fA-F]+\b|(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
#: Characters of a message kept as a group's key.
_SHAPE_CHARS: Final = 300


@lru_cache(maxsize=1 << 16)
def message_shape(message: str) -> str:
    """A message with its quoted values and numbers masked: what stays the same between events.

    >>> message_shape("batch size 128 exceeds the limit of 64 for 'llama'")
    "batch size <n> exceeds the limit of <n> for '…'"
    """
    first = message.split("\n", 1)[0][:_SHAPE_CHARS]
    return _NUMBER.sub("<n>", _QUOTED.sub(lambda m: m.group(0)[0] + "…" + m.group(0)[0], first))


@dataclass(frozen=True, slots=True)
class Place:
    """Where a group occurred in one file: how often, and its first and last line."""

    path: str
    events: int
    first_line: int
    last_line: int


@dataclass(slots=True)
class _Counts:
    events: int
    first_line: int
    last_line: int


@dataclass(slots=True)
class EventGroup:
    """The events of one record (or, unanswered, of one class and message shape)."""

    key: str
    record_id: str | None
    error_class: str
    #: The message of the group's first event (as the log printed it).
    message: str
    events: int = 0
    #: The highest confidence of its events' answers (0 when unanswered).
    confidence: float = 0.0
    #: ``(path, line)`` of the first and last event, in scan order.
    first: tuple[str, int] = ("", 0)
    last: tuple[str, int] = ("", 0)
    #: The earliest and latest time found for its events (``None`` when the log has none).
    first_time: datetime | None = None
    last_time: datetime | None = None
    #: Whether its events printed different messages (of the same shape).
    varied: bool = False
    _files: dict[str, _Counts] = field(default_factory=dict, repr=False)

    @property
    def shape(self) -> str:
        """The message as the group's title shows it: as printed, or its shape when it varied."""
        return message_shape(self.message) if self.varied else self.message.split("\n", 1)[0]

    @property
    def files(self) -> int:
        """How many files the group occurred in."""
        return len(self._files)

    @property
    def places(self) -> list[Place]:
        """Each file the group occurred in, most events first (then by name)."""
        rows = sorted(self._files.items(), key=lambda kv: (-kv[1].events, kv[0]))
        return [Place(path, c.events, c.first_line, c.last_line) for path, c in rows]

    def _add(self, event: ScanEvent, when: datetime | None) -> None:
        if not self.events:
            self.first = (event.path, event.start_line)
        elif event.message != self.message:
            self.varied = True
        self.events += 1
        self.last = (event.path, event.start_line)
        self.confidence = max(self.confidence, event.confidence)
        counts = self._files.get(event.path)
        if counts is None:
            self._files[event.path] = _Counts(1, event.start_line, event.start_line)
        else:
            counts.events += 1
            counts.first_line = min(counts.first_line, event.start_line)
            counts.last_line = max(counts.last_line, event.start_line)
        if when is not None:
            if self.first_time is None or when < self.first_time:
                self.first_time = when
            if self.last_time is None or when > self.last_time:
                self.last_time = when


def group_key(event: ScanEvent) -> str:
    """The group of an event: its record id, or ``Class: message shape`` when unanswered."""
    if event.record_id is not None:
        return event.record_id
    return f"{event.error_class}: {message_shape(event.message)}"


def group_events(
    events: Iterable[ScanEvent], times: Mapping[tuple[str, int], datetime] | None = None
) -> list[EventGroup]:
    """The events grouped by record (or class and message shape), most events first.

    ``times`` maps an event's ``(path, start_line)`` to its time; events
    without one are counted all the same.
    """
    table = times or {}
    groups: dict[str, EventGroup] = {}
    for event in events:
        key = group_key(event)
        group = groups.get(key)
        if group is None:
            group = groups[key] = EventGroup(key, event.record_id, event.error_class, event.message)
        group._add(event, table.get((event.path, event.start_line)))
    return sorted(groups.values(), key=lambda g: (-g.events, g.record_id is None, g.key))


@dataclass(slots=True)
class FileRow:
    """One file's events: how many, how many a record answered, and the first and last."""

    path: str
    events: int = 0
    matched: int = 0
    groups: set[str] = field(default_factory=set)
    first_line: int = 0
    last_line: int = 0
    first_time: datetime | None = None
    last_time: datetime | None = None


def file_rows(
    events: Iterable[ScanEvent], times: Mapping[tuple[str, int], datetime] | None = None
) -> list[FileRow]:
    """One row per file that has events, in the order the files were scanned.

    >>> from errcat.scan import ScanEvent
    >>> rows = file_rows([ScanEvent("a.log", 5, 9, "KeyError", "'k'", None, 0.0, False)])
    >>> (rows[0].path, rows[0].events, rows[0].matched, rows[0].first_line)
    ('a.log', 1, 0, 5)
    """
    table = times or {}
    rows: dict[str, FileRow] = {}
    for event in events:
        row = rows.get(event.path)
        if row is None:
            row = rows[event.path] = FileRow(event.path, first_line=event.start_line)
        row.events += 1
        row.matched += event.record_id is not None
        row.groups.add(group_key(event))
        row.first_line = min(row.first_line, event.start_line)
        row.last_line = max(row.last_line, event.start_line)
        when = table.get((event.path, event.start_line))
        if when is not None:
            if row.first_time is None or when < row.first_time:
                row.first_time = when
            if row.last_time is None or when > row.last_time:
                row.last_time = when
    return list(rows.values())
