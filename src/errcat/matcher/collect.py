"""Scoring every record of every hit of a report, and keeping the best match per record."""

from __future__ import annotations

import functools
import heapq
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from errcat._calibration import WORDLESS_SITE
from errcat.confidence import THRESHOLD, best_logit, probability
from errcat.errors import CatalogSourceError
from errcat.evidence import NEAR_LINES, FrameView, path_parts, same_file_depth
from errcat.extract import ExceptionReport
from errcat.index import Entry
from errcat.matcher.classes import _raised_as_reported
from errcat.matcher.find import _Found
from errcat.matcher.hits import (
    _compositions,
    _cut_groups,
    _cut_key,
    _CutGroup,
    _dominated,
    _Inner,
    _lone_own_class,
    _nearest,
    _present,
)
from errcat.matcher.record_evidence import record_evidence
from errcat.matcher.result import _AGREEMENT, Match, _Coverage
from errcat.matcher.score import _GENERIC_CAP, _score
from errcat.matcher.site_evidence import _fits, _frame_kinds, _in_other_function, _names_its_own
from errcat.matcher.text_evidence import _MIN_BITS, _is_wordless, _text_evidence
from errcat.matcher.verify import _Hit, _spaced_name
from errcat.store import file_tail
from errcat.tags import FUNCTION_TAG_PREFIX
from errcat.text import fold_whitespace

if TYPE_CHECKING:
    from errcat.catalog import Catalog
    from errcat.history import History, Lineage


#: A cut-off message that holds this many literal characters of a pattern holds
#: enough of it: issue titles and clipped log lines keep a long message's opening
#: only, and what is cut after it says nothing about whose message it is. (In
#: the corpus, truncated answers with 40+ literal characters are right 90-100% of
#: the time whatever share of the pattern they hold.)
_PRESENT_ENOUGH = 40
#: match_all lists low-confidence hints from at most this many records of one pattern.
_HINT_RECORDS = 64
#: Marks a part whose history was not looked up yet.
_NO_HISTORY: Any = object()


def _outside_cannot_qualify(best_outside_logit: float, floor: float) -> bool:
    """Whether records raised outside the traceback's files all fall below ``floor``."""
    return probability(best_outside_logit, bare=False) < floor


