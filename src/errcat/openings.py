"""Each pattern's opening literal, filed by its first word and sorted: found by bisection.

A text cut inside a template's opening (an issue title quoting ``"No valid
attention backend found"``) holds the start of the template's first literal
piece; a text that holds the whole piece and goes on may be a rendering of a
template with a placeholder after it. For a first word that opens hundreds of
templates (``No``, ``The``), :func:`opening_matches` finds both kinds by
bisection in the openings sorted by spelling (:class:`OpeningColumns`, built
with the index and stored in it) rather than reading every pattern the word
opens.

>>> columns = opening_columns(
...     {"No": [0, 1, 2, 3]},
...     ["No zqa zqb found for ", "No zq", "No zqa", "No zqc "],
...     [True, True, False, True],
...     least=0,
... )
>>> opening_matches(columns, "No", "No zqa zqb")  # cut inside, or whole with a value after
[0, 1]
>>> opening_matches(columns, "No", "No zqa")  # "No zqa" has no placeholder to go on in
[0, 1, 2]
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from errcat.postings import Postings

__all__ = ["OpeningColumns", "opening_columns", "opening_matches"]


@dataclass(frozen=True)
class OpeningColumns:
    """The patterns of each common first word, sorted by opening literal, then pattern.

    ``literals[k]`` and ``groups[k]`` belong to the pattern ``by_word.ids[k]``: its
    first literal piece (:func:`~errcat.patterns.pattern_pieces`) and whether a
    placeholder follows it (1) or the pattern is that literal alone (0).
    """

    by_word: Postings
    literals: Sequence[str]
    groups: Sequence[int]


def opening_columns(
    first_words: Mapping[str, Sequence[int]],
    literals: Sequence[str],
    groups: Sequence[bool],
    *,
    least: int,
) -> OpeningColumns:
    """The columns of the first words opening more than ``least`` patterns.

    ``literals[pid]`` is pattern ``pid``'s opening literal, ``groups[pid]`` whether a
    placeholder follows it.
    """
    table = {
        word: sorted(pids, key=lambda pid: (literals[pid], pid))
        for word, pids in first_words.items()
        if len(pids) > least
    }
    by_word = Postings.from_lists(table)
    return OpeningColumns(
        by_word,
        [literals[pid] for pid in by_word.ids],
        array("B", (groups[pid] for pid in by_word.ids)),
    )


def opening_matches(columns: OpeningColumns, word: str, text: str) -> list[int]:
    """Patterns opening with ``word`` whose opening ``text`` is cut inside, or holds and goes on.

    That is, whose opening literal starts with ``text``, or is a start of ``text`` and
    is followed by a placeholder; ascending. ``text`` starts with ``word``.

    The first kind are one run of the sorted openings. The second are found from the
    last opening not after ``text``: a start of ``text`` is kept, and the search goes
    on below it; another shares only a start with ``text``, and every start of
    ``text`` still to find is a start of that shared part, so the search goes on there.
    """
    start, end = columns.by_word.span(word)
    literals, groups, ids = columns.literals, columns.groups, columns.by_word.ids
    found = []
    at = bisect.bisect_left(literals, text, start, end)
    while at < end and literals[at].startswith(text):
        found.append(ids[at])
        at += 1
    bound = text
    while True:
        at = bisect.bisect_right(literals, bound, start, end) - 1
        if at < start:
            break
        opening = literals[at]
        if text.startswith(opening):
            while at >= start and literals[at] == opening:
                if groups[at]:
                    found.append(ids[at])
                at -= 1
            bound = opening[:-1]
        else:
            bound = _shared_start(opening, text)
    return sorted(set(found))


def _shared_start(a: str, b: str) -> str:
    """The longest start ``a`` and ``b`` share.

    >>> _shared_start("No zqa", "No zqb"), _shared_start("No", "No zq")
    ('No zq', 'No')
    """
    size = min(len(a), len(b))
    for n in range(size):
        if a[n] != b[n]:
            return a[:n]
    return a[:size]
