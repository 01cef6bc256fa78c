"""Scoring every candidate of every report, keeping the best match per record, ranking them.

:func:`_collect` reads each report once (:mod:`errcat.matcher.context`), finds
its hits (:mod:`errcat.matcher.find`), relates them (:mod:`errcat.matcher.hits`)
and hands every candidate, and those of drifted messages
(:mod:`errcat.matcher.drift`), to one :meth:`_Collector.add`.
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from errcat._calibration import WORDLESS_SITE
from errcat.confidence import THRESHOLD, best_logit, fuzzy_probability, probability
from errcat.errors import CatalogSourceError
from errcat.evidence import FAR, path_parts, same_file_depth
from errcat.extract import ExceptionReport, extract_reports
from errcat.history import history_of
from errcat.index import Entry
from errcat.matcher.context import Lean, ReportContext, contexts_of, no_lean
from errcat.matcher.drift import _drift_candidates, _near_candidates
from errcat.matcher.evidence_memo import EvidenceMemo
from errcat.matcher.family import family_members
from errcat.matcher.find import _find_hits
from errcat.matcher.generic import CLAUSE_BITS, holds_clause
from errcat.matcher.hidden_sites import hidden_positions
from errcat.matcher.hits import Candidate, _candidates
from errcat.matcher.rank import _chain_order, _fold_ties, _lift_dominant, _lift_reported
from errcat.matcher.record_evidence import record_evidence, record_site
from errcat.matcher.result import _AGREEMENT, Match, _Coverage
from errcat.matcher.score import _FUZZY_CAP, _GENERIC_CAP, _score, may_lift, record_ceiling
from errcat.matcher.score_memo import Asked, ScoreMemo
from errcat.matcher.site_evidence import _frame_kinds, _in_other_function, _names_its_own
from errcat.matcher.site_prior import settle_sites
from errcat.matcher.spread import ShapeSpread
from errcat.matcher.summaries import summary as _summary
from errcat.matcher.text_evidence import (
    _MIN_BITS,
    TextHit,
    _is_wordless,
    _text_ceiling,
    _text_evidence,
)
from errcat.matcher.verify import _cannot_print
from errcat.patterns import GROUP
from errcat.tags import FUNCTION_TAG_PREFIX, WRAPPER_TAG
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
#: Added to a ceiling on a text's logit (:func:`_text_ceiling`) before it is compared:
#: it sums the same terms as the logit in another order, so may round below it.
_CEILING_SLACK = 1e-9
#: Taken off the floor a record's ceiling is compared with: a confidence is shown rounded
#: to three places, and one just under the threshold is confident once rounded.
_RECORD_MARGIN = 0.001
#: A candidate's records are scored once per distinct evidence (ScoreMemo) past this many.
_MEMO_RECORDS = 8
#: Why a record raised where no frame shows is weighed on its text alone.
_SILENT_FRAMES = (
    "raised in native code or the import system, which no traceback frame shows: "
    "the text alone is the evidence"
)
#: Marks a part whose history was not looked up yet.
_NO_HISTORY: Any = object()
#: The age (:meth:`_Collector.age`) of a record without a lineage: all are equal.
_NO_AGE = (float("-inf"), float("-inf"))


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
    #: The reports of the text, each read once (see :mod:`errcat.matcher.context`).
    contexts: Sequence[ReportContext] = ()
    part: int = 0
    #: The best match per record, for each report (by its position in the report list).
    best: dict[int, dict[str, Match]] = field(default_factory=dict)
    #: (report, pattern) pairs a pattern matched exactly: no drift is looked for there.
    exact: set[tuple[int, str]] = field(default_factory=set)
    #: Each report's ranked matches, once collecting is done (see :meth:`ranked_matches`).
    ranked: dict[int, list[Match]] = field(default_factory=dict)
    #: Fuzzy hints (see :meth:`add`), kept apart: listed only when nothing matched.
    hints: list[Match] = field(default_factory=list)
    _histories: dict[int, History | None] = field(default_factory=dict)
    #: Each record's raising line of code, read once per call: (part, position) -> code.
    _sources: dict[tuple[int, int], str] = field(default_factory=dict)
    #: Each report's hits in every part, by skeleton (see :mod:`errcat.matcher.spread`).
    spreads: dict[int, ShapeSpread] = field(default_factory=dict)
    #: The whole paste, whose evidence settles records of one message at several sites.
    paste: str = ""

    def statement_owners(
        self, ctx: ReportContext, records: Sequence[int]
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
        report = ctx.report
        frame = report.frames[-1]
        shown = ctx.raise_code
        if not shown:
            return frozenset(), frozenset()
        store = self.catalog.parts[self.part]
        parts = path_parts(frame.path)
        same = [
            p
            for p in records
            if same_file_depth(parts, path_parts((summary := _summary(store, p)).file_path))
            and not _in_other_function(report, summary)
            and fold_whitespace(self.raise_source(p)) == shown
        ]
        sharing = frozenset(same)
        exact = [p for p in same if _summary(store, p).line_number == frame.line]
        if exact:
            return frozenset(exact), sharing
        same = [p for p in same if _names_its_own(shown, _summary(store, p).error_class)]
        if len(same) > 1:
            tag = f"{FUNCTION_TAG_PREFIX}{frame.function}"
            same = [p for p in same if tag in _summary(store, p).tags]
        return (frozenset(same) if len(same) == 1 else frozenset()), sharing

    def rival_at_frame(self, ctx: ReportContext, position: int) -> bool:
        """Whether the raise frame sits on the raise line of another record the text fits.

        Asked only where a record's evidence needs it (see
        :func:`~errcat.matcher.record_evidence.record_evidence`): finding those
        records reads the summaries and templates of every record near the frame.
        """
        at_frame = ctx.raised_at_frame(self.part, self.catalog.parts[self.part])
        return len(at_frame) > (position in at_frame)

    def in_frame_files(self, ctx: ReportContext) -> frozenset[int]:
        """Positions (in the current store) of records whose file name a frame shows."""
        return ctx.in_frame_files(self.part, self.catalog.parts[self.part])

    def hidden_among(self, entry: Entry, only: Sequence[int] | None) -> frozenset[int]:
        """The records of ``entry`` (or of ``only``) raised where no traceback frame shows.

        Their raise site is C/C++ code or the import system's (see
        :mod:`errcat.matcher.hidden_sites`): a traceback's frames are the caller's, and
        say nothing for or against them.
        """
        hidden = hidden_positions(self.catalog.parts[self.part])
        pool = entry.record_set if only is None else frozenset(only)
        if not hidden or hidden.isdisjoint(pool):
            return frozenset()
        return hidden & pool

    def floor(self, order: int, literal: int) -> float:
        """The confidence a new match for report ``order`` must exceed to matter.

        A match with ``literal`` characters of literal text may rank above held
        matches with less (see :func:`_explains_more`): only the others count.
        """
        base = THRESHOLD if self.confident_only else 0.0
        kept = self.best.get(order)
        if kept is None or len(kept) < self.limit:
            return base  # fewer held than the limit, whatever their coverage
        held = [
            m._rank[0]
            for m in kept.values()
            if m._coverage is None or m._coverage.literal >= literal
        ]
        if len(held) < self.limit:
            return base
        # The limit-th largest (match_error asks for one: the largest).
        return max(base, max(held) if self.limit == 1 else heapq.nlargest(self.limit, held)[-1])

    def add(self, ctx: ReportContext, candidate: Candidate) -> None:
        """Score the records of a candidate's pattern and keep the best match per record.

        The one way a match is made, whatever found the candidate (see
        :class:`~errcat.matcher.hits.Candidate`): a fuzzy hint is kept with the
        hints, every other match as its record's best for the report if it beats
        the one held. With ``cap_below``, every confidence stays below the best
        held for those records (a match another explains better), but for a
        record a traceback frame shows raising it.
        """
        if candidate.hit.mode == "fuzzy":
            self._add_hint(ctx, candidate)
            return
        entry, hit, text = candidate.entry, candidate.hit, candidate.text
        report, order = ctx.report, ctx.order
        present_literal, only, cut = candidate.present_literal, candidate.only, candidate.cut
        inner, lone = candidate.inner, candidate.lone
        store = self.catalog.parts[self.part]
        cap: float | None = None
        if candidate.cap_below is not None:
            cap = max(
                (
                    m._rank[0]  # unrounded: a capped hit must not round up to a tie
                    for m in self.best.get(order, {}).values()
                    if m._store is store and any(m._position in p for p in candidate.cap_below)
                ),
                default=0.0,
            )
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
            only = sorted(pool & ctx.in_raise_file(self.part, store))
            if not only:
                return
        literal = entry.literal_length if present_literal is None else present_literal
        if hit.restored:
            literal -= 1  # the period put back is not in the text
        present = min(1.0, literal / max(1, min(entry.literal_length, _PRESENT_ENOUGH)))
        class_known = ctx.class_known
        floor = self.floor(order, literal)
        kinds = _frame_kinds(report, in_files=True)
        bare = ctx.bare
        record_best = best_logit(class_known=class_known, frame_kinds=kinds)
        # Records raised where no frame shows (C/C++ checks, the import system): the
        # frames are silent on them, so their text is weighed as a bare line's.
        hidden = self.hidden_among(entry, only) if not bare else frozenset()
        text_hit = TextHit(
            entry=entry,
            mode=mode,
            message=text,
            matched_length=hit.end - hit.start,
            captures=told,
            literal=literal,
            present=present,
            bare=bare,
            rarity=rarity,
            patterns=len(store.index.patterns),
            fragments=fragments,
        )
        # A pattern without words at a frame on a raise line answers whatever its text
        # says (WORDLESS_SITE, below): no ceiling on the text leaves it.
        if hidden:
            quiet_hit = replace(text_hit, bare=True)
            quiet_best = best_logit(class_known=class_known, frame_kinds=("none",))
        if not (wordless and "site" in kinds):
            ceiling = _text_ceiling(text_hit)
            if probability(ceiling + _CEILING_SLACK + record_best, bare=bare) < floor and not (
                hidden
                and probability(_text_ceiling(quiet_hit) + _CEILING_SLACK + quiet_best, bare=True)
                >= floor
            ):
                return  # as below, known before the text's evidence is worked out
        sites = len(only) if wordless and only is not None else self.sites(entry)
        evidence, text_reasons, c_printed = _text_evidence(
            text_hit, records=sites, error_class=report.error_class
        )
        if inner is not None:
            text_reasons.append(
                "a placeholder holds the whole message of another record"
                f" ({inner.summary.error_class}: {inner.summary.error_message}), which this"
                " one wraps"
            )
        text_reasons.extend(candidate.reasons)
        text_logit = evidence.logit()
        best = probability(text_logit + record_best, bare=bare)
        if evidence.information < _MIN_BITS and bare and lone() not in entry.record_set:
            best = min(best, _GENERIC_CAP)  # no frame can lift the cap on wordless text
        quiet, quiet_logit, quiet_top = evidence, text_logit, 0.0
        if hidden:
            quiet, _, _ = _text_evidence(quiet_hit, records=sites, error_class=report.error_class)
            quiet_logit = quiet.logit()
            quiet_top = probability(quiet_logit + quiet_best, bare=True)
            if quiet.information < _MIN_BITS and lone() not in entry.record_set:
                quiet_top = min(quiet_top, _GENERIC_CAP)
            best = max(best, quiet_top)
        if wordless and "site" in kinds:
            best = max(best, WORDLESS_SITE)  # a frame at a record's raise line answers
        if best < floor:
            return  # none of this pattern's records can make the results (exact pruning)
        records: Sequence[int] = entry.records if only is None else only
        outside = best_logit(
            class_known=class_known, frame_kinds=_frame_kinds(report, in_files=False)
        )
        if report.frames and _outside_cannot_qualify(text_logit + outside, floor):
            # Only a record raised in one of the traceback's files can make the results,
            # or a family record, raised wherever its scope is (errcat.matcher.family).
            in_files = self.in_frame_files(ctx)
            family = family_members(store, records)
            if family:
                in_files |= family
            if hidden and quiet_top >= floor:
                in_files |= hidden
            if len(in_files) < len(records):
                records = sorted(in_files.intersection(records))
            else:
                records = [p for p in records if p in in_files]
        if (
            floor < THRESHOLD
            and not wordless  # the few records of the traceback's files: all scored
            and probability(text_logit + record_best, bare=bare) < THRESHOLD
            and quiet_top < THRESHOLD
        ):
            # Only a hint: a generic pattern shared all over is sampled, not scored whole.
            records = records[:_HINT_RECORDS]
        subject_first = entry.pattern.startswith(GROUP)
        # A value the pattern's few words frame but do not explain (matcher.generic).
        clause = evidence.information < CLAUSE_BITS and holds_clause(told)
        # A raise without a message is told by its statement alone: whose is it?
        owners, sharing = (
            self.statement_owners(ctx, records)
            if wordless and not entry.pattern
            else (frozenset(), frozenset())
        )
        # A record whose confidence cannot reach the floor is left once its class and site
        # are known (the rest of its evidence, its score and match are not worked out),
        # when one answer is asked for. (Several: the floor counts held records one by one,
        # and records of one message folded into one result leave room for more; nor for
        # calibration, which reads every candidate's features.)
        prune = self.limit == 1 and not self.keep_features
        record_floor = floor - _RECORD_MARGIN
        # (Only for many records: for a few, telling their evidence apart costs what it saves.)
        scores = ScoreMemo(enabled=not self.keep_features and len(records) > _MEMO_RECORDS)
        # Without frames, records alike in class, project, tags and template have one
        # evidence (matcher.evidence_memo): worked out for the first of them.
        alike = EvidenceMemo(enabled=not report.frames and len(records) > 1 and not sharing)
        for position in records:
            summary = _summary(store, position)
            if self.catalog.hidden(self.part, summary.id):
                continue
            if captures and _cannot_print(summary.error_message, captures):
                continue  # the record's template could not have printed this text
            kind = alike.kind(summary)
            rival_at_frame = functools.partial(self.rival_at_frame, ctx, position)
            known = alike.sites.get(kind) if kind is not None else None
            if known is None:
                known = record_site(
                    record=summary,
                    ctx=ctx,
                    text=evidence,
                    lineage_of=self.lineage,
                    source_of=functools.partial(self.raise_source, position),
                    rival_at_frame=rival_at_frame,
                    wordless=wordless,
                    statement_owner=position in owners,
                )
                if kind is not None:
                    alike.sites[kind] = known
            # A record raised where no frame shows, which the frames do not reach: its
            # text is weighed as a bare line's (see hidden_among).
            silent = position in hidden and known[1].kind == "none"
            own_text, own_logit = (quiet, quiet_logit) if silent else (evidence, text_logit)
            if (
                prune
                and probability(
                    own_logit + record_ceiling(known[0], known[1].kind), bare=own_text.bare
                )
                < record_floor
                and not may_lift(summary.repo, wordless and known[1].kind == "site")
            ):
                continue
            own = alike.evidence.get(kind) if kind is not None else None
            if own is None:
                own = record_evidence(
                    record=summary,
                    ctx=ctx,
                    known=known,
                    rival_at_frame=rival_at_frame,
                    statement_owner=position in owners,
                    statement_shared=position in sharing,
                    captures=told,
                    c_printed=c_printed,
                    subject_first=subject_first,
                )
                if kind is not None:
                    alike.evidence[kind] = own
            # Records of one message at many sites (a tied group folds hundreds) mostly
            # share their evidence: what _score made of the same evidence is used again.
            # Everything else it reads is the pattern's, but whether the record is the
            # lone one of its class, which the key holds once _score asked (ScoreMemo).
            has_message = bool(summary.error_message)
            own_class = functools.partial(_is_lone, lone, position)
            scored = scores.get(own, silent, has_message, own_class)
            if scored is None:
                asked = Asked(own_class)
                scored = _score(
                    text=own_text,
                    text_logit=own_logit,
                    evidence=own,
                    reasons=[*text_reasons, _SILENT_FRAMES] if silent else text_reasons,
                    keep_features=self.keep_features,
                    wordless=wordless,
                    own_class=asked,
                    error_class=report.error_class,
                    has_message=has_message,
                    subject_first=subject_first,
                    spread=functools.partial(self.spread, order, entry),
                    clause=clause,
                )
                scores.put(own, silent, has_message, asked, scored)
            confidence, reasons, (frame_gain, closeness, engine), features = scored
            if mode == "drift" and frame_gain < 3.0:
                continue  # a drifted message answers only at its raise site
            if features is not None and inner is not None:
                features["wrapped"] = 1.0  # for the benchmarks: not one of the model's
            if (
                cap is not None
                and confidence > cap - 0.001
                and frame_gain < 3.0
                and not own.import_system  # a copy of its words explains no more of it
            ):
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
                    # Of records of equal evidence so far (one message raised by both
                    # engines), the one of the engine the paste comes from.
                    engine,
                    -order,
                    *self.age(summary.id, cut.records if cut is not None else entry.record_set),
                    -position,
                ),
                _coverage=_Coverage(text, hit.start, hit.end, literal, agreement),
            )
            if self.keep(order, match) and prune:
                # The floor is now at least this match (of the same literal text).
                record_floor = max(record_floor, confidence - _RECORD_MARGIN)

    def spread(self, order: int, entry: Entry) -> int:
        """How many projects of the whole catalog raise ``entry``'s shape in report ``order``."""
        found = self.spreads.get(order)
        return 1 if found is None else found.repos(entry)

    def history(self) -> History | None:
        """The history of the current part, looked up once."""
        history = self._histories.get(self.part, _NO_HISTORY)
        if history is _NO_HISTORY:
            history = self._histories[self.part] = history_of(self.catalog.parts[self.part])
        return history  # type: ignore[no-any-return]

    def raise_source(self, position: int) -> str:
        """The raising line of code of the current part's record at ``position``.

        Empty when the record's source cannot be read (a stored index shipped
        without it, as to Spark executors): that evidence is then not used. Read
        once per call (several stages of one match ask for the same record's).
        """
        key = (self.part, position)
        found = self._sources.get(key)
        if found is None:
            from errcat.view import raise_source

            try:
                found = raise_source(self.catalog.parts[self.part].view(position))
            except CatalogSourceError:
                found = ""
            self._sources[key] = found
        return found

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
            lineage = history.lineage(_summary(store, position).id)
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
            return _NO_AGE
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

    def _add_hint(self, ctx: ReportContext, candidate: Candidate) -> None:
        """Keep a fuzzy hint for each record of the candidate's pattern (none hidden)."""
        store = self.catalog.parts[self.part]
        entry, report = candidate.entry, ctx.report
        confidence = fuzzy_probability(candidate.share, _FUZZY_CAP)
        for position in entry.records:
            summary = _summary(store, position)
            if self.catalog.hidden(self.part, summary.id):
                continue
            self.hints.append(
                Match(
                    summary=summary,
                    confidence=round(confidence, 3),
                    exact=False,
                    mode="fuzzy",
                    span=(report.start, report.end),
                    report=report,
                    reasons=candidate.reasons,
                    features={"fuzzy_share": candidate.share},
                    _store=store,
                    _position=position,
                    _rank=(
                        confidence,
                        0.0,
                        -FAR,
                        entry.literal_length,
                        0,
                        -ctx.order,
                        0.0,
                        0.0,
                        -position,
                    ),
                )
            )

    def ranked_matches(self, order: int) -> list[Match]:
        """A report's matches, best first, each group of indistinguishable records folded.

        Records of one message at several sites tied at the top are settled by the
        paste's evidence, or kept from a confident answer when it shows none
        (:mod:`errcat.matcher.site_prior`). Called once collecting is done; the
        result is kept (match_all asks twice).
        """
        ranked = self.ranked.get(order)
        if ranked is None:
            held = _lift_reported(_lift_dominant(list(self.best.get(order, {}).values())))
            ranked = _fold_ties(sorted(held, key=lambda m: m._rank, reverse=True))
            ranked = settle_sites(ranked, self.paste, self.catalog.parts)
            self.ranked[order] = ranked
        return ranked

    def answer(self) -> Match | None:
        """The answer for the exception that ended the text, with the chain's other answers.

        A wrapper's record (tagged :data:`~errcat.tags.WRAPPER_TAG`) answers only when
        the paste holds no confident record of anything else: the nearest such cause
        earlier in the paste answers instead (for one inside the wrapper's own
        message see :func:`_unwrap`), and the wrapper is listed with the related answers.
        Nor does it answer a paste whose traceback was cut before its exception line
        (:func:`_beside_a_cut_traceback`): the cause is that exception, not in the paste.
        """
        answers: list[Match] = []
        seen: set[str] = set()
        for order in _chain_order([ctx.report for ctx in self.contexts]):
            ranked = self.ranked_matches(order)
            if ranked and _beside_a_cut_traceback(ranked[0]):
                continue
            if ranked and ranked[0].confident and ranked[0].summary.id not in seen:
                seen.add(ranked[0].summary.id)
                answers.append(ranked[0])
        if not answers:
            return None
        cause = next((m for m in answers if not _is_wrapper(m)), answers[0])
        related = tuple(m for m in answers if m is not cause)
        if not related and not cause.related:
            return cause  # the same match: no copy needed
        return replace(cause, related=related)

    def keep(self, order: int, match: Match) -> bool:
        """Hold ``match`` as its record's best for report ``order`` if it is; whether it is."""
        held = self.best.setdefault(order, {})
        current = held.get(match.summary.id)
        if current is None or match._rank > current._rank:
            held[match.summary.id] = match
            return True
        return False


