"""The fields of a record that answers show, read without validating the whole record.

Rendering an answer (:class:`errcat.advice.Advice`) needs a dozen fields of
the matched record. A stored catalog's records were validated when their index
was built (and bundled data when it was released, then checked against its
checksums), so a one-shot ``errcat match`` reads those fields straight from
the record's JSON (:class:`RecordView`) instead of importing pydantic and
validating it again; :attr:`errcat.Match.record` still gives the full,
validated :class:`~errcat.models.ErrorRecord`. Both satisfy
:class:`RecordFields`.

>>> import json
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON
>>> view = RecordView(json.loads(EXAMPLE_ENVELOPE_JSON)["record"])
>>> view.title, view.line_number, view.solutions[:1]
('ValueError: bad value {x!r}', 12, ('Pass a good x',))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

__all__ = ["RecordFields", "RecordView", "raise_source", "shown_message", "source_line"]


class RecordFields(Protocol):
    """What renderers read of a record (an ``ErrorRecord`` or a :class:`RecordView`)."""

    @property
    def id(self) -> str:
        """The record id."""

    @property
    def repo(self) -> str:
        """``owner/name``."""

    @property
    def slug(self) -> str:
        """The record slug."""

    @property
    def error_class(self) -> str:
        """The exception class as tracebacks print it."""

    @property
    def error_message(self) -> str:
        """The message template."""

    @property
    def file_path(self) -> str:
        """The raising file, repo-relative."""

    @property
    def line_number(self) -> int:
        """The raising line."""

    @property
    def github_url(self) -> str:
        """A link to the raising code."""

    @property
    def documentation(self) -> str:
        """Why the error is raised."""

    @property
    def trigger_scenarios(self) -> str:
        """When it is raised, in the user's terms."""

    @property
    def solutions(self) -> tuple[str, ...]:
        """The ways out, best first."""

    @property
    def example_fix(self) -> str:
        """A before/after example."""

    @property
    def prevention_tips(self) -> tuple[str, ...]:
        """How to keep it from happening."""

    @property
    def tags(self) -> tuple[str, ...]:
        """The record's tags."""

    @property
    def title(self) -> str:
        """``Class: message``."""

    @property
    def source_code(self) -> str:
        """The source snippet around the raise."""

    @property
    def source_code_start(self) -> int:
        """The line the snippet starts at."""


def raise_source(record: RecordFields) -> str:
    r"""The record's raising line of code, stripped (empty when the snippet lacks it).

    >>> class R:
    ...     source_code, source_code_start, line_number = "def f():\n    raise E('x')\n", 4, 5
    >>> raise_source(R())
    "raise E('x')"
    """
    return source_line(record.source_code, record.source_code_start, record.line_number)


def source_line(code: str, start: int, line: int) -> str:
    r"""Line ``line`` of a snippet ``code`` that starts at line ``start``, stripped ("" if outside).

    The snippet's lines are those the miner joined with ``\n`` (a form feed inside
    one is not a line break here).

    >>> source_line("a\n  b\x0c c\n", 10, 11)
    'b\x0c c'
    """
    lines = code.split("\n")
    at = line - start
    return lines[at].strip() if 0 <= at < len(lines) else ""


def shown_message(record: RecordFields) -> str:
    r"""The message template as answers show it; for a raise without one, its statement.

    >>> class R:
    ...     error_message, source_code, source_code_start, line_number = "", "assert x\n", 7, 7
    >>> shown_message(R())
    '(no message) assert x'
    """
    if record.error_message:
        return record.error_message
    code = raise_source(record)
    return f"(no message) {code}" if code else "(no message)"


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else ""


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _texts(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list | tuple):
        return ()
    return tuple(v for v in value if isinstance(v, str))


class RecordView:
    """A record's rendered fields read from its JSON object (camelCase keys), read-only.

    Missing or mistyped fields read as empty: a view never raises. Use it only
    for records that were validated before (a stored index, a released data
    directory); :meth:`errcat.store.Store.view` gives one.
    """

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        """Wrap the record object of an envelope (``envelope["record"]``)."""
        self._data = data

    def __repr__(self) -> str:
        """``<RecordView id>``."""
        return f"<RecordView {self.id}>"

    @property
    def id(self) -> str:
        """The record id."""
        return _text(self._data, "id")

    @property
    def repo(self) -> str:
        """``owner/name``."""
        return _text(self._data, "repo")

    @property
    def slug(self) -> str:
        """The record slug."""
        return _text(self._data, "slug")

    @property
    def error_class(self) -> str:
        """The exception class as tracebacks print it."""
        return _text(self._data, "errorClass")

    @property
    def error_message(self) -> str:
        """The message template."""
        return _text(self._data, "errorMessage")

    @property
    def file_path(self) -> str:
        """The raising file, repo-relative."""
        return _text(self._data, "filePath")

    @property
    def line_number(self) -> int:
        """The raising line (0 when the JSON has none)."""
        return _int(self._data, "lineNumber")

    @property
    def github_url(self) -> str:
        """A link to the raising code."""
        return _text(self._data, "githubUrl")

    @property
    def source_code(self) -> str:
        """The source snippet around the raise."""
        return _text(self._data, "sourceCode")

    @property
    def source_code_start(self) -> int:
        """The line the snippet starts at (0 when the JSON has none)."""
        return _int(self._data, "sourceCodeStart")

    @property
    def documentation(self) -> str:
        """Why the error is raised."""
        return _text(self._data, "documentation")

    @property
    def trigger_scenarios(self) -> str:
        """When it is raised, in the user's terms."""
        return _text(self._data, "triggerScenarios")

    @property
    def solutions(self) -> tuple[str, ...]:
        """The ways out, best first."""
        return _texts(self._data, "solutions")

    @property
    def example_fix(self) -> str:
        """A before/after example."""
        return _text(self._data, "exampleFix")

    @property
    def prevention_tips(self) -> tuple[str, ...]:
        """How to keep it from happening."""
        return _texts(self._data, "preventionTips")

    @property
    def tags(self) -> tuple[str, ...]:
        """The record's tags."""
        return _texts(self._data, "tags")

    @property
    def engine_advice(self) -> tuple[Mapping[str, Any], ...] | None:
        """The record's optional per-engine advice (``engineAdvice``), as JSON objects."""
        value = self._data.get("engineAdvice")
        if not isinstance(value, list | tuple):
            return None
        return tuple(v for v in value if isinstance(v, Mapping))

    @property
    def title(self) -> str:
        """``Class: message``, as :attr:`errcat.models.ErrorRecord.title`."""
        return f"{self.error_class}: {shown_message(self)}"
