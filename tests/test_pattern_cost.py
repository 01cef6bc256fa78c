"""Patterns too costly to compile are refused before ``regex`` spells them out (issue 28)."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.errors import InvalidRecordError
from errcat.models import validate_envelope
from errcat.pattern_cost import MAX_DEPTH, MAX_REPEAT, pattern_problem


def _envelope_with(pattern: str) -> dict[str, object]:
    data = make_envelope().model_dump(by_alias=True, mode="json")
    data["record"]["messagePattern"] = pattern
    data["record"]["errorMessage"] = "bad value {x}"
    return data


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        ("bad value (a{1000000000})", "counted repeat of 1000000000"),
        ("bad value ((x{100}){1000})", "counted repeat of 100000"),
        ("bad value " + "(?:" * 300 + "(.+?)" + ")" * 300, "groups nested"),
    ],
)
def test_a_costly_pattern_is_an_invalid_record(pattern: str, why: str) -> None:
    """Case 2: (a{1000000000}) used ~23 GiB under validate; 300 nested groups overflowed
    the stack of regex's parser."""
    with pytest.raises(InvalidRecordError, match=why):
        validate_envelope(_envelope_with(pattern))


# A small grammar of patterns (literals, classes, groups, counted repeats), each drawn with
# what it spells out: its largest repeat times the repeats of the groups around it.
_Drawn = tuple[str, int, int]  # pattern, weight, group depth
_atom = st.sampled_from(["a", r"\d", "[ab]", "[{]", ".", r"\{", "x"])
_count = st.one_of(
    st.sampled_from([("", 1), ("*", 1), ("+?", 1), ("?", 1)]),
    st.integers(0, 3000).map(lambda n: (f"{{{n}}}", max(1, n))),
    st.tuples(st.integers(0, 50), st.integers(50, 3000)).map(
        lambda t: (f"{{{t[0]},{t[1]}}}", t[1])
    ),
)


def _leaf(pair: tuple[str, tuple[str, int]]) -> _Drawn:
    atom, (quantifier, bound) = pair
    return atom + quantifier, bound, 0


def _sequence(parts: list[_Drawn]) -> _Drawn:
    return "".join(p[0] for p in parts), max(p[1] for p in parts), max(p[2] for p in parts)


def _group(pair: tuple[_Drawn, tuple[str, int], str]) -> _Drawn:
    (inner, weight, depth), (quantifier, bound), opening = pair
    return f"{opening}{inner}){quantifier}", weight * bound, depth + 1


_patterns = st.recursive(
    st.tuples(_atom, _count).map(_leaf),
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map(_sequence),
        st.tuples(inner, _count, st.sampled_from(["(", "(?:"])).map(_group),
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(_patterns)
def test_a_pattern_is_refused_exactly_when_it_spells_out_too_much(drawn: _Drawn) -> None:
    pattern, weight, depth = drawn
    problem = pattern_problem(pattern)
    assert (problem is None) == (weight <= MAX_REPEAT and depth <= MAX_DEPTH), problem
    if problem is None:
        regex.compile(pattern)


def test_deep_nesting_is_refused_past_the_bound() -> None:
    assert pattern_problem("(" * MAX_DEPTH + "x" + ")" * MAX_DEPTH) is None
    regex.compile("(" * MAX_DEPTH + "x" + ")" * MAX_DEPTH)
    deeper = "(?:" * (MAX_DEPTH + 1) + "x" + ")" * (MAX_DEPTH + 1)
    assert pattern_problem(deeper) == f"groups nested {MAX_DEPTH + 1} deep (at most {MAX_DEPTH})"
