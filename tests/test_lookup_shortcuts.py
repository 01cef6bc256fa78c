"""The miss path's shortcuts give what the plain readings they replace give.

A message no pattern matches as it is reaches the cut-off and near stages, which
read many patterns: :func:`~errcat.matcher.find._cut_at` finds a fragment's cut
without trying every length, :meth:`PatternIndex.near` reads each pattern's words
once (:attr:`Entry.words`), and
:meth:`PatternIndex.unpunctuated_candidates` skips, by the key's word mask, keys
whose words the text lacks. Each is checked against the reading it replaces.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.entry import Entry
from errcat.index import PatternIndex, _in_order, _rank_key
from errcat.matcher.find import _cut_at
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
    """``words_`` with one placeholder after word ``group_at`` (none past the end)."""
    split = words_.split(" ")
    if group_at >= len(split):
        return words_.replace(".", r"\.")
    return " ".join([*split[: group_at + 1], "(.+?)", *split[group_at + 1 :]]).replace(".", r"\.")


def _cut_at_reference(entry: Entry, text: str) -> tuple[int, str, str]:
    """The reading ``_cut_at`` replaced: every length of the fragment's start, longest first."""
    total, position, before = 0, 0, ""
    for fragment in entry.fragments:
        found = text.find(fragment, position)
        if found >= 0:
            total += len(fragment)
            position = found + len(fragment)
            before = fragment
            continue
        tail = text[position:]
        for size in range(min(len(fragment), len(tail)), 0, -1):
            if tail.endswith(fragment[:size]):
                return total + size, before, tail[: len(tail) - size]
        return total, before, tail
    return total, before, text[position:]


@settings(max_examples=300, deadline=None)
@given(phrases(), st.integers(0, 6), phrases(max_size=3), st.integers(0, 60), st.booleans())
def test_cut_at_reads_as_every_length_would(
    template: str, group_at: int, value: str, cut: int, tail_only: bool
) -> None:
    entry = Entry.build(_pattern(template, group_at), (0,))
    rendered = (
        template if group_at >= len(template.split(" ")) else template.replace(" ", f" {value} ", 1)
    )
    text = rendered[len(rendered) // 2 :] if tail_only else rendered
    text = text[: max(1, len(text) - cut)]
    assert _cut_at(entry, text) == _cut_at_reference(entry, text)


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
    index = PatternIndex(sorted({_pattern(t, at) for t, at in templates}))
    for _ in range(2):  # the second time from the words kept on each entry
        found = [(shared, total, e.pattern) for shared, total, e in index.near(text, limit)]
        assert found == _near_reference(index, text, limit)


def _unpunctuated_reference(index: PatternIndex, text: str) -> list[str]:
    """The reading ``unpunctuated_candidates`` replaced: every proposed pattern's key read."""
    found = []
    for pid in index._proposed(text):
        key = index.keys[pid]
        if len(key) < 2 or not key.endswith(".") or key[:-1] + " " not in text:
            continue
        entry = index.entry(pid)
        if (
            entry.pattern.endswith(r"\.")
            and not key[-2].isspace()
            and _in_order((*entry.fragments[:-1], entry.fragments[-1][:-1]), text)
        ):
            found.append(entry)
    found.sort(key=_rank_key)
    return [e.pattern for e in found]


@settings(max_examples=150, deadline=None)
@given(TEMPLATES, st.integers(0, 9), phrases(max_size=4), phrases(max_size=3))
def test_unpunctuated_candidates_skip_only_keys_the_text_cannot_hold(
    templates: list[tuple[str, int]], pick: int, before: str, after: str
) -> None:
    patterns = sorted({_pattern(t, at) for t, at in templates})
    index = PatternIndex(patterns)
    # A text quoting one template's rendering without its final period, a sentence going on.
    chosen = templates[pick % len(templates)][0].rstrip(".")
    text = f"{before} {chosen} {after.lower()} more"
    found = [e.pattern for e in index.unpunctuated_candidates(text)]
    assert found == _unpunctuated_reference(index, text)


def test_a_message_whose_period_a_sentence_replaced_is_still_proposed() -> None:
    index = PatternIndex([r"zqa zqb (.+?) zqc zqd\.", r"zqe zqf (.+?) zqg\."])
    text = "we saw zqa zqb 5 zqc zqd and then it stopped"
    assert [e.pattern for e in index.unpunctuated_candidates(text)] == [r"zqa zqb (.+?) zqc zqd\."]
