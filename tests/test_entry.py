"""A stored index's patterns read back as the very entries an index built in memory analyses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.entry import Entry, read_pieces, stored_pieces
from errcat.index import PatternIndex
from errcat.loaders import write_jsonl
from errcat.patterns import pattern_pieces
from errcat.store import FORMAT_VERSION, index_path_for, open_file_store

pieces_of = st.lists(st.text(alphabet="ab \x00\x01.", max_size=5), min_size=1, max_size=4).map(
    tuple
)


@given(pieces_of)
def test_stored_pieces_read_back_as_they_were_or_not_at_all(pieces: tuple[str, ...]) -> None:
    got = read_pieces(stored_pieces(pieces))
    unstorable = any("\x00" in p for p in pieces) or pieces[0].startswith("\x01")
    assert got == (None if unstorable else pieces)


def test_unparsed_patterns_are_not_stored() -> None:
    assert read_pieces(stored_pieces(None)) is None


#: Simple patterns, a hand-written regex, a wordless one, the empty message, and
#: a literal holding the very character stored pieces are joined with.
PATTERNS = [
    r"expert (.+?) is not loaded on rank (.+?)\.",
    r"tokenizer file (.+?) is missing",
    r"bad value \d+ for (.+?)",
    r"(.+?): (.+?)",
    "",
    "odd \x00 byte in (.+?)",
    r"expert (.+?) is not loaded on rank (.+?)\.",
]


def _fields(entry: Entry) -> tuple[object, ...]:
    return (
        entry.pattern,
        entry.records,
        entry.fragments,
        entry.literal_length,
        entry.pieces,
        entry.rarity,
        entry.wordless,
        entry.groups,
    )


@pytest.fixture
def catalog_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("ERRCAT_INDEX_DIR", raising=False)
    path = tmp_path / "patterns.jsonl"
    write_jsonl(
        path,
        [
            make_envelope(id=f"{k:016x}", slug=f"case-{k}", messagePattern=pattern)
            for k, pattern in enumerate(PATTERNS)
        ],
    )
    return path


def test_stored_entries_equal_the_analysed_ones(catalog_file: Path) -> None:
    store = open_file_store(catalog_file)
    assert store is not None
    stored = store.index
    memory = PatternIndex(PATTERNS)
    assert stored.pieces is not None and len(stored) == len(memory) == len(PATTERNS) - 1
    for pid in range(len(memory)):
        from_disk, built = stored.entry(pid), memory.entry(pid)
        assert _fields(from_disk) == _fields(built)
        assert from_disk.pieces == pattern_pieces(from_disk.pattern)
    # Kept only where they can be read back: the regex and the NUL are parsed again.
    kept = [read_pieces(stored.pieces[pid]) for pid in range(len(stored))]
    assert [pieces is None for pieces in kept] == [False, False, True, False, False, True]


def _rewrite_format(index_file: Path, version: int) -> None:
    data = index_file.read_bytes()
    size = int.from_bytes(data[-16:-8], "little")
    header = json.loads(data[-16 - size : -16])
    header["format"] = version
    encoded = json.dumps(header).encode()
    body = data[: -16 - size]
    index_file.write_bytes(body + encoded + len(encoded).to_bytes(8, "little") + data[-8:])


def test_an_index_of_the_previous_format_is_rebuilt_not_read(catalog_file: Path) -> None:
    # Format 12 kept no pieces: reading one as this format would find no section.
    open_file_store(catalog_file)
    index_file = index_path_for(catalog_file)
    _rewrite_format(index_file, FORMAT_VERSION - 1)
    store = open_file_store(catalog_file)
    assert store is not None
    data = index_file.read_bytes()
    size = int.from_bytes(data[-16:-8], "little")
    header = json.loads(data[-16 - size : -16])
    assert header["format"] == FORMAT_VERSION and "pieces" in header["sections"]
    assert store.index.entry(0).pieces == ("expert ", " is not loaded on rank ", ".")
