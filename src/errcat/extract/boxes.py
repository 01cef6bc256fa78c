"""Tracebacks drawn in boxes or columns: rich's panels, IPython's and pytest's layouts.

Each is turned back into the plain lines Python prints.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from errcat.extract.grammar import _TB_HEADER
from errcat.extract.lines import _Line

# Rich's tracebacks (``rich.traceback``, Typer's default): the frames in a box,
# ``╭── Traceback (most recent call last) ──╮`` ... ``╰──╯``, the exception line after it.
_RICH_TOP: Final = "\u256d"
_RICH_HEADER_RE: Final = re.compile(
    r"\s*\u256d\u2500+ Traceback \(most recent call last\) \u2500+\u256e\s*"
)
_RICH_SIDE: Final = "\u2502"
_RICH_BOTTOM_RE: Final = re.compile(r"\s*\u2570\u2500+\u256f\s*")
# A frame's title, its lines joined (rich folds a long path anywhere, and a break
# at a space loses the space): ``/path/mod.py:635 in check``.
_RICH_FRAME_RE: Final = re.compile(r"(?P<path>.+?):(?P<line>\d+) ?in ?(?P<name>[\w<>.]+)")
# A numbered source line, the frame's own marked with ``❱``: ``❱ 3 │   │   raise X(``.
_RICH_CODE_RE: Final = re.compile(r"(?P<mark>\u2771)?\s*\d+ ?(?P<code>.*)")


def _unbox_rich(lines: list[_Line]) -> list[_Line]:
    """Rich's boxed tracebacks, rewritten as Python prints them (frames, the raising line).

    A box's lines hold each frame's title (its path folded over several lines
    when long), then numbered source lines; the frame's line is marked
    ``❱``. Locals panels and "frames hidden" lines are left out. Lines
    outside a box are kept as they are.
    """
    out: list[_Line] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if _RICH_HEADER_RE.fullmatch(line.text) is None:
            out.append(line)
            index += 1
            continue
        out.append(_Line(_TB_HEADER, *_span(line)))
        index += 1
        group: list[_Line] = []
        while index < len(lines) and _RICH_BOTTOM_RE.fullmatch(lines[index].text) is None:
            inner = lines[index].text.strip()
            index += 1
            if not (inner.startswith(_RICH_SIDE) and inner.endswith(_RICH_SIDE)):
                break  # not a box line after all: the box was cut off
            content = inner[1:-1].strip()
            if content[:1] in ("\u256d", _RICH_SIDE, "\u2570"):
                continue  # a locals panel inside the box
            if content:
                group.append(_Line(content, *_span(lines[index - 1])))
                continue
            out.extend(_rich_group(group))
            group = []
        out.extend(_rich_group(group))
        index += 1  # the bottom line
    return out


def _span(line: _Line) -> tuple[int, int, int | None, tuple[str, ...], str | None]:
    return (line.start, line.end, None, line.stream, line.record)


def _printed_frame(path: str, number: int | str, name: str, at: _Line) -> _Line:
    """A frame's ``File`` line as Python prints it, placed where ``at`` was read."""
    return _Line(f'  File "{path}", line {number}, in {name}', *_span(at))


def _printed_source(code: str, at: _Line) -> _Line:
    """A frame's line of code as Python prints it under its ``File`` line."""
    return _Line("    " + code, *_span(at))


def _rich_group(group: list[_Line]) -> list[_Line]:
    """One block of a rich box: a frame's title, or its numbered source lines."""
    if not group:
        return []
    title = _RICH_FRAME_RE.fullmatch("".join(part.text for part in group))
    if title is not None and not title["path"][:1].isdigit():
        return [_printed_frame(title["path"], title["line"], title["name"], group[0])]
    for part in group:
        code = _RICH_CODE_RE.fullmatch(part.text)
        if code is not None and code["mark"]:
            return [_printed_source(code["code"].replace(_RICH_SIDE, " ").strip(), part)]
    return []


