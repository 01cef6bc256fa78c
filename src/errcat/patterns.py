r"""Message templates and their regular expressions.

A record's ``errorMessage`` is a template written as in the source f-string
(``"bad value {x!r} for {name}"``); its ``messagePattern`` escapes the literal
text and turns each placeholder into one lazy group ``(.+?)``. This module
converts between the two, finds the literal fragments a pattern requires (the
index uses them to prefilter), and compiles patterns so that a message that was
re-wrapped or re-indented still matches.

>>> template = "DeepEP v2 MoE is not validated for {architecture!r}; see {url}."
>>> template_to_pattern(template)
'DeepEP v2 MoE is not validated for (.+?); see (.+?)\\.'
>>> placeholder_names(template)
['architecture', 'url']
>>> literal_fragments(template_to_pattern(template))
('DeepEP v2 MoE is not validated for ', '; see ', '.')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import regex

from errcat.errors import InvalidPatternError

__all__ = [
    "GROUP",
    "Placeholder",
    "compile_pattern",
    "escape_literal",
    "is_simple_pattern",
    "is_wordless",
    "literal_fragments",
    "parse_template",
    "pattern_pieces",
    "pieces_fullmatch",
    "pieces_inner",
    "pieces_prefix",
    "pieces_truncated",
    "pieces_wordless",
    "placeholder_names",
    "render_template",
    "template_to_pattern",
]

#: The regex every placeholder becomes.
GROUP = "(.+?)"

#: Characters ``messagePattern`` escapes: exactly regex's metacharacters, so that
#: patterns read like the message (``-``, ``;``, spaces and quotes stay as they are).
_META = frozenset(".^$*+?{}[]\\|()")
#: Each metacharacter with a backslash before it, for ``str.translate``.
_ESCAPED = str.maketrans({c: "\\" + c for c in _META})

_CONVERSIONS = frozenset("rsa")
_OPENERS = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True, slots=True)
class Placeholder:
    """One ``{...}`` replacement field of a template.

    ``expr`` is the expression as written (``sorted(validated)``), ``conversion``
    the ``!r``/``!s``/``!a`` letter or ``""``, ``spec`` the format spec after ``:``,
    and ``debug`` is true for the ``{expr=}`` form, which also prints ``expr=``.
    """

    expr: str
    conversion: str = ""
    spec: str = ""
    debug: bool = False


def _scan_string(text: str, i: int) -> int:
    """Return the index just past the string literal starting at ``text[i]``."""
    quote = text[i]
    triple = text.startswith(quote * 3, i)
    end_quote = quote * 3 if triple else quote
    j = i + len(end_quote)
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text.startswith(end_quote, j):
            return j + len(end_quote)
        j += 1
    return len(text)


def _scan_field(template: str, start: int) -> tuple[Placeholder, int] | None:
    """Parse the replacement field opening at ``template[start] == "{"``.

    Returns the placeholder and the index past its closing brace, or ``None``
    when the brace is not the start of a well-formed field (it is then literal).
    """
    i = start + 1
    n = len(template)
    stack: list[str] = []
    expr_end = -1
    conversion = ""
    while i < n:
        c = template[i]
        if c in "'\"":
            i = _scan_string(template, i)
            continue
        if c in _OPENERS:
            stack.append(_OPENERS[c])
        elif stack and c == stack[-1]:
            stack.pop()
        elif not stack:
            if c == "}":
                expr_end = i
                break
            if c == "!" and i + 1 < n and template[i + 1] in _CONVERSIONS:
                after = template[i + 2] if i + 2 < n else ""
                if after in {":", "}"}:
                    expr_end = i
                    conversion = template[i + 1]
                    i += 2
                    break
            if c == ":":
                expr_end = i
                break
        i += 1
    if expr_end < 0:
        return None
    expr = template[start + 1 : expr_end].strip()
    if not expr:
        return None
    spec = ""
    if i < n and template[i] == ":":
        depth = 0
        j = i + 1
        while j < n:
            if template[j] == "{":
                depth += 1
            elif template[j] == "}":
                if depth == 0:
                    break
                depth -= 1
            j += 1
        if j >= n:
            return None
        spec = template[i + 1 : j]
        i = j
    if i >= n or template[i] != "}":
        return None
    debug = expr.endswith("=") and not expr.endswith(("==", "!=", "<=", ">="))
    if debug:
        expr = expr[:-1].rstrip()
    return Placeholder(expr, conversion, spec, debug), i + 1


@lru_cache(maxsize=4096)
def parse_template(template: str) -> tuple[tuple[str, ...], tuple[Placeholder, ...]]:
    """Split a template into its literal parts and its placeholders.

    There is always one more literal part than placeholders. ``{{`` and ``}}``
    are literal braces; a brace that does not open a well-formed field is kept
    as literal text.

    >>> parse_template("got {n:>3} of {{total}} {items!r}")
    (('got ', ' of {total} ', ''), (Placeholder(expr='n', conversion='', spec='>3', debug=False), Placeholder(expr='items', conversion='r', spec='', debug=False)))
    """  # noqa: E501
    literals: list[str] = []
    fields: list[Placeholder] = []
    buf: list[str] = []
    i = 0
    n = len(template)
    while i < n:
        c = template[i]
        if c == "{":
            if template.startswith("{{", i):
                buf.append("{")
                i += 2
                continue
            parsed = _scan_field(template, i)
            if parsed is None:
                buf.append(c)
                i += 1
                continue
            field, i = parsed
            if field.debug:
                buf.append(f"{field.expr}=")
            literals.append("".join(buf))
            buf = []
            fields.append(field)
            continue
        if c == "}" and template.startswith("}}", i):
            buf.append("}")
            i += 2
            continue
        buf.append(c)
        i += 1
    literals.append("".join(buf))
    return tuple(literals), tuple(fields)


def placeholder_names(template: str) -> list[str]:
    """The placeholder expressions of a template, in order (conversions and specs dropped).

    >>> placeholder_names("{a!r} and {sorted(b)} and {c:.2f}")
    ['a', 'sorted(b)', 'c']
    """
    return [field.expr for field in parse_template(template)[1]]


def escape_literal(text: str) -> str:
    r"""Escape regex metacharacters the way ``messagePattern`` does.

    >>> escape_literal("a (b). c-d; e")
    'a \\(b\\)\\. c-d; e'
    """
    return text.translate(_ESCAPED)


def template_to_pattern(template: str) -> str:
    """Build the ``messagePattern`` of a template: escaped literals, one ``(.+?)`` per field.

    >>> template_to_pattern("x must be {dtype}, got {x.dtype}")
    'x must be (.+?), got (.+?)'
    """
    literals, fields = parse_template(template)
    out = [escape_literal(literals[0])]
    for field, literal in zip(fields, literals[1:], strict=True):
        del field
        out.append(GROUP)
        out.append(escape_literal(literal))
    return "".join(out)


def render_template(template: str, values: Mapping[str, str] | Sequence[str]) -> str:
    """Fill a template's placeholders with given strings (by name or in order).

    >>> render_template("bad {x!r} in {y}", {"x": "'a'", "y": "b.py"})
    "bad 'a' in b.py"
    >>> render_template("bad {x!r} in {y}", ["1", "2"])
    'bad 1 in 2'
    """
    literals, fields = parse_template(template)
    out = [literals[0]]
    for index, (field, literal) in enumerate(zip(fields, literals[1:], strict=True)):
        if isinstance(values, Mapping):
            out.append(values[field.expr])
        else:
            out.append(values[index])
        out.append(literal)
    return "".join(out)


_ESCAPED_WHITESPACE = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", " ": " "}
_QUANTIFIER_START = frozenset("*+?{")
_QUANTIFIER = regex.compile(r"\{\d*,?\d*\}")


def _skip_class(pattern: str, i: int) -> int:
    """Index past the character class starting at ``pattern[i] == "["``."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern):
        if pattern[j] == "\\":
            j += 2
            continue
        if pattern[j] == "[":  # nested set (regex V1) or a literal bracket
            j = _skip_class(pattern, j)
            continue
        if pattern[j] == "]":
            return j + 1
        j += 1
    return len(pattern)


