"""Find the few patterns a message can possibly match, in time that does not grow with the catalog.

Every distinct ``messagePattern`` is one pattern of the index (records that
share a message share it). A pattern can only match a message that contains
all of its literal fragments, and therefore every whole word of them. Each
pattern is filed under its two rarest such words (its *anchors*); a message's
candidates are the patterns filed under the words it contains, kept when all
their fragments occur in order. Patterns without a usable word (``{a}: {b}``)
are always candidates. Lookup costs one dictionary probe per word of the
message, whatever the catalog size.

Two engines share one interface (:class:`PatternIndex`): the prefilter above,
and :class:`ScanIndex`, which proposes every pattern (the every-regex loop the
prefilter must agree with; tests run the same corpus through both).

>>> idx = PatternIndex(["bad value (.+?) for (.+?)", "disk full", "(.+?): (.+?)"])
>>> [e.pattern for e in idx.candidates("bad value 3 for x: y")]
['bad value (.+?) for (.+?)', '(.+?): (.+?)']
>>> [e.pattern for e in idx.candidates("nothing: here")]
['(.+?): (.+?)']
"""

from __future__ import annotations

import functools
import re
import zlib
from array import array
from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from errcat.background import WordEvidence, word_evidence
from errcat.entry import Entry, fragment_words, read_pieces, stored_pieces
from errcat.openings import OpeningColumns, opening_columns
from errcat.patterns import literal_fragments, pattern_pieces
from errcat.postings import Postings, hash_slots
from errcat.text import fold_whitespace, words

__all__ = [
    "Entry",
    "IndexTables",
    "NearColumns",
    "OpeningColumns",
    "PatternIndex",
    "Postings",
    "ScanIndex",
    "WordColumns",
    "ends_inside",
    "fold_whitespace",
    "hash_slots",
    "words",
]

_WORD = re.compile(r"\w+")

#: A pattern is filed under its rarest word, and under its runner-up while that is
#: rare too (it helps a drifted message find its pattern). A word shared by more
#: patterns than this is not used as a second anchor, nor to
#: look up cut-off messages by their first word; a pattern whose rarest word is
#: that common is filed under the pair of its two rarest words instead.
RARE_WORD = 64
#: How many patterns opening with a text's first word a wide prefix search reads.
WIDE_FIRST_WORD = 256
#: A message with more distinct pair-anchor words than this probes the pair-anchored
#: patterns by their rarest word instead of by every pair (bounded work, same answers).
PAIR_WORDS_MAX = 48
_PAIR = "\x00"
_NONE: frozenset[str] = frozenset()


def _bounded_words(pieces: Sequence[str]) -> set[str]:
    """Words of the literal pieces that are whole words in any message the pattern matches.

    A word touching a placeholder could be glued to the placeholder's value,
    so only words with a non-word character (or the message's start or end)
    on both sides count.
    """
    found: set[str] = set()
    last = len(pieces) - 1
    for index, piece in enumerate(pieces):
        piece_words = _WORD.findall(piece)
        if not piece_words:
            continue
        if index != last and (piece[-1].isalnum() or piece[-1] == "_"):
            piece_words.pop()  # glued to the next placeholder
        if piece_words and index != 0 and (piece[0].isalnum() or piece[0] == "_"):
            piece_words.pop(0)  # glued to the previous placeholder
        found.update(piece_words)
    return found


def _lead_words(pieces: Sequence[str]) -> set[str]:
    """The whole words of a pattern's first fragment (see :func:`_bounded_words`).

    >>> sorted(_lead_words(("No processor for ", ". Registered: ", "")))
    ['No', 'for', 'processor']
    >>> sorted(_lead_words(("", " is not a multimodal model", "")))
    ['a', 'is', 'multimodal', 'not']
    """
    first = next((i for i, piece in enumerate(pieces) if piece.strip()), None)
    if first is None:
        return set()
    return _bounded_words(tuple(piece if i == first else "" for i, piece in enumerate(pieces)))


