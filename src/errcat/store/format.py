"""The stored index's file format: sections of strings and arrays, checksummed, no pickle.

The file is the magic, the sections (8-byte aligned), then the header as a
trailer (format, byte order, the data files it was built from, problems, and
each section's offset, length and CRC-32), its length and the magic again.

>>> blob, offsets = StringTable.encode(["ab", "", "cd"])
>>> table = StringTable(blob, offsets)
>>> list(table), table.occurs_in(2, b"xcdx")
(['ab', '', 'cd'], True)
"""

from __future__ import annotations

import bisect
import json
import os
import sys
import zlib
from array import array
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from errcat import background
from errcat.entry import fragment_words, stored_pieces
from errcat.index import (
    Entry,
    IndexTables,
    NearColumns,
    OpeningColumns,
    PatternIndex,
    WordColumns,
)
from errcat.patterns import pattern_pieces
from errcat.postings import Postings, hash_slots
from errcat.store.base import problem_dict
from errcat.store.build import Built
from errcat.tags import PHRASE_TAG_PREFIX
from errcat.untick import build_unticked

__all__ = [
    "ARRAY_KINDS",
    "FORMAT_VERSION",
    "MAGIC",
    "PHRASE_ROWS",
    "UNTICKED",
    "StringTable",
    "near_columns",
    "near_of",
    "postings_of",
    "priors_of",
    "tables_of",
    "word_columns",
    "write_index",
]

#: Bumped whenever the stored index layout changes, or what it keeps of a pattern does
#: (:func:`errcat.patterns.pattern_pieces`, the background's word evidence, the words
#: :meth:`~errcat.index.PatternIndex.near` ranks by); other versions are rebuilt.
FORMAT_VERSION = 16
MAGIC = b"ERRCATIX"


class StringTable(Sequence[str]):
    """Strings stored back to back in one buffer, decoded one at a time on access."""

    __slots__ = ("_blob", "_offsets")

    def __init__(self, blob: memoryview | bytes, offsets: Sequence[int]) -> None:
        """``offsets`` has one more item than there are strings."""
        self._blob = blob
        self._offsets = offsets

    @staticmethod
    def encode(strings: Iterable[str]) -> tuple[bytes, array[int]]:
        """The buffer and offsets of ``strings``."""
        parts = []
        offsets = array("Q", [0])
        total = 0
        for text in strings:
            data = text.encode("utf-8", "surrogatepass")
            parts.append(data)
            total += len(data)
            offsets.append(total)
        return b"".join(parts), offsets

    def __len__(self) -> int:
        """Number of strings."""
        return len(self._offsets) - 1

    def occurs_in(self, index: int, haystack: bytes) -> bool:
        """Whether string ``index`` occurs in ``haystack`` (UTF-8), without decoding it."""
        return haystack.find(self._blob[self._offsets[index] : self._offsets[index + 1]]) >= 0

    def holds(self, index: int, data: bytes) -> bool:
        """Whether string ``index`` holds ``data`` (UTF-8), without decoding it.

        >>> table = StringTable(*StringTable.encode(["ab", "cab"]))
        >>> table.holds(1, b"ca"), table.holds(0, b"ca")
        (True, False)
        """
        offsets = self._offsets
        return data in bytes(self._blob[offsets[index] : offsets[index + 1]])

    def __getitem__(self, index: int) -> str:  # type: ignore[override]
        """The string at ``index`` (slices are not supported).

        >>> table = StringTable(*StringTable.encode(["ab", "é"]))
        >>> table[1], table[-2]
        ('é', 'ab')
        """
        offsets = self._offsets
        if index < 0:
            index += len(offsets) - 1
            if index < 0:
                raise IndexError(index)
        # One lookup past the last string fails as the offsets run out; decoded from
        # the buffer in place (no copy to bytes first).
        return str(self._blob[offsets[index] : offsets[index + 1]], "utf-8", "surrogatepass")

    def holding(self, data: bytes) -> list[int]:
        """The indexes of the strings that hold ``data`` (UTF-8), found in the whole buffer.

        One scan of the buffer, not a decode per string: what finds the few rows
        carrying a rare tag among a million.

        >>> StringTable(*StringTable.encode(["ab", "cab", "d", "abab"])).holding(b"ab")
        [0, 1, 3]
        """
        blob, offsets = bytes(self._blob), self._offsets
        found: list[int] = []
        at = blob.find(data)
        while at >= 0:
            number = bisect.bisect_right(offsets, at) - 1
            if offsets[number + 1] - at >= len(data):  # not across two strings
                found.append(number)
                at = blob.find(data, offsets[number + 1])
            else:
                at = blob.find(data, at + 1)
        return found

    def same(self, index: int, data: bytes) -> bool:
        """Whether string ``index`` is ``data`` (its UTF-8 bytes), without decoding it.

        >>> StringTable(*StringTable.encode(["ab", "é"])).same(1, "é".encode())
        True
        """
        offsets = self._offsets
        return self._blob[offsets[index] : offsets[index + 1]] == data


