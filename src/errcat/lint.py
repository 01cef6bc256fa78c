r"""Lint catalog records: the quality gate a data release must pass.

Each rule looks at records (already validated against schemaVersion 2) and
reports :class:`Finding` objects with the file, line and record id they concern,
a rule name, a level and a one-line reason. ``error`` findings block a release;
``warning`` findings are shown but do not; ``info`` findings are counted.

Levels of the pattern and shadowing rules. Constructs the miner never writes
(nested quantifiers, backreferences, lookarounds) are errors. Two unbounded
groups with only whitespace or optional text between them are a warning: the
values split ambiguously, and on long values matching is quadratic. A pattern
that does not finish one match of a 1 MB adversarial input within
:data:`SPEED_TIMEOUT`, or two records that even a traceback frame at the raise
site cannot tell apart, are errors, except in a draft of a release that allows
drafts, where they are warnings: the miner writes every placeholder as
``(.+?)`` and cannot know that a value is a number; narrowing the group (or
merging the two sites) is part of curating the draft, and the matcher's time
limit bounds the cost until then.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
>>> lint_records([LintItem(record, "cat.jsonl", 1)])
[]
>>> bad = record.model_copy(update={"slug": "Bad Slug"})
>>> for finding in lint_records([LintItem(bad, "cat.jsonl", 1)]):
...     print(finding)
cat.jsonl:1: error[slug] 0123456789abcdef: slug 'Bad Slug' is not lowercase words and hyphens

The pattern rules read ``messagePattern`` structurally and also time it:

>>> [risk.kind for risk in pattern_risks(r"(\w+\s?)+$")]
['nested-quantifier']
>>> [risk.kind for risk in pattern_risks(r"at most (.+?) (.+?) headers")]
['adjacent-quantifiers']
>>> pattern_risks(r"bad value (.+?) for (.+?)\.")
[]
"""

from __future__ import annotations

import string
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

import regex

from errcat.errors import InvalidPatternError, InvalidRecordError
from errcat.index import fold_whitespace
from errcat.models import GENERATED_TAG, ErrorRecord
from errcat.patterns import (
    GROUP,
    _skip_class,
    _skip_group,
    compile_pattern,
    is_wordless,
    literal_fragments,
    parse_template,
    pattern_pieces,
    pieces_fullmatch,
    render_template,
)

if TYPE_CHECKING:
    from errcat.catalog import Catalog
    from errcat.matcher import Match

__all__ = [
    "ADVERSARIAL_SIZE",
    "RULES",
    "SPEED_TIMEOUT",
    "Finding",
    "Level",
    "LintItem",
    "PatternRisk",
    "adversarial_inputs",
    "expected_github_url",
    "is_draft",
    "is_generated",
    "lint_records",
    "measure_pattern",
    "pattern_risks",
    "problem_finding",
    "sample_messages",
    "source_line_count",
]

Level = Literal["error", "warning", "info"]

#: Every rule: its name, the level of its usual finding, and what it checks.
RULES: dict[str, tuple[Level, str]] = {
    "schema": ("error", "strict schemaVersion 2: JSON, field names and types, schema version"),
    "unique-id": ("error", "no two records share an id"),
    "pattern-compiles": (
        "error",
        "messagePattern compiles with regex (as the matcher compiles it)",
    ),
    "pattern-groups": (
        "error",
        "messagePattern has exactly one group per errorMessage placeholder",
    ),
    "pattern-backtracking": (
        "error",
        "no nested quantifiers, backreferences or lookarounds (error); "
        "no adjacent unbounded groups over overlapping text (warning)",
    ),
    "pattern-speed": ("error", "the compiled pattern stays fast on 1 MB adversarial inputs"),
    "self-match": ("error", "messagePattern matches errorMessage rendered with sample values"),
    "shadowing": (
        "warning",
        "a record's own message finds it first in the whole catalog"
        " (not a pattern without words: only a frame at its raise line finds it)",
    ),
    "github-url": ("error", "githubUrl agrees with repo, analyzedSha, filePath and the span"),
    "line-in-span": ("error", "lineNumber is inside sourceCodeStart..sourceCodeEnd"),
    "source-lines": ("error", "sourceCode has as many lines as the span"),
    "slug": ("error", "slug is lowercase words and hyphens, at most 50 characters"),
    "curated": ("error", "a curated record has documentation, a solution and an example fix"),
    "draft": ("error", "drafts only where the release configuration allows them (then info)"),
    "generated": (
        "error",
        "advice generated from the source only where drafts are allowed (then info)",
    ),
    "withdrawn": ("error", "a record of the previous release is present or listed as withdrawn"),
    "manifest": ("error", "the manifest and release configuration are well formed and current"),
}

