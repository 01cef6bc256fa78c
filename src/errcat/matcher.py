"""From raw error text to ranked :class:`Match` results.

The pipeline: :func:`~errcat.extract.extract_reports` finds the exceptions in
the text; for each, the index proposes the patterns whose literal text occurs in
the message; their regexes are verified (with a time limit) in four ways, from
most to least exact; each hit is scored; the best per record are ranked.

Verification modes, in order:

``full``
    the pattern matches the whole message;
``prefix``
    it matches the beginning and the message goes on (a clause was appended);
``inner``
    it matches the end part of a longer message (a wrapper such as
    ``Worker failed: <message>``);
``truncated``
    the message stops partway through something the pattern would match (the
    paste was cut); reported with ``exact=False``;
``fuzzy``
    no regex matched, but the message shares most of the pattern's words (the
    message drifted between versions): a hint for :func:`match_all` only.

Confidence (documented in the README) combines how much of the message the
record's literal text explains with how much literal text there is, then
exception-class and traceback-frame agreement. :func:`match_error` answers
only when the best match is at least :data:`CONFIDENCE_THRESHOLD` and not fuzzy.

>>> from errcat.catalog import Catalog
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> envelope = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)
>>> record = envelope.record.model_copy(
...     update={
...         "error_message": "checkpoint shard {index} is missing from {path!r}",
...         "message_pattern": "checkpoint shard (.+?) is missing from (.+?)",
...     }
... )
>>> cat = Catalog([record])
>>> m = match_error("ValueError: checkpoint shard 3 is missing from '/ckpt'", catalog=cat)
>>> m.record.id, dict(m.params), m.exact
('0123456789abcdef', {'index': '3', 'path': "'/ckpt'"}, True)
>>> match_error("TypeError: something else entirely", catalog=cat) is None
True
"""

from __future__ import annotations

import ast
import heapq
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

import regex

from errcat.advice import Advice
from errcat.extract import ExceptionReport, Frame, extract_reports
from errcat.index import Entry, fold_whitespace, words
from errcat.patterns import (
    GROUP,
    inner_tail_possible,
    pieces_fullmatch,
    pieces_inner,
    pieces_prefix,
    placeholder_names,
)
from errcat.store import RecordSummary, Store

if TYPE_CHECKING:
    from errcat.catalog import Catalog
    from errcat.history import Lineage
    from errcat.models import ErrorRecord

__all__ = [
    "CONFIDENCE_THRESHOLD",
    "REGEX_TIMEOUT",
    "Match",
    "MatchMode",
    "match_all",
    "match_error",
]

#: :func:`match_error` returns None when the best match's confidence is below this.
CONFIDENCE_THRESHOLD = 0.5

#: Seconds one regex evaluation may take before it counts as no match.
REGEX_TIMEOUT = 0.05

#: Fuzzy hints never reach this confidence, so they never pass the threshold.
_FUZZY_CAP = 0.45
#: A record is near when the message holds this share of its words ...
_FUZZY_MIN_SHARE = 0.6
#: ... or when this share of the message's words (at least _FUZZY_MIN_WORDS) are its.
_FUZZY_MIN_CONTAINED = 0.8
_FUZZY_MIN_WORDS = 5

MatchMode = Literal["full", "prefix", "inner", "truncated", "fuzzy"]

_MODE_FACTOR: dict[str, float] = {
    "full": 1.0,
    "prefix": 0.95,
    "inner": 0.9,
    "truncated": 0.75,
}

