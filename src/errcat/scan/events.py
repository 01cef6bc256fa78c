"""What a scan reports: :class:`ScanEvent`, :class:`ScanStats`, and counts by record.

>>> event = ScanEvent("a.log", 3, 5, "ValueError", "bad x", None, 0.0, False)
>>> summarize([event, event])[0]["events"]
2
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Final

from errcat.errors import ErrcatError

if TYPE_CHECKING:
    pass

__all__ = ["EVENT_FIELDS", "LogSourceError", "ScanEvent", "ScanStats", "summarize"]


#: The fields of an event, in order (the JSON keys and the Spark columns).
EVENT_FIELDS: Final = (
    "path",
    "start_line",
    "end_line",
    "error_class",
    "message",
    "record_id",
    "confidence",
    "exact",
)


@dataclass(frozen=True, slots=True)
class ScanEvent:
    """One exception event found in a log.

    ``start_line`` and ``end_line`` are 1-based and inclusive (lines of other
    streams may lie between them); ``error_class`` and ``message`` are those of
    the exception that ended the event; ``record_id`` is the catalog record of
    :func:`errcat.match_error` for the event's text (``None`` when no record is
    a confident answer, and then ``confidence`` is 0 and ``exact`` false).
    """

    path: str
    start_line: int
    end_line: int
    error_class: str
    message: str
    record_id: str | None
    confidence: float
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON-ready dict with the keys of :data:`EVENT_FIELDS`."""
        return asdict(self)


@dataclass(slots=True)
class ScanStats:
    """What a scan read and what it left out (nothing is dropped silently)."""

    files: int = 0
    lines: int = 0
    chars: int = 0
    events: int = 0
    #: Tracebacks cut before their exception line (the log stopped, or the stream went quiet).
    incomplete: int = 0
    #: ``(path, reason)`` of every input that could not be read (fully).
    unreadable: list[tuple[str, str]] = field(default_factory=list)


class LogSourceError(ErrcatError, OSError):
    """A log file that cannot be read (missing, unreadable, corrupt or of an unsupported kind)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def summarize(events: Iterable[ScanEvent]) -> list[dict[str, Any]]:
    r"""Counts of events by record and class, most frequent first.

    >>> from errcat.scan import scan_text
    >>> events = scan_text("KeyError: 'a'\nKeyError: 'b'\nValueError: c\n")
    >>> [(row["record_id"], row["error_class"], row["events"]) for row in summarize(events)]
    [(None, 'KeyError', 2), (None, 'ValueError', 1)]
    """
    counts: Counter[tuple[str | None, str]] = Counter()
    files: dict[tuple[str | None, str], set[str]] = {}
    for event in events:
        key = (event.record_id, event.error_class)
        counts[key] += 1
        files.setdefault(key, set()).add(event.path)
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0] or "\uffff", kv[0][1]))
    return [
        {"record_id": rid, "error_class": cls, "events": n, "files": len(files[(rid, cls)])}
        for (rid, cls), n in rows
    ]
