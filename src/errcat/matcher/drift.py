"""Candidates for messages no pattern matches: drifted ones at their raise site, fuzzy hints."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from errcat.evidence import NEAR_LINES
from errcat.index import Entry
from errcat.matcher.context import ReportContext
from errcat.matcher.hits import Candidate
from errcat.matcher.summaries import summary as _summary
from errcat.matcher.verify import _Hit
from errcat.store import RecordSummary, Store, file_tail
from errcat.text import words

#: A record is near when the message holds this share of its words ...
_FUZZY_MIN_SHARE = 0.6
#: ... or when this share of the message's words (at least _FUZZY_MIN_WORDS) are its.
_FUZZY_MIN_CONTAINED = 0.8
_FUZZY_MIN_WORDS = 5
#: Near patterns tried for a drifted message, and the share of the message's
#: words that must be the record's.
_DRIFT_CANDIDATES = 8
_DRIFT_MIN_PRECISION = 0.6
#: A traceback cut before its exception line (a text report with frames) whose last
#: frame is on a record's raise line answers when its text (the raise statement's
#: source lines) holds this share of the record's words.
_CUT_MIN_RECALL = 0.9


def _differences(entry: Entry, text: str) -> str:
    """Which words the record's template has that the message lacks, and the reverse."""
    entry_words = list(dict.fromkeys(words(" ".join(entry.fragments))))
    message_words = set(words(text))
    lacks = [w for w in entry_words if w not in message_words][:5]
    has = [w for w in dict.fromkeys(words(text)) if w not in set(entry_words)][:5]
    parts = []
    if lacks:
        parts.append("lacks " + ", ".join(repr(w) for w in lacks))
    if has:
        parts.append("adds " + ", ".join(repr(w) for w in has))
    return "the message " + ("; ".join(parts) if parts else "differs in punctuation or quoting")


def _drift_candidates(
    ctx: ReportContext, store: Store, in_files: frozenset[int], exact: set[tuple[int, str]]
) -> Iterator[Candidate]:
    """Candidates for a drifted message, from the records at the frames it was raised from.

    A message no pattern matches (a word changed, a clause added, other
    quoting) answers only when a traceback frame sits on a record's raise
    line and the message shares most of the record's words: without that
    frame, a few changed words may be a different error (``case 4`` is not
    ``case 12``), and fuzzy hints stay hints. ``in_files``: the records of
    ``store`` in the frames' files; ``exact``: the (report, pattern) pairs that
    matched exactly, whose exact match is the evidence.
    """
    report = ctx.report
    if not report.frames:
        return
    text = ctx.message
    message_words = ctx.message_words
    if message_words < 3:
        return
    lines = ctx.frame_lines
    # A traceback cut before its exception line: its text is frames and source
    # lines, so only how much of the record's wording it shows counts, and only
    # at the last frame (where the raise statement is).
    cut = report.kind == "text"
    last = {file_tail(report.frames[-1].path): [report.frames[-1].line]}
    if not in_files:
        return
    # Only records raised within a few lines of a frame of a file of that name count.
    # A common file name (__init__.py, utils.py) holds thousands of records, so
    # that is checked only for the records of the patterns the words propose.
    taken = 0
    for shared, total, entry in store.index.near(text, limit=len(in_files), within=in_files):
        only = [
            p
            for p in sorted(in_files.intersection(entry.record_set))
            if _near_a_frame(_summary(store, p), lines)
        ]
        if not only:
            continue
        taken += 1
        if taken > _DRIFT_CANDIDATES:
            break
        recall = shared / total
        precision = shared / message_words
        at_last = cut and any(_near_a_frame(_summary(store, p), last) for p in only)
        if at_last and recall >= _CUT_MIN_RECALL and shared >= 3:
            precision = 1.0  # the raise statement's text: the rest is frames
            only = [p for p in only if _near_a_frame(_summary(store, p), last)]
        if shared < 3 or recall < _FUZZY_MIN_SHARE or precision < _DRIFT_MIN_PRECISION:
            continue
        if (ctx.order, entry.pattern) in exact:
            continue  # the pattern matched; its exact match is the evidence
        yield Candidate(
            entry=entry,
            hit=_Hit("drift", (), 0, round(len(text) * precision)),
            text=text,
            present_literal=round(entry.literal_length * recall),
            only=only,
            reasons=(
                (
                    "the traceback stops before its exception line: its last frame "
                    "shows this raise statement"
                )
                if at_last
                else _differences(entry, text),
            ),
        )


def _near_a_frame(record: RecordSummary, lines: Mapping[str, Sequence[int]]) -> bool:
    """Whether a frame of a file with the record's file name is within NEAR_LINES of its line."""
    near = lines.get(file_tail(record.file_path), ())
    return any(abs(record.line_number - line) <= NEAR_LINES for line in near)


def _near_candidates(ctx: ReportContext, store: Store, limit: int) -> Iterator[Candidate]:
    """Near patterns for a message no pattern matched: fuzzy hints, inexact, never confident."""
    message_words = ctx.message_words
    if message_words < 3:
        return
    for shared, total, entry in store.index.near(ctx.message, limit=limit):
        recall = shared / total  # how much of the record's wording is present
        precision = shared / message_words  # how much of the message is the record's
        near = recall >= _FUZZY_MIN_SHARE or (
            precision >= _FUZZY_MIN_CONTAINED and shared >= _FUZZY_MIN_WORDS
        )
        if shared < 3 or not near:
            continue
        yield Candidate(
            entry=entry,
            hit=_Hit("fuzzy", (), 0, 0),
            text=ctx.message,
            reasons=(
                f"no pattern matched; {recall:.0%} of this record's words and "
                f"{precision:.0%} of the message's are shared (drifted message?)",
            ),
            share=(recall + precision) / 2,
        )
