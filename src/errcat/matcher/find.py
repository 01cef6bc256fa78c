"""Finding the patterns a message's forms hold: exactly, without a lost period, or cut off."""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from errcat import background
from errcat.index import Entry, PatternIndex
from errcat.matcher.context import ReportContext
from errcat.matcher.first_value_cut import cut_in_first_value
from errcat.matcher.head_cut import head_cut_hits
from errcat.matcher.opening_cut import opening_candidates
from errcat.matcher.result import REGEX_TIMEOUT
from errcat.matcher.text_evidence import _is_wordless
from errcat.matcher.unticked import UntickedIndex, unticked_index
from errcat.matcher.verify import (
    _Hit,
    _lookup_text,
    _verify,
    _verify_quoted_truncated,
    _verify_truncated,
)
from errcat.patterns import compile_pattern, pieces_prefix

#: A cut-off paste must hold this much of the pattern's literal text (characters, or
#: share of it, whichever is less) before it is checked as a truncated match.
_TRUNCATED_MIN_CHARS = 40
_TRUNCATED_MIN_SHARE = 0.5
#: How many of a message's variants (the message first) may be a cut-off paste.
_TRUNCATED_VARIANTS = 4
#: ... and how many are looked up widely (by every word) when nothing else fits.
_WIDE_VARIANTS = 2
#: Or this many, when the paste holds the pattern's whole first fragment.
_TRUNCATED_MIN_LEAD = 20
#: How many patterns sharing the most words with a message are read as cut off when
#: nothing fits at all (:func:`_near_cut_hits`).
_NEAR_CUT_LIMIT = 5
#: ... and how many of its literal characters such a text must hold: a short head
#: (``x.readme must be``) opens several templates, of which those few may miss the one.
_NEAR_CUT_MIN_CHARS = 30

#: The least literal text of a pattern read as the message a wrapper holds (less is
#: no message of its own: ``{a} in {b}`` is the wrapper, not the error wrapped; see
#: :func:`errcat.matcher.hits._compositions`).
_INNER_MIN = 12

#: Where a message quoted without its final period goes on as a sentence: a space, then
#: a lower-case word.
_PROSE_GOES_ON = re.compile(r" [a-z]+\b")


def _literal_prefix(entry: Entry, text: str) -> int:
    """How many of the entry's literal characters a truncated text contains."""
    return _cut_at(entry, text)[0]


def _cut_at(entry: Entry, text: str) -> tuple[int, str, str]:
    """How a cut-off text holds a pattern, read fragment by fragment.

    Returns how many of its literal characters the text holds, the last fragment it
    holds whole, and the capture it ends in: what follows that fragment (a text cut
    inside the next fragment ends in that fragment's start, which is not captured).

    >>> entry = Entry.build("Tensor parallel size (.+?) > num_experts (.+?) now", (0,))
    >>> _cut_at(entry, "Tensor parallel size (16) cannot be larger than the GPUs")
    (21, 'Tensor parallel size ', '(16) cannot be larger than the GPUs')
    >>> _cut_at(entry, "Tensor parallel size 16 > num_ex")
    (30, 'Tensor parallel size ', '16')
    """
    total = 0
    position = 0
    before = ""
    for fragment in entry.fragments:
        found = text.find(fragment, position)
        if found >= 0:
            total += len(fragment)
            position = found + len(fragment)
            before = fragment
            continue
        tail = text[position:]
        size = _cut_inside(fragment, tail)
        return total + size, before, tail[: len(tail) - size]
    return total, before, text[position:]


def _cut_inside(fragment: str, tail: str) -> int:
    """How long the longest start of ``fragment`` that ``tail`` ends with is (0: none).

    Tried only where the fragment's first character is in the tail, leftmost
    (longest) first, not at every length.

    >>> _cut_inside(" cannot be larger", "size 16 cann"), _cut_inside(" now", "16 > x")
    (5, 0)
    """
    if not fragment:
        return 0
    at = tail.find(fragment[0], max(0, len(tail) - len(fragment)))
    while at >= 0:
        if fragment.startswith(tail[at:]):
            return len(tail) - at
        at = tail.find(fragment[0], at + 1)
    return 0


