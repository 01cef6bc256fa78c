r"""Timing a pattern on adversarial inputs: the ``pattern-speed`` rule.

>>> measure_pattern(r"bad value (.+?) for (.+?)\.") is None
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from errcat.errors import InvalidPatternError
from errcat.lint.findings import Finding, LintItem, declare
from errcat.lint.records import curation_level
from errcat.lint.regex_risks import (
    Node,
    cached_risks,
    is_blank,
    is_zero_width,
    parsed_pattern,
    unbounded,
)
from errcat.patterns import compile_pattern, literal_fragments, pattern_pieces

__all__ = [
    "ADVERSARIAL_SIZE",
    "SPEED_TIMEOUT",
    "adversarial_inputs",
    "measure_pattern",
    "speed_findings",
    "speed_risk",
]

#: Size of the adversarial inputs every pattern must stay fast on.
ADVERSARIAL_SIZE = 1 << 20
#: Seconds one match of a 1 MB adversarial input may take (a linear scan takes ~5 ms).
SPEED_TIMEOUT = 0.5
#: Size of the screening inputs: a pattern that is linear there is linear at 1 MB.
_SCREEN_SIZE = ADVERSARIAL_SIZE // 16
_SCREEN_TIMEOUT = SPEED_TIMEOUT / 16

#: Fillers for the adversarial inputs (text a lazy group can swallow), with stand-ins
#: for a pattern whose own literal text the first filler would contain.
_FILLERS: dict[str, tuple[str, ...]] = {
    "letters": ("x", "q"),
    "words": ("ab ", "zq "),
    "dots and semicolons": ("a.b; c, d: ", "a.b;c", "a;b"),
}


def _literal_ends(pattern: str) -> tuple[bool, bool]:
    """Whether the pattern starts and ends with literal (non-blank) text."""
    branches = parsed_pattern(pattern)
    if len(branches) != 1:
        return False, False
    nodes = [n for n in branches[0] if not is_zero_width(n) and not is_blank(n)]
    if not nodes:
        return False, False

    def fixed(node: Node) -> bool:
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


def speed_risk(pattern: str, *, thorough: bool) -> tuple[str, float] | None:
    """Measure a pattern: screen it on 64 KB inputs, then confirm on 1 MB ones.

    A pattern that finishes the 64 KB inputs within 1/16 of the budget scales
    linearly (anything quadratic or worse takes seconds at 64 KB already), so it
    is within budget at 1 MB; only the others, or all with ``thorough``, run at 1 MB.
    """
    if not any(unbounded(n) for branch in parsed_pattern(pattern) for n in branch):
        return None  # nothing that can backtrack: linear in the input
    if pattern_pieces(pattern) is not None and not cached_risks(pattern):
        # Literal text and (.+?) groups, none adjacent: the adversarial inputs never repeat
        # the literal text, so there is one way to split them and the match is linear.
        return None
    if (
        not thorough
        and measure_pattern(pattern, size=_SCREEN_SIZE, timeout=_SCREEN_TIMEOUT) is None
    ):
        return None
    return measure_pattern(pattern)


def speed_findings(
    items: Iterable[LintItem], *, thorough: bool, progress: Callable[[], None] | None
) -> list[Finding]:
    """A ``pattern-speed`` finding for each record whose pattern backtracks past the budget."""
    found: list[Finding] = []
    timed: dict[str, tuple[str, float] | None] = {}
    for item in items:
        if progress is not None:
            progress()
        pattern = item.record.message_pattern
        if pattern not in timed:
            try:
                timed[pattern] = speed_risk(pattern, thorough=thorough)
            except InvalidPatternError:
                timed[pattern] = None  # pattern-compiles reports it
        slow = timed[pattern]
        if slow is not None:
            shape, seconds = slow
            found.append(
                Finding(
                    "pattern-speed",
                    curation_level(item),
                    f"one match of a {ADVERSARIAL_SIZE >> 20} MB input of {shape} between "
                    f"its literal text took over {seconds:.2f} s (catastrophic backtracking)",
                    item.path,
                    item.line,
                    item.record.id,
                )
            )
    return found


declare("pattern-speed", "error", "the compiled pattern stays fast on 1 MB adversarial inputs")
