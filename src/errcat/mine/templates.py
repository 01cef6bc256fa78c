"""Message templates as data: literal runs and placeholders, with their algebra.

A template is a tuple of parts, each a literal string or a :class:`_Field`
(a placeholder); a message with several static variants is a tuple of
templates (``_Alts``). Templates are concatenated, multiplied out and
deduplicated here, and rendered in the f-string ``{expr}`` form that
:func:`errcat.patterns.parse_template` reads back.

>>> _render(("bad value ", _Field("x", "r"), " {here}"))
'bad value {x!r} {{here}}'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from errcat.patterns import parse_template

_MAX_VARIANTS = 16
_WORD = re.compile(r"[^\W\d_]{2}")
_PERCENT_SPEC = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?"
    r"(?:\.(?P<prec>\*|\d*))?[hlL]?(?P<type>[diouxXeEfFgGcrsa%])"
)
_FORMAT_HEAD = re.compile(r"[^.\[]*")
_CONVERSIONS = {-1: "", 115: "s", 114: "r", 97: "a"}
_NO_MATCH: Any = object()


@dataclass(frozen=True, slots=True)
class _Field:
    """A placeholder of a template being built.

    ``ref`` names what the placeholder reads directly, when that is a plain name
    not assigned in the function (a parameter or a global) or ``self.attr``;
    a class's message is specialised by substituting the call's arguments for it.
    """

    expr: str
    conversion: str = ""
    spec: str = ""
    ref: str | None = None


#: The ``ref`` of the placeholder ``super().__str__()`` makes in a class's ``__str__``:
#: the message the exception was given, which the resolver fills in per call.
BASE_STR = "<super().__str__()>"

_Part = str | _Field
_Template = tuple[_Part, ...]
_Alts = tuple[_Template, ...]


class _TooManyVariantsError(Exception):
    """A message has more static variants than :data:`_MAX_VARIANTS`."""


def _concat(a: _Template, b: _Template) -> _Template:
    if not a:
        return b
    if not b:
        return a
    last, first = a[-1], b[0]
    if isinstance(last, str) and isinstance(first, str):
        return (*a[:-1], last + first, *b[1:])
    return a + b


def _normalise(template: _Template) -> _Template:
    out: _Template = ()
    for part in template:
        if part == "":
            continue
        out = _concat(out, (part,))
    return out


def _dedupe(alts: Iterable[_Template]) -> _Alts:
    result = tuple(dict.fromkeys(_normalise(t) for t in alts))
    if len(result) > _MAX_VARIANTS:
        raise _TooManyVariantsError
    return result


def _product(pieces: Sequence[_Alts]) -> _Alts:
    result: list[_Template] = [()]
    for alts in pieces:
        result = [_concat(r, a) for r in result for a in alts]
        if len(result) > _MAX_VARIANTS:
            result = list(_dedupe(result))
    return _dedupe(result)


def _literal_text(template: _Template) -> str | None:
    """The text of a template without placeholders, else ``None``."""
    if all(isinstance(p, str) for p in template):
        return "".join(p for p in template if isinstance(p, str))
    return None


def _escape_braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _render_field(f: _Field) -> str:
    expr = f.expr
    if expr.startswith("{"):
        expr = " " + expr
    out = "{" + expr
    if f.conversion:
        out += "!" + f.conversion
    if f.spec:
        out += ":" + f.spec
    return out + "}"


def _render(template: _Template) -> str:
    return "".join(_escape_braces(p) if isinstance(p, str) else _render_field(p) for p in template)


def _strip_edges(template: _Template) -> _Template:
    parts = list(template)
    if parts and isinstance(parts[0], str):
        parts[0] = parts[0].lstrip()
    if parts and isinstance(parts[-1], str):
        parts[-1] = parts[-1].rstrip()
    return _normalise(tuple(parts))


def _literals(template: _Template) -> list[str]:
    """The literal runs between the placeholders (one more than there are placeholders)."""
    out = [""]
    for part in template:
        if isinstance(part, str):
            out[-1] += part
        else:
            out.append("")
    return out


def _has_static_text(template: _Template) -> bool:
    """Whether some literal run of a template holds a word (two letters in a row)."""
    return any(_WORD.search(literal) for literal in _literals(template))


def _round_trips(template: _Template, text: str) -> bool:
    literals, fields = parse_template(text)
    return list(literals) == _literals(template) and len(fields) == sum(
        isinstance(p, _Field) for p in template
    )


def _paren(expr: str) -> str:
    return expr if expr.isidentifier() or expr.replace(".", "").isidentifier() else f"({expr})"


def _format_rest(rest: str) -> str:
    """``.attr[key]`` of a ``str.format`` field name, with string keys quoted."""
    return re.sub(
        r"\[([^\]]*)\]",
        lambda m: f"[{m.group(1)}]" if m.group(1).isdigit() else f"[{m.group(1)!r}]",
        rest,
    )


def _percent_to_format(m: re.Match[str]) -> tuple[str, str]:
    """The conversion and format spec of a ``%`` directive."""
    kind = m["type"]
    flags = m["flags"].replace("-", "<")
    width = m["width"] if m["width"] and m["width"] != "*" else ""
    prec = f".{m['prec']}" if m["prec"] and m["prec"] != "*" else ""
    if kind in "rsa":
        conversion = "" if kind == "s" else kind
        return conversion, f"{flags}{width}{prec}" if (width or prec) else ""
    if kind in "diu":
        kind = "d" if (flags or width or prec) else ""
    spec = f"{flags}{width}{prec}{kind}"
    return "", spec
