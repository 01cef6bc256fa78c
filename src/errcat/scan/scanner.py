r"""The scanner: every exception event of a log given as text chunks, at close to read speed.

A fleet's logs are mostly noise. :func:`scan_chunks` reads a log as an
iterator of text chunks (lines as ``for line in f`` gives them, or blocks of
any size) and yields one :class:`ScanEvent` per exception event:

* a traceback, reassembled across lines, also when it starts in the middle of
  a log message (``[... TP3] Scheduler hit an exception: Traceback ...``);
* a chain of tracebacks ("The above exception was the direct cause ...") is one
  event, reported with the exception that ended it;
* a bare ``Class: message`` line (or a repr, a pydantic line, an HTTP error
  body) whose class name ends in ``Error``, ``Exception`` or ``Warning``.

Lines are keyed by the stream their log prefix names (``TP3``,
``(Worker_TP1 pid=88)``, ``[rank0]:``, a compose service), so ranks printing
the same traceback line by line are put back together one by one; a line
without such a prefix belongs to the stream of the line before it. The text of
each event goes to :func:`errcat.extract.extract_reports` (which strips the
prefixes) and to :func:`errcat.match_error`.

Speed: a block of lines is searched for the few words that every event holds
(``Traceback``, ``Error``, ``Exception``, ``Warning``) with ``str.find``, and
the lines between are never looked at one by one. Only while an event is open
are lines read one at a time.

>>> [e.error_class for e in scan_text("noise\nKeyError: 'k'\n")]
['KeyError']
"""

from __future__ import annotations

import heapq
import os
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import IO, TYPE_CHECKING, Any, Final

from errcat.extract import ExceptionReport, _strip_prefixes, extract_reports
from errcat.extract import _shown as _shown_line
from errcat.scan.events import LogSourceError, ScanEvent, ScanStats
from errcat.scan.logs import read_log

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = ["scan_chunks", "scan_paths", "scan_text"]


#: Words at least one of which is on the first line of every event.
_TRIGGERS: Final = ("Traceback", "Error", "Exception", "Warning")


_TB_HEADER: Final = "Traceback (most recent call last):"


_CHAIN_RE: Final = re.compile(
    r"The above exception was the direct cause of the following exception:"
    r"|During handling of the above exception, another exception occurred:"
)


# A trigger word used as (the end of) an exception class: followed by ": ", "(",
# a quote, a comma, a bracket or the end of the line. "ErrorRate=0" is not one.
_CLASS_HINT_RE: Final = re.compile(
    r"(?:Error|Exception|Warning)\w*(?:\([\w.]*\))?(?::(?:[ \t]|$)|[(\"',)\]}]|[ \t]*$)"
)


# The same, at a trigger word's position in a block of lines.
_CLASS_HINT_AT_RE: Final = re.compile(
    r"(?:Error|Exception|Warning)\w*(?:\([\w.]*\))?(?::(?:[ \t\r]|$)|[(\"',)\]}]|[ \t\r]*$)",
    re.MULTILINE,
)


# A line that starts a new exception (ends a bare line's message).
_NEW_EXC_RE: Final = re.compile(
    r"[A-Za-z_][\w.]*(?:Error|Exception|Warning)\w*(?::[ \t]|:?[ \t]*$)"
)


_BLOCK: Final = 1 << 20  # characters handed to the fast search at once


_LOOKBACK_LINES: Final = 16  # lines searched back for the stream of an unprefixed line


_LOOKBACK_CHARS: Final = 8192


_MAX_BLANKS: Final = 2  # blank lines inside a traceback or between chained ones


_MAX_MESSAGE_LINES: Final = 100  # continuation lines of an exception's message


_MAX_EVENT_LINES: Final = 5000  # lines of one event (a longer one is closed there)


_QUIET_MSG: Final = 32  # lines of other streams after which a finished event closes


_QUIET_TB: Final = 1000  # ... after which a traceback cut before its exception line closes


_MATCH_CACHE: Final = 4096  # distinct events whose match is remembered


# Phases of an open event.
_TB, _MSG, _CHAIN = 0, 1, 2


@dataclass(slots=True)
class _Open:
    """An event being assembled in one stream."""

    lines: list[tuple[int, str]]
    phase: int
    group: bool  # an exception group (every line of it is indented)
    from_traceback: bool  # its exception line ended a traceback
    last_seen: int  # number of the last line of its stream
    pending: list[tuple[int, str]] = field(default_factory=list)  # blank lines not yet taken
    message_lines: int = 0


