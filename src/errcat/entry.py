"""One distinct pattern of a :class:`~errcat.index.PatternIndex`, analysed once (:class:`Entry`).

A stored index keeps each simple pattern's pieces (:func:`stored_pieces`), so
that the first query to meet a pattern reads them instead of parsing the
pattern again (:func:`read_pieces`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from errcat.background import WordEvidence
from errcat.patterns import (
    CompiledPattern,
    compile_pattern,
    literal_fragments,
    pattern_pieces,
    pieces_wordless,
)
from errcat.text import words as text_words
from errcat.whole_message import whole_message_only

__all__ = ["Entry", "fragment_words", "read_pieces", "stored_pieces"]

#: How a stored pattern's pieces are joined (no piece holds it: else they are not stored).
_JOIN = "\x00"
#: What a stored index holds for a pattern whose pieces it does not keep.
_UNSTORED = "\x01"


def stored_pieces(pieces: tuple[str, ...] | None) -> str:
    r"""A pattern's :func:`pattern_pieces` as one string, what :func:`read_pieces` reads back.

    >>> stored_pieces(("bad ", " for ", ".")) == "bad \x00 for \x00."
    True
    >>> [read_pieces(stored_pieces(p)) for p in (("bad ", ""), ("",), None, ("\x00",))]
    [('bad ', ''), ('',), None, None]
    """
    if pieces is None or any(_JOIN in piece for piece in pieces):
        return _UNSTORED
    joined = _JOIN.join(pieces)
    return _UNSTORED if joined.startswith(_UNSTORED) else joined


def read_pieces(stored: str) -> tuple[str, ...] | None:
    """The pieces :func:`stored_pieces` kept (None: not kept, the pattern is parsed)."""
    return None if stored.startswith(_UNSTORED) else tuple(stored.split(_JOIN))


def fragment_words(fragments: tuple[str, ...]) -> frozenset[str]:
    """The lowercase words (:func:`errcat.text.words`) of a pattern's literal fragments.

    What :attr:`Entry.words` holds, and what a stored index keeps of each pattern for
    :meth:`PatternIndex.near <errcat.index.PatternIndex.near>`.

    >>> sorted(fragment_words(("Bad value ", " for Shard count")))
    ['bad', 'count', 'for', 'shard', 'value']
    """
    return frozenset(text_words(" ".join(fragments)))


@dataclass(eq=False)
class Entry:
    """One distinct pattern and the positions of the records that use it."""

    pattern: str
    records: tuple[int, ...]
    fragments: tuple[str, ...]
    literal_length: int
    #: Literal text around each ``(.+?)`` when the pattern is only that, else None.
    pieces: tuple[str, ...] | None
    #: How many patterns of the index contain this one's rarest word (0: no word).
    rarity: int = 0
    #: What the background model says of its words, when the index holds it (else
    #: the matcher asks the model).
    prior: WordEvidence | None = field(default=None, repr=False)
    _compiled: CompiledPattern | None = field(default=None, repr=False)
    _record_set: frozenset[int] | None = field(default=None, repr=False)
    _wordless: bool | None = field(default=None, repr=False)
    _whole: bool | None = field(default=None, repr=False)
    _words: frozenset[str] | None = field(default=None, repr=False)

    @classmethod
    def build(
        cls,
        pattern: str,
        records: tuple[int, ...],
        rarity: int = 0,
        prior: WordEvidence | None = None,
        pieces: tuple[str, ...] | None = None,
    ) -> Entry:
        """Analyse ``pattern`` once; ``pieces``: its :func:`pattern_pieces`, when known.

        >>> Entry.build("bad (.+?)", (0,), pieces=("bad ", "")).fragments
        ('bad ',)
        """
        if pieces is None:
            pieces = pattern_pieces(pattern)
        if pieces is None:
            fragments = literal_fragments(pattern)
        else:  # the same fragments, without tokenizing the regex again
            fragments = tuple(filter(str.strip, pieces))
        return cls(pattern, records, fragments, sum(map(len, fragments)), pieces, rarity, prior)

    @property
    def record_set(self) -> frozenset[int]:
        """:attr:`records` as a set (built on first use)."""
        if self._record_set is None:
            self._record_set = frozenset(self.records)
        return self._record_set

    @property
    def wordless(self) -> bool:
        """Whether the pattern has no word of its own (:func:`errcat.patterns.is_wordless`).

        Worked out on first use and kept (every stage of a match asks).

        >>> Entry.build("(.+?): (.+?)", (0,)).wordless, Entry.build("bad (.+?)", (0,)).wordless
        (True, False)
        """
        if self._wordless is None:
            self._wordless = self.pieces is not None and pieces_wordless(self.pieces)
        return self._wordless

    @property
    def whole(self) -> bool:
        r"""Whether the pattern matches only a whole message (:mod:`errcat.whole_message`).

        No word of its own outside its captures (``'(\w+)'``); every pattern
        without words (:attr:`wordless`) is one. Worked out on first use and kept.

        >>> Entry.build(r"'(\w+)'", (0,)).whole, Entry.build(r"name '(\w+)' is bad", (0,)).whole
        (True, False)
        """
        if self._whole is None:
            # A template's pattern: its pieces already say (:attr:`wordless`).
            self._whole = (
                self.wordless if self.pieces is not None else whole_message_only(self.pattern)
            )
        return self._whole

    @property
    def words(self) -> frozenset[str]:
        """The lowercase words of its literal text (:func:`errcat.text.words`), found once.

        Every message that shares a word with the pattern asks (:meth:`PatternIndex.near
        <errcat.index.PatternIndex.near>`): a pattern's words are split out once, not
        once per message.

        >>> sorted(Entry.build("Bad value (.+?) for Shard count", (0,)).words)
        ['bad', 'count', 'for', 'shard', 'value']
        """
        if self._words is None:
            self._words = fragment_words(self.fragments)
        return self._words

    @property
    def compiled(self) -> CompiledPattern:
        """The compiled pattern, built on first use."""
        if self._compiled is None:
            self._compiled = compile_pattern(self.pattern)
        return self._compiled

    @property
    def groups(self) -> int:
        """Number of capture groups."""
        return len(self.pieces) - 1 if self.pieces is not None else self.compiled.groups
