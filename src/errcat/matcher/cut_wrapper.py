r"""A wrapper that logged its cause's message, then its traceback, which the paste cut.

vLLM's V0 workers log ``Exception in worker X while processing method load_model:
<message>, Traceback (most recent call last):`` and the frames after it; a paste that
stops inside those frames holds a traceback cut before its exception line. A wrapper
record does not answer beside such a traceback (the frames say an error happened
elsewhere, :func:`errcat.matcher.collect._beside_a_cut_traceback`), but here the
cause's own message stands in the wrapper's line: its placeholders captured it. When
nothing else answers, the wrapper's captures are matched on their own, as a wrapper's
are when it answers (:func:`errcat.matcher.collect._unwrap`), and a confident record
of what it wrapped is the answer. The wrapper's own match is seldom confident (its
words are few beside what it captured), so when the collector kept only confident
matches (:func:`errcat.matcher.match_error`), such a report's matches are collected
again, all of them: :func:`match_error` then answers as :func:`match_all` does.

>>> from errcat.catalog import Catalog
>>> from errcat.matcher import match_error
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> base = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
>>> wrapper = base.model_copy(
...     update={
...         "id": "0000000000000001",
...         "file_path": "zqpkg/zqworker.py",
...         "error_message": "Exception in zqworker {name}: {e}, {tb}",
...         "message_pattern": r"Exception in zqworker (.+?): (.+?), (.+)",
...         "tags": ("errcat:wrapper",),
...     }
... )
>>> cause = base.model_copy(
...     update={
...         "id": "0000000000000002",
...         "error_message": "zqshard {n} is missing from zqstore",
...         "message_pattern": r"zqshard (.+?) is missing from zqstore",
...     }
... )
>>> log = "(ZqWorker pid=7) ERROR 08-05 23:29:38 zqworker.py:226] "
>>> paste = (
...     f"{log}Exception in zqworker w1: zqshard 3 is missing from zqstore, "
...     "Traceback (most recent call last):\n"
...     f'{log}  File "/x/zqpkg/zqworker.py", line 9, in run\n'
...     f"{log}    output = executor(*args)"
... )
>>> match_error(paste, catalog=Catalog([wrapper, cause])).record.id
'0000000000000002'
>>> from errcat.matcher import match_all
>>> match_all(paste, catalog=Catalog([wrapper, cause]))[0].record.id
'0000000000000002'
"""

from __future__ import annotations

from errcat.matcher.collect import _collect, _Collector, _is_wrapper, _unwrap
from errcat.matcher.context import Lean
from errcat.matcher.rank import _chain_order
from errcat.matcher.result import Match

__all__ = ["cut_wrapper_answer"]

#: How many of a report's best matches are read for a wrapper.
_READ = 3


def cut_wrapper_answer(collector: _Collector, lean: Lean) -> Match | None:
    """The confident record of what a wrapper beside a cut traceback captured, if any.

    Only a text report with frames is read (the form :func:`_beside_a_cut_traceback`
    keeps from answering) and only a wrapper matched exactly.
    """
    order = _chain_order([ctx.report for ctx in collector.contexts])
    for at in order:
        ctx = collector.contexts[at]
        report = ctx.report
        if report.kind != "text" or not report.frames:
            continue
        ranked = collector.ranked_matches(at)[:_READ]
        if collector.confident_only and not any(_is_wrapper(m) for m in ranked):
            # match_error's collector dropped the wrapper's match (not confident itself):
            # this one report is read again with every match kept.
            again = _collect(
                [report],
                collector.catalog,
                _READ,
                mentions=ctx.mentions,
                lean=lean,
                paste=collector.paste,
            )
            ranked = again.ranked_matches(0)[:_READ]
        for match in ranked:
            if not (_is_wrapper(match) and match.exact):
                continue
            found = _unwrap(match, collector.catalog, lean, collector.paste)
            if found is not None and found is not match and not _is_wrapper(found):
                return found
    return None
