r"""Errors logged inside a quoted string, their line breaks escaped: read as printed.

A JSON log line (``{"msg": "Traceback ...\n  File ...\nValueError: bad"}``), a
Triton or glog line that quotes an engine's error (``model.py:502] "[vllm]
Error ...\nray.exceptions.RaySystemError: System error: No module named
'utils'"``) or a repr keeps a whole traceback on one line, with ``\n`` for
each break, ``\"`` for quotes and ``\u001b`` for colour codes. Read as it
stands, the exception line is glued to an ``n`` (``nValueError``) and its
message ends in the string's closing quote. :func:`expand_escaped` replaces
such a quoted string by its decoded text, on lines of its own, when the text
it decodes to holds a traceback or an exception line at a line start; every
offset of the expanded text maps back to the original line it came from.

>>> text = 'E1027 model.py:502] "Error: stream failed\\nValueError: bad \\"x\\""'
>>> expanded = expand_escaped(text)
>>> print(expanded.text)
E1027 model.py:502]
Error: stream failed
ValueError: bad "x"
>>> expanded.original(expanded.text.index("ValueError")), len(text)
(0, 65)
>>> expand_escaped('path "C:\\\\new\\\\dir" is missing') is None  # a backslash, not a break
True
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Final

from errcat.extract.grammar import _EXC_START_RE, _FRAME_RE, _TB_HEADER, _looks_like_exception

__all__ = ["Expanded", "expand_escaped"]

#: A double- or single-quoted string on one line that holds an escaped line break.
_QUOTED: Final = re.compile(
    r'"(?:[^"\\\n]|\\.)*\\n(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\\n(?:[^\'\\\n]|\\.)*\''
)
#: A call's opening right before the string: ``RuntimeError('Traceback ...\n ...')``.
_REPR_OPENING: Final = re.compile(r"[A-Za-z_][\w.]*\(\s*\Z")
#: One escape: a code point, a byte, ESC in octal, or a character.
_ESCAPE: Final = re.compile(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|0?33|[nrt\"'\\/])")
#: What may close the structure a quoted string stood in (JSON's ``"}``, a list's ``]``).
_CLOSERS: Final = re.compile(r"[\s,;)\]}]*")
_SIMPLE: Final = {"n": "\n", "r": "", "t": "\t", '"': '"', "'": "'", "\\": "\\", "/": "/"}


def _decoded(body: str) -> str:
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] in "ux":
            return chr(int(code[1:], 16))
        if code in ("33", "033"):
            return "\x1b"
        return _SIMPLE[code]

    return _ESCAPE.sub(one, body)


def _holds_an_error(decoded: str) -> bool:
    """Whether a line after the first starts a traceback, a frame or an exception line."""
    for line in decoded.split("\n")[1:]:
        stripped = line.strip()
        if stripped.startswith(_TB_HEADER) or _FRAME_RE.match(stripped):
            return True
        match = _EXC_START_RE.match(stripped)
        if match is not None and _looks_like_exception(match.group("cls")):
            return True
    return False


@dataclass(frozen=True)
class Expanded:
    """The text with its escaped strings expanded, and where each part came from."""

    text: str
    #: Offsets in :attr:`text` where a piece starts, ascending, with the original span
    #: (start, end) of the line each piece came from.
    _starts: tuple[int, ...]
    _spans: tuple[tuple[int, int], ...]

    def original(self, offset: int) -> int:
        """The start, in the original text, of the line that ``offset`` came from."""
        return self._spans[max(0, bisect_right(self._starts, offset) - 1)][0]

    def original_end(self, offset: int) -> int:
        """The end, in the original text, of the line that ``offset`` (an end) came from."""
        return self._spans[max(0, bisect_right(self._starts, max(0, offset - 1)) - 1)][1]


def expand_escaped(text: str) -> Expanded | None:
    """The text with each quoted string that logs an error decoded onto lines; None if none."""
    if "\\n" not in text:
        return None
    pieces: list[str] = []
    starts: list[int] = []
    spans: list[tuple[int, int]] = []
    changed = False
    at = 0
    size = 0
    for line in text.splitlines(keepends=True):
        span = (at, at + len(line.rstrip("\r\n")))
        at += len(line)
        out = line
        for quoted in _QUOTED.finditer(line):
            if _REPR_OPENING.search(line, 0, quoted.start()):
                continue  # an exception's repr: the repr reader decodes its argument
            decoded = _decoded(quoted.group()[1:-1])
            if _holds_an_error(decoded):
                head, tail = line[: quoted.start()].rstrip(), line[quoted.end() :].strip()
                if _CLOSERS.fullmatch(tail):
                    tail = ""  # the rest of a JSON object or list: not the message's
                # What follows the string is no part of its last line: a paragraph of its own.
                body = decoded.strip("\n") + ("\n" if tail else "")
                out = "\n".join(p for p in (head, body, tail) if p) + "\n"
                changed = True
                break
        starts.append(size)
        spans.append(span)
        pieces.append(out)
        size += len(out)
    if not changed:
        return None
    return Expanded("".join(pieces), tuple(starts), tuple(spans))
