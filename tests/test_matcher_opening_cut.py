"""Texts cut inside the opening of a template whose first word is common (matcher.opening_cut).

``[Bug]: Regression in v0.14.0: "No valid attention backend found" for ...`` (a title
quoting the message's first words) had no answer: the index proposes a pattern by words
the cut removed, and the wide pass reads the patterns opening with ``No`` only when the
word opens few of them.
"""

from __future__ import annotations

from functools import cache

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD, templates_catalog
from errcat.catalog import Catalog
from errcat.index import WIDE_FIRST_WORD, PatternIndex
from errcat.matcher import match_error
from errcat.matcher.opening_cut import opening_candidates

FOUR = st.lists(ZQ_WORD, min_size=4, max_size=4, unique=True)
#: The target's id: ``templates_catalog`` numbers its records from 1; the target is first.
TARGET_ID = "0000000000000001"


@cache
def _others() -> tuple[str, ...]:
    """More templates opening with ``No`` than the wide pass reads one by one."""
    return tuple(f"No zz{n:04d} value for {{x}}" for n in range(WIDE_FIRST_WORD + 20))


def _catalog(template: str) -> Catalog:
    return templates_catalog(template, *_others())


def _answer(words: list[str], paste: str) -> str | None:
    """The id of the record answering ``paste`` (the ``{opening}`` in it filled in)."""
    a, b, c, _ = words
    opening = f"No {a} {b} {c} found"
    assume(len(opening) >= 30)
    template = f"{opening} for {{device}} with {{config}}. Reasons: {{reasons}}."
    found = match_error(paste.format(opening=opening), catalog=_catalog(template))
    return None if found is None else found.summary.id


@settings(max_examples=8, deadline=None)
@given(words=FOUR)
def test_a_quoted_opening_in_a_title_answers_its_template(words: list[str]) -> None:
    title = f'[Bug]: Regression in v0.14.0: "{{opening}}" for {words[3]} on RTX Pro 6000'
    assert _answer(words, title) == TARGET_ID


@settings(max_examples=8, deadline=None)
@given(words=FOUR)
def test_the_opening_cut_at_its_end_alone_answers(words: list[str]) -> None:
    assert _answer(words, "ValueError: {opening}") == TARGET_ID


@settings(max_examples=20, deadline=None)
@given(words=FOUR, extra=st.integers(0, WIDE_FIRST_WORD))
def test_only_a_first_word_the_wide_pass_skips_is_read(words: list[str], extra: int) -> None:
    # The wide pass reads the patterns a rarer first word opens: they are not read twice.
    a, b, c, _ = words
    patterns = [f"No {a} {b} {c} found for (.+?)"] + [f"No zz{n} (.+?)" for n in range(extra)]
    found = opening_candidates(PatternIndex(patterns), f"No {a} {b}")
    assert [e.pattern for e in found] == ([patterns[0]] if extra >= WIDE_FIRST_WORD else [])


@settings(max_examples=8, deadline=None)
@given(words=FOUR)
def test_other_words_after_the_opening_are_no_cut(words: list[str]) -> None:
    a, b, _, d = words
    assert _answer(words, f"ValueError: No {a} {b} {d} found") != TARGET_ID
