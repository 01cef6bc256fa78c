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

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from errcat.confidence import fuzzy_probability
from errcat.evidence import FAR as _FAR
from errcat.evidence import NEAR_LINES
from errcat.extract import ExceptionReport, extract_reports
from errcat.index import Entry
from errcat.matcher.collect import _add_hits, _Collector
from errcat.matcher.find import (
    _TRUNCATED_VARIANTS,
    _explains_most,
    _Found,
    _truncated_hits,
    _unpunctuated_hits,
)
from errcat.matcher.forms import _variants
from errcat.matcher.rank import _chain_order, _fold_ties, _lift_dominant
from errcat.matcher.result import CONFIDENCE_THRESHOLD, REGEX_TIMEOUT, Match, MatchMode
from errcat.matcher.score import _FUZZY_CAP
from errcat.matcher.text_evidence import _is_wordless, _mentions
from errcat.matcher.verify import _Hit, _lookup_text, _verify
from errcat.store import RecordSummary, Store, file_tail
from errcat.text import fold_whitespace, words

if TYPE_CHECKING:
    from errcat.catalog import Catalog


__all__ = [
    "CONFIDENCE_THRESHOLD",
    "REGEX_TIMEOUT",
    "Match",
    "MatchMode",
    "match_all",
    "match_error",
]
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


def _resolve(catalog: Catalog | None) -> Catalog:
    if catalog is None:
        from errcat.catalog import Catalog

        return Catalog.default()
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
    keep_features: bool = False,
    mentions: Mapping[str, int] = MappingProxyType({}),
) -> _Collector:
    collector = _Collector(catalog, limit, confident_only, keep_features, mentions)
    for part, store in enumerate(catalog.parts):
        collector.part = part
        index = store.index
        for order, report in enumerate(reports):
            hits: list[_Found] = []
            variants = _variants(report)
            # A message quoted in prose may have lost its final period; one Python
            # printed after its class is as raised.
            prose = report.kind == "text"
            for text in variants:
                lookup = _lookup_text(text) if prose else text
                for entry in index.candidates(lookup):
                    if not report.frames and _is_wordless(entry):
                        continue  # only a frame at a record's raise line can tell it
                    hit = _verify(entry, text, use_pieces=index.uses_pieces, prose=prose)
                    if hit is None:
                        continue
                    hits.append(_Found(entry, hit, text, entry.literal_length - hit.restored))
                    collector.exact.add((order, entry.pattern))
            if not hits and variants:
                hits.extend(_unpunctuated_hits(index, variants[0]))
            if not any(_explains_most(found) for found in hits):
                # No pattern's literal text explains most of the message: it may be a
                # longer pattern cut off (``Worker failed with error 'x`` is not the
                # record ``Worker failed`` plus extra text, nor ``TP {n}`` with a long
                # value, when ``Worker failed with error '{e}', ...`` exists).
                matched = {found.entry.pattern for found in hits}
                hits.extend(
                    found
                    for found in _truncated_hits(index, variants[:_TRUNCATED_VARIANTS])
                    if found.entry.pattern not in matched  # it matched as it is
                )
            _add_hits(collector, report, order, hits)
    for order, report in enumerate(reports):
        if not any(m.confident for m in collector.best.get(order, {}).values()):
            _drift(collector, report, order)
    return collector


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


