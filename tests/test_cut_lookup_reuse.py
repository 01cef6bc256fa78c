"""The cut-off lookup's reuse (kept answers, patterns read once per text) changes no answer.

:meth:`PatternIndex.prefix_candidates` keeps its last answers, the wide pass
reads only the patterns the first cut-off pass did not (``tried``), and the
unticked index keeps each stand-in entry: each must give what a fresh index
reading every pattern gives, whatever was asked before.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.index import PatternIndex
from errcat.matcher.find import _truncated_hits
from errcat.matcher.unticked import unticked_index

# Words no message or template of the tests holds by chance ("zq" + letters).
WORD = st.text("abcdefgh", min_size=2, max_size=5).map(lambda w: "zq" + w)
TEMPLATE = st.lists(WORD, min_size=2, max_size=6).map(" ".join)


def _pattern(words: str, group_at: int) -> str:
    """The words with one placeholder put in after word ``group_at`` (or none past the end)."""
    split = words.split(" ")
    if group_at >= len(split):
        return words
    return " ".join([*split[: group_at + 1], "(.+?)", *split[group_at + 1 :]])


PATTERNS = st.lists(
    st.tuples(TEMPLATE, st.integers(0, 6), st.booleans()), min_size=1, max_size=12
).map(
    lambda found: sorted(
        {
            _pattern(w, at).replace("zq", "`zq", 1) if tick else _pattern(w, at)
            for w, at, tick in found
        }
    )
)


def _cut(template: str, keep: int) -> str:
    """A message cut ``keep`` characters into the template (its placeholder filled in)."""
    return template.replace("(.+?)", "zqvalue").replace("`", "")[: max(1, keep)]


@settings(max_examples=60, deadline=None)
@given(
    patterns=PATTERNS,
    picks=st.lists(st.tuples(st.integers(0, 11), st.integers(1, 60)), min_size=1, max_size=6),
    wide=st.booleans(),
)
def test_kept_prefix_answers_equal_a_fresh_index(
    patterns: list[str], picks: list[tuple[int, int]], wide: bool
) -> None:
    texts = [_cut(patterns[n % len(patterns)], keep) for n, keep in picks]
    used = PatternIndex(patterns)
    for text in texts:  # every text asked both ways, in turn, of one index
        for asked_wide in (False, True):
            got = [e.pattern for e in used.prefix_candidates(text, wide=asked_wide)]
            fresh = PatternIndex(patterns).prefix_candidates(text, wide=asked_wide)
            assert got == [e.pattern for e in fresh]
    unticked = unticked_index(used)
    for text in texts:
        first = [(e.pattern, e.records) for e in unticked.prefix_candidates(text, wide=wide)]
        again = unticked.prefix_candidates(text, wide=wide)
        assert [(e.pattern, e.records) for e in again] == first
        fresh_unticked = unticked_index(PatternIndex(patterns))
        assert [
            (e.pattern, e.records) for e in fresh_unticked.prefix_candidates(text, wide=wide)
        ] == first


@settings(max_examples=60, deadline=None)
@given(
    patterns=PATTERNS,
    picks=st.lists(st.tuples(st.integers(0, 11), st.integers(1, 60)), min_size=1, max_size=4),
)
def test_the_wide_pass_after_an_empty_first_pass_finds_what_it_finds_alone(
    patterns: list[str], picks: list[tuple[int, int]]
) -> None:
    texts = list(dict.fromkeys(_cut(patterns[n % len(patterns)], keep) for n, keep in picks))

    def found(hits: object) -> list[tuple[str, str, int]]:
        return [(f.entry.pattern, f.text, f.literal) for f in hits]  # type: ignore[attr-defined]

    tried: dict[str, set[str]] = {}
    first = found(_truncated_hits(PatternIndex(patterns), texts, tried=tried))
    second = found(_truncated_hits(PatternIndex(patterns), texts[:2], wide=True, tried=tried))
    alone = found(_truncated_hits(PatternIndex(patterns), texts[:2], wide=True))
    if not first:  # the only case the matcher runs the wide pass after the first
        assert second == alone
    else:  # a pattern read once against a text is not read against it again
        assert not {(p, t) for p, t, _ in second} & {(p, t) for p, t, _ in first}
