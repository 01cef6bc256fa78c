"""What the traceback's frames say of one record's raise site.

A frame at the record's raise line is the strongest evidence; a frame in the
record's file at another line showing the record's raising code, in the
function that raises it, or at the line an older revision raised it from, is
the same site in another version.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from errcat.confidence import TextEvidence
from errcat.evidence import FAR as _FAR
from errcat.evidence import NEAR_LINES, FrameEvidence
from errcat.extract import ExceptionReport, Frame
from errcat.matcher.result import REGEX_TIMEOUT
from errcat.matcher.text_evidence import _MIN_BITS
from errcat.patterns import (
    compile_pattern,
    pattern_pieces,
    pieces_fullmatch,
    pieces_truncated,
    template_to_pattern,
)
from errcat.store import RecordSummary
from errcat.tags import FUNCTION_TAG_PREFIX
from errcat.text import fold_whitespace, words

if TYPE_CHECKING:
    from errcat.history import Lineage


#: Frame evidence for a record its cut traceback does not reach.
_CUT_TRACEBACK = FrameEvidence("none", _FAR, 0, None)


def _frame_kinds(report: ExceptionReport, *, in_files: bool) -> tuple[str, ...]:
    """Frame evidence kinds a record may get from this report."""
    if not report.frames:
        return ("none",)
    # A bare text's frames are a traceback cut before its exception line: what they
    # lack says nothing (see _score).
    missing = "none" if report.kind == "text" else "elsewhere"
    if in_files:
        return ("site", "raise_file", "file", "package", missing)
    return ("package", missing)


#: A line of code this short (``)``, ``raise``) says nothing about which statement it is.
_MIN_RAISE_CODE = 12
#: Words of the record's message the raising code must hold (all when it has fewer).
_RAISE_CODE_WORDS = 3


def _same_raise_code(
    evidence: FrameEvidence,
    record: RecordSummary,
    frame: Frame,
    code: str,
    source_of: Callable[[], str],
) -> FrameEvidence:
    """``site`` evidence when the raise frame, at another line, shows the record's raising code.

    Another version moved the line, not the statement: the traceback prints the
    frame's ``code`` (whitespace folded), and it is the record's ``raise`` line.
    """
    if len(code) < _MIN_RAISE_CODE or not _same_code(code, " ".join(source_of().split())):
        return evidence
    # `raise ValueError(msg)` is written at many places of a file: only code that
    # holds the message's own words tells which statement it is.
    wanted = set(words(record.error_message))
    if len(wanted & set(words(code))) < min(_RAISE_CODE_WORDS, len(wanted)) or not wanted:
        return evidence
    return FrameEvidence(
        "site",
        evidence.distance,
        evidence.depth,
        f"traceback frame {frame.path}:{frame.line} shows the record's raising code "
        f"`{code[:80]}` (at line {record.line_number} in this version)",
    )


#: What a paste cut at the end of its last line may lose of a statement: its closing marks.
_CLOSING = " )]}\"'"


def _same_code(shown: str, own: str) -> bool:
    """Whether a frame's code line (``shown``, folded) is the record's (``own``, folded).

    A traceback pasted up to its raise line, with no exception line under it, is
    often cut inside that line: ``raise ValueError(f"{x}"`` lost its ``)``. It is
    the same statement when only closing marks are missing.

    >>> _same_code('raise ValueError(f"{x}"', 'raise ValueError(f"{x}")')
    True
    >>> _same_code("raise ValueError(msg", "raise ValueError(msg2)")
    False
    """
    if shown == own:
        return True
    return bool(shown) and own.startswith(shown) and not own[len(shown) :].strip(_CLOSING)


#: Words of a raising statement that say nothing of which statement it is (as
#: :func:`errcat.index.words` spells them: lowercase).
_CODE_NOISE = frozenset(
    {"assert", "raise", "from", "is", "not", "in", "and", "or", "none", "true", "false"}
    | {"self", "cls", "isinstance", "len"}
)


def _names_its_own(code: str, error_class: str) -> bool:
    """Whether a raising statement names something besides its class and keywords.

    ``assert self.pool is not None`` does (``pool``); ``raise NotImplementedError``
    and ``raise xml.dom.NotFoundErr()`` do not: written at many places, only their
    line tells them apart.
    """
    if len(code) < _MIN_RAISE_CODE:
        return False
    noise = _CODE_NOISE | set(words(error_class.replace(".", " ")))
    return bool(set(words(code)) - noise)


def _statement_evidence(
    evidence: FrameEvidence, record: RecordSummary, frame: Frame, code: str
) -> FrameEvidence:
    """``site`` evidence for a record raised without a message whose statement the frame prints.

    ``code`` is the statement the frame prints, whitespace folded.
    """
    return FrameEvidence(
        "site",
        0,
        evidence.depth,
        f"traceback frame {frame.path}:{frame.line} shows the record's statement "
        f"`{code[:80]}` (at line {record.line_number} in this version)",
    )


def _in_other_function(report: ExceptionReport, record: RecordSummary) -> bool:
    """Whether the raise frame's function is not the record's (both known).

    A record's ``errcat:in:`` tag names the function that raises it; a frame
    in another function at the record's line is another version's code.
    """
    function = report.frames[-1].function
    tags = [t for t in record.tags if t.startswith(FUNCTION_TAG_PREFIX)]
    return bool(function and tags and f"{FUNCTION_TAG_PREFIX}{function}" not in tags)


def _shows_other_code(shown: str, source_of: Callable[[], str]) -> bool:
    """Whether the innermost frame prints (``shown``, folded) another statement than the record's.

    False when either is unknown (a traceback without its code lines, a record
    whose source cannot be read).
    """
    own = fold_whitespace(source_of())
    return bool(shown and own and not _same_code(shown, own))


@functools.lru_cache(maxsize=4096)
def _template_pieces(template: str) -> tuple[str, ...] | None:
    """The literal pieces of a template's pattern (None: it needs its regex)."""
    try:
        return pattern_pieces(template_to_pattern(template))
    except ValueError:  # an unreadable template: its regex says so
        return None


