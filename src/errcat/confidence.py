"""Confidence as a probability: the evidence for a match, weighed by a fitted model.

Every candidate record gets a feature vector (how the pattern matched, how much
specific text it explains, how common that text is in the loaded catalog and
across Python at large, whether the exception class agrees, what the
traceback's frames say) and a confidence ``sigmoid(w · x)``. The weights ``w``
were fitted by logistic regression on a labelled corpus of real exceptions
(``benchmarks/calibrate.py``, which writes ``errcat/_calibration.py``), so that
answers given at confidence ``c`` are right about ``c`` of the time.

The features split into a text part, shared by every record of one pattern,
and a record part; :func:`best_logit` bounds the record part, so that records
which cannot reach a threshold are never scored.

>>> text = TextEvidence(
...     mode="full",
...     literal=40,
...     explained=1.0,
...     outside=0.0,
...     placeholders=0,
...     information=60.0,
...     background=1,
...     catalog_rarity=1,
...     records=1,
... )
>>> agree_at_site = probability(text.logit() + record_logit("agree", "site"))
>>> no_evidence = probability(text.logit() + record_logit("unknown", "none"))
>>> 0.0 < no_evidence < agree_at_site < 1.0
True
"""

from __future__ import annotations

import bisect
import functools
import math
from dataclasses import dataclass

from errcat._calibration import KNOTS, KNOTS_BARE, KNOTS_FUZZY, THRESHOLD, WEIGHTS

__all__ = [
    "FEATURES",
    "RARITY_SCALE",
    "THRESHOLD",
    "TextEvidence",
    "best_logit",
    "catalog_rarity",
    "fuzzy_probability",
    "interpolate",
    "probability",
    "record_features",
    "record_logit",
    "text_logit_ceiling",
]

#: The model's features, in the order of :data:`errcat._calibration.WEIGHTS`.
FEATURES: tuple[str, ...] = (
    "bias",
    "mode_prefix",
    "mode_inner",
    "mode_truncated",
    "mode_drift",
    "log_literal",
    "explained",
    "outside_match",
    "placeholders",
    "information",
    "background_common",
    "catalog_common",
    "present_share",
    "builtin_wording",
    "class_agree",
    "class_disagree",
    "frame_site",
    "frame_raise_file",
    "frame_file",
    "frame_package",
    "frame_elsewhere",
    "repo_named",
    "class_custom",
    "bare",
    "bare_explained",
    "bare_log_literal",
    "bare_outside_match",
    "bare_placeholders",
    "bare_information",
    "bare_background_common",
    "bare_catalog_common",
    "bare_builtin_wording",
)
#: Text features weighed apart when the report has no traceback frames: a bare
#: line's text is all the evidence there is, so these have a weight of their own
#: there (``bare_<name>``, with the same sign constraint), and ``<name>`` is 0.
_BARE = (
    "explained",
    "log_literal",
    "outside_match",
    "placeholders",
    "information",
    "background_common",
    "catalog_common",
    "builtin_wording",
)
_W = dict(zip(FEATURES, WEIGHTS, strict=True))
#: Bits of background information counted at most (beyond it, text is specific anyway).
_MAX_BITS = 80.0


def interpolate(knots: tuple[tuple[float, float], ...], logit: float) -> float:
    """The monotone map from a logit to a confidence: linear between knots, flat outside.

    >>> interpolate(((-1.0, 0.1), (1.0, 0.9)), 0.0)
    0.5
    >>> interpolate(((-1.0, 0.1), (1.0, 0.9)), 5.0)
    0.9
    """
    if logit <= knots[0][0]:
        return knots[0][1]
    if logit >= knots[-1][0]:
        return knots[-1][1]
    at = bisect.bisect_left(knots, (logit,))
    (x0, y0), (x1, y1) = knots[at - 1], knots[at]
    return y0 + (y1 - y0) * (logit - x0) / (x1 - x0)


def probability(logit: float, *, bare: bool = False) -> float:
    """The confidence for a logit: the fitted map when there is one, else the logistic function.

    Reports without traceback frames (``bare``) have a map of their own. It is
    monotone in the logit, so bounds on logits bound confidences.

    >>> probability(-2.0) < probability(2.0)
    True
    """
    knots = KNOTS_BARE if bare and KNOTS_BARE else KNOTS
    if knots:
        return interpolate(knots, logit)
    if logit >= 0:
        return 1.0 / (1.0 + math.exp(-logit))
    z = math.exp(logit)
    return z / (1.0 + z)


