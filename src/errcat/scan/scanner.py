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
``(Worker_TP1 pid=88)``, ``(VllmWorker rank=0 pid=410)``, ``[rank0]:``, a
compose service), so ranks printing
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
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import IO, TYPE_CHECKING, Any, Final

from errcat.catalog_arg import CatalogArg, as_catalog
from errcat.extract import ExceptionReport, extract_reports

# The extractor's own line cleaning, so that the scanner keys lines by the same
# stream identities the extractor uses when it demultiplexes them.
from errcat.extract.lines import shown as _shown_line
from errcat.extract.lines import strip_prefixes as _strip_prefixes
from errcat.scan.classes import KnownClasses, catalog_classes, is_odd
from errcat.scan.events import LogSourceError, ScanEvent, ScanStats
from errcat.scan.lines import (
    CLASS_HINT_RE,
    MAX_LINE_CHARS,
    MSG,
    TB,
    TB_HEADER,
    TRIGGERS,
    Open,
    final_report,
    may_start,
    next_trigger,
    take,
)
from errcat.scan.logs import read_log

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = ["scan_chunks", "scan_paths", "scan_text"]

_BLOCK: Final = 1 << 20  # characters handed to the fast search at once
_LOOKBACK_LINES: Final = 16  # lines searched back for the stream of an unprefixed line
_LOOKBACK_CHARS: Final = 8192
_QUIET_MSG: Final = 32  # lines of other streams after which a finished event closes
_QUIET_TB: Final = 1000  # ... after which a traceback cut before its exception line closes
_MAX_OPEN: Final = 256  # events open at once (in as many streams): the oldest closes first
_MATCH_CACHE: Final = 4096  # distinct events whose match is remembered
_CLASS_AT_START: Final = re.compile(r"([A-Za-z_][\w.]*)(?::|[ \t]*$)")
_CUT_MARK: Final = " ... "  # where the middle of an overlong line was left out
_HALF_LINE: Final = (MAX_LINE_CHARS - len(_CUT_MARK)) // 2  # kept of each end of such a line


class _Matcher:
    """``match_error`` for event texts, remembering the answer for events seen before."""

    def __init__(self, catalog: Catalog | None) -> None:
        self._catalog = catalog
        self._cache: dict[tuple[Any, ...], tuple[str | None, float, bool]] = {}
        self._classes: frozenset[str] | None = None

    def classes(self) -> frozenset[str]:
        """The odd exception class names of the catalog's records (read once)."""
        if self._classes is None:
            from errcat.catalog import Catalog

            catalog = self._catalog if self._catalog is not None else Catalog.default()
            self._classes = catalog_classes(catalog.parts)
        return self._classes

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
                else (match.summary.id, match.confidence, match.exact)
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
        # The odd class names known in this file: the catalog's, the standard library's,
        # and those its tracebacks end in (learned as the scan goes).
        self.classes = KnownClasses(matcher.classes())
        self.open: dict[tuple[str, ...], Open] = {}
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
        nexts = [-2] * len(TRIGGERS)
        # With ANSI codes about, a class name may be cut from its ": " by one: check whole lines.
        plain = text.find("\x1b", 0, stop) < 0
        odd_lines: list[int] = []
        odd_known = -1  # the number of known names odd_lines was found with
        while pos < stop:
            if not self.open:
                if odd_known != self.classes.size:  # (a traceback taught the scan a name)
                    odd_known = self.classes.size
                    odd_lines = self.classes.lines_in(text, pos, stop)
                hit = next_trigger(text, pos, stop, nexts, plain)
                odd = bisect_left(odd_lines, pos)
                if odd < len(odd_lines) and (hit < 0 or odd_lines[odd] <= hit):
                    hit = odd_lines[odd]
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
                if plain or may_start(_shown_line(raw), self.classes.written):
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
        if len(raw) > MAX_LINE_CHARS:  # a long line within one chunk: cut as _drive cuts
            raw = raw[:_HALF_LINE] + _CUT_MARK + raw[-_HALF_LINE:]
            self.stats.cut_lines += 1
        content, stream, record = _strip_prefixes(_shown_line(raw))
        if stream:
            self.current = stream
        elif lookback is not None:
            self.current = lookback()
        key = self.current
        event = self.open.get(key)
        if event is not None:
            ended = event.exception_line
            if take(event, number, raw, content, record, odd=self.classes.written):
                if ended is None and event.exception_line is not None:
                    self._learn(event.exception_line)  # before the lines that follow it
                event.last_seen = number
                self._expire(number)
                return
            self._close(key)
        if self.open:
            self._expire(number)
        self._start(key, number, raw, content)

    def _start(self, key: tuple[str, ...], number: int, raw: str, content: str) -> None:
        header = content.find(TB_HEADER)
        if header >= 0 and not content[header + len(TB_HEADER) :].strip():
            group = content.endswith("Exception Group " + TB_HEADER)
            self._open(key, Open([(number, raw)], TB, group, True, number, chars=len(raw)))
            return
        if CLASS_HINT_RE.search(content) is None and self.classes.written(content) is None:
            return
        if any(r.kind != "text" for r in extract_reports(content)):
            self._open(key, Open([(number, raw)], MSG, False, False, number, chars=len(raw)))

    def _learn(self, exception_line: str) -> None:
        """Know the class a traceback ended in: its bare lines later in the file are events."""
        m = _CLASS_AT_START.match(exception_line)
        if m is not None and is_odd(m.group(1)):
            self.classes.learn(m.group(1))

    def _open(self, key: tuple[str, ...], event: Open) -> None:
        if len(self.open) >= _MAX_OPEN:  # as many streams at once: the quietest closes first
            self._close(min(self.open, key=lambda k: self.open[k].last_seen))
        self.open[key] = event

    def _expire(self, number: int) -> None:
        for key, event in list(self.open.items()):
            quiet = _QUIET_TB if event.phase == TB else _QUIET_MSG
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


