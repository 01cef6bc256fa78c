"""A title's own words before the message, with no mark between: read past when nothing answers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import errcat
from conftest import templates_catalog
from errcat.extract import extract_reports
from errcat.matcher.lead_words import LEAD_WORDS, MIN_LITERAL, lead_word_rests

_WORD = st.from_regex(r"[a-z]{3,9}", fullmatch=True)
_LEAD = st.lists(st.from_regex(r"[A-Za-z][a-z0-9.-]{1,8}", fullmatch=True), min_size=1, max_size=4)


_catalog = templates_catalog


@given(_LEAD, st.lists(st.from_regex(r"[a-z]{5,9}", fullmatch=True), min_size=5, max_size=8))
def test_a_message_after_the_writers_own_words_is_found(lead: list[str], words: list[str]) -> None:
    message = " ".join(words)
    catalog = _catalog(message + " for {name}")
    title = f"[Bug]: {' '.join(lead)} {message} for qwen3"
    match = errcat.match_error(title, catalog)
    assert match is not None and match.record.error_message == message + " for {name}"
    # Its offsets are the whole title's: the span ends where the title does.
    assert match.span[1] == len(title)
    first = errcat.match_all(title, catalog)[0]
    assert first.summary.id == match.summary.id


@given(_LEAD, _WORD)
def test_a_short_template_at_a_sentences_tail_is_not_an_answer(lead: list[str], value: str) -> None:
    # "flashAttention does not support fp8" is not vllm's "Not support {merge_type}".
    catalog = _catalog("Not support {merge_type}")
    assert len("Not support ") < MIN_LITERAL
    title = f"[Bug]: {' '.join(lead)} does not support {value}"
    assert errcat.match_error(title, catalog) is None


def test_an_answer_as_written_is_kept_and_a_colon_lead_is_not_read_past() -> None:
    catalog = _catalog("{prog}: error: {message}", "error: unrecognized arguments: {args}")
    title = "[Bug] launch_server.py: error: unrecognized arguments: --speculative-model x"
    match = errcat.match_error(title, catalog)
    assert match is None or not any("writer's" in r for r in match.reasons)
    assert lead_word_rests(title, extract_reports(title)) == []


@given(st.lists(_WORD, min_size=1, max_size=20))
def test_only_a_titles_first_words_are_read_past(words: list[str]) -> None:
    title = "[Bug]: " + " ".join(words)
    rests = lead_word_rests(title, extract_reports(title))
    assert len(rests) <= LEAD_WORDS
    assert all(title.endswith(rest) and len(rest) >= 20 for _, rest in rests)
    assert [offset for offset, _ in rests] == sorted(offset for offset, _ in rests)
    # A program's line (its class printed) is never read past.
    line = "ValueError: " + " ".join(words)
    assert lead_word_rests(line, extract_reports(line)) == []