def _skip_group(pattern: str, i: int) -> int:
    """Index past the group starting at ``pattern[i] == "("``."""
    depth = 0
    j = i
    while j < len(pattern):
        c = pattern[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            j = _skip_class(pattern, j)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return len(pattern)


def _quantifier_at(pattern: str, i: int) -> int:
    """Length of the quantifier at ``pattern[i]`` (0 when there is none)."""
    if i >= len(pattern) or pattern[i] not in _QUANTIFIER_START:
        return 0
    if pattern[i] == "{":
        m = _QUANTIFIER.match(pattern, i)
        if m is None or m.group() == "{}" or m.group() == "{,}":
            return 0
        length = m.end() - i
    else:
        length = 1
    if i + length < len(pattern) and pattern[i + length] in "?+":
        length += 1  # lazy or possessive modifier
    return length


@dataclass(frozen=True, slots=True)
class _Token:
    text: str  # the pattern source of the token
    literal: str | None  # the character it matches literally, or None
    top_level_bar: bool = False


def _tokens(pattern: str) -> list[_Token]:
    """Split a pattern into atoms (with their quantifiers attached)."""
    tokens: list[_Token] = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        start = i
        literal: str | None = None
        if c == "\\":
            nxt = pattern[i + 1] if i + 1 < n else ""
            if nxt in _ESCAPED_WHITESPACE:
                literal = _ESCAPED_WHITESPACE[nxt]
            elif nxt and not nxt.isalnum():
                literal = nxt
            i += 2
        elif c == "[":
            i = _skip_class(pattern, i)
        elif c == "(":
            i = _skip_group(pattern, i)
        elif c == "|":
            tokens.append(_Token(c, None, top_level_bar=True))
            i += 1
            continue
        elif c in ".^$":
            i += 1
        else:
            literal = c
            i += 1
        q = _quantifier_at(pattern, i)
        if q:
            literal = None  # a quantified atom is not required text
            i += q
        tokens.append(_Token(pattern[start:i], literal))
    return tokens


_TWO_LETTERS = re.compile(r"[^\W\d_]{2}")


def is_wordless(pattern: str) -> bool:
    r"""Whether a template's pattern has no word in its literal text (``{msg}``, ``{a}: {b}``).

    Such a pattern matches nearly any message: no text can tell its records
    apart, only a traceback frame at one's raise line. A hand-written regex is
    never wordless (its words are not read).

    >>> is_wordless("(.+?)"), is_wordless("(.+?): (.+?)"), is_wordless("bad value (.+?)")
    (True, True, False)
    >>> is_wordless(r"\w+|\d+")
    False
    """
    pieces = pattern_pieces(pattern)
    return pieces is not None and pieces_wordless(pieces)


def pieces_wordless(pieces: Sequence[str]) -> bool:
    """:func:`is_wordless` for a pattern's :func:`pattern_pieces` (already split).

    >>> pieces_wordless(("", ": ", "")), pieces_wordless(("bad value ", ""))
    (True, False)
    """
    return not any(_TWO_LETTERS.search(piece) for piece in pieces)


@lru_cache(maxsize=65536)
def literal_fragments(pattern: str) -> tuple[str, ...]:
    r"""The runs of literal text every match of ``pattern`` must contain, in order.

    Whitespace runs are folded to one space (messages are compared with their
    whitespace folded). A pattern with a top-level alternation requires no
    particular text, so it has no fragments.

    >>> literal_fragments(r"bad value (.+?) for \w+ in (.+?)\.")
    ('bad value ', ' for ', ' in ', '.')
    >>> literal_fragments("a|b")
    ()
    """
    tokens = _tokens(pattern)
    if any(t.top_level_bar for t in tokens):
        return ()
    fragments: list[str] = []
    buf: list[str] = []
    for token in tokens:
        if token.literal is None:
            if buf:
                fragments.append("".join(buf))
                buf = []
            continue
        buf.append(token.literal)
    if buf:
        fragments.append("".join(buf))
    folded = [regex.sub(r"\s+", " ", f) for f in fragments]
    # Messages are compared stripped: whitespace at the very ends is not required.
    if folded and tokens[0].literal is not None:
        folded[0] = folded[0].lstrip()
    if folded and tokens[-1].literal is not None:
        folded[-1] = folded[-1].rstrip()
    return tuple(f for f in folded if f.strip())


def literal_length(pattern: str) -> int:
    """Number of literal characters a match of ``pattern`` must contain.

    >>> literal_length("ab (.+?) c")
    5
    """
    return sum(len(f) for f in literal_fragments(pattern))


def _whitespace_tolerant(pattern: str, *, search: bool) -> str:
    r"""Rewrite a pattern so that any run of literal whitespace matches ``\s+``.

    In ``search`` mode (the pattern is looked for inside a longer message) a
    leading group is narrowed to one non-blank token so that it cannot swallow
    the text before the message (``ValueError: ``, a log prefix).
    """
    tokens = _tokens(pattern)
    out: list[str] = []
    pending_ws = False
    for index, token in enumerate(tokens):
        if token.literal is not None and token.literal.isspace():
            pending_ws = True
            continue
        if pending_ws:
            # Whitespace at the very start is dropped: messages are compared stripped.
            if out:
                out.append(r"\s+")
            pending_ws = False
        if search and index == 0 and token.text == GROUP:
            out.append(r"(\S+?)")
        else:
            out.append(token.text)
    # Trailing whitespace is dropped for the same reason (and so that a match's
    # span ends with its last literal, as the regex-free verifier's does).
    return "".join(out)


class CompiledPattern:
    """A ``messagePattern`` compiled for matching (see :func:`compile_pattern`).

    ``full`` is used with ``fullmatch``/``match``/partial matching on a whole
    message; ``inner`` is searched inside a longer message and must end at the
    message's end (closing quotes and punctuation aside), so a trailing
    placeholder captures the rest of the message rather than one character.
    ``inner`` is compiled on first use: it costs twice what ``full`` does, and
    most callers (a cut-off text's check, a raise site's template) never ask.
    """

    __slots__ = ("_inner", "full", "groups", "source")

    def __init__(self, source: str, full: regex.Pattern[str]) -> None:
        """Wrap ``full``, compiled from ``source``."""
        self.source = source
        self.full = full
        self.groups: int = full.groups
        self._inner: regex.Pattern[str] | None = None

    def __repr__(self) -> str:
        """The pattern it was compiled from."""
        return f"CompiledPattern({self.source!r})"

    @property
    def inner(self) -> regex.Pattern[str]:
        """The pattern as searched inside a longer message (compiled on first use)."""
        if self._inner is None:
            inner_src = _whitespace_tolerant(self.source, search=True)
            self._inner = regex.compile(rf"(?:{inner_src})(?=[\s'\"`)\]}}>.,;:!]*\Z)", regex.DOTALL)
        return self._inner


@lru_cache(maxsize=8192)
def compile_pattern(pattern: str) -> CompiledPattern:
    r"""Compile a ``messagePattern`` whitespace-tolerantly, with ``.`` matching newlines.

    >>> cp = compile_pattern("not validated for (.+?); supported are (.+?)\\.")
    >>> cp.full.fullmatch("not validated for 'X';\n   supported are ['a', 'b'].").groups()
    ("'X'", "['a', 'b']")
    >>> cp.inner.search("Worker failed: not validated for 'X'; supported are [].'").groups()
    ("'X'", '[]')
    """
    try:
        full = regex.compile(_whitespace_tolerant(pattern, search=False), regex.DOTALL)
    except regex.error as exc:
        raise InvalidPatternError(f"Invalid pattern {pattern!r}: {exc}") from None
    return CompiledPattern(pattern, full)


#: A pattern made only of literal characters, escaped punctuation and ``(.+?)`` groups.
_SIMPLE = re.compile(r"(?:[^\\()\[\]{}.^$|*+?]|\\[^A-Za-z0-9]|\(\.\+\?\))*")
_SIMPLE_PIECE = re.compile(r"(?:[^\\()\[\]{}.^$|*+?]|\\[^A-Za-z0-9])*")
_META_CHAR = re.compile(r"[\\()\[\]{}.^$|*+?]")
_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)


