r"""An index's patterns without their literal backticks, as a second index (built once, or stored).

Why a message is looked up there is :mod:`errcat.matcher.unticked`'s to say
(Markdown ate the template's backticks, or the writer added some). This module
builds that second index: of each literal-and-group pattern that holds a
backtick, the pattern without them (:func:`untick_pieces`), unless its backticks
stand alone between two groups (```{a}`{b}```: without them nothing separates
the groups). A hit on it stands for the records of the pattern it came from.

A stored index keeps it (:mod:`errcat.store.format`, sections ``unticked_*``),
so that the first message to need it does not wait for it to be built: at a
hundred thousand records, five thousand patterns hold a backtick and their
index takes half a second to build.

>>> index = PatternIndex(["has model type `(.+?)` but it is unknown", "plain (.+?)"])
>>> found = build_unticked(index)
>>> [(e.pattern, e.records) for e in found.candidates("has model type qwen3 but it is unknown")]
[('has model type (.+?) but it is unknown', (0,))]
>>> untick_pieces(("a `", "` b")), untick_pieces(("", "`", "")) is None
(('a ', ' b'), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from errcat.index import Entry, IndexTables, PatternIndex
from errcat.patterns import GROUP, escape_literal, pattern_pieces

__all__ = ["UntickedIndex", "build_unticked", "stored_unticked", "untick_pieces"]

_TICK = "`"


def untick_pieces(pieces: Sequence[str]) -> tuple[str, ...] | None:
    """A simple pattern's literal pieces without their backticks (None: groups would touch).

    >>> untick_pieces(("Cannot find any model weights with `", "`"))
    ('Cannot find any model weights with ', '')
    """
    out = tuple(piece.replace(_TICK, "") for piece in pieces)
    inner = range(1, len(pieces) - 1)
    if any(pieces[i] and not out[i].strip() for i in inner):
        return None
    return out


@dataclass(frozen=True)
class UntickedIndex:
    """An index's backticked patterns without their backticks, standing for the originals."""

    #: The unticked patterns' own index.
    index: PatternIndex
    #: For each pattern given to :attr:`index` (by position), the number of the pattern
    #: it came from in :attr:`of`.
    origins: Sequence[int]
    #: The index whose patterns these are.
    of: PatternIndex
    #: Each unticked pattern's entry standing for its originals, built once (see
    #: :meth:`_original`).
    _originals: dict[str, Entry] = field(default_factory=dict, compare=False, repr=False)

    def candidates(self, text: str) -> list[Entry]:
        """The unticked patterns ``text`` may match, each standing for its original's records.

        Each keeps the rarity its original has in :attr:`of`.
        """
        return [self._original(entry) for entry in self.index.candidates(text)]

    def prefix_candidates(self, text: str, *, wide: bool = False) -> list[Entry]:
        """The unticked patterns ``text`` may be a cut-off rendering of, as :meth:`candidates`.

        A title stops partway through a template whose backticks the paste lost:
        ``... Try increasing gpu_memory_utilization or decreasing max_model_len when ini``.
        """
        return [self._original(e) for e in self.index.prefix_candidates(text, wide=wide)]

    def _original(self, entry: Entry) -> Entry:
        """An unticked entry standing for the records of the patterns it was built from.

        Built once per pattern and kept: a new entry would compile its regex again
        (milliseconds) each time a message's cut-off lookup proposes it.

        >>> found = build_unticked(PatternIndex(["a `(.+?)` b"]))
        >>> found.candidates("a x b")[0] is found.candidates("a y b")[0]
        True
        """
        kept = self._originals.get(entry.pattern)
        if kept is None:
            pids = [self.origins[position] for position in entry.records]
            records = tuple(r for pid in pids for r in self.of.records_of(pid))
            rarity = max(self.of.rarity[pid] for pid in pids)
            kept = Entry.build(entry.pattern, records, rarity, None, entry.pieces)
            self._originals[entry.pattern] = kept
        return kept


def build_unticked(index: PatternIndex) -> UntickedIndex:
    """The backtick-free forms of ``index``'s literal-and-group patterns that hold a backtick."""
    patterns: list[str] = []
    origins: list[int] = []
    for pid in _ticked(index.patterns):
        pieces = pattern_pieces(index.patterns[pid])
        unticked = None if pieces is None else untick_pieces(pieces)
        if unticked is None or not any(p.strip() for p in unticked):
            continue
        patterns.append(GROUP.join(escape_literal(p) for p in unticked))
        origins.append(pid)
    return UntickedIndex(PatternIndex(patterns), origins, index)


def stored_unticked(
    index: PatternIndex, tables: IndexTables, origins: Sequence[int]
) -> UntickedIndex:
    """The :class:`UntickedIndex` of ``index`` a stored index kept (its tables and origins).

    >>> index = PatternIndex(["a `(.+?)` b", "c"])
    >>> built = build_unticked(index)
    >>> kept = stored_unticked(index, built.index.tables(), built.origins)
    >>> [(e.pattern, e.records) for e in kept.candidates("a x b")]
    [('a (.+?) b', (0,))]
    """
    return UntickedIndex(PatternIndex.from_tables(tables), origins, index)


def _ticked(patterns: Sequence[str]) -> Sequence[int]:
    """The numbers of the patterns that hold a backtick, in order.

    A stored index's patterns (:class:`~errcat.store.format.StringTable`) are
    found by one scan of their buffer, not by decoding every pattern.

    >>> _ticked(["a `b`", "c", "`d"])
    [0, 2]
    """
    holding = getattr(patterns, "holding", None)
    if holding is not None:
        found: list[int] = holding(_TICK.encode())
        return found
    return [pid for pid, pattern in enumerate(patterns) if _TICK in pattern]
