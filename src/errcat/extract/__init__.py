r"""Find the Python exceptions in raw pasted error text.

Users paste tracebacks, server logs, CI output and chat messages. This module
turns such text into :class:`ExceptionReport` values (class, message, frames,
position), the input of the matcher. Everything here is a pure function of the
text: no I/O and no state kept between calls.

The pipeline:

1. **Clean lines.** The text is split into lines, each remembering where it
   came from in the original text. On each line, ``\r`` progress output is
   resolved (what a terminal would show), ANSI escapes and control characters
   are removed, Kubernetes/docker JSON lines are decoded, and log prefixes are
   stripped repeatedly (timestamps, levels, ``[rank0]:``, ``(Worker pid=1)``,
   ``vllm-1  |``, pytest's ``E`` gutter, Markdown quotes). A prefix may carry a
   *stream identity* (rank, pid, TP rank, container) and/or start a new *log
   record*; both are remembered. Exception-group gutters are removed and
   Markdown fences become boundaries.
2. **Demultiplex streams.** Lines are grouped by stream identity (a line
   without one belongs to the stream of the line before it), so that ranks
   printing the same traceback line by line are parsed one at a time.
3. **Find tracebacks and exception lines.** Each stream is scanned for
   ``Traceback (most recent call last):`` headers (whose frames are collected
   up to the exception line), bare ``Class: message`` lines, reprs such as
   ``ValueError('x')``, pydantic ``Value error, ...`` lines and HTTP error
   bodies.
4. **Build reports.** A message continues over the following lines until a
   blank line, a chain phrase, a new traceback, a frame, a new exception line
   or a new log record. The paragraphs after that blank line, up to one of
   the others, are kept apart as the report's ``tail``: tips that belong to
   the message, or unrelated text (the matcher tries both).
5. **Find embedded reports.** The message of every report is scanned again
   for exceptions inside it (``RuntimeError: failed: ValueError: bad x``, a
   repr or a JSON body whose decoded text holds a whole traceback, ...).
6. **Dedupe.** Reports are ordered as they appear in the text and identical
   ones (same class, message and frames) are kept once.

>>> reports = extract_reports(
...     "[rank0]: Traceback (most recent call last):\n"
...     '[rank0]:   File "train.py", line 3, in <module>\n'
...     "[rank0]: ValueError: bad x\n"
... )
>>> [(r.kind, r.error_class, r.message, r.frames[0].line) for r in reports]
[('traceback', 'ValueError', 'bad x', 3)]
"""

from __future__ import annotations

import builtins
import json
import re
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Final, overload

from errcat.extract.boxes import (
    _IPYTHON_HINT,
    _PYTEST_SUMMARY_RE,
    _RICH_TOP,
    _pytest_marks,
    _unbox_ipython,
    _unbox_pytest,
    _unbox_rich,
)
from errcat.extract.grammar import (
    _BARE_RE,
    _CARET_RE,
    _CHAIN_RE,
    _CLASS_MSG_RE,
    _CODE_BEFORE_RE,
    _EXC_LINE_RE,
    _EXC_START_RE,
    _FRAME_RE,
    _GROUP_WORDS,
    _HINT_RE,
    _MAX_EMBED_DEPTH,
    _MAX_EMBEDDED,
    _MAX_HITS_PER_LINE,
    _MAX_JSON_STARTS,
    _MAX_LITERAL,
    _MAX_MESSAGE_CHARS,
    _MAX_MESSAGE_LINES,
    _MAX_MULTILINE_JSON,
    _MAX_REPR_SCAN,
    _MAX_TAIL_BLANKS,
    _MAX_TAIL_CHARS,
    _MAX_TAIL_PARAGRAPHS,
    _MAX_TB_BLANKS,
    _REPEATED_RE,
    _REPR_RE,
    _RULE_RE,
    _TB_HEADER,
    _TYPE_NAME_RE,
    _indent,
    _looks_like_exception,
)
from errcat.extract.lines import _clean_lines, _Line, clean_text
from errcat.extract.literals import _DQ_RE, _FAIL, _QUOTE_PAIRS, _SQ_RE, _parse_literal
from errcat.extract.reports import ExceptionReport, Frame, ReportKind, _Found

__all__ = ["ExceptionReport", "Frame", "ReportKind", "clean_text", "extract_reports"]

# --------------------------------------------------------------------------
# Other report forms.

# Pydantic v2 validation lines: "  Value error, msg [type=value_error, ...]".
_PYDANTIC_RE: Final = re.compile(r"[ \t]*(?P<kind>Value error|Assertion failed), (?P<rest>.*)")
# The exception class behind each pydantic wording, and the tail that ends the message.
_PYDANTIC_CLASSES: Final = {"Value error": "ValueError", "Assertion failed": "AssertionError"}
_PYDANTIC_TAIL: Final = " [type="
# Brackets and quotes, the tokens that matter when looking for a repr's ")".
_CALL_TOKEN_RE: Final = re.compile(r"['\"()\[\]{}]")


