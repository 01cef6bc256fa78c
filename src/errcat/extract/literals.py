"""Reading Python and JSON literals out of pasted text, safely (no evaluation)."""

from __future__ import annotations

import ast
import re
import threading
from typing import Final

from errcat.extract.grammar import _MAX_LITERAL

__all__ = ["literal_eval"]


# Opening quote characters and the closer expected for each.
_QUOTE_PAIRS: Final = {
    '"': '"',
    "'": "'",
    "\u201c": "\u201d",
    "\u2018": "\u2019",
    "\u00ab": "\u00bb",
    "(": ")",
    "[": "]",
}

# Python literal scanning (reprs and dict-shaped HTTP bodies).
_QUOTE_RE: Final = re.compile(r"['\"]")
# A single- or double-quoted string literal on one line.
_SQ_RE: Final = re.compile(r"'(?:[^'\\\n]|\\.)*'")
_DQ_RE: Final = re.compile(r'"(?:[^"\\\n]|\\.)*"')
# A string prefix (r, b, u, f, rb, ...) right before a quote.
_STR_PREFIX_RE: Final = re.compile(r"(?<!\w)[rRbBuUfF]{1,2}\Z")
# What may appear between string literals in a safe literal: punctuation,
# None/True/False and numbers (anything else makes the text non-literal).
_LITERAL_OTHER_RE: Final = re.compile(
    r"(?:\s|[,:()\[\]{}+-]|None(?!\w)|True(?!\w)|False(?!\w)"
    r"|(?:0[xXoObB][0-9a-fA-F_]+|\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][-+]?\d+)?[jJ]?(?![\w.]))*"
)
# A backslash escape inside a string literal.
_ESCAPE_RE: Final = re.compile(
    r"\\(N\{[^}\n]*\}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.)", re.DOTALL
)
# Escapes valid in every string literal (after the backslash).
_SIMPLE_ESCAPES: Final = frozenset("\\'\"abfnrtv\n")

_FAIL: Final = object()  # "not a literal" marker of _parse_literal


def _parse_literal(source: str) -> object:
    """Parse a Python literal safely (never eval, never a warning); ``_FAIL`` when not one."""
    if len(source) > _MAX_LITERAL:
        return _FAIL
    parts: list[str] = []
    pos = 0
    while pos <= len(source):
        quote = _QUOTE_RE.search(source, pos)
        stop = len(source) if quote is None else quote.start()
        other = source[pos:stop]
        prefix = ""
        if quote is not None:
            prefix_match = _STR_PREFIX_RE.search(other)
            if prefix_match is not None:
                prefix = prefix_match.group()
                other = other[: prefix_match.start()]
        if other and _LITERAL_OTHER_RE.fullmatch(other) is None:
            return _FAIL
        parts.append(other)
        if quote is None:
            break
        string = (_SQ_RE if quote.group() == "'" else _DQ_RE).match(source, stop)
        lowered = prefix.lower()
        if string is None or "f" in lowered:
            return _FAIL
        body = string.group()
        if "r" not in lowered and "\\" in body:
            body = _sanitize_escapes(body, is_bytes="b" in lowered)
        parts.append(prefix + body)
        pos = string.end()
    try:
        return literal_eval("".join(parts))
    except Exception:  # syntax, recursion, memory: "not a literal"
        return _FAIL


#: CPython 3.11's AST constructor keeps its recursion depth in shared state, and
#: concurrent calls from threads can fail with "SystemError: AST constructor
#: recursion depth mismatch" (python/cpython#106905): one call at a time.
_AST_LOCK = threading.Lock()


def literal_eval(source: str) -> object:
    """:func:`ast.literal_eval`, safe to call from several threads at once.

    >>> literal_eval("('a', 3)")
    ('a', 3)
    """
    with _AST_LOCK:
        return ast.literal_eval(source)


def _sanitize_escapes(body: str, *, is_bytes: bool) -> str:
    """Double the backslash of escapes Python would warn about (keeping their meaning)."""

    def fix(match: re.Match[str]) -> str:
        escape = match.group(1)
        first = escape[:1]
        if first in _SIMPLE_ESCAPES:
            return match.group()
        if first.isdigit():
            return match.group() if int(escape, 8) <= 0o377 else "\\" + match.group()
        if len(escape) > 1 and (first == "x" or (not is_bytes and first in "uUN")):
            return match.group()
        return "\\" + match.group()

    return _ESCAPE_RE.sub(fix, body)
