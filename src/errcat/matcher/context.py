r"""One report as the matcher reads it, worked out once per call: its forms, frames and words.

Every stage of matching asks the same questions of a report (its message
folded, the forms a pattern may match, its frames by file name, the raise
frame's code, the lines the frames are on); :class:`ReportContext` answers them
once. What depends on a catalog's store (the records in the frames' files, the
records raised at the raise frame) is kept per store, the first time asked.

>>> from errcat.extract import extract_reports
>>> report = extract_reports("ValueError: bad  value\n   here")[0]
>>> ctx = ReportContext.of(report, 0, {})
>>> ctx.message, ctx.forms, ctx.message_words
('bad value here', ['bad value here'], 3)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from errcat.evidence import NEAR_LINES, FrameView, path_parts, same_file_depth
from errcat.extract import ExceptionReport
from errcat.extract.forms import message_forms
from errcat.matcher.site_evidence import _fits
from errcat.matcher.summaries import raised_near
from errcat.matcher.summaries import summary as _summary
from errcat.store import Store, file_tail
from errcat.text import fold_whitespace, words

__all__ = ["Lean", "ReportContext", "contexts_of", "no_lean"]

#: The serving engine a whole text leans to (:func:`errcat.engine.lean`), if any, and the
#: signals that say so, strongest first: asked for only when a record is an engine's.
Lean = Callable[[], tuple[str | None, tuple[str, ...]]]


def no_lean() -> tuple[str | None, tuple[str, ...]]:
    """The :data:`Lean` of a text that leans to no engine.

    >>> no_lean()
    (None, ())
    """
    return None, ()


@dataclass(eq=False)
class ReportContext:
    """A report, its place in the report list (``order``), and what every stage reads of it."""

    report: ExceptionReport
    order: int
    #: The project names the whole text mentions (shared by its reports).
    mentions: Mapping[str, int]
    #: The message, whitespace folded.
    message: str
    #: Every form of the message a pattern may match (:func:`errcat.extract.forms.message_forms`).
    forms: list[str]
    #: The frames, indexed by file name.
    frames: FrameView
    #: The raise frame's line of code, whitespace folded ("" without one).
    raise_code: str
    #: The whole text's :data:`Lean`, worked out when a record of an engine asks.
    lean: Lean = no_lean
    _in_files: dict[int, frozenset[int]] = field(default_factory=dict, repr=False)
    _in_raise_file: dict[int, frozenset[int]] = field(default_factory=dict, repr=False)
    _at_frame: dict[int, frozenset[int]] = field(default_factory=dict, repr=False)

    @classmethod
    def of(
        cls,
        report: ExceptionReport,
        order: int,
        mentions: Mapping[str, int],
        lean: Lean = no_lean,
    ) -> ReportContext:
        """The context of ``report``, the ``order``-th of its text (``lean``: its :data:`Lean`)."""
        return cls(
            report=report,
            order=order,
            mentions=mentions,
            message=fold_whitespace(report.message),
            forms=message_forms(report),
            frames=FrameView(report.frames),
            raise_code=fold_whitespace(report.frames[-1].source) if report.frames else "",
            lean=lean,
        )

    @property
    def engine(self) -> str | None:
        """The serving engine the whole text leans to, if any (:func:`errcat.engine.lean`)."""
        return self.lean()[0]

    @property
    def engine_signals(self) -> tuple[str, ...]:
        """The signals that the text leans to :attr:`engine`, strongest first."""
        return self.lean()[1]

    @property
    def prose(self) -> bool:
        """Whether the message is quoted in prose (a title), not printed after its class."""
        return self.report.kind == "text"

    @property
    def bare(self) -> bool:
        """Whether the report has no frames."""
        return not self.report.frames

    @property
    def class_known(self) -> bool:
        """Whether the report's exception class is known (printed before its message)."""
        return self.report.error_class is not None and self.report.kind != "text"

    @cached_property
    def message_words(self) -> int:
        """How many distinct words (:func:`errcat.text.words`) the folded message has."""
        return len(set(words(self.message)))

    @cached_property
    def frame_lines(self) -> dict[str, list[int]]:
        """The lines the frames are on, by file name."""
        lines: dict[str, list[int]] = {}
        for frame in self.report.frames:
            lines.setdefault(file_tail(frame.path), []).append(frame.line)
        return lines

    def in_frame_files(self, part: int, store: Store) -> frozenset[int]:
        """Positions (in ``store``, the catalog's ``part``) of records in a frame's file name."""
        found = self._in_files.get(part)
        if found is None:
            names = self.frames.by_name
            found = frozenset().union(*(store.records_in_file(name) for name in names))
            self._in_files[part] = found
        return found

    def in_raise_file(self, part: int, store: Store) -> frozenset[int]:
        """Positions (in ``store``) of records in the raise frame's file name (none: no frames)."""
        found = self._in_raise_file.get(part)
        if found is None:
            frames = self.report.frames
            found = (
                frozenset(store.records_in_file(file_tail(frames[-1].path)))
                if frames
                else frozenset()
            )
            self._in_raise_file[part] = found
        return found

    def raised_at_frame(self, part: int, store: Store) -> frozenset[int]:
        """Records (in ``store``) raised within a few lines of the raise frame that fit the text.

        A raise frame that sits on another record's raise statement is that
        record's statement: no other record's code or function can claim it.
        """
        found = self._at_frame.get(part)
        if found is None:
            found = frozenset()
            report = self.report
            if report.frames and report.message:
                frame = report.frames[-1]
                parts = path_parts(frame.path)
                # From the index alone (a shipped index may have no source beside it).
                found = frozenset(
                    p
                    for p in raised_near(store, file_tail(frame.path), frame.line, NEAR_LINES)
                    if same_file_depth(parts, path_parts((summary := _summary(store, p)).file_path))
                    and _fits(summary.error_message, self.message)
                )
            self._at_frame[part] = found
        return found


def contexts_of(
    reports: Sequence[ExceptionReport],
    mentions: Mapping[str, int],
    lean: Lean = no_lean,
) -> list[ReportContext]:
    """The context of each report, in order (``lean``: the text's, as for :meth:`of`)."""
    return [ReportContext.of(report, order, mentions, lean) for order, report in enumerate(reports)]
