r"""A pydantic error's ``msg`` read where the body around it does not parse.

A server built on pydantic (vLLM's OpenAI server, any FastAPI app) answers a request
its validators refuse with pydantic's error list, often as the text of an OpenAI-style
body: ``{'object': 'error', 'message': "[{'type': 'value_error', 'loc': ('body',),
'msg': 'Value error, <message>', 'input': {...}, 'ctx': {...}}]", ...}``. A body that
parses is read whole (:func:`errcat.extract.inline._json_hits`). Pasted, it often does
not: a log, a terminal or a search excerpt cut it inside the echoed ``input``, or the
inner quotes lost their escapes on the way, and the cut-body reader takes the outer
``message`` only up to its first inner quote (``[{``). The ``msg`` key still holds the
validator's exception whole: its value, from the quote after ``'msg': `` to the same
quote where a next key or the dict's end follows (``', 'input'``, ``'}``), else to the
line's end, is the exception pydantic names by its wording (``Value error, `` for a
``ValueError``, ``Assertion failed, `` for an ``AssertionError``).

>>> error_dict_messages("x {'type': 'value_error', 'msg': 'Value error, zq is bad', 'input': 1")
[(26, 57, 'ValueError', 'zq is bad', None)]
>>> error_dict_messages('{"msg": "Assertion failed, zq \\"cut')
[(1, 35, 'AssertionError', 'zq "cut', '"')]
>>> error_dict_messages("{'msg': 'Field required', 'type': 'missing'}")
[]
"""

from __future__ import annotations

import re
from typing import Final

from errcat.extract.cut_bodies import read_quoted

__all__ = ["error_dict_messages"]

#: The ``msg`` key of a pydantic error dict (JSON or a Python repr), a validator's wording.
_MSG: Final = re.compile(
    r"""(?P<q>['"])msg(?P=q)\s*:\s*(?P<open>['"])(?P<kind>Value error|Assertion failed), """
)
#: The exception class behind each wording.
_CLASSES: Final = {"Value error": "ValueError", "Assertion failed": "AssertionError"}
#: What follows a value's closing quote inside a dict: the next key, or the dict's end.
_VALUE_END: Final = re.compile(r"""\s*(?:,\s*['"][A-Za-z_]\w*['"]\s*:|[}\]])""")


def error_dict_messages(text: str) -> list[tuple[int, int, str, str, str | None]]:
    """``(start, end, class, message, closer)`` of each validator message in a line.

    ``start`` is where the ``msg`` key opens, ``end`` where its value ends (the line's
    end for a value cut there); ``closer`` is the quote still to come on a later line
    (None when the line closes the value). A value closes at its opening quote only
    where a next key or the dict's end follows: a message holding that quote
    (``the model's``, inner quotes that lost their escapes) goes on past it.
    """
    found = []
    for match in _MSG.finditer(text):
        quote = match.group("open")
        message, close = read_quoted(
            text, match.end(), quote, lambda at: _VALUE_END.match(text, at + 1) is not None
        )
        if message.strip():
            error_class = _CLASSES[match.group("kind")]
            if close is None:
                found.append((match.start(), len(text), error_class, message, quote))
            else:
                found.append((match.start(), close + 1, error_class, message, None))
    return found
