r"""Templates whose backticks Markdown ate: a pattern's literal backticks are optional.

transformers prints ``has model type `qwen3_moe` but Transformers does not
recognize this architecture``; pasted into an issue and rendered, the backticks
become code formatting and a copy of the page has none left: ``has model type
qwen3_moe but ...``. Nor does a pattern find a message whose writer added them
(the message forms give a form without them: :func:`errcat.extract.forms.message_forms`).

So each index's patterns that hold a literal backtick are also indexed without
their backticks (:func:`unticked_index`, built once per index, on the first
message that needs it): a backtick-free form of a message that no pattern
explains as it is looks them up there. A hit stands for the same records
(:class:`~errcat.index.Entry` with the original's records), with the literal text
the message holds. Only literal-and-group patterns are read so (a hand-written
regex's backtick may sit in a character class), and not one whose backticks stand
alone between two groups (```{a}`{b}```: without them nothing separates the groups).

>>> index = PatternIndex(["has model type `(.+?)` but it is unknown", "plain (.+?)"])
>>> found = unticked_index(index)
>>> [(e.pattern, e.records) for e in found.candidates("has model type qwen3 but it is unknown")]
[('has model type (.+?) but it is unknown', (0,))]
>>> untick_pieces(("a `", "` b")), untick_pieces(("", "`", "")) is None
(('a ', ' b'), True)
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from errcat.index import Entry, PatternIndex
from errcat.patterns import GROUP, escape_literal, pattern_pieces

__all__ = ["UntickedIndex", "untick_pieces", "unticked_index"]

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
    """An index's backticked patterns without their backticks, and whose records each holds."""

    index: PatternIndex
    #: For each pattern given to :attr:`index` (by position), the original pattern's
    #: records and its rarity in the original index.
    records: tuple[tuple[int, ...], ...]
    rarity: tuple[int, ...]

    def candidates(self, text: str) -> list[Entry]:
        """The unticked patterns ``text`` may match, each standing for its original's records."""
        return [self._original(entry) for entry in self.index.candidates(text)]

    def prefix_candidates(self, text: str, *, wide: bool = False) -> list[Entry]:
        """The unticked patterns ``text`` may be a cut-off rendering of, as :meth:`candidates`.

        A title stops partway through a template whose backticks the paste lost:
        ``... Try increasing gpu_memory_utilization or decreasing max_model_len when ini``.
        """
        return [self._original(e) for e in self.index.prefix_candidates(text, wide=wide)]

    def _original(self, entry: Entry) -> Entry:
        """An unticked entry that stands for the records of the patterns it was built from."""
        records = tuple(r for position in entry.records for r in self.records[position])
        rarity = max(self.rarity[position] for position in entry.records)
        return Entry.build(entry.pattern, records, rarity, None, entry.pieces)


#: Each index's unticked patterns, built once.
_UNTICKED: weakref.WeakKeyDictionary[PatternIndex, UntickedIndex] = weakref.WeakKeyDictionary()


def unticked_index(index: PatternIndex) -> UntickedIndex:
    """The backtick-free forms of ``index``'s literal-and-group patterns that hold a backtick."""
    found = _UNTICKED.get(index)
    if found is not None:
        return found
    patterns: list[str] = []
    records: list[tuple[int, ...]] = []
    rarity: list[int] = []
    for pid, pattern in enumerate(index.patterns):
        if _TICK not in pattern:
            continue
        pieces = pattern_pieces(pattern)
        unticked = None if pieces is None else untick_pieces(pieces)
        if unticked is None or not any(p.strip() for p in unticked):
            continue
        patterns.append(GROUP.join(escape_literal(p) for p in unticked))
        records.append(index.records_of(pid))
        rarity.append(index.rarity[pid])
    found = _UNTICKED[index] = UntickedIndex(PatternIndex(patterns), tuple(records), tuple(rarity))
    return found
