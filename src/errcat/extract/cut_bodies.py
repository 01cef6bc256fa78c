r"""An HTTP error body cut before it closes: its ``message`` read up to where the paste has it.

A body is read whole when it parses (:func:`errcat.extract.inline._json_hits`). A
paste often holds it cut: a terminal wrapped its line (``'message': '"auto" tool
choice requires ... to`` then `` be set', 'type': ...`` on the next line), or the
paste, a log viewer or a search excerpt stopped in the middle (``... 'type':
'BadRe``). The ``message`` field still says what was raised: its value is read from
its opening quote to its closing one on that line, else to the line's end, the rest
to be looked for on the lines below (a closer, as for any quoted message). The
``type`` names the class only when the line shows it whole.

>>> cut_body("E   x: {'object': 'error', 'message': 'zq went bad', 'type': 'BadRe")
(7, 'zq went bad', None, None)
>>> cut_body('{"message": "zq went \\"bad\\" here", "type": "ZqError", "code"')
(0, 'zq went "bad" here', None, 'ZqError')
>>> cut_body("{'message': 'zq goes on past the line")
(0, 'zq goes on past the line', "'", None)
>>> cut_body("{'detail': 'zq'}") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

__all__ = ["cut_body", "read_quoted"]

#: The ``message`` key of a body (JSON or a Python dict) and its value's opening quote.
_MESSAGE: Final = re.compile(r"""\{[^{}]*?(?P<q>['"])message(?P=q)\s*:\s*(?P<open>['"])""")
#: The ``type`` field after the message, its value closed.
_TYPE: Final = re.compile(
    r"""\s*,\s*(?P<q>['"])type(?P=q)\s*:\s*(?P<o>['"])(?P<name>[A-Za-z_][\w.]*)(?P=o)"""
)
#: A class name as bodies give it (``BadRequestError``), not a category (``abort``).
_CLASS_NAME: Final = re.compile(r"[A-Z][A-Za-z0-9_.]*(?:Error|Exception)")
#: The escapes a quoted value may hold, and what each stands for.
_ESCAPES: Final = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t"}


def cut_body(text: str) -> tuple[int, str, str | None, str | None] | None:
    """``(start, message, closer, class)`` of a body's message in a line, or None.

    ``start`` is where the body opens; ``closer`` the quote still to come on a later
    line (None when the line closes the message); ``class`` the body's ``type`` when
    the line shows it whole and it names an exception class.
    """
    found = _MESSAGE.search(text)
    if found is None:
        return None
    quote = found.group("open")
    message, close = read_quoted(text, found.end(), quote)
    if not message.strip():
        return None
    if close is None:
        return found.start(), message, quote, None
    kind = _TYPE.match(text, close + 1)
    name = kind.group("name") if kind is not None else None
    error_class = name if name is not None and _CLASS_NAME.fullmatch(name) else None
    return found.start(), message, None, error_class


def read_quoted(
    text: str, pos: int, quote: str, closes: Callable[[int], bool] | None = None
) -> tuple[str, int | None]:
    r"""A quoted value from ``pos`` (past its opening ``quote``), its escapes read.

    Returns the value and where its closing quote is, None when the line ends first.
    ``closes`` says whether the quote at an index closes the value (any does, unless).

    >>> read_quoted("'zq \\'a\\' b', 1", 1, "'")
    ("zq 'a' b", 11)
    >>> read_quoted("'zq's', 1", 1, "'", lambda at: at == 5)
    ("zq's", 5)
    >>> read_quoted("'zq goes on", 1, "'")
    ('zq goes on', None)
    """
    chars: list[str] = []
    while pos < len(text):
        char = text[pos]
        if char == "\\" and pos + 1 < len(text):
            chars.append(_ESCAPES.get(text[pos + 1], text[pos + 1]))
            pos += 2
            continue
        if char == quote and (closes is None or closes(pos)):
            return "".join(chars), pos
        chars.append(char)
        pos += 1
    return "".join(chars), None