@dataclass(frozen=True)
class IndexTables:
    """Everything a :class:`PatternIndex` is made of, as flat sequences."""

    patterns: Sequence[str]
    starts: Sequence[int]
    records: Sequence[int]
    anchors: Postings
    first_words: Postings
    always: Sequence[int]
    #: For each pattern, how many patterns contain its rarest word (0: it has none).
    rarity: Sequence[int]
    #: For each pattern, its longest literal fragment: a message without it cannot match.
    keys: Sequence[str]
    #: Patterns filed under a pair of words ("a\x00b", a < b) ...
    pairs: Postings
    #: ... and the same patterns under their rarest word, for very wordy messages.
    common: Postings
    #: For each pattern, the :func:`word_mask` of the words inside its key (see
    #: :func:`key_words`): a text whose mask lacks a bit of it cannot hold the key.
    key_masks: Sequence[int]
    #: The opening literals of the patterns of each first word that opens more than
    #: :data:`WIDE_FIRST_WORD` (:mod:`errcat.openings`).
    openings: OpeningColumns
    #: For each pattern, its :class:`~errcat.background.WordEvidence`, as three columns
    #: (bits, projects, flags: see :class:`WordColumns`); None when not worked out.
    priors: WordColumns | None = None
    #: For each pattern, its pieces as :func:`~errcat.entry.stored_pieces` keeps them.
    pieces: Sequence[str] | None = None
    #: The index of the patterns without their backticks, and for each of its patterns
    #: the one it came from (:mod:`errcat.untick`), when a stored index keeps them.
    unticked: tuple[IndexTables, Sequence[int]] | None = None
    #: For each pattern, what :meth:`PatternIndex.near` ranks it by (:class:`NearColumns`),
    #: when a stored index keeps it.
    near: NearColumns | None = None


@dataclass(frozen=True)
class WordColumns:
    """Every pattern's :class:`~errcat.background.WordEvidence`, column by column."""

    #: Bits of information of its literal words (float64: the very value the model gives).
    bits: Sequence[float]
    #: How many projects raise its shape.
    projects: Sequence[int]
    #: 1: its fragments hold a word; 2: C raises its wording.
    flags: Sequence[int]


@dataclass(frozen=True)
class NearColumns:
    """What :meth:`PatternIndex.near` reads of every pattern, column by column.

    So that ranking the patterns a text proposes builds no :class:`Entry` (only
    the few ranked first are built).
    """

    #: Its :attr:`~errcat.entry.Entry.words`, sorted and joined by spaces (:func:`near_words`).
    words: Sequence[str]
    #: Its :attr:`~errcat.entry.Entry.literal_length`.
    literal: Sequence[int]


def near_words(spelled: str) -> frozenset[str]:
    """The words a :attr:`NearColumns.words` string holds.

    >>> sorted(near_words("bad value")), near_words("")
    (['bad', 'value'], frozenset())
    """
    return frozenset(spelled.split(" ")) if spelled else frozenset()