def _collect(
    reports: Sequence[ExceptionReport],
    catalog: Catalog,
    limit: int,
    *,
    confident_only: bool = False,
    keep_features: bool = False,
    mentions: Mapping[str, int] = MappingProxyType({}),
    lean: Lean = no_lean,
    paste: str = "",
) -> _Collector:
    """Every report's matches in every part of the catalog, best per record (:class:`_Collector`).

    Exact hits first, part by part; then, for a report without a confident
    match, the records at its frames that its drifted message is near. ``paste``
    is the whole text the reports come from (see :meth:`_Collector.ranked_matches`).
    """
    contexts = contexts_of(reports, mentions, lean)
    collector = _Collector(catalog, limit, confident_only, keep_features, contexts, paste=paste)
    indexes = [store.index for store in catalog.parts]
    found = [
        _find_hits(indexes, ctx, collector.exact, _raise_files(ctx, catalog)) for ctx in contexts
    ]
    for ctx, hits in zip(contexts, found, strict=True):
        collector.spreads[ctx.order] = ShapeSpread(catalog.parts, hits)
    for part, store in enumerate(catalog.parts):
        collector.part = part
        for ctx, hits in zip(contexts, found, strict=True):
            for candidate in _candidates(ctx.report, hits[part], store):
                collector.add(ctx, candidate)
    for ctx in contexts:
        if any(m.confident for m in collector.best.get(ctx.order, {}).values()):
            continue
        for part, store in enumerate(catalog.parts):
            collector.part = part
            in_files = collector.in_frame_files(ctx) if ctx.report.frames else frozenset()
            for candidate in _drift_candidates(ctx, store, in_files, collector.exact):
                collector.add(ctx, candidate)
    return collector


