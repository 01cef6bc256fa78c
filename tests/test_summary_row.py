"""A record summary's stored row: what the stored index writes is what a first answer reads."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errcat.background import WordEvidence
from errcat.store import RecordSummary

# Field text without the row's separators ("zq"-prefixed: no common word drawn).
_TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\x1e\x1f"))
_WORD = st.from_regex(r"zq[a-z:]{0,8}", fullmatch=True)


@given(
    fields=st.tuples(_TEXT, _TEXT, _TEXT, _TEXT, _TEXT, _TEXT),
    line=st.integers(min_value=0, max_value=10**6),
    tags=st.lists(_WORD, max_size=4).map(tuple),
)
def test_row_round_trip(fields: tuple[str, ...], line: int, tags: tuple[str, ...]) -> None:
    rid, slug, error_class, path, repo, message = fields
    summary = RecordSummary(rid, slug, error_class, path, line, repo, message, tags)
    read = RecordSummary.decode(summary.encode())
    assert read == summary
    assert hash(read) == hash(summary)
    assert (read.line_number, read.tags, read.error_message) == (line, tags, message)


def test_summary_and_word_evidence_stay_immutable() -> None:
    summary = RecordSummary("0" * 16, "zq-slug", "ValueError", "a/b.py", 3, "o/r", "zq", ())
    evidence = WordEvidence(1.5, 2, True, False)
    with pytest.raises(AttributeError):
        summary.line_number = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        evidence.projects = 3  # type: ignore[misc]
    assert RecordSummary.decode(summary.encode()).tags == ()