def fuzzy_probability(
    share: float, cap: float, knots: tuple[tuple[float, float], ...] = KNOTS_FUZZY
) -> float:
    """The confidence of a fuzzy hint (no pattern matched) sharing ``share`` of the words.

    ``share`` is the mean of the share of the record's words in the message and
    of the message's words in the record. The fitted map (``knots``, by default
    ``KNOTS_FUZZY`` from ``benchmarks/calibrate.py --shipped``) gives how often
    such hints are right (without one: ``cap * share``); a hint never passes
    ``cap`` (it is not an answer).

    >>> fuzzy_probability(0.2, 0.49) <= fuzzy_probability(0.9, 0.49) <= 0.49
    True
    """
    value = interpolate(knots, share) if knots else cap * share
    return min(value, cap)


#: The size (in patterns) a catalog's word counts are taken at. The model was fitted on
#: catalogs of up to 24,985 patterns (the stdlib's and sglang+vllm's records in one
#: file), where a count is a count;
#: a larger catalog's counts are scaled down to this size, since a word held by 500 of
#: 100,000 patterns is as rare as one held by 125 of 25,000.
RARITY_SCALE = 25_000


def catalog_rarity(count: int, patterns: int) -> float:
    """How many patterns hold a word, counted as in a catalog of at most :data:`RARITY_SCALE`.

    ``count`` is how many of the catalog's ``patterns`` hold the word.

    >>> catalog_rarity(40, 3_000)
    40
    >>> catalog_rarity(400, 100_000)
    100.0
    """
    if patterns <= RARITY_SCALE:
        return count
    return count * RARITY_SCALE / patterns


@dataclass(frozen=True, slots=True)
class TextEvidence:
    """What the text alone says for one pattern's hit on one message.

    ``mode`` is how the pattern matched (``full``, ``prefix``, ``inner``,
    ``truncated`` or ``drift``); ``literal`` the literal characters of the
    pattern the message holds; ``explained`` the share of the message they
    explain (values counted up to 24 characters); ``outside`` the share of the
    message outside the match (a wrapper's text, an appended clause);
    ``placeholders`` how many values the pattern captured; ``information``
    the bits of evidence in the literal words
    (:func:`errcat.background.information`); ``background`` at how many places
    (files, at most five per project) the background raises the same shape;
    ``catalog_rarity`` in how many patterns of the loaded catalog the rarest
    word occurs; ``records`` how many records share the
    pattern; ``present`` the share of the pattern's literal text present (below
    1 only for truncated and drifted messages); ``builtin`` whether CPython's C
    code raises the same wording (:func:`errcat.background.raised_by_builtins`);
    ``bare`` whether the report has no traceback frames (the text is all the
    evidence there is, so the text features weigh differently).
    """

    mode: str
    literal: int
    explained: float
    outside: float
    placeholders: int
    information: float
    background: int
    catalog_rarity: float
    records: int
    present: float = 1.0
    builtin: bool = False
    bare: bool = False

    def features(self) -> dict[str, float]:
        """The text features by name."""
        out = {
            "bias": 1.0,
            "mode_prefix": float(self.mode == "prefix"),
            "mode_inner": float(self.mode == "inner"),
            "mode_truncated": float(self.mode == "truncated"),
            "mode_drift": float(self.mode == "drift"),
            "log_literal": math.log1p(self.literal),
            "explained": self.explained,
            "outside_match": self.outside,
            "placeholders": float(min(self.placeholders, 5)),
            "information": min(self.information, _MAX_BITS) / 10.0,
            "background_common": math.log(max(1, self.background)),
            "catalog_common": math.log(max(1, self.catalog_rarity)),
            "present_share": 1.0 - self.present,
            "builtin_wording": float(self.builtin),
            "bare": float(self.bare),
        }
        for name in _BARE:
            out[f"bare_{name}"] = out[name] if self.bare else 0.0
            if self.bare:
                out[name] = 0.0
        return out

    def logit(self) -> float:
        """The text part of the logit (the sum of :meth:`features` times their weights)."""
        w = _W_BARE if self.bare else _W
        return (
            w["bias"]
            + w["mode_prefix"] * (self.mode == "prefix")
            + w["mode_inner"] * (self.mode == "inner")
            + w["mode_truncated"] * (self.mode == "truncated")
            + w["mode_drift"] * (self.mode == "drift")
            + w["log_literal"] * math.log1p(self.literal)
            + w["explained"] * self.explained
            + w["outside_match"] * self.outside
            + w["placeholders"] * min(self.placeholders, 5)
            + w["information"] * min(self.information, _MAX_BITS) / 10.0
            + w["background_common"] * math.log(max(1, self.background))
            + w["catalog_common"] * math.log(max(1, self.catalog_rarity))
            + w["present_share"] * (1.0 - self.present)
            + w["builtin_wording"] * self.builtin
        )