@dataclass(frozen=True, slots=True)
class _Found:
    """A pattern's hit on one variant of a report's message, before it is scored."""

    entry: Entry
    hit: _Hit
    text: str
    #: How many of the pattern's literal characters the message holds.
    literal: int


def _unpunctuated_hits(index: PatternIndex, text: str) -> Iterator[_Found]:
    """Patterns the message starts with but for their final period, a sentence going on.

    ``...increase --mem-fraction-static error occurs.``: the message's final
    period was lost where the writer's sentence goes on (Python never prints
    that), so the pattern without it matches the start (mode ``prefix``).
    """
    for entry in index.unpunctuated_candidates(text):
        if entry.whole:
            continue  # all placeholder: the whole message or nothing (see _verify)
        hit = None
        if index.uses_pieces and entry.pieces is not None:
            prefix = pieces_prefix((*entry.pieces[:-1], entry.pieces[-1][:-1]), text)
            if prefix is not None:
                hit = _Hit("prefix", prefix[0], 0, prefix[1], restored=True)
        else:
            try:
                m = compile_pattern(entry.pattern[:-2]).full.match(text, timeout=REGEX_TIMEOUT)
            except TimeoutError:
                m = None
            if m is not None:
                hit = _Hit("prefix", m.groups(), 0, m.end(), restored=True)
        if hit is not None and _PROSE_GOES_ON.match(text, hit.end):
            yield _Found(entry, hit, text, entry.literal_length - 1)


def _truncated_hits(
    index: PatternIndex | UntickedIndex,
    variants: Sequence[str],
    *,
    wide: bool = False,
    tried: dict[str, set[str]] | None = None,
) -> Iterator[_Found]:
    """The patterns each variant is a cut-off rendering of (mode ``truncated``).

    ``index`` may be an index's unticked patterns (:func:`unticked_index`): a cut-off
    paste of a template whose backticks it lost. ``tried`` holds, per variant, the
    patterns already read against it (each read is added): whether a variant is a
    cut-off rendering of a pattern depends on those two alone, so the wide pass
    reads only the patterns the first pass did not.
    """
    for text in variants:
        seen = None if tried is None else tried.setdefault(text, set())
        for entry in index.prefix_candidates(text, wide=wide):
            if seen is not None:
                if entry.pattern in seen:
                    continue
                seen.add(entry.pattern)
            found = _cut_off(entry, text)
            if found is not None:
                yield found


def _near_cut_hits(
    index: PatternIndex, variants: Sequence[str], tried: dict[str, set[str]]
) -> Iterator[_Found]:
    """Cut-off renderings of the patterns sharing the most words with each variant.

    An issue title stops where its writer stopped copying, often just before the
    template's longest fragment (``... stored in KV cache (3664)`` of ``... KV cache
    ({n}). Try increasing ...``), after a first word that opens more templates than
    the prefix searches read (``The``): the index proposes no pattern, but the words
    the title kept reach the template. Read only when nothing else fits; the same
    bounds as any cut-off paste hold (:func:`_cut_off`).
    """
    for text in variants:
        near = (entry for _, _, entry in index.near(text, limit=_NEAR_CUT_LIMIT))
        yield from _unproposed_cuts(near, text, tried.setdefault(text, set()))


def _opening_cut_hits(
    index: PatternIndex, variants: Sequence[str], tried: dict[str, set[str]]
) -> Iterator[_Found]:
    """Cut-off renderings of the patterns opening as each variant does (see opening_cut).

    The bounds of :func:`_near_cut_hits` (the index did not propose these either), but
    every pattern opening so is read, as the wide pass reads those of a rarer first
    word: a text holding a whole opening and cut inside its first value needs only the
    bound the wide pass asks (:mod:`errcat.matcher.first_value_cut`). So a pattern an
    earlier pass read against the text is read again (``tried`` is not consulted): only
    that bound can differ, and the patterns opening so are few.
    """
    for text in variants:
        opening = opening_candidates(index, text)
        yield from _unproposed_cuts(opening, text, set(), first_value=True)


