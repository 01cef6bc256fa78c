"""What to do about an error: a record's solutions, example fix and tips, rendered.

:class:`Advice` is built from a record (and, when it came from a match, the
captured values and confidence) and renders as plain text for a terminal,
Markdown for a chat or an issue comment, or JSON.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
>>> advice = Advice.from_record(record)
>>> advice.solutions
('Pass a good x',)
>>> print(advice.to_text().splitlines()[0])
ValueError: bad value {x!r}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errcat.matcher import Match
    from errcat.models import ErrorRecord

__all__ = ["Advice"]


def _fence(code: str, lang: str = "") -> str:
    """A Markdown code fence long enough not to be closed by backticks inside ``code``."""
    longest = 0
    run = 0
    for char in code:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{lang}\n{code.rstrip()}\n{ticks}"


def _guess_lang(code: str) -> str:
    stripped = code.lstrip()
    if stripped.startswith(("python ", "pip ", "--", "$ ")) or "\n--" in code:
        return "bash"
    if stripped.startswith("#") and ("python -m" in code or "\n--" in code):
        return "bash"
    return "python"


@dataclass(frozen=True)
class Advice:
    """The actionable part of a record, optionally tied to the values of one occurrence."""

    record: ErrorRecord
    params: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    confidence: float | None = None
    exact: bool | None = None

    @classmethod
    def from_record(cls, record: ErrorRecord) -> Advice:
        """Advice for a record looked up directly (no captured values)."""
        return cls(record)

    @classmethod
    def from_match(cls, match: Match) -> Advice:
        """Advice for a match, carrying its captured values and confidence."""
        return cls(match.record, match.params, match.confidence, match.exact)

    @property
    def summary(self) -> str:
        """The one-line summary: exception class and message template."""
        return self.record.title

    @property
    def solutions(self) -> tuple[str, ...]:
        """The ways to fix the error, best first."""
        return self.record.solutions

    @property
    def example_fix(self) -> str:
        """A before/after example of the fix ("" when the record has none)."""
        return self.record.example_fix

    @property
    def prevention_tips(self) -> tuple[str, ...]:
        """How to keep the error from happening again."""
        return self.record.prevention_tips

    @property
    def documentation(self) -> str:
        """Why the error is raised."""
        return self.record.documentation

    @property
    def source_url(self) -> str:
        """Link to the raising code at the analysed commit."""
        return self.record.github_url

    @property
    def location(self) -> str:
        """Where the error is raised: ``repo path:line``."""
        r = self.record
        return f"{r.repo} {r.file_path}:{r.line_number}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the advice."""
        return {
            "id": self.record.id,
            "slug": self.record.slug,
            "summary": self.summary,
            "repo": self.record.repo,
            "filePath": self.record.file_path,
            "lineNumber": self.record.line_number,
            "sourceUrl": self.source_url,
            "confidence": self.confidence,
            "exact": self.exact,
            "params": dict(self.params),
            "documentation": self.documentation,
            "solutions": list(self.solutions),
            "exampleFix": self.example_fix,
            "preventionTips": list(self.prevention_tips),
            "tags": list(self.record.tags),
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """The advice as a JSON document."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def to_text(self) -> str:
        """Plain text for a terminal: title, where, captured values, solutions, example fix."""
        r = self.record
        lines = [
            self.summary,
            f"  record {r.id} ({r.slug})",
            f"  raised at {self.location}",
            f"  {self.source_url}",
        ]
        if self.confidence is not None:
            kind = "exact match" if self.exact else "inexact match"
            lines.append(f"  {kind}, confidence {self.confidence:.2f}")
        if self.params:
            lines.append("")
            lines.append("Captured values:")
            lines.extend(f"  {name} = {value}" for name, value in self.params.items())
        if r.documentation:
            lines += ["", "Why:", *(f"  {line}" for line in r.documentation.splitlines())]
        if self.solutions:
            lines += ["", "Solutions:"]
            lines.extend(f"  {n}. {s}" for n, s in enumerate(self.solutions, start=1))
        if self.example_fix:
            lines += ["", "Example fix:"]
            lines.extend(f"    {line}" for line in self.example_fix.splitlines())
        if self.prevention_tips:
            lines += ["", "Prevention:"]
            lines.extend(f"  - {tip}" for tip in self.prevention_tips)
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """Markdown for a chat message or issue comment."""
        r = self.record
        parts = [
            f"**`{r.error_class}`**: {r.error_message}",
            f"Raised in [`{r.file_path}:{r.line_number}`]({self.source_url}) ({r.repo})",
        ]
        if self.params:
            parts.append(
                "Captured values:\n"
                + "\n".join(f"- `{name}` = `{value}`" for name, value in self.params.items())
            )
        if r.documentation:
            parts.append(r.documentation)
        if self.solutions:
            parts.append(
                "**Solutions**\n"
                + "\n".join(f"{n}. {s}" for n, s in enumerate(self.solutions, start=1))
            )
        if self.example_fix:
            parts.append(
                "**Example fix**\n" + _fence(self.example_fix, _guess_lang(self.example_fix))
            )
        if self.prevention_tips:
            parts.append("**Prevention**\n" + "\n".join(f"- {t}" for t in self.prevention_tips))
        return "\n\n".join(parts)
