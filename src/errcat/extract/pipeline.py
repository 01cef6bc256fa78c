"""Extraction from end to end: :func:`extract_reports`, and reports found inside messages.

>>> [r.error_class for r in extract_reports("RuntimeError: failed: ValueError: bad x")]
['RuntimeError', 'ValueError']
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import replace

from errcat.extract.boxes import (
    _IPYTHON_HINT,
    _RICH_TOP,
    _pytest_marks,
    _unbox_ipython,
    _unbox_pytest,
    _unbox_rich,
)
from errcat.extract.cut_class import restore_cut_classes
from errcat.extract.escaped import expand_escaped
from errcat.extract.grammar import (
    _EXC_START_RE,
    _HINT_RE,
    _MAX_EMBED_DEPTH,
    _MAX_EMBEDDED,
    _MAX_MESSAGE_CHARS,
    _TB_HEADER,
    _indent,
    _looks_like_exception,
)
from errcat.extract.inline import _line_hits
from errcat.extract.lines import _ANSI_RE, _PREFIX_RE, _clean_lines, _Line
from errcat.extract.reports import ExceptionReport, Frame, _Found
from errcat.extract.tracebacks import (
    _demux,
    _exception_line,
    _header_start,
    _parse_traceback,
    _plain_traceback,
    _scan_top,
    _take_hits,
    _traceback_report,
)

__all__ = ["extract_reports"]


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
    fast = _plain_traceback(text) if "\n" in text else _plain_line(text)
    if fast is not None:
        return fast
    expanded = expand_escaped(text)
    if expanded is None:
        return _extract(text)
    # An error logged in a quoted string, its line breaks escaped: read as printed, with
    # each report's span the original lines it came from.
    return [
        replace(r, start=expanded.original(r.start), end=expanded.original_end(r.end))
        for r in _extract(expanded.text)
    ]


def _plain_line(text: str) -> list[ExceptionReport] | None:
    """The report of a lone ``Class: message`` line, or None when it needs the full parser.

    A bare error line is the commonest query after a traceback. Read whole, it is
    its class, then its message; the full parser cleans it, looks for log prefixes,
    gutters, frames and headers, then for reports inside the message, and finds
    nothing of the kind in a line this test lets through. The result is the one
    :func:`_extract` gives (a property test checks it).

    >>> _plain_line("ValueError: bad value 3")[0].message
    'bad value 3'
    >>> _plain_line("RuntimeError: failed: ValueError: bad x") is None  # a report inside
    True
    """
    if (
        len(text) > _MAX_MESSAGE_CHARS
        or not text.isprintable()  # line breaks, tabs, escapes, control characters
        or text != text.strip()
        or any(mark in text for mark in _NOT_PLAIN_LINE)
        or ("[" in text and _ANSI_RE.search(text) is not None)  # a colour code's remnant
        or _PREFIX_RE.match(text) is not None
    ):
        return None
    match = _EXC_START_RE.match(text)
    if match is None or not _looks_like_exception(match.group("cls")):
        return None
    message = text[match.end() :]
    if not message or _may_hold_report(message):
        return None
    return restore_cut_classes(
        [ExceptionReport(match.group("cls"), message, (), 0, len(text), "line")]
    )


#: What only the full parser reads in one line: gutters and boxes (``|``, ``+``, fences,
#: a rich box's corner), a JSON body, a traceback's header.
_NOT_PLAIN_LINE = ("|", "+", "```", "~~~", "{", _RICH_TOP, "Traceback")


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
        return restore_cut_classes(reports)
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


def _may_hold_report(text: str) -> bool:
    """Cheap test that a text may contain any report form at all."""
    return (
        _HINT_RE.search(text) is not None
        or "{" in text
        or _TB_HEADER in text
        or "Value error, " in text
        or "Assertion failed, " in text
        or "message=" in text  # a model's repr of an error body (errcat.extract.objects)
    )


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