def _unproposed_cuts(
    entries: Iterable[Entry], text: str, seen: set[str], *, first_value: bool = False
) -> Iterator[_Found]:
    """``text`` read as a cut-off rendering of patterns the index did not propose for it.

    Each pattern once per text (``seen``); a short head (``x.readme must be``) opens
    several templates, of which those read may miss the one: it must hold
    :data:`_NEAR_CUT_MIN_CHARS` of the literal text and end in the template's words.
    With ``first_value`` (``entries`` are every pattern opening as the text does, not a
    few nearest ones), a text holding a template's whole opening literal and stopping
    inside its first value needs only the bound a proposed pattern's cut does
    (:mod:`errcat.matcher.first_value_cut`).
    """
    for entry in entries:
        if entry.pattern in seen:
            continue
        seen.add(entry.pattern)
        found = _cut_off(entry, text)
        if found is None:
            continue
        span = text[found.hit.start : found.hit.end]
        if (
            found.literal >= _NEAR_CUT_MIN_CHARS
            # a title stopping inside the first value it quotes (see first_value_cut)
            or (first_value and cut_in_first_value(entry.fragments, span, found.literal))
        ) and _ends_in_literal(entry, span):
            yield found


def _ends_in_literal(entry: Entry, text: str) -> bool:
    """Whether a cut-off text ends in the template's own words: its last value is one word.

    A pattern the index did not propose is a cut-off rendering only where the cut
    falls in (or right after) its literal text; a capture holding several words at
    the end is the writer's text taking the place of the rest (``Expected there to
    be 3 prompt updates corresponding`` is not ``Expected there to be {n} prompt
    placeholders corresponding ...`` cut off).

    >>> entry = Entry.build("The (.+?) len is larger than (.+?) so try it", (0,))
    >>> _ends_in_literal(entry, "The zq len is larger than 12 so tr")
    True
    >>> _ends_in_literal(entry, "The zq len is larger than the zqa zqb")
    False
    """
    return len(_cut_at(entry, text)[2].split()) <= 1


def _cut_off(entry: Entry, text: str) -> _Found | None:
    """``entry``'s hit on ``text`` read as a cut-off rendering of it, if it is one."""
    if entry.whole:
        return None  # nothing of its own to see cut off (all placeholder: see _verify)
    present = _literal_prefix(entry, text)
    if present < min(_TRUNCATED_MIN_CHARS, _TRUNCATED_MIN_SHARE * entry.literal_length) and not (
        # a long capture (another error's text) took the room of the rest, or the
        # cut fell inside a long first fragment
        present >= _TRUNCATED_MIN_LEAD
        and (present >= len(entry.fragments[0]) or entry.fragments[0].startswith(text))
    ):
        return None  # too little of the pattern is there to call it a cut-off paste
    partial = _verify_truncated(entry, text)
    if partial is None:
        partial = _verify_quoted_truncated(entry, text)
    if partial is None:
        return None
    _, before, last = _cut_at(entry, text[partial.start : partial.end])
    if (
        present < _TRUNCATED_MIN_CHARS
        and _PROSE.search(last)
        and not before.rstrip().endswith(":")
        and last.lstrip()[:1] not in ("'", '"')
        and not _error_like(last)
    ):
        # A short head, then a capture holding prose: a value never does, unless
        # quoted (a string: "when parsing 'This date has too many ..."), only
        # another error's text ("Capture cuda graph failed: <error>"); "Tensor
        # parallel size (16) cannot be larger than the number of GPUs" is not
        # "Tensor parallel size {n} > num_experts ..." cut off. (A long head is
        # the message whatever the rest: a paste re-wrapped, a bracket lost.)
        return None
    return _Found(entry, partial, text, present)


#: Five lowercase words in a row: prose, not a value.
_PROSE = re.compile(r"\b[a-z]+(?:[ ,]+[a-z]+){4}\b")
_ERROR_WORDS = re.compile(
    r"(?:Error|Exception|Exit|Interrupt|Warning)\b|\b(?:error|failed|failure|exception)\b|"
    r"\bTraceback\b|^\W*[A-Za-z_][\w.]*: "
)


