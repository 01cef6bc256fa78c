"""A wrapper's message that holds an error a record explains: that record answers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD, make_envelope
from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.matcher import match_error
from errcat.matcher.collect import _collect
from errcat.matcher.inner_cause import inner_cause, inside
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern
from errcat.tags import WRAPPER_TAG

_LEAD = "zqwatchdog thread terminated with exception: "


def _record(letters: str, message: str, path: str, *tags: str) -> RecordEnvelope:
    return make_envelope(
        id=letters * 8,
        slug=f"record-{letters}",
        errorMessage=message,
        messagePattern=template_to_pattern(message),
        errorClass="RuntimeError",
        filePath=path,
        tags=list(tags),
    )


def _wrapper() -> RecordEnvelope:
    return _record("aa", _LEAD + "{what}", "zq/watchdog.cpp", WRAPPER_TAG)


def _inner(words: list[str]) -> RecordEnvelope:
    return _record("bb", "ZQDEV error: " + " ".join(words), "zq/device.cpp")


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(ZQ_WORD, min_size=3, max_size=5, unique=True),
    tail=st.lists(ZQ_WORD, min_size=3, max_size=6),
    rank=st.integers(0, 7),
    lines=st.booleans(),
)
def test_the_error_inside_a_wrapper_answers_and_the_wrapper_is_related(
    words: list[str], tail: list[str], rank: int, lines: bool
) -> None:
    """On one line, or with the inner error's own lines after it (the capture is folded)."""
    inner = "ZQDEV error: " + " ".join(words)
    more = ("\nZQDEV notes: " + " ".join(tail) + ".\nzqhint " + " ".join(tail)) if lines else ""
    text = f"[Rank {rank}] {_LEAD}{inner}{more}"
    catalog = Catalog([_wrapper(), _inner(words)])
    found = match_error(text, catalog=catalog)
    assert found is not None and found.summary.id == "bb" * 8
    # The rule itself, handed the wrapper's match (as a catalog whose inner record reads
    # as a generic shape alone would leave it): the inner record, the wrapper related.
    collector = _collect(extract_reports(text), catalog, 5)
    wrapper = next(
        m
        for ctx in collector.contexts
        for m in collector.ranked_matches(ctx.order)
        if m.summary.id == "aa" * 8
    )
    unwrapped = inner_cause(wrapper, collector)
    assert unwrapped is not None and unwrapped.summary.id == "bb" * 8
    assert [m.summary.id for m in unwrapped.related] == ["aa" * 8]


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(ZQ_WORD, min_size=3, max_size=5, unique=True),
    other=st.lists(ZQ_WORD, min_size=3, max_size=5),
)
def test_a_wrapper_around_an_error_no_record_explains_stays_the_answer(
    words: list[str], other: list[str]
) -> None:
    text = f"{_LEAD}zqunknown failure " + " ".join(other) + "\nzqmore " + " ".join(words)
    catalog = Catalog([_wrapper(), _inner(words)])
    found = match_error(text, catalog=catalog)
    assert found is not None and found.summary.id == "aa" * 8
    assert inner_cause(found, _collect(extract_reports(text), catalog, 5)) is found


@given(words=st.lists(ZQ_WORD, min_size=3, max_size=5))
def test_inside_needs_the_records_longest_literal_in_a_capture(words: list[str]) -> None:
    """Three words or more after the placeholder: the longest literal run is theirs."""
    template = "ZQDEV error: {x} " + " ".join(words)
    assert inside(template, (None, "then ZQDEV  error: 3 " + " ".join(words)))
    assert not inside(template, ("ZQDEV error:",))
    assert not inside("{a}: {b}", ("anything: at all",))
