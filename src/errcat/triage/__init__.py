r"""Issue triage: find every error in a GitHub issue and answer it in one comment.

:func:`triage` reads an issue (an Actions event payload, an API object, or
Markdown), finds each distinct error in its title and body (fenced and
unfenced, in ``<details>``, quoted with ``>``), matches them, and writes one
reply in GitHub Markdown that starts with a hidden marker
(:data:`~errcat.triage.reply.MARKER`), so that a bot edits its comment when
the issue changes instead of adding one. ``errcat triage`` is the command and
``action.yml`` at the repository's root the GitHub Action.

>>> import json
>>> from errcat.catalog import Catalog
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> catalog = Catalog([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])
>>> body = "Steps:\n\n```\nTraceback (most recent call last):\nValueError: bad value 'x'\n```"
>>> result = triage('{"title": "crash on start", "body": %s}' % json.dumps(body), catalog=catalog)
>>> [(e.record_id, e.places[0].describe()) for e in result.findings.errors]
[('0123456789abcdef', 'code block 1 (lines 4-5)')]
>>> result.reply.splitlines()[0]
'<!-- errcat-triage -->'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from errcat.triage.find import Findings, FoundError, Place, find_errors
from errcat.triage.issue import Issue, IssueFormatError, read_issue
from errcat.triage.markdown import Block, blocks
from errcat.triage.reply import MARKER, render_reply

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = [
    "MARKER",
    "Block",
    "Findings",
    "FoundError",
    "Issue",
    "IssueFormatError",
    "Place",
    "Triage",
    "blocks",
    "find_errors",
    "read_issue",
    "render_reply",
    "triage",
]


@dataclass(frozen=True)
class Triage:
    """An issue, the errors found in it, and the reply."""

    issue: Issue
    findings: Findings
    reply: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: the issue, each error with its answer and places, the reply."""
        return {
            "issue": {
                "number": self.issue.number,
                "url": self.issue.url,
                "repo": self.issue.repo,
                "title": self.issue.title,
            },
            "errors": [
                {
                    "recordId": e.record_id,
                    "errorClass": e.error_class,
                    "message": e.message,
                    "confidence": round(e.match.confidence, 4) if e.match else None,
                    "exact": e.match.exact if e.match else None,
                    "places": [p.describe() for p in e.places],
                    "hints": [h.summary.id for h in e.hints],
                }
                for e in self.findings.errors
            ],
            "cutTracebacks": [p.describe() for p in self.findings.cut_tracebacks],
            "reply": self.reply,
        }


def triage(
    text: str, *, title: str = "", source: str = "<stdin>", catalog: Catalog | None = None
) -> Triage:
    """Read an issue from ``text`` (JSON or Markdown), find its errors and write the reply.

    A body that holds errcat's own marker (a reply pasted back) is read
    without that reply, so a reply never answers itself.
    """
    issue = read_issue(text, title=title, source=source)
    body = issue.body
    if MARKER in body:
        body = body.split(MARKER, 1)[0]
    findings = find_errors(issue.title, body, catalog=catalog)
    return Triage(issue, findings, render_reply(findings))