def _escaped_char(match: re.Match[str]) -> str:
    return match.group(1)


_RUN_OF_SPACE = re.compile(r"\s+")
_ODD_SPACE = re.compile(r"\s\s|[^\S ]")


def is_simple_pattern(pattern: str) -> bool:
    r"""True for patterns made of literal text, escaped punctuation and ``(.+?)`` only.

    Such a pattern always compiles and can be matched without a regex engine.

    >>> is_simple_pattern(r"bad (.+?) in \(x\)"), is_simple_pattern(r"\d+")
    (True, False)
    """
    return _SIMPLE.fullmatch(pattern) is not None


@lru_cache(maxsize=65536)
def pattern_pieces(pattern: str) -> tuple[str, ...] | None:
    r"""The literal text around each ``(.+?)`` of a simple pattern, whitespace folded.

    Simple means literal text, escaped punctuation and ``(.+?)`` groups only,
    which is what :func:`template_to_pattern` writes. Other patterns give None
    and are verified by their regex.

    >>> pattern_pieces(r"bad value (.+?) for (.+?)\.")
    ('bad value ', ' for ', '.')
    >>> pattern_pieces(r"bad \d+") is None
    True
    """
    # Piece by piece, the same test as is_simple_pattern (a simple pattern's "(.+?)" are
    # all groups), the common piece, without a backslash, by one scan for a metacharacter.
    pieces = []
    for raw in pattern.split(GROUP):
        if "\\" in raw:
            if not _SIMPLE_PIECE.fullmatch(raw):
                return None
            piece = _UNESCAPE.sub(_escaped_char, raw)
        elif _META_CHAR.search(raw):
            return None
        else:
            piece = raw
        if ("  " in piece or not piece.isprintable()) and _ODD_SPACE.search(piece):
            # (only a double space or a non-printable character can be odd space)
            piece = _RUN_OF_SPACE.sub(" ", piece)
        pieces.append(piece)
    pieces[0] = pieces[0].lstrip()
    pieces[-1] = pieces[-1].rstrip()
    return tuple(pieces)


