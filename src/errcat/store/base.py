"""What a catalog needs from where its records live: the :class:`Store` protocol and its rows.

A store holds records by position; :class:`RecordSummary` is the few fields
matching, lookup and filtering read without the whole record.

>>> s = RecordSummary("0123456789abcdef", "bad-x", "ValueError", "a/b.py", 3, "o/r", "bad {x}", ())
>>> RecordSummary.decode(s.encode()) == s, file_tail(s.file_path)
(True, 'b.py')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from errcat.errors import InvalidRecordError
from errcat.tags import BASE_TAG_PREFIX, CALLER_CLASS_TAG, FUNCTION_TAG_PREFIX, WAS_TAG_PREFIX

if TYPE_CHECKING:
    from errcat.index import PatternIndex
    from errcat.models import ErrorRecord, RecordEnvelope
    from errcat.view import RecordFields

__all__ = [
    "BASE_TAG_PREFIX",
    "CALLER_CLASS_TAG",
    "FUNCTION_TAG_PREFIX",
    "SEP",
    "WAS_TAG_PREFIX",
    "RecordSummary",
    "Store",
    "file_tail",
    "problem_dict",
    "problem_of",
]

# The tag names are errcat.tags', re-exported here: the miner reads them from the store.

#: The separator of a summary's fields in the stored table.
SEP = "\x1f"


class RecordSummary(NamedTuple):
    """The fields of a record that matching, lookup and filtering need.

    A named tuple, not a frozen dataclass: a stored index decodes one for every
    record a match first touches, and a frozen dataclass's ``__init__`` sets
    each field through ``object.__setattr__`` (about four times the cost of
    the row's split).
    """

    id: str
    slug: str
    error_class: str
    file_path: str
    line_number: int
    repo: str
    error_message: str
    tags: tuple[str, ...]

    def encode(self) -> str:
        """One string holding every field (the stored table's row)."""
        return SEP.join(
            [
                self.id,
                self.slug,
                self.error_class,
                self.file_path,
                str(self.line_number),
                self.repo,
                self.error_message,
                "\x1e".join(self.tags),
            ]
        )

    @classmethod
    def decode(cls, row: str) -> RecordSummary:
        """Read a row written by :meth:`encode`."""
        rid, slug, cls_, path, line, repo, message, tags = row.split(SEP)
        return cls._make(
            (
                rid,
                slug,
                cls_,
                path,
                int(line),
                repo,
                message,
                tuple(filter(None, tags.split("\x1e"))),
            )
        )

    @classmethod
    def of(cls, record: ErrorRecord) -> RecordSummary:
        """The summary of a full record."""
        return cls(
            record.id,
            record.slug,
            record.error_class,
            record.file_path,
            record.line_number,
            record.repo,
            record.error_message,
            record.tags,
        )


def file_tail(path: str) -> str:
    r"""The file name of a path: the key under which frames look a record's file up.

    Which of the records with that name a frame really is in is decided by the
    matcher, from the whole paths (:func:`errcat.evidence.same_file_depth`).

    >>> file_tail("python/sglang/srt/server_args.py"), file_tail("C:\\Lib\\setup.py")
    ('server_args.py', 'setup.py')
    """
    return path.replace("\\", "/").rsplit("/", 1)[-1]


class Store(Protocol):
    """What a catalog needs from where its records live."""

    problems: tuple[InvalidRecordError, ...]

    def __len__(self) -> int: ...

    def summary(self, position: int) -> RecordSummary:
        """The matching fields of the record at ``position``."""

    def record(self, position: int) -> ErrorRecord:
        """The validated record at ``position``."""

    def view(self, position: int) -> RecordFields:
        """The fields of the record at ``position`` that answers show (no validation needed)."""
        ...

    def envelope(self, position: int) -> RecordEnvelope | None:
        """The record in its envelope, when it came in one."""

    def position_of(self, key: str) -> int | None:
        """Position of the record with this id, else of the first with this slug."""

    def with_slug(self, slug: str) -> Sequence[int]:
        """Positions of every record with this slug (records of one statement in several files)."""

    def tagged(self, prefix: str) -> Sequence[int]:
        """Positions of the records with a tag that starts with ``prefix``."""

    def ids(self) -> frozenset[str]:
        """The ids of the store's records (worked out once: what a catalog's later parts hide)."""

    def records_in_file(self, tail: str) -> Sequence[int]:
        """Positions of the records raised in a file with this :func:`file_tail`."""

    def file_tails(self) -> Sequence[str]:
        """Every :func:`file_tail` some record is raised in (each once)."""

    @property
    def index(self) -> PatternIndex:
        """The match index over the store's patterns."""


def problem_dict(problem: InvalidRecordError) -> dict[str, Any]:
    """A load problem as JSON-ready data (what the stored index and worker processes pass)."""
    return {
        "reason": problem.reason,
        "path": problem.path,
        "line": problem.line,
        "field": problem.field,
        "id": problem.record_id,
    }


def problem_of(data: dict[str, Any]) -> InvalidRecordError:
    """The load problem :func:`problem_dict` wrote."""
    return InvalidRecordError(
        data["reason"],
        path=data["path"],
        line=data["line"],
        field=data["field"],
        record_id=data["id"],
    )
