r"""What compiling a ``messagePattern`` would cost, read off its text before ``regex`` sees it.

``regex.compile`` spells a counted repeat out: ``a{1000000000}`` takes
gigabytes before any text is matched, and ``(a{1000}){1000}`` a quarter of one
and seconds; groups nested a few hundred deep exhaust its recursive parser.
A catalog is data from elsewhere, so a pattern is refused (a bad record, with
its reason) when a counted repeat, times the repeats of the groups around it,
exceeds :data:`MAX_REPEAT`, or its groups nest deeper than :data:`MAX_DEPTH`.
No pattern errcat mines comes near either bound.

>>> pattern_problem(r"bad value (.+?) at (\d{1,4})") is None
True
>>> pattern_problem("(a{1000000000})")
'a counted repeat of 1000000000 (with the groups around it) exceeds 10000'
>>> pattern_problem("(a{200}){100}")
'a counted repeat of 20000 (with the groups around it) exceeds 10000'
>>> pattern_problem("(" * 100 + "x" + ")" * 100)
'groups nested 100 deep (at most 64)'
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["MAX_DEPTH", "MAX_REPEAT", "pattern_problem"]

#: The most a counted repeat may spell out, with the counted repeats of its enclosing groups.
MAX_REPEAT: Final = 10_000
#: How deep groups may nest.
MAX_DEPTH: Final = 64

_COUNT = re.compile(r"\{(\d*)(?:,(\d*))?\}")


def _count_at(pattern: str, at: int) -> tuple[int, int]:
    """The bound of a quantifier at ``at`` (1 when none) and where the pattern goes on."""
    if at >= len(pattern):
        return 1, at
    char = pattern[at]
    if char in "*+?":
        return 1, at + 1
    m = _COUNT.match(pattern, at)
    if m is None or m.group() in ("{}", "{,}"):
        return 1, at
    low, high = m.group(1), m.group(2)
    bound = int(high) if high else int(low) if low else 1
    return max(1, bound), m.end()


def _class_end(pattern: str, at: int) -> int:
    """Where the character class opening at ``at`` ends (just past its ``]``)."""
    i = at + 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern):
        if pattern[i] == "\\":
            i += 2
            continue
        if pattern[i] == "]":
            return i + 1
        i += 1
    return i


def pattern_problem(pattern: str) -> str | None:
    """Why compiling ``pattern`` would take too much memory or time (None when it would not)."""
    if "{" not in pattern and pattern.count("(") <= MAX_DEPTH:
        return None  # no counted repeat, and too few groups to nest too deep
    stack: list[int] = [1]  # per open group: the largest repeat inside it so far
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "(":
            stack.append(1)
            if len(stack) - 1 > MAX_DEPTH:
                depth = len(stack) - 1
                while i < len(pattern) and pattern[i] == "(":
                    i, depth = i + 1, depth + 1
                return f"groups nested {depth - 1} deep (at most {MAX_DEPTH})"
            i += 1
            continue
        if char == ")" and len(stack) > 1:
            inner = stack.pop()
            count, i = _count_at(pattern, i + 1)
            weight = inner * count
        else:
            if char == "\\":
                end = i + 2
            elif char == "[":
                end = _class_end(pattern, i)
            else:
                end = i + 1
            weight, i = _count_at(pattern, end)
        if weight > MAX_REPEAT:
            return f"a counted repeat of {weight} (with the groups around it) exceeds {MAX_REPEAT}"
        stack[-1] = max(stack[-1], weight)
    return None