def text_logit_ceiling(
    *,
    mode: str,
    literal: int,
    explained: float,
    outside: float,
    placeholders: int,
    information: float | None,
    background: int | None,
    catalog_rarity: float,
    present: float,
    builtin: bool | None,
    bare: bool,
) -> float:
    """The highest :meth:`TextEvidence.logit` of evidence that is known only in part.

    ``explained`` is the most the share explained can be; ``information``,
    ``background`` and ``builtin`` are None when not known yet (their worst
    and best cases both count); the other features are as :class:`TextEvidence`
    has them. A pattern whose ceiling cannot reach what its report's results
    already hold is left without working its evidence out (the model is
    monotone in each feature, so the ceiling takes each unknown feature at its
    better end). ``inf`` when an unknown feature has no bound on its better end.

    >>> known = dict(
    ...     mode="full",
    ...     literal=30,
    ...     outside=0.0,
    ...     placeholders=1,
    ...     catalog_rarity=3,
    ...     present=1.0,
    ...     bare=True,
    ... )
    >>> evidence = TextEvidence(
    ...     explained=0.8, information=40.0, background=2, builtin=False, records=1, **known
    ... )
    >>> exact = text_logit_ceiling(
    ...     explained=0.8, information=40.0, background=2, builtin=False, **known
    ... )
    >>> exact >= evidence.logit() - 1e-9
    True
    >>> text_logit_ceiling(
    ...     explained=1.0, information=None, background=2, builtin=None, **known
    ... ) >= evidence.logit()
    True
    """
    w = _W_BARE if bare else _W
    total = (
        w["bias"]
        + w["mode_prefix"] * (mode == "prefix")
        + w["mode_inner"] * (mode == "inner")
        + w["mode_truncated"] * (mode == "truncated")
        + w["mode_drift"] * (mode == "drift")
        + w["log_literal"] * math.log1p(literal)
        + max(w["explained"] * explained, 0.0)  # the share is anywhere from 0 up
        + w["outside_match"] * outside
        + w["placeholders"] * min(placeholders, 5)
        + w["catalog_common"] * math.log(max(1, catalog_rarity))
        + w["present_share"] * (1.0 - present)
    )
    weight = w["information"]
    if information is not None:
        total += weight * min(information, _MAX_BITS) / 10.0
    elif weight > 0:
        total += weight * _MAX_BITS / 10.0
    elif weight < 0:
        return math.inf  # the fewest bits: no floor is known
    weight = w["background_common"]
    if background is not None:
        total += weight * math.log(max(1, background))
    elif weight > 0:
        return math.inf  # as many projects as may be
    weight = w["builtin_wording"]
    total += weight * builtin if builtin is not None else max(weight, 0.0)
    return total


#: The text weights a bare report uses: its own ``bare_`` ones (and ``bare`` in the bias).
_W_BARE = {
    **_W,
    "bias": _W["bias"] + _W["bare"],
    **{name: _W[f"bare_{name}"] for name in _BARE},
}


_CLASS = {"agree": "class_agree", "disagree": "class_disagree", "custom": "class_agree"}
_FRAME = {
    "site": "frame_site",
    "raise_file": "frame_raise_file",
    "file": "frame_file",
    "package": "frame_package",
    "elsewhere": "frame_elsewhere",
}


def record_features(class_state: str, frame_kind: str, *, named: bool = False) -> dict[str, float]:
    """The record features by name.

    ``class_state`` is ``agree``, ``custom`` (agrees, and is a project's own
    class rather than a builtin one: specific evidence the words may lack),
    ``disagree`` or ``unknown``; ``frame_kind``
    one of :class:`errcat.evidence.FrameEvidence`'s kinds. ``named``:
    the text names the record's project (its package name as a word), which
    counts when no frame is in the record's file or package.
    """
    names = ("class_agree", "class_disagree", "class_custom", *_FRAME.values(), "repo_named")
    out = dict.fromkeys(names, 0.0)
    if class_state in _CLASS:
        out[_CLASS[class_state]] = 1.0
    if class_state == "custom":
        out["class_custom"] = 1.0
    if frame_kind in _FRAME:
        out[_FRAME[frame_kind]] = 1.0
    if named and frame_kind not in ("site", "raise_file", "file", "package"):
        out["repo_named"] = 1.0
    return out


@functools.lru_cache(maxsize=256)
def record_logit(class_state: str, frame_kind: str, *, named: bool = False) -> float:
    """The record part of the logit (a few dozen distinct inputs: cached)."""
    features = record_features(class_state, frame_kind, named=named)
    return sum(_W[name] * value for name, value in features.items())


@functools.lru_cache(maxsize=64)
def best_logit(*, class_known: bool, frame_kinds: tuple[str, ...]) -> float:
    """The highest record part any record of a pattern can get, given what the report shows.

    ``frame_kinds`` are the frame kinds still possible for the records considered.
    """
    classes = ("agree", "custom", "disagree") if class_known else ("unknown",)
    return max(
        record_logit(c, f, named=named)
        for c in classes
        for f in frame_kinds
        for named in (False, True)
    )