# --------------------------------------------------------------------------
# Public functions.


def scan_chunks(
    chunks: Iterable[str],
    path: str = "<text>",
    *,
    catalog: CatalogArg = None,
    stats: ScanStats | None = None,
) -> Iterator[ScanEvent]:
    r"""Yield the exception events of one log given as text chunks, in the order they start.

    The chunks, put end to end, are the log's text: lines with their ``\n`` (as
    ``for line in f`` gives them) or blocks cut anywhere. ``path`` labels the
    events; each is matched against ``catalog`` (the bundled one by default).
    ``stats``, when given, is updated with what was read. A line longer than
    :data:`~errcat.scan.lines.MAX_LINE_CHARS` is kept to its start (counted in
    ``stats.cut_lines``), so memory stays bounded whatever the input holds.

    When the chunks stop with a :class:`~errcat.scan.LogSourceError` (a
    damaged file read by :func:`~errcat.scan.read_log`), every event read
    before it is yielded, then it is raised (and recorded in ``stats.unreadable``).
    ``catalog`` is a :class:`~errcat.catalog.Catalog`, a path or several paths.

    >>> text = "INFO ok\nKeyError: 'missing'\nINFO still ok\n"
    >>> [(e.start_line, e.error_class, e.record_id) for e in scan_chunks([text])]
    [(2, 'KeyError', None)]
    """
    counts = stats if stats is not None else ScanStats()
    scanner = _Scanner(path, _Matcher(as_catalog(catalog)), counts)
    try:
        yield from _drive(scanner, chunks)
    except LogSourceError as exc:
        counts.unreadable.append((exc.path, exc.reason))
        yield from _end(scanner)  # what was read before the damage
        raise
    yield from _end(scanner)


def _drive(scanner: _Scanner, chunks: Iterable[str]) -> Iterator[ScanEvent]:
    """Hand the chunks to the scanner in blocks of whole lines (the input's end not included).

    A line longer than :data:`MAX_LINE_CHARS` is kept as its start and its end
    (where a class and a message are), the middle read past, never held. When
    the chunks stop with a :class:`LogSourceError` (damaged compression), the
    text read before it is scanned, then it is raised.
    """
    counts = scanner.stats
    buffer: list[str] = []
    size = 0
    line = 0  # characters of the unfinished line at the end of the buffer
    tail: str | None = None  # past the kept start of an overlong line: its last characters
    failure: LogSourceError | None = None
    iterator = iter(chunks)
    while True:
        try:
            chunk = next(iterator)
        except StopIteration:
            break
        except LogSourceError as exc:
            failure = exc
            break
        if not isinstance(chunk, str):
            raise TypeError(f"log chunks must be str, got {type(chunk).__name__}")
        first = chunk.find("\n")
        if tail is None and first < 0 and line + len(chunk) > MAX_LINE_CHARS:
            # The unfinished line outgrows the bound: keep its start, follow its end.
            text = "".join(buffer) + chunk
            done, current = text[: len(text) - line - len(chunk)], text[-line - len(chunk) :]
            buffer, tail = [done + current[:_HALF_LINE]], current[-_HALF_LINE:]
            size, line = len(buffer[0]), _HALF_LINE
            counts.cut_lines += 1
            continue
        if tail is not None:
            if first < 0:
                tail = (tail + chunk)[-_HALF_LINE:]
                continue
            chunk = _CUT_MARK + (tail + chunk[:first])[-_HALF_LINE:] + chunk[first:]
            tail = None
        if not chunk:
            continue
        buffer.append(chunk)
        size += len(chunk)
        newline = chunk.rfind("\n")
        line = line + len(chunk) if newline < 0 else len(chunk) - newline - 1
        if size < _BLOCK or newline < 0:
            continue
        text = "".join(buffer)
        cut = text.rfind("\n") + 1
        counts.chars += cut
        yield from scanner.block(text, cut)
        rest = text[cut:]
        buffer = [rest] if rest else []
        size = len(rest)
    if tail is not None:  # the input ended inside an overlong line
        buffer.append(_CUT_MARK + tail)
    text = "".join(buffer)
    if text:
        counts.chars += len(text)
        yield from scanner.block(text, len(text))
        scanner.partial = not text.endswith("\n")  # a last line without its line end
    if failure is not None:
        raise failure


def _end(scanner: _Scanner) -> Iterator[ScanEvent]:
    """Close what is open at the end of the input and count its lines."""
    yield from scanner.finish()
    scanner.stats.lines += scanner.newlines + scanner.partial


def scan_text(text: str, path: str = "<text>", *, catalog: CatalogArg = None) -> list[ScanEvent]:
    r"""The exception events of a whole text (:func:`scan_chunks` of one chunk).

    >>> [e.error_class for e in scan_text("ValueError: a\nnoise\nTypeError: b\n")]
    ['ValueError', 'TypeError']
    """
    return list(scan_chunks([text], path, catalog=catalog))


def scan_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    catalog: CatalogArg = None,
    stats: ScanStats | None = None,
    on_error: Callable[[LogSourceError], None] | None = None,
    stdin: IO[bytes] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[ScanEvent]:
    """Yield the events of each log file in turn; an unreadable file does not stop the scan.

    A file that cannot be read, or stops being readable partway (damaged or cut
    short compression), is recorded in ``stats.unreadable`` with the reason and
    passed to ``on_error``; everything read before the damage is scanned and
    its events kept. ``progress`` is called with the size of each chunk read.
    """
    counts = stats if stats is not None else ScanStats()
    matcher = _Matcher(as_catalog(catalog))
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
