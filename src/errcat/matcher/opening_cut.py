r"""Templates a text is cut inside the opening of, when that opening's first word is common.

An issue title quotes a message's first words and stops (``Regression in v0.14.0: "No
valid attention backend found" for ...``): the text is the start of the template's
opening literal, cut before its first value. The index proposes a pattern by words
the text may lack (the cut came before them), and the wide pass reads the patterns
opening with the text's first word only when that word opens few of them
(:data:`~errcat.index.WIDE_FIRST_WORD`): ``No``, ``The``, ``Failed`` open hundreds.
:func:`opening_candidates` reads those: the patterns whose opening literal the text
is cut inside (or holds whole, then goes on). The matcher reads each as a cut-off
rendering with the bounds of any pattern it was not proposed (enough of its literal
text, the cut in its own words: :func:`errcat.matcher.find._opening_cut_hits`).

>>> from errcat.index import PatternIndex
>>> index = PatternIndex(["No zqa zqb found for (.+?)"] + [f"No zq{n} (.+?)" for n in range(300)])
>>> [e.pattern for e in opening_candidates(index, "No zqa zqb found")]
['No zqa zqb found for (.+?)']
>>> opening_candidates(index, "Nothing zqa zqb found")
[]
"""

from __future__ import annotations

import re
from typing import Final

from errcat.index import WIDE_FIRST_WORD, Entry, PatternIndex
from errcat.openings import opening_matches

__all__ = ["opening_candidates"]

#: A text's first word, which must open it (a text led by punctuation opens no template so).
_LEAD: Final = re.compile(r"\w+")
#: How many patterns one first word may open for its patterns to be read one by one.
_MAX_OPENING = 4096


def opening_candidates(index: PatternIndex, text: str) -> list[Entry]:
    """The patterns whose opening literal ``text`` is cut inside, or holds and goes on from.

    Only for a first word that opens more patterns than the wide pass reads (it read
    the others); none for one that opens no pattern or more than :data:`_MAX_OPENING`.
    Found by bisection in the openings the index keeps sorted (:mod:`errcat.openings`),
    in pattern order.
    """
    lead = _LEAD.match(text)
    if lead is None:
        return []
    word = lead.group()
    opening = index._first_words.get(word)
    if not opening or not WIDE_FIRST_WORD < len(opening) <= _MAX_OPENING:
        return []
    return [index.entry(pid) for pid in opening_matches(index.openings, word, text)]