def _error_like(value: str) -> bool:
    """Whether a captured value reads as another error's text (an inner message or a class).

    >>> _error_like("RuntimeError: CUDA error: out of memory"), _error_like("(16) cannot be larger")
    (True, False)
    >>> _error_like("object of type 'int' has no len()")
    True
    """
    return bool(_ERROR_WORDS.search(value)) or background.is_c_message(value.strip())


def _explains_most(found: _Found) -> bool:
    """Whether a pattern matches the whole message with literal text for half of it or more.

    Not one that is all placeholder (``'x'`` is half quotes): its literal text is no words.
    """
    full = found.hit.mode == "full"
    return full and 2 * found.literal >= len(found.text) and not found.entry.whole


#: Each index's patterns proposed for every text that have no word of their own.
_WORDLESS: weakref.WeakKeyDictionary[PatternIndex, frozenset[int]] = weakref.WeakKeyDictionary()


def _wordless(index: PatternIndex) -> frozenset[int]:
    """Patterns without a word of their own (:attr:`~errcat.index.Entry.wordless`), found once.

    They have no word to be filed under, so every text proposes them.
    """
    found = _WORDLESS.get(index)
    if found is None:
        found = _WORDLESS[index] = frozenset(p for p in index.always if index.entry(p).wordless)
    return found


@dataclass(frozen=True, slots=True)
class _SetAside:
    """A pattern without words a traceback's message proposed, not read yet (:func:`_idle`)."""

    #: Where among the report's exact hits its hit goes, if it has one.
    at: int
    entry: Entry
    text: str


def _idle(entry: Entry, raise_file: Callable[[], AbstractSet[int]]) -> bool:
    """Whether a traceback's hit of ``entry`` could change nothing but its own records' fate.

    A pattern without words (``{a}: {b}``) fits any message, and only a record in the
    raise frame's file can answer by it (:meth:`~errcat.matcher.collect._Collector.add`);
    one with no record there is scored for nothing. Its hit still reaches the other
    hits where it: has a word of three letters or more (:attr:`Entry.words`: the drift
    search reads those, and skips a pattern that matched), or a shape word
    (:func:`errcat.background.shape_key`: a shape's spread counts its records), holds
    a wrapped message's worth of literal text (:data:`_INNER_MIN`), or has more literal
    text than a looser hit it could explain better (:func:`_put_back` looks, once every
    hit is found). Such a pattern is read, as before; the others are set aside.
    ``raise_file`` is asked for the records there only once those checks leave the
    pattern: working them out reads every record of that file name.

    >>> idle = Entry.build("(.+?): (.+?)", (3, 4))
    >>> _idle(idle, lambda: frozenset({1, 2})), _idle(idle, lambda: frozenset({4}))
    (True, False)
    >>> _idle(Entry.build("(.+?) = x12 (.+?)", (3,)), lambda: 1 / 0)  # a word drift reads
    False
    """
    if not entry.wordless or entry.literal_length >= _INNER_MIN or entry.words:
        return False
    prior = entry.prior  # what a stored index says: shape words or none
    if prior.has_words if prior is not None else background.shape_key(entry.fragments):
        return False
    return entry.record_set.isdisjoint(raise_file())


def _put_back(
    index: PatternIndex,
    hits: list[_Found],
    aside: Sequence[_SetAside],
    ctx: ReportContext,
    exact: set[tuple[int, str]],
) -> None:
    """Read the set-aside patterns (:func:`_idle`) another hit could be explained better by.

    A hit that leaves part of the message unexplained (not ``full``) with less literal
    text than such a pattern could be dominated by its hit
    (:func:`errcat.matcher.hits._dominated`): the pattern is read as it would have
    been, and its hit put where the exact reading would have put it.
    """
    weakest = min((f.literal for f in hits if f.hit.mode != "full"), default=None)
    if weakest is None:
        return
    # In reverse, so that each hit goes where it would have been among those before it.
    for item in reversed(aside):
        entry, text = item.entry, item.text
        if entry.literal_length <= weakest:
            continue
        hit = _verify(entry, text, use_pieces=index.uses_pieces, prose=ctx.prose)
        if hit is not None:
            hits.insert(item.at, _Found(entry, hit, text, entry.literal_length - hit.restored))
            exact.add((ctx.order, entry.pattern))