#: Size of the adversarial inputs every pattern must stay fast on.
ADVERSARIAL_SIZE = 1 << 20
#: Seconds one match of a 1 MB adversarial input may take (a linear scan takes ~5 ms).
SPEED_TIMEOUT = 0.5
#: Size of the screening inputs: a pattern that is linear there is linear at 1 MB.
_SCREEN_SIZE = ADVERSARIAL_SIZE // 16
_SCREEN_TIMEOUT = SPEED_TIMEOUT / 16

_SLUG = regex.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_GOT = regex.compile(r" \(got \{.*?\)(?= \(\+|$)")
_SLUG_MAX = 50
_WS = regex.compile(r"\s+")

#: Value shapes the self-match rule renders each template with (n = placeholder index).
_SHAPES: dict[str, Callable[[int], str]] = {
    "words": lambda n: f"value_{n}",
    "numbers": lambda n: f"{n + 4}2",
    "list reprs": lambda n: f"['a{n}', 'b c']",
    "paths": lambda n: f"/usr/lib/python3.12/pkg{n}/mod.py",
    "dots and semicolons": lambda n: f"a.b; c{n}. d;e",
    "quoted reprs": lambda n: f"'name_{n}'",
}

#: Fillers for the adversarial inputs (text a lazy group can swallow), with stand-ins
#: for a pattern whose own literal text the first filler would contain.
_FILLERS: dict[str, tuple[str, ...]] = {
    "letters": ("x", "q"),
    "words": ("ab ", "zq "),
    "dots and semicolons": ("a.b; c, d: ", "a.b;c", "a;b"),
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found by a release check, with where it is and why."""

    rule: str
    level: Level
    message: str
    path: str | None = None
    line: int | None = None
    record_id: str | None = None

    def __post_init__(self) -> None:
        # A finding is one line of a report, whatever the text it quotes.
        if "\n" in self.message or "\r" in self.message:
            flat = self.message.replace("\r", "\\r").replace("\n", "\\n")
            object.__setattr__(self, "message", flat)

    def __str__(self) -> str:
        """``path:line: level[rule] id: message``, like a compiler diagnostic."""
        where = self.path or "<catalog>"
        if self.line is not None:
            where += f":{self.line}"
        who = f" {self.record_id}" if self.record_id else ""
        return f"{where}: {self.level}[{self.rule}]{who}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (camelCase keys)."""
        return {
            "path": self.path,
            "line": self.line,
            "recordId": self.record_id,
            "rule": self.rule,
            "level": self.level,
            "message": self.message,
        }

    @property
    def sort_key(self) -> tuple[str, int, str, str, str]:
        """Order of findings in a report: by file, line, rule, record and message."""
        return (self.path or "", self.line or 0, self.rule, self.record_id or "", self.message)


@dataclass(frozen=True, slots=True)
class LintItem:
    """A record to lint and where it was read; ``drafts_allowed`` comes from its release."""

    record: ErrorRecord
    path: str | None = None
    line: int | None = None
    drafts_allowed: bool = False


def is_draft(record: ErrorRecord) -> bool:
    """True for a draft: documentation, solutions and exampleFix are all empty (as mined).

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> is_draft(record)
    False
    >>> is_draft(
    ...     record.model_copy(update={"documentation": "", "solutions": (), "example_fix": ""})
    ... )
    True
    """
    return (
        not record.documentation.strip()
        and not any(s.strip() for s in record.solutions)
        and not record.example_fix.strip()
    )


def is_generated(record: ErrorRecord) -> bool:
    """True when the record's advice was generated from the source by the miner, not curated.

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, GENERATED_TAG, RecordEnvelope
    >>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> is_generated(record), is_generated(record.model_copy(update={"tags": (GENERATED_TAG,)}))
    (False, True)
    """
    return GENERATED_TAG in record.tags


def expected_github_url(record: ErrorRecord) -> str:
    """The ``githubUrl`` a record must have: blob at analyzedSha, anchored on the span.

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> expected_github_url(record) == record.github_url
    True
    """
    return (
        f"https://github.com/{record.repo}/blob/{record.analyzed_sha}/{record.file_path}"
        f"#L{record.source_code_start}-L{record.source_code_end}"
    )


_ZERO_SHA = "0" * 40
_RELEASE_TAG = regex.compile(r"v?[0-9][0-9A-Za-z.+_-]*")


def _at_release_tag(record: ErrorRecord, expected: str) -> bool:
    """True for a record of unknown commit (40 zeros) linked at a release tag instead.

    A wheel records no commit; its records link to the tag GitHub resolves
    (``blob/v0.5.23/...``) rather than to a sha that does not exist.

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> zero = record.model_copy(update={"analyzed_sha": "0" * 40})
    >>> tagged = zero.model_copy(
    ...     update={"github_url": expected_github_url(zero).replace("0" * 40, "v1.2.3")}
    ... )
    >>> _at_release_tag(tagged, expected_github_url(tagged)), _at_release_tag(record, "x")
    (True, False)
    """
    if record.analyzed_sha != _ZERO_SHA:
        return False
    head, _, tail = expected.partition(f"/blob/{_ZERO_SHA}/")
    url = record.github_url
    if not (url.startswith(head + "/blob/") and url.endswith("/" + tail)):
        return False
    ref = url[len(head) + len("/blob/") : len(url) - len(tail) - 1]
    return _RELEASE_TAG.fullmatch(ref) is not None


def source_line_count(source: str) -> int:
    r"""Number of lines in a ``sourceCode`` snippet (lines are separated by ``\n``).

    Form feeds and other characters ``str.splitlines`` breaks on are not line
    breaks in Python source.

    >>> source_line_count("a\nb\x0cc\n")
    3
    """
    return len(source.split("\n"))


def _fold(text: str) -> str:
    return _WS.sub(" ", text).strip()


def sample_messages(template: str) -> dict[str, str]:
    """The template rendered with each sample value shape, whitespace folded as the matcher does.

    >>> sample_messages("bad {x!r} in {y}")["paths"]
    'bad /usr/lib/python3.12/pkg0/mod.py in /usr/lib/python3.12/pkg1/mod.py'
    """
    count = len(parse_template(template)[1])
    return {
        shape: _fold(render_template(template, [make(n) for n in range(count)]))
        for shape, make in _SHAPES.items()
    }


# --- the structure of a pattern ---------------------------------------------------------------

_SAMPLE_CHARS = string.ascii_letters[:3] + "Z_0 9\t\n" + string.punctuation + "é€\x00"
_SAMPLE_SET = frozenset(_SAMPLE_CHARS)
_ZERO_WIDTH_ESCAPES = frozenset("bBAZzGK")
_SET_ESCAPES = frozenset("dDwWsShHvVXRpPN")
_ESCAPED_CHARS = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "e": "\x1b"}
_FLAG_CHARS = frozenset("aiLmsuxwVfbrep0123456789-")


