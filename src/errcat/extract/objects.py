r"""Error objects printed as a Python repr with keyword fields: ``Name(message='...', type='X')``.

An HTTP error body reaches a user as JSON (``{"message": ..., "type": ...}``), but a
client that parses it into a model prints the model's repr instead: the OpenAI
client's ``ChatCompletion(id=None, ..., object='error', message='...',
type='BadRequestError', code=400)`` when a server's error body was read as a
completion, an engine's own ``ErrorResponse(message='...', type='BadRequestError')``
or ``ErrorResponse(error=ErrorInfo(message='...', ...))`` in a log line. The fields are
the body's, so such a repr is read as the body it prints: a mapping of its literal
keyword arguments (a nested model's repr a mapping in turn), for the body reader of
:mod:`errcat.extract.inline` to take the message and class from.

>>> [
...     (s, e, v["message"])
...     for s, e, v in keyword_objects("x ErrorInfo(message='zq bad', type='ZqError')")
... ]
[(2, 45, 'zq bad')]
>>> keyword_objects("print(message='zq', type=zq_type)")  # a call in code, not a repr
[]
"""

from __future__ import annotations

import ast
import re
from typing import Final

__all__ = ["keyword_objects"]

#: A model's name and its opening parenthesis (a repr starts with a capitalised name).
_OPEN: Final = re.compile(r"(?<![\w.])(?P<name>[A-Z][A-Za-z0-9_]*)\(")
#: The longest repr read (a body's message is a few hundred characters).
_MAX_REPR: Final = 8_000
#: How many closing parentheses, from the line's last, are tried as the repr's end.
_MAX_ENDS: Final = 6
#: How deep nested models are read.
_MAX_DEPTH: Final = 4
#: What a field that is not a literal (a name, an expression) reads as.
_NOT_LITERAL: Final = object()


def keyword_objects(text: str) -> list[tuple[int, int, dict[str, object]]]:
    """``(start, end, fields)`` of each repr in a line whose keyword fields hold ``message``.

    Only reprs of literal fields are read (a call in source code passes names, which
    are not literals); the first repr that parses is taken, then the search goes on
    after it.
    """
    found: list[tuple[int, int, dict[str, object]]] = []
    pos = 0
    while (match := _OPEN.search(text, pos)) is not None:
        parsed = _parse(text, match.start())
        if parsed is None:
            pos = match.end()
            continue
        end, fields = parsed
        if isinstance(fields.get("message"), str) or _holds_message(fields):
            found.append((match.start(), end, fields))
        pos = end
    return found


def _holds_message(fields: dict[str, object]) -> bool:
    """Whether a nested model's fields hold a ``message`` (``error=ErrorInfo(message=...)``)."""
    return any(isinstance(v, dict) and isinstance(v.get("message"), str) for v in fields.values())


def _parse(text: str, start: int) -> tuple[int, dict[str, object]] | None:
    """The end of the repr starting at ``start`` and its fields, when it parses."""
    limit = min(len(text), start + _MAX_REPR)
    ends = [m.start() for m in re.finditer(r"\)", text[start:limit])]
    for close in reversed(ends[-_MAX_ENDS:]):
        source = text[start : start + close + 1]
        try:
            node = ast.parse(source, mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        fields = _fields(node, 0)
        if isinstance(fields, dict):
            return start + close + 1, fields
        return None
    return None


def _fields(node: ast.expr, depth: int) -> object:
    """A repr's keyword fields as a mapping (a nested repr a mapping too); else a literal."""
    if isinstance(node, ast.Call):
        if depth > _MAX_DEPTH or node.args or not node.keywords:
            return _NOT_LITERAL
        out: dict[str, object] = {}
        for keyword in node.keywords:
            if keyword.arg is None:
                return _NOT_LITERAL
            value = _fields(keyword.value, depth + 1)
            if value is not _NOT_LITERAL:
                out[keyword.arg] = value
        return out
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return _NOT_LITERAL