#: Literal characters at which the literal text counts as specific (1 - 1/e of the way).
_SPECIFIC_CHARS = 30.0
#: A captured value counts at most this many characters against the explained share.
_CAPTURE_CAP = 24
#: Share of the remaining doubt removed by class, frame and repo agreement.
_CLASS_AGREES = 0.3
_CLASS_DISAGREES = 0.6  # a multiplier
_FRAME_AT_SITE = 0.5
_FRAME_IN_FILE = 0.2
_REPO_HINT = 0.1
_FRAMES_ELSEWHERE = 0.75  # a multiplier
#: match_all lists low-confidence hints from at most this many records of one pattern.
_HINT_RECORDS = 64
#: A pattern whose rarest word is in more than this many patterns counts as generic,
#: its score multiplied by (_COMMON_WORDS / count) ** _COMMON_EXPONENT.
_COMMON_WORDS = 4
_COMMON_EXPONENT = 0.25
#: ... when it has fewer literal characters than this.
_GENERIC_CHARS = 30
#: Lines within this distance of lineNumber count as the raise site (versions drift).
_NEAR_LINES = 3
_FAR = 1 << 30
#: A cut-off paste must hold this much of the pattern's literal text (characters, or
#: share of it, whichever is less) before it is checked as a truncated match.
_TRUNCATED_MIN_CHARS = 40
_TRUNCATED_MIN_SHARE = 0.5
#: How many lines of a class-less paste are tried one by one.
_MAX_TEXT_LINES = 2000

#: A leading capture that starts like prose followed by ": " is a wrapper's text.
_WRAPPER_LEAD = re.compile(r"[A-Za-z][A-Za-z0-9_ .'-]*: \S")
_ERRNO = re.compile(r"^\[(?:Errno|WinError) -?\d+\] ")
_JSON_POSITION = re.compile(r": line \d+ column \d+ \(char \d+\)$")


@dataclass(frozen=True)
class Match:
    """A record found for a piece of error text, with the evidence for it.

    ``params`` maps each placeholder expression of the record's ``errorMessage``
    to the text captured for it (whitespace folded). ``span`` is the
    ``(start, end)`` of the matched exception in the input text. ``summary``
    holds the record's matching fields; :attr:`record` reads and validates the
    whole record on first access (a large catalog is not read up front).
    """

    summary: RecordSummary
    confidence: float
    exact: bool
    mode: MatchMode
    span: tuple[int, int]
    report: ExceptionReport
    reasons: tuple[str, ...] = ()
    #: What each group of the pattern captured, in order (named by :attr:`params`).
    captures: tuple[str | None, ...] = ()
    _store: Store | None = field(default=None, repr=False, compare=False)
    _position: int = field(default=-1, repr=False, compare=False)
    _rank: tuple[float, ...] = field(default=(), repr=False, compare=False)

    @cached_property
    def params(self) -> Mapping[str, str]:
        """The captured values keyed by the placeholder expressions of ``errorMessage``."""
        return MappingProxyType(_params(self.summary, self.captures))

    @cached_property
    def record(self) -> ErrorRecord:
        """The matched record (read from its store on first access)."""
        assert self._store is not None
        return self._store.record(self._position)

    def __repr__(self) -> str:
        """A short form: record id, mode and confidence."""
        return (
            f"<Match {self.summary.id} {self.summary.error_class} mode={self.mode} "
            f"confidence={self.confidence:.3f}>"
        )

    @property
    def advice(self) -> Advice:
        """The record's solutions and example fix, with this match's captured values."""
        return Advice.from_match(self)

    @property
    def confident(self) -> bool:
        """True when this match is good enough for :func:`match_error` to return it."""
        return self.mode != "fuzzy" and self.confidence >= CONFIDENCE_THRESHOLD

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the record by id; use ``record.model_dump`` for all of it)."""
        return {
            "id": self.summary.id,
            "slug": self.summary.slug,
            "repo": self.summary.repo,
            "errorClass": self.summary.error_class,
            "errorMessage": self.summary.error_message,
            "confidence": self.confidence,
            "exact": self.exact,
            "mode": self.mode,
            "params": dict(self.params),
            "span": list(self.span),
            "reasons": list(self.reasons),
        }

    @property
    def history(self) -> Lineage | None:
        """When the record's message existed, if the catalog has a history (``errcat history``).

        The lineage gives the first and last revision, the record it was reworded
        from or into, and :meth:`~errcat.history.Lineage.fits` says at which
        revisions the traceback's line numbers put the raise.
        """
        from errcat.history import history_of

        known = history_of(self._store)
        return known.lineage(self.summary.id) if known is not None else None


def _short_class(name: str | None) -> str | None:
    return name.rsplit(".", 1)[-1] if name else None


def _variants(report: ExceptionReport) -> list[str]:
    """The message as printed plus the forms the exception's own decoration hides."""
    message = report.message
    out = [message]
    short = _short_class(report.error_class)
    stripped = message.strip()
    if short and short.endswith("KeyError") and len(stripped) >= 2 and stripped[0] in "'\"":
        try:
            value = ast.literal_eval(stripped)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            value = None
        if isinstance(value, str):
            out.append(value)
    if stripped.startswith("(") and stripped.endswith(")") and "," in stripped:
        # str(exc) of an exception raised with several arguments: its args tuple.
        try:
            args = ast.literal_eval(stripped)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            args = None
        if isinstance(args, tuple) and args and isinstance(args[0], str):
            out.append(args[0])
    errno = _ERRNO.match(stripped)
    if errno:
        out.append(stripped[errno.end() :])
    position = _JSON_POSITION.search(stripped)
    if position:
        out.append(stripped[: position.start()])
    if report.kind == "text" and "\n" in message:
        lines = [line for line in message.splitlines() if line.strip()]
        out.extend(lines[:_MAX_TEXT_LINES])
    seen: set[str] = set()
    folded = []
    for variant in out:
        f = fold_whitespace(variant)
        if f and f not in seen:
            seen.add(f)
            folded.append(f)
    return folded