def _sections(built: Built, index: PatternIndex) -> Iterator[tuple[str, bytes | memoryview]]:
    """The stored index's sections, built one at a time so each can be written and dropped."""
    tables = index.tables()

    def arr(kind: str, values: Iterable[int]) -> bytes:
        return array(kind, values).tobytes()

    def strings(name: str, offsets_name: str, values: Iterable[str]) -> Iterator[tuple[str, bytes]]:
        blob, offsets = StringTable.encode(values)
        yield name, blob
        del blob
        yield offsets_name, offsets.tobytes()

    def postings(name: str, table: Postings) -> Iterator[tuple[str, bytes]]:
        yield from strings(f"{name}_words", f"{name}_word_offsets", table.words)
        yield f"{name}_starts", arr("I", table.starts)
        yield f"{name}_ids", arr("I", table.ids)
        yield f"{name}_slots", arr("I", table.slots or hash_slots(table.words))

    def index_tables(prefix: str, t: IndexTables) -> Iterator[tuple[str, bytes]]:
        yield from strings(f"{prefix}patterns", f"{prefix}pattern_offsets", t.patterns)
        yield f"{prefix}starts", arr("I", t.starts)
        yield f"{prefix}records", arr("I", t.records)
        yield from postings(f"{prefix}anchor", t.anchors)
        yield from postings(f"{prefix}first", t.first_words)
        yield f"{prefix}always", arr("I", t.always)
        yield f"{prefix}rarity", arr("I", t.rarity)
        yield from strings(f"{prefix}keys", f"{prefix}key_offsets", t.keys)
        yield f"{prefix}key_masks", arr("Q", t.key_masks)
        yield from postings(f"{prefix}pair", t.pairs)
        yield from postings(f"{prefix}common", t.common)
        yield from postings(f"{prefix}opening", t.openings.by_word)
        yield from strings(
            f"{prefix}opening_literals", f"{prefix}opening_literal_offsets", t.openings.literals
        )
        yield f"{prefix}opening_groups", arr("B", t.openings.groups)

    yield from index_tables("", tables)
    # The patterns without their backticks, indexed here once rather than on the
    # first message that needs them (errcat.untick).
    if tables.unticked is None:
        built_unticked = build_unticked(index)
        unticked, origins = built_unticked.index.tables(), built_unticked.origins
        del built_unticked
    else:
        unticked, origins = tables.unticked
    yield from index_tables(UNTICKED, unticked)
    yield f"{UNTICKED}origins", arr("I", origins)
    del unticked, origins
    yield from strings(
        "pieces",
        "piece_offsets",
        tables.pieces
        if tables.pieces is not None
        else (stored_pieces(pattern_pieces(p)) for p in tables.patterns),
    )
    # What the background model says of each pattern's words, worked out here once
    # rather than at each pattern's first hit (the header names the model).
    priors = tables.priors or word_columns(tables.patterns)
    yield "prior_bits", array("d", priors.bits).tobytes()
    yield "prior_projects", arr("I", priors.projects)
    yield "prior_flags", arr("B", priors.flags)
    del priors
    # What PatternIndex.near ranks each pattern by, so that ranking builds no Entry.
    ranked = tables.near or near_columns(tables.patterns)
    yield from strings("pattern_words", "pattern_word_offsets", ranked.words)
    yield "literal_lengths", arr("I", ranked.literal)
    del ranked
    by_file: dict[str, list[int]] = {}
    for position, tail in enumerate(built.tails):
        by_file.setdefault(tail, []).append(position)
    files = Postings.from_lists(by_file)
    del by_file
    yield from postings("file", files)
    # The same records, each file name's ordered by raise line, with their lines: the
    # records raised near a frame are found by bisection, without reading a row.
    near = array("I")
    near_lines = array("q")
    raise_lines = built.raise_lines
    for k in range(len(files.words)):
        ordered = sorted(
            files.ids[files.starts[k] : files.starts[k + 1]], key=lambda p: (raise_lines[p], p)
        )
        near.extend(ordered)
        near_lines.extend(raise_lines[p] for p in ordered)
    yield "near_ids", near.tobytes()
    yield "near_lines", near_lines.tobytes()
    del near, near_lines, files
    yield "rows", memoryview(built.rows)
    yield "row_offsets", built.row_offsets.tobytes()
    # The rows a phrase tag may be in, found here once rather than by a scan of every
    # row when the first text that no record answers looks for phrases.
    rows = StringTable(memoryview(built.rows), built.row_offsets)
    yield PHRASE_ROWS, arr("I", rows.holding(PHRASE_TAG_PREFIX.encode("utf-8")))
    del rows
    yield "file_of", built.file_of.tobytes()
    yield "offsets", built.offsets.tobytes()
    yield "lengths", built.lengths.tobytes()
    yield "lines", built.lines.tobytes()
    yield "by_id", arr("I", sorted(range(len(built.ids)), key=built.ids.__getitem__))
    yield "by_slug", arr("I", sorted(range(len(built.slugs)), key=lambda n: (built.slugs[n], n)))


