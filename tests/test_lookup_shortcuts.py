"""The miss path's shortcuts give what the plain readings they replace give.

A message no pattern matches as it is reaches the cut-off and near stages, which
read many patterns: :func:`~errcat.matcher.find._cut_inside` finds where a text
ends partway through a fragment without trying every length,
:meth:`PatternIndex.near` reads each pattern's words once (:attr:`Entry.words`, or
the words and literal length a stored index keeps, :class:`~errcat.index.NearColumns`,
building the :class:`~errcat.index.Entry` of only the patterns it returns),
and :meth:`PatternIndex.unpunctuated_candidates` skips, by the key's word mask,
keys whose words the text lacks. Each is checked against the reading it replaces.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.index import PatternIndex
from errcat.matcher.find import _cut_inside
from errcat.store.format import near_columns
from errcat.text import words

# Words no message or template holds by chance ("zq" + letters).
WORD = st.text("abcde", min_size=1, max_size=4).map(lambda w: "zq" + w)
SEP = st.sampled_from([" ", ", ", ". ", ": ", " = "])


@st.composite
def phrases(draw: st.DrawFn, min_size: int = 1, max_size: int = 6) -> str:
    """A few drawn words, each followed by a drawn separator (the last by none or ".")."""
    found = draw(st.lists(WORD, min_size=min_size, max_size=max_size))
    text = "".join(w + draw(SEP) for w in found[:-1]) + found[-1]
    return text + draw(st.sampled_from(["", "."]))


def _pattern(words_: str, group_at: int) -> str:
    """``words_`` (periods escaped), a placeholder after word ``group_at`` (none past the end)."""
    split = words_.replace(".", r"\.").split(" ")
    if group_at >= len(split):
        return " ".join(split)
    return " ".join([*split[: group_at + 1], "(.+?)", *split[group_at + 1 :]])


@settings(max_examples=300, deadline=None)
@given(phrases(), st.integers(0, 30), st.integers(0, 30), st.booleans())
def test_cut_inside_finds_the_longest_start_every_length_finds(
    fragment: str, keep: int, drop: int, glued: bool
) -> None:
    # A tail ending partway through the fragment (or not at all, when what is kept
    # was cut from its middle).
    kept = fragment[drop : drop + keep] if glued else fragment[:keep]
    for tail in (kept, "zq " + kept, kept + " zq", fragment, ""):
        brute = max(
            (n for n in range(1, min(len(fragment), len(tail)) + 1) if tail.endswith(fragment[:n])),
            default=0,
        )
        assert _cut_inside(fragment, tail) == brute


def _near_reference(index: PatternIndex, text: str, limit: int) -> list[tuple[int, int, str]]:
    """The reading ``near`` replaced: every pattern's words split again, all sorted."""
    message_words = set(words(text))
    scored = []
    for pid in index._proposed(text):
        entry = index.entry(pid)
        entry_words = set(words(" ".join(entry.fragments)))
        shared = len(entry_words & message_words)
        if entry_words and shared:
            overlap = 2 * shared / (len(entry_words) + len(message_words))
            scored.append((overlap, shared, len(entry_words), entry))
    scored.sort(key=lambda item: (-item[0], -item[3].literal_length, item[3].pattern))
    return [(shared, total, entry.pattern) for _, shared, total, entry in scored[:limit]]


TEMPLATES = st.lists(st.tuples(phrases(min_size=2), st.integers(0, 6)), min_size=1, max_size=10)


@settings(max_examples=150, deadline=None)
@given(TEMPLATES, phrases(min_size=1, max_size=8), st.integers(0, 6))
def test_near_finds_what_splitting_every_pattern_again_finds(
    templates: list[tuple[str, int]], text: str, limit: int
) -> None:
    patterns = sorted({_pattern(t, at) for t, at in templates})
    index = PatternIndex(patterns)
    expected = _near_reference(index, text, limit)
    # In memory (from each Entry), built as a stored index is (its NearColumns), and
    # read from tables as a stored index is read.
    stored = PatternIndex.from_tables(replace(index.tables(), near=near_columns(patterns)))
    for ranked in (index, PatternIndex(patterns, priors=True), stored):
        for _ in range(2):  # the second time from the words kept
            found = [(shared, total, e.pattern) for shared, total, e in ranked.near(text, limit)]
            assert found == expected
    assert len(stored._entries) <= limit  # only the patterns it returned were built


def test_near_past_the_limit_reads_the_spelling_of_those_tied_with_the_last() -> None:
    # Five patterns sharing one word of two with the text, of one literal length: the
    # spelling decides, also for those the sort on share and length put past the limit.
    patterns = [f"zqa (.+?) zq{c}" for c in "edcba"] + ["zqa zqx (.+?) zqy zqz"]
    stored = PatternIndex.from_tables(
        replace(PatternIndex(patterns).tables(), near=near_columns(patterns))
    )
    found = [e.pattern for _, _, e in stored.near("zqa zqq", limit=2)]
    assert found == ["zqa (.+?) zqa", "zqa (.+?) zqb"]
    assert found == [p for _, _, p in _near_reference(PatternIndex(patterns), "zqa zqq", 2)]


@settings(max_examples=150, deadline=None)
@given(TEMPLATES, st.integers(0, 9), phrases(max_size=4), phrases(max_size=3))
def test_unpunctuated_candidates_skip_only_keys_the_text_cannot_hold(
    templates: list[tuple[str, int]], pick: int, before: str, after: str
) -> None:
    patterns = sorted({_pattern(t, at) for t, at in templates})
    # A text quoting one template's rendering without its final period, a sentence going on.
    chosen = templates[pick % len(templates)][0].rstrip(".")
    text = f"{before} {chosen} {after.lower()} more"
    every_key_read = PatternIndex(patterns)
    for pid in range(len(patterns)):
        every_key_read._key(pid)  # no key left for the mask to skip
    found = [e.pattern for e in PatternIndex(patterns).unpunctuated_candidates(text)]
    assert found == [e.pattern for e in every_key_read.unpunctuated_candidates(text)]


def test_a_message_whose_period_a_sentence_replaced_is_still_proposed() -> None:
    index = PatternIndex([r"zqa zqb (.+?) zqc zqd\.", r"zqe zqf (.+?) zqg\."])
    text = "we saw zqa zqb 5 zqc zqd and then it stopped"
    assert [e.pattern for e in index.unpunctuated_candidates(text)] == [r"zqa zqb (.+?) zqc zqd\."]
