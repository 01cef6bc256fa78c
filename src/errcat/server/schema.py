"""The request and response bodies of the HTTP API (pydantic models: the OpenAPI schema).

>>> MatchRequest.model_validate({"text": "ValueError: x", "replyMaxChars": 2000}).reply_max_chars
2000
>>> MatchRequest(text="ValueError: x").model_dump(by_alias=True)["replyFlavor"]
'markdown'
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from errcat.advice import (
    GITHUB_COMMENT_LIMIT,
    MIN_MARKDOWN_CHARS,
    Advice,
    Flavor,
)
from errcat.matcher import Match, MatchMode
from errcat.models import ErrorRecord
from errcat.patterns import parse_template

__all__ = [
    "MAX_MATCH_LIMIT",
    "MAX_PAGE_SIZE",
    "MAX_TEXT_CHARS",
    "AdviceOut",
    "ErrorOut",
    "HealthOut",
    "MatchOut",
    "MatchRequest",
    "MatchResponse",
    "MessagePart",
    "RecordOut",
    "RecordPage",
    "RecordSummary",
    "VersionOut",
    "match_out",
    "record_summary",
]


#: Longest ``text`` accepted by ``POST /v1/match`` (characters).
MAX_TEXT_CHARS = 256 * 1024


#: Most matches one request may ask for.
MAX_MATCH_LIMIT = 50


#: Most records one page of ``GET /v1/records`` holds.
MAX_PAGE_SIZE = 500


class _Body(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )


class MatchRequest(_Body):
    """The body of ``POST /v1/match``."""

    text: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_TEXT_CHARS,
            description="The pasted error: a traceback, a log excerpt or a message.",
        ),
    ]
    limit: Annotated[int, Field(ge=1, le=MAX_MATCH_LIMIT, description="Most matches to list.")] = 5
    reply_max_chars: Annotated[
        int | None,
        Field(
            ge=MIN_MARKDOWN_CHARS,
            le=GITHUB_COMMENT_LIMIT,
            description="Length limit of `reply` (2000 for Discord, 3000 for a Slack section).",
        ),
    ] = None
    reply_flavor: Annotated[
        Flavor,
        Field(description="`markdown` (GitHub, Discord, Slack markdown blocks) or `mrkdwn`."),
    ] = "markdown"


class AdviceOut(_Body):
    """What to do about a record's error (see :class:`errcat.Advice`)."""

    id: str
    slug: str
    summary: str
    repo: str
    file_path: str
    line_number: int
    source_url: str
    confidence: float | None
    exact: bool | None
    params: dict[str, str]
    documentation: str
    solutions: list[str]
    example_fix: str
    prevention_tips: list[str]
    tags: list[str]
    generated: bool = Field(
        default=False, description="The advice was generated from the source, not curated."
    )


class MessagePart(_Body):
    """A piece of the record's message: literal text, or the value captured for a placeholder."""

    text: str
    param: str | None = Field(
        default=None, description="The placeholder this text fills (null for literal text)."
    )


class MatchOut(_Body):
    """One record the text may be an instance of."""

    id: str
    slug: str
    repo: str
    error_class: str
    error_message: str
    confidence: float
    exact: bool
    mode: MatchMode
    confident: bool = Field(description="Good enough to be the answer (errcat.match_error).")
    params: dict[str, str]
    span: tuple[int, int]
    reasons: list[str]
    message_parts: list[MessagePart]
    advice: AdviceOut


class MatchResponse(_Body):
    """The answer of ``POST /v1/match``."""

    confident: bool = Field(description="True when the first match is a confident answer.")
    matches: list[MatchOut]
    reply: str = Field(description="A chat-ready reply: the first match's advice, or 'no match'.")


class RecordOut(_Body):
    """One record with the data version of the envelope it came in."""

    record: ErrorRecord
    dataset_version: str | None


class RecordSummary(_Body):
    """A record in a list."""

    id: str
    slug: str
    repo: str
    error_class: str
    error_message: str
    file_path: str
    line_number: int
    source_url: str
    tags: list[str]


class RecordPage(_Body):
    """One page of ``GET /v1/records``."""

    total: int = Field(description="Records that pass the filters, on all pages.")
    offset: int
    limit: int
    items: list[RecordSummary]


class VersionOut(_Body):
    """Code and data versions."""

    version: str = Field(description="errcat's code version.")
    data_version: str | None = Field(description="The served catalog's data version.")
    bundled_data_version: str | None
    schema_version: int
    records: int


class HealthOut(_Body):
    """Liveness."""

    status: Literal["ok"] = "ok"
    records: int


class ErrorOut(BaseModel):
    """An error response."""

    detail: str


def _advice_out(advice: Advice) -> AdviceOut:
    return AdviceOut.model_validate(advice.to_dict())


def _message_parts(record: ErrorRecord, params: dict[str, str]) -> list[MessagePart]:
    literals, fields = parse_template(record.error_message)
    parts = [MessagePart(text=literals[0])] if literals[0] else []
    for field, literal in zip(fields, literals[1:], strict=True):
        value = params.get(field.expr)
        parts.append(
            MessagePart(text=value if value is not None else f"{{{field.expr}}}", param=field.expr)
        )
        if literal:
            parts.append(MessagePart(text=literal))
    return parts


def match_out(match: Match) -> MatchOut:
    """A match as the API answers it: its fields, message parts and advice."""
    data = match.to_dict()
    return MatchOut(
        **data,
        confident=match.confident,
        message_parts=_message_parts(match.record, dict(match.params)),
        advice=_advice_out(Advice.from_match(match)),
    )


def record_summary(record: ErrorRecord) -> RecordSummary:
    """A record as a list of records shows it."""
    return RecordSummary(
        id=record.id,
        slug=record.slug,
        repo=record.repo,
        error_class=record.error_class,
        error_message=record.error_message,
        file_path=record.file_path,
        line_number=record.line_number,
        source_url=record.github_url,
        tags=list(record.tags),
    )