@dataclass(slots=True)
class _Hit:
    """An exception found inside one line."""

    start: int  # where the report begins in the line
    end: int  # where its message ends in the line
    error_class: str | None  # None for an HTTP body that names no exception class
    message: str
    kind: ReportKind
    decoded: bool  # the message is new text (from JSON or a literal), not a slice
    open_ended: bool  # the message runs to the end of the line
    closer: str | None = None  # an unmatched closing quote to look for on later lines


def extract_reports(text: str) -> list[ExceptionReport]:
    """Return the exceptions found in raw text, in the order they appear.

    A chain comes root cause first, as Python prints it; identical reports
    (same class, message and frames) are returned once. Text without any
    exception line gives one report of kind ``"text"`` (carrying the frames of
    a truncated traceback, if any); empty text gives ``[]``.

    >>> for r in extract_reports("RuntimeError: Subprocess failed: ValueError: bad x"):
    ...     print(r.kind, r.error_class, repr(r.message))
    line RuntimeError 'Subprocess failed: ValueError: bad x'
    embedded ValueError 'bad x'
    >>> extract_reports("no error here")[0].kind
    'text'
    """
    if not text or text.isspace():
        return []
    fast = _plain_traceback(text)
    if fast is not None:
        return fast
    return _extract(text)


# A plain traceback as Python prints it, alone: header, frames (with source and
# marker lines indented by four), one exception line, nothing before or after.
_PLAIN_TB_RE: Final = re.compile(
    r"Traceback \(most recent call last\):\n"
    r"(?P<frames>(?:  File \"[^\"\n]+\", line \d+, in [^\n]+\n(?:    [^\n]*\n)*)+)"
    r"(?P<cls>[A-Za-z_][\w.]*)(?:: (?P<msg>[^\n]*))?\n?"
)
_PLAIN_FRAME_RE: Final = re.compile(
    r'  File "([^"\n]+)", line (\d+), in ([^\n]+)(?:\n    ([^\n]*))?'
)
# Anything that needs the full parser: escapes, carriage returns, other control
# characters, tabs, and messages that may hold another exception, a repr or a body.
_NOT_PLAIN_RE: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]|\[type=|\{|Traceback")
_NOT_PLAIN_FRAMES_RE: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]|Traceback")


def _plain_traceback(text: str) -> list[ExceptionReport] | None:
    """The report of a plain traceback, or None when the text needs the full parser.

    Most pastes are one traceback exactly as Python printed it; reading it with
    two regexes instead of line by line makes matching one several times faster.
    The result is the one :func:`_extract` gives (a property test checks it).
    """
    match = _PLAIN_TB_RE.fullmatch(text)
    if match is None:
        return None
    message = match.group("msg") or ""
    if _NOT_PLAIN_RE.search(message) or _NOT_PLAIN_FRAMES_RE.search(match.group("frames")):
        return None
    if _CLASS_MSG_RE.search(message) or _REPR_RE.search(message) or "Value error," in message:
        return None
    if message != message.strip() or not message.isprintable():
        return None
    frames = tuple(
        Frame(path, int(line), function.strip(), source.strip())
        for path, line, function, source in _PLAIN_FRAME_RE.findall(match.group("frames"))
    )
    start = match.start("cls")
    end = len(text.rstrip("\n"))
    return [ExceptionReport(match.group("cls"), message, frames, start, end, "traceback")]


def _extract(text: str) -> list[ExceptionReport]:
    """The full parser behind :func:`extract_reports` (see the module docstring)."""
    lines = _clean_lines(text)
    if _RICH_TOP in text:
        lines = _unbox_rich(lines)
    if _IPYTHON_HINT in text:
        lines = _unbox_ipython(lines)
    if ".py:" in text and "\nE " in text:
        lines = _unbox_pytest(lines, _pytest_marks(text))
    found: list[_Found] = []
    orphan_frames: tuple[Frame, ...] = ()
    for stream in _demux(lines):
        stream_found, frames = _scan_top(stream)
        found.extend(stream_found)
        if frames:
            orphan_frames = frames
    found.sort(key=lambda f: f.report.start)
    reports: list[ExceptionReport] = []
    seen: set[tuple[str | None, str, tuple[Frame, ...]]] = set()
    for item in found:
        for report in (item.report, *_embedded(item)):
            key = (report.error_class, report.message, report.frames)
            if key not in seen and not _repeats_cut(report, reports):
                seen.add(key)
                reports.append(report)
    if reports:
        return reports
    message = "\n".join(line.text for line in lines if not line.boundary).strip()
    if not message:
        return []
    return [ExceptionReport(None, message, orphan_frames, 0, len(text), "text")]


def _repeats_cut(report: ExceptionReport, earlier: Sequence[ExceptionReport]) -> bool:
    """Whether a frameless report repeats an earlier one cut off (``... is not valid ...``).

    Summaries do that: pytest's ``FAILED test.py::t - ValueError: <message cut>...``
    after the failure report itself. The repeat would stand as the text's last
    exception without the frames the first one had.
    """
    if report.frames or not report.message.endswith(("...", "\u2026")):
        return False
    stem = " ".join(report.message.rstrip(".\u2026").split())
    return len(stem) >= 12 and any(
        r.error_class == report.error_class and " ".join(r.message.split()).startswith(stem)
        for r in earlier
    )


# --------------------------------------------------------------------------
# Step 2: demultiplex streams.


def _demux(lines: Sequence[_Line]) -> list[list[_Line]]:
    """Group lines by stream identity; lines without one follow the previous line.

    A line that carries only the outer part of an identity (a container name,
    when the record started with the container and a pid) joins the latest
    stream that had that outer part.
    """
    streams: dict[tuple[str, ...], list[_Line]] = {}
    latest: dict[tuple[str, ...], tuple[str, ...]] = {}
    current: tuple[str, ...] = ()
    for line in lines:
        if line.stream:
            current = latest.get(line.stream, line.stream)
            for size in range(1, len(current) + 1):
                latest[current[:size]] = current
        streams.setdefault(current, []).append(line)
    return list(streams.values())


# --------------------------------------------------------------------------
# Step 3 and 4: find exceptions and build reports.


def _scan_top(lines: Sequence[_Line]) -> tuple[list[_Found], tuple[Frame, ...]]:
    """Find the reports of one stream; also return the frames of a truncated traceback."""
    found: list[_Found] = []
    orphan: tuple[Frame, ...] = ()
    index = 0
    count = len(lines)
    while index < count:
        line = lines[index]
        text = line.text
        indent = len(text) - len(text.lstrip(" \t"))
        if line.boundary or indent == len(text):
            index += 1
            continue
        if text[indent] == "{" and text.strip() == "{":
            body = _multiline_json(lines, index)
            if body is not None:
                found.extend(body[0])
                index = body[1] + 1
                continue
        header = _header_start(text) if _TB_HEADER in text else None
        is_frame = text.startswith('File "', indent) and _FRAME_RE.match(text, indent) is not None
        if header is not None or is_frame:
            view: Sequence[_Line] = lines
            offset = 0  # view[i] is lines[i + offset]
            if header is None:
                # Frames without a header (Ray prints them inside a message, py_compile alone).
                head, first, header_indent = index, index, max(0, indent - 1)
            else:
                before = text[:header]
                if (
                    before.strip()
                    and index + 1 < count
                    and lines[index + 1].text.startswith(before)
                ):
                    # An unknown prefix repeated on every line ("app | 12:00 | "): parse without it.
                    view, offset = _LeadView(lines, index, before), index
                else:
                    hits = _line_hits(before)
                    found.extend(_take_hits(lines, index, hits, top=True, follow=False)[0])
                head = index - offset
                first, header_indent = head + 1, _indent(view[head].text)
            report, frames, resume = _traceback_at(view, head, first, header_indent)
            if report is None:
                orphan = frames or orphan
            else:
                found.append(report)
            index = max(resume + offset, index + 1)
            continue
        match = _EXC_START_RE.match(text, indent)
        if match is not None and _looks_like_exception(match.group("cls")):
            # Fast path for the common "Class: msg" line: the first hit, open-ended.
            more, last, end = _continue_message(lines, index, None)
            message = text[match.end() : match.end() + _MAX_MESSAGE_CHARS]
            if more:
                message = "\n".join([message, *more])
            start = _offset(line, indent)
            tail = _message_tail(lines, last, line.record)
            line_report = ExceptionReport(match.group("cls"), message, (), start, end, "line", tail)
            found.append(_Found(line_report, False))
            index = last + 1
            continue
        taken, last = _take_hits(lines, index, _line_hits(text), top=True, follow=True)
        found.extend(taken)
        index = last + 1
    return found, orphan


def _traceback_at(
    lines: Sequence[_Line], header: int, first: int, header_indent: int
) -> tuple[_Found | None, tuple[Frame, ...], int]:
    """Parse the traceback that starts at ``lines[header]``, its frames at ``lines[first]``.

    Returns its report (None when the paste stops before the exception line),
    its frames and the index of the line after it.
    """
    frames, exc_index, next_index = _parse_traceback(lines, first, header_indent)
    if exc_index < 0:
        return None, frames, next_index
    report, last = _traceback_report(lines, header, exc_index, frames, "traceback")
    return _Found(report, False), frames, last + 1


class _LeadView(Sequence[_Line]):
    """The lines from ``start`` on, without a lead text that each of them repeats.

    A line that does not start with the lead reads as a boundary, which ends
    any traceback or message.
    """

    def __init__(self, lines: Sequence[_Line], start: int, lead: str) -> None:
        self._lines = lines
        self._start = start
        self._lead = lead

    def __len__(self) -> int:
        return len(self._lines) - self._start

    @overload
    def __getitem__(self, index: int) -> _Line: ...

    @overload
    def __getitem__(self, index: slice) -> list[_Line]: ...

    def __getitem__(self, index: int | slice) -> _Line | list[_Line]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        line = self._lines[self._start + index]
        if not line.text.startswith(self._lead):
            return _Line("", line.start, line.end, None, line.stream, line.record, True)
        size = len(self._lead)
        base = None if line.base is None else line.base + size
        return _Line(line.text[size:], line.start, line.end, base, line.stream, line.record)


def _may_hold_report(text: str) -> bool:
    """Cheap test that a text may contain any report form at all."""
    return (
        _HINT_RE.search(text) is not None
        or "{" in text
        or _TB_HEADER in text
        or "Value error, " in text
        or "Assertion failed, " in text
    )


def _header_start(text: str) -> int | None:
    """Where the traceback header of a line starts, if the line ends with one."""
    pos = text.rfind(_TB_HEADER)
    if pos < 0 or text[pos + len(_TB_HEADER) :].strip():
        return None
    if text.endswith(_GROUP_WORDS, 0, pos):
        pos -= len(_GROUP_WORDS)
    return pos


def _parse_traceback(
    lines: Sequence[_Line], first: int, header_indent: int
) -> tuple[tuple[Frame, ...], int, int]:
    """Collect frames from line ``first`` on; return them and the exception line and next indexes.

    The exception line index is -1 when the traceback has no exception line
    (a truncated paste). Frames indented deeper than the header mean that any
    deeper line is a source or marker line; with indentation lost, one source
    line (plus markers) is allowed after each frame.
    """
    frames: list[Frame] = []
    structured: bool | None = None
    after_frame = 0
    blanks = 0
    index = first
    while index < len(lines):
        line = lines[index]
        if line.boundary:
            break
        text = line.text
        stripped = text.lstrip(" \t")
        if not stripped.strip():
            blanks += 1
            if blanks > _MAX_TB_BLANKS:
                break
            index += 1
            continue
        frame_match = _frame_match(text, stripped)
        if frame_match is not None:
            frames.append(
                Frame(
                    frame_match.group("path"),
                    int(frame_match.group("line")),
                    (frame_match.group("func") or "").strip(),
                )
            )
            if structured is None:
                structured = _indent(text) > header_indent
            after_frame = 0
            blanks = 0
            index += 1
            continue
        if _REPEATED_RE.search(stripped):
            index += 1
            continue
        if frames:
            if structured:
                if _indent(text) > header_indent:
                    frames[-1] = _with_source(frames[-1], stripped)
                    index += 1
                    continue
            elif _CARET_RE.fullmatch(text):
                index += 1
                continue
            elif after_frame == 0 and not _flat_exception_line(stripped):
                frames[-1] = _with_source(frames[-1], stripped)
                after_frame = 1
                index += 1
                continue
        if _exception_line(line, any_name=True) is not None:
            return tuple(frames), index, index + 1
        break
    return tuple(frames), -1, index


def _with_source(frame: Frame, stripped: str) -> Frame:
    """The frame with its first source line (markers such as ``^^^`` are not source)."""
    code = stripped.strip()
    if frame.source or not code or _CARET_RE.fullmatch(stripped):
        return frame
    return replace(frame, source=code)


def _frame_match(text: str, stripped: str) -> re.Match[str] | None:
    """A frame line, also behind an unknown prefix (but not inside an exception message)."""
    match = _FRAME_RE.match(stripped)
    if match is None and 'File "' in text and _EXC_START_RE.match(stripped) is None:
        match = _FRAME_RE.search(text)
    return match


def _flat_exception_line(stripped: str) -> bool:
    """Whether a line right after a frame is an exception line rather than source code."""
    match = _EXC_LINE_RE.fullmatch(stripped)
    if match is None:
        return False
    name = match.group("cls")
    if match.group("msg") is not None:
        return _looks_like_exception(name) or "." in name
    return _looks_like_exception(name)


def _exception_line(line: _Line, *, any_name: bool) -> tuple[str, str, int, bool] | None:
    """Parse a line as an exception line: class, first message line, position, whole-line flag."""
    text = line.text
    indent = _indent(text)
    match = _EXC_LINE_RE.fullmatch(text, indent)
    if match is not None and (any_name or _looks_like_exception(match.group("cls"))):
        return match.group("cls"), match.group("msg") or "", indent, True
    for hit in _line_hits(text):
        if hit.kind == "line" and not hit.decoded and hit.error_class is not None:
            return hit.error_class, hit.message, hit.start, False
    return None


def _traceback_report(
    lines: Sequence[_Line],
    header: int,
    exc_index: int,
    frames: tuple[Frame, ...],
    kind: ReportKind,
) -> tuple[ExceptionReport, int]:
    """Build the report of a traceback's exception line and its continuation lines.

    ``header`` is the traceback's first line: when it carries the same log
    record prefix as the exception line, the logger prefixed every line.
    """
    line = lines[exc_index]
    every_line = line.record is not None and lines[header].record == line.record
    parsed = _exception_line(line, any_name=True)
    assert parsed is not None  # _parse_traceback checked it
    error_class, first, pos, whole = parsed
    parts = [first]
    last, end = exc_index, line.end
    tail = ""
    if whole:
        more, last, end = _continue_message(
            lines, exc_index, None, every_line=every_line, verbatim=True
        )
        parts.extend(more)
        tail = _message_tail(lines, last, line.record, every_line=every_line)
    message = "\n".join(parts)
    report = ExceptionReport(error_class, message, frames, _offset(line, pos), end, kind, tail)
    return report, last


def _offset(line: _Line, pos: int) -> int:
    """Original offset of a position in a cleaned line (the line start when unknown)."""
    if line.base is None:
        return line.start
    return min(line.base + pos, line.end)


def _end_offset(line: _Line, pos: int) -> int:
    """Original offset of a position where a message ends (the line end when unknown)."""
    if line.base is None:
        return line.end
    return min(line.base + pos, line.end)


def _ends_message(line: _Line, record: str | None, *, every_line: bool, verbatim: bool) -> bool:
    """Whether a line cannot continue a message that started in a given log record.

    A line from another log record ends the message; with ``every_line`` (the
    logger prefixed every line of the record) so does a line without a prefix.
    A line starting with a new exception ends it too, unless ``verbatim`` (the
    message closes a traceback, where Python prints every message line as is).
    """
    if line.boundary:
        return True
    text = line.text
    stripped = text.strip()
    if not stripped:
        return True
    if line.record != record and (every_line or line.record is not None):
        return True
    if "exception" in text and _CHAIN_RE.search(text):
        return True
    if _TB_HEADER in text:
        return True
    if stripped.startswith('File "') and _FRAME_RE.match(stripped):
        return True
    first = text[0]
    if first in "=-_*" and _RULE_RE.match(text):
        return True
    if (first.isdigit() or first in "FEPSX") and _PYTEST_SUMMARY_RE.fullmatch(stripped):
        return True
    if not verbatim and (first.isalpha() or first == "_"):
        match = _EXC_START_RE.match(text) or _BARE_RE.fullmatch(text)
        if match is not None and _looks_like_exception(match.group("cls")):
            return True
    return False


def _continue_message(
    lines: Sequence[_Line],
    index: int,
    closer: str | None,
    *,
    every_line: bool = False,
    verbatim: bool = False,
) -> tuple[list[str], int, int]:
    """The lines continuing the message that starts on ``lines[index]``.

    Returns the continuation texts, the index of the last line used and the
    original offset where the message ends. With a ``closer`` the message ends
    at the first line that holds it (cut before it). ``every_line`` and
    ``verbatim`` are passed to :func:`_ends_message`.
    """
    start_line = lines[index]
    record = start_line.record
    parts: list[str] = []
    size = 0
    last, end = index, start_line.end
    for next_index in range(index + 1, min(len(lines), index + 1 + _MAX_MESSAGE_LINES)):
        line = lines[next_index]
        if _ends_message(line, record, every_line=every_line, verbatim=verbatim):
            break
        text = line.text
        if closer is not None:
            cut = text.find(closer)
            if cut >= 0:
                parts.append(text[:cut])
                return parts, next_index, _end_offset(line, cut)
        size += len(text) + 1
        if size > _MAX_MESSAGE_CHARS:
            break
        parts.append(text)
        last, end = next_index, line.end
    return parts, last, end


def _message_tail(
    lines: Sequence[_Line], last: int, record: str | None, *, every_line: bool = False
) -> str:
    r"""The paragraphs after the blank line that ended a message on ``lines[last]``.

    They run until a line that :func:`_ends_message` rejects (read as a log
    line, not verbatim: a new exception line ends them), more than
    :data:`_MAX_TAIL_BLANKS` blank lines in a row, or
    :data:`_MAX_TAIL_PARAGRAPHS` paragraphs or :data:`_MAX_TAIL_CHARS`
    characters; blank lines between them are kept.
    Empty when the line after the message is not blank.

    >>> lines = _clean_lines("ValueError: bad\n\nTry this.\n\nOr that.\nKeyError: 'k'")
    >>> _message_tail(lines, 0, None)
    'Try this.\n\nOr that.'
    """
    parts: list[str] = []
    kept = 0  # parts up to the last non-blank line
    blanks = 0
    paragraphs = 0
    size = 0
    end = min(len(lines), last + 1 + _MAX_MESSAGE_LINES)
    for index in range(last + 1, end):
        line = lines[index]
        if line.boundary:
            break
        if not line.text.strip():
            blanks += 1
            if blanks > _MAX_TAIL_BLANKS:
                break
            parts.append("")
            continue
        if not parts:
            break  # the message did not end at a blank line
        if _ends_message(line, record, every_line=every_line, verbatim=False):
            break
        if blanks:
            paragraphs += 1
            if paragraphs > _MAX_TAIL_PARAGRAPHS:
                break
        blanks = 0
        size += len(line.text) + 1
        if size > _MAX_TAIL_CHARS:
            break
        parts.append(line.text)
        kept = len(parts)
    return "\n".join(parts[:kept]).strip("\n")


def _take_hits(
    lines: Sequence[_Line], index: int, hits: list[_Hit], *, top: bool, follow: bool
) -> tuple[list[_Found], int]:
    """Turn the hits of ``lines[index]`` into reports; return them and the last line used.

    At top level, hits are taken left to right until one whose message runs to
    the end of the line (later hits are inside its message and are found as
    embedded reports); elsewhere all hits are taken. With ``follow``, an
    open-ended message may continue on the following lines.
    """
    line = lines[index]
    found: list[_Found] = []
    last = index
    taken_until = 0
    for hit in hits:
        if top and hit.start < taken_until:
            continue
        message, end = hit.message, _end_offset(line, hit.end)
        continues = hit.closer is not None or (
            hit.kind == "line" and not hit.decoded and hit.start == _indent(line.text)
        )
        tail = ""
        if follow and hit.open_ended and continues:
            more, hit_last, end = _continue_message(lines, index, hit.closer)
            if more:
                message = "\n".join([message, *more])
                last = max(last, hit_last)
            if hit.closer is None:
                tail = _message_tail(lines, hit_last, line.record)
        kind: ReportKind = hit.kind if top else "embedded"
        start = _offset(line, hit.start)
        report = ExceptionReport(hit.error_class, message, (), start, end, kind, tail)
        found.append(_Found(report, hit.decoded))
        if top and hit.open_ended:
            break
        taken_until = hit.end
    return found, last


# --------------------------------------------------------------------------
# Inline forms: "Class: msg", reprs, pydantic lines, HTTP error bodies.


def _line_hits(text: str) -> list[_Hit]:
    """Every exception form found inside one line, left to right."""
    if len(text) < 4:
        return []
    hits: list[_Hit] = []
    if "{" in text and (
        (("message" in text or "msg" in text) and "type" in text) or "detail" in text
    ):
        hits.extend(_json_hits(text))
    if _HINT_RE.search(text) is not None:
        spans = [(hit.start, hit.end) for hit in hits]
        if "(" in text:
            for hit in _repr_hits(text, spans):
                hits.append(hit)
                if not hit.open_ended:
                    spans.append((hit.start, hit.end))
        if ": " in text:
            hits.extend(_class_msg_hits(text, spans))
    if "Value error, " in text or "Assertion failed, " in text:
        pydantic = _pydantic_hit(text)
        if pydantic is not None:
            hits.append(pydantic)
    hits.sort(key=lambda hit: hit.start)
    if len(hits) > _MAX_HITS_PER_LINE:
        half = _MAX_HITS_PER_LINE // 2
        hits = hits[:half] + hits[-half:]
    return hits


def _inside(pos: int, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether a position falls inside one of the spans."""
    return any(start <= pos < end for start, end in spans)


def _is_code(text: str, start: int) -> bool:
    """Whether the class name at ``start`` follows ``raise``/``except``/... (source code)."""
    return _CODE_BEFORE_RE.search(text, max(0, start - 12), start) is not None


def _exception_matches(
    pattern: re.Pattern[str], text: str, spans: Sequence[tuple[int, int]]
) -> list[re.Match[str]]:
    """Matches of a class-name pattern that look like exceptions, not code; first and last few."""
    half = _MAX_HITS_PER_LINE // 2
    head: list[re.Match[str]] = []
    tail: deque[re.Match[str]] | None = None
    for match in pattern.finditer(text):
        start = match.start()
        if (
            not _looks_like_exception(match.group("cls"))
            or (spans and _inside(start, spans))
            or _is_code(text, start)
        ):
            continue
        if len(head) < half:
            head.append(match)
        else:
            if tail is None:
                tail = deque(maxlen=half)
            tail.append(match)
    return head if tail is None else head + list(tail)


def _class_msg_hits(text: str, spans: Sequence[tuple[int, int]]) -> Iterator[_Hit]:
    """``Class: msg`` occurrences; a quoted one ends at its closing quote."""
    indent = _indent(text)
    bare = _EXC_LINE_RE.fullmatch(text, indent)
    if bare is not None and bare.group("msg") is None and _looks_like_exception(bare.group("cls")):
        yield _Hit(indent, len(text), bare.group("cls"), "", "line", False, False)
        return
    for match in _exception_matches(_CLASS_MSG_RE, text, spans):
        start = match.start()
        name = match.group("cls")
        closer = _closer_for(text, start)
        msg_start = match.end()
        close = -1 if closer is None else _find_closer(text, msg_start, closer)
        if close < 0:
            message = text[msg_start : msg_start + _MAX_MESSAGE_CHARS]
            yield _Hit(start, len(text), name, message, "line", False, True, closer)
        else:
            yield _Hit(start, close, name, text[msg_start:close], "line", False, False)


def _closer_for(text: str, start: int) -> str | None:
    """The closing delimiter matching a quote or backticks right before ``start``."""
    if start == 0:
        return None
    char = text[start - 1]
    if char == "`":
        run = start - len(text[:start].rstrip("`"))
        return "`" * run
    return _QUOTE_PAIRS.get(char)


def _find_closer(text: str, start: int, closer: str) -> int:
    """Where a quoted message ends: the next backtick run, else the last fitting quote."""
    if closer.startswith("`"):
        return text.find(closer, start)
    if closer not in "'\"":
        return text.rfind(closer, start)
    # The last quote not followed by a letter (so "it's" does not close 'ValueError: x').
    end = len(text)
    for _ in range(50):
        pos = text.rfind(closer, start, end)
        if pos < 0 or pos + 1 >= len(text) or not (text[pos + 1].isalnum() or text[pos + 1] == "_"):
            return pos
        end = pos
    return -1


def _pydantic_hit(text: str) -> _Hit | None:
    """A pydantic v2 ``Value error, ...`` / ``Assertion failed, ...`` line."""
    match = _PYDANTIC_RE.fullmatch(text)
    if match is None:
        return None
    error_class = _PYDANTIC_CLASSES[match.group("kind")]
    rest_start = match.start("rest")
    start = match.start("kind")
    tail = text.rfind(_PYDANTIC_TAIL, rest_start)
    if tail < 0:
        rest = text[rest_start:]
        return _Hit(start, len(text), error_class, rest, "line", False, True, _PYDANTIC_TAIL)
    return _Hit(start, tail, error_class, text[rest_start:tail], "line", False, False)


def _repr_hits(text: str, spans: Sequence[tuple[int, int]]) -> Iterator[_Hit]:
    """Exception reprs such as ``RuntimeError('message')`` or ``ValueError("a", 3)``."""
    for match in _exception_matches(_REPR_RE, text, spans):
        start = match.start()
        name = match.group("cls")
        open_pos = match.end() - 1
        close = _find_call_end(text, open_pos)
        if close is None:
            rest = text[open_pos + 1 :].lstrip()
            if rest[:1] in ("'", '"'):
                cut = rest[1 : 1 + _MAX_MESSAGE_CHARS]
                yield _Hit(start, len(text), name, cut, "repr", False, True)
            continue
        args = _parse_args(text[open_pos + 1 : close])
        if args is None:
            continue
        message = _repr_message(name, args)
        if message is not None:
            yield _Hit(start, close + 1, name, message, "repr", True, False)


def _find_call_end(text: str, open_pos: int) -> int | None:
    """Index of the ``)`` closing the parenthesis at ``open_pos``, skipping string literals."""
    depth = 0
    pos = open_pos
    limit = min(len(text), open_pos + _MAX_REPR_SCAN)
    while pos < limit:
        match = _CALL_TOKEN_RE.search(text, pos, limit)
        if match is None:
            return None
        char = match.group()
        if char in "'\"":
            string = (_SQ_RE if char == "'" else _DQ_RE).match(text, match.start(), limit)
            if string is None:
                return None
            pos = string.end()
            continue
        depth += 1 if char in "([{" else -1
        if depth == 0:
            return match.start() if char == ")" else None
        pos = match.end()
    return None


def _parse_args(inner: str) -> tuple[object, ...] | None:
    """The arguments of a repr as a tuple, or None when they are not literals."""
    if not inner.strip():
        return ()
    for source in (f"({inner},)", f"({inner})"):
        value = _parse_literal(source)
        if isinstance(value, tuple):
            return value
    return None


def _repr_message(name: str, args: tuple[object, ...]) -> str | None:
    """What ``str(exc)`` prints for an exception built with these arguments."""
    last = name.rsplit(".", 1)[-1]
    try:
        if not args:
            return ""
        if len(args) == 1:
            return repr(args[0]) if last == "KeyError" else str(args[0])
        builtin = getattr(builtins, last, None)
        if (
            isinstance(builtin, type)
            and issubclass(builtin, OSError)
            and len(args) in (2, 3)
            and isinstance(args[0], int)
            and isinstance(args[1], str)
        ):
            text = f"[Errno {args[0]}] {args[1]}"
            return f"{text}: {args[2]!r}" if len(args) == 3 else text
        return repr(args)
    except Exception:  # str()/repr() of odd literals (huge ints) may fail
        return None


def _json_hits(text: str) -> list[_Hit]:
    """HTTP error bodies (JSON or a Python dict) with "message" and "type" in a line."""
    last = text.rfind("}")
    tries = 0
    start = text.find("{")
    while 0 <= start < last and tries < _MAX_JSON_STARTS:
        tries += 1
        value = _parse_object(text[start : last + 1])
        if value is not _FAIL:
            return [
                _Hit(start, last + 1, error_class, message, "line", True, False)
                for error_class, message in _error_bodies(value, 0)
            ]
        start = text.find("{", start + 1)
    return []


def _parse_object(source: str) -> object:
    """JSON or a Python literal; ``_FAIL`` when neither."""
    if len(source) > _MAX_LITERAL:
        return _FAIL
    try:
        return json.loads(source)
    except (ValueError, RecursionError):
        pass
    if "\\'" in source:
        # A JSON body whose writer escaped single quotes (model\'s): not JSON, but meant so.
        try:
            return json.loads(source.replace("\\'", "'"))
        except (ValueError, RecursionError):
            pass
    return _parse_literal(source)


#: How pydantic words a validator's exception in its error list ("msg").
_PYDANTIC_MSG_PREFIXES: Final = (
    ("Value error, ", "ValueError"),
    ("Assertion failed, ", "AssertionError"),
)


def _error_bodies(value: object, depth: int) -> Iterator[tuple[str | None, str]]:
    """(type, message) of every error a JSON body holds, searched a few levels deep.

    An OpenAI-style body names its class (``{"message": ..., "type":
    "BadRequestError"}``); FastAPI's ``{"detail": "..."}`` names none; a pydantic
    error list (``{"detail": [{"msg": "Value error, ...", "type": "value_error"}]}``)
    carries a validator's ``ValueError`` or ``AssertionError``.
    """
    if depth > 6:
        return
    if isinstance(value, dict):
        error_type, message = value.get("type"), value.get("message")
        if isinstance(error_type, str) and isinstance(message, str) and message.strip():
            # A category ("type": "abort") says how the request ended, not what was raised.
            yield (error_type if _TYPE_NAME_RE.fullmatch(error_type) else None), message
            return
        detail, msg = value.get("detail"), value.get("msg")
        if isinstance(detail, str) and detail.strip():
            yield None, detail
            return
        if isinstance(msg, str) and isinstance(error_type, str) and msg.strip():
            for prefix, name in _PYDANTIC_MSG_PREFIXES:
                if msg.startswith(prefix):
                    yield name, msg[len(prefix) :]
                    return
            yield None, msg
            return
        children: list[object] = list(value.values())
    elif isinstance(value, list):
        children = list(value)
    else:
        return
    for child in children[:20]:
        yield from _error_bodies(child, depth + 1)


def _multiline_json(lines: Sequence[_Line], index: int) -> tuple[list[_Found], int] | None:
    """A pretty-printed HTTP error body starting with a line ``{``."""
    indent = _indent(lines[index].text)
    for last in range(index + 1, min(len(lines), index + _MAX_MULTILINE_JSON)):
        text = lines[last].text
        if text.strip() == "}" and _indent(text) == indent:
            source = "\n".join(line.text for line in lines[index : last + 1])
            value = _parse_object(source)
            if value is _FAIL:
                return None
            first, final = lines[index], lines[last]
            found = [
                _Found(ExceptionReport(cls, msg, (), first.start, final.end, "line"), True)
                for cls, msg in _error_bodies(value, 0)
            ]
            return (found, last) if found else None
    return None


# --------------------------------------------------------------------------
# Step 5: embedded reports.


def _embedded(item: _Found) -> list[ExceptionReport]:
    """Reports found inside a report's message (and inside decoded messages, recursively)."""
    parent = item.report
    if not _may_hold_report(parent.message):
        return []
    span = (parent.start, parent.end)
    result: list[ExceptionReport] = []
    work = deque([(parent.message, item.decoded, 0)])
    while work and len(result) < _MAX_EMBEDDED:
        message, decoded, depth = work.popleft()
        if depth > _MAX_EMBED_DEPTH or not _may_hold_report(message):
            continue
        if decoded:
            lines = _clean_lines(message, span)
        else:
            lines = [_Line(text, *span, None, (), None) for text in message.split("\n")]
        for found in _scan_nested(lines):
            result.append(found.report)
            if found.decoded:
                work.append((found.report.message, True, depth + 1))
    return result[:_MAX_EMBEDDED]


def _scan_nested(lines: Sequence[_Line]) -> list[_Found]:
    """Every report inside a message: tracebacks first, then all inline hits of every line."""
    keyed: list[tuple[int, int, _Found]] = []
    claimed: dict[int, int] = {}
    consumed: set[int] = set()
    index = 0
    while index < len(lines):
        if _header_start(lines[index].text) is None:
            index += 1
            continue
        frames, exc_index, next_index = _parse_traceback(
            lines, index + 1, _indent(lines[index].text)
        )
        consumed.update(range(index + 1, exc_index if exc_index >= 0 else next_index))
        if exc_index < 0:
            index = max(next_index, index + 1)
            continue
        report, _ = _traceback_report(lines, index, exc_index, frames, "embedded")
        parsed = _exception_line(lines[exc_index], any_name=True)
        claimed[exc_index] = parsed[2] if parsed else -1
        keyed.append((exc_index, -1, _Found(report, False)))
        index = exc_index + 1
    for index, line in enumerate(lines):
        if index in consumed or line.boundary:
            continue
        hits = [hit for hit in _line_hits(line.text) if claimed.get(index) != hit.start]
        for found in _take_hits(lines, index, hits, top=False, follow=True)[0]:
            keyed.append((index, 0, found))
    keyed.sort(key=lambda entry: (entry[0], entry[1]))
    return [entry[2] for entry in keyed]
