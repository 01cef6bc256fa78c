"""How a report's hits relate: which one another explains better, which wraps another's message."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from errcat.extract import ExceptionReport
from errcat.index import Entry
from errcat.matcher.classes import _class_state, _module_qualified, _raised_as_reported
from errcat.matcher.find import _INNER_MIN, _Found
from errcat.matcher.result import REGEX_TIMEOUT
from errcat.matcher.summaries import class_may_end
from errcat.matcher.summaries import summary as _summary
from errcat.matcher.text_evidence import _is_wordless
from errcat.matcher.verify import _Hit
from errcat.patterns import GROUP, compile_pattern, pieces_fullmatch
from errcat.store import RecordSummary, Store


def _dominated(hits: Sequence[_Found]) -> dict[int, list[Entry]]:
    """The hits another pattern explains better, with the patterns that do.

    A ``prefix`` or ``inner`` hit leaves part of the message unexplained, and a
    ``full`` or ``truncated`` one may owe its match to a placeholder that
    swallowed the rest; when another pattern's hit on the same text covers its
    whole span with more of its own literal text (``Worker failed`` against
    ``Worker failed with error '{e}', ...`` cut off; ``TP {n}`` against ``TP
    rank {r} could finish ...`` cut off), the one with less cannot be the
    likelier record. Two full matches are left to the confidence (which weighs
    the share explained).
    """
    out: dict[int, list[Entry]] = {}
    # Most literal text first: a hit is compared only with those that hold more.
    ranked = sorted(hits, key=lambda found: -found.literal)
    for i, weak in enumerate(hits):
        for strong in ranked:
            if strong.literal <= weak.literal:
                break
            if weak.hit.mode == "full" and strong.hit.mode == "full":
                continue
            if (
                strong.text == weak.text
                and strong.hit.start <= weak.hit.start
                and strong.hit.end >= weak.hit.end
                and strong.entry.pattern != weak.entry.pattern
            ):
                out.setdefault(i, []).append(strong.entry)
    return out


def worded_over_whole(hits: Sequence[_Found]) -> dict[int, list[Entry]]:
    r"""The hits of patterns that are all placeholder, with the other patterns that hit the report.

    A pattern without a word of its own outside its captures (``'(\w+)'``:
    :attr:`~errcat.index.Entry.whole`) fits any quoted word; where another
    pattern fits the report's message too, that one says more of it, so the
    all-placeholder hit ranks below it (see :func:`_candidates`; a frame at its
    raise site still outweighs the wording).

    >>> from errcat.matcher.verify import _Hit
    >>> def found(pattern: str) -> _Found:
    ...     return _Found(Entry.build(pattern, (0,)), _Hit("full", (), 0, 5), "'zq'", 2)
    >>> hits = [found(r"'(\w+)'"), found(r"'(\w+)' zqa"), found("(.+?)")]
    >>> {i: [e.pattern for e in betters] for i, betters in worded_over_whole(hits).items()}
    {0: ["'(\\w+)' zqa"], 2: ["'(\\w+)' zqa"]}
    """
    worded = [found.entry for found in hits if not found.entry.whole]
    if not worded:
        return {}
    return {i: worded for i, found in enumerate(hits) if found.entry.whole}


@dataclass(frozen=True, slots=True)
class _Inner:
    """Another pattern's whole message, held by capture ``group`` of a wrapper's hit."""

    group: int
    entry: Entry
    #: The wrapper's hit with its captures split around the inner message, and the
    #: inner message's own captures.
    wrapper_hit: _Hit
    groups: tuple[str | None, ...]
    #: One of its records, named in the wrapper's reasons.
    summary: RecordSummary


#: A wrapper pattern shared by more records than this is not read for the error it
#: wraps (generic, ``{a}: {b}``: its projects would be read for every message).
_WRAPPER_RECORDS = 64
#: The records of an inner pattern whose projects are read (a pattern shared wider
#: than this is generic: no project can be told from it).
_INNER_RECORDS = 16


def _wrapping(
    wrapper: Entry, group: int, inner: Entry, text: str, *, use_pieces: bool = True
) -> tuple[_Hit, tuple[str | None, ...]] | None:
    """``text`` as ``wrapper`` with capture ``group`` holding the whole of ``inner``'s message.

    Returns the wrapper's hit and the inner message's captures. The wrapper's own
    hit may split the text elsewhere (``{exc} in {ip_str!r}`` stops its first
    capture at the first `` in ``): the two patterns are matched as one, so the
    split is the one that makes the inner message whole. Two literal-and-group
    patterns are joined piece by piece (no regex to compile); others as regexes.
    """
    if use_pieces and wrapper.pieces is not None and inner.pieces is not None:
        return _wrapping_pieces(wrapper.pieces, group, inner.pieces, text)
    parts = wrapper.pattern.split(GROUP)
    if len(parts) != wrapper.groups + 1:
        return None
    combined = (
        GROUP.join(parts[: group + 1]) + f"({inner.pattern})" + GROUP.join(parts[group + 1 :])
    )
    try:
        m = compile_pattern(combined).full.fullmatch(text, timeout=REGEX_TIMEOUT)
    except (TimeoutError, ValueError):  # InvalidPatternError is a ValueError
        return None
    if m is None:
        return None
    found: tuple[str | None, ...] = m.groups()
    end = group + 1 + inner.groups
    return _Hit("full", (*found[: group + 1], *found[end:]), 0, len(text)), found[group + 1 : end]


def _wrapping_pieces(
    outer: tuple[str, ...], group: int, inner: tuple[str, ...], text: str
) -> tuple[_Hit, tuple[str | None, ...]] | None:
    """:func:`_wrapping` for two patterns given as literal pieces around their groups."""
    if len(inner) == 1:
        middle: tuple[str, ...] = (outer[group] + inner[0] + outer[group + 1],)
    else:
        middle = (outer[group] + inner[0], *inner[1:-1], inner[-1] + outer[group + 1])
    found = pieces_fullmatch((*outer[:group], *middle, *outer[group + 2 :]), text)
    if found is None:
        return None
    held = found[group : group + len(inner) - 1]
    # The inner message as the text holds it: its pieces matched literally.
    whole = inner[0] + "".join(value + piece for value, piece in zip(held, inner[1:], strict=True))
    outside = (*found[:group], whole, *found[group + len(inner) - 1 :])
    return _Hit("full", outside, 0, len(text)), held


def _compositions(
    hits: Sequence[_Found], store: Store, use_pieces: bool
) -> dict[int, tuple[int, _Inner, frozenset[str]]]:
    """The hits whose capture is another hit's pattern's whole message: the errors they wrap.

    ``ipaddress.AddressValueError: Only hex digits permitted in 'axy' in
    '1234:axy::b'`` is ``{exc} in {ip_str!r}`` wrapping the message of
    ``Only hex digits permitted in {hextet_str!r}``: the inner pattern matches
    the whole text too (its last placeholder swallows the rest), but the wrapper
    explains the literal text of both. Maps a wrapper hit's index to (the inner
    hit's index, the inner message, the inner pattern's projects); only the
    inner pattern with the most literal text counts.
    """
    out: dict[int, tuple[int, _Inner, frozenset[str]]] = {}
    for w, wrapper in enumerate(hits):
        if wrapper.hit.mode != "full" or wrapper.hit.restored:
            continue
        if (
            len(wrapper.entry.records) > _WRAPPER_RECORDS
            or not wrapper.entry.groups
            or _is_wordless(wrapper.entry)  # ``{msg}``: only a frame tells (see _Collector.add)
        ):
            continue
        best: tuple[int, _Inner] | None = None
        for i, inner in enumerate(hits):
            if (
                i == w
                or inner.text != wrapper.text
                or inner.entry.pattern == wrapper.entry.pattern
                or inner.hit.mode == "truncated"
                or inner.entry.literal_length < _INNER_MIN
                or len(inner.entry.records) > _INNER_RECORDS
                or (best is not None and inner.literal <= hits[best[0]].literal)
            ):
                continue
            for g in range(wrapper.entry.groups):
                held = _wrapping(wrapper.entry, g, inner.entry, wrapper.text, use_pieces=use_pieces)
                if held is not None:
                    summary = _summary(store, inner.entry.records[0])
                    best = (i, _Inner(g, inner.entry, held[0], held[1], summary))
                    break
        if best is not None:
            repos = frozenset(_summary(store, p).repo for p in best[1].entry.records)
            out[w] = (best[0], best[1], repos)
    return out


def _nearest(positions: Sequence[int], inner: _Inner, store: Store) -> list[int]:
    """Of a wrapper's records, those in the inner record's file nearest to it.

    Code that wraps an error calls the helper that raised it, and the helper sits
    beside it: a message raised at several sites (``{exc} in {ip_str!r}`` in each
    of ipaddress's parsers) wraps, at IPv6's, the hextet parser's error and at
    IPv4's the octet's. A wrapper in another file gets no credit: in a repo as
    wide as CPython's, ``runpy``'s ``No module named {mod_name}`` does not hold
    ``imp``'s ``{path!r} is not a package``.
    """
    here = inner.summary
    same = [
        (abs(_summary(store, p).line_number - here.line_number), p)
        for p in positions
        if _summary(store, p).file_path == here.file_path
    ]
    if not same:
        return []
    closest = min(distance for distance, _ in same)
    return [p for distance, p in same if distance == closest]


#: How many records of a report's hits :func:`_lone_own_class` reads at most.
_LONE_BUDGET = 4096


def _lone_own_class(report: ExceptionReport, hits: Sequence[_Found], store: Store) -> int | None:
    """The one record of the report's module-qualified class whose pattern fits the whole text.

    ``pip._internal.models.direct_url.DirectUrlValidationError: object of type 'int'
    has no len() (from 'header')`` names pip's own class and module: of pip's
    records of that class only ``{e} (from {src!r})`` fits, and no other project's
    record can be it, though `` (from `` alone proves little. None when the class is
    a builtin or unqualified, when two or more records of it fit (``Expected '}'``,
    raised at four places of one parser: the text cannot tell them apart), or
    when the hits hold too many records to read.
    """
    if not _module_qualified(report.error_class):
        return None
    assert report.error_class is not None
    # "custom" needs the same short name, and a qualified report a qualified record class.
    short = "." + report.error_class.rsplit(".", 1)[-1]
    budget = _LONE_BUDGET
    found_at: set[int] = set()
    for found in hits:
        if found.hit.mode != "full" or _is_wordless(found.entry):
            continue
        budget -= len(found.entry.records)
        if budget < 0:
            return None
        for position in found.entry.records:
            if not class_may_end(store, position, short):
                continue  # another class (told without decoding the record's row)
            summary = _summary(store, position)
            if not summary.error_class.endswith(short):
                continue  # another class, or an unqualified one: not its own
            if _class_state(report, summary) == "custom" and _module_qualified(
                report.error_class, summary.error_class
            ):
                found_at.add(position)
    return next(iter(found_at)) if len(found_at) == 1 else None


class _LoneOwnClass:
    """:func:`_lone_own_class` of a report's hits, worked out when first asked.

    Most hits never ask (only a hit of few bits of evidence, or of a generic
    shape, does), and the answer reads the summary of every record of the hits.
    """

    __slots__ = ("_found", "_hits", "_report", "_store")

    def __init__(self, report: ExceptionReport, hits: Sequence[_Found], store: Store) -> None:
        self._report, self._hits, self._store = report, hits, store
        self._found: list[int | None] = []

    def __call__(self) -> int | None:
        if not self._found:
            self._found.append(_lone_own_class(self._report, self._hits, self._store))
        return self._found[0]


def _no_lone() -> int | None:
    return None


def _cut_key(found: _Found) -> tuple[str, int, int] | None:
    """What a cut-off hit holds of its text (None for any other hit)."""
    if found.hit.mode != "truncated":
        return None
    return (found.text, found.hit.start, found.literal)


@dataclass(frozen=True, slots=True)
class _CutGroup:
    """The patterns one cut-off text fits equally: their shared rarity and their records."""

    rarity: int
    records: frozenset[int]


def _cut_groups(hits: Sequence[_Found]) -> dict[tuple[str, int, int] | None, _CutGroup]:
    """For each cut-off text that several patterns fit, what those patterns share.

    ``Capture cuda graph failed: <inner error>`` cut off fits every pattern that
    opens with those words; what tells them apart (``piecewise`` in one's
    tips) was cut, so none is rarer than the commonest of them, nor than their
    number says, and as far as the text shows they are one message.
    """
    groups: dict[tuple[str, int, int] | None, list[Entry]] = {}
    for found in hits:
        key = _cut_key(found)
        if key is not None:
            groups.setdefault(key, []).append(found.entry)
    return {
        key: _CutGroup(
            max(len({e.pattern for e in entries}), *(e.rarity for e in entries)),
            frozenset().union(*(e.record_set for e in entries)),
        )
        for key, entries in groups.items()
        if len(entries) > 1
    }


def _present(found: _Found) -> int | None:
    """The literal characters a cut-off hit holds (None: all of the pattern's)."""
    return found.literal if found.hit.mode == "truncated" else None


@dataclass(frozen=True, slots=True)
class Candidate:
    """A pattern's hit on a report, ready to be scored: what every source of matches hands on.

    Exact hits (:func:`_candidates`), drifted messages and fuzzy hints
    (:mod:`errcat.matcher.drift`) all reach the collector as candidates.
    ``present_literal``: the pattern's literal characters the text holds (None:
    all). ``only``: the records that may answer (None: every record of the
    pattern). ``cap_below``: the records of the patterns that explain the text
    better; the candidate's records rank just below the best match held for
    them (but for one a frame shows raising it). ``cut``: the patterns a
    cut-off text fits as well (:func:`_cut_groups`). ``inner``: a placeholder
    holds another pattern's whole message. ``lone()``: the one record of the
    report's module-qualified class that fits the text (:func:`_lone_own_class`).
    ``share``: of a fuzzy hint, the words it shares with the message.
    """

    entry: Entry
    hit: _Hit
    text: str
    present_literal: int | None = None
    only: Sequence[int] | None = None
    reasons: tuple[str, ...] = ()
    cap_below: tuple[frozenset[int], ...] | None = None
    cut: _CutGroup | None = None
    inner: _Inner | None = None
    lone: Callable[[], int | None] = _no_lone
    share: float = 0.0


def _candidates(
    report: ExceptionReport, hits: Sequence[_Found], store: Store
) -> Iterator[Candidate]:
    """A report's hits as candidates; a dominated one (:func:`_dominated`) stays below its betters.

    Its confidence is capped just below the best of the patterns that explain
    more (nothing, when those were too weak to be kept), except for a record
    a traceback frame shows raising it: a frame at the raise line outweighs the
    wording. A wrapper whose placeholder holds another hit's whole message (see
    :func:`_compositions`) explains the literal text of both, for its records of
    the inner record's project and file, nearest to it (see :func:`_nearest`);
    the inner pattern is then one it explains better. Not when one pattern
    explains as much literal text as the two together. A pattern that is all
    placeholder stays below every other pattern that hit the report
    (:func:`worded_over_whole`). Wrappers come first, then the hits no other
    explains better, then the dominated ones (whose cap is read from what the
    others made).
    """
    dominated = _dominated(hits)
    for i, betters in worded_over_whole(hits).items():
        dominated.setdefault(i, []).extend(betters)
    cut_groups = _cut_groups(hits)
    wrapped: dict[int, tuple[_Inner, list[int]]] = {}
    composed = _compositions(hits, store, store.index.uses_pieces)
    lone = _LoneOwnClass(report, hits, store)
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
            [p for p in hits[w].entry.records if _summary(store, p).repo in repos], inner, store
        )
        if own:
            wrapped[w] = (inner, own)
            dominated.setdefault(i, []).append(hits[w].entry)

    def candidate(
        found: _Found,
        cap_below: tuple[frozenset[int], ...] | None = None,
        reasons: tuple[str, ...] = (),
        wrapping: tuple[_Inner, list[int]] | None = None,
    ) -> Candidate:
        inner, only = wrapping if wrapping is not None else (None, None)
        return Candidate(
            entry=found.entry,
            hit=found.hit if inner is None else inner.wrapper_hit,
            text=found.text,
            present_literal=_present(found),
            only=only,
            reasons=reasons,
            cap_below=cap_below,
            cut=cut_groups.get(_cut_key(found)),
            inner=inner,
            lone=lone,
        )

    for w, wrapping in wrapped.items():
        if w not in dominated:
            yield candidate(hits[w], wrapping=wrapping)
    for i, found in enumerate(hits):
        if i not in dominated:
            yield candidate(found)
    for i, betters in dominated.items():
        yield candidate(
            hits[i],
            tuple(e.record_set for e in betters),
            ("a longer pattern explains more of this message",),
        )
