"""Steps 2 to 4 of extraction: streams apart, tracebacks and exception lines found, messages read.

A message goes on over the lines after its exception line until a blank
line, a chain phrase, a new traceback, frame or exception line, or a new log
record; the paragraphs after a blank line are its ``tail``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, overload

from errcat.extract.boxes import _PYTEST_SUMMARY_RE
from errcat.extract.cut_class import restore_cut_classes
from errcat.extract.grammar import (
    _BARE_RE,
    _CARET_RE,
    _CHAIN_RE,
    _CLASS_MSG_RE,
    _EXC_LINE_RE,
    _EXC_START_RE,
    _FRAME_RE,
    _GROUP_WORDS,
    _MAX_MESSAGE_CHARS,
    _MAX_MESSAGE_LINES,
    _MAX_TAIL_BLANKS,
    _MAX_TAIL_CHARS,
    _MAX_TAIL_PARAGRAPHS,
    _MAX_TB_BLANKS,
    _REPEATED_RE,
    _REPR_RE,
    _RULE_RE,
    _TB_HEADER,
    LOG_LINE_START_RE,
    _indent,
    _looks_like_exception,
)
from errcat.extract.inline import _Hit, _line_hits, _multiline_json
from errcat.extract.lines import _Line
from errcat.extract.reports import ExceptionReport, Frame, ReportKind, _Found

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
# characters, tabs, colour codes whose ESC was lost in copy-paste (``[0m``: the full
# parser removes them, see errcat.extract.lines), and messages that may hold another
# exception, a repr or a body.
_SGR_REMNANT: Final = r"\[\d{1,3}(?:;\d{1,3}){0,15}m"
_NOT_PLAIN_RE: Final = re.compile(rf"[\x00-\x08\x0b-\x1f\x7f]|\[type=|\{{|Traceback|{_SGR_REMNANT}")
# The frames (most of a traceback) are checked one question at a time: a regex of
# alternatives steps through the text trying each, a third the speed.
_CONTROL_CHAR_RE: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SGR_REMNANT_RE: Final = re.compile(_SGR_REMNANT)


def _frames_not_plain(frames: str) -> bool:
    """Whether a plain traceback's frames need the full parser (see ``_NOT_PLAIN_RE``)."""
    return (
        "Traceback" in frames
        or _CONTROL_CHAR_RE.search(frames) is not None
        or ("[" in frames and _SGR_REMNANT_RE.search(frames) is not None)
    )


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
    if _NOT_PLAIN_RE.search(message) or _frames_not_plain(match.group("frames")):
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
    return restore_cut_classes(
        [ExceptionReport(match.group("cls"), message, frames, start, end, "traceback")]
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
    return Frame(frame.path, frame.line, frame.function, code)  # (dataclasses.replace is slow)


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
    if not verbatim and (first.isalpha() or first == "_" or first.isdigit()):
        if LOG_LINE_START_RE.match(text) is not None:  # a log line no prefix matched
            return True
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

    >>> from errcat.extract.lines import _clean_lines
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
