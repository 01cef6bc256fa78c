"""Errors named by their words in free text: an issue title that says "illegal memory access".

Users often name a GPU fault instead of pasting it ("[Bug] deepseek illegal
memory access on 2x8 H20", "device-side assert triggered when using
run_batch"): no pattern matches, since the message's other words are missing.
A few curated records (the CUDA and ROCm faults) carry tags
``errcat:phrase:<words>`` (:data:`~errcat.tags.PHRASE_TAG_PREFIX`). A report
that nothing answers confidently, whose message holds the phrase of exactly
one record as whole words (any case, any spacing), is answered with that
record in mode ``phrase`` at :data:`PHRASE_CONFIDENCE`. When the phrases of
two records occur, neither is chosen.

>>> from errcat.catalog import Catalog
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record.model_copy(
...     update={
...         "error_message": "CUDA error: an illegal memory access was encountered",
...         "message_pattern": "CUDA error: an illegal memory access was encountered",
...         "tags": ("errcat:phrase:illegal memory access",),
...     }
... )
>>> from errcat.matcher import match_error
>>> found = match_error("[Bug] Illegal memory access on 8xH20", catalog=Catalog([record]))
>>> found.mode, found.confidence, found.reasons
('phrase', 0.9, ("the text names this error: 'illegal memory access'",))
>>> match_error("[Bug] illegal memory accesses", catalog=Catalog([record])) is None
True
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING

from errcat.matcher.context import ReportContext
from errcat.matcher.result import Match
from errcat.matcher.status_cause import is_status_record, yields_to_cause
from errcat.matcher.status_number import names_operation, numeric_phrase
from errcat.matcher.status_site import status_tags, whole_status_record
from errcat.store import Store
from errcat.tags import PHRASE_TAG_PREFIX, tag_values

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = ["PHRASE_CONFIDENCE", "phrase_answer"]

#: The confidence of an answer by phrase: set, not fitted. The phrases are a few
#: curated word groups that only one error prints (a CUDA or ROCm fault); what keeps
#: such an answer from being sure is that the title may name the fault as a symptom of
#: another error the paste does not show.
PHRASE_CONFIDENCE = 0.9

#: Each store's phrases (the pattern of each, and the record's position), found once.
_PHRASES: weakref.WeakKeyDictionary[Store, tuple[tuple[str, re.Pattern[str], int], ...]] = (
    weakref.WeakKeyDictionary()
)


def _pattern(phrase: str) -> re.Pattern[str]:
    """The phrase as whole words, in any case and spacing.

    >>> bool(_pattern("device-side assert").search("a Device-side  Assert!"))
    True
    >>> bool(_pattern("device-side assert").search("device-side asserts"))
    False
    """
    words = r"\s+".join(re.escape(w) for w in phrase.split())
    return re.compile(rf"(?<![\w-]){words}(?![\w-])", re.IGNORECASE)


def _store_phrases(store: Store) -> tuple[tuple[str, re.Pattern[str], int], ...]:
    found = _PHRASES.get(store)
    if found is None:
        found = _PHRASES[store] = tuple(
            (phrase, _pattern(phrase), position)
            for position in store.tagged(PHRASE_TAG_PREFIX)
            for phrase in tag_values(store.summary(position).tags, PHRASE_TAG_PREFIX)
        )
    return found


def phrase_answer(contexts: Sequence[ReportContext], catalog: Catalog) -> Match | None:
    """The record one of the reports names by its phrase, when exactly one record is named.

    The reports are read in order (the report that ended the text first); the first
    that names exactly one record is answered. An HTTP status's phrase names nothing
    in a paste that also holds what caused it (:mod:`errcat.matcher.status_cause`);
    inside a client's message that a record of that status prints whole, it names
    that record (:mod:`errcat.matcher.status_site`); named by its number alone after
    an application's own words, nothing (:mod:`errcat.matcher.status_number`).
    """
    reports = [ctx.report for ctx in contexts]
    for ctx in contexts:
        named: dict[str, tuple[str, int, int]] = {}
        for part, store in enumerate(catalog.parts):
            for phrase, pattern, position in _store_phrases(store):
                found = pattern.search(ctx.message)
                if found is None:
                    continue
                summary = store.summary(position)
                if is_status_record(summary.tags) and (
                    yields_to_cause(ctx.report, reports, ctx.message, found.span())
                    or (numeric_phrase(phrase) and names_operation(ctx.message, found.start()))
                ):
                    continue
                record_id = summary.id
                if not catalog.hidden(part, record_id):
                    named.setdefault(record_id, (phrase, part, position))
        if len(named) != 1:
            continue
        ((phrase, part, position),) = named.values()
        reasons: tuple[str, ...] = (f"the text names this error: {phrase!r}",)
        summary = catalog.parts[part].summary(position)
        statuses = status_tags(summary.tags)
        client = (
            whole_status_record(catalog, ctx.report.message, statuses, summary.id)
            if statuses
            else None
        )
        if client is not None:  # a client's own message around the status (status_site)
            part, position = client
            reasons = (*reasons, "this record of the status prints the whole message")
        store = catalog.parts[part]
        report = ctx.report
        return Match(
            summary=store.summary(position),
            confidence=PHRASE_CONFIDENCE,
            exact=False,
            mode="phrase",
            span=(report.start, report.end),
            report=report,
            reasons=reasons,
            _store=store,
            _position=position,
        )
    return None
