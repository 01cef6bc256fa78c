"""A frameless report's exact search leaves out the patterns without a word: same hits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.extract import extract_reports
from errcat.index import PatternIndex
from errcat.matcher import find
from errcat.matcher.context import contexts_of
from errcat.patterns import template_to_pattern

_PARTS = ["alpha", "beta", "shard", "rank", "{x}", "{y!r}", ":", ".", "-", "(", ")", "=", ","]
_TEMPLATES = st.lists(
    st.lists(st.sampled_from(_PARTS), min_size=1, max_size=6).map(" ".join),
    min_size=1,
    max_size=14,
    unique=True,
)
_VALUES = st.sampled_from(["3", "alpha", "a b", "'q'", "x: y", "(1, 2)"])


def _hits(index: PatternIndex, text: str) -> list[tuple[object, ...]]:
    found: list[tuple[object, ...]] = []
    for ctx in contexts_of(extract_reports(text), {}):
        for hit in find._find_hits([index], ctx, set())[0]:
            found.append((ctx.order, hit.entry.pattern, hit.hit, hit.text, hit.literal))
    return found


@settings(max_examples=150, deadline=None)
@given(_TEMPLATES, st.lists(st.tuples(st.integers(0, 13), _VALUES, _VALUES), max_size=6))
def test_leaving_out_wordless_patterns_finds_the_same_hits(
    templates: list[str], fills: list[tuple[int, str, str]]
) -> None:
    index = PatternIndex([template_to_pattern(t) for t in templates])
    texts = [
        "ValueError: " + templates[n % len(templates)].replace("{x}", x, 1).replace("{y!r}", y, 1)
        for n, x, y in fills
    ]
    texts.append("ValueError: a: b - c")
    fast = [_hits(index, text) for text in texts]
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(find, "_wordless", lambda index: frozenset())  # read them all
        full = [_hits(index, text) for text in texts]
    assert fast == full


@settings(max_examples=150, deadline=None)
@given(_TEMPLATES, st.text(alphabet="alpha beta:.-()=,' 3", max_size=30))
def test_candidates_but_some_are_the_candidates_less_those(templates: list[str], text: str) -> None:
    index = PatternIndex([template_to_pattern(t) for t in templates])
    leave_out = frozenset(range(0, len(index), 2))
    every = index.candidates(text)
    left_out = {index.entry(pid).pattern for pid in leave_out}
    assert index.candidates(text, leave_out) == [e for e in every if e.pattern not in left_out]


def test_a_wordless_pattern_is_left_out_of_a_bare_lines_search() -> None:
    index = PatternIndex([template_to_pattern("{a}: {b}"), template_to_pattern("shard {x} is bad")])
    assert find._wordless(index) == frozenset({0})
    (ctx,) = contexts_of(extract_reports("ValueError: shard 3 is bad"), {})
    assert [h.entry.pattern for h in find._find_hits([index], ctx, set())[0]] == [
        template_to_pattern("shard {x} is bad")
    ]