class _Matcher:
    """``match_error`` for event texts, remembering the answer for events seen before."""

    def __init__(self, catalog: Catalog | None) -> None:
        self._catalog = catalog
        self._cache: dict[tuple[Any, ...], tuple[str | None, float, bool]] = {}

    def __call__(
        self, text: str, reports: Sequence[ExceptionReport]
    ) -> tuple[str | None, float, bool]:
        # Equal reports (class, message, frames) get equal answers whatever their prefixes.
        key = tuple((r.error_class, r.message, r.frames, r.kind) for r in reports)
        found = self._cache.get(key)
        if found is None:
            from errcat.matcher import match_error

            match = match_error(text, catalog=self._catalog)
            found = (
                (None, 0.0, False)
                if match is None
                else (
                    match.summary.id,
                    match.confidence,
                    match.exact,
                )
            )
            if len(self._cache) >= _MATCH_CACHE:
                self._cache.clear()
            self._cache[key] = found
        return found


class _Scanner:
    """The state of one log being scanned (see :func:`scan_chunks`)."""

    def __init__(self, path: str, matcher: _Matcher, stats: ScanStats) -> None:
        self.path = path
        self.match = matcher
        self.stats = stats
        self.open: dict[tuple[str, ...], _Open] = {}
        self.current: tuple[str, ...] = ()
        self.newlines = 0  # line ends read so far
        self.partial = False  # the input ends with a line that has no line end
        self.tail = ""  # the end of the previous block (for the stream of an unprefixed line)
        self.ready: list[tuple[int, int, ScanEvent]] = []
        self.order = 0

    # -- blocks ----------------------------------------------------------------

    def block(self, text: str, stop: int) -> Iterator[ScanEvent]:
        """Scan ``text[:stop]``, which ends at a line end (or at the end of the input)."""
        pos = 0
        nexts = [-2] * len(_TRIGGERS)
        # With ANSI codes about, a class name may be cut from its ": " by one: check whole lines.
        plain = text.find("\x1b", 0, stop) < 0
        while pos < stop:
            if not self.open:
                hit = _next_trigger(text, pos, stop, nexts, plain)
                if hit < 0:
                    self.newlines += text.count("\n", pos, stop)
                    break
                start = text.rfind("\n", pos, hit) + 1 or pos
                self.newlines += text.count("\n", pos, start)
                pos = start
                end = text.find("\n", pos, stop)
                if end < 0:
                    end = stop
                raw = text[pos:end]
                number = self.newlines + 1
                self.newlines += end < stop
                pos = end + 1
                if plain or _may_start(_shown_line(raw)):
                    self._line(raw, number, partial(self._lookback, text, start))
                    if self.ready:
                        yield from self._emit()
                continue
            number = self.newlines + 1
            end = text.find("\n", pos, stop)
            if end < 0:
                end = stop
            else:
                self.newlines += 1
            self._line(text[pos:end], number, None)
            pos = end + 1
            if self.ready:
                yield from self._emit()
        self.tail = text[max(0, stop - _LOOKBACK_CHARS) : stop]

    def _lookback(self, text: str, start: int) -> tuple[str, ...]:
        """The stream of the nearest line with a stream prefix among the lines before ``start``."""
        if start < _LOOKBACK_CHARS and self.tail:
            text, start = self.tail + text[:start], len(self.tail) + start
        end = start - 1  # the line end before the line at start
        for _ in range(_LOOKBACK_LINES):
            if end < 0:
                break
            begin = text.rfind("\n", 0, end) + 1
            raw = text[begin:end]
            if raw[:1] not in ("", " ", "\t"):
                stream = _strip_prefixes(_shown_line(raw))[1]
                if stream:
                    return stream
            end = begin - 1
        return ()

    def finish(self) -> Iterator[ScanEvent]:
        """Close every open event (the input ended) and yield what is left."""
        for key in list(self.open):
            self._close(key)
        yield from self._emit()

    # -- lines -----------------------------------------------------------------

    def _line(self, raw: str, number: int, lookback: Callable[[], tuple[str, ...]] | None) -> None:
        """Read one line; ``lookback`` finds its stream after lines were skipped unread."""
        content, stream, record = _strip_prefixes(_shown_line(raw))
        if stream:
            self.current = stream
        elif lookback is not None:
            self.current = lookback()
        key = self.current
        event = self.open.get(key)
        if event is not None:
            if _take(event, number, raw, content, record):
                event.last_seen = number
                self._expire(number)
                return
            self._close(key)
        if self.open:
            self._expire(number)
        self._start(key, number, raw, content)

    def _start(self, key: tuple[str, ...], number: int, raw: str, content: str) -> None:
        header = content.find(_TB_HEADER)
        if header >= 0 and not content[header + len(_TB_HEADER) :].strip():
            group = content.endswith("Exception Group " + _TB_HEADER)
            self.open[key] = _Open([(number, raw)], _TB, group, True, number)
            return
        if _CLASS_HINT_RE.search(content) is None:
            return
        if any(r.kind != "text" for r in extract_reports(content)):
            self.open[key] = _Open([(number, raw)], _MSG, False, False, number)

    def _expire(self, number: int) -> None:
        for key, event in list(self.open.items()):
            quiet = _QUIET_TB if event.phase == _TB else _QUIET_MSG
            if number - event.last_seen > quiet:
                self._close(key)

    # -- events ----------------------------------------------------------------

    def _close(self, key: tuple[str, ...]) -> None:
        event = self.open.pop(key)
        lines = event.lines
        text = "\n".join(raw for _, raw in lines)
        reports = extract_reports(text)
        final = final_report(reports, group=event.group)
        if final is None:
            if event.from_traceback:
                self.stats.incomplete += 1
            return
        starts = [0]
        for _, raw in lines[:-1]:
            starts.append(starts[-1] + len(raw) + 1)
        if event.group:  # the group's own exception comes first; its members follow
            last = len(lines) - 1
        else:
            last = bisect_right(starts, max(final.start, final.end - 1)) - 1
        record_id, confidence, exact = self.match(text, reports)
        found = ScanEvent(
            self.path,
            lines[0][0],
            lines[max(0, last)][0],
            final.error_class or "",
            final.message,
            record_id,
            confidence,
            exact,
        )
        self.order += 1
        heapq.heappush(self.ready, (found.start_line, self.order, found))

    def _emit(self) -> Iterator[ScanEvent]:
        """Closed events in the order they start, once no open event starts before them."""
        first_open = min((e.lines[0][0] for e in self.open.values()), default=None)
        while self.ready and (first_open is None or self.ready[0][0] < first_open):
            self.stats.events += 1
            yield heapq.heappop(self.ready)[2]