@dataclass(frozen=True, slots=True)
class _Node:
    """One atom of a pattern with its quantifier (``maximum`` None: unbounded)."""

    kind: str  # literal, set, any, group, anchor, lookaround, backref, recursion, conditional
    source: str  # the atom as written, without its quantifier
    minimum: int = 1
    maximum: int | None = 1
    possessive: bool = False
    atomic: bool = False
    branches: tuple[tuple[_Node, ...], ...] = ()
    quantifier: str = ""  # as written: "+?", "{2,}", ...

    def with_quantifier(
        self, minimum: int, maximum: int | None, possessive: bool, text: str
    ) -> _Node:
        return _Node(
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

    def parse(self) -> tuple[tuple[_Node, ...], ...]:
        branches = self._alternation()
        while self.i < len(self.p):  # an unbalanced ")" (the pattern compiled, so unlikely)
            self.i += 1
            branches += self._alternation()
        return branches

    def _alternation(self) -> tuple[tuple[_Node, ...], ...]:
        branches: list[list[_Node]] = [[]]
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

    def _quantified(self, node: _Node) -> _Node:
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

    def _atom(self) -> _Node | None:
        p = self.p
        start = self.i
        c = p[start]
        if c == "\\":
            return self._escape()
        if c == "[":
            self.i = _skip_class(p, start)
            return _Node("set", p[start : self.i])
        if c == "(":
            return self._group()
        self.i += 1
        if c == ".":
            return _Node("any", c)
        if c in "^$":
            return _Node("anchor", c)
        return _Node("literal", c)

    def _escape(self) -> _Node:
        p = self.p
        start = self.i
        nxt = p[start + 1] if start + 1 < len(p) else ""
        self.i = start + 2
        if nxt in "123456789":
            while self.i < len(p) and p[self.i].isdigit():
                self.i += 1
            return _Node("backref", p[start : self.i])
        if nxt == "g" and self.i < len(p) and p[self.i] == "<":
            self.i = p.find(">", self.i) + 1 or len(p)
            return _Node("backref", p[start : self.i])
        if nxt in _ZERO_WIDTH_ESCAPES:
            return _Node("anchor", p[start : self.i])
        if nxt in "pPN" and self.i < len(p) and p[self.i] == "{":
            self.i = p.find("}", self.i) + 1 or len(p)
            return _Node("set", p[start : self.i])
        if nxt in "pP":  # \pL
            self.i = min(len(p), self.i + 1)
            return _Node("set", p[start : self.i])
        if nxt in "xuU0":
            width = {"x": 2, "u": 4, "U": 8, "0": 2}[nxt]
            while self.i < len(p) and self.i < start + 2 + width and p[self.i] in string.hexdigits:
                self.i += 1
            return _Node("literal", p[start : self.i])
        if nxt in _SET_ESCAPES:
            return _Node("set", p[start : self.i])
        return _Node("literal", p[start : self.i])

    def _group(self) -> _Node | None:
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
                return _Node("backref", p[start : self.i])
            elif head[:1] in {"R", "&"} or head.startswith("P>") or head[:1] in "0123456789+-":
                if head[:1] in "-" and len(head) > 1 and not head[1].isdigit():
                    return self._flags(start)
                self.i = p.find(")", start) + 1 or len(p)
                return _Node("recursion", p[start : self.i])
            elif head.startswith("("):
                self.i = _skip_group(p, start)
                return _Node("conditional", p[start : self.i])
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
        return _Node(kind, p[start : self.i], atomic=atomic, branches=branches)

    def _flags(self, start: int) -> _Node | None:
        """``(?i)`` sets flags (no atom); ``(?i:...)`` is a group."""
        p = self.p
        j = start + 2
        while j < len(p) and p[j] in _FLAG_CHARS:
            j += 1
        if j < len(p) and p[j] == ":":
            self.i = j + 1
            branches = self._alternation()
            self.i = min(len(p), self.i + 1)
            return _Node("group", p[start : self.i], branches=branches)
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


def _matches_char(node: _Node, char: str) -> bool:
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


def _own_chars(node: _Node) -> str:
    """Characters the literals inside ``node`` stand for: added to the sample alphabet."""
    if node.kind == "literal":
        return _literal_char(node.source)
    return "".join(_own_chars(n) for branch in node.branches for n in branch)


def _overlap(a: _Node, b: _Node) -> bool:
    """True when some character can be consumed by both atoms."""
    alphabet = _SAMPLE_CHARS + _own_chars(a) + _own_chars(b)
    return any(_matches_char(a, c) and _matches_char(b, c) for c in alphabet)


def _is_zero_width(node: _Node) -> bool:
    return node.kind in {"anchor", "lookaround"} or node.maximum == 0


def _is_blank(node: _Node) -> bool:
    """True for an atom that only consumes whitespace (one space once text is folded)."""
    if node.kind == "group":
        return all(_is_blank(n) for branch in node.branches for n in branch)
    if node.kind not in {"literal", "set"}:
        return False
    chars = _leaf_chars(node.source)
    return bool(chars) and all(c.isspace() for c in chars)


def _unbounded(node: _Node) -> bool:
    """True when the atom can consume text of any length (and gives it back on backtracking)."""
    if node.possessive or node.atomic or node.kind in {"lookaround", "anchor"}:
        return False
    if node.maximum is None:
        return True
    return node.kind == "group" and any(_unbounded(n) for branch in node.branches for n in branch)


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
        code = _code(self.source)
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


def _code(text: str) -> str:
    """Quote a pattern or message in a one-line reason (control characters escaped)."""
    flat = "".join(
        c.encode("unicode_escape").decode("ascii") if c.isspace() and c != " " else c for c in text
    )
    shown = flat if len(flat) <= 60 else flat[:57] + "..."
    return f"`{shown}`"


def _walk(branches: Iterable[Sequence[_Node]], risks: list[PatternRisk]) -> None:
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
                    and any(_unbounded(n) for b in node.branches for n in b)
                ):
                    risks.append(PatternRisk("nested-quantifier", node.text))
                    continue  # one finding per construct
                _walk(node.branches, risks)


