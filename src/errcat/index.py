"""Literal prefilter: find the few patterns a message can possibly match.

Every distinct ``messagePattern`` becomes one :class:`Entry` (many records may
share it). A pattern can only match a message that contains all of its literal
fragments, so the index hands the matcher just those entries, most specific
first; patterns without a usable literal are always candidates.

This implementation scans the entries' rarest-looking fragment with ``in``;
it is correct at any size and fast for catalogs of a few thousand patterns.

>>> idx = PatternIndex(["bad value (.+?) for (.+?)", "disk full"])
>>> [e.pattern for e in idx.candidates("bad value 3 for x")]
['bad value (.+?) for (.+?)']
>>> idx.candidates("nothing here")
[]
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from errcat.patterns import CompiledPattern, compile_pattern, literal_fragments

__all__ = ["Entry", "PatternIndex", "fold_whitespace", "words"]

_WS = re.compile(r"\s+")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")


def fold_whitespace(text: str) -> str:
    r"""Collapse every run of whitespace to one space and strip the ends.

    >>> fold_whitespace("  a\n   b\tc ")
    'a b c'
    """
    return _WS.sub(" ", text).strip()


def words(text: str) -> list[str]:
    """The lowercase words (3+ characters, starting with a letter) of a text.

    >>> words("DeepEP v2 MoE is not validated for 'X'")
    ['deepep', 'moe', 'not', 'validated', 'for']
    """
    return [w.lower() for w in _WORD.findall(text)]


@dataclass(eq=False)
class Entry:
    """One distinct pattern and the positions of the records that use it."""

    pattern: str
    fragments: tuple[str, ...]
    literal_length: int
    records: list[int] = field(default_factory=list)
    _compiled: CompiledPattern | None = None

    @property
    def compiled(self) -> CompiledPattern:
        """The compiled pattern, built on first use."""
        if self._compiled is None:
            self._compiled = compile_pattern(self.pattern)
        return self._compiled

    @property
    def skeleton(self) -> str:
        """The literal text of the pattern with placeholders shown as ``…``."""
        return " … ".join(self.fragments)


class PatternIndex:
    """Map a (whitespace-folded) message to the entries it may match."""

    def __init__(self, patterns: Iterable[str]) -> None:
        """Index ``patterns``; the n-th pattern belongs to record position n."""
        by_pattern: dict[str, Entry] = {}
        self.entries: list[Entry] = []
        for position, pattern in enumerate(patterns):
            entry = by_pattern.get(pattern)
            if entry is None:
                fragments = literal_fragments(pattern)
                entry = Entry(pattern, fragments, sum(len(f) for f in fragments))
                by_pattern[pattern] = entry
                self.entries.append(entry)
            entry.records.append(position)
        # Most literal text first: the first entries to verify are the most specific.
        self.entries.sort(key=lambda e: (-e.literal_length, e.pattern))
        self._anchored = [(max(e.fragments, key=len), e) for e in self.entries if e.fragments]
        self.always = [e for e in self.entries if not e.fragments]
        self._by_word: dict[str, list[Entry]] | None = None

    def __len__(self) -> int:
        """Number of distinct patterns."""
        return len(self.entries)

    def candidates(self, text: str) -> list[Entry]:
        """Entries whose literal fragments all occur in ``text`` in order, most specific first."""
        found = [
            e for anchor, e in self._anchored if anchor in text and _in_order(e.fragments, text)
        ]
        return found + self.always

    def prefix_candidates(self, text: str) -> list[Entry]:
        """Entries the text could be a truncated rendering of.

        The text must contain the pattern's first fragment (or be a prefix of
        it when the pattern starts with literal text) and end partway through.
        """
        out = []
        for entry in self.entries:
            if not entry.fragments:
                continue
            first = entry.fragments[0]
            if first in text or (len(text) >= 12 and first.startswith(text)):
                out.append(entry)
        return out

    def near(self, text: str, limit: int = 5) -> list[tuple[int, int, Entry]]:
        """Entries sharing the most words with ``text``.

        Returns ``(shared words, entry's distinct words, entry)``, best overlap
        (shared words relative to both texts' words) first.
        """
        if self._by_word is None:
            by_word: dict[str, list[Entry]] = defaultdict(list)
            for entry in self.entries:
                for word in set(words(" ".join(entry.fragments))):
                    by_word[word].append(entry)
            self._by_word = dict(by_word)
        message_words = set(words(text))
        counts: dict[int, int] = defaultdict(int)
        lookup: dict[int, Entry] = {}
        for word in message_words:
            for entry in self._by_word.get(word, ()):
                counts[id(entry)] += 1
                lookup[id(entry)] = entry
        scored = []
        for key, shared in counts.items():
            entry = lookup[key]
            total = len(set(words(" ".join(entry.fragments))))
            overlap = 2 * shared / (total + len(message_words))
            scored.append((overlap, shared, total, entry))
        scored.sort(key=lambda item: (-item[0], -item[3].literal_length))
        return [(shared, total, entry) for _, shared, total, entry in scored[:limit]]


def _in_order(fragments: Sequence[str], text: str) -> bool:
    position = 0
    for fragment in fragments:
        found = text.find(fragment, position)
        if found < 0:
            return False
        position = found + len(fragment)
    return True
