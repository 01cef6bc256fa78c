"""What one record's own facts say for a hit, beside the text: its class, its raise site, its name.

:func:`record_evidence` works the facts out once per record and hit, into one
:class:`RecordEvidence`; :func:`errcat.matcher.score._score` only weighs it
against the text's evidence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from errcat.confidence import TextEvidence
from errcat.engine import ENGINES
from errcat.evidence import FrameEvidence, package_of
from errcat.extract import ExceptionReport
from errcat.matcher.classes import (
    _HTTP_ERROR_NAMES,
    _class_state,
    _module_qualified,
    _names_own_class,
    _raised_as,
    _same_package_class,
    _short_class,
)
from errcat.matcher.context import ReportContext
from errcat.matcher.family import family_site, is_family
from errcat.matcher.hidden_sites import site_hidden
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
from errcat.matcher.text_evidence import _named_outside
from errcat.matcher.value_frame import mostly_values
from errcat.store import RecordSummary
from errcat.tags import CALLER_CLASS_TAG, IMPORT_SYSTEM_TAGS, LOGGED_TAG

if TYPE_CHECKING:
    from errcat.history import Lineage

__all__ = ["RecordEvidence", "record_evidence", "record_site"]

#: How much each kind of frame evidence ranks a record above another of equal confidence.
_GAIN = {"site": 3.0, "raise_file": 2.5, "file": 2.0, "package": 1.0}


@dataclass(frozen=True, slots=True)
class RecordEvidence:
    """The evidence one record has beside the text: how its class, raise site and name fare.

    ``state`` is the report's class against the record's (``agree``,
    ``custom``, ``unknown`` or ``disagree``); ``site`` what the frames say of
    the raise site, every refinement applied (its code or function at another
    line, an older revision's line, a traceback cut short); ``near`` that the
    site is a frame a line or two off the raise line, not the line itself;
    ``named`` that the text names the record's project (or its own class);
    ``qualified`` that the report names the record's own class with its module;
    ``shared_statement`` that the raise frame prints the record's statement,
    which several places write (a hint's tie-break); ``family`` that the record
    stands for an error the interpreter raises anywhere in its scope
    (:mod:`errcat.matcher.family`); ``c_copy`` that the message is one C prints
    for any object, in C's very form, and the record is a project's own raise
    of that wording (its ``__getattr__``, a lazy importer), not the interpreter's
    or the import system's; ``import_system`` that the record is the import
    system's own record for any module (CPython's, tagged
    ``errcat:native:import-missing-module`` or ``-cannot-import-name``); ``engine`` how the
    serving engine the paste leans to (:func:`errcat.engine.lean`) fares against the
    record's project: 1 it is that engine, -1 it is the other engine, 0 neither is known
    (a paste without such signals, or a record of any other project); ``value_frame``
    that the record is a log call whose template is mostly its values
    (:mod:`errcat.matcher.value_frame`). The reasons are what an answer shows for
    each, if anything.
    """

    state: str
    site: FrameEvidence
    near: bool
    named: bool
    qualified: bool = False
    shared_statement: bool = False
    family: bool = False
    c_copy: bool = False
    import_system: bool = False
    class_named: bool = False
    class_reason: str | None = None
    named_reason: str | None = None
    engine: int = 0
    engine_reason: str | None = None
    value_frame: bool = False

    @property
    def gain(self) -> float:
        """How strongly the frames tie the record to the report: a tie-break, higher first.

        Of two files a frame meets, the one it meets over more path components is
        its file (``.../sglang/srt/x/y.py`` is sglang's ``srt/x/y.py``, not another
        project's ``x/y.py``). One of several places writing the statement the frame
        prints is a hint before the file's other raises without a message.
        """
        gain = _GAIN.get(self.site.kind, 0.0) + min(self.site.depth, 49) / 100
        return gain + 0.25 if self.shared_statement else gain


def _class_reason(report: ExceptionReport, record: RecordSummary, state: str) -> str | None:
    """What an answer says of the report's class against the record's, if anything."""
    if state in ("agree", "custom"):
        return f"exception class {_short_class(report.error_class)} agrees"
    if _raised_as(report.error_class, record):
        return (
            f"exception class {report.error_class} is how another version raised "
            f"the record's {record.error_class}"
        )
    if state == "unknown" and report.error_class and CALLER_CLASS_TAG in record.tags:
        return (
            f"exception class {_short_class(report.error_class)}: the record raises "
            "whichever class its caller passes"
        )
    if state == "disagree" or (
        report.error_class not in (None, record.error_class)
        and _short_class(report.error_class) not in _HTTP_ERROR_NAMES
    ):
        return (
            f"exception class {report.error_class} differs from the record's {record.error_class}"
        )
    return None


def _site(
    *,
    record: RecordSummary,
    ctx: ReportContext,
    text: TextEvidence,
    lineage_of: Callable[[str], Lineage | None] | None,
    source_of: Callable[[], str] | None,
    rival_at_frame: Callable[[], bool],
    wordless: bool,
    statement_owner: bool,
) -> tuple[FrameEvidence, bool]:
    """The frames' evidence for the record's raise site, and whether it is only near it."""
    report = ctx.report
    if is_family(record):
        # No raise statement of its own: the raise frame's place is the evidence.
        return family_site(record, report), False
    evidence = ctx.frames.evidence(record.file_path, record.line_number, record.repo)
    # A frame a line or two off the raise line counts as the site, but for a pattern
    # without words only the line itself (or its code, or its line in an older
    # revision) does: a neighbouring statement may raise anything.
    near = evidence.kind == "site" and evidence.distance != 0
    if wordless and not record.error_message and source_of is not None:
        # A raise without a message: the statement the innermost frame prints tells.
        if evidence.kind == "site" and (
            _shows_other_code(ctx.raise_code, source_of) or _in_other_function(report, record)
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
            frame = report.frames[-1]
            evidence, near = _statement_evidence(evidence, record, frame, ctx.raise_code), False
    if evidence.kind == "raise_file" and source_of is not None and not rival_at_frame():
        evidence = _same_raise_code(evidence, record, report.frames[-1], ctx.raise_code, source_of)
    if evidence.kind in _HISTORY_KINDS and report.frames and lineage_of is not None:
        # A raise without a message is its statement: an older revision's line tells
        # only when the frame is at that very line, in the record's function, and
        # does not print another statement (the next line often asserts another).
        statement = wordless and not record.error_message
        if not statement or not (
            _in_other_function(report, record)
            or (source_of is not None and _shows_other_code(ctx.raise_code, source_of))
        ):
            lineage = lineage_of(record.id)
            evidence = _site_in_history(evidence, record, report, lineage, exact=statement)
    if evidence.kind == "raise_file" and not rival_at_frame():
        evidence = _same_function(evidence, record, report, text)
    if evidence.kind == "elsewhere" and (report.kind == "text" or site_hidden(record)):
        # The frames of a traceback cut before its exception line (the message came
        # before it, or was lost): the raise site may be in the frames cut off. The
        # import system's frames are never shown (errcat.imports.site).
        evidence = _CUT_TRACEBACK
    return evidence, near


def _engine_agreement(ctx: ReportContext, package: str) -> tuple[int, str | None]:
    """How the engine the paste leans to fares against a record's project, and the reason shown.

    1 the record is that engine's, -1 it is the other engine's, 0 either is unknown:
    the paste leans to neither, or the record is neither engine's (a project that
    copied one of them is told apart by its own frames and name, not by these signals).
    """
    if package not in ENGINES:
        return 0, None  # the text's lean is not worked out: it says nothing here
    engine, signals = ctx.lean()
    if engine is None:
        return 0, None
    shown = ", ".join(signals[:2])
    if package == engine:
        return 1, f"the paste comes from {package} ({shown})"
    return -1, f"the paste comes from {engine} ({shown}), not {package}"


def _prints_for_c(record: RecordSummary) -> bool:
    """Whether the record is the interpreter's own (CPython's, or the import system's records)."""
    return record.repo == "python/cpython" or "errcat:imports" in record.tags


def record_site(
    *,
    record: RecordSummary,
    ctx: ReportContext,
    text: TextEvidence,
    lineage_of: Callable[[str], Lineage | None] | None = None,
    source_of: Callable[[], str] | None = None,
    rival_at_frame: Callable[[], bool] = lambda: False,
    wordless: bool = False,
    statement_owner: bool = False,
) -> tuple[str, FrameEvidence, bool]:
    """The report's class against the record's, the frames' evidence for its site, and near.

    The part of :func:`record_evidence` the fitted model weighs beside the project
    named (the arguments are its own): with both ends of that known, a record's
    confidence is bounded before the rest is worked out
    (:func:`errcat.matcher.score.record_ceiling`).
    """
    site, near = _site(
        record=record,
        ctx=ctx,
        text=text,
        lineage_of=lineage_of,
        source_of=source_of,
        rival_at_frame=rival_at_frame,
        wordless=wordless,
        statement_owner=statement_owner,
    )
    return _class_state(ctx.report, record), site, near


def record_evidence(
    *,
    record: RecordSummary,
    ctx: ReportContext,
    known: tuple[str, FrameEvidence, bool],
    rival_at_frame: Callable[[], bool] = lambda: False,
    statement_owner: bool = False,
    statement_shared: bool = False,
    captures: Sequence[str | None] = (),
    c_printed: bool = False,
    subject_first: bool = False,
) -> RecordEvidence:
    """The evidence a record has for a hit of its pattern on a report (``ctx``), beside the text.

    ``known`` is what :func:`record_site` said of the record (its class state, its
    site, and whether the site is only near); its arguments say how the site was
    found. ``rival_at_frame()``: whether the raise frame sits on another record's
    raise line, whose message the text fits too (then the import system's records
    are a project's own raise of the wording). ``statement_owner``: the record is
    raised without a message and the raise frame prints its statement, which no
    other record of the file shares; ``statement_shared``: the frame prints the
    record's statement, named or not. ``captures``: the values the pattern
    captured; ``c_printed``: the message is one C prints, in C's very form (see
    :func:`errcat.background.c_origin`), and a project named only in its values is
    a value C was given, not the text naming who raised it; ``subject_first``: the
    record's pattern opens with a placeholder, and a project named only in that
    value does not count either.
    """
    report, mentions = ctx.report, ctx.mentions
    state, site, near = known
    package = package_of(record.repo)
    # A message C itself prints names whatever module it was given (``No module named
    # 'vllm._C'``): the project named only in its values is no sign the project raised it.
    # So does a pattern that opens with a placeholder (``{method} is not supported yet.``):
    # its value is whatever the text said before the predicate, a title's "vllm v0.14.0"
    # included, and a name inside it is the writer's, not evidence for the record.
    engine, engine_reason = _engine_agreement(ctx, package)
    # The other engine's name in a paste that shows more of this one (sglang's logs name
    # the vllm it imports; a user compares the two) says nothing of who raised it.
    named = (
        package in mentions
        and engine >= 0
        and (not (c_printed or subject_first) or _named_outside(package, mentions, captures))
    )
    named_reason = None
    class_named = False
    if named and site.kind not in ("site", "raise_file", "file", "package"):
        named_reason = f"the text names {package}"
    elif not named and state == "unknown" and _names_own_class(record, mentions):
        # A log line that quotes the exception without its class line
        # ("... with exception KVTransferError(bootstrap_room=3): ..."): the
        # project's own class name is as specific as the project's name.
        named = class_named = True
        named_reason = f"the text names the record's class {_short_class(record.error_class)}"
    return RecordEvidence(
        state=state,
        site=site,
        near=near,
        named=named,
        class_named=class_named,
        qualified=(state == "custom" and _module_qualified(report.error_class, record.error_class))
        or _same_package_class(report.error_class, record.error_class),
        shared_statement=statement_shared and not statement_owner and site.kind != "site",
        family=is_family(record),
        c_copy=c_printed and not _prints_for_c(record),
        # ... unless the raise frame sits on another record's raise line: a project's own
        # raise of the wording (a lazy importer), which the import system's hidden frames
        # never show.
        import_system=record.repo == "python/cpython"
        and not IMPORT_SYSTEM_TAGS.isdisjoint(record.tags)
        and not (report.frames and rival_at_frame()),
        class_reason=_class_reason(report, record, state),
        named_reason=named_reason,
        engine=engine,
        engine_reason=engine_reason,
        value_frame=LOGGED_TAG in record.tags and mostly_values(record.error_message),
    )
