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
``phrase``
    no regex matched, but the message names one record's error by the words a
    curator gave it (``illegal memory access`` in an issue title; see
    :mod:`errcat.matcher.phrases`);
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

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING

from errcat.engine import lean
from errcat.extract import ExceptionReport, extract_reports
from errcat.matcher.collect import _collect, _Collector, _hints, _unwrap
from errcat.matcher.context import Lean
from errcat.matcher.cut_wrapper import cut_wrapper_answer
from errcat.matcher.dual_cause import dual_cause_answer
from errcat.matcher.engine_class import engine_class_answer
from errcat.matcher.family_named import named_family_answer
from errcat.matcher.inner_cause import inner_cause
from errcat.matcher.lead_words import lead_word_rests, shifted, shows_enough
from errcat.matcher.module_attr import module_answer
from errcat.matcher.phrases import phrase_answer
from errcat.matcher.rank import _chain_order
from errcat.matcher.result import CONFIDENCE_THRESHOLD, REGEX_TIMEOUT, Match, MatchMode
from errcat.matcher.statement import statement_answer
from errcat.matcher.status_cause import unless_beside_cause
from errcat.matcher.text_evidence import _mentions
from errcat.tags import WRAPPER_TAG

if TYPE_CHECKING:
    from errcat.catalog import Catalog


__all__ = [
    "CONFIDENCE_THRESHOLD",
    "REGEX_TIMEOUT",
    "WRAPPER_TAG",
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
    engine, mentions = functools.partial(lean, text), _mentions(text)
    collector = _collect(reports, cat, limit, mentions=mentions, lean=engine, paste=text)
    answer = _answer(collector, text, reports, mentions, engine)
    matches = [answer] if answer is not None else []
    seen = {m.summary.id for m in matches}
    rest = sorted(
        (m for order in collector.best for m in collector.ranked_matches(order)),
        key=lambda m: m._rank,
        reverse=True,
    )
    for m in rest:
        if m.summary.id not in seen:
            seen.add(m.summary.id)
            matches.append(m)
    if not matches:
        for hint in _hints(collector, limit):
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
    engine, mentions = functools.partial(lean, text), _mentions(text)
    collector = _collect(
        reports, cat, 1, confident_only=True, mentions=mentions, lean=engine, paste=text
    )
    return _answer(collector, text, reports, mentions, engine)


def _answer(
    collector: _Collector,
    text: str,
    reports: list[ExceptionReport],
    mentions: Mapping[str, int],
    engine: Lean,
) -> Match | None:
    """The text's answer: the collected one, else a phrase's, else past a title's lead words.

    A wrapper beside a traceback its paste cut answers with what it captured
    (:mod:`.cut_wrapper`) before any rule that names a record without a pattern; a
    wrapper's dual class ``W(X)`` answers with the record tagged for it (:mod:`.dual_cause`).
    A wrapper whose own message holds an error a record explains gives way to that
    record (:mod:`.inner_cause`).
    An HTTP status's record does not answer a paste that holds the status's cause
    (:mod:`.status_cause`).

    A title that holds a message after words of the writer's own, with no mark between
    (:mod:`.lead_words`), is read from each of its first words on, shortest lead first.
    """
    cat = collector.catalog
    # A status's record is the symptom of an error the paste holds: not an answer then.
    kept = functools.partial(unless_beside_cause, text=text, reports=reports)
    found = (
        kept(
            dual_cause_answer(
                inner_cause(_unwrap(collector.answer(), cat, engine, text), collector, engine), cat
            )
        )
        or kept(cut_wrapper_answer(collector, engine))
        or kept(_named(collector, text))
    )
    if found is not None:
        return found
    for offset, rest in lead_word_rests(text, reports):
        rest_reports = _reports(rest)
        inner = _collect(
            rest_reports, cat, 1, confident_only=True, mentions=mentions, lean=engine, paste=text
        )
        answer = unless_beside_cause(_unwrap(inner.answer(), cat, engine, text), rest, rest_reports)
        if answer is not None and shows_enough(answer):
            return shifted(answer, offset, text[:offset])
    return None


def _named(collector: _Collector, text: str) -> Match | None:
    """When nothing answers, the record a report names by its phrase (:mod:`.phrases`).

    Else, for a frameless ``'X' object has no attribute 'y'`` on a class named as a
    torch module is: the engine's family record when the paste names the engine and
    only that engine's code defines the class (:mod:`.engine_class`), else
    torch's ``Module.__getattr__`` record (:mod:`.module_attr`). Before torch's, a
    frameless family error whose shape only the engine the paste names prints
    (:mod:`.family_named`). Last, a quoted ``assert`` statement: the bare assert's
    record (:mod:`.statement`).
    """
    contexts = collector.contexts
    order = _chain_order([ctx.report for ctx in contexts])
    ordered = [contexts[n] for n in order]
    cat = collector.catalog
    return (
        phrase_answer(ordered, cat)
        or engine_class_answer(ordered, cat, text)
        or named_family_answer(ordered, cat, text)
        or module_answer(ordered, cat)
        or statement_answer(ordered, cat, text)
    )


def candidates(text: str, catalog: Catalog, limit: int = 10) -> list[Match]:
    """Every scored candidate of every report, with its features (for calibration).

    Unlike :func:`match_all`, nothing is merged across reports and
    :attr:`Match.features` is filled in.
    """
    reports = _reports(text)
    collector = _collect(
        reports,
        catalog,
        limit,
        keep_features=True,
        mentions=_mentions(text),
        lean=functools.partial(lean, text),
        paste=text,
    )
    return [m for order in _chain_order(reports) for m in collector.ranked_matches(order)]