def _params(record: RecordSummary, groups: Sequence[str | None]) -> dict[str, str]:
    names = placeholder_names(record.error_message)
    params: dict[str, str] = {}
    for index, value in enumerate(groups):
        name = names[index] if index < len(names) else str(index + 1)
        if value is None or name in params:
            continue
        params[name] = value
    return params


def _path_parts(path: str) -> list[str]:
    return path.replace("\\", "/").split("/")


class _FrameView:
    """A report's frames indexed by their last one and two path components.

    A frame is in a record's file when its trailing components equal the
    record's ``filePath``'s (the last two, or the only one): one dictionary
    lookup per record instead of a pass over every frame.
    """

    __slots__ = ("by_tail", "packages")

    def __init__(self, frames: Sequence[Frame]) -> None:
        self.by_tail: dict[tuple[str, ...], list[Frame]] = {}
        self.packages: set[str] = set()
        for frame in frames:
            parts = _path_parts(frame.path)
            self.by_tail.setdefault(tuple(parts[-1:]), []).append(frame)
            if len(parts) >= 2:
                self.by_tail.setdefault(tuple(parts[-2:]), []).append(frame)
            self.packages.update(p.lower() for p in parts)


def _frame_evidence(view: _FrameView, record: RecordSummary) -> tuple[float, str | None, int]:
    """Gain, reason, and the line distance of the nearest frame in the record's file.

    The distance breaks ties between records that share a message and are
    raised a few lines apart: the exact line wins, then the nearest.
    """
    record_parts = _path_parts(record.file_path)
    best = 0.0
    reason = None
    distance = _FAR
    for frame in view.by_tail.get(tuple(record_parts[-2:]), ()):
        gap = abs(frame.line - record.line_number)
        distance = min(distance, gap)
        if gap <= _NEAR_LINES:
            best = _FRAME_AT_SITE
            reason = (
                f"traceback frame {frame.path}:{frame.line} is the raise site "
                f"{record.file_path}:{record.line_number}"
            )
        elif best < _FRAME_IN_FILE:
            best = _FRAME_IN_FILE
            reason = f"traceback passes through {record.file_path} ({frame.path}:{frame.line})"
    if best:
        return best, reason, distance
    package = record.repo.split("/", 1)[1].replace("-", "_").lower()
    if package in view.packages:
        return _REPO_HINT, f"traceback passes through the {package} package", _FAR
    return 0.0, None, _FAR


