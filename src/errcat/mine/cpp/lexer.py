r"""C and C++ source read just enough to find check macros: comments out, literals decoded.

:func:`blank_comments` replaces comments by spaces (newlines kept, so offsets
and line numbers stay true); :func:`read_string` decodes one string literal
(ordinary, prefixed, raw) at an offset; :func:`split_arguments` splits a macro
call's argument text at its top-level commas; :func:`split_operands` splits
an expression at a top-level binary operator (``+`` of a ``std::string``
concatenation, ``<<`` of a stream).

>>> blank_comments('a /* b */ "c // d" // e\nf')
'a         "c // d"     \nf'
>>> read_string(r'"tab\there" rest', 0)
('tab\there', 11)
>>> split_arguments('x.dim() == 2, "must be 2D, got ", x.dim()')
['x.dim() == 2', '"must be 2D, got "', 'x.dim()']
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["STRING_START", "blank_comments", "read_string", "split_arguments", "split_operands"]

#: Where a string literal starts: an optional encoding prefix, an optional R, a quote.
STRING_START = re.compile(r'(?<![\w])(?:u8|[uUL])?R?"')

_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    '"': '"',
    "'": "'",
    "?": "?",
}
_OPEN = {"(": ")", "[": "]", "{": "}"}


def _skip_char_literal(text: str, i: int) -> int:
    """Index past the character literal opening at ``text[i] == "'"``."""
    j = i + 1
    while j < len(text) and text[j] != "'":
        j += 2 if text[j] == "\\" else 1
    return j + 1


def blank_comments(text: str) -> str:
    """``text`` with every ``//`` and ``/* */`` comment replaced by spaces (newlines kept)."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c in '"uULR' and STRING_START.match(text, i):
            _, end = read_string(text, i)
            out.append(text[i:end])
            i = end
        elif c == "'" and (i == 0 or not text[i - 1].isalnum()):
            end = min(_skip_char_literal(text, i), n)
            out.append(text[i:end])
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_string(text: str, i: int) -> tuple[str, int]:
    r"""The value of the string literal starting at ``text[i]`` (prefix included), and its end.

    >>> read_string('R"x(a"b)x" tail', 0)
    ('a"b', 10)
    >>> read_string(r'u8"\x41\101\u00e9"', 0)
    ('AAé', 18)
    """
    m = STRING_START.match(text, i)
    if m is None:
        raise ValueError(f"no string literal at offset {i}")
    j = m.end()
    if "R" in m.group():
        close = text.find("(", j)
        delimiter = text[j:close]
        end = text.find(f'){delimiter}"', close)
        if close < 0 or end < 0:
            return text[j:], len(text)
        return text[close + 1 : end], end + len(delimiter) + 2
    value: list[str] = []
    n = len(text)
    while j < n and text[j] != '"':
        c = text[j]
        if c == "\n":  # an unterminated literal: stop at the line end
            return "".join(value), j
        if c != "\\" or j + 1 >= n:
            value.append(c)
            j += 1
            continue
        e = text[j + 1]
        if e in _ESCAPES:
            value.append(_ESCAPES[e] if e != "0" or not text[j + 2 : j + 3].isdigit() else "")
            j += 2
            if e == "0" and text[j : j + 1].isdigit():  # an octal escape starting with 0
                k = j
                while k < min(n, j + 2) and text[k] in "01234567":
                    k += 1
                value.append(chr(int(text[j - 1 : k], 8)))
                j = k
        elif e == "x":
            k = j + 2
            while k < n and text[k] in "0123456789abcdefABCDEF":
                k += 1
            value.append(chr(int(text[j + 2 : k] or "0", 16)))
            j = k
        elif e in "uU":
            width = 4 if e == "u" else 8
            digits = text[j + 2 : j + 2 + width]
            value.append(chr(int(digits, 16)) if len(digits) == width else "")
            j += 2 + width
        elif e in "1234567":
            k = j + 1
            while k < min(n, j + 4) and text[k] in "01234567":
                k += 1
            value.append(chr(int(text[j + 1 : k], 8)))
            j = k
        elif e == "\n":  # a line continuation inside a literal
            j += 2
        else:
            value.append(e)
            j += 2
    return "".join(value), min(j + 1, n)


def _split_top(text: str, separator: str) -> list[str]:
    """``text`` split where ``separator`` stands outside brackets and literals, stripped.

    A ``+`` next to another ``+`` or before ``=`` (``++``, ``+=``) and a ``<<``
    next to a third ``<`` or before ``=`` do not split.
    """
    args: list[str] = []
    stack: list[str] = []
    start = 0
    i = 0
    n = len(text)
    width = len(separator)
    while i < n:
        c = text[i]
        if c in '"uULR' and STRING_START.match(text, i):
            _, i = read_string(text, i)
            continue
        if c == "'" and (i == 0 or not text[i - 1].isalnum()):
            i = _skip_char_literal(text, i)
            continue
        if c in _OPEN:
            stack.append(_OPEN[c])
        elif stack and c == stack[-1]:
            stack.pop()
        elif not stack and text.startswith(separator, i):
            after = text[i + width : i + width + 1]
            before = text[i - 1 : i] if i else ""
            if separator == "," or (after not in {separator[0], "="} and before != separator[0]):
                args.append(text[start:i].strip())
                start = i + width
                i += width
                continue
            i += width + 1  # ``++``, ``+=``, ``<<<``, ``<<=``: one token, no split
            continue
        i += 1
    tail = text[start:].strip()
    if tail or args:
        args.append(tail)
    return args


def split_arguments(text: str) -> list[str]:
    """The top-level comma-separated arguments of a call's argument text, stripped.

    Commas inside parentheses, brackets, braces and literals do not split; angle
    brackets are not counted (``a < b, c > d`` is two arguments, as the
    preprocessor sees it too).
    """
    return _split_top(text, ",")


def split_operands(text: str, operator: Literal["+", "<<"]) -> list[str]:
    """The operands of ``text`` at its top-level ``operator`` (``+`` or ``<<``), stripped.

    >>> split_operands('oss << "got " << n << (a << b)', "<<")
    ['oss', '"got "', 'n', '(a << b)']
    >>> split_operands("i++ + j", "+")
    ['i++', 'j']
    """
    return _split_top(text, operator)