def pieces_fullmatch(pieces: Sequence[str], text: str) -> tuple[str, ...] | None:
    """Captures of a simple pattern matching all of a folded ``text``, or None.

    The same result as the compiled pattern's ``fullmatch``: lazy groups take
    the leftmost occurrence of each following literal, the last group takes
    what remains before the final literal.

    >>> pieces_fullmatch(("bad ", " for ", "."), "bad x for y.z.")
    ('x', 'y.z')
    """
    first = pieces[0]
    if not text.startswith(first):
        return None
    if len(pieces) == 1:
        return () if len(text) == len(first) else None
    last = pieces[-1]
    end = len(text) - len(last)
    if not text.endswith(last):
        return None
    position = len(first)
    groups = []
    for piece in pieces[1:-1]:
        found = text.find(piece, position + 1, end)
        if found < 0:
            return None
        groups.append(text[position:found])
        position = found + len(piece)
    if end - position < 1:
        return None
    groups.append(text[position:end])
    return tuple(groups)


def pieces_prefix(pieces: Sequence[str], text: str) -> tuple[tuple[str, ...], int] | None:
    """Captures and end of a simple pattern matching the start of ``text`` (like ``match``).

    Only patterns that end in literal text can match a prefix without matching
    the whole text, so patterns ending in a group give None.

    >>> pieces_prefix(("bad ", " for ", "."), "bad x for y. Current value: 3")
    (('x', 'y'), 12)
    """
    first = pieces[0]
    if not text.startswith(first):
        return None
    if len(pieces) == 1:
        return (), len(first)
    if not pieces[-1]:
        return None
    position = len(first)
    groups = []
    for piece in pieces[1:]:
        found = text.find(piece, position + 1)
        if found < 0:
            return None
        groups.append(text[position:found])
        position = found + len(piece)
    return tuple(groups), position