def _text_score(
    *,
    entry: Entry,
    mode: str,
    message_length: int,
    matched_length: int,
    captures: Sequence[str | None],
    literal: int,
) -> tuple[float, list[str]]:
    """The part of the confidence that depends on the text alone (shared by the pattern's records).

    ``literal`` is the number of the pattern's literal characters the message
    holds: all of them, except for a truncated message.
    """
    captured = sum(min(len(c), _CAPTURE_CAP) for c in captures if c)
    unexplained = max(0, message_length - matched_length)
    explained = literal / (literal + captured + unexplained) if literal else 0.0
    strength = 1.0 - math.exp(-literal / _SPECIFIC_CHARS)
    score = strength * math.sqrt(explained) * _MODE_FACTOR[mode]
    if entry.rarity > _COMMON_WORDS and literal < _GENERIC_CHARS:
        # Little literal text, and even its rarest word is in many other patterns:
        # a generic shape ({name} must be an integer). Longer patterns are specific
        # by their whole text even when a catalog holds many variants of them.
        score *= (_COMMON_WORDS / entry.rarity) ** _COMMON_EXPONENT
    reasons = [
        {
            "full": "the pattern matches the whole message",
            "prefix": "the pattern matches the start of the message; the rest is extra",
            "inner": "the pattern matches the end of a longer message",
            "truncated": "the message stops partway through the pattern (cut-off paste)",
        }[mode],
        f"literal text explains {explained:.0%} of the message ({literal} characters)",
    ]
    return score, reasons


def _best_without_file(score: float, report: ExceptionReport) -> float:
    """The highest confidence of a record whose file is not in the report's traceback."""
    if report.error_class is not None and report.kind != "text":
        score += (1 - score) * _CLASS_AGREES
    return min(1.0, score + (1 - score) * _REPO_HINT)


def _best_possible(score: float, report: ExceptionReport) -> float:
    """The highest confidence a record could reach from ``score`` with the report's evidence."""
    if report.error_class is not None and report.kind != "text":
        score += (1 - score) * _CLASS_AGREES
    if report.frames:
        score += (1 - score) * _FRAME_AT_SITE
    return min(1.0, score)


def _score(
    *,
    entry: Entry,
    record: RecordSummary,
    report: ExceptionReport,
    frames: _FrameView,
    score: float,
    reasons: list[str],
) -> tuple[float, list[str], tuple[float, int]]:
    """Confidence, reasons, and the frame evidence used to break ties, for one record.

    ``score`` and ``reasons`` come from :func:`_text_score`; class, traceback
    frames and repo move the score for this record.
    """
    reasons = list(reasons)
    got = _short_class(report.error_class)
    want = _short_class(record.error_class)
    if got is not None and report.kind != "text":
        if got == want:
            score += (1 - score) * _CLASS_AGREES
            reasons.append(f"exception class {got} agrees")
        else:
            score *= _CLASS_DISAGREES
            reasons.append(f"exception class {got} differs from the record's {want}")
    frame_gain, frame_reason, distance = _frame_evidence(frames, record)
    if frame_gain:
        score += (1 - score) * frame_gain
        assert frame_reason is not None
        reasons.append(frame_reason)
    elif report.frames:
        # The traceback shows where the error came from, and it is not this record's code.
        score *= _FRAMES_ELSEWHERE
        reasons.append(f"the traceback never passes through {record.file_path}")
    if len(entry.records) > 1:
        reasons.append(f"{len(entry.records)} records share this message")
    return min(1.0, max(0.0, score)), reasons, (frame_gain, -distance)


