"""A match and what it holds: the record, confidence, mode, captured values, evidence.

:class:`Match` is what :func:`errcat.match_error` and :func:`errcat.match_all`
return; its ``params`` name each captured value by its placeholder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from errcat.confidence import THRESHOLD
from errcat.extract import ExceptionReport
from errcat.patterns import placeholder_names
from errcat.store import RecordSummary, Store

if TYPE_CHECKING:
    from errcat.history import Lineage
    from errcat.models import ErrorRecord
    from errcat.view import RecordFields

__all__ = ["CONFIDENCE_THRESHOLD", "REGEX_TIMEOUT", "Match", "MatchMode"]


#: :func:`match_error` returns None when the best match's confidence is below this
#: (chosen from the reliability diagram of the fitted confidence model).
CONFIDENCE_THRESHOLD = THRESHOLD

#: Seconds one regex evaluation may take before it counts as no match.
REGEX_TIMEOUT = 0.05

MatchMode = Literal["full", "prefix", "inner", "truncated", "drift", "phrase", "fuzzy"]


@dataclass(frozen=True, slots=True)
class _Coverage:
    """What a match explains of its report: the message form it matched, where, how much.

    ``text`` is the message variant (whitespace folded) that the pattern
    matched, ``start``/``end`` the matched span in it, ``literal`` the
    pattern's literal characters found there, and ``agreement`` how the
    exception class compares (2 agrees, 1 unknown, 0 differs).
    """

    text: str
    start: int
    end: int
    literal: int
    agreement: int


_AGREEMENT = {"agree": 2, "custom": 2, "unknown": 1, "disagree": 0}


@dataclass(frozen=True)
class Match:
    """A record found for a piece of error text, with the evidence for it.

    ``params`` maps each placeholder expression of the record's ``errorMessage``
    to the text captured for it (whitespace folded). ``span`` is the
    ``(start, end)`` of the matched exception in the input text. ``summary``
    holds the record's matching fields; :attr:`record` reads and validates the
    whole record on first access (a large catalog is not read up front).
    """

    summary: RecordSummary
    confidence: float
    exact: bool
    mode: MatchMode
    span: tuple[int, int]
    report: ExceptionReport
    reasons: tuple[str, ...] = ()
    #: What each group of the pattern captured, in order (named by :attr:`params`).
    captures: tuple[str | None, ...] = ()
    #: The answers for the chain's other exceptions (causes, wrapped errors), nearest first.
    related: tuple[Match, ...] = ()
    #: Other records raising the same message that the evidence cannot tell from this
    #: one (no frame separates them); :attr:`confidence` is that one of them is right,
    #: kept below the threshold when they are in several projects (:mod:`.site_prior`).
    alternatives: tuple[RecordSummary, ...] = ()
    #: The confidence model's inputs, when asked for (:func:`candidates`); a fuzzy hint
    #: has its share of shared words (``fuzzy_share``, see confidence.fuzzy_probability).
    features: Mapping[str, float] | None = field(default=None, repr=False, compare=False)
    _store: Store | None = field(default=None, repr=False, compare=False)
    _position: int = field(default=-1, repr=False, compare=False)
    _rank: tuple[float, ...] = field(default=(), repr=False, compare=False)
    _coverage: _Coverage | None = field(default=None, repr=False, compare=False)

    @classmethod
    def named(
        cls,
        store: Store,
        position: int,
        report: ExceptionReport,
        *,
        confidence: float,
        whole: bool,
        reasons: tuple[str, ...],
        captures: tuple[str | None, ...] = (),
    ) -> Match:
        """An answer a rule names without scoring it (a frameless report's class or shape).

        Exact, over the report's span; ``whole``: the message is the shape alone
        (mode ``full``), else inside other text (``inner``).
        """
        return cls(
            summary=store.summary(position),
            confidence=confidence,
            exact=True,
            mode="full" if whole else "inner",
            span=(report.start, report.end),
            report=report,
            reasons=reasons,
            captures=captures,
            _store=store,
            _position=position,
        )

    @cached_property
    def params(self) -> Mapping[str, str]:
        """The captured values keyed by the placeholder expressions of ``errorMessage``."""
        return MappingProxyType(_params(self.summary, self.captures))

    @cached_property
    def record(self) -> ErrorRecord:
        """The matched record (read from its store and validated on first access)."""
        assert self._store is not None
        return self._store.record(self._position)

    @cached_property
    def view(self) -> RecordFields:
        """The matched record's shown fields, read without validating it again.

        See :mod:`errcat.view`; once :attr:`record` was read, it is that record.
        """
        if "record" in self.__dict__:
            return self.record
        assert self._store is not None
        return self._store.view(self._position)

    def __repr__(self) -> str:
        """A short form: record id, mode and confidence."""
        return (
            f"<Match {self.summary.id} {self.summary.error_class} mode={self.mode} "
            f"confidence={self.confidence:.3f}>"
        )

    @property
    def confident(self) -> bool:
        """True when this match is good enough for :func:`match_error` to return it."""
        return self.mode != "fuzzy" and self.confidence >= THRESHOLD

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the record by id; use ``record.model_dump`` for all of it)."""
        return {
            "id": self.summary.id,
            "slug": self.summary.slug,
            "repo": self.summary.repo,
            "errorClass": self.summary.error_class,
            "errorMessage": self.summary.error_message,
            "confidence": self.confidence,
            "exact": self.exact,
            "mode": self.mode,
            "params": dict(self.params),
            "span": list(self.span),
            "reasons": list(self.reasons),
            "related": [m.to_dict() for m in self.related],
            "alternatives": [
                {"id": a.id, "filePath": a.file_path, "lineNumber": a.line_number}
                for a in self.alternatives
            ],
        }

    def _to_wire(self, stores: Sequence[Store]) -> tuple[Any, ...]:
        """The match as plain values for another process holding the same catalog (batch.py).

        The record goes by its store's place in ``stores`` and its position
        there (both processes hold the same catalog); its summary, the report
        and the answers it carries travel whole. :meth:`_from_wire` reads it back.
        """
        part = next(n for n, store in enumerate(stores) if store is self._store)
        return (
            part,
            self._position,
            self.summary,
            self.confidence,
            self.exact,
            self.mode,
            self.captures,
            self.span,
            self.report,
            self.reasons,
            self._rank,
            tuple(m._to_wire(stores) for m in self.related),
            self.alternatives,
        )

    @classmethod
    def _from_wire(cls, data: tuple[Any, ...], stores: Sequence[Store]) -> Match:
        """The match :meth:`_to_wire` wrote, bound to this process's ``stores``."""
        part, position, summary, confidence, exact, mode, captures, span, report = data[:9]
        reasons, rank, related, alternatives = data[9:]
        return cls(
            summary=summary,
            confidence=confidence,
            exact=exact,
            mode=mode,
            captures=captures,
            span=span,
            report=report,
            reasons=reasons,
            related=tuple(cls._from_wire(m, stores) for m in related),
            alternatives=alternatives,
            _store=stores[part],
            _position=position,
            _rank=rank,
        )

    @property
    def history(self) -> Lineage | None:
        """When the record's message existed, if the catalog has a history (``errcat history``).

        The lineage gives the first and last revision, the record it was reworded
        from or into, and :meth:`~errcat.history.Lineage.fits` says at which
        revisions the traceback's line numbers put the raise.
        """
        from errcat.history import history_of

        known = history_of(self._store)
        return known.lineage(self.summary.id) if known is not None else None


def _params(record: RecordSummary, groups: Sequence[str | None]) -> dict[str, str]:
    names = placeholder_names(record.error_message)
    params: dict[str, str] = {}
    for index, value in enumerate(groups):
        name = names[index] if index < len(names) else str(index + 1)
        if value is None or name in params:
            continue
        params[name] = value
    return params