def _fits(template: str, text: str) -> bool:
    """Whether a message is the template's, whole or cut off (a cheap check of one record).

    A template of literal text and placeholders is read piece by piece (the same
    answer as its regex's full or partial match, in time linear in the text: the
    regex's partial match backtracks over a long traceback message); others by
    their regex.

    >>> _fits("shard {i} of {n} is missing", "shard 3 of 8 is missing")
    True
    >>> _fits("shard {i} of {n} is missing", "shard 3 of 8 is mis"), _fits("shard {i}", "disk")
    (True, False)
    """
    pieces = _template_pieces(template)
    if pieces is not None:
        return pieces_fullmatch(pieces, text) is not None or pieces_truncated(pieces, text)
    try:
        full = compile_pattern(template_to_pattern(template)).full
        return bool(
            full.fullmatch(text, timeout=REGEX_TIMEOUT)
            or full.fullmatch(text, partial=True, timeout=REGEX_TIMEOUT)
        )
    except (TimeoutError, ValueError):  # InvalidPatternError is a ValueError
        return False


def _same_function(
    evidence: FrameEvidence, record: RecordSummary, report: ExceptionReport, text: TextEvidence
) -> FrameEvidence:
    """``site`` evidence when the raise frame is in the function that raises the message.

    The frame is in the record's file at another line; the record's ``errcat:in:``
    tag names its function. A message the text matches, raised from the same
    function of the same file, is the same ``raise`` statement in another version
    (lines above it moved). Only for a message with words of its own: a function
    may raise several messages, and ``{msg}`` matches them all.
    """
    if text.information < _MIN_BITS:
        return evidence
    frame = report.frames[-1]
    if not frame.function or f"{FUNCTION_TAG_PREFIX}{frame.function}" not in record.tags:
        return evidence
    return FrameEvidence(
        "site",
        evidence.distance,
        evidence.depth,
        f"traceback frame {frame.path}:{frame.line} is in {frame.function}(), which raises "
        f"this message (at line {record.line_number} in this version)",
    )


#: Frame evidence that a record's older revisions may improve on.
_HISTORY_KINDS = frozenset({"raise_file", "file", "package", "elsewhere"})


def _site_in_history(
    evidence: FrameEvidence,
    record: RecordSummary,
    report: ExceptionReport,
    lineage: Lineage | None,
    *,
    exact: bool = False,
) -> FrameEvidence:
    """Frame evidence from the record's older revisions, when it beats ``evidence``.

    The innermost frame within a few lines of where an older revision raised the
    message is the raise site (``site``); in the file an older revision raised it
    from (the code moved since: ``vllm/executor/`` to ``vllm/v1/executor/``), it is
    ``raise_file``. ``exact``: only the very line an older revision raised it at is
    the site (a raise without a message, which a neighbouring line does not tell).
    """
    if lineage is None:
        return evidence
    frame = report.frames[-1]
    fits = lineage.fits_frames((frame,), near=0 if exact else NEAR_LINES)
    if fits:
        return FrameEvidence(
            "site",
            0,
            max(evidence.depth, 2),
            f"traceback frame {frame.path}:{frame.line} is where {fits[-1].label} "
            f"({fits[-1].short}) raised it ({record.file_path} is at line "
            f"{record.line_number} now)",
        )
    if evidence.kind == "raise_file":
        return evidence
    in_file = lineage.fits_frames((frame,), near=_FAR)
    if not in_file:
        return evidence
    site = next(s for s in lineage.sites if s.revision == in_file[-1])
    return FrameEvidence(
        "raise_file",
        abs(frame.line - site.line),
        2,
        f"the error was raised in {site.file_path} ({frame.path}:{frame.line}), where "
        f"{in_file[-1].label} ({in_file[-1].short}) raised this message at line {site.line}",
    )
