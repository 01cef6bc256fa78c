"""A generic shape answers only with evidence that the catalog holds this error.

See :mod:`errcat.matcher.generic`: a value holding a whole clause that the
pattern's few words frame (``Length mismatch: {details}``), and a shape the
background shows raised at five places or more, are hints without a frame in
the record's file or package, however sure the model is of the words.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import one_frame_traceback, site_envelope
from errcat.catalog import Catalog
from errcat.confidence import TextEvidence
from errcat.matcher import match_all, match_error
from errcat.matcher.generic import generic_shape, holds_clause
from errcat.models import RecordEnvelope

#: Words no background or catalog holds: drawn values never meet a real word ("non", "Is").
zq_words = st.from_regex(r"zq[a-z]{2,8}", fullmatch=True)
#: Tokens of a value that are not words: numbers, punctuation, a single letter.
non_words = st.sampled_from(["3", "4.5", "-", "x", "(7)", "=", "0x1f"])


def _catalog(template: str, cls: str = "ValueError") -> Catalog:
    """The record of ``template`` among unrelated fillers (a catalog's word counts)."""
    fillers = [_record(10 + n, f"zqfill{n} zqthing {{x}}", "ValueError") for n in range(30)]
    return Catalog([_record(1, template, cls), *fillers])


def _record(n: int, template: str, cls: str) -> RecordEnvelope:
    return site_envelope(n, "org0/proj0", "proj0/core.py", cls, template)


def _traceback(line: str) -> str:
    """``line`` raised in the record's file (a frame that ties the record to the report)."""
    path = "/venv/lib/python3.12/site-packages/proj0/core.py"
    return one_frame_traceback(path, "check", "raise ValueError(message)", line)


@settings(max_examples=80, deadline=None)
@given(
    words=st.lists(zq_words, min_size=0, max_size=6),
    fillers=st.lists(non_words, max_size=4),
    data=st.data(),
)
def test_a_clause_is_as_many_words_between_spaces(
    words: list[str], fillers: list[str], data: st.DataObject
) -> None:
    # Four words make a clause; names joined by underscores or dots are one word,
    # numbers and signs none, a quoted name none either (a value's repr).
    tokens = [*words, *fillers]
    order = data.draw(st.permutations(tokens)) if tokens else []
    value = " ".join(order)
    assert holds_clause([value]) == (len(words) >= 4)
    assert not holds_clause(["_".join(words), ".".join(words), None])
    assert not holds_clause([f"'{value}' at 0", f'"{value}"'])
    assert holds_clause([None, "x", value]) == holds_clause([value])


@settings(max_examples=25, deadline=None)
@given(words=st.lists(zq_words, min_size=1, max_size=6, unique=True))
def test_few_words_framing_a_clause_need_a_frame(words: list[str]) -> None:
    # "Length mismatch: {details}" (13 bits) frames whatever clause pandas, or anyone,
    # puts after it: a few words after it are the record's value, four a clause.
    catalog = _catalog("Length mismatch: {details}")
    line = f"ValueError: Length mismatch: {' '.join(words)}"
    m = match_error(line, catalog=catalog)
    if len(words) >= 4:
        assert m is None
        top = match_all(line, catalog=catalog)
        assert top and top[0].summary.id == f"{1:016x}"
        assert any("a value holds a whole clause" in r for r in top[0].reasons)
        m = match_error(_traceback(line), catalog=catalog)
    assert m is not None and m.summary.id == f"{1:016x}" and m.confident


@pytest.mark.parametrize(
    ("template", "line", "places"),
    [
        (
            "All dimensions of input must be of equal length",
            "ValueError: All dimensions of input must be of equal length",
            2,
        ),
        (
            "order must be non-negative but got {n}",
            "ValueError: order must be non-negative but got -1",
            3,
        ),
        (
            "Array shapes are incompatible for broadcasting",
            "ValueError: Array shapes are incompatible for broadcasting",
            4,
        ),
        (
            "The order of integration must be non-negative",
            "ValueError: The order of integration must be non-negative",
            5,
        ),
        ("Invalid mode: {mode!r}", "ValueError: Invalid mode: 'rbt'", 9),
    ],
)
def test_a_shape_raised_at_many_places_needs_a_frame(template: str, line: str, places: int) -> None:
    # A few places of the background (a project's copies of one check) leave the words
    # to the model, which is sure of these; five or more raise one shape whatever the
    # model makes of it.
    catalog = _catalog(template)
    m = match_error(line, catalog=catalog)
    if places < 5:
        assert m is not None and m.confident
        return
    assert m is None
    top = match_all(line, catalog=catalog)
    assert top and top[0].summary.id == f"{1:016x}"
    assert any(f"{places} places in Python at large raise it" in r for r in top[0].reasons)
    m = match_error(_traceback(line), catalog=catalog)
    assert m is not None and m.summary.id == f"{1:016x}" and m.confident


@given(
    bits=st.floats(min_value=6.0, max_value=80.0),
    background=st.integers(min_value=1, max_value=8),
    sure=st.floats(min_value=0.0, max_value=1.0),
    clause=st.booleans(),
)
@example(bits=20.0, background=1, sure=0.9, clause=True)
@example(bits=15.0, background=1, sure=0.9, clause=True)
@example(bits=40.0, background=4, sure=0.9, clause=False)
@example(bits=40.0, background=5, sure=0.9, clause=False)
def test_the_generic_reasons_are_each_rule(
    bits: float, background: int, sure: float, clause: bool
) -> None:
    evidence = TextEvidence("full", 20, 0.5, 0.0, 1, bits, background, 0.0, 1)
    why = generic_shape(evidence, False, confidence=sure, clause=clause)
    if background >= 5:
        assert why == f"{background} places in Python at large raise it"
    elif clause and bits < 16.0:
        assert why is not None and "whole clause" in why
    elif background > 1 and sure < 0.85:
        assert why == f"{background} places in Python at large raise it"
    else:
        assert why is None


def test_a_wrapper_whose_words_name_it_keeps_the_message_it_wraps() -> None:
    # "PTXAS error: {error_message}" (21 bits) names whose wrapper it is: the clause
    # it holds is the message it wraps, and the answer stands without a frame.
    catalog = _catalog("PTXAS error: {error_message}", "RuntimeError")
    m = match_error("RuntimeError: PTXAS error: Internal Triton PTX codegen error", catalog=catalog)
    assert m is not None and m.summary.id == f"{1:016x}" and m.confident
