"""What extraction finds: :class:`ExceptionReport` values and their :class:`Frame` lines.

>>> Frame("train.py", 3, "<module>").line
3
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["ExceptionReport", "Frame", "ReportKind"]


ReportKind = Literal["traceback", "line", "repr", "embedded", "text"]


@dataclass(frozen=True, slots=True)
class Frame:
    """One traceback frame as printed.

    ``source`` is the first source line Python printed under it, stripped (empty
    when none was): the code of the frame's line, which stays the same when the
    line number moves between versions. It is left out of comparisons.
    """

    path: str
    line: int
    function: str
    source: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class ExceptionReport:
    """One exception found in raw text.

    ``error_class`` is the qualified name exactly as printed (``None`` for kind
    ``"text"`` and for an HTTP error body that names no class); ``message`` is
    the message without prefixes, gutters or ANSI codes, keeping its line
    breaks; ``frames`` are the traceback's frames, outermost first;
    ``start``/``end`` are offsets in the original text.

    ``tail`` holds the paragraphs after the blank line that ended the message,
    up to whatever surely ends it (a new log record, traceback, frame,
    exception line or chain phrase), blank lines kept. They may be the rest of
    a multi-line message (tips after a blank line) or unrelated text: the text
    alone cannot tell, so the matcher tries the message with and without them.
    """

    error_class: str | None
    message: str
    frames: tuple[Frame, ...]
    start: int
    end: int
    kind: ReportKind
    tail: str = ""


@dataclass(slots=True)
class _Found:
    """A report plus whether its message must be cleaned before scanning it again."""

    report: ExceptionReport
    decoded: bool