def _next_trigger(text: str, pos: int, stop: int, nexts: list[int], plain: bool) -> int:
    """Where the next line that may start an event has a trigger word (-1: none before stop).

    ``nexts`` caches each word's next position (-1: no more in the block; less
    than ``pos``: to be searched again). With ``plain`` text, a word must also
    look like the end of a class name, or be the traceback header, where it is.
    """
    while True:
        hit, which = stop, -1
        for number, word in enumerate(_TRIGGERS):
            at = nexts[number]
            if at < pos and at != -1:
                at = text.find(word, pos, stop)
                nexts[number] = at
            if 0 <= at < hit:
                hit, which = at, number
        if which < 0:
            return -1
        if not plain:
            return hit
        if which == 0:
            if text.startswith(_TB_HEADER, hit):
                return hit
        elif _CLASS_HINT_AT_RE.match(text, hit) is not None:
            return hit
        nexts[which] = text.find(_TRIGGERS[which], hit + 1, stop)


def _may_start(raw: str) -> bool:
    """Cheap test that a line may start an event (see :meth:`_Scanner._start`)."""
    return _TB_HEADER in raw or _CLASS_HINT_RE.search(raw) is not None


def _take(event: _Open, number: int, raw: str, content: str, record: str | None) -> bool:
    """Add a line of the event's stream to it; False when the line is not part of it."""
    if len(event.lines) >= _MAX_EVENT_LINES:
        return False
    if not content.strip():
        if len(event.pending) >= _MAX_BLANKS:
            return False
        event.pending.append((number, raw))
        return True
    pending = event.pending
    if event.phase == _TB:
        first = content[0]
        if (
            first in " \t"
            or content.startswith(('File "', "[Previous line repeated"))
            or _TB_HEADER in content
        ):
            _add(event, number, raw)
            return True
        if event.group:
            return False
        _add(event, number, raw)
        event.phase = _MSG
        return True
    if event.phase == _CHAIN:
        if _TB_HEADER in content:
            _add(event, number, raw)
            event.phase = _TB
            return True
        return False
    # _MSG: the exception line was seen; what follows may continue its message.
    if "exception" in content and _CHAIN_RE.search(content):
        _add(event, number, raw)
        event.phase = _CHAIN
        return True
    if (
        pending
        or record is not None
        or _TB_HEADER in content
        or content.lstrip().startswith('File "')
        or event.message_lines >= _MAX_MESSAGE_LINES
        or (not event.from_traceback and _NEW_EXC_RE.match(content) is not None)
    ):
        return False
    event.message_lines += 1
    _add(event, number, raw)
    return True


