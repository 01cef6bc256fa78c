from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from errcat._calibration import KNOTS, WEIGHTS
from errcat.confidence import (
    FEATURES,
    RARITY_SCALE,
    THRESHOLD,
    TextEvidence,
    best_logit,
    catalog_rarity,
    fuzzy_probability,
    interpolate,
    probability,
    record_features,
    record_logit,
)

WEIGHT = dict(zip(FEATURES, WEIGHTS, strict=True))
unit = st.floats(0.0, 1.0)
evidence = st.builds(
    TextEvidence,
    mode=st.sampled_from(["full", "prefix", "inner", "truncated", "drift"]),
    literal=st.integers(0, 400),
    explained=unit,
    outside=unit,
    placeholders=st.integers(0, 9),
    information=st.floats(0.0, 200.0),
    background=st.integers(1, 50),
    catalog_rarity=st.integers(0, 500),
    records=st.integers(1, 9),
    present=unit,
    builtin=st.booleans(),
    bare=st.booleans(),
)
classes = st.sampled_from(["agree", "custom", "disagree", "unknown"])
kinds = st.sampled_from(["site", "raise_file", "file", "package", "elsewhere", "none"])


@given(unit, unit, st.floats(0.0, 1.0))
def test_a_fuzzy_hint_is_monotone_in_its_shared_words_and_never_an_answer(
    a: float, b: float, cap: float
) -> None:
    low, high = sorted((a, b))
    hint_cap = min(cap, THRESHOLD - 0.01)
    assert 0.0 <= fuzzy_probability(low, hint_cap) <= fuzzy_probability(high, hint_cap)
    assert fuzzy_probability(high, hint_cap) <= hint_cap < THRESHOLD


@given(evidence)
def test_the_text_logit_is_the_weighted_sum_of_its_features(text: TextEvidence) -> None:
    features = text.features()
    assert set(features) <= set(FEATURES)
    expected = sum(WEIGHT[name] * value for name, value in features.items())
    assert abs(text.logit() - expected) < 1e-9


@given(classes, kinds, st.booleans())
def test_the_record_logit_is_the_weighted_sum_of_its_features(
    state: str, kind: str, named: bool
) -> None:
    features = record_features(state, kind, named=named)
    expected = sum(WEIGHT[name] * value for name, value in features.items())
    assert abs(record_logit(state, kind, named=named) - expected) < 1e-9


@given(st.booleans(), st.lists(kinds, min_size=1, max_size=6, unique=True), classes, st.booleans())
def test_best_logit_bounds_every_record_the_report_allows(
    class_known: bool, allowed: list[str], state: str, named: bool
) -> None:
    if not class_known:
        state = "unknown"
    elif state == "unknown":
        state = "agree"
    for kind in allowed:
        bound = best_logit(class_known=class_known, frame_kinds=tuple(allowed))
        assert record_logit(state, kind, named=named) <= bound + 1e-12


@given(st.floats(-100.0, 100.0), st.floats(-100.0, 100.0))
def test_confidence_is_monotone_in_the_logit(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert 0.0 <= probability(low) <= probability(high) <= 1.0
    if KNOTS:
        assert probability(low) == interpolate(KNOTS, low)


@given(st.floats(-100.0, 100.0), st.floats(-100.0, 100.0))
def test_bare_confidence_is_monotone_in_the_logit(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert 0.0 <= probability(low, bare=True) <= probability(high, bare=True) <= 1.0


@given(evidence)
def test_a_bare_report_has_text_weights_of_its_own(text: TextEvidence) -> None:
    features = text.features()
    own = [name for name in features if name.startswith("bare_")]
    assert own
    for name in own:
        shared = name.removeprefix("bare_")
        if text.bare:
            assert features[shared] == 0.0
        else:
            assert features[name] == 0.0


def test_a_project_class_that_agrees_counts_as_agreement_and_more() -> None:
    custom = record_features("custom", "none")
    assert custom["class_agree"] == 1.0
    assert custom["class_custom"] == 1.0
    assert record_features("agree", "none")["class_custom"] == 0.0


@given(st.integers(0, 10**6), st.integers(1, 10**7), st.integers(1, 50))
def test_a_word_count_is_read_as_a_share_of_catalogs_above_the_fitted_size(
    count: int, patterns: int, k: int
) -> None:
    rarity = catalog_rarity(count, patterns)
    if patterns <= RARITY_SCALE:
        assert rarity == count  # the sizes the model was fitted on: a count is a count
    else:
        assert rarity < count or count == 0
        # The same share of a catalog k times as large reads the same.
        assert math.isclose(catalog_rarity(count * k, patterns * k), rarity, rel_tol=1e-9)
    # A larger catalog never makes a word held by as many patterns look more common.
    assert catalog_rarity(count, patterns + 1) <= rarity