class PatternIndex:
    """The prefilter: map a whitespace-folded message to the patterns it may match."""

    #: Whether verification may use the regex-free path for literal-and-group patterns.
    uses_pieces = True

    def __init__(self, patterns: Iterable[str], *, priors: bool = False) -> None:
        """Index ``patterns``; the n-th pattern belongs to the record at position n.

        ``priors`` also works out each pattern's word evidence (:attr:`priors`) and
        what :meth:`near` ranks it by (:attr:`near_columns`), from the pieces indexing
        splits anyway: what a stored index keeps.
        """
        self._entries: dict[int, Entry] = {}
        self._keys_read: dict[int, str] = {}
        self._near_read: dict[int, tuple[frozenset[str], int]] = {}
        #: What a stored index keeps of the unticked patterns (see :class:`IndexTables`).
        self.unticked_tables: tuple[IndexTables, Sequence[int]] | None = None
        ids: dict[str, int] = {}
        record_pattern = array("I")
        for pattern in patterns:
            pid = ids.setdefault(pattern, len(ids))
            record_pattern.append(pid)
        self.patterns: Sequence[str] = list(ids)
        del ids
        # Records of each pattern, CSR style: records[starts[p]:starts[p + 1]].
        counts = [0] * (len(self.patterns) + 1)
        for pid in record_pattern:
            counts[pid + 1] += 1
        for p in range(len(self.patterns)):
            counts[p + 1] += counts[p]
        self._starts: Sequence[int] = array("I", counts)
        fill = list(counts[:-1])
        records = array("I", bytes(4 * len(record_pattern)))
        for position, pid in enumerate(record_pattern):
            records[fill[pid]] = position
            fill[pid] += 1
        self._records: Sequence[int] = records
        self._build_anchors(priors)

    @classmethod
    def from_tables(cls, tables: IndexTables) -> PatternIndex:
        """An index over tables built earlier (see :meth:`tables`), e.g. read from disk."""
        index = cls.__new__(cls)
        index._entries = {}
        index._keys_read = {}
        index._near_read = {}
        index.patterns = tables.patterns
        index._starts = tables.starts
        index._records = tables.records
        index._anchors = tables.anchors
        index._first_words = tables.first_words
        index.always = tables.always
        index.rarity = tables.rarity
        index.keys = tables.keys
        index.key_masks = tables.key_masks
        index.priors = tables.priors
        index.pieces = tables.pieces
        index.near_columns = tables.near
        index._pairs = tables.pairs
        index._common = tables.common
        index._pair_words, index._pair_later = _pair_words(tables.pairs)
        index.unticked_tables = tables.unticked
        index.openings = tables.openings
        return index

    def tables(self) -> IndexTables:
        """The flat tables this index is made of (what a stored index holds)."""
        return IndexTables(
            patterns=self.patterns,
            starts=self._starts,
            records=self._records,
            anchors=self._anchors,
            first_words=self._first_words,
            always=self.always,
            rarity=self.rarity,
            keys=self.keys,
            key_masks=self.key_masks,
            priors=self.priors,
            pieces=self.pieces,
            pairs=self._pairs,
            common=self._common,
            unticked=self.unticked_tables,
            near=self.near_columns,
            openings=self.openings,
        )

    def _build_anchors(self, priors: bool = False) -> None:
        # Words are numbered (vocab) and each pattern's words kept in one flat array,
        # so a million patterns do not cost a million Python sets.
        vocab: dict[str, int] = {}
        frequency = array("I")
        pattern_words = array("I")
        bounds = array("I", [0])
        first_words: dict[str, list[int]] = {}
        keys: list[str] = []
        key_masks = array("Q")
        # The words of each pattern's first fragment (a cut-off text holds no other).
        lead_words = array("I")
        lead_bounds = array("I", [0])
        prior_bits, prior_projects, prior_flags = array("d"), array("I"), array("B")
        kept: list[str] = []
        near_spelled: list[str] = []
        near_literal = array("I")
        memo: dict[str, float] = {}
        # Each pattern's opening literal, and whether a placeholder follows it.
        openings: list[str] = []
        opening_groups: list[bool] = []
        for pid in range(len(self.patterns)):
            pattern = self.patterns[pid]
            pieces = pattern_pieces(pattern)
            simple = pieces is not None
            if pieces is None:
                # Hand-written regex: only words inside a fragment are sure to be whole.
                pieces = ("", *literal_fragments(pattern), "")
            if priors:
                kept.append(stored_pieces(pieces if simple else None))
                # Entry.build's fragments, from the same pieces.
                fragments = tuple(p for p in pieces if p.strip()) if simple else pieces[1:-1]
                told = word_evidence(fragments, memo)
                near_spelled.append(" ".join(sorted(fragment_words(fragments))))
                near_literal.append(sum(map(len, fragments)))
                prior_bits.append(told.information)
                prior_projects.append(told.projects)
                prior_flags.append(int(told.has_words) | 2 * int(told.c_wording))
            keys.append(max((p for p in pieces if p.strip()), key=len, default=""))
            key_masks.append(word_mask(key_words(keys[-1])))
            in_lead = _lead_words(pieces)
            for word in _bounded_words(pieces):
                k = vocab.get(word)
                if k is None:
                    k = vocab[word] = len(vocab)
                    frequency.append(0)
                frequency[k] += 1
                pattern_words.append(k)
                if word in in_lead:
                    lead_words.append(k)
            bounds.append(len(pattern_words))
            lead_bounds.append(len(lead_words))
            lead = _WORD.match(pieces[0])
            if lead:
                first_words.setdefault(lead.group(), []).append(pid)
            openings.append(pieces[0])
            opening_groups.append(simple and len(pieces) > 1)
        spelled = list(vocab)
        del vocab

        # Each word's rank, rarest first; ties broken by length, then spelling, so that
        # files are stable. Comparing ranks (C-level lookups) is what makes this loop fast.
        order = sorted(
            range(len(spelled)), key=lambda k: (frequency[k], -len(spelled[k]), spelled[k])
        )
        rank = array("I", bytes(4 * len(spelled)))
        for position, k in enumerate(order):
            rank[k] = position
        del order
        rarity = rank.__getitem__

        anchors: dict[str, list[int]] = {}
        pairs: dict[str, list[int]] = {}
        common: dict[str, list[int]] = {}
        always: list[int] = []
        rarest = array("I", bytes(4 * len(self.patterns)))
        for pid in range(len(self.patterns)):
            ids = pattern_words[bounds[pid] : bounds[pid + 1]]
            if not ids:
                always.append(pid)
                continue
            best = min(ids, key=rarity)
            second = min((k for k in ids if k != best), key=rarity) if len(ids) > 1 else None
            rarest[pid] = frequency[best]
            if frequency[best] > RARE_WORD and second is not None:
                # Even the rarest word is common: the pair of the two rarest is selective.
                a, b = sorted((spelled[best], spelled[second]))
                pairs.setdefault(a + _PAIR + b, []).append(pid)
                common.setdefault(spelled[best], []).append(pid)
                continue
            anchors.setdefault(spelled[best], []).append(pid)
            if second is not None and frequency[second] <= RARE_WORD:
                anchors.setdefault(spelled[second], []).append(pid)
            leading = lead_words[lead_bounds[pid] : lead_bounds[pid + 1]]
            if leading and best not in leading and second not in leading:
                # Both anchors come after the first fragment, where a cut-off text (an
                # issue title) may stop: its rarest word files it too, if rare enough.
                first = min(leading, key=rarity)
                if frequency[first] <= RARE_WORD:
                    anchors.setdefault(spelled[first], []).append(pid)
        self._anchors = Postings.from_lists(anchors)
        self._pairs = Postings.from_lists(pairs)
        self._common = Postings.from_lists(common)
        self._pair_words, self._pair_later = _pair_words(self._pairs)
        self._first_words = Postings.from_lists(first_words)
        #: Where a text cut inside a common first word's openings is looked up.
        self.openings: OpeningColumns = opening_columns(
            first_words, openings, opening_groups, least=WIDE_FIRST_WORD
        )
        self.always: Sequence[int] = array("I", always)
        self.rarity: Sequence[int] = rarest
        self.keys: Sequence[str] = keys
        self.key_masks: Sequence[int] = key_masks
        #: Each pattern's word evidence (:class:`WordColumns`), when a stored index holds
        #: it; an index built in memory leaves it to the matcher's (cached) questions.
        self.priors: WordColumns | None = (
            WordColumns(prior_bits, prior_projects, prior_flags) if priors else None
        )
        #: Each pattern's pieces (:func:`~errcat.entry.stored_pieces`), kept with the priors.
        self.pieces: Sequence[str] | None = kept if priors else None
        #: What :meth:`near` ranks each pattern by, kept with the priors (else read from
        #: each pattern's :class:`Entry`).
        self.near_columns: NearColumns | None = (
            NearColumns(near_spelled, near_literal) if priors else None
        )

    def __len__(self) -> int:
        """Number of distinct patterns."""
        return len(self.patterns)

    def records_of(self, pid: int) -> tuple[int, ...]:
        """Positions of the records that use pattern ``pid``."""
        return tuple(self._records[self._starts[pid] : self._starts[pid + 1]])

    def entry(self, pid: int) -> Entry:
        """The analysed pattern ``pid`` (built on first use and kept)."""
        entry = self._entries.get(pid)
        if entry is None:
            columns = self.priors
            prior = None
            if columns is not None:
                flags = columns.flags[pid]
                prior = WordEvidence(
                    columns.bits[pid], columns.projects[pid], bool(flags & 1), bool(flags & 2)
                )
            stored = self.pieces
            pieces = None if stored is None else read_pieces(stored[pid])
            entry = Entry.build(
                self.patterns[pid], self.records_of(pid), self.rarity[pid], prior, pieces
            )
            self._entries[pid] = entry
        return entry

    def _proposed(self, text: str) -> AbstractSet[int]:
        """The patterns filed under the words of ``text`` (and those always proposed).

        The last few texts' answers are kept: the exact and the cut-off lookups of
        one message ask for the same text.
        """
        cached = self.__dict__.get("_proposed_cache")
        if cached is None:
            cached = self._proposed_cache = functools.lru_cache(maxsize=8)(self._find_proposed)
        return cached(text)

    def _find_proposed(self, text: str) -> frozenset[int]:
        pids: set[int] = set(self.always)
        anchors = self._anchors.get
        present = _text_words(text)
        for word in present:
            hit = anchors(word)
            if hit:
                pids.update(hit)
        if self._pair_words:
            paired = present & self._pair_words
            if len(paired) > PAIR_WORDS_MAX:
                for word in paired:
                    pids.update(self._common.get(word))
            else:
                later, pairs = self._pair_later, self._pairs.get
                for a in paired:  # only the pairs the index holds
                    for b in later.get(a, _NONE) & present:
                        hit = pairs(a + _PAIR + b)
                        if hit:
                            pids.update(hit)
        return frozenset(pids)

    def _key(self, pid: int) -> str:
        """Pattern ``pid``'s longest fragment; a stored index's are decoded once, then kept."""
        key = self._keys_read.get(pid)
        if key is None:
            key = self._keys_read[pid] = self.keys[pid]
        return key

    def _with_key(self, text: str, proposed: Iterable[int] | None = None) -> Iterator[int]:
        """Proposed patterns whose longest fragment occurs in ``text`` (no analysis needed).

        A key not read yet is read only when the text holds every word inside it (by
        the key's word mask, :func:`key_words`): most proposed patterns' keys are
        not in the text, and reading one from a stored index costs more than the test.
        """
        pids = self._proposed(text) if proposed is None else proposed
        read = self._keys_read
        masks = self.key_masks
        lacking = None
        for pid in pids:
            key = read.get(pid)
            if key is None:
                if lacking is None:
                    lacking = ~_text_mask(text)
                if masks[pid] & lacking:
                    continue  # a word inside the key is not in the text
                key = read[pid] = self.keys[pid]
            if key in text:
                yield pid

    def candidates(self, text: str, leave_out: AbstractSet[int] = frozenset()) -> list[Entry]:
        """Patterns whose fragments all occur in ``text`` in order, most specific first."""
        found = []
        for pid in self._with_key(text, self._proposed(text) - leave_out if leave_out else None):
            entry = self.entry(pid)
            if _in_order(entry.fragments, text):
                found.append(entry)
        found.sort(key=_rank_key)
        return found

    def unpunctuated_candidates(self, text: str) -> list[Entry]:
        """Patterns ending in a period that ``text`` holds without it, a sentence going on.

        ``...increase --mem-fraction-static error occurs.`` quotes a message
        that ends ``--mem-fraction-static.`` in prose; its longest fragment,
        period included, is not in the text.
        """
        found = []
        read, masks, lacking = self._keys_read, self.key_masks, ~_text_mask(text)
        for pid in self._proposed(text):
            # A key not read yet is read only when the text holds every word inside it (its
            # mask): holding the key but its period, then a space, it holds all of them.
            key = read.get(pid) or (None if masks[pid] & lacking else self._key(pid))
            if key is None or len(key) < 2 or not key.endswith(".") or key[:-1] + " " not in text:
                continue
            entry = self.entry(pid)
            if (
                entry.pattern.endswith(r"\.")
                and not key[-2].isspace()
                and _in_order((*entry.fragments[:-1], entry.fragments[-1][:-1]), text)
            ):
                found.append(entry)
        found.sort(key=_rank_key)
        return found

    def prefix_candidates(self, text: str, *, wide: bool = False) -> list[Entry]:
        """Patterns ``text`` could be a cut-off rendering of (it holds their first fragment).

        ``wide`` also reads the patterns that open with the text's first word when
        that word opens up to :data:`WIDE_FIRST_WORD` of them (a second pass, for a
        text nothing else answered: ``CUDA out of memory. ... is free.`` cut
        before the template's longest fragment).
        """
        # Patterns whose longest fragment is in the text or is cut partway by the text's
        # end (an issue title stops at the end of a sentence its template goes on
        # from), and those that start with the text's first word (the cut may have
        # removed everything else).
        lead = _WORD.match(text)
        sharing = self._first_words.get(lead.group()) if lead else ()
        opening = bool(sharing) and len(sharing) <= (WIDE_FIRST_WORD if wide else RARE_WORD)
        return list(self._prefix_entries(text, opening))

    def _prefix_entries(self, text: str, opening: bool) -> tuple[Entry, ...]:
        """:meth:`prefix_candidates`, with the patterns the first word opens or without.

        The last few answers are kept: the wide pass asks again for the first pass's texts.
        """
        cached = self.__dict__.get("_prefix_cache")
        if cached is None:
            cached = self._prefix_cache = functools.lru_cache(maxsize=8)(self._find_prefix)
        found: tuple[Entry, ...] = cached(text, opening)
        return found

    def _find_prefix(self, text: str, opening: bool) -> tuple[Entry, ...]:
        pids = self._cut_pids(text)
        lead = _WORD.match(text)
        if opening and lead:
            pids = pids.union(self._first_words.get(lead.group()))  # a new set
        out = []
        for pid in pids:
            entry = self.entry(pid)
            if not entry.fragments:
                continue
            first = entry.fragments[0]
            if first in text or (len(text) >= 12 and first.startswith(text)):
                out.append(entry)
        out.sort(key=_rank_key)
        return tuple(out)

    def _cut_pids(self, text: str) -> frozenset[int]:
        """Proposed patterns whose longest fragment is in ``text`` or cut by its end."""
        proposed = self._proposed(text)
        pids = set(self._with_key(text, proposed))
        key_of = self._key
        pids.update(
            pid
            for pid in proposed
            if pid not in pids
            # a text that lacks the key's first four characters ends inside no part of it
            and (key := key_of(pid))[:_CUT_MIN_CHARS] in text
            and ends_inside(text, key)
        )
        return frozenset(pids)

    def near(
        self, text: str, limit: int = 5, *, within: frozenset[int] | None = None
    ) -> list[tuple[int, int, Entry]]:
        """Patterns sharing the most words with ``text``, as (shared, pattern's words, entry).

        Candidates are the patterns filed under the message's words, so a
        message that drifted (a word changed, a clause added) still reaches
        its pattern through the words it kept. With ``within``, only patterns
        of those record positions count. Ranked by the share of words, then the
        literal length, then the pattern; the words and lengths are read from
        :attr:`near_columns` where the index keeps them, and only the patterns
        returned (and those tied with the last on both) are read whole.

        >>> index = PatternIndex(["bad zqa value (.+?)", "zqa (.+?) failed", "zqb"], priors=True)
        >>> [(shared, total, e.pattern) for shared, total, e in index.near("zqa value", limit=2)]
        [(2, 3, 'bad zqa value (.+?)'), (1, 2, 'zqa (.+?) failed')]
        """
        message_words = set(words(text))
        if not message_words or limit < 1:
            return []
        scored: list[tuple[float, int, int, int, int]] = []
        for pid in self._proposed(text):
            if within is not None and within.isdisjoint(self.records_of(pid)):
                continue
            entry_words, literal = self._near_of(pid)
            if not entry_words:
                continue
            shared = len(entry_words & message_words)
            if shared:
                overlap = 2 * shared / (len(entry_words) + len(message_words))
                scored.append((-overlap, -literal, pid, shared, len(entry_words)))
        scored.sort(key=_share_and_length)
        if len(scored) > limit:
            # Past the limit, only the patterns tied with the last kept on share and
            # length can rank above it by their spelling.
            edge, end = _share_and_length(scored[limit - 1]), limit
            while end < len(scored) and _share_and_length(scored[end]) == edge:
                end += 1
            del scored[end:]
        patterns = self.patterns
        scored.sort(key=lambda item: (item[0], item[1], patterns[item[2]]))
        return [(shared, total, self.entry(pid)) for _, _, pid, shared, total in scored[:limit]]

    def _near_of(self, pid: int) -> tuple[frozenset[str], int]:
        """Pattern ``pid``'s words and literal length (:meth:`near`), read once, then kept."""
        found = self._near_read.get(pid)
        if found is None:
            columns = self.near_columns
            if columns is None:
                entry = self.entry(pid)
                found = (entry.words, entry.literal_length)
            else:
                found = (near_words(columns.words[pid]), columns.literal[pid])
            self._near_read[pid] = found
        return found


