"""Read an issue as GitHub gives it: an event payload, an API object, or plain Markdown.

Accepted inputs (JSON is recognised by its first character, ``{``):

* a GitHub Actions event payload (``$GITHUB_EVENT_PATH``) of an ``issues`` or
  ``issue_comment`` event (``{"action", "issue": {...}, "repository": {...}}``),
  or of a ``pull_request`` event (its title and description are read);
* an issue as the REST API returns it (``gh api repos/OWNER/REPO/issues/N``:
  ``number``, ``title``, ``body``, ``html_url``) or as
  ``gh issue view N --json number,title,body,url`` prints it;
* anything else is the issue's Markdown body (the title given apart).

A ``null`` body (an issue opened with no description) is an empty one. JSON
that is none of these raises :class:`IssueFormatError`, naming the source and
what was missing.

>>> issue = read_issue('{"issue": {"number": 7, "title": "ValueError: x", "body": null}}')
>>> issue.number, issue.title, issue.body
(7, 'ValueError: x', '')
>>> read_issue("It fails with `KeyError: 'k'`", title="Crash").title
'Crash'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from errcat.errors import ErrcatError

__all__ = ["Issue", "IssueFormatError", "read_issue"]


class IssueFormatError(ErrcatError, ValueError):
    """The input is JSON but not an issue, an event or an API object errcat can read."""

    def __init__(self, source: str, reason: str, *, line: int | None = None) -> None:
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {reason}")
        self.source = source
        self.reason = reason
        self.line = line


@dataclass(frozen=True, slots=True)
class Issue:
    """An issue's title and Markdown body, with its number, URL and repository when known."""

    title: str
    body: str
    number: int | None = None
    url: str | None = None
    repo: str | None = None
    #: Whether it is a pull request (its description is read like an issue's body).
    pull_request: bool = False


def _text(value: object, source: str, field: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise IssueFormatError(source, f"{field} must be a string, got {type(value).__name__}")
    return value


def _from_object(data: dict[str, Any], source: str, *, repo: str | None) -> Issue:
    number = data.get("number")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise IssueFormatError(source, f"number must be an integer, got {number!r}")
    url = data.get("html_url") or data.get("url")
    return Issue(
        title=_text(data.get("title"), source, "title"),
        body=_text(data.get("body"), source, "body"),
        number=number,
        url=url if isinstance(url, str) else None,
        repo=repo,
        pull_request="pull_request" in data or "/pull/" in (url or ""),
    )


def read_issue(text: str, *, title: str = "", source: str = "<stdin>") -> Issue:
    """The issue in ``text`` (see the module's list of inputs); ``title`` is for Markdown input."""
    if not text.lstrip().startswith("{"):
        return Issue(title=title, body=text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise IssueFormatError(source, f"invalid JSON: {exc.msg}", line=exc.lineno) from None
    if not isinstance(data, dict):  # pragma: no cover - "{" starts an object
        raise IssueFormatError(source, "expected a JSON object")
    repository = data.get("repository")
    repo = repository.get("full_name") if isinstance(repository, dict) else None
    for key in ("issue", "pull_request"):
        inner = data.get(key)
        if isinstance(inner, dict):
            issue = _from_object(inner, f"{source}: {key}", repo=repo)
            return (
                issue
                if key == "issue"
                else Issue(issue.title, issue.body, issue.number, issue.url, repo, True)
            )
    if "title" in data or "body" in data:
        return _from_object(data, source, repo=repo)
    keys = ", ".join(sorted(data)[:8]) or "none"
    raise IssueFormatError(
        source,
        "JSON is neither a GitHub event with an 'issue' or 'pull_request' nor an issue with a "
        f"'title' or 'body' (its keys: {keys})",
    )
