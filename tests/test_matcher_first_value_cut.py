"""Titles cut inside the first value they quote (matcher.first_value_cut).

``ValueError: The model's max seq len (32768)`` (a title stopping after the message's
first value) had no answer: the index files the template under words past the cut, and
the passes reading templates it did not propose asked a cut-off text for 30 literal
characters, which an opening of 25 does not reach.
"""

from __future__ import annotations

from functools import cache

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD, templates_catalog
from errcat.catalog import Catalog
from errcat.index import RARE_WORD, WIDE_FIRST_WORD
from errcat.matcher import match_error
from errcat.matcher.first_value_cut import FIRST_VALUE_MIN_CHARS, cut_in_first_value

FIVE = st.lists(ZQ_WORD, min_size=5, max_size=5, unique=True)
VALUE = st.from_regex(r"[0-9a-z_.\-]{1,12}", fullmatch=True)
#: The target's id: ``templates_catalog`` numbers its records from 1; the target is first.
TARGET_ID = "0000000000000001"


@cache
def _openers() -> tuple[str, ...]:
    """More templates opening with ``The`` than the wide pass reads one by one."""
    return tuple(f"The zz{n:04d} value {{x}}" for n in range(WIDE_FIRST_WORD + 20))


def _catalog(words: list[str]) -> tuple[Catalog, str]:
    """The target template, and others that make its opening words common (not anchors)."""
    a, b, c, d, _ = words
    opening = f"The {a} {b} {c} len ("
    template = f"{opening}{{n}}) is larger than {d} cache ({{m}}). Try zqeb."
    sharing = tuple(f"{a} {b} {c} zz{n:03d} ({{x}})" for n in range(RARE_WORD + 6))
    return templates_catalog(template, *_openers(), *sharing), opening


def _answer(words: list[str], paste: str, longest: int = 29) -> str | None:
    """The id of the record answering ``paste``, for an opening of 20 to ``longest`` chars."""
    catalog, opening = _catalog(words)
    assume(FIRST_VALUE_MIN_CHARS <= len(opening) <= longest)
    found = match_error(paste.format(opening=opening), catalog=catalog)
    return None if found is None else found.summary.id


@settings(max_examples=8, deadline=None)
@given(words=FIVE, value=st.integers(1, 10**6))
def test_a_title_cut_after_its_first_value_answers_its_template(
    words: list[str], value: int
) -> None:
    assert _answer(words, f"ValueError: {{opening}}{value})") == TARGET_ID


@settings(max_examples=8, deadline=None)
@given(words=FIVE, value=st.integers(1, 10**6))
def test_the_writer_s_words_after_the_value_are_no_such_cut(words: list[str], value: int) -> None:
    # (not after " for ": a title's form reads the text before it, "... (32768) for Llama";
    # nor with a 29-character opening, whose ")" makes the 30 characters any cut-off needs)
    paste = f"ValueError: {{opening}}{value}) {words[4]} zqgh"
    assert _answer(words, paste, longest=28) != TARGET_ID


@settings(max_examples=50, deadline=None)
@given(words=st.lists(ZQ_WORD, min_size=3, max_size=5), value=VALUE, more=st.integers(0, 8))
def test_the_opening_then_one_token_is_a_cut_in_the_first_value(
    words: list[str], value: str, more: int
) -> None:
    opening = " ".join(words) + " ("
    following = ") is larger than zqab"
    held = len(opening) + more
    text = opening + value + following[:more]
    expected = held >= FIRST_VALUE_MIN_CHARS
    assert cut_in_first_value((opening, following), text, held) is expected


@settings(max_examples=50, deadline=None)
@given(words=st.lists(ZQ_WORD, min_size=4, max_size=5), value=VALUE, other=ZQ_WORD)
def test_a_space_in_what_follows_the_opening_is_no_cut_in_a_value(
    words: list[str], value: str, other: str
) -> None:
    opening = " ".join(words) + " ("
    assert not cut_in_first_value((opening, ") is zqab"), f"{opening}{value} {other}", 40)
    # nor is a text that does not hold the opening whole
    assert not cut_in_first_value((opening, ")"), opening[:-2] + value, 40)