@dataclass
class _Collector:
    catalog: Catalog
    #: How many results the caller wants per report: a pattern that cannot reach
    #: the ``limit``-th best confidence so far is skipped without scoring its records.
    limit: int
    #: match_error only returns a confident match: lower ones need not be scored.
    confident_only: bool = False
    #: Keep each match's features (for calibration and ``Match.features``).
    keep_features: bool = False
    #: The words of the whole text, for the project names it mentions.
    mentions: Mapping[str, int] = field(default_factory=dict)
    part: int = 0
    #: The best match per record, for each report (by its position in the report list).
    best: dict[int, dict[str, Match]] = field(default_factory=dict)
    #: (report, pattern) pairs a pattern matched exactly: no drift is looked for there.
    exact: set[tuple[int, str]] = field(default_factory=set)
    #: Each report's ranked matches, once collecting is done (see _ranked).
    ranked: dict[int, list[Match]] = field(default_factory=dict)
    _views: dict[int, FrameView] = field(default_factory=dict)
    _in_files: dict[tuple[int, int], frozenset[int]] = field(default_factory=dict)
    _histories: dict[int, History | None] = field(default_factory=dict)
    _at_frame: dict[tuple[int, int], frozenset[int]] = field(default_factory=dict)

    def frame_view(self, report: ExceptionReport) -> FrameView:
        """The report's frames, indexed once per report."""
        view = self._views.get(id(report))
        if view is None:
            view = self._views[id(report)] = FrameView(report.frames)
        return view

    def raised_at_frame(self, report: ExceptionReport) -> frozenset[int]:
        """Records (current store) raised within a few lines of the raise frame that fit the text.

        A raise frame that sits on another record's raise statement is that
        record's statement: no other record's code or function can claim it.
        """
        key = (self.part, id(report))
        found = self._at_frame.get(key)
        if found is None:
            found = frozenset()
            if report.frames and report.message:
                frame = report.frames[-1]
                store = self.catalog.parts[self.part]
                parts = path_parts(frame.path)
                text = fold_whitespace(report.message)
                # From the index alone (a shipped index may have no source beside it).
                found = frozenset(
                    p
                    for p in store.records_in_file(file_tail(frame.path))
                    if abs((summary := store.summary(p)).line_number - frame.line) <= NEAR_LINES
                    and same_file_depth(parts, path_parts(summary.file_path))
                    and _fits(summary.error_message, text)
                )
            self._at_frame[key] = found
        return found

    def statement_owners(
        self, report: ExceptionReport, records: Sequence[int]
    ) -> tuple[frozenset[int], frozenset[int]]:
        """Of ``records`` (raised without a message), those the raise frame's statement names.

        Also (second) all those whose statement the frame prints, named or not: when
        none is named, they are the likeliest hints.

        The records in the frame's file and function (when both are known) whose
        raising statement is the one the frame prints: the one at the frame's
        very line if there is one; else, when the statement names something of
        its own (:func:`_names_its_own`), the one such record, or the one of them
        the frame's function raises. Several left (``assert x.shape == y.shape``
        written in seven methods of one file) is no statement's: none is named.
        """
        frame = report.frames[-1]
        shown = fold_whitespace(frame.source)
        if not shown:
            return frozenset(), frozenset()
        store = self.catalog.parts[self.part]
        parts = path_parts(frame.path)
        same = [
            p
            for p in records
            if same_file_depth(parts, path_parts((summary := store.summary(p)).file_path))
            and not _in_other_function(report, summary)
            and fold_whitespace(self.raise_source(p)) == shown
        ]
        sharing = frozenset(same)
        exact = [p for p in same if store.summary(p).line_number == frame.line]
        if exact:
            return frozenset(exact), sharing
        same = [p for p in same if _names_its_own(shown, store.summary(p).error_class)]
        if len(same) > 1:
            tag = f"{FUNCTION_TAG_PREFIX}{frame.function}"
            same = [p for p in same if tag in store.summary(p).tags]
        return (frozenset(same) if len(same) == 1 else frozenset()), sharing

    def in_frame_files(self, report: ExceptionReport) -> frozenset[int]:
        """Positions (in the current store) of records whose file name a frame shows."""
        key = (self.part, id(report))
        found = self._in_files.get(key)
        if found is None:
            store = self.catalog.parts[self.part]
            names = self.frame_view(report).by_name
            found = frozenset(p for name in names for p in store.records_in_file(name))
            self._in_files[key] = found
        return found

    def floor(self, order: int, literal: int) -> float:
        """The confidence a new match for report ``order`` must exceed to matter.

        A match with ``literal`` characters of literal text may rank above held
        matches with less (see :func:`_explains_more`): only the others count.
        """
        base = THRESHOLD if self.confident_only else 0.0
        held = [
            m._rank[0]
            for m in self.best.get(order, {}).values()
            if m._coverage is None or m._coverage.literal >= literal
        ]
        if len(held) < self.limit:
            return base
        return max(base, heapq.nlargest(self.limit, held)[-1])

    def add(
        self,
        *,
        entry: Entry,
        report: ExceptionReport,
        order: int,
        hit: _Hit,
        text: str,
        present_literal: int | None = None,
        only: Sequence[int] | None = None,
        extra_reasons: Sequence[str] = (),
        cap: float | None = None,
        cut: _CutGroup | None = None,
        inner: _Inner | None = None,
        lone: int | None = None,
    ) -> None:
        """Score the records of ``entry`` for a hit and keep the best per record.

        With ``cap``, every confidence stays below it (a match another explains better),
        but for a record a traceback frame shows raising it. ``cut``: the patterns
        a cut-off text fits as well as this one (see :func:`_cut_groups`).
        ``inner``: one of the hit's captures is another pattern's whole message
        (a wrapper's placeholder holding the error it wraps); the hit explains the
        literal text of both, for the records in ``only``. ``lone``: the one record
        of the report's module-qualified class that fits the text (see
        :func:`_lone_own_class`), which few words do not hold down.
        """
        mode = hit.mode
        captures = told = hit.groups
        fragments: tuple[str, ...] | None = None
        rarity = cut.rarity if cut is not None else None
        if inner is not None:
            # The held message's values are captures; its literal text is explained.
            told = (*captures[: inner.group], *inner.groups, *captures[inner.group + 1 :])
            fragments = (*entry.fragments, *inner.entry.fragments)
            rarity = min((r for r in (entry.rarity, inner.entry.rarity) if r), default=0)
            present_literal = entry.literal_length + inner.entry.literal_length
        wordless = _is_wordless(entry)
        if wordless:
            # Text proves nothing here: only a record in the raise frame's file can be it.
            if not report.frames:
                return
            pool = entry.record_set if only is None else frozenset(only)
            in_file = self.catalog.parts[self.part].records_in_file(
                file_tail(report.frames[-1].path)
            )
            only = sorted(pool.intersection(in_file))
            if not only:
                return
        literal = entry.literal_length if present_literal is None else present_literal
        if hit.restored:
            literal -= 1  # the period put back is not in the text
        evidence, text_reasons, c_printed = _text_evidence(
            entry=entry,
            mode=mode,
            message=text,
            matched_length=hit.end - hit.start,
            captures=told,
            literal=literal,
            present=min(1.0, literal / max(1, min(entry.literal_length, _PRESENT_ENOUGH))),
            bare=not report.frames,
            records=len(only) if wordless and only is not None else self.sites(entry),
            error_class=report.error_class,
            rarity=rarity,
            patterns=len(self.catalog.parts[self.part].index.patterns),
            fragments=fragments,
        )
        if inner is not None:
            text_reasons.append(
                "a placeholder holds the whole message of another record"
                f" ({inner.summary.error_class}: {inner.summary.error_message}), which this"
                " one wraps"
            )
        text_reasons.extend(extra_reasons)
        text_logit = evidence.logit()
        class_known = report.error_class is not None and report.kind != "text"
        floor = self.floor(order, literal)
        kinds = _frame_kinds(report, in_files=True)
        bare = not report.frames
        best = probability(
            text_logit + best_logit(class_known=class_known, frame_kinds=kinds), bare=bare
        )
        if evidence.information < _MIN_BITS and bare and lone not in entry.record_set:
            best = min(best, _GENERIC_CAP)  # no frame can lift the cap on wordless text
        if wordless and "site" in kinds:
            best = max(best, WORDLESS_SITE)  # a frame at a record's raise line answers
        if best < floor:
            return  # none of this pattern's records can make the results (exact pruning)
        store = self.catalog.parts[self.part]
        frames = self.frame_view(report)
        records: Sequence[int] = entry.records if only is None else only
        outside = best_logit(
            class_known=class_known, frame_kinds=_frame_kinds(report, in_files=False)
        )
        if report.frames and _outside_cannot_qualify(text_logit + outside, floor):
            # Only a record raised in one of the traceback's files can make the results.
            in_files = self.in_frame_files(report)
            if len(in_files) < len(records):
                records = sorted(in_files.intersection(records))
            else:
                records = [p for p in records if p in in_files]
        if (
            floor < THRESHOLD
            and not wordless  # the few records of the traceback's files: all scored
            and probability(
                text_logit + best_logit(class_known=class_known, frame_kinds=kinds), bare=bare
            )
            < THRESHOLD
        ):
            # Only a hint: a generic pattern shared all over is sampled, not scored whole.
            records = records[:_HINT_RECORDS]
        at_frame = self.raised_at_frame(report)
        # A raise without a message is told by its statement alone: whose is it?
        owners, sharing = (
            self.statement_owners(report, records)
            if wordless and not entry.pattern
            else (frozenset(), frozenset())
        )
        for position in records:
            summary = store.summary(position)
            if self.catalog.hidden(self.part, summary.id):
                continue
            if captures and _spaced_name(summary.error_message, captures):
                continue  # the record's template could not have printed this text
            own = record_evidence(
                record=summary,
                report=report,
                frames=frames,
                text=evidence,
                mentions=self.mentions,
                lineage_of=self.lineage,
                source_of=functools.partial(self.raise_source, position),
                rival_at_frame=len(at_frame) > (position in at_frame),
                wordless=wordless,
                statement_owner=position in owners,
                statement_shared=position in sharing,
                captures=told,
                c_printed=c_printed,
            )
            confidence, reasons, (frame_gain, closeness), features = _score(
                text=evidence,
                text_logit=text_logit,
                evidence=own,
                reasons=text_reasons,
                keep_features=self.keep_features,
                wordless=wordless,
                own_class=position == lone,
                error_class=report.error_class,
                has_message=bool(summary.error_message),
            )
            if mode == "drift" and frame_gain < 3.0:
                continue  # a drifted message answers only at its raise site
            if features is not None and inner is not None:
                features["wrapped"] = 1.0  # for the benchmarks: not one of the model's
            if cap is not None and confidence > cap - 0.001 and frame_gain < 3.0:
                confidence = max(0.0, cap - 0.001)
            agreement = _AGREEMENT.get(own.state, 1)
            match = Match(
                summary=summary,
                confidence=round(confidence, 3),
                exact=mode not in ("truncated", "drift"),
                mode=mode,  # type: ignore[arg-type]
                captures=captures,
                span=(report.start, report.end),
                report=report,
                reasons=tuple(reasons),
                features=MappingProxyType(features) if features is not None else None,
                _store=store,
                _position=position,
                _rank=(
                    confidence,
                    frame_gain,
                    closeness,
                    # A pattern the message matches as it is ranks above one it matches
                    # only with a final period put back.
                    (literal if mode == "truncated" else entry.literal_length) - 1.5 * hit.restored,
                    -order,
                    *self.age(summary.id, cut.records if cut is not None else entry.record_set),
                    -position,
                ),
                _coverage=_Coverage(text, hit.start, hit.end, literal, agreement),
            )
            self.keep(order, match)

    def history(self) -> History | None:
        """The history of the current part, looked up once."""
        history = self._histories.get(self.part, _NO_HISTORY)
        if history is _NO_HISTORY:
            from errcat.history import history_of

            history = self._histories[self.part] = history_of(self.catalog.parts[self.part])
        return history  # type: ignore[no-any-return]

    def raise_source(self, position: int) -> str:
        """The raising line of code of the current part's record at ``position``.

        Empty when the record's source cannot be read (a stored index shipped
        without it, as to Spark executors): that evidence is then not used.
        """
        from errcat.view import raise_source

        try:
            return raise_source(self.catalog.parts[self.part].view(position))
        except CatalogSourceError:
            return ""

    def lineage(self, record_id: str) -> Lineage | None:
        """A record's lineage in the current part's history (None without one)."""
        history = self.history()
        return history.lineage(record_id) if history is not None else None

    def sites(self, entry: Entry) -> int:
        """How many places raise the entry's pattern: its records, old ones left out.

        In a history catalog a message that moved keeps a record where it was
        raised before; while it is raised somewhere still, those old records
        are the same message, not other sites sharing it.
        """
        records = entry.records
        history = self.history() if len(records) > 1 else None
        if history is None:
            return len(records)
        store = self.catalog.parts[self.part]
        current = 0
        for position in records:
            lineage = history.lineage(store.summary(position).id)
            current += lineage is None or lineage.status == "current"
        return current or len(records)

    def age(self, record_id: str, kin: AbstractSet[int]) -> tuple[float, float]:
        """How long the record's message was raised, then how lately: a tie-break, more first.

        Of identical messages raised at several sites (a project's message and
        its copies in a fork or a sibling package), the one raised over the
        longest span of revisions has been out longest, so the most pastes are
        of it. A message that moved is one message over all the sites its
        history links among ``kin`` (the records of its pattern, or of every
        pattern a cut-off text fits: a rewording the text shows is another
        message), and of those records the newest is the one to answer
        with: the code as it is now, with the history's note on where it was.
        Without a history, all are equal.
        """
        history = self.history()
        lineage = history.lineage(record_id) if history is not None else None
        if history is None or lineage is None:
            return (float("-inf"), float("-inf"))
        store = self.catalog.parts[self.part]
        first, last = lineage.first.date, lineage.last.date
        seen = {record_id}
        for step in ("predecessor", "successor"):
            link = lineage
            while (other := getattr(link, step)) is not None and other not in seen:
                seen.add(other)
                position = store.position_of(other)
                found = history.lineage(other)
                if found is None or position is None or position not in kin:
                    break
                link = found
                first, last = min(first, link.first.date), max(last, link.last.date)
        return ((last - first).total_seconds(), lineage.last.date.timestamp())

    def keep(self, order: int, match: Match) -> None:
        held = self.best.setdefault(order, {})
        current = held.get(match.summary.id)
        if current is None or match._rank > current._rank:
            held[match.summary.id] = match