def _scan_sequence(branch: Sequence[_Node], risks: list[PatternRisk]) -> None:
    """Report unbounded atoms that follow each other with nothing required between."""
    for index, first in enumerate(branch):
        if not _unbounded(first) or _is_blank(first):
            continue
        between: list[_Node] = []
        for later in branch[index + 1 :]:
            if _is_zero_width(later):
                between.append(later)
                continue
            if _is_blank(later) or (later.minimum == 0 and not _unbounded(later)):
                between.append(later)
                continue
            if _unbounded(later):
                required = [n for n in between if n.minimum > 0 and not _is_zero_width(n)]
                crosses = all(_overlap(first, n) for n in required)
                if crosses and _overlap(first, later):
                    shown = "".join(n.text for n in (first, *between, later))
                    risks.append(PatternRisk("adjacent-quantifiers", shown, "warning"))
            break


@lru_cache(maxsize=65536)
def _parsed(pattern: str) -> tuple[tuple[_Node, ...], ...]:
    return _PatternParser(pattern).parse()


@lru_cache(maxsize=65536)
def _risks(pattern: str) -> tuple[PatternRisk, ...]:
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
    _walk(_parsed(pattern), risks)
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
    return list(_risks(pattern))


# --- timing ---------------------------------------------------------------------------------


