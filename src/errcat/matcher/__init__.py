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

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from errcat.extract import ExceptionReport, extract_reports
from errcat.extract.forms import message_forms
from errcat.matcher.collect import _add_hits, _Collector
from errcat.matcher.drift import _drift, _fuzzy
from errcat.matcher.find import (
    _TRUNCATED_VARIANTS,
    _explains_most,
    _Found,
    _truncated_hits,
    _unpunctuated_hits,
)
from errcat.matcher.rank import _chain_order, _fold_ties, _lift_dominant
from errcat.matcher.result import CONFIDENCE_THRESHOLD, REGEX_TIMEOUT, Match, MatchMode
from errcat.matcher.text_evidence import _is_wordless, _mentions
from errcat.matcher.verify import _lookup_text, _verify

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
            variants = message_forms(report)
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