def pieces_truncated(pieces: Sequence[str], text: str) -> bool:
    """Whether ``text`` is a cut-off rendering of a simple pattern: a proper start of a match.

    The same answer as the compiled pattern's ``fullmatch(text, partial=True)``
    being a partial match, without compiling it: a placeholder can take any
    text, so once the first literal is there, whatever follows can be the
    start of the rest, unless it already is a whole match.

    >>> pieces_truncated(("shard ", " of ", " is missing."), "shard 3 of 8 is mis")
    True
    >>> pieces_truncated(("shard ", " of ", " is missing."), "shard 3 of 8 is missing.")
    False
    >>> (
    ...     pieces_truncated(("shard ", " of ", " is missing."), "shar"),
    ...     pieces_truncated(("shard",), "x"),
    ... )
    (True, False)
    """
    first = pieces[0]
    if not text.startswith(first):
        return first.startswith(text)  # cut inside the first literal
    return len(pieces) > 1 and pieces_fullmatch(pieces, text) is None


#: What may follow a message quoted inside a longer one: closing quotes, brackets,
#: punctuation and spaces (the lookahead of :attr:`CompiledPattern.inner`).
INNER_TRAIL = " \t\n\r\f\v'\"`)]}>.,;:!"


def inner_tail_possible(pieces: Sequence[str], text: str) -> bool:
    """A cheap necessary condition for ``inner``: the last literal ends the message.

    >>> inner_tail_possible(("a ", " b."), "x: a 1 b.'")
    True
    >>> inner_tail_possible(("a ", " b."), "x: a 1 b. and more")
    False
    """
    last = pieces[-1].rstrip(INNER_TRAIL)
    return text.rstrip(INNER_TRAIL).endswith(last)