def _exact_hits(
    index: PatternIndex,
    ctx: ReportContext,
    exact: set[tuple[int, str]],
    raise_file: Callable[[], AbstractSet[int]] | None = None,
    aside: list[_SetAside] | None = None,
) -> list[_Found]:
    """The patterns of one index that match a report's message forms as they are.

    The patterns that matched a form are added to ``exact`` (as ``(order,
    pattern)``): no drift is looked for there. With ``raise_file`` (the index's
    records in a traceback's raise file, asked for when a pattern without words
    comes) and ``aside``, the patterns :func:`_idle` there are not read but added
    to ``aside``.
    """
    hits: list[_Found] = []
    # A message quoted in prose may have lost its final period; one Python
    # printed after its class is as raised.
    prose = ctx.prose
    # A frameless report is never answered by a pattern without a word of its own (only a
    # frame can tell it): those, which every text proposes, are not read at all.
    leave_out = _wordless(index) if ctx.bare else frozenset()
    for text in ctx.forms:
        lookup = _lookup_text(text) if prose else text
        for entry in index.candidates(lookup, leave_out):
            if ctx.bare and _is_wordless(entry):
                continue  # only a frame at a record's raise line can tell it
            if (
                aside is not None
                and raise_file is not None
                and entry.wordless
                and _idle(entry, raise_file)
            ):
                aside.append(_SetAside(len(hits), entry, text))
                continue
            hit = _verify(entry, text, use_pieces=index.uses_pieces, prose=prose)
            if hit is None:
                continue
            hits.append(_Found(entry, hit, text, entry.literal_length - hit.restored))
            exact.add((ctx.order, entry.pattern))
    return hits


def _unticked_hits(
    index: PatternIndex, ctx: ReportContext, exact: set[tuple[int, str]]
) -> Iterator[_Found]:
    """Patterns with backticks that a backtick-free form of the message matches without them.

    Markdown ate the template's backticks (``has model type qwen3_moe but ...``), or
    the writer added some to the message, which a form without them undoes (see
    :mod:`errcat.matcher.unticked`). Each hit stands for the original's records.
    """
    prose = ctx.prose
    for text in ctx.forms:
        if "`" in text:
            continue
        lookup = _lookup_text(text) if prose else text
        for entry in unticked_index(index).candidates(lookup):
            if entry.whole:
                continue
            hit = _verify(entry, text, use_pieces=True, prose=prose)
            if hit is None:
                continue
            exact.add((ctx.order, entry.pattern))
            yield _Found(entry, hit, text, entry.literal_length - hit.restored)


def _worded(found: Sequence[Sequence[_Found]]) -> bool:
    r"""Whether a pattern with words of its own matched: one without (``{msg}``) fits any text.

    So does one whose words are all captured (``'(\w+)'``, :attr:`~errcat.index.Entry.whole`):
    its hit leaves the looser searches to run, and takes no other record's place.
    """
    return any(not f.entry.whole for hits in found for f in hits)


def _find_hits(
    indexes: Sequence[PatternIndex],
    ctx: ReportContext,
    exact: set[tuple[int, str]],
    raise_files: Sequence[Callable[[], AbstractSet[int]]] | None = None,
) -> list[list[_Found]]:
    """Every pattern hit on a report's message forms, per index: exact, then looser kinds.

    The looser kinds are looked for in every index when no index's exact hits
    explain the message (a catalog in several parts answers as the same records
    in one part would): its period lost where a sentence goes on, when nothing
    matched as it is; cut off, when no pattern's literal text explains most of
    it; cut off before the longest fragment, when nothing fits at all (by the
    first word, then by the words the message shares with a pattern). A pattern
    without words of its own (``{msg}``), which fits any message, is not a fit
    here (a traceback's frames propose such patterns too).

    ``raise_files``: per index, its records in a traceback's raise file (asked for
    when needed); the
    patterns without words that no record there uses are read only where another
    hit needs them (:func:`_idle`, :func:`_put_back`).
    """
    aside: list[list[_SetAside]] = [[] for _ in indexes]
    found = [
        _exact_hits(index, ctx, exact, raise_files[n] if raise_files else None, aside[n])
        for n, index in enumerate(indexes)
    ]
    _looser_hits(indexes, ctx, found, exact)
    for index, hits, left in zip(indexes, found, aside, strict=True):
        if left:
            _put_back(index, hits, left, ctx, exact)
    return found


