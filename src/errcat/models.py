"""Typed models of catalog records (schemaVersion 2) and their envelope.

Fields are snake_case in Python and camelCase in JSON. Loading is tolerant of
fields a newer schema may add (they are kept and written back); a release check
asks for :func:`validate_envelope` with ``strict=True``, which refuses them.

>>> import json
>>> from errcat.models import RecordEnvelope
>>> env = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)
>>> env.record.error_class, env.record.line_number
('ValueError', 12)
>>> json.loads(env.model_dump_json()) == json.loads(EXAMPLE_ENVELOPE_JSON)
True
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Annotated, Any, Literal

import regex
from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

from errcat.errors import InvalidRecordError
from errcat.pattern_cost import pattern_problem
from errcat.patterns import is_simple_pattern
from errcat.tags import GENERATED_TAG

__all__ = [
    "GENERATED_TAG",
    "SCHEMA_VERSION",
    "EngineAdvice",
    "ErrorRecord",
    "RecordEnvelope",
    "format_timestamp",
    "validate_envelope",
]

#: The only schema version this release of errcat reads and writes.
SCHEMA_VERSION = 2


def format_timestamp(value: datetime) -> str:
    """Write a datetime the way the catalog does: ISO 8601 in UTC with a ``Z``.

    Milliseconds are kept when present (``2026-08-28T05:10:05.995Z``), so that
    a record read and written again is byte-for-byte the same.

    >>> format_timestamp(datetime(2026, 8, 28, 5, 10, 5, 995000, tzinfo=timezone.utc))
    '2026-08-28T05:10:05.995Z'
    >>> format_timestamp(datetime(2026, 8, 28, 5, 10, 5, tzinfo=timezone.utc))
    '2026-08-28T05:10:05Z'
    """
    value = value.astimezone(timezone.utc)
    if value.microsecond == 0:
        spec = "seconds"
    elif value.microsecond % 1000 == 0:
        spec = "milliseconds"
    else:
        spec = "microseconds"
    return value.replace(tzinfo=None).isoformat(timespec=spec) + "Z"


Timestamp = Annotated[AwareDatetime, PlainSerializer(format_timestamp, return_type=str)]
RecordId = Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{16}$")]
RepoName = Annotated[StrictStr, Field(pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")]
GitSha = Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{40}$")]
LineNo = Annotated[StrictInt, Field(ge=1)]
Texts = tuple[StrictStr, ...]


class _Model(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        frozen=True,
        extra="allow",
    )


class EngineAdvice(_Model):
    """Advice for one serving engine (and optionally one phase of it) that replaces the record's.

    An optional, additive part of a schemaVersion 2 record (``engineAdvice``):
    a record without it reads and writes as before, and readers that do not
    know it ignore it. ``engine`` is ``"sglang"`` or ``"vllm"`` (or ``None``
    for every engine), ``phase`` one of :data:`errcat.engine.PHASES` or
    ``None`` for any phase; empty fields fall back to the record's own.

    >>> EngineAdvice.model_validate({"engine": "vllm", "solutions": ["Pass --enforce-eager"]}).phase
    """

    engine: StrictStr | None = None
    phase: StrictStr | None = None
    documentation: StrictStr = ""
    solutions: Texts = ()
    example_fix: StrictStr = ""


class ErrorRecord(_Model):
    """One error raised at one place in a public repository.

    The fields follow schemaVersion 2 exactly; see the README for what each means.
    Nullable fields are ``None`` when the catalog says ``null``.
    """

    id: RecordId
    repo: RepoName
    slug: Annotated[StrictStr, Field(min_length=1)]
    error_code: StrictStr | None
    error_message: StrictStr
    message_pattern: StrictStr
    error_type: StrictStr
    error_class: Annotated[StrictStr, Field(min_length=1)]
    http_status: StrictInt | None
    severity: StrictStr
    file_path: Annotated[StrictStr, Field(min_length=1)]
    line_number: LineNo
    source_code: StrictStr
    source_code_start: LineNo
    source_code_end: LineNo
    github_url: StrictStr
    documentation: StrictStr
    trigger_scenarios: StrictStr
    common_situations: StrictStr
    solutions: Texts
    example_fix: StrictStr
    handling_strategy: StrictStr
    validation_code: StrictStr | None
    type_guard: StrictStr | None
    try_catch_pattern: StrictStr | None
    prevention_tips: Texts
    tags: Texts
    background_tag: StrictStr | None
    analyzed_sha: GitSha
    analyzed_at: Timestamp
    schema_version: Literal[2]
    #: Optional (additive): advice per serving engine and phase, picked at render time
    #: (see :mod:`errcat.tailor`). Absent from the JSON when there is none.
    engine_advice: tuple[EngineAdvice, ...] | None = Field(
        default=None, exclude_if=lambda value: value is None
    )

    @field_validator("message_pattern")
    @classmethod
    def _pattern_compiles(cls, value: str) -> str:
        if is_simple_pattern(value):
            return value  # literal text, escaped punctuation and (.+?) groups always compile
        too_costly = pattern_problem(value)  # before regex spells it out (issue 28 case 2)
        if too_costly is not None:
            raise ValueError(f"cannot be compiled safely: {too_costly}")
        try:
            regex.compile(value)
        except regex.error as exc:
            raise ValueError(f"does not compile with regex: {exc}") from None
        return value

    @model_validator(mode="after")
    def _line_inside_span(self) -> ErrorRecord:
        if self.source_code_start > self.source_code_end:
            raise ValueError(
                f"sourceCodeStart {self.source_code_start} is after "
                f"sourceCodeEnd {self.source_code_end}"
            )
        if not self.source_code_start <= self.line_number <= self.source_code_end:
            raise ValueError(
                f"lineNumber {self.line_number} is outside "
                f"[{self.source_code_start}, {self.source_code_end}]"
            )
        return self

    @property
    def title(self) -> str:
        """The one-line summary shown first: class and message template.

        >>> RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record.title
        'ValueError: bad value {x!r}'

        A record raised without a message (``assert x``) shows its statement instead.
        """
        from errcat.view import shown_message

        return f"{self.error_class}: {shown_message(self)}"

    @property
    def location(self) -> str:
        """Where the error is raised, as ``repo:path:line``."""
        return f"{self.repo}:{self.file_path}:{self.line_number}"


class RecordEnvelope(_Model):
    """A record as stored: ``{"record": {...}, "datasetVersion": "..."}``."""

    record: ErrorRecord
    dataset_version: Timestamp


_FIELD_ALIASES = frozenset(field.alias or name for name, field in ErrorRecord.model_fields.items())
_ENVELOPE_ALIASES = frozenset(
    field.alias or name for name, field in RecordEnvelope.model_fields.items()
)


def _loc_to_field(loc: tuple[int | str, ...]) -> str:
    # pydantic reports the path it validated (aliases, since data is camelCase);
    # drop the internal tags it adds for unions and function validators.
    parts = [str(p) for p in loc if not (isinstance(p, str) and p.startswith(("function-", "[")))]
    return ".".join(parts) if parts else "record"


def validate_envelope(
    data: Any,
    *,
    strict: bool = False,
    path: str | None = None,
    line: int | None = None,
) -> RecordEnvelope:
    """Validate one envelope (a parsed JSON object), naming the field at fault.

    With ``strict=True`` fields that schemaVersion 2 does not define are refused
    (a release must not carry typos); otherwise they are kept.

    >>> validate_envelope({"record": {}, "datasetVersion": "x"}, path="a.jsonl", line=7)
    Traceback (most recent call last):
    ...
    errcat.errors.InvalidRecordError: a.jsonl:7: record.id: Field required (+31 more errors)
    """
    if not isinstance(data, dict):
        raise InvalidRecordError(
            f"expected a JSON object, got {type(data).__name__}", path=path, line=line
        )
    record = data.get("record")
    record_id = record.get("id") if isinstance(record, dict) else None
    rid = record_id if isinstance(record_id, str) else None
    if (
        isinstance(record, dict)
        and "schemaVersion" in record
        and record["schemaVersion"] != SCHEMA_VERSION
    ):
        raise InvalidRecordError(
            f"unsupported schema version {record.get('schemaVersion')!r} "
            f"(errcat reads version {SCHEMA_VERSION})",
            path=path,
            line=line,
            field="record.schemaVersion",
            record_id=rid,
        )
    if strict:
        for extra in sorted(set(data) - _ENVELOPE_ALIASES):
            raise InvalidRecordError(
                "unknown field", path=path, line=line, field=extra, record_id=rid
            )
        if isinstance(record, dict):
            for extra in sorted(set(record) - _FIELD_ALIASES):
                raise InvalidRecordError(
                    "unknown field",
                    path=path,
                    line=line,
                    field=f"record.{extra}",
                    record_id=rid,
                )
    try:
        return RecordEnvelope.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        reason = first["msg"]
        if first["type"] not in {"missing"} and "input" in first:
            shown = json.dumps(first["input"], default=str)
            if len(shown) > 80:
                shown = shown[:77] + "..."
            reason = f"{reason} (got {shown})"
        more = exc.error_count() - 1
        if more:
            reason += f" (+{more} more error{'s' if more > 1 else ''})"
        raise InvalidRecordError(
            reason, path=path, line=line, field=_loc_to_field(first["loc"]), record_id=rid
        ) from None


#: A small valid envelope used by the docstring examples.
EXAMPLE_ENVELOPE_JSON = json.dumps(
    {
        "record": {
            "id": "0123456789abcdef",
            "repo": "example/project",
            "slug": "bad-value-x",
            "errorCode": None,
            "errorMessage": "bad value {x!r}",
            "messagePattern": "bad value (.+?)",
            "errorType": "validation",
            "errorClass": "ValueError",
            "httpStatus": None,
            "severity": "error",
            "filePath": "src/project/core.py",
            "lineNumber": 12,
            "sourceCode": "\n".join(f"line {n}" for n in range(1, 31)),
            "sourceCodeStart": 1,
            "sourceCodeEnd": 30,
            "githubUrl": "https://github.com/example/project/blob/"
            + "0" * 40
            + "/src/project/core.py#L1-L30",
            "documentation": "Raised when x is bad.",
            "triggerScenarios": "",
            "commonSituations": "",
            "solutions": ["Pass a good x"],
            "exampleFix": "f(x=1)",
            "handlingStrategy": "validation",
            "validationCode": None,
            "typeGuard": None,
            "tryCatchPattern": None,
            "preventionTips": [],
            "tags": ["example"],
            "backgroundTag": None,
            "analyzedSha": "0" * 40,
            "analyzedAt": "2026-08-28T05:10:05.995Z",
            "schemaVersion": 2,
        },
        "datasetVersion": "2026-08-28T06:17:29.519Z",
    }
)
