"""Exceptions raised by errcat.

Every error errcat raises on purpose is an :class:`ErrcatError` and also an
instance of the builtin a caller would naturally catch (``ValueError`` for bad
data, ``LookupError`` for an unknown record, ``OSError`` for unreadable data):

>>> from errcat.errors import InvalidRecordError
>>> err = InvalidRecordError("field required", path="data/x.jsonl", line=3, field="record.id")
>>> print(err)
data/x.jsonl:3: record.id: field required
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "CatalogSourceError",
    "ErrcatError",
    "InvalidPatternError",
    "InvalidRecordError",
    "UnknownRecordError",
]


class ErrcatError(Exception):
    """Base class of every error errcat raises on purpose."""


def _where(path: str | None, line: int | None) -> str:
    if path is None:
        return "" if line is None else f"line {line}: "
    return f"{path}:{line}: " if line is not None else f"{path}: "


class InvalidRecordError(ErrcatError, ValueError):
    """A record (or a line of a data file) does not follow the schema.

    ``path``, ``line`` and ``field`` say where: the file, the 1-based line in it,
    and the dotted JSON path of the field at fault (``None`` when not known).
    """

    def __init__(
        self,
        reason: str,
        *,
        path: str | None = None,
        line: int | None = None,
        field: str | None = None,
        record_id: str | None = None,
    ) -> None:
        self.reason = reason
        self.path = path
        self.line = line
        self.field = field
        self.record_id = record_id
        where = _where(path, line)
        what = f"{field}: " if field else ""
        super().__init__(f"{where}{what}{reason}")


class InvalidPatternError(ErrcatError, ValueError):
    """A ``messagePattern`` or message template cannot be used."""


class UnknownRecordError(ErrcatError, LookupError):
    """No record has the requested id or slug."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(f"Unknown record: {key!r}")

    def __str__(self) -> str:
        # LookupError subclasses such as KeyError repr their argument; keep it readable.
        return f"Unknown record: {self.key!r}"


class CatalogSourceError(ErrcatError, OSError):
    """A catalog source (file, directory, bundled data) cannot be read."""
