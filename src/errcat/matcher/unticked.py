r"""Templates whose backticks Markdown ate: a pattern's literal backticks are optional.

transformers prints ``has model type `qwen3_moe` but Transformers does not
recognize this architecture``; pasted into an issue and rendered, the backticks
become code formatting and a copy of the page has none left: ``has model type
qwen3_moe but ...``. Nor does a pattern find a message whose writer added them
(the message forms give a form without them: :func:`errcat.extract.forms.message_forms`).

So each index's patterns that hold a literal backtick are also indexed without
their backticks (:func:`unticked_index`: kept by a stored index, else built once
per index, on the first message that needs it; see :mod:`errcat.untick`): a
backtick-free form of a message that no pattern explains as it is looks them up
there. A hit stands for the same records (:class:`~errcat.index.Entry` with the
original's records), with the literal text the message holds. Only
literal-and-group patterns are read so (a hand-written regex's backtick may sit
in a character class), and not one whose backticks stand alone between two
groups (```{a}`{b}```: without them nothing separates the groups).

>>> index = PatternIndex(["has model type `(.+?)` but it is unknown", "plain (.+?)"])
>>> found = unticked_index(index)
>>> [(e.pattern, e.records) for e in found.candidates("has model type qwen3 but it is unknown")]
[('has model type (.+?) but it is unknown', (0,))]
>>> untick_pieces(("a `", "` b")), untick_pieces(("", "`", "")) is None
(('a ', ' b'), True)
"""

from __future__ import annotations

import weakref

from errcat.index import PatternIndex
from errcat.untick import UntickedIndex, build_unticked, stored_unticked, untick_pieces

__all__ = ["UntickedIndex", "untick_pieces", "unticked_index"]

#: Each index's unticked patterns, read or built once.
_UNTICKED: weakref.WeakKeyDictionary[PatternIndex, UntickedIndex] = weakref.WeakKeyDictionary()


def unticked_index(index: PatternIndex) -> UntickedIndex:
    """The backtick-free forms of ``index``'s literal-and-group patterns that hold a backtick.

    Those a stored index kept (:attr:`~errcat.index.PatternIndex.unticked_tables`),
    else built from ``index`` on first use.
    """
    found = _UNTICKED.get(index)
    if found is not None:
        return found
    kept = index.unticked_tables
    found = build_unticked(index) if kept is None else stored_unticked(index, *kept)
    _UNTICKED[index] = found
    return found
