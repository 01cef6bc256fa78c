r"""Reading a pattern's structure for constructs that backtrack badly.

A small recursive-descent reader of the regex syntax turns a pattern into
atoms with their quantifiers; :func:`pattern_risks` walks them.

>>> [risk.kind for risk in pattern_risks(r"(\w+\s?)+$")]
['nested-quantifier']
>>> [risk.kind for risk in pattern_risks(r"at most (.+?) (.+?) headers")]
['adjacent-quantifiers']
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import regex

from errcat.lint.findings import Level
from errcat.patterns import GROUP, _skip_class, _skip_group, pattern_pieces

__all__ = [
    "Node",
    "PatternRisk",
    "cached_risks",
    "is_blank",
    "is_zero_width",
    "parsed_pattern",
    "pattern_risks",
    "quoted",
    "unbounded",
]

# --- the structure of a pattern ---------------------------------------------------------------

_SAMPLE_CHARS = string.ascii_letters[:3] + "Z_0 9\t\n" + string.punctuation + "é€\x00"
_SAMPLE_SET = frozenset(_SAMPLE_CHARS)
_ZERO_WIDTH_ESCAPES = frozenset("bBAZzGK")
_SET_ESCAPES = frozenset("dDwWsShHvVXRpPN")
_ESCAPED_CHARS = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "e": "\x1b"}
_FLAG_CHARS = frozenset("aiLmsuxwVfbrep0123456789-")


@dataclass(frozen=True, slots=True)
class Node:
    """One atom of a pattern with its quantifier (``maximum`` None: unbounded)."""

    kind: str  # literal, set, any, group, anchor, lookaround, backref, recursion, conditional
    source: str  # the atom as written, without its quantifier
    minimum: int = 1
    maximum: int | None = 1
    possessive: bool = False
    atomic: bool = False
    branches: tuple[tuple[Node, ...], ...] = ()
    quantifier: str = ""  # as written: "+?", "{2,}", ...

    def with_quantifier(
        self, minimum: int, maximum: int | None, possessive: bool, text: str
    ) -> Node:
        """The same atom with another quantifier."""
        return Node(
            self.kind,
            self.source,
            minimum,
            maximum,
            possessive,
            self.atomic,
            self.branches,
            text,
        )

    @property
    def text(self) -> str:
        """The atom and its quantifier, as written."""
        return self.source + self.quantifier


class _PatternParser:
    """A small recursive-descent reader of the regex syntax patterns use."""

    _QUANT = regex.compile(r"\{(\d*)(,?)(\d*)\}")

    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.i = 0

    def parse(self) -> tuple[tuple[Node, ...], ...]:
        branches = self._alternation()
        while self.i < len(self.p):  # an unbalanced ")" (the pattern compiled, so unlikely)
            self.i += 1
            branches += self._alternation()
        return branches

    def _alternation(self) -> tuple[tuple[Node, ...], ...]:
        branches: list[list[Node]] = [[]]
        while self.i < len(self.p):
            c = self.p[self.i]
            if c == ")":
                break
            if c == "|":
                branches.append([])
                self.i += 1
                continue
            node = self._atom()
            if node is not None:
                branches[-1].append(self._quantified(node))
        return tuple(tuple(b) for b in branches)

    def _quantified(self, node: Node) -> Node:
        p, i = self.p, self.i
        if i >= len(p):
            return node
        c = p[i]
        minimum: int
        maximum: int | None
        if c == "*":
            minimum, maximum, i = 0, None, i + 1
        elif c == "+":
            minimum, maximum, i = 1, None, i + 1
        elif c == "?":
            minimum, maximum, i = 0, 1, i + 1
        elif c == "{" and (m := self._QUANT.match(p, i)) and m.group() not in {"{}", "{,}"}:
            low, comma, high = m.groups()
            minimum = int(low) if low else 0
            maximum = int(high) if high else (None if comma else minimum)
            i = m.end()
        else:
            return node
        possessive = False
        if i < len(p) and p[i] in "?+":
            possessive = p[i] == "+"
            i += 1
        text = p[self.i : i]
        self.i = i
        return node.with_quantifier(minimum, maximum, possessive, text)

    def _atom(self) -> Node | None:
        p = self.p
        start = self.i
        c = p[start]
        if c == "\\":
            return self._escape()
        if c == "[":
            self.i = _skip_class(p, start)
            return Node("set", p[start : self.i])
        if c == "(":
            return self._group()
        self.i += 1
        if c == ".":
            return Node("any", c)
        if c in "^$":
            return Node("anchor", c)
        return Node("literal", c)

    def _escape(self) -> Node:
        p = self.p
        start = self.i
        nxt = p[start + 1] if start + 1 < len(p) else ""
        self.i = start + 2
        if nxt in "123456789":
            while self.i < len(p) and p[self.i].isdigit():
                self.i += 1
            return Node("backref", p[start : self.i])
        if nxt == "g" and self.i < len(p) and p[self.i] == "<":
            self.i = p.find(">", self.i) + 1 or len(p)
            return Node("backref", p[start : self.i])
        if nxt in _ZERO_WIDTH_ESCAPES:
            return Node("anchor", p[start : self.i])
        if nxt in "pPN" and self.i < len(p) and p[self.i] == "{":
            self.i = p.find("}", self.i) + 1 or len(p)
            return Node("set", p[start : self.i])
        if nxt in "pP":  # \pL
            self.i = min(len(p), self.i + 1)
            return Node("set", p[start : self.i])
        if nxt in "xuU0":
            width = {"x": 2, "u": 4, "U": 8, "0": 2}[nxt]
            while self.i < len(p) and self.i < start + 2 + width and p[self.i] in string.hexdigits:
                self.i += 1
            return Node("literal", p[start : self.i])
        if nxt in _SET_ESCAPES:
            return Node("set", p[start : self.i])
        return Node("literal", p[start : self.i])

    def _group(self) -> Node | None:
        p = self.p
        start = self.i
        rest = p[start + 1 : start + 4]
        kind = "group"
        atomic = False
        if rest.startswith("?#"):
            self.i = p.find(")", start) + 1 or len(p)
            return None
        if rest.startswith("?"):
            head = p[start + 2 : start + 4]
            if head[:1] in {"=", "!"} or head in {"<=", "<!"}:
                kind = "lookaround"
                self.i = start + 2 + (1 if head[:1] in {"=", "!"} else 2)
            elif head.startswith("P="):
                self.i = p.find(")", start) + 1 or len(p)
                return Node("backref", p[start : self.i])
            elif head[:1] in {"R", "&"} or head.startswith("P>") or head[:1] in "0123456789+-":
                if head[:1] in "-" and len(head) > 1 and not head[1].isdigit():
                    return self._flags(start)
                self.i = p.find(")", start) + 1 or len(p)
                return Node("recursion", p[start : self.i])
            elif head.startswith("("):
                self.i = _skip_group(p, start)
                return Node("conditional", p[start : self.i])
            elif head.startswith(("P<", "<")):
                self.i = p.find(">", start) + 1 or len(p)
            elif head[:1] in {":", "|"}:
                self.i = start + 3
            elif head[:1] == ">":
                atomic = True
                self.i = start + 3
            else:
                return self._flags(start)
        else:
            self.i = start + 1
        branches = self._alternation()
        self.i = min(len(p), self.i + 1)  # the closing parenthesis
        return Node(kind, p[start : self.i], atomic=atomic, branches=branches)

    def _flags(self, start: int) -> Node | None:
        """``(?i)`` sets flags (no atom); ``(?i:...)`` is a group."""
        p = self.p
        j = start + 2
        while j < len(p) and p[j] in _FLAG_CHARS:
            j += 1
        if j < len(p) and p[j] == ":":
            self.i = j + 1
            branches = self._alternation()
            self.i = min(len(p), self.i + 1)
            return Node("group", p[start : self.i], branches=branches)
        self.i = min(len(p), j + 1)
        return None


@lru_cache(maxsize=4096)
def _leaf_regex(source: str) -> regex.Pattern[str] | None:
    try:
        return regex.compile(source, regex.DOTALL)
    except regex.error:
        return None


@lru_cache(maxsize=4096)
def _leaf_chars(source: str) -> frozenset[str]:
    """The sample characters a single-character atom (literal, set, ``.``) matches."""
    compiled = _leaf_regex(source)
    if compiled is None:
        return frozenset()
    return frozenset(c for c in _SAMPLE_CHARS if compiled.fullmatch(c))


def _matches_char(node: Node, char: str) -> bool:
    """True when ``node`` can consume ``char`` (for a group: any of its atoms can)."""
    if node.kind == "group":
        return any(_matches_char(n, char) for branch in node.branches for n in branch)
    if node.kind not in {"literal", "set", "any"}:
        return False
    if char in _SAMPLE_SET:
        return char in _leaf_chars(node.source)
    compiled = _leaf_regex(node.source)
    return compiled is not None and compiled.fullmatch(char) is not None


def _literal_char(source: str) -> str:
    r"""The character a literal atom stands for (``a``, ``\.``, ``\n``, ``\x41``)."""
    if not source.startswith("\\"):
        return source
    escaped = source[1:]
    if escaped[:1] in _ESCAPED_CHARS and len(escaped) == 1:
        return _ESCAPED_CHARS[escaped]
    if len(escaped) > 1 and escaped[0] in "xuU0":
        try:
            return chr(int(escaped[1:] or "0", 16 if escaped[0] != "0" else 8))
        except ValueError:
            return ""
    return escaped[:1]


def _own_chars(node: Node) -> str:
    """Characters the literals inside ``node`` stand for: added to the sample alphabet."""
    if node.kind == "literal":
        return _literal_char(node.source)
    return "".join(_own_chars(n) for branch in node.branches for n in branch)


def _overlap(a: Node, b: Node) -> bool:
    """True when some character can be consumed by both atoms."""
    alphabet = _SAMPLE_CHARS + _own_chars(a) + _own_chars(b)
    return any(_matches_char(a, c) and _matches_char(b, c) for c in alphabet)


def is_zero_width(node: Node) -> bool:
    """True for an atom that consumes no text (an anchor, a lookaround, ``x{0}``)."""
    return node.kind in {"anchor", "lookaround"} or node.maximum == 0


def is_blank(node: Node) -> bool:
    """True for an atom that only consumes whitespace (one space once text is folded)."""
    if node.kind == "group":
        return all(is_blank(n) for branch in node.branches for n in branch)
    if node.kind not in {"literal", "set"}:
        return False
    chars = _leaf_chars(node.source)
    return bool(chars) and all(c.isspace() for c in chars)


def unbounded(node: Node) -> bool:
    """True when the atom can consume text of any length (and gives it back on backtracking)."""
    if node.possessive or node.atomic or node.kind in {"lookaround", "anchor"}:
        return False
    if node.maximum is None:
        return True
    return node.kind == "group" and any(unbounded(n) for branch in node.branches for n in branch)


_RiskKind = Literal[
    "backreference",
    "lookaround",
    "recursion",
    "conditional",
    "nested-quantifier",
    "adjacent-quantifiers",
]
_RISKY_KINDS: dict[str, _RiskKind] = {
    "backref": "backreference",
    "lookaround": "lookaround",
    "recursion": "recursion",
    "conditional": "conditional",
}


@dataclass(frozen=True, slots=True)
class PatternRisk:
    """A construct of a pattern that can make matching slow, with the text at fault."""

    kind: _RiskKind
    source: str
    level: Level = field(default="error")

    def describe(self) -> str:
        """One line saying what is wrong and what to do."""
        code = quoted(self.source)
        return {
            "backreference": f"backreference {code} (matching cost can grow exponentially)",
            "lookaround": f"lookaround {code} (rescans text; write the literal text instead)",
            "recursion": f"recursive pattern {code}",
            "conditional": f"conditional group {code}",
            "nested-quantifier": (
                f"nested quantifier {code}: a repeated group holds an unbounded quantifier "
                "(catastrophic backtracking)"
            ),
            "adjacent-quantifiers": (
                f"adjacent unbounded groups {code} over overlapping text (only optional text or "
                "whitespace between): the values split ambiguously and long values backtrack; "
                "narrow a group (e.g. (\\d+)) or keep literal text between them"
            ),
        }[self.kind]


def quoted(text: str) -> str:
    """Quote a pattern or message in a one-line reason (control characters escaped)."""
    flat = "".join(
        c.encode("unicode_escape").decode("ascii") if c.isspace() and c != " " else c for c in text
    )
    shown = flat if len(flat) <= 60 else flat[:57] + "..."
    return f"`{shown}`"


def _walk(branches: Iterable[Sequence[Node]], risks: list[PatternRisk]) -> None:
    for branch in branches:
        _scan_sequence(branch, risks)
        for node in branch:
            kind = _RISKY_KINDS.get(node.kind)
            if kind is not None:
                risks.append(PatternRisk(kind, node.source))
            if node.kind in {"group", "lookaround"}:
                repeated = node.maximum is None or node.maximum > 1
                if (
                    repeated
                    and not node.possessive
                    and not node.atomic
                    and any(unbounded(n) for b in node.branches for n in b)
                ):
                    risks.append(PatternRisk("nested-quantifier", node.text))
                    continue  # one finding per construct
                _walk(node.branches, risks)


def _scan_sequence(branch: Sequence[Node], risks: list[PatternRisk]) -> None:
    """Report unbounded atoms that follow each other with nothing required between."""
    for index, first in enumerate(branch):
        if not unbounded(first) or is_blank(first):
            continue
        between: list[Node] = []
        for later in branch[index + 1 :]:
            if is_zero_width(later):
                between.append(later)
                continue
            if is_blank(later) or (later.minimum == 0 and not unbounded(later)):
                between.append(later)
                continue
            if unbounded(later):
                required = [n for n in between if n.minimum > 0 and not is_zero_width(n)]
                crosses = all(_overlap(first, n) for n in required)
                if crosses and _overlap(first, later):
                    shown = "".join(n.text for n in (first, *between, later))
                    risks.append(PatternRisk("adjacent-quantifiers", shown, "warning"))
            break


@lru_cache(maxsize=65536)
def parsed_pattern(pattern: str) -> tuple[tuple[Node, ...], ...]:
    """The pattern's top-level branches, each a sequence of atoms (cached)."""
    return _PatternParser(pattern).parse()