def _looser_hits(
    indexes: Sequence[PatternIndex],
    ctx: ReportContext,
    found: list[list[_Found]],
    exact: set[tuple[int, str]],
) -> None:
    """:func:`_find_hits` past the exact hits: each index's ``found`` extended in place."""
    # Per index, the patterns each form was read against as a cut-off rendering.
    tried: list[dict[str, set[str]]] = [{} for _ in indexes]
    forms = ctx.forms
    if not forms:
        return
    if not _worded(found):
        for hits, index in zip(found, indexes, strict=True):
            hits.extend(_unpunctuated_hits(index, forms[0]))
    if not any(_explains_most(f) for hits in found for f in hits):
        # Nor may a template whose backticks the paste lost (or the writer added).
        for hits, index in zip(found, indexes, strict=True):
            hits.extend(_unticked_hits(index, ctx, exact))
    if not any(_explains_most(f) for hits in found for f in hits):
        # No pattern's literal text explains most of the message: it may be a
        # longer pattern cut off (``Worker failed with error 'x`` is not the
        # record ``Worker failed`` plus extra text, nor ``TP {n}`` with a long
        # value, when ``Worker failed with error '{e}', ...`` exists).
        for hits, index, read in zip(found, indexes, tried, strict=True):
            matched = {f.entry.pattern for f in hits}
            hits.extend(
                f
                for f in _truncated_hits(index, forms[:_TRUNCATED_VARIANTS], tried=read)
                if f.entry.pattern not in matched  # it matched as it is
            )
    if not any(_explains_most(f) for hits in found for f in hits):
        # Cut off, and without the template's backticks (Markdown ate them, or the
        # release the paste comes from had none): the backtick-free forms are read
        # against the patterns unticked, which stand for the same records.
        plain = [form for form in forms[:_TRUNCATED_VARIANTS] if "`" not in form]
        for hits, index in zip(found, indexes, strict=True):
            matched = {f.entry.pattern for f in hits}
            hits.extend(
                f
                for f in _truncated_hits(unticked_index(index), plain)
                if f.entry.pattern not in matched
            )
    if not _worded(found):
        # Nothing at all: the cut may have come before the template's longest fragment,
        # and its first word opens many templates (``CUDA out of memory. ... is free.``).
        # The message as printed, and the form its decoration hid first (``"..."``
        # quoted by its writer, HTML entities).
        # (Only the patterns the first cut-off pass did not read: it found no worded
        # hit, and reading a pattern again against the same text finds the same.)
        for hits, index, read in zip(found, indexes, tried, strict=True):
            hits.extend(_truncated_hits(index, forms[:_WIDE_VARIANTS], wide=True, tried=read))
    if not _worded(found):
        # Still nothing: cut where the index proposes nothing (before the longest
        # fragment, after a first word that opens too many templates): the patterns
        # sharing the most words with the message, read as cut off.
        for hits, index, read in zip(found, indexes, tried, strict=True):
            hits.extend(_near_cut_hits(index, forms[:_WIDE_VARIANTS], read))
    if not _worded(found):
        # Cut inside the opening of a template whose first word opens too many for the
        # wide pass (a title quoting ``"No valid attention backend found"``).
        for hits, index, read in zip(found, indexes, tried, strict=True):
            hits.extend(_opening_cut_hits(index, forms[:_WIDE_VARIANTS], read))
    if not any(_explains_most(f) for hits in found for f in hits):
        # Cut at its start: a chunk or title beginning mid-message (see head_cut).
        for hits, index in zip(found, indexes, strict=True):
            hits.extend(_head_cut_hits(index, forms[:_TRUNCATED_VARIANTS]))


def _head_cut_hits(index: PatternIndex, variants: Sequence[str]) -> Iterator[_Found]:
    """The patterns each variant renders cut at its start (mode ``truncated``)."""
    for text in variants:
        for entry, groups, held in head_cut_hits(index, text):
            yield _Found(entry, _Hit("truncated", groups, 0, len(text)), text, held)