# IPython's and Jupyter's tracebacks: ``ValueError      Traceback (most recent call last)``,
# then per frame a title (``File /path/mod.py:635, in check(backend)``, ``Cell In[3],
# line 1``; IPython 7: ``/path/mod.py in check(backend)``) over numbered source lines,
# the frame's own marked ``---->``.
_IPYTHON_HINT: Final = "  Traceback (most recent call last)"
_IPYTHON_HEADER_RE: Final = re.compile(
    r"[A-Za-z_][\w.]*(?:\([\w.]+\))? {2,}Traceback \(most recent call last\)\s*"
)
_IPYTHON_RULE_RE: Final = re.compile(r"-{20,}\s*")
_IPYTHON_FRAME_RE: Final = re.compile(
    r"(?:File (?P<path>.+?):(?P<line>\d+)|(?P<cell>Cell In\[\d+\]), line (?P<cell_line>\d+))"
    r"(?:, in (?P<name>[^\s(]+).*)?"
    r"|(?P<old_path>\S.*?\.pyw?|<ipython-input-[^>\s]*>) in (?P<old_name>[^\s(]+)(?:\(.*\))?"
)
_IPYTHON_CODE_RE: Final = re.compile(r"(?P<mark>-+> ?)?\s*(?P<number>\d+)(?: (?P<code>.*))?")
_IPYTHON_SKIP_RE: Final = re.compile(r"\[\.\.\. skipping .*\]\s*")


def _unbox_ipython(lines: list[_Line]) -> list[_Line]:
    """IPython's tracebacks, rewritten as Python prints them (frames, the raising line).

    Each frame's title gives its file, line and function (a method's qualified
    name is cut to the name Python prints); of its numbered source lines, the
    one marked ``---->`` is the frame's (and gives the line where the title
    has none). The exception line, and anything after it, is kept as it is.
    """
    out: list[_Line] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if _IPYTHON_HEADER_RE.fullmatch(line.text) is None:
            if not (_IPYTHON_RULE_RE.fullmatch(line.text) and _ipython_header_at(lines, index)):
                out.append(line)
            continue
        out.append(_Line(_TB_HEADER, *_span(line)))
        frame: _IpythonFrame | None = None
        while index < len(lines):
            text = lines[index].text
            title = _IPYTHON_FRAME_RE.fullmatch(text)
            code = _IPYTHON_CODE_RE.fullmatch(text)
            if title is not None and code is None:
                out.extend(frame.lines() if frame is not None else ())
                frame = _IpythonFrame(title, lines[index])
            elif code is not None and frame is not None:
                if code["mark"]:
                    frame.marked(int(code["number"]), code["code"] or "")
            elif text.strip() and _IPYTHON_SKIP_RE.fullmatch(text) is None:
                break  # the exception line
            index += 1
        out.extend(frame.lines() if frame is not None else ())
    return out


def _ipython_header_at(lines: Sequence[_Line], index: int) -> bool:
    """Whether the line at ``index`` is an IPython traceback's header."""
    return index < len(lines) and _IPYTHON_HEADER_RE.fullmatch(lines[index].text) is not None


class _IpythonFrame:
    """One frame of an IPython traceback, as its title and marked line give it."""

    def __init__(self, title: re.Match[str], line: _Line) -> None:
        self.path = title["path"] or title["cell"] or title["old_path"]
        number = title["line"] or title["cell_line"]
        self.line = int(number) if number else None
        name = title["name"] or title["old_name"] or "<module>"
        self.name = name.rsplit(".", 1)[-1] if not name.startswith("<") else name
        self.source: str | None = None
        self.title = line

    def marked(self, number: int, code: str) -> None:
        if self.source is None:
            self.source = code.strip()
            if self.line is None:
                self.line = number

    def lines(self) -> list[_Line]:
        if self.line is None:
            return []
        out = [_printed_frame(self.path, self.line, self.name, self.title)]
        if self.source:
            out.append(_printed_source(self.source, self.title))
        return out


