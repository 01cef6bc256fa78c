"""Ranking a report's matches: a match that explains more ranks higher; ties are folded."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace

from errcat.confidence import THRESHOLD
from errcat.extract import ExceptionReport
from errcat.matcher.result import Match, _Coverage
from errcat.store import RecordSummary


def _chain_order(reports: Sequence[ExceptionReport]) -> list[int]:
    """Report positions in the order they may answer: the one that ended the text first.

    Reports found inside another's message share its span and follow it; a
    chain comes root cause first. So the last top-level report goes first,
    then what its message holds (innermost last), then the earlier reports,
    nearest first.
    """
    groups: list[list[int]] = []
    for position, report in enumerate(reports):
        if groups:
            head = reports[groups[-1][0]]
            if (report.start, report.end) == (head.start, head.end):
                groups[-1].append(position)
                continue
        groups.append([position])
    order: list[int] = []
    for group in reversed(groups):
        order.append(group[0])
        order.extend(reversed(group[1:]))
    return order


#: What decides whether one match explains more than another (see _explains_more):
#: coverage, whether the mode is exact, frame gain, closeness, pattern literal length.
#: (Not the engine the paste comes from: a pattern that explains more of the message
#: says more than whose code printed it.)
_Dominance = tuple[_Coverage, bool, float, float, float]


def _dominance(m: Match) -> _Dominance | None:
    if m._coverage is None:
        return None
    exact = m.mode in ("full", "prefix", "inner")
    return (m._coverage, exact, m._rank[1], m._rank[2], m._rank[3])


def _explains_more(better: _Dominance, other: _Dominance) -> bool:
    """Whether a match explains all the text another explains, and more, on no less evidence.

    That is: an exact match whose span covers the other's (in the same message,
    or in a longer form of it: with its tags, or with the paragraphs that
    followed it), with more literal text, and whose class and frames agree at
    least as well. Two patterns that both match ``could not load the model
    weights from /m/x.bin`` are ``could not load {what}`` and ``could not load
    the model weights from {path}``: the second says everything the first says.
    """
    a, exact, gain, closeness, literal = better
    b, _, other_gain, other_closeness, other_literal = other
    if not exact or a.literal <= b.literal or literal <= other_literal:
        return False
    if a.agreement < b.agreement or gain < other_gain or closeness < other_closeness:
        return False
    offset = 0 if a.text == b.text else a.text.find(b.text)
    return offset >= 0 and a.start <= b.start + offset and a.end >= b.end + offset


def _lift_dominant(held: list[Match]) -> list[Match]:
    """Rank each match at least as high as the matches it explains more than.

    The confidence model scores each pattern on its own; a pattern that explains
    a superset of what another explains may still score a little lower (its
    longer captures count against it). It ranks above that other match (its
    confidence is kept), unless that would put an unconfident match above a
    confident one. Records of one pattern hit share their evidence, so each
    distinct evidence is compared once.
    """
    literals = {m._coverage.literal for m in held if m._coverage is not None}
    if len(literals) < 2:
        return held
    by_literal = sorted(held, key=lambda m: m._coverage.literal if m._coverage else -1)
    # The highest (lifted) rank seen for each distinct evidence, lower literal first.
    seen: dict[_Dominance, float] = {}
    out: list[Match] = []
    for m in by_literal:
        key = _dominance(m)
        best = m._rank[0]
        if key is not None:
            for other, lifted in seen.items():
                if lifted <= best or (lifted >= THRESHOLD and not m.confident):
                    continue
                if _explains_more(key, other):
                    best = lifted
            seen[key] = max(best, seen.get(key, best))
        out.append(m if best == m._rank[0] else replace(m, _rank=(best, *m._rank[1:])))
    return out


#: What may stand between a phrase and the error it reports: ``Internal server error:
#: Unimplemented model type: x`` (a colon, maybe a dash or spaces).
_REPORTS = re.compile(r"\s*[:\u2013\u2014-]\s*")


def _reported(phrase: _Coverage, inner: _Coverage) -> bool:
    """Whether ``inner`` matched the error text that follows ``phrase`` after a colon.

    The two may have matched different forms of one message (one recased): the
    forms are aligned without case, as :func:`_explains_more` aligns a form and
    a longer one.
    """
    a, b = phrase.text.casefold(), inner.text.casefold()
    offset = a.find(b)
    if offset < 0:
        shift = b.find(a)
        if shift < 0:
            return False
        offset = -shift
    start = inner.start + offset
    if start < phrase.end:
        return False
    between = a[phrase.end : start]
    return bool(_REPORTS.fullmatch(between)) and ":" in between


def _lift_reported(held: list[Match]) -> list[Match]:
    """Rank the error a fixed phrase reports above the phrase (its confidence is kept).

    ``Internal server error: Unimplemented model type: qwen2_5_vl_text``: a record
    whose template has no placeholder (``Internal server error``) matches the start
    and leaves the rest unexplained (mode ``prefix``), but its raise prints that
    phrase alone: whoever printed ``: <error>`` after it was reporting another error,
    and the record that matches that error to the message's end (mode ``inner``, or
    ``full`` on the form that reads past the phrase as a title's lead) is it. Not
    when that would put an unconfident match above a confident one, nor above a
    phrase the class agrees with better.
    """
    phrases = [
        (m, m._coverage)
        for m in held
        if m.mode == "prefix" and m._coverage is not None and "{" not in m.summary.error_message
    ]
    if not phrases:
        return held
    out: list[Match] = []
    for m in held:
        best = m._rank[0]
        if m.mode in ("inner", "full") and m._coverage is not None:
            for p, covered in phrases:
                if (
                    p.report is m.report
                    and p._rank[0] >= best
                    and (m.confident or not p.confident)
                    and m._coverage.agreement >= covered.agreement
                    and _reported(covered, m._coverage)
                ):
                    best = math.nextafter(p._rank[0], math.inf)
        out.append(m if best == m._rank[0] else replace(m, _rank=(best, *m._rank[1:])))
    return out


def _fold_ties(ranked: Sequence[Match]) -> list[Match]:
    """Fold records that raise the same message with the same evidence into one match.

    A bare message raised at three sites fits each equally: the answer is the
    first, with the others as :attr:`Match.alternatives`.
    """
    out: list[Match] = []
    groups: dict[tuple[object, ...], int] = {}
    extra: dict[int, list[RecordSummary]] = {}
    for m in ranked:
        # evidence: confidence, frame gain, closeness; and the engine the paste comes from
        key = (m.summary.error_message, m.mode, m.captures, m._rank[:3], m._rank[4], id(m.report))
        at = groups.get(key)
        if at is None:
            groups[key] = len(out)
            out.append(m)
        else:
            extra.setdefault(at, []).append(m.summary)
    for at, more in extra.items():
        out[at] = replace(out[at], alternatives=tuple(more))
    return out