@dataclass(frozen=True, slots=True)
class _Hit:
    """Where a pattern matched a message and what its groups captured."""

    mode: str
    groups: tuple[str | None, ...]
    start: int
    end: int


def _regex_hit(mode: str, m: regex.Match[str]) -> _Hit:
    return _Hit(mode, m.groups(), m.start(), m.end())


def _verify(entry: Entry, text: str, *, use_pieces: bool) -> _Hit | None:
    """Match one candidate against a folded message: full, then prefix, then inner."""
    compiled = None
    try:
        if use_pieces and entry.pieces is not None:
            groups = pieces_fullmatch(entry.pieces, text)
            full = _Hit("full", groups, 0, len(text)) if groups is not None else None
        else:
            compiled = entry.compiled
            m = compiled.full.fullmatch(text, timeout=REGEX_TIMEOUT)
            full = _regex_hit("full", m) if m else None
        if full is not None:
            lead = full.groups[0] if entry.pattern.startswith(GROUP) else None
            if lead and _WRAPPER_LEAD.match(lead):
                # "worker crashed: <message>": the wrapper is not the placeholder's value.
                inner = entry.compiled.inner.search(text, timeout=REGEX_TIMEOUT)
                if inner:
                    return _regex_hit("inner", inner)
            return full
        if use_pieces and entry.pieces is not None:
            prefix = pieces_prefix(entry.pieces, text)
            if prefix is not None:
                return _Hit("prefix", prefix[0], 0, prefix[1])
            if entry.pieces[0]:
                inner_hit = pieces_inner(entry.pieces, text)
                return None if inner_hit is None else _Hit("inner", *inner_hit)
            if not inner_tail_possible(entry.pieces, text):
                return None
        else:
            assert compiled is not None
            m = compiled.full.match(text, timeout=REGEX_TIMEOUT)
            if m:
                return _regex_hit("prefix", m)
        m = entry.compiled.inner.search(text, timeout=REGEX_TIMEOUT)
        if m:
            return _regex_hit("inner", m)
    except TimeoutError:
        return None
    return None


def _verify_truncated(entry: Entry, text: str) -> _Hit | None:
    try:
        m = entry.compiled.full.fullmatch(text, partial=True, timeout=REGEX_TIMEOUT)
    except TimeoutError:
        return None
    return _regex_hit("truncated", m) if m is not None and m.partial else None


