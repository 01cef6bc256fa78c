"""The ``shadowing`` rule: a record's own message finds it first in the whole catalog."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from errcat.lint.findings import Finding, Level, LintItem, declare
from errcat.lint.records import curation_level
from errcat.lint.regex_risks import quoted
from errcat.models import ErrorRecord
from errcat.patterns import is_wordless
from errcat.tags import FUNCTION_TAG_PREFIX, tag_values
from errcat.whole_message import whole_message_only

if TYPE_CHECKING:
    from errcat.catalog import Catalog
    from errcat.matcher import Match

__all__ = ["shadowing_findings"]


def _traceback_text(record: ErrorRecord, message: str) -> str:
    """A one-frame traceback raised at the record's site (what a real paste would show).

    The frame is in the function the record's ``errcat:in:`` tag names (a family
    record's raise site is a function of its scope, not a line: see
    :mod:`errcat.matcher.family`), else in ``f``.
    """
    function = next(iter(tag_values(record.tags, FUNCTION_TAG_PREFIX)), "f")
    return (
        "Traceback (most recent call last):\n"
        f'  File "/src/{record.repo}/{record.file_path}", line {record.line_number}, '
        f"in {function}\n"
        f"{record.error_class}: {message}\n"
    )


def shadowing_findings(
    items: Sequence[LintItem], samples: dict[str, str], progress: Callable[[], None] | None
) -> list[Finding]:
    """Findings for records that another record's pattern ranks at or above on their own message."""
    from errcat.catalog import Catalog

    catalog = Catalog([item.record for item in items])
    limit = max(1, len(catalog))
    by_id = {item.record.id: item for item in items}
    pairs: dict[frozenset[str], Finding] = {}
    found: list[Finding] = []
    for item in items:
        if progress is not None:
            progress()
        record = item.record
        sample = samples.get(record.id)
        if sample is None or by_id.get(record.id) is not item:
            continue  # no sample matches its own pattern (self-match says so), or a duplicate id
        if is_wordless(record.message_pattern):
            continue  # no text finds it: only a frame at its raise line (by design)
        bare = f"{record.error_class}: {sample}"
        matches = _flat(_at_least_own(bare, record.id, catalog, limit))
        own = next((m for m in matches if m[0] == record.id), None)
        if own is None:
            found.append(
                Finding(
                    "shadowing",
                    "error",
                    f"its own message {quoted(bare)} does not find it",
                    item.path,
                    item.line,
                    record.id,
                )
            )
            continue
        rivals = [
            m
            for m in matches
            if m[0] != record.id
            and m[1] >= own[1]
            and not _wordless_other_class(by_id[m[0]], record)
        ]
        if not rivals:
            continue
        framed = _flat(_at_least_own(_traceback_text(record, sample), record.id, catalog, limit))
        framed_own = next((m for m in framed if m[0] == record.id), None)
        for rival in rivals:
            other = by_id[rival[0]].record
            framed_rival = next((m for m in framed if m[0] == other.id), None)
            relation = "ranks above it" if rival[1] > own[1] else "ties with it"
            told_apart = (
                bool(framed)
                and framed[0][0] == record.id
                and framed_own is not None
                and (framed_rival is None or framed_rival[1] < framed_own[1])
            )
            level: Level
            if told_apart:
                verdict = "distinguishable by traceback frames"
                level = "warning"
            else:
                level = curation_level(item, by_id[other.id])
                if other.file_path == record.file_path and other.repo == record.repo:
                    verdict = "not distinguishable: raised a few lines apart in the same file"
                else:
                    verdict = "not distinguishable even with a traceback frame at its raise site"
            finding = Finding(
                "shadowing",
                level,
                f"collides with {other.id} ({other.location}): {relation} for "
                f"{quoted(bare)} ({rival[1]:.3f} vs {own[1]:.3f}); {verdict}",
                item.path,
                item.line,
                record.id,
            )
            pair = frozenset({record.id, other.id})
            # Each pair once, from the side where it is worse.
            if pair not in pairs or _LEVEL_ORDER[level] < _LEVEL_ORDER[pairs[pair].level]:
                pairs[pair] = finding
    return found + list(pairs.values())


_LEVEL_ORDER: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


def _wordless_other_class(rival: LintItem, record: ErrorRecord) -> bool:
    r"""Whether a rival is all placeholder and its class is not the record's.

    Such a rival (a family record's ``'(\w+)'``: a ``KeyError``'s quoted key,
    :func:`errcat.whole_message.whole_message_only`) matches only a message that is
    all its shape (a quoted word), and ties with it at the floor; the matcher
    answers it only with a frame in its scope and its own class (a report of
    another class stays under the threshold), so it shadows no record of another class.
    """
    other = rival.record
    if other.error_class == record.error_class:
        return False
    return whole_message_only(other.message_pattern)


def _at_least_own(
    text: str, record_id: str, catalog: Catalog, limit: int, first: int = 8
) -> list[Match]:
    """``match_all(text)`` down to the record's own match and every tie with it.

    The same answer as asking for all ``limit`` matches, but the matcher's
    pruning stays effective: start with a few and ask for more only while the
    last one returned could still be at or above the record's own confidence.
    """
    from errcat.matcher import match_all

    wanted = first
    while True:
        matches = match_all(text, catalog=catalog, limit=min(wanted, limit))
        if len(matches) < min(wanted, limit) or wanted >= limit:
            return matches
        own = next((m.confidence for m in matches if _holds(m, record_id)), None)
        if own is not None and matches[-1].confidence < own:
            return matches
        wanted *= 8


def _holds(match: Match, record_id: str) -> bool:
    """True when the match is the record or folds it among its alternatives."""
    return match.summary.id == record_id or any(a.id == record_id for a in match.alternatives)


def _flat(matches: Sequence[Match]) -> list[tuple[str, float]]:
    """(record id, confidence) of every match and of each match's alternatives, in order.

    A match folds the records that raise the same message with the same
    evidence (:attr:`errcat.matcher.Match.alternatives`): each is a tie.
    """
    out: list[tuple[str, float]] = []
    for m in matches:
        out.append((m.summary.id, m.confidence))
        out.extend((a.id, m.confidence) for a in m.alternatives)
    return out


declare(
    "shadowing",
    "warning",
    "a record's own message finds it first in the whole catalog"
    " (not a pattern without words: only a frame at its raise line finds it)",
)