class ScanIndex(PatternIndex):
    """No prefilter: every pattern is a candidate and verified by its regex.

    This is the every-regex loop; it exists to check (and measure) the
    prefilter, which must give the same answers.
    """

    uses_pieces = False

    def _proposed(self, text: str) -> AbstractSet[int]:
        return frozenset(range(len(self.patterns)))

    def candidates(self, text: str, leave_out: AbstractSet[int] = frozenset()) -> list[Entry]:
        """Every pattern (but ``leave_out``), most specific first."""
        every = (self.entry(pid) for pid in range(len(self.patterns)) if pid not in leave_out)
        return sorted(every, key=_rank_key)


def _share_and_length(item: tuple[float, int, int, int, int]) -> tuple[float, int]:
    """A :meth:`PatternIndex.near` candidate's rank before its spelling: share, then length."""
    return item[0], item[1]


def key_words(key: str) -> set[str]:
    r"""The words of a key that any text holding the key holds as whole words.

    Those with a non-word character on both sides inside the key: the text has the
    same characters there, so each is one of the text's ``\w+`` runs. (A word at
    the key's edge may be glued to the text around it.)

    >>> sorted(key_words(" must be non-negative, got "))
    ['be', 'got', 'must', 'negative', 'non']
    >>> sorted(key_words("bad value for x"))
    ['for', 'value']
    """
    return {m.group() for m in _WORD.finditer(key) if m.start() > 0 and m.end() < len(key)}


