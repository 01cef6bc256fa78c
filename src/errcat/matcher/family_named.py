r"""A frameless family error in a paste that names the engine: the family's own shape says whose.

A family record (:mod:`errcat.matcher.family`) answers only at a raise frame in its
scope, since its shape is every project's. A few shapes are not: a ``KeyError`` on a
checkpoint tensor name (``'layers.0.attention.wk.weight'``) is looked up only by a
model's weight loader, and among what a serving stack runs that is the engine's. Such
records carry :data:`~errcat.tags.ENGINE_NAMED_TAG`; a report without frames whose
message the record's pattern prints whole, in a paste that names one engine on enough
evidence to pick its advice (:func:`errcat.engine.detect`: its command, module paths,
log prefixes), is answered by that engine's record, when nothing else answers.

>>> from errcat.catalog import Catalog
>>> from errcat.matcher import match_error
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> family = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record.model_copy(
...     update={
...         "repo": "sgl-project/sglang",
...         "file_path": "python/sglang/srt/models/llama.py",
...         "error_class": "KeyError",
...         "error_message": "'{name}.weight'",
...         "message_pattern": r"'([\w.]+\.weight)'",
...         "tags": ("errcat:family", "errcat:answer:engine-named"),
...     }
... )
>>> paste = (
...     "Run command: `python -m sglang.launch_server --model-path Mistral-7B`\n"
...     "Error message: `KeyError: 'layers.0.attention.wk.weight'`"
... )
>>> found = match_error(paste, catalog=Catalog([family]))
>>> found.record.repo, found.confidence
('sgl-project/sglang', 0.7)
>>> match_error("KeyError: 'layers.0.attention.wk.weight'", catalog=Catalog([family])) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from errcat.engine import detect
from errcat.matcher.context import ReportContext
from errcat.matcher.family import family_members
from errcat.matcher.result import Match
from errcat.tags import ENGINE_NAMED_TAG

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = ["NAMED_CONFIDENCE", "named_family_answer"]

#: The confidence of such an answer: set, not fitted, under a raise frame's, since no
#: frame shows it was the engine's loader (a wrapper's own loader could look it up).
NAMED_CONFIDENCE = 0.7
#: The repository of each engine :func:`errcat.engine.detect` names.
_REPOS = {"sglang": "sgl-project/sglang", "vllm": "vllm-project/vllm"}


def _class_fits(report_class: str | None, record_class: str) -> bool:
    return report_class is None or report_class.rsplit(".", 1)[-1] == record_class


def named_family_answer(
    contexts: Sequence[ReportContext], catalog: Catalog, text: str
) -> Match | None:
    """The named engine's family record for the first frameless report its shape prints whole."""
    frameless = [ctx for ctx in contexts if not ctx.report.frames]
    if not frameless:
        return None
    repo = _REPOS.get(detect(text).engine or "")
    if repo is None:
        return None
    for ctx in frameless:
        for part in range(len(catalog.parts) - 1, -1, -1):
            store = catalog.parts[part]
            for entry in store.index.candidates(ctx.message):
                for position in sorted(family_members(store, entry.records)):
                    summary = store.summary(position)
                    if (
                        summary.repo != repo
                        or ENGINE_NAMED_TAG not in summary.tags
                        or not _class_fits(ctx.report.error_class, summary.error_class)
                        or catalog.hidden(part, summary.id)
                        or not any(re.fullmatch(entry.pattern, f) for f in ctx.forms)
                    ):
                        continue
                    return Match.named(
                        store,
                        position,
                        ctx.report,
                        confidence=NAMED_CONFIDENCE,
                        whole=True,
                        reasons=(
                            f"the paste names {repo.split('/')[1]} and only its code prints "
                            "this shape among what it runs",
                            "no frame shows where it was raised: the family record stands "
                            "for every such place",
                        ),
                    )
    return None
