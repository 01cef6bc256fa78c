r"""Messages cut at their start: a paste that begins partway through a template.

A search result, a log viewer or an issue title can start inside a message: the
chunk of a thread begins mid-word (``ncountered an issue. See stack trace ...``
of ``EngineCore encountered an issue. ...``), or a title quotes the message's
last words only (``"unsupported LoRA weight"`` of ``{name} is unsupported LoRA
weight``). No pattern matches such a text from its start, and the index, which
files a pattern under its longest literal fragment, does not propose it: the
fragment the cut fell in is not in the text whole.

So a form of a message that opens with a lower-case word is read against the
patterns sharing the most words with it (:meth:`~errcat.index.PatternIndex.near`):
it is a *head-cut* rendering of one when that word ends a word of the pattern's
literal text (or is a later word of it) and the pattern's rest from there
matches the whole form (:func:`head_cut`). The groups before the cut took
nothing (``None``). The hit is a cut-off one (mode ``truncated``, not exact),
scored by the literal characters the form holds like any cut-off paste, so it
answers with less confidence than a whole match, and a short or generic tail
(under :data:`HEAD_CUT_MIN_CHARS` literal characters) is not read at all.

A cut between two words is weaker evidence than one inside a word: the words it
removed may be what tells the template from another that ends the same way
(``alloc_decode is only for paged allocator`` and ``alloc_extend is ...``), and
that other template, filed under the removed word, is not among the patterns the
form proposes. So a cut between words may remove only common words (at most
:data:`HEAD_CUT_DROPPED_BITS` bits of :func:`errcat.background.information`:
``{name} is``, ``The``), never a name.

Only literal-and-group patterns are read (their pieces): a hand-written regex
has no text to cut into.

>>> head_cut(("EngineCore encountered an issue. See above.",), "ncountered an issue. See above.")
((), 31)
>>> head_cut(("", " is unsupported LoRA weight"), "unsupported LoRA weight")
((None,), 23)
>>> head_cut(("", " is unsupported LoRA weight"), "LoRA weight") is None  # not lower-case
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from errcat import background
from errcat.index import Entry, PatternIndex
from errcat.patterns import pieces_fullmatch

__all__ = ["HEAD_CUT_DROPPED_BITS", "HEAD_CUT_MIN_CHARS", "head_cut", "head_cut_hits", "head_word"]

#: A head-cut form must hold this many of the pattern's literal characters: fewer
#: (``not supported``, ``failed``) end too many templates to tell one.
HEAD_CUT_MIN_CHARS = 20
#: The most information (bits) the literal text a cut between two words removed may
#: carry: common words (``is`` 2.8, ``The`` 2.9, ``Failed`` 5.3), not a name
#: (``alloc_decode`` 25, ``EngineCore`` 15).
HEAD_CUT_DROPPED_BITS = 10.0
#: How many patterns sharing the most words with a form are read as cut at its start.
_HEAD_CUT_LIMIT = 8
#: The word a head-cut form opens with: a lower-case letter, then the rest of a name
#: (``ncountered``, ``ashAttnMLAImpl``, ``loc_extend``).
_HEAD = re.compile(r"[a-z][A-Za-z0-9_]*")


def head_word(text: str) -> str | None:
    """The lower-case word ``text`` opens with, which a cut may have left partial.

    >>> head_word("ncountered an issue"), head_word("Unsupported LoRA"), head_word("zq_x y")
    ('ncountered', None, 'zq_x')
    """
    found = _HEAD.match(text)
    return found.group() if found else None


def head_cut(pieces: Sequence[str], text: str) -> tuple[tuple[str | None, ...], int] | None:
    """Captures and literal characters held, where ``text`` is ``pieces`` cut at the start.

    The cut falls in a literal piece, at the start of ``text``'s first word:
    inside a word of the pattern (the word ends as the pattern's does) or before
    a word that is not the pattern's first; what follows must match the rest of
    the pattern whole. The captures before the cut are ``None``. ``None`` when
    ``text`` is no such rendering (nor when it matches from the pattern's start:
    that is a whole match, found as such).

    >>> head_cut(("Tensor parallel size ", " is too large."), "allel size 9 is too large.")
    (('9',), 25)
    >>> head_cut(("The size ", " is too large."), "size 9 is too large.")  # "The" dropped
    (('9',), 19)
    >>> head_cut(("Tensor parallel size ", " is too large."), "size 9 is too large.") is None
    True
    >>> head_cut(("Tensor parallel size ", " is too large."), "ize 9 is too small.") is None
    True
    """
    word = head_word(text)
    if word is None:
        return None
    for k, piece in enumerate(pieces):
        at = piece.find(word)
        while at >= 0:
            end = at + len(word)
            if (
                (at > 0 or k > 0)
                and (end == len(piece) or not _name_char(piece[end]))
                and (
                    (at > 0 and _name_char(piece[at - 1]))  # inside a word
                    or _common(pieces[:k], piece[:at])
                )
            ):
                tail = (piece[at:], *pieces[k + 1 :])
                groups = pieces_fullmatch(tail, text)
                if groups is not None:
                    held = len(piece) - at + sum(len(p) for p in pieces[k + 1 :] if p.strip())
                    return (None,) * k + groups, held
                cut = _cut_tail(tail, text)
                if cut is not None:
                    return (None,) * (len(pieces) - 1), cut
            at = piece.find(word, at + 1)
    return None


def _cut_tail(pieces: Sequence[str], text: str) -> int | None:
    """Literal characters held, where ``text`` is also cut at its end, inside the pattern's words.

    ``text`` holds the pieces from the first on, then the start of a later one (after
    a value of one word at most: more is the writer's text taking the rest's place);
    ``None`` when it holds them all (a whole match, or more) or leaves them.

    >>> _cut_tail(("load format only support 'x' quantization, but got ", ""), "load format only")
    16
    >>> _cut_tail(("size ", " is too large."), "size 9 is too")
    12
    >>> _cut_tail(("size ", " is too large."), "size 9 and the rest is my own")
    """
    first = pieces[0]
    if not text.startswith(first):
        return len(text) if first.startswith(text) else None
    held, position = len(first), len(first)
    for piece in pieces[1:]:
        if not piece:
            return None  # ends in a capture: whatever follows is its value
        found = text.find(piece, position + 1)
        if found >= 0:
            held, position = held + len(piece), found + len(piece)
            continue
        rest = text[position:]
        size = next(
            (n for n in range(min(len(piece), len(rest) - 1), 0, -1) if rest.endswith(piece[:n])), 0
        )
        value = rest[: len(rest) - size]
        return held + size if size and len(value.split()) == 1 else None
    return None


def _name_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _common(before: Sequence[str], head: str) -> bool:
    """Whether the literal text a cut between words removed is common words only.

    >>> _common(("",), " is "), _common(("alloc_decode ",), ""), _common((), "")
    (True, False, True)
    """
    dropped = [p for p in (*before, head) if p.strip()]
    return not dropped or background.information(dropped) <= HEAD_CUT_DROPPED_BITS


def head_cut_hits(
    index: PatternIndex, text: str
) -> Iterator[tuple[Entry, tuple[str | None, ...], int]]:
    """The patterns ``text`` is a head-cut rendering of: (entry, captures, literal held).

    Read among the patterns sharing the most words with ``text``; only those
    whose literal text the form holds at least :data:`HEAD_CUT_MIN_CHARS` of.
    A form that does not open with a lower-case word gives none (nor is the
    index asked).

    >>> index = PatternIndex(["(.+?) is unsupported LoRA weight", "weight (.+?) is bad"])
    >>> [(e.pattern, g, n) for e, g, n in head_cut_hits(index, "unsupported LoRA weight")]
    [('(.+?) is unsupported LoRA weight', (None,), 23)]
    """
    if head_word(text) is None:
        return
    for _, _, entry in index.near(text, limit=_HEAD_CUT_LIMIT):
        if entry.pieces is None or entry.whole:
            continue
        cut = head_cut(entry.pieces, text)
        if cut is not None and cut[1] >= HEAD_CUT_MIN_CHARS:
            yield entry, cut[0], cut[1]