def word_mask(found: Iterable[str]) -> int:
    """A 64-bit mask with one bit per word (its CRC-32 modulo 64; stable across processes).

    >>> word_mask(["a"]) == 1 << (zlib.crc32(b"a") & 63), word_mask([])
    (True, 0)
    """
    mask = 0
    for word in found:
        mask |= 1 << (zlib.crc32(word.encode("utf-8", "surrogatepass")) & 63)
    return mask


#: Each word's :func:`word_mask` bit, for the words of the texts looked up (messages share
#: most of their words: a word is hashed once); started over past :data:`_WORD_BITS_MAX`.
_WORD_BITS: dict[str, int] = {}
_WORD_BITS_MAX = 1 << 16


@functools.lru_cache(maxsize=8)
def _text_words(text: str) -> frozenset[str]:
    r"""The ``\w+`` runs of a text (the last few texts kept: the lookups of one message ask)."""
    return frozenset(_WORD.findall(text))


@functools.lru_cache(maxsize=8)
def _text_mask(text: str) -> int:
    r"""The :func:`word_mask` of every ``\w+`` run of a text (the last few texts kept).

    >>> _text_mask("bad value, bad key") == word_mask(["bad", "value", "key"])
    True
    """
    bits = _WORD_BITS
    mask = 0
    for word in _text_words(text):
        bit = bits.get(word)
        if bit is None:
            if len(bits) >= _WORD_BITS_MAX:
                bits.clear()
            bit = bits[word] = word_mask((word,))
        mask |= bit
    return mask