def _literal_ends(pattern: str) -> tuple[bool, bool]:
    """Whether the pattern starts and ends with literal (non-blank) text."""
    branches = _parsed(pattern)
    if len(branches) != 1:
        return False, False
    nodes = [n for n in branches[0] if not _is_zero_width(n) and not _is_blank(n)]
    if not nodes:
        return False, False

    def fixed(node: _Node) -> bool:
        return node.kind == "literal" and node.minimum == node.maximum == 1

    return fixed(nodes[0]), fixed(nodes[-1])


def adversarial_inputs(pattern: str, size: int = ADVERSARIAL_SIZE) -> dict[str, str]:
    r"""Inputs of about ``size`` characters that make ``pattern`` work hard, by filler shape.

    Each input holds the pattern's literal text in order (so the index would
    propose the pattern) with long runs of filler where the pattern has groups,
    and ends with ``#`` so that a pattern ending in literal text fails only
    after trying every split. Whitespace is folded, as the matcher folds it.

    >>> inputs = adversarial_inputs(r"bad value (.+?) for (.+?)\.", size=40)
    >>> inputs["words"]
    'bad value ab ab ab ab ab ab ab for ab ab ab ab ab ab ab.#'
    """
    fragments = list(literal_fragments(pattern))
    starts_literal, ends_literal = _literal_ends(pattern)
    slots = max(0, len(fragments) - 1) + (not starts_literal) + (not ends_literal)
    width = max(1, size // max(1, slots))
    out: dict[str, str] = {}
    for shape, units in _FILLERS.items():
        # A filler holding the pattern's own literal text would only measure how often that
        # text repeats (every pattern with two groups is quadratic in that), not backtracking.
        unit = next((u for u in units if not any(f.strip() in u * 3 for f in fragments)), None)
        if unit is None:
            continue
        filler = (unit * (width // len(unit) + 1))[:width].strip()
        parts: list[str] = [] if starts_literal else [filler]
        for index, fragment in enumerate(fragments):
            if index:
                parts.append(filler)
            parts.append(fragment)
        if not ends_literal:
            parts.append(filler)
        # Fragments are folded already and fillers have no blank ends: no run of spaces here.
        out[shape] = "".join(parts).strip() + "#"
    return out


def measure_pattern(
    pattern: str, *, size: int = ADVERSARIAL_SIZE, timeout: float = SPEED_TIMEOUT
) -> tuple[str, float] | None:
    r"""Run the compiled pattern (as the matcher runs it) on adversarial inputs of ``size``.

    Returns ``(input shape, seconds)`` for the first input on which one
    ``fullmatch`` did not finish within ``timeout``, else ``None``.

    >>> measure_pattern(r"bad value (.+?) for (.+?)\.") is None
    True
    >>> measure_pattern(r"at most (.+?) (.+?) headers", timeout=0.05)[0]
    'words'
    """
    compiled = compile_pattern(pattern).full
    for shape, text in adversarial_inputs(pattern, size).items():
        started = time.perf_counter()
        try:
            compiled.fullmatch(text, timeout=timeout)
        except TimeoutError:
            return shape, time.perf_counter() - started
    return None


def _speed_risk(pattern: str, *, thorough: bool) -> tuple[str, float] | None:
    """Measure a pattern: screen it on 64 KB inputs, then confirm on 1 MB ones.

    A pattern that finishes the 64 KB inputs within 1/16 of the budget scales
    linearly (anything quadratic or worse takes seconds at 64 KB already), so it
    is within budget at 1 MB; only the others, or all with ``thorough``, run at 1 MB.
    """
    if not any(_unbounded(n) for branch in _parsed(pattern) for n in branch):
        return None  # nothing that can backtrack: linear in the input
    if pattern_pieces(pattern) is not None and not _risks(pattern):
        # Literal text and (.+?) groups, none adjacent: the adversarial inputs never repeat
        # the literal text, so there is one way to split them and the match is linear.
        return None
    if (
        not thorough
        and measure_pattern(pattern, size=_SCREEN_SIZE, timeout=_SCREEN_TIMEOUT) is None
    ):
        return None
    return measure_pattern(pattern)


# --- the rules --------------------------------------------------------------------------------


def problem_finding(problem: InvalidRecordError) -> Finding:
    """Turn a load problem (invalid JSON or schema) into a finding, naming the rule it breaks.

    >>> problem = InvalidRecordError("unknown field", path="a.jsonl", line=2, field="record.x")
    >>> print(problem_finding(problem))
    a.jsonl:2: error[schema]: record.x: unknown field
    """
    reason = problem.reason.removeprefix("Value error, ")
    rule = "schema"
    if "does not compile with regex" in reason:
        rule = "pattern-compiles"
    elif "is outside [" in reason or ("sourceCodeStart" in reason and "is after" in reason):
        rule = "line-in-span"
        reason = _GOT.sub("", reason)  # the whole record, cut: not worth a line
    message = f"{problem.field}: {reason}" if problem.field else reason
    return Finding(rule, "error", message, problem.path, problem.line, problem.record_id)


def _record_findings(item: LintItem) -> tuple[list[Finding], str | None]:
    """Findings of the rules that read one record, and a sample message that matches it."""
    record = item.record
    found: list[Finding] = []

    def add(rule: str, message: str, level: Level = "error") -> None:
        found.append(Finding(rule, level, message, item.path, item.line, record.id))

    if not _SLUG.fullmatch(record.slug):
        add("slug", f"slug {record.slug!r} is not lowercase words and hyphens")
    elif len(record.slug) > _SLUG_MAX:
        add("slug", f"slug is {len(record.slug)} characters long (at most {_SLUG_MAX})")
    url = expected_github_url(record)
    if record.github_url != url and not _at_release_tag(record, url):
        add("github-url", f"githubUrl {record.github_url!r} should be {url!r}")
    if not record.source_code_start <= record.line_number <= record.source_code_end:
        add(
            "line-in-span",
            f"lineNumber {record.line_number} is outside "
            f"{record.source_code_start}..{record.source_code_end}",
        )
    lines = source_line_count(record.source_code)
    span = record.source_code_end - record.source_code_start + 1
    if lines != span:
        add(
            "source-lines",
            f"sourceCode has {lines} lines but the span "
            f"{record.source_code_start}..{record.source_code_end} has {span}",
        )
    if is_generated(record) and not is_draft(record):
        if item.drafts_allowed:
            add("generated", "advice generated from the source (not curated)", "info")
        else:
            add(
                "generated",
                "advice generated from the source (not curated) in a release that does not "
                "allow drafts (allowDrafts in the manifest, or --allow-drafts)",
            )
    elif is_draft(record):
        if item.drafts_allowed:
            add("draft", "draft record (no documentation, solutions or exampleFix)", "info")
        else:
            add(
                "draft",
                "draft record (no documentation, solutions or exampleFix) in a release that "
                "does not allow drafts (allowDrafts in the manifest, or --allow-drafts)",
            )
    else:
        missing = [
            name
            for name, empty in (
                ("documentation", not record.documentation.strip()),
                ("solutions", not any(s.strip() for s in record.solutions)),
                ("exampleFix", not record.example_fix.strip()),
            )
            if empty
        ]
        if missing:
            add("curated", f"curated record has no {', no '.join(missing)}")
    sample = _pattern_findings(record, add)
    return found, sample


def _pattern_findings(record: ErrorRecord, add: Callable[..., None]) -> str | None:
    pattern = record.message_pattern
    pieces = pattern_pieces(pattern)
    if pieces is not None:
        # Literal text and (.+?) groups (what the miner writes): checked as the matcher
        # verifies them, without the regex (the same answers, property-tested).
        groups = len(pieces) - 1

        def matches(text: str) -> bool:
            return pieces_fullmatch(pieces, fold_whitespace(text)) is not None

    else:
        try:
            compiled = compile_pattern(pattern)
        except InvalidPatternError as exc:
            add("pattern-compiles", str(exc))
            return None
        groups = compiled.groups

        def matches(text: str) -> bool:
            return _self_match(compiled.full, text)

    placeholders = len(parse_template(record.error_message)[1])
    if groups != placeholders:
        add(
            "pattern-groups",
            f"messagePattern has {groups} group(s) but errorMessage has "
            f"{placeholders} placeholder(s)",
        )
    for risk in pattern_risks(pattern):
        add("pattern-backtracking", risk.describe(), risk.level)
    samples = sample_messages(record.error_message)
    matched = [shape for shape, text in samples.items() if matches(text)]
    if not matched:
        first = next(iter(samples.values()))
        add("self-match", f"messagePattern does not match its own message, e.g. {first!r}")
        return None
    failed = [shape for shape in samples if shape not in matched]
    if failed:
        add(
            "self-match",
            f"messagePattern does not match the message with {', '.join(failed)} as values",
            "info",
        )
    return samples[matched[0]]


def _self_match(compiled: regex.Pattern[str], text: str) -> bool:
    try:
        return compiled.fullmatch(text, timeout=SPEED_TIMEOUT) is not None
    except TimeoutError:
        return False


def _traceback_text(record: ErrorRecord, message: str) -> str:
    """A one-frame traceback raised at the record's site (what a real paste would show)."""
    return (
        "Traceback (most recent call last):\n"
        f'  File "/src/{record.repo}/{record.file_path}", line {record.line_number}, in f\n'
        f"{record.error_class}: {message}\n"
    )


def _curation_level(*items: LintItem) -> Level:
    """``warning`` when every record concerned is an allowed draft (or generated), else ``error``.

    Some problems can only be fixed by curating (narrowing a group the miner
    made ``(.+?)``, merging two sites of one message): a draft carries them as
    warnings until it is curated; a curated record must not.
    """
    if all(
        item.drafts_allowed and (is_draft(item.record) or is_generated(item.record))
        for item in items
    ):
        return "warning"
    return "error"


def _shadowing(
    items: Sequence[LintItem], samples: dict[str, str], progress: Callable[[], None] | None
) -> list[Finding]:
    from errcat.catalog import Catalog

    catalog = Catalog([item.record for item in items])
    limit = max(1, len(catalog))
    by_id = {item.record.id: item for item in items}
    pairs: dict[frozenset[str], Finding] = {}
    found: list[Finding] = []
    for item in items:
        if progress is not None:
            progress()
        record = item.record
        sample = samples.get(record.id)
        if sample is None or by_id.get(record.id) is not item:
            continue  # no sample matches its own pattern (self-match says so), or a duplicate id
        if is_wordless(record.message_pattern):
            continue  # no text finds it: only a frame at its raise line (by design)
        bare = f"{record.error_class}: {sample}"
        matches = _flat(_at_least_own(bare, record.id, catalog, limit))
        own = next((m for m in matches if m[0] == record.id), None)
        if own is None:
            found.append(
                Finding(
                    "shadowing",
                    "error",
                    f"its own message {_code(bare)} does not find it",
                    item.path,
                    item.line,
                    record.id,
                )
            )
            continue
        rivals = [m for m in matches if m[0] != record.id and m[1] >= own[1]]
        if not rivals:
            continue
        framed = _flat(_at_least_own(_traceback_text(record, sample), record.id, catalog, limit))
        framed_own = next((m for m in framed if m[0] == record.id), None)
        for rival in rivals:
            other = by_id[rival[0]].record
            framed_rival = next((m for m in framed if m[0] == other.id), None)
            relation = "ranks above it" if rival[1] > own[1] else "ties with it"
            told_apart = (
                bool(framed)
                and framed[0][0] == record.id
                and framed_own is not None
                and (framed_rival is None or framed_rival[1] < framed_own[1])
            )
            level: Level
            if told_apart:
                verdict = "distinguishable by traceback frames"
                level = "warning"
            else:
                level = _curation_level(item, by_id[other.id])
                if other.file_path == record.file_path and other.repo == record.repo:
                    verdict = "not distinguishable: raised a few lines apart in the same file"
                else:
                    verdict = "not distinguishable even with a traceback frame at its raise site"
            finding = Finding(
                "shadowing",
                level,
                f"collides with {other.id} ({other.location}): {relation} for "
                f"{_code(bare)} ({rival[1]:.3f} vs {own[1]:.3f}); {verdict}",
                item.path,
                item.line,
                record.id,
            )
            pair = frozenset({record.id, other.id})
            # Each pair once, from the side where it is worse.
            if pair not in pairs or _LEVEL_ORDER[level] < _LEVEL_ORDER[pairs[pair].level]:
                pairs[pair] = finding
    return found + list(pairs.values())


_LEVEL_ORDER: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


def _at_least_own(
    text: str, record_id: str, catalog: Catalog, limit: int, first: int = 8
) -> list[Match]:
    """``match_all(text)`` down to the record's own match and every tie with it.

    The same answer as asking for all ``limit`` matches, but the matcher's
    pruning stays effective: start with a few and ask for more only while the
    last one returned could still be at or above the record's own confidence.
    """
    from errcat.matcher import match_all

    wanted = first
    while True:
        matches = match_all(text, catalog=catalog, limit=min(wanted, limit))
        if len(matches) < min(wanted, limit) or wanted >= limit:
            return matches
        own = next((m.confidence for m in matches if _holds(m, record_id)), None)
        if own is not None and matches[-1].confidence < own:
            return matches
        wanted *= 8


def _holds(match: Match, record_id: str) -> bool:
    """True when the match is the record or folds it among its alternatives."""
    return match.summary.id == record_id or any(a.id == record_id for a in match.alternatives)


def _flat(matches: Sequence[Match]) -> list[tuple[str, float]]:
    """(record id, confidence) of every match and of each match's alternatives, in order.

    A match folds the records that raise the same message with the same
    evidence (:attr:`errcat.matcher.Match.alternatives`): each is a tie.
    """
    out: list[tuple[str, float]] = []
    for m in matches:
        out.append((m.summary.id, m.confidence))
        out.extend((a.id, m.confidence) for a in m.alternatives)
    return out


def lint_records(
    items: Sequence[LintItem],
    *,
    shadowing: bool = True,
    speed: bool = True,
    thorough: bool = False,
    progress: Callable[[], None] | None = None,
) -> list[Finding]:
    """Run every record rule on ``items`` and return the findings, sorted.

    ``shadowing`` matches each record's rendered message against the whole set;
    ``speed`` times each distinct pattern on adversarial inputs (screened at
    64 KB; ``thorough`` runs all of them at 1 MB). ``progress`` is called once
    per record and step, for a progress display.
    """
    found: list[Finding] = []
    samples: dict[str, str] = {}
    first_seen: dict[str, LintItem] = {}
    for item in items:
        record = item.record
        earlier = first_seen.get(record.id)
        if earlier is not None:
            found.append(
                Finding(
                    "unique-id",
                    "error",
                    f"id {record.id} is also used at {earlier.path}:{earlier.line}",
                    item.path,
                    item.line,
                    record.id,
                )
            )
            continue
        first_seen[record.id] = item
        record_found, sample = _record_findings(item)
        found.extend(record_found)
        if sample is not None:
            samples[record.id] = sample
    if speed:
        timed: dict[str, tuple[str, float] | None] = {}
        for item in first_seen.values():
            if progress is not None:
                progress()
            pattern = item.record.message_pattern
            if pattern not in timed:
                try:
                    timed[pattern] = _speed_risk(pattern, thorough=thorough)
                except InvalidPatternError:
                    timed[pattern] = None  # pattern-compiles reports it
            slow = timed[pattern]
            if slow is not None:
                shape, seconds = slow
                found.append(
                    Finding(
                        "pattern-speed",
                        _curation_level(item),
                        f"one match of a {ADVERSARIAL_SIZE >> 20} MB input of {shape} between "
                        f"its literal text took over {seconds:.2f} s (catastrophic backtracking)",
                        item.path,
                        item.line,
                        item.record.id,
                    )
                )
    if shadowing:
        found.extend(_shadowing(list(first_seen.values()), samples, progress))
    return sorted(found, key=lambda f: f.sort_key)
