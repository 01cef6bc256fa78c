"""When a pattern's literal text is too little to be a confident answer, for the stack packages.

:mod:`build_stack` drops mined records whose pattern is vague (``bad``, ``{expr}
already exists``); :mod:`stack_curated.dynamo_graph_breaks` asks more of the
printed text of a graph-break type whose name alone is vague. One rule for both:
some literal text, but under :data:`MIN_BITS` bits of evidence
(:func:`errcat.background.information`) or fewer than two words of three letters
or more.

>>> [vague_pattern(p) for p in ("bad", "(.+?) already exists", "(.+?)", "Import failure")]
[True, True, False, True]
>>> vague_pattern("checkpoint shard (.+?) is missing from (.+?)")
False
"""

from __future__ import annotations

from errcat.background import information, shape_words
from errcat.patterns import literal_fragments

__all__ = ["MIN_BITS", "vague_pattern"]

#: Bits of evidence (:func:`errcat.background.information`) a mined record's literal
#: text needs to stay in a stack package; the matcher calls a shape generic under 25.
MIN_BITS = 20.0


def vague_pattern(pattern: str) -> bool:
    """Whether a pattern has some literal text, but too little (see the module)."""
    fragments = literal_fragments(pattern)
    if not fragments:
        return False
    words = {w for f in fragments for w in shape_words(f) if len(w) >= 3}
    return len(words) < 2 or information(fragments) < MIN_BITS