@dataclass
class _Collector:
    catalog: Catalog
    #: How many results the caller wants: a pattern that cannot reach the
    #: ``limit``-th best confidence so far is skipped without scoring its records.
    limit: int
    #: match_error only returns a confident match: lower ones need not be scored.
    confident_only: bool = False
    part: int = 0
    best: dict[str, Match] = field(default_factory=dict)
    _views: dict[int, _FrameView] = field(default_factory=dict)
    _in_files: dict[tuple[int, int], frozenset[int]] = field(default_factory=dict)

    def frame_view(self, report: ExceptionReport) -> _FrameView:
        """The report's frames, indexed once per report."""
        view = self._views.get(id(report))
        if view is None:
            view = self._views[id(report)] = _FrameView(report.frames)
        return view

    def in_frame_files(self, report: ExceptionReport) -> frozenset[int]:
        """Positions (in the current store) of the records raised in the report's files."""
        key = (self.part, id(report))
        found = self._in_files.get(key)
        if found is None:
            store = self.catalog.parts[self.part]
            tails = {"/".join(tail) for tail in self.frame_view(report).by_tail}
            found = frozenset(p for tail in tails for p in store.records_in_file(tail))
            self._in_files[key] = found
        return found

    def floor(self) -> float:
        """The confidence a new match must exceed to matter (0 until ``limit`` are held)."""
        base = CONFIDENCE_THRESHOLD if self.confident_only else 0.0
        if len(self.best) < self.limit:
            return base
        return max(base, heapq.nlargest(self.limit, (m._rank[0] for m in self.best.values()))[-1])

    def add(
        self,
        *,
        entry: Entry,
        report: ExceptionReport,
        order: int,
        hit: _Hit,
        text: str,
        truncated_literal: int | None = None,
    ) -> None:
        mode = hit.mode
        captures = hit.groups
        text_score, text_reasons = _text_score(
            entry=entry,
            mode=mode,
            message_length=len(text),
            matched_length=hit.end - hit.start,
            captures=captures,
            literal=entry.literal_length if truncated_literal is None else truncated_literal,
        )
        if truncated_literal is not None:
            share = truncated_literal / max(1, entry.literal_length)
            text_score *= 0.5 + 0.5 * share
            text_reasons.append(f"{share:.0%} of the pattern's literal text is present")
        best_possible = _best_possible(text_score, report)
        if best_possible < self.floor():
            return  # none of this pattern's records can make the results (exact pruning)
        store = self.catalog.parts[self.part]
        frames = self.frame_view(report)
        records: Sequence[int] = entry.records
        if report.frames and _best_without_file(text_score, report) < self.floor():
            # Only a record raised in one of the traceback's files can make the results.
            in_files = self.in_frame_files(report)
            if len(in_files) < len(records):
                records = sorted(in_files.intersection(entry.record_set))
            else:
                records = [p for p in records if p in in_files]
        if best_possible < CONFIDENCE_THRESHOLD:
            # Only a hint: a generic pattern shared all over is sampled, not scored whole.
            records = records[:_HINT_RECORDS]
        for position in records:
            summary = store.summary(position)
            if self.catalog.hidden(self.part, summary.id):
                continue
            confidence, reasons, (frame_gain, closeness) = _score(
                entry=entry,
                record=summary,
                report=report,
                frames=frames,
                score=text_score,
                reasons=text_reasons,
            )
            match = Match(
                summary=summary,
                confidence=round(confidence, 3),
                exact=mode != "truncated",
                mode=mode,  # type: ignore[arg-type]
                captures=captures,
                span=(report.start, report.end),
                report=report,
                reasons=tuple(reasons),
                _store=store,
                _position=position,
                _rank=(confidence, frame_gain, closeness, entry.literal_length, -order, -position),
            )
            self.keep(match)

    def keep(self, match: Match) -> None:
        current = self.best.get(match.summary.id)
        if current is None or match._rank > current._rank:
            self.best[match.summary.id] = match


def _literal_prefix(entry: Entry, text: str) -> int:
    """How many of the entry's literal characters a truncated text contains."""
    total = 0
    position = 0
    for fragment in entry.fragments:
        found = text.find(fragment, position)
        if found >= 0:
            total += len(fragment)
            position = found + len(fragment)
            continue
        tail = text[position:]
        for size in range(min(len(fragment), len(tail)), 0, -1):
            if tail.endswith(fragment[:size]):
                return total + size
        return total
    return total


def _resolve(catalog: Catalog | None) -> Catalog:
    if catalog is None:
        from errcat.catalog import Catalog

        return Catalog.bundled()
    return catalog


def _reports(text: str) -> list[ExceptionReport]:
    if not isinstance(text, str):
        raise TypeError(f"error text must be str, got {type(text).__name__}")
    return extract_reports(text)


def _collect(
    reports: Sequence[ExceptionReport],
    catalog: Catalog,
    limit: int,
    *,
    confident_only: bool = False,
) -> _Collector:
    collector = _Collector(catalog, limit, confident_only)
    for part, store in enumerate(catalog.parts):
        collector.part = part
        index = store.index
        for order, report in enumerate(reports):
            found = False
            variants = _variants(report)
            for text in variants:
                for entry in index.candidates(text):
                    hit = _verify(entry, text, use_pieces=index.uses_pieces)
                    if hit is None:
                        continue
                    collector.add(entry=entry, report=report, order=order, hit=hit, text=text)
                    found = True
            if found:
                continue
            for text in variants[:1]:
                for entry in index.prefix_candidates(text):
                    present = _literal_prefix(entry, text)
                    if present < min(
                        _TRUNCATED_MIN_CHARS, _TRUNCATED_MIN_SHARE * entry.literal_length
                    ):
                        continue  # too little of the pattern is there to call it a cut-off paste
                    partial = _verify_truncated(entry, text)
                    if partial is not None:
                        collector.add(
                            entry=entry,
                            report=report,
                            order=order,
                            hit=partial,
                            text=text,
                            truncated_literal=present,
                        )
    return collector


