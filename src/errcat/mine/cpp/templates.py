r"""C++ expressions read as message template text: literals as they are, the rest placeholders.

:func:`message_template` is what ``c10::str(args...)`` (and the kernel
libraries' streams) print; :func:`condition_text` is a condition as ``#cond``
prints it; :func:`literal_pieces` reads an argument made only of string
literals; :func:`name_of` names a placeholder by its expression.

>>> message_template(['"head size "', "head_size", '" is not supported"'])
'head size {head_size} is not supported'
"""

from __future__ import annotations

import re

from errcat.mine.cpp.lexer import STRING_START, read_string, split_arguments, split_operands

__all__ = ["condition_text", "literal", "literal_pieces", "message_template", "name_of"]

_SPACE = re.compile(r"\s+")
_STRINGIZE = re.compile(r"#\s*(\w+)")
_UNSAFE = re.compile(r"[{}:!]")


def name_of(expression: str) -> str:
    r"""A placeholder name for a C++ expression: its text, made safe for a template.

    >>> name_of("at::kBFloat16"), name_of("x->sizes()[0]")
    ('at.kBFloat16', 'x.sizes()[0]')
    """
    text = _SPACE.sub(" ", expression.replace("\\\n", " ")).strip()
    text = text.replace("::", ".").replace("->", ".")
    return _UNSAFE.sub("_", text) or "value"


def literal(text: str) -> str:
    """Literal message text as template text: braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def condition_text(condition: str, params: frozenset[str]) -> str:
    """The condition as ``#cond`` prints it; a macro parameter in it is a placeholder."""
    text = _SPACE.sub(" ", condition).strip()
    if not params:
        return literal(text)
    pieces = re.split(r"(\b\w+\b)", text)
    return "".join("{" + p + "}" if p in params else literal(p) for p in pieces)


def literal_pieces(argument: str, params: frozenset[str]) -> str | None:
    """An argument made only of string literals and ``#param``s as template text, else None."""
    out: list[str] = []
    i = 0
    text = argument.strip()
    while i < len(text):
        if text[i].isspace() or text[i : i + 2] == "\\\n":
            i += 1
            continue
        m = _STRINGIZE.match(text, i)
        if m is not None and m.group(1) in params:
            out.append("{" + m.group(1) + "}")
            i = m.end()
            continue
        if STRING_START.match(text, i):
            value, i = read_string(text, i)
            out.append(literal(value))
            continue
        return None
    return "".join(out) if out else None


_TO_STRING = re.compile(r"^(?:std\s*::\s*)?(?:to_string|string)\s*\((.*)\)$", re.DOTALL)


def operand_text(argument: str, params: frozenset[str]) -> str:
    """One operand as template text: literal text as it is, ``std::to_string(x)`` as ``{x}``."""
    piece = literal_pieces(argument, params)
    if piece is not None:
        return piece
    m = _TO_STRING.match(argument.strip())
    inner = m.group(1) if m is not None else ""
    if inner and split_arguments(inner) == [inner.strip()]:
        return literal_pieces(inner, params) or "{" + name_of(inner) + "}"
    return "{" + name_of(argument) + "}"


def message_template(
    arguments: list[str], params: frozenset[str] = frozenset(), separator: str = ""
) -> str:
    """The message ``c10::str(arguments...)`` prints, as a template.

    An argument that concatenates strings (``"got " + std::to_string(n)``) is
    read operand by operand; ``separator`` goes between arguments (flashinfer's
    checks print them space-separated).

    >>> message_template(['"got "', "n", '" heads"'])
    'got {n} heads'
    >>> message_template(['"size " + std::to_string(n) + " > " + std::to_string(cap)'])
    'size {n} > {cap}'
    """
    parts = []
    for argument in arguments:
        operands = split_operands(argument, "+")
        if len(operands) > 1 and any(literal_pieces(o, params) is not None for o in operands):
            parts.append("".join(operand_text(o, params) for o in operands))
        else:
            parts.append(operand_text(argument, params))
    return separator.join(parts)