def _drift(collector: _Collector, report: ExceptionReport, order: int) -> None:
    """Answer a drifted message from the record at the frame it was raised from.

    A message no pattern matches (a word changed, a clause added, other
    quoting) answers only when a traceback frame sits on a record's raise
    line and the message shares most of the record's words: without that
    frame, a few changed words may be a different error (``case 4`` is not
    ``case 12``), and fuzzy hints stay hints.
    """
    if not report.frames:
        return
    text = fold_whitespace(report.message)
    message_words = len(set(words(text)))
    if message_words < 3:
        return
    lines: dict[str, list[int]] = {}
    for frame in report.frames:
        lines.setdefault(file_tail(frame.path), []).append(frame.line)
    # A traceback cut before its exception line: its text is frames and source
    # lines, so only how much of the record's wording it shows counts, and only
    # at the last frame (where the raise statement is).
    cut = report.kind == "text"
    last = {file_tail(report.frames[-1].path): [report.frames[-1].line]}
    for part, store in enumerate(collector.catalog.parts):
        collector.part = part
        in_files = collector.in_frame_files(report)
        if not in_files:
            continue
        # Only records raised within a few lines of a frame of a file of that name count.
        # A common file name (__init__.py, utils.py) holds thousands of records, so
        # that is checked only for the records of the patterns the words propose.
        taken = 0
        for shared, total, entry in store.index.near(text, limit=len(in_files), within=in_files):
            only = [
                p
                for p in sorted(in_files.intersection(entry.record_set))
                if _near_a_frame(store.summary(p), lines)
            ]
            if not only:
                continue
            taken += 1
            if taken > _DRIFT_CANDIDATES:
                break
            recall = shared / total
            precision = shared / message_words
            at_last = cut and any(_near_a_frame(store.summary(p), last) for p in only)
            if at_last and recall >= _CUT_MIN_RECALL and shared >= 3:
                precision = 1.0  # the raise statement's text: the rest is frames
                only = [p for p in only if _near_a_frame(store.summary(p), last)]
            if shared < 3 or recall < _FUZZY_MIN_SHARE or precision < _DRIFT_MIN_PRECISION:
                continue
            if (order, entry.pattern) in collector.exact:
                continue  # the pattern matched; its exact match is the evidence
            collector.add(
                entry=entry,
                report=report,
                order=order,
                hit=_Hit("drift", (), 0, round(len(text) * precision)),
                text=text,
                present_literal=round(entry.literal_length * recall),
                only=only,
                extra_reasons=(
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
        confidence = fuzzy_probability(share, _FUZZY_CAP)
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
                features={"fuzzy_share": share},
                _store=store,
                _position=position,
                _rank=(confidence, 0.0, -_FAR, entry.literal_length, -order, 0.0, 0.0, -position),
            )


def _ranked(collector: _Collector, order: int) -> list[Match]:
    """A report's matches, best first, each group of indistinguishable records folded.

    Called once collecting is done; the result is kept (match_all asks twice).
    """
    ranked = collector.ranked.get(order)
    if ranked is None:
        held = _lift_dominant(list(collector.best.get(order, {}).values()))
        ranked = _fold_ties(sorted(held, key=lambda m: m._rank, reverse=True))
        collector.ranked[order] = ranked
    return ranked


def _answer(collector: _Collector, reports: Sequence[ExceptionReport]) -> Match | None:
    """The answer for the exception that ended the text, with the chain's other answers."""
    answers: list[Match] = []
    seen: set[str] = set()
    for order in _chain_order(reports):
        ranked = _ranked(collector, order)
        if ranked and ranked[0].confident and ranked[0].summary.id not in seen:
            seen.add(ranked[0].summary.id)
            answers.append(ranked[0])
    if not answers:
        return None
    return replace(answers[0], related=tuple(answers[1:]))


def match_all(text: str, catalog: Catalog | None = None, limit: int = 5) -> list[Match]:
    """Every record the text may be an instance of, best first, at most ``limit``.

    The first is :func:`match_error`'s answer when there is one. Exact matches
    come with any confidence; when no pattern matches at all, fuzzy hints
    (``exact=False``, confidence below the threshold) are listed. A match that
    explains all the text a more confident one explains, and more, on evidence
    as good, ranks above it (its own confidence is kept), unless it is not
    confident and the other is.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit!r}")
    cat = _resolve(catalog)
    reports = _reports(text)
    collector = _collect(reports, cat, limit, mentions=_mentions(text))
    answer = _answer(collector, reports)
    matches = [answer] if answer is not None else []
    seen = {m.summary.id for m in matches}
    rest = sorted(
        (m for order in collector.best for m in _ranked(collector, order)),
        key=lambda m: m._rank,
        reverse=True,
    )
    for m in rest:
        if m.summary.id not in seen:
            seen.add(m.summary.id)
            matches.append(m)
    if not matches:
        for hint in sorted(_fuzzy(reports, cat, limit), key=lambda m: m._rank, reverse=True):
            if hint.summary.id not in seen:
                seen.add(hint.summary.id)
                matches.append(hint)
    return matches[:limit]


def match_error(text: str, catalog: Catalog | None = None) -> Match | None:
    """The record that explains an error text, or None when no record is a confident answer.

    ``text`` may be anything a user pastes: a traceback, a log excerpt, a bare
    ``ValueError: ...`` line or just the message. The bundled catalog is used
    unless ``catalog`` is given. In a chain, the answer is the exception that
    ended the traceback when it has a confident record, else the nearest cause
    that has one; the chain's other answers are in :attr:`Match.related`.
    """
    cat = _resolve(catalog)
    reports = _reports(text)
    collector = _collect(reports, cat, 1, confident_only=True, mentions=_mentions(text))
    return _answer(collector, reports)


def candidates(text: str, catalog: Catalog, limit: int = 10) -> list[Match]:
    """Every scored candidate of every report, with its features (for calibration).

    Unlike :func:`match_all`, nothing is merged across reports and
    :attr:`Match.features` is filled in.
    """
    reports = _reports(text)
    collector = _collect(reports, catalog, limit, keep_features=True, mentions=_mentions(text))
    return [m for order in _chain_order(reports) for m in _ranked(collector, order)]