#: The kinds of the arrays of an index's own sections (the unticked index's have a prefix).
_INDEX_KINDS = {
    "pattern_offsets": "Q",
    "starts": "I",
    "records": "I",
    "anchor_word_offsets": "Q",
    "anchor_starts": "I",
    "anchor_ids": "I",
    "anchor_slots": "I",
    "first_word_offsets": "Q",
    "first_starts": "I",
    "first_ids": "I",
    "first_slots": "I",
    "always": "I",
    "rarity": "I",
    "key_offsets": "Q",
    "key_masks": "Q",
    "pair_word_offsets": "Q",
    "pair_starts": "I",
    "pair_ids": "I",
    "pair_slots": "I",
    "common_word_offsets": "Q",
    "common_starts": "I",
    "common_ids": "I",
    "common_slots": "I",
    "opening_word_offsets": "Q",
    "opening_starts": "I",
    "opening_ids": "I",
    "opening_slots": "I",
    "opening_literal_offsets": "Q",
    "opening_groups": "B",
}
#: Prefix of the sections of the unticked patterns' index (:mod:`errcat.untick`).
UNTICKED = "unticked_"
#: The section of the rows that hold :data:`~errcat.tags.PHRASE_TAG_PREFIX` (a phrase tag
#: is in each of them, or the prefix in another field).
PHRASE_ROWS = "phrase_rows"

ARRAY_KINDS = {
    **_INDEX_KINDS,
    "piece_offsets": "Q",
    "prior_bits": "d",
    "prior_projects": "I",
    "prior_flags": "B",
    "pattern_word_offsets": "Q",
    "literal_lengths": "I",
    "file_word_offsets": "Q",
    "file_starts": "I",
    "file_ids": "I",
    "file_slots": "I",
    "near_ids": "I",
    "near_lines": "q",
    "row_offsets": "Q",
    "file_of": "I",
    "offsets": "Q",
    "lengths": "I",
    "lines": "I",
    "by_id": "I",
    "by_slug": "I",
    PHRASE_ROWS: "I",
    **{UNTICKED + name: kind for name, kind in _INDEX_KINDS.items()},
    UNTICKED + "origins": "I",
}