def _fuzzy(reports: Sequence[ExceptionReport], catalog: Catalog, limit: int) -> list[Match]:
    """Near records for messages no pattern matched: inexact hints, never confident."""
    hints: list[Match] = []
    for order, report in enumerate(reports):
        text = fold_whitespace(report.message)
        message_words = len(set(words(text)))
        if message_words < 3:
            continue
        for part, store in enumerate(catalog.parts):
            hints.extend(
                _near_hints(
                    catalog=catalog,
                    part=part,
                    store=store,
                    report=report,
                    order=order,
                    text=text,
                    message_words=message_words,
                    limit=limit,
                )
            )
    return hints


def _near_hints(
    *,
    catalog: Catalog,
    part: int,
    store: Store,
    report: ExceptionReport,
    order: int,
    text: str,
    message_words: int,
    limit: int,
) -> Iterator[Match]:
    for shared, total, entry in store.index.near(text, limit=limit):
        recall = shared / total  # how much of the record's wording is present
        precision = shared / message_words  # how much of the message is the record's
        near = recall >= _FUZZY_MIN_SHARE or (
            precision >= _FUZZY_MIN_CONTAINED and shared >= _FUZZY_MIN_WORDS
        )
        if shared < 3 or not near:
            continue
        share = (recall + precision) / 2
        confidence = _FUZZY_CAP * share
        for position in entry.records:
            summary = store.summary(position)
            if catalog.hidden(part, summary.id):
                continue
            yield Match(
                summary=summary,
                confidence=round(confidence, 3),
                exact=False,
                mode="fuzzy",
                span=(report.start, report.end),
                report=report,
                reasons=(
                    f"no pattern matched; {recall:.0%} of this record's words and "
                    f"{precision:.0%} of the message's are shared (drifted message?)",
                ),
                _store=store,
                _position=position,
                _rank=(confidence, 0.0, -_FAR, entry.literal_length, -order, -position),
            )


def match_all(text: str, catalog: Catalog | None = None, limit: int = 5) -> list[Match]:
    """Every record the text may be an instance of, best first, at most ``limit``.

    Exact matches come with any confidence; when no pattern matches at all,
    fuzzy hints (``exact=False``, confidence below the threshold) are listed.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit!r}")
    cat = _resolve(catalog)
    reports = _reports(text)
    collector = _collect(reports, cat, limit)
    matches = sorted(collector.best.values(), key=lambda m: m._rank, reverse=True)
    if not matches:
        seen: set[str] = set()
        for hint in sorted(_fuzzy(reports, cat, limit), key=lambda m: m._rank, reverse=True):
            if hint.summary.id not in seen:
                seen.add(hint.summary.id)
                matches.append(hint)
    return matches[:limit]


def match_error(text: str, catalog: Catalog | None = None) -> Match | None:
    """The record that explains an error text, or None when no record is a confident answer.

    ``text`` may be anything a user pastes: a traceback, a log excerpt, a bare
    ``ValueError: ...`` line or just the message. The bundled catalog is used
    unless ``catalog`` is given.
    """
    cat = _resolve(catalog)
    collector = _collect(_reports(text), cat, 1, confident_only=True)
    if not collector.best:
        return None
    best = max(collector.best.values(), key=lambda m: m._rank)
    return best if best.confident else None