@lru_cache(maxsize=65536)
def cached_risks(pattern: str) -> tuple[PatternRisk, ...]:
    """:func:`pattern_risks` of a pattern, cached (read off the pieces when it has no regex)."""
    pieces = pattern_pieces(pattern)
    if pieces is not None:
        # Literal text and (.+?) groups: the only risk is two groups with nothing but
        # whitespace between them, read off the pieces (what the parser finds, faster).
        raws = pattern.split(GROUP)
        return tuple(
            PatternRisk("adjacent-quantifiers", GROUP + raw + GROUP, "warning")
            for raw, piece in zip(raws[1:-1], pieces[1:-1], strict=True)
            if not piece.strip()
        )
    return _parsed_risks(pattern)


def _parsed_risks(pattern: str) -> tuple[PatternRisk, ...]:
    risks: list[PatternRisk] = []
    _walk(parsed_pattern(pattern), risks)
    return tuple(risks)


def pattern_risks(pattern: str) -> list[PatternRisk]:
    r"""Constructs of ``pattern`` that can backtrack badly, found by reading its structure.

    Errors: backreferences, lookarounds, recursion, conditionals and nested
    quantifiers (a repeated group holding an unbounded quantifier). Warning:
    unbounded atoms over overlapping text with nothing but optional text or
    whitespace between them, e.g. ``(.+?)(.+?)`` or ``(.+?)\s*(.+?)``.

    >>> [(r.kind, r.level) for r in pattern_risks(r"(.+?)\s*(.+?)")]
    [('adjacent-quantifiers', 'warning')]
    >>> [r.kind for r in pattern_risks(r"(?P<q>['\"]).+?(?P=q)")]
    ['backreference']
    >>> pattern_risks(r"at most (\d+) (.+?) headers")
    []
    """
    return list(cached_risks(pattern))


# --- timing ---------------------------------------------------------------------------------
