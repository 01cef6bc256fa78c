r"""A quoted ``assert`` statement: the record of the bare assert that statement is.

An ``assert`` without a message fails with an empty ``AssertionError``; a user who
has no traceback to paste quotes the statement instead, in a title (``How to solve
assert output == other_output``) or after the class (``AssertionError: assert x is
not None``, pytest's rewrite). No pattern can match that text: the record of a bare
assert has no message. Its slug, though, is the statement's own (the miner names a
bare raise after its source line, :func:`errcat.slugs.slugify`), so a report
whose text ends with ``assert <condition>`` is read as that statement, and the records
with its slug and no message are the answer. The condition must name something of its
own (``assert x`` alone is too common to tell), and when several files hold the very
statement the paste's engine picks among them, the others listed as alternatives.

>>> from errcat.catalog import Catalog
>>> from errcat.matcher import match_error
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> bare = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record.model_copy(
...     update={
...         "error_class": "AssertionError",
...         "error_message": "",
...         "message_pattern": "",
...         "slug": "assert-zqpool-zqowner-is-not-none",
...     }
... )
>>> found = match_error("[Bug] crash: assert zqpool.zqowner is not None", catalog=Catalog([bare]))
>>> found.record.slug, found.confidence
('assert-zqpool-zqowner-is-not-none', 0.6)
>>> match_error("assert zqpool.zqowner is None", catalog=Catalog([bare])) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from errcat.engine import detect
from errcat.matcher.context import ReportContext
from errcat.matcher.result import Match
from errcat.slugs import slugify

if TYPE_CHECKING:
    from errcat.catalog import Catalog
    from errcat.store import RecordSummary

__all__ = ["STATEMENT_CONFIDENCE", "quoted_statements", "statement_answer"]

#: The confidence of such an answer: set, not fitted. Above the threshold, since the
#: statement is the record's own text, but under a frame's, since no frame shows the
#: file (the same statement may stand in a fork or a copy).
STATEMENT_CONFIDENCE = 0.6
#: ``assert`` as a word, then its condition up to the end of the line.
_ASSERT = re.compile(r"(?<![\w.])assert\s+(?P<cond>[^\n]+)")
#: What a writer puts around a quoted statement: quotes, backticks, a closing period.
_WRAP = "`'\"*.,;:!? \t"
#: Words of a condition that name nothing of their own.
_NOISE = frozenset({"is", "not", "none", "in", "and", "or", "true", "false", "self", "len"})
#: The shortest condition (its words, noise aside) that tells a statement apart.
_MIN_OWN_CHARS = 8
#: The repository of each engine :func:`errcat.engine.detect` names.
_REPOS = {"sglang": "sgl-project/sglang", "vllm": "vllm-project/vllm"}


def quoted_statements(message: str) -> Iterator[str]:
    """The ``assert`` statements a message quotes, as source would spell them, last first.

    >>> list(quoted_statements("AssertionError: assert `zqa.zqb == zqc`."))
    ['assert zqa.zqb == zqc']
    >>> list(quoted_statements("how to fix assert zqn"))  # names too little
    []
    >>> list(quoted_statements("zqassert x == y"))
    []
    """
    found = [m.group("cond").strip(_WRAP) for m in _ASSERT.finditer(message)]
    for condition in reversed(found):
        own = [w for w in re.findall(r"[A-Za-z_]\w*", condition) if w.lower() not in _NOISE]
        if sum(len(w) for w in own) >= _MIN_OWN_CHARS:
            yield f"assert {condition}"


def _bare(summary: RecordSummary) -> bool:
    return not summary.error_message and summary.error_class == "AssertionError"


def statement_answer(
    contexts: Sequence[ReportContext], catalog: Catalog, text: str
) -> Match | None:
    """The bare-assert record of the statement the first frameless report quotes.

    Only reports without frames are read (a frame shows the statement itself, which
    the site evidence weighs) and only an ``AssertionError`` or a report of no class.
    """
    for ctx in contexts:
        report = ctx.report
        if report.frames or report.error_class not in (None, "AssertionError"):
            continue
        for statement in quoted_statements(report.message):
            found = _records(catalog, slugify(statement))
            if found:
                return _answer(catalog, found, ctx, text, statement)
    return None


def _records(catalog: Catalog, slug: str) -> list[tuple[int, int]]:
    """(part, position) of the visible bare-assert records with ``slug``, later parts first."""
    found: list[tuple[int, int]] = []
    for part in range(len(catalog.parts) - 1, -1, -1):
        store = catalog.parts[part]
        for position in store.with_slug(slug):
            summary = store.summary(position)
            if _bare(summary) and not catalog.hidden(part, summary.id):
                found.append((part, position))
    return found


def _answer(
    catalog: Catalog,
    found: Sequence[tuple[int, int]],
    ctx: ReportContext,
    text: str,
    statement: str,
) -> Match:
    """The record of the paste's engine first (else the first found), the others as alternatives."""
    repo = _REPOS.get(detect(text).engine or "")
    summaries = {at: catalog.parts[at[0]].summary(at[1]) for at in found}
    ordered = sorted(found, key=lambda at: summaries[at].repo != repo)
    part, position = ordered[0]
    others = tuple(summaries[at] for at in ordered[1:])
    files = len({summaries[at].file_path for at in ordered})
    reasons = (
        f"the text quotes the statement `{statement[:80]}`, an assert raised without a message",
        "no frame shows where it was raised"
        + (f"; {files} files hold this statement" if files > 1 else ""),
    )
    whole = ctx.message.strip(_WRAP).removeprefix("AssertionError:").strip(_WRAP) == statement
    answer = Match.named(
        catalog.parts[part],
        position,
        ctx.report,
        confidence=STATEMENT_CONFIDENCE,
        whole=whole,
        reasons=reasons,
    )
    return replace(answer, alternatives=others)