def pieces_inner(pieces: Sequence[str], text: str) -> tuple[tuple[str, ...], int, int] | None:
    """Captures, start and end of a simple pattern found at the end of a longer message.

    The same result as ``compile_pattern(p).inner.search(text)`` for a pattern
    that starts with literal text: with placeholders, the leftmost occurrence of
    the first literal (the last placeholder stretches to the end, so a later
    start cannot fit more), lazy groups up to the leftmost following literals,
    and a match that ends where only closing punctuation remains; without
    placeholders, the leftmost occurrence that reaches that end.

    >>> pieces_inner(("shard ", " missing"), "worker 3: shard 7 missing.'")
    (('7',), 10, 25)
    """
    first = pieces[0]
    if not first:
        raise ValueError("pieces_inner needs a pattern that starts with literal text")
    tail = len(text.rstrip(INNER_TRAIL))
    if len(pieces) == 1:
        # No placeholder: the occurrence must itself reach the end of the message.
        found = text.find(first, max(0, tail - len(first)))
        return ((), found, found + len(first)) if found >= 0 else None
    start = text.find(first)
    if start < 0:
        return None
    return _groups_to_end(pieces[1:], text, start, start + len(first), groups=[], tail=tail)


def _groups_to_end(
    rest: Sequence[str], text: str, start: int, position: int, *, groups: list[str], tail: int
) -> tuple[tuple[str, ...], int, int] | None:
    """The lazy groups from ``position`` up to each literal of ``rest``, the last at the end.

    ``rest`` is what follows a placeholder: the literals between the later
    placeholders, then the last literal (empty when the pattern ends with one).
    ``groups`` holds the captures so far; the match started at ``start``.
    """
    for piece in rest[:-1]:
        found = text.find(piece, position + 1)
        if found < 0:
            return None
        groups.append(text[position:found])
        position = found + len(piece)
    last = rest[-1]
    if not last:
        end = max(position + 1, tail)
        if end > len(text):
            return None
        groups.append(text[position:end])
        return tuple(groups), start, end
    found = text.find(last, max(position + 1, tail - len(last)))
    if found < 0:
        return None
    groups.append(text[position:found])
    return tuple(groups), start, found + len(last)


def pieces_inner_lead(pieces: Sequence[str], text: str) -> tuple[tuple[str, ...], int, int] | None:
    r""":func:`pieces_inner` for a pattern that opens with ``(.+?)``, on a folded ``text``.

    The same result as ``compile_pattern(p).inner.search(text)``, whose leading
    group is one non-blank token (``(\S+?)``), without the regex (whose search
    tries every start and every split, slow on a long message). Where a start
    works, the start of its token works too, and the leftmost occurrence of each
    literal leaves the most room for the rest: the first token whose shortest
    split completes is the match.

    >>> pieces_inner_lead(("", " is missing"), "worker 3: shard7 is missing.'")
    (('shard7',), 10, 27)
    >>> pieces_inner_lead(("", ""), "failed: gone.")
    (('gone',), 8, 12)
    """
    if len(pieces) < 2 or pieces[0]:
        raise ValueError("pieces_inner_lead needs a pattern that starts with a placeholder")
    tail = len(text.rstrip(INNER_TRAIL))
    size = len(text)
    start = 0
    while start < size:
        if text[start] == " ":
            start += 1
            continue
        blank = text.find(" ", start)
        token_end = size if blank < 0 else blank  # the leading group ends by here
        found = _lead_from(pieces, text, start, token_end, tail)
        if found is not None:
            return found
        start = token_end + 1
    return None


def _lead_from(
    pieces: Sequence[str], text: str, start: int, token_end: int, tail: int
) -> tuple[tuple[str, ...], int, int] | None:
    """The match of :func:`pieces_inner_lead` starting at ``start``, if any."""
    first = pieces[1]
    if len(pieces) == 2:
        # The leading group is the only one: it (and the literal after it) ends the message.
        if not first:
            end = max(start + 1, tail)
            return ((text[start:end],), start, end) if end <= token_end else None
        found = text.find(first, max(start + 1, tail - len(first)))
        if found < 0 or found > token_end:
            return None
        return (text[start:found],), start, found + len(first)
    found = text.find(first, start + 1)
    if found < 0 or found > token_end:
        return None
    position = found + len(first)
    return _groups_to_end(pieces[2:], text, start, position, groups=[text[start:found]], tail=tail)
