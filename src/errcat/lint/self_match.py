"""The rules that read a record's pattern: it compiles, has its groups, matches its own message.

>>> sample_messages("bad {x!r} in {y}")["words"]
'bad value_0 in value_1'
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from errcat.errors import InvalidPatternError
from errcat.index import fold_whitespace
from errcat.lint.findings import declare
from errcat.lint.regex_risks import pattern_risks
from errcat.lint.speed import SPEED_TIMEOUT
from errcat.matcher.verify import type_fields
from errcat.models import ErrorRecord
from errcat.patterns import (
    compile_pattern,
    parse_template,
    pattern_pieces,
    pieces_fullmatch,
    render_template,
)

__all__ = ["pattern_findings", "sample_messages"]

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


def _fold(text: str) -> str:
    return _WS.sub(" ", text).strip()


def sample_messages(template: str) -> dict[str, str]:
    """The template rendered with each sample value shape, whitespace folded as the matcher does.

    >>> sample_messages("bad {x!r} in {y}")["paths"]
    'bad /usr/lib/python3.12/pkg0/mod.py in /usr/lib/python3.12/pkg1/mod.py'
    >>> sample_messages("Unknown type: {type(other)}")["words"]
    "Unknown type: <class 'value_0'>"
    """
    count = len(parse_template(template)[1])
    # ``{type(x)}`` prints a class, ``<class 'x'>``; the matcher holds it to that.
    classes = frozenset(type_fields(template)[1])
    return {
        shape: _fold(
            render_template(
                template,
                [f"<class '{make(n)}'>" if n in classes else make(n) for n in range(count)],
            )
        )
        for shape, make in _SHAPES.items()
    }


def pattern_findings(record: ErrorRecord, add: Callable[..., None]) -> str | None:
    """Report the pattern rules through ``add(rule, message, level)``; a sample it matches."""
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


declare(
    "pattern-compiles", "error", "messagePattern compiles with regex (as the matcher compiles it)"
)
declare(
    "pattern-groups", "error", "messagePattern has exactly one group per errorMessage placeholder"
)
declare(
    "pattern-backtracking",
    "error",
    "no nested quantifiers, backreferences or lookarounds (error); "
    "no adjacent unbounded groups over overlapping text (warning)",
)
declare("self-match", "error", "messagePattern matches errorMessage rendered with sample values")
