r"""Findings and the rule registry: what a lint reports, and every rule it can report.

A rule that reads one record at a time is a small function registered with
:func:`rule`; it returns ``None`` (nothing to say), a message (at the rule's
level) or a message and a level. Rules checked elsewhere (the schema, the
release's manifest) are only :func:`declare`\ d, so that :data:`RULES` lists
every rule a report can name.

>>> RULES["slug"][0]
'error'
>>> print(Finding("slug", "error", "bad slug", "cat.jsonl", 3, "0123456789abcdef"))
cat.jsonl:3: error[slug] 0123456789abcdef: bad slug
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar

import regex

from errcat.errors import InvalidRecordError

if TYPE_CHECKING:
    from errcat.models import ErrorRecord

__all__ = [
    "RECORD_CHECKS",
    "RULES",
    "Finding",
    "Level",
    "LintItem",
    "RecordCheck",
    "Verdict",
    "declare",
    "problem_finding",
    "record_findings",
    "rule",
]

Level = Literal["error", "warning", "info"]

#: Every rule: its name, the level of its usual finding, and what it checks.
RULES: dict[str, tuple[Level, str]] = {}

#: What a record rule says about one record: nothing, a message, or a message and a level.
Verdict: TypeAlias = "str | tuple[str, Level] | None"
#: A rule that reads one record (and the release settings it came with).
RecordCheck: TypeAlias = "Callable[[LintItem], Verdict]"
#: The registered record rules, by name, in the order they were registered.
RECORD_CHECKS: dict[str, RecordCheck] = {}

_Check = TypeVar("_Check", bound="Callable[[LintItem], Verdict]")

_GOT = regex.compile(r" \(got \{.*?\)(?= \(\+|$)")


def declare(name: str, level: Level, description: str) -> None:
    """Name a rule, the level of its usual finding and what it checks (see :data:`RULES`)."""
    if name in RULES:
        raise ValueError(f"lint rule {name!r} is declared twice")
    RULES[name] = (level, description)


def rule(name: str, level: Level, description: str) -> Callable[[_Check], _Check]:
    """Register a function as the record rule ``name`` (a decorator).

    >>> @rule("doc-example", "info", "an example rule")
    ... def _doc_example(item: LintItem) -> Verdict:
    ...     return None
    >>> "doc-example" in RECORD_CHECKS
    True
    >>> del RULES["doc-example"], RECORD_CHECKS["doc-example"]
    """
    declare(name, level, description)

    def register(check: _Check) -> _Check:
        RECORD_CHECKS[name] = check
        return check

    return register


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found by a release check, with where it is and why."""

    rule: str
    level: Level
    message: str
    path: str | None = None
    line: int | None = None
    record_id: str | None = None

    def __post_init__(self) -> None:
        # A finding is one line of a report, whatever the text it quotes.
        if "\n" in self.message or "\r" in self.message:
            flat = self.message.replace("\r", "\\r").replace("\n", "\\n")
            object.__setattr__(self, "message", flat)

    def __str__(self) -> str:
        """``path:line: level[rule] id: message``, like a compiler diagnostic."""
        where = self.path or "<catalog>"
        if self.line is not None:
            where += f":{self.line}"
        who = f" {self.record_id}" if self.record_id else ""
        return f"{where}: {self.level}[{self.rule}]{who}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (camelCase keys)."""
        return {
            "path": self.path,
            "line": self.line,
            "recordId": self.record_id,
            "rule": self.rule,
            "level": self.level,
            "message": self.message,
        }

    @property
    def sort_key(self) -> tuple[str, int, str, str, str]:
        """Order of findings in a report: by file, line, rule, record and message."""
        return (self.path or "", self.line or 0, self.rule, self.record_id or "", self.message)


@dataclass(frozen=True, slots=True)
class LintItem:
    """A record to lint and where it was read; ``drafts_allowed`` comes from its release."""

    record: ErrorRecord
    path: str | None = None
    line: int | None = None
    drafts_allowed: bool = False


def record_findings(item: LintItem) -> list[Finding]:
    """The findings of every registered record rule for one record."""
    found = []
    for name, check in RECORD_CHECKS.items():
        verdict = check(item)
        if verdict is None:
            continue
        message, level = verdict if isinstance(verdict, tuple) else (verdict, RULES[name][0])
        found.append(Finding(name, level, message, item.path, item.line, item.record.id))
    return found


def problem_finding(problem: InvalidRecordError) -> Finding:
    """Turn a load problem (invalid JSON or schema) into a finding, naming the rule it breaks.

    >>> problem = InvalidRecordError("unknown field", path="a.jsonl", line=2, field="record.x")
    >>> print(problem_finding(problem))
    a.jsonl:2: error[schema]: record.x: unknown field
    """
    reason = problem.reason.removeprefix("Value error, ")
    rule = "schema"
    if "does not compile with regex" in reason:
        rule = "pattern-compiles"
    elif "is outside [" in reason or ("sourceCodeStart" in reason and "is after" in reason):
        rule = "line-in-span"
        reason = _GOT.sub("", reason)  # the whole record, cut: not worth a line
    message = f"{problem.field}: {reason}" if problem.field else reason
    return Finding(rule, "error", message, problem.path, problem.line, problem.record_id)


declare("schema", "error", "strict schemaVersion 2: JSON, field names and types, schema version")
declare("unique-id", "error", "no two records share an id")
declare("withdrawn", "error", "a record of the previous release is present or listed as withdrawn")
declare("manifest", "error", "the manifest and release configuration are well formed and current")
