"""Ranking a report's matches (errcat.matcher.rank): the error a fixed phrase reports ranks first.

``Internal server error: Unimplemented model type: qwen2_5_vl_text``: a record whose
template is the phrase alone matches the start and leaves the rest unexplained; a
record that matches the rest to the message's end is the error the phrase reports.
"""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

import errcat
from conftest import templates_catalog
from errcat.matcher.rank import _reported
from errcat.matcher.result import _Coverage

_WORD = st.from_regex(r"[a-z]{3,9}", fullmatch=True)
_VALUE = st.from_regex(r"[a-z0-9_]{1,12}", fullmatch=True)


@given(
    st.lists(_WORD, min_size=2, max_size=4, unique=True),
    st.lists(_WORD, min_size=3, max_size=5, unique=True),
    _VALUE,
    st.sampled_from(["", "sglang: ", "[Bug] "]),
)
def test_the_error_a_fixed_phrase_reports_answers(
    phrase: list[str], words: list[str], value: str, lead: str
) -> None:
    assume(not set(phrase) & set(words))  # two messages of their own words
    head = " ".join(phrase).capitalize()
    inner = " ".join(words).capitalize() + ": {model_type}"
    catalog = templates_catalog(head, inner)
    text = f"{lead}{head.lower()}: {inner.format(model_type=value)}"
    found = [m for m in errcat.match_all(text, catalog) if m.record.error_message == inner]
    assume(found and found[0].confident)  # the reported error is a confident match there
    match = errcat.match_error(text, catalog)
    assert match is not None and match.record.error_message == inner, text


@given(
    st.lists(_WORD, min_size=3, max_size=4, unique=True),
    st.lists(_WORD, min_size=3, max_size=5, unique=True),
)
def test_a_phrase_followed_by_words_no_record_explains_still_answers(
    phrase: list[str], words: list[str]
) -> None:
    assume(not set(phrase) & set(words))
    head = " ".join(phrase).capitalize()
    catalog = templates_catalog(head, "Completely different message about {thing}")
    alone = errcat.match_error(head, catalog)
    assume(alone is not None)
    match = errcat.match_error(f"{head}: {' '.join(words)}", catalog)
    assert match is None or match.record.error_message == head


def test_only_an_error_after_a_colon_is_reported() -> None:
    text = "internal server error: unimplemented model type: x"
    phrase = _Coverage(text, 0, 21, 21, 1)
    assert _reported(phrase, _Coverage(text, 23, len(text), 26, 1))
    # Recased forms of one message align; words between the two are not a report.
    assert _reported(phrase, _Coverage(text.capitalize(), 23, len(text), 26, 1))
    assert not _reported(phrase, _Coverage(text, 31, len(text), 20, 1))
    assert not _reported(_Coverage("a b c", 0, 1, 1, 1), _Coverage("x y", 0, 3, 3, 1))