def _add_hits(
    collector: _Collector, report: ExceptionReport, order: int, hits: Sequence[_Found]
) -> None:
    """Score a report's hits; a dominated one (see :func:`_dominated`) never outranks its betters.

    Its confidence is capped just below the best of the patterns that explain
    more (nothing, when those were too weak to be kept), except for a record
    a traceback frame shows raising it: a frame at the raise line outweighs the
    wording. A wrapper whose placeholder holds another hit's whole message (see
    :func:`_compositions`) explains the literal text of both, for its records of
    the inner record's project and file, nearest to it (see :func:`_nearest`);
    the inner pattern is then one it explains better. Not when one pattern
    explains as much literal text as the two together.
    """
    store = collector.catalog.parts[collector.part]
    dominated = _dominated(hits)
    cut_groups = _cut_groups(hits)
    wrapped: dict[int, tuple[_Inner, list[int]]] = {}
    composed = _compositions(hits, store, store.index.uses_pieces)
    lone = _lone_own_class(report, hits, store)
    for w, (i, inner, repos) in composed.items():
        # Each may hold the other's message: the one raised as the report's class is
        # the wrapper (``composed[i]`` holds this hit's record); neither or both, and
        # nothing tells.
        if (
            i in composed
            and composed[i][0] == w
            and (
                _raised_as_reported(report, inner.summary)
                or not _raised_as_reported(report, composed[i][1].summary)
            )
        ):
            continue
        if any(
            found.hit.mode == "full"
            and found.text == hits[w].text
            and found.literal >= hits[w].literal + inner.entry.literal_length
            for found in hits
        ):
            continue  # one pattern explains as much as the two together
        own = _nearest(
            [p for p in hits[w].entry.records if store.summary(p).repo in repos], inner, store
        )
        if own:
            wrapped[w] = (inner, own)
            dominated.setdefault(i, []).append(hits[w].entry)

    def add(
        found: _Found,
        cap: float | None = None,
        reasons: tuple[str, ...] = (),
        wrapping: tuple[_Inner, list[int]] | None = None,
    ) -> None:
        inner, only = wrapping if wrapping is not None else (None, None)
        collector.add(
            entry=found.entry,
            report=report,
            order=order,
            hit=found.hit if inner is None else inner.wrapper_hit,
            text=found.text,
            present_literal=_present(found),
            only=only,
            cap=cap,
            extra_reasons=reasons,
            cut=cut_groups.get(_cut_key(found)),
            inner=inner,
            lone=lone,
        )

    for w, wrapping in wrapped.items():
        if w not in dominated:
            add(hits[w], wrapping=wrapping)
    for i, found in enumerate(hits):
        if i not in dominated:
            add(found)
    held = collector.best.get(order, {})
    for i, betters in dominated.items():
        found = hits[i]
        positions = [e.record_set for e in betters]
        store = collector.catalog.parts[collector.part]
        cap = max(
            (
                m._rank[0]  # unrounded: a capped hit must not round up to a tie
                for m in held.values()
                if m._store is store and any(m._position in p for p in positions)
            ),
            default=0.0,
        )
        add(found, cap, ("a longer pattern explains more of this message",))