# pytest's failure reports: code blocks with the frame's line marked ``>``, the
# exception as ``E   `` lines, and each frame's place after its block (``path.py:3: ``,
# the last ``path.py:3: ValueError``); with ``--tb=short``, ``path.py:3: in check``
# over the frame's line of code.
_PYTEST_PLACE_RE: Final = re.compile(
    r"(?P<path>[^\s:]+\.pyw?):(?P<line>\d+): ?"
    r"(?:in (?P<name>[\w<>.]+)|(?P<cls>[A-Za-z_][\w.]*))?\s*"
)
_PYTEST_MARK_RE: Final = re.compile(r"^>[ \t]+\S", re.MULTILINE)
# pytest's summary lines, which no message runs on into: ``FAILED tests/x.py::t - ...``,
# ``1 failed, 2 passed in 1.01s``.
_PYTEST_SUMMARY_RE: Final = re.compile(
    r"(?:FAILED|ERROR|PASSED|SKIPPED|XFAIL|XPASS) \S+::\S.*"
    r"|\d+ (?:failed|passed|errors?|skipped|deselected|xfailed|xpassed|warnings?)\b"
    r".* in [\d.]+s\b.*"
)
_PYTEST_DEF_RE: Final = re.compile(r"\s*(?:async\s+)?def (?P<name>\w+)\(")


def _pytest_marks(text: str) -> frozenset[int]:
    """Where the lines pytest marks ``>`` (a frame's line of code) start in the raw text.

    Cleaning reads ``> `` as a Markdown quote and drops it; the mark is read here.
    """
    return frozenset(m.start() for m in _PYTEST_MARK_RE.finditer(text))


def _unbox_pytest(lines: list[_Line], marks: frozenset[int]) -> list[_Line]:
    """The failure reports of pytest, rewritten as Python prints a traceback.

    The frames (place, function, marked line) come first, then the ``E``
    lines, as the exception that ends them; lines of a report that never
    reaches its exception are kept as they were. ``marks``: where the lines
    marked ``>`` start (:func:`_pytest_marks`).
    """
    out: list[_Line] = []
    held: list[_Line] = []  # the original lines of the report being read
    frames: list[_Line] = []
    errors: list[_Line] = []
    marked: str | None = None
    function: str | None = None
    short = False  # the line before was a --tb=short place: this one is its code
    tail_short = False  # the last frame came from a --tb=short place

    def finish(complete: bool) -> None:
        # A long report is whole at its last place (``path.py:3: ValueError``): cut
        # before it, its frames lack the raising one, and the lines stay as they were.
        nonlocal marked, function
        if frames and errors and complete:
            out.append(_Line(_TB_HEADER, *_span(frames[0])))
            out.extend(frames)
            out.extend(errors)
        else:
            out.extend(held)
        held.clear()
        frames.clear()
        errors.clear()
        marked = function = None

    for line in lines:
        text = line.text
        place = _PYTEST_PLACE_RE.fullmatch(text)
        if line.record == "E":
            held.append(line)
            errors.append(line)
            continue
        if errors and place is None:
            if not text.strip():
                held.append(line)  # the blank line before a long report's last place
                continue
            finish(tail_short)  # --tb=short: the E lines ended the report
        held.append(line)
        if place is not None:
            short = tail_short = bool(place["name"])
            name = place["name"] or function or "<module>"
            frames.append(_printed_frame(place["path"], place["line"], name, line))
            if marked and not short:
                frames.append(_printed_source(marked, line))
            marked = function = None
            if place["cls"]:
                finish(True)
            continue
        if short and text.startswith("    "):
            frames.append(_printed_source(text.strip(), line))  # --tb=short's code
            short = False
            continue
        short = False
        if line.start in marks:
            marked = text.strip()
            continue
        defined = _PYTEST_DEF_RE.match(text)
        if defined is not None:
            function = defined["name"]
    finish(tail_short)
    return out
