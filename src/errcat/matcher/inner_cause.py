"""A wrapper's message that holds the error it wraps: the inner error answers.

A wrapper record (tagged :data:`~errcat.tags.WRAPPER_TAG`: torch's ``NCCL watchdog
thread terminated with exception: {what}``, an engine's ``Capture cuda graph failed:
{e}``) says that some error happened, and prints it in its placeholder. The error
inside is what a user needs explained. :func:`errcat.matcher.collect._unwrap`
matches the text the wrapper's placeholders captured on its own; two forms escape it:

* the line holds both, and the inner error's record matched the same line
  confidently, but the captured text read alone does not (a message many projects
  print reads as a generic shape without its surroundings): the inner record
  answers when its own literal text lies inside the wrapper's capture;
* the wrapped error goes on over lines of its own (CUDA's ``CUDA kernel errors
  might be asynchronously reported ...`` lines after ``CUDA error: unknown
  error``): a capture is whitespace-folded, so those lines run into one long
  sentence no record prints; the message after the wrapper's opening words, its
  lines kept, is matched instead.

Either way the wrapper's match is kept in :attr:`Match.related`.

>>> inside("CUDA error: {err}", ("CUDA error: an illegal memory access was encountered",))
True
>>> inside("CUDA error: {err}", ("zqa zqb",)), inside("{e}", ("CUDA error: zqa",))
(False, False)
"""

from __future__ import annotations

import re
from dataclasses import replace

from errcat.extract import extract_reports
from errcat.matcher.collect import _collect, _Collector
from errcat.matcher.context import Lean, no_lean
from errcat.matcher.result import Match
from errcat.tags import FAMILY_TAG, WRAPPER_TAG
from errcat.text import fold_whitespace

__all__ = ["MIN_LITERAL", "inner_cause", "inside"]

#: The literal text a record needs inside the capture to be the error captured: a
#: few characters (``Error: ``) are in any message.
MIN_LITERAL = 8
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def inside(template: str, captures: tuple[str | None, ...]) -> bool:
    """Whether a record's longest literal run (of :data:`MIN_LITERAL` or more) is in a capture.

    >>> inside("Zqa zqb zqc: {x}", ("then  zqa ZQB zqc: 3",))
    True
    """
    pieces = [fold_whitespace(p).lower() for p in _PLACEHOLDER.split(template)]
    longest = max(pieces, key=len, default="")
    if len(longest) < MIN_LITERAL:
        return False
    return any(c is not None and longest in fold_whitespace(c).lower() for c in captures)


def _wrapper(match: Match) -> bool:
    return WRAPPER_TAG in match.summary.tags


def _beside(answer: Match, collector: _Collector) -> Match | None:
    """A confident record of the wrapper's own report whose literal text the capture holds."""
    for ctx in collector.contexts:
        if ctx.report is not answer.report:
            continue
        for m in collector.ranked_matches(ctx.order):
            if (
                m.confident
                and m.exact
                and not _wrapper(m)
                and FAMILY_TAG not in m.summary.tags
                and inside(m.summary.error_message, answer.captures)
            ):
                return m
    return None


def _after_lead(answer: Match, collector: _Collector, lean: Lean) -> Match | None:
    """The record of the message after the wrapper's opening words, its lines kept."""
    lead = answer.summary.error_message.split("{", 1)[0].strip()
    message = answer.report.message
    at = message.find(lead) if len(lead) >= MIN_LITERAL else -1
    if at < 0:
        return None
    rest = message[at + len(lead) :].strip()
    if "\n" not in rest:
        return None  # one line: what _unwrap already read
    found = _collect(
        extract_reports(rest),
        collector.catalog,
        1,
        confident_only=True,
        lean=lean,
        paste=collector.paste or rest,
    )
    inner = found.answer()
    return inner if inner is not None and not _wrapper(inner) else None


def inner_cause(answer: Match | None, collector: _Collector, lean: Lean = no_lean) -> Match | None:
    """The answer, or the error a wrapper's answer holds when a record explains it.

    See the module's docstring; an answer that is no wrapper's is returned as it is.
    """
    if answer is None or not _wrapper(answer):
        return answer
    inner = _beside(answer, collector) or _after_lead(answer, collector, lean)
    if inner is None:
        return answer
    return replace(inner, related=(answer, *answer.related))
