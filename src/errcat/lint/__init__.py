r"""Lint catalog records: the quality gate a data release must pass.

Each rule looks at records (already validated against schemaVersion 2) and
reports :class:`Finding` objects with the file, line and record id they concern,
a rule name, a level and a one-line reason. ``error`` findings block a release;
``warning`` findings are shown but do not; ``info`` findings are counted.

Levels of the pattern and shadowing rules. Constructs the miner never writes
(nested quantifiers, backreferences, lookarounds) are errors. Two unbounded
groups with only whitespace or optional text between them are a warning: the
values split ambiguously, and on long values matching is quadratic. A pattern
that does not finish one match of a 1 MB adversarial input within
:data:`SPEED_TIMEOUT`, or two records that even a traceback frame at the raise
site cannot tell apart, are errors, except in a draft of a release that allows
drafts, where they are warnings: the miner writes every placeholder as
``(.+?)`` and cannot know that a value is a number; narrowing the group (or
merging the two sites) is part of curating the draft, and the matcher's time
limit bounds the cost until then.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
>>> lint_records([LintItem(record, "cat.jsonl", 1)])
[]
>>> bad = record.model_copy(update={"slug": "Bad Slug"})
>>> for finding in lint_records([LintItem(bad, "cat.jsonl", 1)]):
...     print(finding)
cat.jsonl:1: error[slug] 0123456789abcdef: slug 'Bad Slug' is not lowercase words and hyphens

The pattern rules read ``messagePattern`` structurally and also time it:

>>> [risk.kind for risk in pattern_risks(r"(\w+\s?)+$")]
['nested-quantifier']
>>> [risk.kind for risk in pattern_risks(r"at most (.+?) (.+?) headers")]
['adjacent-quantifiers']
>>> pattern_risks(r"bad value (.+?) for (.+?)\.")
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from errcat.lint.findings import (
    RULES,
    Finding,
    Level,
    LintItem,
    problem_finding,
    record_findings,
)
from errcat.lint.records import (
    expected_github_url,
    is_draft,
    is_generated,
    source_line_count,
)
from errcat.lint.regex_risks import PatternRisk, pattern_risks
from errcat.lint.self_match import pattern_findings, sample_messages
from errcat.lint.shadowing import shadowing_findings
from errcat.lint.speed import (
    ADVERSARIAL_SIZE,
    SPEED_TIMEOUT,
    adversarial_inputs,
    measure_pattern,
    speed_findings,
)

__all__ = [
    "ADVERSARIAL_SIZE",
    "RULES",
    "SPEED_TIMEOUT",
    "Finding",
    "Level",
    "LintItem",
    "PatternRisk",
    "adversarial_inputs",
    "expected_github_url",
    "is_draft",
    "is_generated",
    "lint_records",
    "measure_pattern",
    "pattern_risks",
    "problem_finding",
    "sample_messages",
    "source_line_count",
]


def lint_records(
    items: Sequence[LintItem],
    *,
    shadowing: bool = True,
    speed: bool = True,
    thorough: bool = False,
    progress: Callable[[], None] | None = None,
) -> list[Finding]:
    """Run every record rule on ``items`` and return the findings, sorted.

    ``shadowing`` matches each record's rendered message against the whole set;
    ``speed`` times each distinct pattern on adversarial inputs (screened at
    64 KB; ``thorough`` runs all of them at 1 MB). ``progress`` is called once
    per record and step, for a progress display.
    """
    found: list[Finding] = []
    samples: dict[str, str] = {}
    first_seen: dict[str, LintItem] = {}
    for item in items:
        record = item.record
        earlier = first_seen.get(record.id)
        if earlier is not None:
            found.append(
                Finding(
                    "unique-id",
                    "error",
                    f"id {record.id} is also used at {earlier.path}:{earlier.line}",
                    item.path,
                    item.line,
                    record.id,
                )
            )
            continue
        first_seen[record.id] = item
        found.extend(record_findings(item))
        sample = pattern_findings(item.record, _reporter(item, found))
        if sample is not None:
            samples[record.id] = sample
    if speed:
        found.extend(speed_findings(first_seen.values(), thorough=thorough, progress=progress))
    if shadowing:
        found.extend(shadowing_findings(list(first_seen.values()), samples, progress))
    return sorted(found, key=lambda f: f.sort_key)


def _reporter(item: LintItem, found: list[Finding]) -> Callable[..., None]:
    """``add(rule, message, level="error")`` appending a finding about ``item`` to ``found``."""

    def add(rule: str, message: str, level: Level = "error") -> None:
        found.append(Finding(rule, level, message, item.path, item.line, item.record.id))

    return add
