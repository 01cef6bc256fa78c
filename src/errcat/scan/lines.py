r"""The scanner's reading of lines: what starts an event, what belongs to it, what ended it.

An event is open in one stream at a time. A traceback header opens one (phase
``TB``: frames and their source lines), its exception line moves it on
(``MSG``: lines that continue the message), and a chain's "The above
exception..." line waits for the next traceback (``CHAIN``). A line that starts
another exception ends the message of the one before, whether that one ended a
traceback or stood alone.

>>> event = Open([(1, "Traceback (most recent call last):")], TB, False, True, 1)
>>> take(event, 2, '  File "a.py", line 3, in f', '  File "a.py", line 3, in f', None)
True
>>> take(event, 3, "ValueError: bad", "ValueError: bad", None), event.phase == MSG
(True, True)
>>> take(event, 4, "KeyError: 'k'", "KeyError: 'k'", None)  # another exception
False
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from errcat.extract import ExceptionReport
from errcat.extract.grammar import LOG_LINE_START_RE

__all__ = [
    "CHAIN",
    "CLASS_HINT_RE",
    "MAX_EVENT_CHARS",
    "MAX_LINE_CHARS",
    "MSG",
    "TB",
    "TB_HEADER",
    "TRIGGERS",
    "Open",
    "final_report",
    "may_start",
    "next_trigger",
    "take",
]

#: Words at least one of which is on the first line of every event (besides odd class names).
TRIGGERS: Final = ("Traceback", "Error", "Exception", "Warning")
TB_HEADER: Final = "Traceback (most recent call last):"
_CHAIN_RE: Final = re.compile(
    r"The above exception was the direct cause of the following exception:"
    r"|During handling of the above exception, another exception occurred:"
)
#: A trigger word used as (the end of) an exception class: followed by ": ", "(", a quote,
#: a comma, a bracket or the end of the line. "ErrorRate=0" is not one.
CLASS_HINT_RE: Final = re.compile(
    r"(?:Error|Exception|Warning)\w*(?:\([\w.]*\))?(?::(?:[ \t]|$)|[(\"',)\]}]|[ \t]*$)"
)
# The same, at a trigger word's position in a block of lines.
_CLASS_HINT_AT_RE: Final = re.compile(
    r"(?:Error|Exception|Warning)\w*(?:\([\w.]*\))?(?::(?:[ \t\r]|$)|[(\"',)\]}]|[ \t\r]*$)",
    re.MULTILINE,
)
# A line that starts a new exception (ends the message of the one before).
_NEW_EXC_RE: Final = re.compile(
    r"[A-Za-z_][\w.]*(?:Error|Exception|Warning)\w*(?::[ \t]|:?[ \t]*$)"
)

_MAX_BLANKS: Final = 2  # blank lines inside a traceback or between chained ones
_MAX_MESSAGE_LINES: Final = 100  # continuation lines of an exception's message
_MAX_EVENT_LINES: Final = 5000  # lines of one event (a longer one is closed there)
#: The most of one line the scanner keeps: its start (a longer line is cut, and counted).
MAX_LINE_CHARS: Final = 64 << 10
#: The most text one event holds (a longer one is closed there).
MAX_EVENT_CHARS: Final = 1 << 20

# Phases of an open event.
TB, MSG, CHAIN = 0, 1, 2


@dataclass(slots=True)
class Open:
    """An event being assembled in one stream."""

    lines: list[tuple[int, str]]
    phase: int
    group: bool  # an exception group (every line of it is indented)
    from_traceback: bool  # its exception line ended a traceback
    last_seen: int  # number of the last line of its stream
    pending: list[tuple[int, str]] = field(default_factory=list)  # blank lines not yet taken
    message_lines: int = 0
    chars: int = 0  # characters of its lines
    exception_line: str | None = None  # the line that ended its traceback, once read


def next_trigger(text: str, pos: int, stop: int, nexts: list[int], plain: bool) -> int:
    """Where the next line that may start an event has a trigger word (-1: none before stop).

    ``nexts`` caches each word's next position (-1: no more in the block; less
    than ``pos``: to be searched again). With ``plain`` text, a word must also
    look like the end of a class name, or be the traceback header, where it is.
    """
    while True:
        hit, which = stop, -1
        for number, word in enumerate(TRIGGERS):
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
            if text.startswith(TB_HEADER, hit):
                return hit
        elif _CLASS_HINT_AT_RE.match(text, hit) is not None:
            return hit
        nexts[which] = text.find(TRIGGERS[which], hit + 1, stop)


def may_start(raw: str, odd: Callable[[str], str | None]) -> bool:
    """Cheap test that a line may start an event; ``odd`` names a known odd class in a line."""
    return TB_HEADER in raw or CLASS_HINT_RE.search(raw) is not None or odd(raw) is not None


def take(
    event: Open,
    number: int,
    raw: str,
    content: str,
    record: str | None,
    *,
    odd: Callable[[str], str | None] | None = None,
) -> bool:
    """Add a line of the event's stream to it; False when the line is not part of it.

    ``odd`` names the known odd exception class a line starts with, if any:
    such a line starts another exception too.
    """
    if len(event.lines) >= _MAX_EVENT_LINES or event.chars + len(raw) > MAX_EVENT_CHARS:
        return False
    if not content.strip():
        if len(event.pending) >= _MAX_BLANKS:
            return False
        event.pending.append((number, raw))
        return True
    pending = event.pending
    if event.phase == TB:
        first = content[0]
        if (
            first in " \t"
            or content.startswith(('File "', "[Previous line repeated"))
            or TB_HEADER in content
        ):
            _add(event, number, raw)
            return True
        if event.group:
            return False
        _add(event, number, raw)
        event.phase = MSG
        event.exception_line = content
        return True
    if event.phase == CHAIN:
        if TB_HEADER in content:
            _add(event, number, raw)
            event.phase = TB
            return True
        return False
    # MSG: the exception line was seen; what follows may continue its message.
    if "exception" in content and _CHAIN_RE.search(content):
        _add(event, number, raw)
        event.phase = CHAIN
        return True
    if (
        pending
        or record is not None
        or TB_HEADER in content
        or content.lstrip().startswith('File "')
        or event.message_lines >= _MAX_MESSAGE_LINES
        or _NEW_EXC_RE.match(content) is not None  # another exception, after a traceback too
        or LOG_LINE_START_RE.match(content) is not None  # a log line no prefix matched
        or (odd is not None and content[:1].isalpha() and _starts_odd(content, odd))
    ):
        return False
    event.message_lines += 1
    _add(event, number, raw)
    return True


def _starts_odd(content: str, odd: Callable[[str], str | None]) -> bool:
    name = odd(content)
    return name is not None and content.startswith(name + ":")


def _add(event: Open, number: int, raw: str) -> None:
    if event.pending:
        event.lines.extend(event.pending)
        event.chars += sum(len(line) for _, line in event.pending)
        event.pending.clear()
    event.lines.append((number, raw))
    event.chars += len(raw)


def final_report(reports: Sequence[ExceptionReport], *, group: bool) -> ExceptionReport | None:
    r"""The exception that ended an event: the last one printed (a group's own exception).

    >>> from errcat.extract import extract_reports
    >>> final_report(extract_reports("KeyError: 'a'\nValueError: b"), group=False).error_class
    'ValueError'
    """
    top = [r for r in reports if r.kind in ("traceback", "line", "repr")]
    if group:
        for report in top:
            if (report.error_class or "").endswith("ExceptionGroup"):
                return report
    if top:
        return max(top, key=lambda r: r.start)
    inner = [r for r in reports if r.kind == "embedded"]
    return inner[-1] if inner else None
