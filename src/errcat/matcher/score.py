"""The confidence of one record for one hit: the text's evidence, then class, frames, names."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from errcat._calibration import WORDLESS, WORDLESS_SITE
from errcat.confidence import TextEvidence, probability, record_features, record_logit
from errcat.evidence import FrameEvidence, FrameView, package_of
from errcat.extract import ExceptionReport
from errcat.matcher.classes import (
    _HTTP_ERROR_NAMES,
    _class_state,
    _names_own_class,
    _raised_as,
    _short_class,
)
from errcat.matcher.result import CONFIDENCE_THRESHOLD
from errcat.matcher.site_evidence import (
    _CUT_TRACEBACK,
    _HISTORY_KINDS,
    _in_other_function,
    _same_function,
    _same_raise_code,
    _shows_other_code,
    _site_in_history,
    _statement_evidence,
)
from errcat.matcher.text_evidence import _FEW_BITS, _MIN_BITS, _named_outside
from errcat.store import RecordSummary
from errcat.tags import CALLER_CLASS_TAG

if TYPE_CHECKING:
    from errcat.history import Lineage


#: Fuzzy hints, and wordless patterns without a frame at their raise line, are hints:
#: their confidence stays just below the threshold (those at the cap are right about
#: half the time, so the cap is where calibration puts them too).
_FUZZY_CAP = round(CONFIDENCE_THRESHOLD - 0.01, 2)
#: ... and such an answer is right about this often (fitted: ``_calibration.WORDLESS``).
_GENERIC_CAP = min(_FUZZY_CAP, WORDLESS)


def _score(
    *,
    text: TextEvidence,
    text_logit: float,
    record: RecordSummary,
    report: ExceptionReport,
    frames: FrameView,
    reasons: list[str],
    mentions: Mapping[str, int],
    keep_features: bool = False,
    lineage_of: Callable[[str], Lineage | None] | None = None,
    source_of: Callable[[], str] | None = None,
    rival_at_frame: bool = False,
    wordless: bool = False,
    statement_owner: bool = False,
    statement_shared: bool = False,
    own_class: bool = False,
    captures: Sequence[str | None] = (),
    c_printed: bool = False,
) -> tuple[float, list[str], tuple[float, int], dict[str, float] | None]:
    """Confidence, reasons, tie-break evidence and (when asked) the features, for one record.

    ``lineage_of`` gives a record's history, if the catalog has one: an error
    raised in the record's file at another line was raised at the record's
    line of an older revision when the history says so, which is the raise
    site as surely as the current line is. ``source_of()`` gives the record's
    raising line of code: the innermost frame in the record's file showing that
    very code is the raise site whatever its line number. ``rival_at_frame``:
    the raise frame sits on another record's raise line, whose message the text
    fits too; that statement is the other record's, whatever this one's code or
    function. ``wordless``: the record's pattern has no word (``{msg}``): only a
    frame at its raise line, with a class that agrees, makes it an answer, as
    often as such answers are right (``_calibration.WORDLESS_SITE``); the text
    features say nothing. ``statement_owner``: the record is raised without a message
    and the raise frame prints its statement, which no other record of the file
    shares (see :meth:`_Collector.statement_owners`); ``statement_shared``: the frame
    prints the record's statement, named or not (such hints rank first). ``own_class``: the
    report names the
    record's class with its module and no other record of that class fits the text (see
    :func:`_lone_own_class`):
    no other project's text can be it, so few words are enough for the model to weigh.
    ``captures``: the values the pattern captured; ``c_printed``: the message is one C
    prints, in C's very form (see :func:`errcat.background.c_origin`), and a project named only in
    its values is a value C was given, not the text naming who raised it.
    """
    reasons = list(reasons)
    state = _class_state(report, record)
    if state in ("agree", "custom"):
        reasons.append(f"exception class {_short_class(report.error_class)} agrees")
    elif _raised_as(report.error_class, record):
        reasons.append(
            f"exception class {report.error_class} is how another version raised "
            f"the record's {record.error_class}"
        )
    elif state == "unknown" and report.error_class and CALLER_CLASS_TAG in record.tags:
        reasons.append(
            f"exception class {_short_class(report.error_class)}: the record raises "
            "whichever class its caller passes"
        )
    elif state == "disagree" or (
        report.error_class not in (None, record.error_class)
        and _short_class(report.error_class) not in _HTTP_ERROR_NAMES
    ):
        reasons.append(
            f"exception class {report.error_class} differs from the record's {record.error_class}"
        )
    evidence = frames.evidence(record.file_path, record.line_number, record.repo)
    # A frame a line or two off the raise line counts as the site, but for a pattern
    # without words only the line itself (or its code, or its line in an older
    # revision) does: a neighbouring statement may raise anything.
    near = evidence.kind == "site" and evidence.distance != 0
    if wordless and not record.error_message and source_of is not None:
        # A raise without a message: the statement the innermost frame prints tells.
        if evidence.kind == "site" and (
            _shows_other_code(report, source_of) or _in_other_function(report, record)
        ):
            evidence, near = (
                FrameEvidence(
                    "raise_file",
                    evidence.distance,
                    evidence.depth,
                    f"the raise frame is at or near line {record.line_number} of "
                    f"{record.file_path} but in another statement or function (another version?)",
                ),
                False,
            )
        elif (near or evidence.kind == "raise_file") and statement_owner:
            evidence, near = _statement_evidence(evidence, record, report.frames[-1]), False
    if evidence.kind == "raise_file" and source_of is not None and not rival_at_frame:
        evidence = _same_raise_code(evidence, record, report, source_of)
    if evidence.kind in _HISTORY_KINDS and report.frames and lineage_of is not None:
        evidence = _site_in_history(evidence, record, report, lineage_of(record.id))
    if evidence.kind == "raise_file" and not rival_at_frame:
        evidence = _same_function(evidence, record, report, text)
    if evidence.kind == "elsewhere" and report.kind == "text":
        # The frames of a traceback cut before its exception line (the message came
        # before it, or was lost): the raise site may be in the frames cut off.
        evidence = _CUT_TRACEBACK
    if evidence.reason:
        reasons.append(evidence.reason)
    if text.records > 1:
        reasons.append(
            f"{text.records} records share this message"
            if record.error_message
            else f"the file raises {text.records} errors without a message"
        )
    package = package_of(record.repo)
    # A message C itself prints names whatever module it was given (``No module named
    # 'vllm._C'``): the project named only in its values is no sign the project raised it.
    named = package in mentions and (not c_printed or _named_outside(package, mentions, captures))
    if named and evidence.kind not in ("site", "raise_file", "file", "package"):
        reasons.append(f"the text names {package}")
    elif not named and state == "unknown" and _names_own_class(record, mentions):
        # A log line that quotes the exception without its class line
        # ("... with exception KVTransferError(bootstrap_room=3): ..."): the
        # project's own class name is as specific as the project's name.
        named = True
        reasons.append(f"the text names the record's class {_short_class(record.error_class)}")
    logit = text_logit + record_logit(state, evidence.kind, named=named)
    features = (
        {**text.features(), **record_features(state, evidence.kind, named=named)}
        if keep_features
        else None
    )
    gain = {"site": 3.0, "raise_file": 2.5, "file": 2.0, "package": 1.0}.get(evidence.kind, 0.0)
    # Of two files a frame meets, the one it meets over more path components is its file
    # (``.../sglang/srt/x/y.py`` is sglang's ``srt/x/y.py``, not another project's ``x/y.py``).
    gain += min(evidence.depth, 49) / 100
    if statement_shared and not statement_owner and evidence.kind != "site":
        # One of several places writing the statement the frame prints: a hint before the
        # file's other raises without a message.
        gain += 0.25
        reasons.append("the raise frame prints this record's statement, written at several places")
    # How little generic text ("invalid {what}") proves is the model's to weigh: its
    # information and background features were fitted against a large unrelated
    # catalog whose generic patterns meet every message (benchmarks/calibrate.py).
    confidence = probability(logit, bare=text.bare)
    if wordless and evidence.kind == "site" and not near and state != "disagree":
        confidence = WORDLESS_SITE
        reasons.append(
            "the message has no words of the record's own: the raise frame is the evidence"
        )
        if features is not None:
            features["wordless"] = 1.0
    elif (
        evidence.kind != "site"
        and text.information < _MIN_BITS
        and confidence > _GENERIC_CAP
        and not own_class
    ):
        confidence = _GENERIC_CAP
        reasons.append(
            f"its literal words carry {text.information:.0f} bits of evidence "
            f"(an answer without a frame at the raise line needs {_MIN_BITS:.0f})"
        )
    elif own_class and evidence.kind != "site" and text.information < _MIN_BITS:
        reasons.append(
            f"its literal words carry {text.information:.0f} bits of evidence, but the "
            f"class {report.error_class} is this record's own and no other record of it fits"
        )
    elif evidence.kind != "site" and text.information < _FEW_BITS:
        reasons.append(
            f"its literal words are common in Python's error messages "
            f"({text.information:.0f} bits of evidence)"
        )
    return confidence, reasons, (gain, -evidence.distance), features