def _pair_words(pairs: Postings) -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    """Every half of a pair anchor, and each first half's partners (decoded once).

    >>> words, later = _pair_words(Postings.from_lists({f"a{_PAIR}b": [0], f"a{_PAIR}c": [1]}))
    >>> sorted(words), {w: sorted(p) for w, p in later.items()}
    (['a', 'b', 'c'], {'a': ['b', 'c']})
    """
    later: dict[str, list[str]] = {}
    for key in pairs.words:
        first, second = key.split(_PAIR)
        later.setdefault(first, []).append(second)
    halves = {w for partners in later.values() for w in partners}
    return frozenset(halves.union(later)), {w: frozenset(p) for w, p in later.items()}


#: The least of a fragment a cut-off text must end with to be cut inside it.
_CUT_MIN_CHARS = 4


def ends_inside(text: str, fragment: str) -> bool:
    """Whether ``text`` ends partway through ``fragment``: with its start, not all of it.

    The start must be at least four characters.

    >>> ends_inside("X are not supported for now.", " are not supported for now. Use: ")
    True
    >>> ends_inside("X are not supported for now.", " is fine. Use: ")
    False
    >>> ends_inside("all of it. Use: ", " it. Use: ")
    False
    """
    longest = min(len(fragment) - 1, len(text))
    lead = fragment[:_CUT_MIN_CHARS]
    at = text.find(lead, len(text) - longest)
    while at >= 0:
        if fragment.startswith(text[at:]) and len(text) - at >= _CUT_MIN_CHARS:
            return True
        at = text.find(lead, at + 1)
    return False


def _rank_key(entry: Entry) -> tuple[int, int, str]:
    return (-entry.literal_length, entry.groups, entry.pattern)


def _in_order(fragments: Sequence[str], text: str) -> bool:
    position = 0
    for fragment in fragments:
        found = text.find(fragment, position)
        if found < 0:
            return False
        position = found + len(fragment)
    return True
