"""The confidence of one record for one hit: the text's evidence weighed with the record's."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from errcat._calibration import WORDLESS, WORDLESS_SITE
from errcat.confidence import TextEvidence, probability, record_features, record_logit
from errcat.matcher.generic import generic_shape
from errcat.matcher.record_evidence import RecordEvidence
from errcat.matcher.result import CONFIDENCE_THRESHOLD
from errcat.matcher.text_evidence import _FEW_BITS, _MIN_BITS

#: The confidence of the import system's own record for its message in its very form
#: (``No module named 'x'``): set, not fitted; a copy of the wording elsewhere (pydantic's
#: lazy importer) prints it only with its frames, which a report would show.
_IMPORT_SYSTEM = 0.99
#: The repository of the interpreter's own records (the import system's among them).
_INTERPRETER = "python/cpython"
#: Frame evidence that ties a record to the report whatever its words.
_HOLDING_SITES = frozenset({"site", "raise_file", "file", "package"})

#: Fuzzy hints, and wordless patterns without a frame at their raise line, are hints:
#: their confidence stays just below the threshold (those at the cap are right about
#: half the time, so the cap is where calibration puts them too).
_FUZZY_CAP = round(CONFIDENCE_THRESHOLD - 0.01, 2)
#: ... and such an answer is right about this often (fitted: ``_calibration.WORDLESS``).
_GENERIC_CAP = min(_FUZZY_CAP, WORDLESS)


@functools.lru_cache(maxsize=64)
def record_ceiling(class_state: str, frame_kind: str) -> float:
    """The most a record's part of the logit can be, its class state and frame kind known.

    Only whether the text names the record's project is left open (see
    :func:`errcat.confidence.record_logit`): the better of both.

    >>> from errcat.confidence import record_logit
    >>> record_ceiling("agree", "elsewhere") >= record_logit("agree", "elsewhere", named=True)
    True
    """
    return max(record_logit(class_state, frame_kind, named=named) for named in (False, True))


def may_lift(record_repo: str, wordless_at_site: bool) -> bool:
    """Whether :func:`_score` may set a record's confidence above what the model gives.

    The interpreter's own records (the import system's message in its very form)
    and a pattern without words with a frame on its raise line
    (``wordless_at_site``) are set, not fitted: every other rule only caps. A
    record for which this is False scores at most what the model gives its evidence.
    """
    return wordless_at_site or record_repo == _INTERPRETER


def _ties(evidence: RecordEvidence, own_class: Callable[[], bool]) -> bool:
    """Whether the report ties a record to itself beyond its words (what a generic shape needs).

    A frame in the record's file or package (or at its raise line), its class
    named with its module (or one of its package's), its own class named in a
    log line, or its class its own with no other record of it fitting the text
    (``own_class()``, asked last: it reads every record of the hits).

    >>> from errcat.evidence import FrameEvidence
    >>> from errcat.matcher.record_evidence import RecordEvidence
    >>> none = FrameEvidence("none", 0, 0, None)
    >>> _ties(RecordEvidence("agree", none, False, named=True), lambda: False)
    False
    >>> _ties(RecordEvidence("custom", none, False, False, qualified=True), lambda: False)
    True
    """
    return (
        evidence.site.kind in _HOLDING_SITES
        or evidence.class_named
        or evidence.qualified
        or own_class()
    )


def _score(
    *,
    text: TextEvidence,
    text_logit: float,
    evidence: RecordEvidence,
    reasons: Sequence[str],
    keep_features: bool = False,
    wordless: bool = False,
    own_class: Callable[[], bool] = lambda: False,
    error_class: str | None = None,
    has_message: bool = True,
    subject_first: bool = False,
    spread: Callable[[], int] = lambda: 1,
    clause: bool = False,
) -> tuple[float, list[str], tuple[float, int, int], dict[str, float] | None]:
    """Confidence, reasons, tie-break evidence and (when asked) the features, for one record.

    The text's evidence (shared by the pattern's records, with its logit and
    reasons) is weighed with the record's own (:class:`RecordEvidence`) by the
    fitted model, then capped: ``wordless``, the record's pattern has no word
    (``{msg}``): only a frame at its raise line, with a class that agrees, makes
    it an answer, as often as such answers are right (``_calibration.WORDLESS_SITE``);
    ``own_class()``, the report names the record's class with its module (its
    ``error_class``) and no other record of that class fits the text (see
    :func:`errcat.matcher.hits._lone_own_class`): no other project's text can be
    it, so few words are enough for the model to weigh (asked only where it
    matters: finding that record reads every record of the hits). ``has_message``: the
    record's template is not empty (a raise without a message); ``subject_first``:
    its pattern opens with a placeholder, ``spread()`` how many projects of the
    loaded catalog raise its shape, and ``clause`` whether a value of the hit is a
    whole clause (see :func:`errcat.matcher.generic.generic_shape`). A family record
    (:mod:`errcat.matcher.family`) stays under the cap without a raise frame in its scope.

    The tie-break ranks records of equal confidence: how strongly the frames tie the
    record to the report (:attr:`RecordEvidence.gain`), how close the raise frame is, and
    (after the pattern's literal text, which the caller weighs between these) whether
    the paste comes from the record's engine (:attr:`RecordEvidence.engine`: sglang and
    vllm raise many messages from code one copied from the other).
    """
    reasons = list(reasons)
    site = evidence.site
    if evidence.class_reason:
        reasons.append(evidence.class_reason)
    if site.reason:
        reasons.append(site.reason)
    if text.records > 1:
        reasons.append(
            f"{text.records} records share this message"
            if has_message
            else f"the file raises {text.records} errors without a message"
        )
    if evidence.named_reason:
        reasons.append(evidence.named_reason)
    if evidence.engine_reason:
        reasons.append(evidence.engine_reason)
    logit = text_logit + record_logit(evidence.state, site.kind, named=evidence.named)
    features = (
        {**text.features(), **record_features(evidence.state, site.kind, named=evidence.named)}
        if keep_features
        else None
    )
    if evidence.shared_statement:
        reasons.append("the raise frame prints this record's statement, written at several places")
    # How little generic text ("invalid {what}") proves is the model's to weigh: its
    # information and background features were fitted against a large unrelated
    # catalog whose generic patterns meet every message (benchmarks/calibrate.py).
    confidence = probability(logit, bare=text.bare)
    if evidence.import_system and (
        (text.mode == "full" and evidence.state != "disagree") or text.mode == "inner"
    ):
        # The import system's own message in its very form (its pattern quotes the names
        # as CPython does): whatever module it names, this is who printed it. Whole, with
        # a class that agrees; or ending a wrapper's message (ray's ``RaySystemError:
        # System error: No module named 'utils'``), whose class is the wrapper's own.
        confidence = max(confidence, _IMPORT_SYSTEM)
        reasons.append("the import system prints this message in this very form")
    elif wordless and site.kind == "site" and not evidence.near and evidence.state != "disagree":
        confidence = WORDLESS_SITE
        reasons.append(
            "the message has no words of the record's own: the raise frame is the evidence"
        )
        if features is not None:
            features["wordless"] = 1.0
    elif (
        site.kind != "site"
        and text.information < _MIN_BITS
        and confidence > _GENERIC_CAP
        and not own_class()
    ):
        confidence = _GENERIC_CAP
        reasons.append(
            f"its literal words carry {text.information:.0f} bits of evidence "
            f"(an answer without a frame at the raise line needs {_MIN_BITS:.0f})"
        )
    elif (
        confidence > _GENERIC_CAP
        and not evidence.c_copy  # capped below, with the interpreter named as the reason
        and not _ties(evidence, own_class)
        and (
            generic := generic_shape(
                text,
                subject_first,
                spread,
                # How sure the model is of the words: the project named is no evidence here.
                probability(
                    text_logit + record_logit(evidence.state, site.kind, named=False),
                    bare=text.bare,
                )
                if evidence.named
                else confidence,
                clause,
            )
        )
    ):
        # A shape many projects raise, or a short predicate any phrase completes
        # ("The order of integration must be non-negative"), or a few words framing a
        # clause they do not explain ("Length mismatch: {details}"): the words do not
        # say that the catalog holds this error; a frame in its file or package, or the
        # class named with its module (or its own class's name) would. The project
        # named is not: a project built on it (a trainer on an engine) names it in
        # every report. Just under the cap, in the model's order: of such hints the
        # likelier still ranks first.
        confidence = _GENERIC_CAP * (0.9 + 0.1 * confidence)
        reasons.append(
            f"its words are a shape many projects raise ({generic}): an answer needs a "
            "frame in the record's file or package, or its class named with its module"
        )
    elif site.kind != "site" and text.information < _MIN_BITS and own_class():
        reasons.append(
            f"its literal words carry {text.information:.0f} bits of evidence, but the "
            f"class {error_class} is this record's own and no other record of it fits"
        )
    elif site.kind != "site" and text.information < _FEW_BITS:
        reasons.append(
            f"its literal words are common in Python's error messages "
            f"({text.information:.0f} bits of evidence)"
        )
    if evidence.c_copy and site.kind not in _HOLDING_SITES and confidence > _GENERIC_CAP:
        # "'X' object has no attribute 'y'", "cannot import name 'y' from 'x'": the
        # interpreter prints this for anything; a project's copy of the wording is the
        # answer only with a frame in its file or package.
        confidence = _GENERIC_CAP
        reasons.append(
            "the interpreter prints this message for any object: a project's own raise of "
            "it needs a frame in the record's file or package"
        )
    if (
        evidence.value_frame
        and confidence > _GENERIC_CAP
        and site.kind not in _HOLDING_SITES
        and not evidence.named
        and evidence.engine <= 0
    ):
        # "Error executing {error_context}: {e}": two words of its own around its values,
        # which any project's log line fits (Hydra's "Error executing job with overrides").
        confidence = _GENERIC_CAP
        reasons.append(
            "its own words are a frame around its values that any project's log line "
            "fits: an answer needs a frame in its file or package, or the text naming "
            "its project or reading as its engine's log"
        )
    if evidence.family and site.kind != "site" and confidence > _GENERIC_CAP:
        # Any project's code raises this shape: only the place it was raised says whose.
        confidence = _GENERIC_CAP
        reasons.append(
            "the interpreter raises this anywhere: a family record answers only at a raise "
            "frame in its scope"
        )
    return confidence, reasons, (evidence.gain, -site.distance, evidence.engine), features
