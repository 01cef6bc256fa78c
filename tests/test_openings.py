"""The sorted openings of common first words (errcat.openings) find what reading each finds.

``opening_candidates`` read every pattern a common first word opens (up to 4,096,
each split into pieces) for a text cut inside an opening; the index now keeps those
openings sorted and bisects them. These tests hold the bisection to the reading it
replaced: in memory, from a stored index, and for texts and openings that are starts
of one another (drawn from a few short pieces, so that they often are).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.index import WIDE_FIRST_WORD, Entry, PatternIndex
from errcat.loaders import write_jsonl
from errcat.matcher.opening_cut import opening_candidates
from errcat.openings import opening_columns, opening_matches
from errcat.patterns import pattern_pieces
from errcat.store import open_file_store

#: Openings and texts are "No" and a few of these: often starts of one another.
PIECE = st.sampled_from([" zq", "a", "b", " ", "zqa", "é"])
OPENING = st.lists(PIECE, min_size=0, max_size=5).map(lambda parts: "No" + "".join(parts))


def _reference(literals: list[str], groups: list[bool], text: str) -> list[int]:
    """The walk ``opening_candidates`` did: every opening, one by one."""
    return [
        pid
        for pid, first in enumerate(literals)
        if first.startswith(text) or (groups[pid] and text.startswith(first))
    ]


@settings(max_examples=300, deadline=None)
@given(
    openings=st.lists(st.tuples(OPENING, st.booleans()), min_size=1, max_size=40),
    text=OPENING,
)
def test_bisection_finds_what_reading_every_opening_finds(
    openings: list[tuple[str, bool]], text: str
) -> None:
    literals = [literal for literal, _ in openings]
    groups = [group for _, group in openings]
    columns = opening_columns({"No": list(range(len(literals)))}, literals, groups, least=0)
    assert opening_matches(columns, "No", text) == _reference(literals, groups, text)


def test_a_word_opening_too_few_patterns_has_no_column() -> None:
    columns = opening_columns(
        {"No": [0, 1], "Bad": [2]}, ["No a", "No b", "Bad"], [True, True, False], least=1
    )
    assert list(columns.by_word.words) == ["No"]
    assert opening_matches(columns, "Bad", "Bad") == []


def _walk(index: PatternIndex, text: str) -> list[str]:
    """``opening_candidates`` as it was: each pattern the first word opens, split again."""
    opening = index._first_words.get(text.split(" ", 1)[0])
    if not WIDE_FIRST_WORD < len(opening) <= 4096:
        return []
    found = []
    for pid in opening:
        pieces = pattern_pieces(index.patterns[pid])
        assert pieces is not None
        first = pieces[0]
        if first.startswith(text) or (len(pieces) > 1 and text.startswith(first)):
            found.append(index.patterns[pid])
    return found


def _patterns(openings: list[tuple[str, bool]]) -> list[str]:
    """Patterns with those openings (a placeholder after it, or the literal alone), and filler.

    The filler opens with ``No`` too, so that the word opens more than the wide pass reads.
    """
    drawn = [f"{literal}(.+?) end" if group else literal for literal, group in openings]
    filler = [f"No zz{n:04d} (.+?)" for n in range(WIDE_FIRST_WORD + 1)]
    return drawn + filler + [r"No \d+ (.+?)", "(.+?) No zq"]  # a regex and a group first


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> PatternIndex:
    path = tmp_path_factory.mktemp("openings") / "patterns.jsonl"
    openings = [("No zq", True), ("No zqa", False), ("No zqa b", True), ("No zq é", True)]
    patterns = _patterns(openings)
    write_jsonl(
        path,
        [
            make_envelope(id=f"{k:016x}", slug=f"case-{k}", messagePattern=pattern)
            for k, pattern in enumerate(patterns)
        ],
    )
    store = open_file_store(path, progress=False)
    assert store is not None
    return store.index


@settings(max_examples=30, deadline=None)
@given(openings=st.lists(st.tuples(OPENING, st.booleans()), min_size=1, max_size=8), text=OPENING)
def test_an_index_built_in_memory_finds_what_the_walk_found(
    openings: list[tuple[str, bool]], text: str
) -> None:
    index = PatternIndex(_patterns(openings))
    assert [e.pattern for e in opening_candidates(index, text)] == _walk(index, text)


@settings(max_examples=60, deadline=None)
@given(text=OPENING)
def test_a_stored_index_finds_what_the_walk_found(stored: PatternIndex, text: str) -> None:
    found = [e.pattern for e in opening_candidates(stored, text)]
    assert found == _walk(stored, text)
    assert all(isinstance(e, Entry) for e in opening_candidates(stored, text))


def test_a_stored_index_finds_each_kind(stored: PatternIndex) -> None:
    # Cut inside "No zqa b" and "No zqa"; "No zq" whole with its placeholder to go on in.
    assert [e.pattern for e in opening_candidates(stored, "No zqa")] == [
        "No zq(.+?) end",
        "No zqa",
        "No zqa b(.+?) end",
    ]
    assert [e.pattern for e in opening_candidates(stored, "No zqa bb")] == [
        "No zq(.+?) end",
        "No zqa b(.+?) end",
    ]
