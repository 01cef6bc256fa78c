r"""The one GitHub comment that answers an issue's errors, with a hidden marker to find it again.

The reply starts with :data:`MARKER`, an HTML comment GitHub does not show, so
that a bot (the repository's ``action.yml``) finds its own comment and edits
it when the issue changes instead of adding another. Then, for each distinct
error, where it was pasted and either the record's advice (as
:meth:`errcat.Advice.to_markdown` writes it) or an honest "no record" line with
near records, if any; then a note for each traceback cut before its last
line. The whole fits GitHub's comment limit and holds nothing that changes
between runs (no time), so the same issue always gets the same reply.

>>> from errcat.triage.find import Findings
>>> print(render_reply(Findings()))  # doctest: +ELLIPSIS
<!-- errcat-triage -->
errcat found no Python error in this issue's title or body...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from errcat.advice import GITHUB_COMMENT_LIMIT, MIN_MARKDOWN_CHARS, Advice, markdown_length

if TYPE_CHECKING:
    from errcat.triage.find import Findings, FoundError

__all__ = ["MARKER", "MAX_ERRORS", "render_reply"]

#: The hidden first line of every reply (how a bot finds the comment it wrote).
MARKER: Final = "<!-- errcat-triage -->"
#: Most errors answered in one reply; the others are counted.
MAX_ERRORS: Final = 10
#: Characters kept for the message of an error without a record.
_MESSAGE_CHARS: Final = 300

_NOTHING: Final = (
    "errcat found no Python error in this issue's title or body. If something failed, paste "
    "the whole traceback, down to its last line (`SomeError: message`), in a code block."
)


def _code(text: str) -> str:
    """``text`` as a Markdown code span (backticks inside are fenced by longer runs)."""
    longest = run = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _one_line(text: str, limit: int = _MESSAGE_CHARS) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _where(error: FoundError) -> str:
    places = [p.describe() for p in error.places]
    if len(places) > 3:
        places = [*places[:3], f"{len(places) - 3} more places"]
    if len(places) == 1:
        return places[0]
    return ", ".join(places[:-1]) + " and " + places[-1]


def _unanswered(error: FoundError) -> str:
    shown = (
        f"{error.error_class}: {_one_line(error.message)}" if error.message else error.error_class
    )
    lines = [
        _code(shown),
        "",
        "No record in errcat's catalog answers this error with confidence.",
    ]
    if error.hints:
        lines += ["", "Near records (not confident: check that they fit):"]
        for hint in error.hints:
            s = hint.summary
            lines.append(
                f"- {_code(s.error_class)}: {_one_line(s.error_message, 120)} "
                f"({s.repo} `{s.file_path}:{s.line_number}`, confidence {hint.confidence:.2f})"
            )
    return "\n".join(lines)


def _compose(head: list[str], sections: list[str], footer: str) -> str:
    return "\n\n".join([*head, *(f"---\n\n{s}" for s in sections), "---", footer]) + "\n"


def render_reply(findings: Findings, *, max_chars: int = GITHUB_COMMENT_LIMIT) -> str:
    """The comment for an issue's findings, at most ``max_chars`` long (UTF-16 units).

    Each answer gets an equal share of what the rest leaves (at least
    :data:`~errcat.advice.MIN_MARKDOWN_CHARS`), shortened as
    :meth:`errcat.Advice.to_markdown` does.
    """
    from errcat import __version__

    if not findings.errors and not findings.cut_tracebacks:
        return f"{MARKER}\n{_NOTHING}\n"
    errors = findings.errors[:MAX_ERRORS]
    total = len(findings.errors)
    answered = len(findings.answered)
    if total:
        summary = f"errcat found {total} distinct error{'s' if total != 1 else ''} in this issue"
        if answered == total:
            summary += (
                "; each has a record in its catalog."
                if total > 1
                else "; it has a record in its catalog."
            )
        elif answered:
            verb = "has" if answered == 1 else "have"
            summary += f"; {answered} of them {verb} a record in its catalog."
        else:
            summary += "; none has a record in its catalog."
    else:
        summary = "errcat found no complete Python error in this issue."
    head = [MARKER + "\n" + summary]
    head += [
        f"The traceback in {p.describe()} stops before its last line (`SomeError: message`), "
        "which is what errcat matches: paste it whole for an answer."
        for p in findings.cut_tracebacks
    ]
    if total > MAX_ERRORS:
        head.append(f"{total - MAX_ERRORS} more errors are not shown.")
    footer = (
        f"<sub>Answered by errcat {__version__}. This comment is updated when the issue "
        "changes.</sub>"
    )
    titles = [
        f"#### {n}. In {_where(e)}" + ("" if e.match is not None else ": no record")
        for n, e in enumerate(errors, 1)
    ]
    advice = {
        i: Advice.from_match(e.match, text=e.text)
        for i, e in enumerate(errors)
        if e.match is not None
    }

    def sections(limit: int | None) -> list[str]:
        return [
            f"{title}\n\n"
            + (advice[i].to_markdown(max_chars=limit) if i in advice else _unanswered(e))
            for i, (title, e) in enumerate(zip(titles, errors, strict=True))
        ]

    reply = _compose(head, sections(None), footer)
    if markdown_length(reply) <= max_chars or not advice:
        return reply
    rest = markdown_length(
        _compose(head, [s if i not in advice else "" for i, s in enumerate(sections(None))], footer)
    )
    share = max(MIN_MARKDOWN_CHARS, (max_chars - rest) // len(advice) - 40)
    reply = _compose(head, sections(share), footer)
    # An answer shortened to its share can still run over it (the parts it always keeps):
    # give back the overflow until the reply fits or every answer is at its minimum.
    while (over := markdown_length(reply) - max_chars) > 0 and share > MIN_MARKDOWN_CHARS:
        share = max(MIN_MARKDOWN_CHARS, share - over // len(advice) - 10)
        reply = _compose(head, sections(share), footer)
    return reply
