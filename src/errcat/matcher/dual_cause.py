r"""A dual class ``W(X)`` whose paste stops before ``X``'s message: the record named for it.

Ray re-raises a remote task's error as ``ray.exceptions.RayTaskError(X)``: a class
that is both the wrapper and the cause ``X``, whose message is the ``ray::f()
(pid=..., ip=...)`` header, the remote frames, and last ``X``'s own line. A paste
cut before that line (a search chunk, a title) leaves only the wrapper's record,
which can only say where the cause is. When the catalog names one record for the
very dual class (tag ``errcat:dual-cause:W(X)``, :data:`~errcat.tags.DUAL_CAUSE_TAG_PREFIX`,
curated where ``X`` is the wrapper's project's own error with one meaning, such as
Ray's memory monitor's ``OutOfMemoryError``), that record answers, the wrapper kept
in :attr:`Match.related`.

>>> from errcat.catalog import Catalog
>>> from errcat.matcher import match_error
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> base = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
>>> def rec(n, cls, message, pattern, tag):
...     fields = {"error_class": cls, "error_message": message, "message_pattern": pattern}
...     return base.model_copy(update={"id": f"{n:016x}", "tags": (tag,), **fields})
>>> wrapper = rec(
...     1,
...     "zq.ZqTaskError",
...     "zq::{f}() (pid={pid})",
...     r"zq::(\S+?)\(\) \(pid=(\d+)\)",
...     "errcat:wrapper",
... )
>>> low = "zqnode ran low on zqmemory"
>>> cause = rec(2, "zq.ZqMemoryError", low, low, "errcat:dual-cause:ZqTaskError(ZqMemoryError)")
>>> found = match_error(
...     "zq.ZqTaskError(ZqMemoryError): zq::zqrun() (pid=7)", catalog=Catalog([wrapper, cause])
... )
>>> found.summary.id, found.mode, found.related[0].summary.id
('0000000000000002', 'phrase', '0000000000000001')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from errcat.matcher.classes import dual_classes
from errcat.matcher.phrases import PHRASE_CONFIDENCE
from errcat.matcher.result import Match
from errcat.tags import DUAL_CAUSE_TAG_PREFIX, WRAPPER_TAG, tag_values
from errcat.text import short_class

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = ["dual_cause_answer"]


def dual_cause_answer(answer: Match | None, catalog: Catalog) -> Match | None:
    """``answer``, or the one record tagged for its dual class when ``answer`` is the wrapper's."""
    if answer is None or WRAPPER_TAG not in answer.summary.tags:
        return answer
    dual = dual_classes(answer.report.error_class)
    if dual is None:
        return answer
    outer, inner = (short_class(name) for name in dual)
    wanted = f"{outer}({inner})"
    named: dict[str, Match] = {}
    for part, store in enumerate(catalog.parts):
        for position in store.tagged(DUAL_CAUSE_TAG_PREFIX):
            summary = store.summary(position)
            if wanted not in tag_values(summary.tags, DUAL_CAUSE_TAG_PREFIX):
                continue
            if catalog.hidden(part, summary.id):
                continue
            named.setdefault(
                summary.id,
                Match(
                    summary=summary,
                    confidence=min(answer.confidence, PHRASE_CONFIDENCE),
                    exact=False,
                    mode="phrase",
                    span=answer.span,
                    report=answer.report,
                    reasons=(f"the class {wanted} names this error as the cause",),
                    related=(answer, *answer.related),
                    _store=store,
                    _position=position,
                ),
            )
    return next(iter(named.values())) if len(named) == 1 else answer