def _raise_files(ctx: ReportContext, catalog: Catalog) -> list[Callable[[], frozenset[int]]] | None:
    """Each part's records in the report's raise file, when asked (None: no frames).

    Patterns without words answer a traceback only there (:meth:`_Collector.add`):
    :func:`~errcat.matcher.find._find_hits` sets aside those no record there uses.
    """
    if not ctx.report.frames:
        return None
    parts = catalog.parts
    return [functools.partial(ctx.in_raise_file, part, store) for part, store in enumerate(parts)]


def _hints(collector: _Collector, limit: int) -> list[Match]:
    """Fuzzy hints for every report (near records, never confident), best first."""
    for ctx in collector.contexts:
        for part, store in enumerate(collector.catalog.parts):
            collector.part = part
            for candidate in _near_candidates(ctx, store, limit):
                collector.add(ctx, candidate)
    return sorted(collector.hints, key=lambda m: m._rank, reverse=True)


def _is_lone(lone: Callable[[], int | None], position: int) -> bool:
    """Whether the record at ``position`` is the lone record of the report's own class."""
    return position == lone()


def _is_wrapper(match: Match) -> bool:
    return WRAPPER_TAG in match.summary.tags


def _beside_a_cut_traceback(match: Match) -> bool:
    """Whether a wrapper's match is in text that holds a traceback cut before its exception.

    A text report carries frames only then (an access-log line ``... 500 Internal
    Server Error`` above ``Traceback ...`` frames whose exception line the paste
    lost): the wrapper says an error happened, the frames say which, and neither
    is the answer.
    """
    return _is_wrapper(match) and match.report.kind == "text" and bool(match.report.frames)


def _unwrap(
    answer: Match | None,
    catalog: Catalog,
    lean: Lean = no_lean,
    paste: str = "",
) -> Match | None:
    """A wrapper's answer replaced by the record of the error its own message holds, if any.

    ``Capture cuda graph failed: CUDA out of memory. ...`` is answered by the out
    of memory record (the wrapper is kept in :attr:`Match.related`): the text its
    placeholders captured, else the message after its opening literal, is matched
    on its own, from the engine the whole paste leans to (``lean``).
    """
    if answer is None or not _is_wrapper(answer):
        return answer
    texts = sorted((c for c in answer.captures if c), key=len, reverse=True)
    lead = answer.summary.error_message.split("{", 1)[0]
    message = answer.report.message
    if not texts and lead and message.startswith(lead) and len(message) > len(lead):
        texts = [message[len(lead) :]]
    for text in texts:
        found = _collect(
            extract_reports(text), catalog, 1, confident_only=True, lean=lean, paste=paste or text
        ).answer()
        if found is not None and not _is_wrapper(found):
            return replace(found, related=(answer, *answer.related))
    return answer