def write_index(path: Path, identity: list[list[Any]], built: Built, index: PatternIndex) -> None:
    """Write the stored index: magic, sections (8-byte aligned), then the header as a trailer.

    The header (format, byte order, the data files it was built from, problems
    and each section's offset, length and CRC-32) comes last so that sections can
    be written as they are built; its length and the magic close the file.
    """
    layout: dict[str, list[int]] = {}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with tmp.open("wb") as fh:
        fh.write(MAGIC)
        for name, data in _sections(built, index):
            layout[name] = [fh.tell(), len(data), zlib.crc32(data)]
            fh.write(data)
            fh.write(b"\0" * (-len(data) % 8))
            del data
        header = json.dumps(
            {
                "format": FORMAT_VERSION,
                "byteorder": sys.byteorder,
                "sources": identity,
                "background": background.fingerprint(),
                "records": len(built.ids),
                "problems": [problem_dict(p) for p in built.problems],
                "sections": layout,
            }
        ).encode()
        fh.write(header)
        fh.write(len(header).to_bytes(8, "little"))
        fh.write(MAGIC)
    tmp.replace(path)


def word_columns(patterns: Iterable[str]) -> WordColumns:
    """The background model's word evidence of each pattern, as a stored index keeps it.

    >>> columns = word_columns(["No module named (.+?)", "(.+?): (.+?)"])
    >>> list(columns.projects), list(columns.flags)
    ([6, 1], [3, 0])
    """
    bits, projects, flags = array("d"), array("I"), array("B")
    memo: dict[str, float] = {}
    for pattern in patterns:
        evidence = background.word_evidence(Entry.build(pattern, ()).fragments, memo)
        bits.append(evidence.information)
        projects.append(evidence.projects)
        flags.append(int(evidence.has_words) | 2 * int(evidence.c_wording))
    return WordColumns(bits, projects, flags)


def near_columns(patterns: Iterable[str]) -> NearColumns:
    """What :meth:`~errcat.index.PatternIndex.near` ranks each pattern by, as stored.

    >>> columns = near_columns(["Bad value (.+?) for x", "(.+?): (.+?)"])
    >>> list(columns.words), list(columns.literal)
    (['bad for value', ''], [16, 2])
    """
    spelled: list[str] = []
    literal = array("I")
    for pattern in patterns:
        fragments = Entry.build(pattern, ()).fragments
        spelled.append(" ".join(sorted(fragment_words(fragments))))
        literal.append(sum(map(len, fragments)))
    return NearColumns(spelled, literal)


def tables_of(parts: dict[str, Any], prefix: str = "") -> IndexTables:
    """The index tables stored in the sections named with ``prefix`` (no pieces nor priors)."""
    return IndexTables(
        patterns=StringTable(parts[f"{prefix}patterns"], parts[f"{prefix}pattern_offsets"]),
        starts=parts[f"{prefix}starts"],
        records=parts[f"{prefix}records"],
        anchors=postings_of(parts, f"{prefix}anchor"),
        first_words=postings_of(parts, f"{prefix}first"),
        always=parts[f"{prefix}always"],
        rarity=parts[f"{prefix}rarity"],
        keys=StringTable(parts[f"{prefix}keys"], parts[f"{prefix}key_offsets"]),
        key_masks=parts[f"{prefix}key_masks"],
        pairs=postings_of(parts, f"{prefix}pair"),
        common=postings_of(parts, f"{prefix}common"),
        openings=OpeningColumns(
            postings_of(parts, f"{prefix}opening"),
            StringTable(
                parts[f"{prefix}opening_literals"], parts[f"{prefix}opening_literal_offsets"]
            ),
            parts[f"{prefix}opening_groups"],
        ),
    )


def priors_of(parts: dict[str, Any]) -> WordColumns:
    """The per-pattern word evidence stored in the ``prior_*`` sections."""
    return WordColumns(parts["prior_bits"], parts["prior_projects"], parts["prior_flags"])


def near_of(parts: dict[str, Any]) -> NearColumns:
    """The per-pattern words and literal lengths stored for :meth:`PatternIndex.near`."""
    return NearColumns(
        StringTable(parts["pattern_words"], parts["pattern_word_offsets"]), parts["literal_lengths"]
    )


def postings_of(parts: dict[str, Any], name: str) -> Postings:
    """The Postings stored in the ``<name>_words``/``_starts``/``_ids`` sections."""
    # Words were written sorted with their hash slots (Postings.from_lists): looked up
    # through the slots, decoded one at a time, so that opening the index builds no
    # per-word table.
    words = StringTable(parts[f"{name}_words"], parts[f"{name}_word_offsets"])
    return Postings(
        words,
        parts[f"{name}_starts"],
        parts[f"{name}_ids"],
        sorted_words=True,
        slots=parts[f"{name}_slots"],
    )
