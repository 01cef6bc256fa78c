r"""Every error in an issue, matched: where it was pasted, and its record or why there is none.

The title and each block of the body (see :mod:`errcat.triage.markdown`) are
read as a log is (:func:`errcat.scan.scan_chunks`: a traceback put back
together across lines, chains as one error, bare ``Class: message`` lines);
each event's lines are matched with :func:`errcat.match_all`. A line that
holds no such event but names an error (a pydantic ``Value error, ...`` in a
sentence, an error quoted in backticks) is matched as a whole message, and kept
only when a record answers it with confidence at least :data:`LINE_CONFIDENCE`
(an issue has many more sentences than titles to answer wrongly). Errors that
are the same (one record, or one class and message shape) are one
:class:`FoundError`, with every place it was pasted. A traceback cut before
its exception line is noted, not matched.

>>> from errcat.catalog import Catalog
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> catalog = Catalog([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])
>>> found = find_errors(
...     "ValueError: bad value 'x' when loading",
...     "It fails:\n```\nValueError: bad value 'x'\n```\nand `KeyError: 'y'` later.",
...     catalog=catalog,
... )
>>> [(e.record_id, [p.describe() for p in e.places]) for e in found.errors]
[('0123456789abcdef', ['the title', 'code block 1 (line 3)']), (None, ['the text (line 5)'])]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from errcat.report.groups import message_shape
from errcat.triage.markdown import Block, blocks

if TYPE_CHECKING:
    from errcat.catalog import Catalog
    from errcat.matcher import Match

__all__ = ["LINE_CONFIDENCE", "Findings", "FoundError", "Place", "find_errors"]

#: The confidence a sentence with no exception line in it needs to be answered.
LINE_CONFIDENCE: Final = 0.8

#: How many candidates are kept for an error without a confident answer ("did you mean").
_HINTS: Final = 3
# A line worth matching as a whole message although no exception line was found in it.
_ERROR_WORDS: Final = re.compile(r"error|exception|failed", re.IGNORECASE)
_MIN_LINE_CHARS: Final = 20
_MAX_LINE_CHARS: Final = 4000


@dataclass(frozen=True, slots=True)
class Place:
    """Where in the issue an error was pasted."""

    #: ``title``, or the kind of body block (``code``, ``quote``, ``details``, ``text``).
    kind: str
    #: The body's lines it spans (1-based; 0 for the title).
    first_line: int = 0
    last_line: int = 0
    #: For code blocks, which one (1-based, in the order of the body).
    number: int = 0

    def describe(self) -> str:
        """Say where, as the reply does.

        >>> Place("code", 10, 17, 2).describe(), Place("quote", 4, 4).describe()
        ('code block 2 (lines 10-17)', 'a quote (line 4)')
        """
        if self.kind == "title":
            return "the title"
        lines = (
            f"line {self.first_line}"
            if self.first_line == self.last_line
            else f"lines {self.first_line}-{self.last_line}"
        )
        what = {
            "code": f"code block {self.number}",
            "quote": "a quote",
            "details": "a <details> block",
            "text": "the text",
        }.get(self.kind, self.kind)
        return f"{what} ({lines})"


@dataclass(slots=True)
class FoundError:
    """One distinct error of the issue: its best answer (or candidates) and where it was pasted."""

    key: str
    error_class: str
    #: The message as pasted (its first place's).
    message: str
    #: The confident answer, or ``None``.
    match: Match | None
    #: Candidates that were not confident enough (for a "did you mean"), best first.
    hints: tuple[Match, ...] = ()
    places: list[Place] = field(default_factory=list)
    #: The block the answer came from (advice may depend on the engine and phase it shows).
    text: str = ""

    @property
    def record_id(self) -> str | None:
        """The answer's record id (``None`` when no record is a confident answer)."""
        return self.match.summary.id if self.match is not None else None


@dataclass(slots=True)
class Findings:
    """What :func:`find_errors` found."""

    errors: list[FoundError] = field(default_factory=list)
    #: Tracebacks that stop before their exception line (nothing to match).
    cut_tracebacks: list[Place] = field(default_factory=list)

    @property
    def answered(self) -> list[FoundError]:
        """The errors that have a confident answer."""
        return [e for e in self.errors if e.match is not None]


class _Collector:
    def __init__(self, catalog: Catalog | None) -> None:
        self.catalog = catalog
        self.findings = Findings()
        self.by_key: dict[str, FoundError] = {}

    def add(
        self, error_class: str, message: str, matches: list[Match], place: Place, text: str
    ) -> None:
        best = matches[0] if matches and matches[0].confident else None
        key = best.summary.id if best is not None else f"{error_class}: {message_shape(message)}"
        found = self.by_key.get(key)
        if found is None:
            found = FoundError(
                key,
                error_class,
                message,
                best,
                () if best else tuple(matches[:_HINTS]),
                text=text,
            )
            self.by_key[key] = found
            self.findings.errors.append(found)
        elif (
            best is not None
            and found.match is not None
            and best.confidence > found.match.confidence
        ):
            found.match = best
            found.text = text
        if place not in found.places:
            found.places.append(place)

    def text(self, text: str, place_of: _PlaceOf) -> None:
        """Find the errors of one piece of text (the title or a block)."""
        from errcat.matcher import match_all
        from errcat.scan import ScanStats, scan_chunks

        stats = ScanStats()
        events = list(scan_chunks([text], catalog=self.catalog, stats=stats))
        lines = text.split("\n")
        covered: set[int] = set()
        for event in events:
            covered.update(range(event.start_line, event.end_line + 1))
            piece = "\n".join(lines[event.start_line - 1 : event.end_line])
            matches = match_all(piece, catalog=self.catalog, limit=_HINTS)
            self.add(
                event.error_class,
                event.message,
                matches,
                place_of(event.start_line, event.end_line),
                text,
            )
        if stats.incomplete:
            self.findings.cut_tracebacks.append(place_of(1, len(lines)))
        for number, line in enumerate(lines, 1):
            if number in covered or not _worth_matching(line):
                continue
            matches = match_all(line, catalog=self.catalog, limit=1)
            if matches and matches[0].confident and matches[0].confidence >= LINE_CONFIDENCE:
                report = matches[0].report
                self.add(
                    report.error_class or matches[0].summary.error_class,
                    report.message,
                    matches,
                    place_of(number, number),
                    text,
                )


class _PlaceOf:
    """Turns a line range of a block's text into a :class:`Place` in the issue."""

    def __init__(self, block: Block | None, number: int = 0) -> None:
        self.block = block
        self.number = number

    def __call__(self, first: int, last: int) -> Place:
        if self.block is None:
            return Place("title")
        base = self.block.line - 1
        return Place(self.block.kind, base + first, base + last, self.number)


def _worth_matching(line: str) -> bool:
    stripped = line.strip()
    return (
        _MIN_LINE_CHARS <= len(stripped) <= _MAX_LINE_CHARS
        and _ERROR_WORDS.search(stripped) is not None
    )


def find_errors(title: str, body: str, *, catalog: Catalog | None = None) -> Findings:
    """The distinct errors of an issue's title and Markdown body, in the order they first appear."""
    collector = _Collector(catalog)
    if title.strip():
        collector.text(title.strip(), _PlaceOf(None))
    code = 0
    for block in blocks(body):
        if block.kind == "code":
            code += 1
        collector.text(block.text, _PlaceOf(block, code if block.kind == "code" else 0))
    return collector.findings
