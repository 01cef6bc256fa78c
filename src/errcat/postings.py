"""A word -> ids table in flat arrays, read from a stored index without building a dict.

:class:`Postings` is how :class:`~errcat.index.PatternIndex` files its patterns
under their words (and how a stored index keeps those tables); :func:`hash_slots`
is the open-addressing table a stored one finds a word through.
"""

from __future__ import annotations

import bisect
import zlib
from array import array
from collections.abc import Callable, Sequence

__all__ = ["MEMO_WORDS", "Postings", "hash_slots"]

#: How many looked-up words a stored word table remembers (see :meth:`Postings.get`).
MEMO_WORDS = 1 << 16


class Postings:
    """A word -> ids table in flat arrays: ``ids[starts[k]:starts[k + 1]]`` for word ``k``.

    Built in memory it looks words up in a dict. Read from a stored index it
    needs no per-word table: ``slots`` (written with the words) is an
    open-addressing hash table of the words, a word's slot found from its
    CRC-32 (stable across processes, unlike ``hash``), so that a lookup reads
    one or two words whatever the table's size. A table stored without slots
    is searched by bisection (its words are sorted).

    >>> table = Postings.from_lists({"cache": [3, 4], "model": [1]})
    >>> list(table.get("cache")), list(table.get("nothing"))
    ([3, 4], [])
    >>> stored = Postings(
    ...     table.words, table.starts, table.ids, sorted_words=True, slots=table.slots
    ... )
    >>> list(stored.get("model")), list(stored.get("nothing"))
    ([1], [])
    """

    __slots__ = ("_memo", "_same", "ids", "keys", "slots", "starts", "words")

    def __init__(
        self,
        words: Sequence[str],
        starts: Sequence[int],
        ids: Sequence[int],
        *,
        sorted_words: bool = False,
        slots: Sequence[int] | None = None,
    ) -> None:
        """Wrap the three tables; ``words[k]`` owns ``ids[starts[k]:starts[k + 1]]``.

        With ``sorted_words`` (``words`` in sorted order, as :meth:`from_lists`
        writes them) a word is found through ``slots`` when given (see
        :func:`hash_slots`), else by bisection, instead of through a dict built
        here: opening a stored index then costs nothing per word.
        """
        self.words = words
        self.keys = None if sorted_words else {word: k for k, word in enumerate(words)}
        self.starts = starts
        self.ids = ids
        self.slots = slots
        #: The words looked up in a stored table, with what was found (see :meth:`get`).
        self._memo: dict[str, Sequence[int]] = {}
        self._same: Callable[[int, bytes], bool] | None = getattr(words, "same", None)

    @classmethod
    def from_lists(cls, table: dict[str, list[int]]) -> Postings:
        """Flatten a dict of id lists (words sorted, so equal input gives equal tables)."""
        words = sorted(table)
        starts = array("I", [0])
        ids = array("I")
        for word in words:
            ids.extend(table[word])
            starts.append(len(ids))
        return cls(words, starts, ids, slots=hash_slots(words))

    def get(self, word: str) -> Sequence[int]:
        """The ids filed under ``word`` (empty when none).

        A stored table remembers the words it was asked for (up to
        :data:`MEMO_WORDS`, then it starts over): messages share most of their
        words, and each lookup there decodes a word from the mapped file.
        """
        if self.keys is None:
            found = self._memo.get(word)
            if found is not None:
                return found
        k = self._find(word)
        found = () if k < 0 else self.ids[self.starts[k] : self.starts[k + 1]]
        if self.keys is None:
            if len(self._memo) >= MEMO_WORDS:
                self._memo.clear()
            self._memo[word] = found
        return found

    def span(self, word: str) -> tuple[int, int]:
        """Where ``word``'s ids lie in :attr:`ids` (``start == end`` when it has none).

        >>> Postings.from_lists({"cache": [3, 4], "model": [1]}).span("model")
        (2, 3)
        """
        k = self._find(word)
        return (0, 0) if k < 0 else (self.starts[k], self.starts[k + 1])

    def _find(self, word: str) -> int:
        if self.keys is not None:
            return self.keys.get(word, -1)
        words, slots = self.words, self.slots
        if slots is not None and len(slots) > 1:
            mask = len(slots) - 1
            at = zlib.crc32(data := word.encode("utf-8", "surrogatepass")) & mask
            same = self._same
            while taken := slots[at]:
                if same(taken - 1, data) if same is not None else words[taken - 1] == word:
                    return taken - 1
                at = (at + 1) & mask
            return -1
        k = bisect.bisect_left(words, word)
        return k if k < len(words) and words[k] == word else -1


def hash_slots(words: Sequence[str]) -> array[int]:
    """An open-addressing table of ``words``: slot -> word number + 1 (0: empty).

    Its size is the power of two at least twice the words' (so probes stay
    short); a word goes in the first free slot from its CRC-32, going up.
    """
    size = 1
    while size < 2 * len(words):
        size *= 2
    slots = array("I", bytes(4 * size))
    mask = size - 1
    for k, word in enumerate(words):
        at = zlib.crc32(word.encode("utf-8", "surrogatepass")) & mask
        while slots[at]:
            at = (at + 1) & mask
        slots[at] = k + 1
    return slots
