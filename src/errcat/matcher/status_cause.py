"""An HTTP status named beside the error that caused it: the status is not the answer.

A client or a writer names the status a server answered with ("HTTP 400",
"500 Internal Server Error") and, often in the same paste, why: the server's
message after the status (``... internal server error: status Failure:
ValueError('...')``, "HTTP 400 saying named tool choice requires ..."), or the
exception itself in another report of the paste. The status records (tagged
``http-status-<code>``) explain only a status with no error text; when the
paste holds the cause, the cause is what a user needs explained, and when no
record explains the cause, no answer is better than the status's. So a status
record's phrase (:mod:`errcat.matcher.phrases`) does not answer a report when
:func:`yields_to_cause` finds the cause beside it.

>>> from errcat.extract import extract_reports
>>> text = "openai.InternalServerError: internal server error: ValueError('zqa zqb zqc')"
>>> reports = extract_reports(text)
>>> yields_to_cause(reports[0], reports, reports[0].message, (0, len("internal server error")))
True
>>> alone = extract_reports("[Bug] 500 Internal Server Error when calling /v1/completions")
>>> message = alone[0].message
>>> at = message.index("500")
>>> yields_to_cause(alone[0], alone, message, (at, message.index("Error") + len("Error")))
False
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from http import HTTPStatus

from errcat.extract import ExceptionReport
from errcat.matcher.result import Match

__all__ = [
    "STATUS_TAG_PREFIX",
    "is_status_record",
    "states_reason",
    "status_beside_cause",
    "unless_beside_cause",
    "yields_to_cause",
]

#: The tag prefix of a record that explains an HTTP status with no error text.
STATUS_TAG_PREFIX = "http-status-"
#: How many words a stated reason or a cause's message must have to be one.
_REASON_WORDS = 3
#: What opens a reason after a status: the words that say one follows. A bare colon or
#: dash does not: a title's writer puts their own words there as often
#: (``500 Internal Server Error - works in v0.8``), and those name no error.
_REASON_LEAD = re.compile(
    r"""\s*,?\s*(?:
        saying|says|said|stating|with\s+(?:the\s+)?(?:error|message|reason|detail)s?
      | because(?:\s+of)?|due\s+to
    )\b\s*:?""",
    re.IGNORECASE | re.VERBOSE,
)
#: A word of a reason: letters first (a number or a quote mark is not a reason).
_WORD = re.compile(r"[A-Za-z][\w'`-]*")
#: A status in a message: a 4xx/5xx code standing alone, or a status's reason phrase.
_STATUS = re.compile(
    r"(?<![\w.])[45]\d\d(?![\w.])|"
    + "|".join(
        re.escape(status.phrase) for status in HTTPStatus if status.value >= 400 and status.phrase
    ),
    re.IGNORECASE,
)


def is_status_record(tags: Iterable[str]) -> bool:
    """Whether a record's tags say it explains an HTTP status (``http-status-400``).

    >>> is_status_record(("http", "http-status-404")), is_status_record(("http",))
    (True, False)
    """
    return any(tag.startswith(STATUS_TAG_PREFIX) for tag in tags)


def states_reason(message: str, end: int) -> bool:
    """Whether the words after a status (ending at ``end``) state why it was answered.

    A reason opens with words that say one follows ("saying", "with error",
    "because") and has words of its own; a bare colon or dash may open the
    writer's own words instead.

    >>> states_reason("HTTP 400 saying zqa needs zqb set", 8)
    True
    >>> states_reason("got 400 Bad Request with error: zqa zqb zqc", 19)
    True
    >>> states_reason("got 400 Bad Request: zqa zqb zqc", 19)
    False
    >>> states_reason("got 400 Bad Request saying 12", 19)
    False
    """
    lead = _REASON_LEAD.match(message, end)
    if lead is None:
        return False
    return len(_WORD.findall(message, lead.end())) >= _REASON_WORDS


def _is_cause(report: ExceptionReport, status: str) -> bool:
    """Whether a report is an error of its own: a class, words, and no status in them.

    ``status`` is the status as the paste names it ("Content Too Large"): a report
    that names it too (the line that quotes the status's report) is that error.
    """
    message = report.message
    return (
        report.error_class is not None
        and len(_WORD.findall(message)) >= _REASON_WORDS
        and _STATUS.search(message) is None
        and " ".join(status.lower().split()) not in " ".join(message.lower().split())
    )


def status_beside_cause(match: Match, text: str, reports: Sequence[ExceptionReport]) -> bool:
    """Whether an answer is a status record's in a paste that also holds the status's cause.

    The cause is an exception of its own in another report outside the status's line
    (one inside it is a part its pattern explains): the server's error above its
    access line, which no record explains (one that did would answer, a wrapper's
    record never does beside it). A log line without a class (uvicorn's ``Exception
    in ASGI application``, an engine's ``Error in preprocessing prompt inputs``) names
    no error: the status stays the answer there.
    """
    if not is_status_record(match.summary.tags):
        return False
    report = match.report
    span = text[report.start : report.end]
    status = _STATUS.search(span)
    named = status.group(0) if status is not None else match.summary.error_message
    # A report inside the status's own line is a part of what its pattern explains (the
    # reason it captured, "Error: Content Too Large"), not a cause beside it.
    beside = (o for o in reports if not (report.start <= o.start and o.end <= report.end))
    return any(_is_cause(other, named) for other in beside)


def unless_beside_cause(
    match: Match | None, text: str, reports: Sequence[ExceptionReport]
) -> Match | None:
    """The answer, unless it is a status record's beside the status's cause (then None)."""
    if match is not None and status_beside_cause(match, text, reports):
        return None
    return match


def yields_to_cause(
    report: ExceptionReport,
    reports: Sequence[ExceptionReport],
    message: str,
    found: tuple[int, int],
) -> bool:
    """Whether a status that ``report`` names has its cause in the paste.

    ``message`` is the report's message as the status was found in it (folded or
    not), the status's name at ``found`` (start, end) in it. The cause is the
    reason the message states after the status (:func:`states_reason`), or another
    report of the paste that is an error of its own: a class, at least three words,
    and no status named in them.
    """
    start, end = found
    if states_reason(message, end):
        return True
    status = message[start:end]
    return any(other is not report and _is_cause(other, status) for other in reports)