def _add(event: _Open, number: int, raw: str) -> None:
    if event.pending:
        event.lines.extend(event.pending)
        event.pending.clear()
    event.lines.append((number, raw))


def final_report(reports: Sequence[ExceptionReport], *, group: bool) -> ExceptionReport | None:
    """The exception that ended an event: the last one printed (a group's own exception)."""
    top = [r for r in reports if r.kind in ("traceback", "line", "repr")]
    if group:
        for report in top:
            if (report.error_class or "").endswith("ExceptionGroup"):
                return report
    if top:
        return max(top, key=lambda r: r.start)
    inner = [r for r in reports if r.kind == "embedded"]
    return inner[-1] if inner else None


def scan_chunks(
    chunks: Iterable[str],
    path: str = "<text>",
    *,
    catalog: Catalog | None = None,
    stats: ScanStats | None = None,
) -> Iterator[ScanEvent]:
    r"""Yield the exception events of one log given as text chunks, in the order they start.

    The chunks, put end to end, are the log's text: lines with their ``\n`` (as
    ``for line in f`` gives them) or blocks cut anywhere. ``path`` labels the
    events; each is matched against ``catalog`` (the bundled one by default).
    ``stats``, when given, is updated with what was read.

    >>> text = "INFO ok\nKeyError: 'missing'\nINFO still ok\n"
    >>> [(e.start_line, e.error_class, e.record_id) for e in scan_chunks([text])]
    [(2, 'KeyError', None)]
    """
    counts = stats if stats is not None else ScanStats()
    scanner = _Scanner(path, _Matcher(catalog), counts)
    yield from _drive(scanner, chunks)
    yield from _end(scanner)


def _drive(scanner: _Scanner, chunks: Iterable[str]) -> Iterator[ScanEvent]:
    """Hand the chunks to the scanner in blocks of whole lines (the input's end not included)."""
    counts = scanner.stats
    buffer: list[str] = []
    size = 0
    for chunk in chunks:
        if not isinstance(chunk, str):
            raise TypeError(f"log chunks must be str, got {type(chunk).__name__}")
        if not chunk:
            continue
        buffer.append(chunk)
        size += len(chunk)
        if size < _BLOCK or "\n" not in chunk:
            continue  # (a line longer than a block is joined once, when it ends)
        text = "".join(buffer)
        cut = text.rfind("\n") + 1
        counts.chars += cut
        yield from scanner.block(text, cut)
        rest = text[cut:]
        buffer = [rest] if rest else []
        size = len(rest)
    text = "".join(buffer)
    if text:
        counts.chars += len(text)
        yield from scanner.block(text, len(text))
        scanner.partial = not text.endswith("\n")  # a last line without its line end


def _end(scanner: _Scanner) -> Iterator[ScanEvent]:
    """Close what is open at the end of the input and count its lines."""
    yield from scanner.finish()
    scanner.stats.lines += scanner.newlines + scanner.partial


def scan_text(
    text: str, path: str = "<text>", *, catalog: Catalog | None = None
) -> list[ScanEvent]:
    r"""The exception events of a whole text (:func:`scan_chunks` of one chunk).

    >>> [e.error_class for e in scan_text("ValueError: a\nnoise\nTypeError: b\n")]
    ['ValueError', 'TypeError']
    """
    return list(scan_chunks([text], path, catalog=catalog))


def scan_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    catalog: Catalog | None = None,
    stats: ScanStats | None = None,
    on_error: Callable[[LogSourceError], None] | None = None,
    stdin: IO[bytes] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[ScanEvent]:
    """Yield the events of each log file in turn; an unreadable file does not stop the scan.

    A file that cannot be read (or stops being readable partway) is recorded in
    ``stats.unreadable`` and passed to ``on_error``; the events found before
    the failure are kept. ``progress`` is called with the size of each chunk read.
    """
    counts = stats if stats is not None else ScanStats()
    matcher = _Matcher(catalog)
    for path in paths:
        name = os.fspath(path)
        label = "<stdin>" if name == "-" else name
        counts.files += 1
        chunks = read_log(name, stdin=stdin)
        if progress is not None:
            chunks = _counted(chunks, progress)
        scanner = _Scanner(label, matcher, counts)
        try:
            yield from _drive(scanner, chunks)
        except LogSourceError as exc:
            counts.unreadable.append((exc.path, exc.reason))
            if on_error is not None:
                on_error(exc)
        yield from _end(scanner)


def _counted(chunks: Iterator[str], progress: Callable[[int], None]) -> Iterator[str]:
    for chunk in chunks:
        progress(len(chunk))
        yield chunk
