"""What the text alone says for a pattern's hit: how much it explains, how rare its words are.

The result, a :class:`~errcat.confidence.TextEvidence`, is shared by every
record of the pattern; the projects a text mentions (:func:`_mentions`) are
read once per text.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from errcat import background
from errcat.confidence import TextEvidence, catalog_rarity, text_logit_ceiling
from errcat.index import Entry
from errcat.matcher.result import REGEX_TIMEOUT
from errcat.patterns import pieces_fullmatch
from errcat.text import fold_whitespace

#: Below this many bits of background information (errcat.background.information), a
#: pattern's literal words are said to be common (a reason shown; the model weighs them).
_FEW_BITS = 12.0
#: Below this many, they are next to none (``{label}: {err!r}``, ``invalid {what}``):
#: without a traceback frame at the raise line, such a pattern is a hint, never an
#: answer, whatever the loaded catalog (the model's evidence was fitted on real catalogs,
#: where such patterns are many; in a catalog of a few records nothing else says so).
_MIN_BITS = 6.0
#: A captured value counts at most this many characters against the explained share.
_CAPTURE_CAP = 24


#: How much of a paste is read for the project names it mentions.
_MENTION_CHARS = 200_000
_MENTION_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _mentions(text: str) -> Mapping[str, int]:
    r"""The lowercase words of a text (the project names it may mention), colours removed.

    Each with how often it occurs (a name held only by a message's values is not
    the text naming the project: see :func:`_named_outside`). The words are
    counted when asked for (:class:`Mentions`): a match asks for a few project
    and class names, and a long traceback holds thousands of words.

    >>> words = _mentions("\x1b[31mvllm\x1b[0m: 3vllm x3vllm vllm_x VLLM")
    >>> words["vllm"], "x3vllm" in words, words.get("sglang", 0)
    (3, True, 0)
    """
    return Mentions(text)


class Mentions(Mapping[str, int]):
    """:func:`_mentions`' words of a text, each counted on first lookup.

    The same counts as splitting the text into words (``[A-Za-z_][A-Za-z0-9_]*``,
    lowercased) and counting them all: a lowercase word is found with
    ``str.find`` and counted where it is a whole word, that is, where no word
    character follows it and the word characters before it, if any, are digits
    that no letter or underscore precedes (a word never starts with a digit, so
    ``3vllm`` holds ``vllm`` and ``x3vllm`` does not). A text outside ASCII
    (where lowering may make a letter) and a walk over all the words count
    every word at once.
    """

    __slots__ = ("_all", "_counted", "_lowered")

    def __init__(self, text: str) -> None:
        head = text[:_MENTION_CHARS]
        plain = _ANSI.sub(" ", head) if "\x1b" in head else head
        #: The lowered text when it is ASCII, else None (then all words are counted).
        self._lowered = plain.lower() if plain.isascii() else None
        self._all: Counter[str] | None = None
        if self._lowered is None:
            self._all = Counter(map(str.lower, _MENTION_WORD.findall(plain)))
        self._counted: dict[str, int] = {}

    def _count(self, word: str) -> int:
        if self._all is not None:
            return self._all.get(word, 0)
        found = self._counted.get(word)
        if found is not None:
            return found
        text = self._lowered
        assert text is not None
        found = 0
        if _LOWER_WORD.fullmatch(word):
            end = len(word)
            at = text.find(word)
            while at >= 0:
                after = text[at + end : at + end + 1]
                if not (after and after in _WORD_CHARS):
                    start = at
                    while start and text[start - 1] in _DIGITS:
                        start -= 1
                    if not (start and text[start - 1] in _WORD_CHARS):
                        found += 1
                at = text.find(word, at + 1)
        self._counted[word] = found
        return found

    def __getitem__(self, word: str) -> int:
        found = self._count(word) if isinstance(word, str) else 0
        if not found:
            raise KeyError(word)
        return found

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._count(word) > 0

    def get(self, word: str, default: Any = None) -> Any:
        """The word's count, or ``default`` when the text does not hold it."""
        found = self._count(word) if isinstance(word, str) else 0
        return found if found else default

    def _every(self) -> Counter[str]:
        if self._all is None:
            assert self._lowered is not None
            self._all = Counter(_MENTION_WORD.findall(self._lowered))
        return self._all

    def __iter__(self) -> Iterator[str]:
        return iter(self._every())

    def __len__(self) -> int:
        return len(self._every())


#: A word as :data:`_MENTION_WORD` finds it, lowercased; the characters of words.
_LOWER_WORD = re.compile(r"[a-z_][a-z0-9_]*")
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
_DIGITS = frozenset("0123456789")


def _named_outside(
    package: str, mentions: Mapping[str, int], captures: Sequence[str | None]
) -> bool:
    """Whether the text names ``package`` somewhere other than the values a pattern captured.

    ``No module named 'vllm._C'`` holds ``vllm`` only as the module the import
    system could not find: the value names it, the text does not say vllm raised it
    (a message of a project's own wording, ``module attrs has no attribute x``, is
    another matter: there the value is most often the project naming itself).

    >>> words = _mentions("No module named 'vllm._C'")
    >>> _named_outside("vllm", words, ["'vllm._C'"]), _named_outside("vllm", words, ["'x'"])
    (False, True)
    """
    count = mentions.get(package, 0)
    if not count:
        return False
    held = sum(
        1
        for value in captures
        if value
        for w in _MENTION_WORD.findall(value)
        if w.lower() == package
    )
    return count > held


@dataclass(frozen=True, slots=True)
class TextHit:
    """A pattern's hit on a message, as the text's evidence reads it (one value for both readers).

    ``literal`` is the number of the pattern's literal characters the message
    holds: all of them, except for a truncated or drifted message. ``rarity``
    overrides the pattern's own (how many patterns hold its rarest word) when
    the text holds only part of the pattern; ``patterns`` is how many patterns
    the catalog part holds (see :func:`errcat.confidence.catalog_rarity`);
    ``fragments`` the literal text the hit explains, when it is more than the
    pattern's own (a wrapper whose placeholder holds another record's message: both).
    """

    entry: Entry
    mode: str
    message: str
    matched_length: int
    captures: Sequence[str | None]
    literal: int
    present: float = 1.0
    bare: bool = False
    rarity: int | None = None
    patterns: int = 0
    fragments: Sequence[str] | None = None


def _text_evidence(
    hit: TextHit, *, records: int | None = None, error_class: str | None = None
) -> tuple[TextEvidence, list[str], bool]:
    """What the text alone says for a pattern's hit on ``message`` (shared by its records).

    Returns the evidence, its reasons, and whether the message is one C prints
    in C's very form (:attr:`errcat.background.COrigin.printed`), when C raised it.

    ``records`` is how many places raise the pattern (its records, by default);
    ``error_class`` the report's class, if it has one. CPython's C code raises
    the words when it raised the message itself, or the pattern's words, as
    that class (C's words raised as a class C never raised them with were not
    raised by C); a record whose pattern matches the whole message but cannot
    print C's form of its words (``no module named {name!r}``) is not C's copy.
    """
    entry, mode, message, captures = hit.entry, hit.mode, hit.message, hit.captures
    matched_length, literal, present, bare = hit.matched_length, hit.literal, hit.present, hit.bare
    rarity, patterns, fragments = hit.rarity, hit.patterns, hit.fragments
    words = entry.fragments if fragments is None else tuple(fragments)
    # The index may hold what the model says of the pattern's own words (worked out
    # when it was built): read, not asked again, when the hit explains those words.
    prior = entry.prior if fragments is None else None
    origin = background.c_origin(
        message,
        words,
        error_class,
        own=entry.fragments,
        c_wording=None if prior is None else prior.c_wording,
    )
    builtin = origin.raised
    if builtin and mode == "full" and message and not _c_could_print(entry, origin.examples):
        builtin = False  # C's words, but never as this record prints them
    message_length = len(message)
    # A placeholder holding a whole message that CPython's C code raises is the error
    # a wrapper caught (``{e} (from {src!r})``): that text is explained, as C's,
    # though its words say nothing of which wrapper printed it (no information).
    held_c = (
        tuple(c for c in captures if c and background.is_c_message(c))
        if mode == "full" and (_has_words(tuple(words)) if prior is None else prior.has_words)
        else ()
    )
    told = literal + sum(map(len, held_c))
    tail = _argument_groups(entry.pieces) if fragments is None and mode == "full" else None
    if tail is not None:
        # ``("'mode' must be in ['r', 'w'] (got 'x')", Attribute(name='mode', ...), ...)``:
        # raised with several arguments, it prints their tuple; the message is the first,
        # the rest are values handed along with it (attrs' validators), not its text.
        captures = captures[:tail]
    captured = sum(min(len(c), _CAPTURE_CAP) for c in captures if c and c not in held_c)
    unexplained = max(0, message_length - matched_length)
    explained = told / (told + captured + unexplained) if literal else 0.0
    outside = unexplained / message_length if message_length else 0.0
    evidence = TextEvidence(
        mode=mode,
        literal=literal,
        explained=explained,
        outside=outside,
        placeholders=sum(1 for c in captures if c is not None),
        information=background.information(words) if prior is None else prior.information,
        background=background.projects(words) if prior is None else prior.projects,
        catalog_rarity=catalog_rarity(entry.rarity if rarity is None else rarity, patterns),
        records=len(entry.records) if records is None else records,
        present=present,
        builtin=builtin,
        bare=bare,
    )
    reasons = [
        _MODE_REASON[mode],
        f"literal text explains {explained:.0%} of the message ({literal} characters)",
    ]
    if tail is not None:
        reasons.append(
            "the message is the first of the arguments it was raised with; the others are "
            "values passed along"
        )
    if held_c:
        reasons.append(
            f"a placeholder holds a message CPython raises ({held_c[0]!r}): the error it wraps"
        )
    if evidence.background > 1:
        reasons.append(f"{evidence.background} projects raise messages of this shape")
    if evidence.builtin:
        reasons.append(
            "CPython's C code (or other code outside the catalog) raises the same words:"
            " the message alone cannot tell which did"
        )
    return evidence, reasons, builtin and origin.printed


def _text_ceiling(hit: TextHit) -> float:
    """The most :func:`_text_evidence`'s logit can be for these arguments, without its work.

    What costs there (whether C raises the words, which values hold a C
    message, the words' information without a stored prior) is taken at its
    best for the pattern; the rest is worked out as :func:`_text_evidence` does.
    A value long enough to be a message C raises counts as explained text (as
    one that is counts): the share explained is at most what it is when every
    such value is one.
    """
    entry, mode, message, captures = hit.entry, hit.mode, hit.message, hit.captures
    matched_length, literal, present, bare = hit.matched_length, hit.literal, hit.present, hit.bare
    rarity, patterns, fragments = hit.rarity, hit.patterns, hit.fragments
    message_length = len(message)
    prior = entry.prior if fragments is None else None
    # The values that may hold a message C raises (told as explained text, all of
    # them, also past a message raised with several arguments), and what the others
    # surely add to the values captured.
    may_hold = mode == "full" and (prior is None or prior.has_words)
    held = literal + sum(
        len(c) for c in captures if c and may_hold and background.may_be_c_message(c)
    )
    if fragments is None and mode == "full":
        tail = _argument_groups(entry.pieces)
        if tail is not None:
            captures = captures[:tail]
    captured = sum(
        min(len(c), _CAPTURE_CAP)
        for c in captures
        if c and not (may_hold and background.may_be_c_message(c))
    )
    unexplained = max(0, message_length - matched_length)
    return text_logit_ceiling(
        mode=mode,
        literal=literal,
        explained=held / (held + captured + unexplained) if literal else 0.0,
        outside=unexplained / message_length if message_length else 0.0,
        placeholders=sum(1 for c in captures if c is not None),
        information=None if prior is None else prior.information,
        background=None if prior is None else prior.projects,
        catalog_rarity=catalog_rarity(entry.rarity if rarity is None else rarity, patterns),
        present=present,
        builtin=None,
        bare=bare,
    )


@functools.lru_cache(maxsize=1 << 16)
def _has_words(fragments: tuple[str, ...]) -> bool:
    """Whether literal fragments hold a word as the background model counts words."""
    return any(background.shape_words(f) for f in fragments)


@functools.lru_cache(maxsize=4096)
def _argument_groups(pieces: tuple[str, ...] | None) -> int | None:
    """Where a pattern's message ends when its exception was raised with several arguments.

    ``str()`` of such an exception is the tuple of its arguments,
    ``("msg {a}", {b!r}, {c!r})``; returns the index of the first group past the
    first argument (None for any other pattern).

    >>> from errcat.patterns import pattern_pieces, template_to_pattern
    >>> pieces = pattern_pieces(template_to_pattern('("{name} must be in {opts}", {attr!r})'))
    >>> _argument_groups(pieces)
    2
    >>> _argument_groups(pattern_pieces(template_to_pattern('("fixed", {attr!r})')))
    0
    >>> _argument_groups(("bad ", "")) is None
    True
    """
    if (
        pieces is None
        or len(pieces) < 2
        or pieces[0][:1] != "("
        or pieces[0][1:2] not in ("'", '"')
    ):
        return None
    close = pieces[0][1] + ", "
    if pieces[0].find(close, 2) >= 0:
        return 0
    for index, piece in enumerate(pieces[1:], start=1):
        if close in piece:
            return index
    return None


def _c_could_print(entry: Entry, examples: Sequence[str]) -> bool:
    """Whether the record's pattern matches one of C's messages of the same words, as printed.

    True when the background model holds none to compare with (C's words stay C's).
    """
    if not examples:
        return True
    pieces = entry.pieces
    for example in examples:
        text = fold_whitespace(example)
        tries = (text, text + ".", text[:-1]) if text.endswith(".") else (text, text + ".")
        if pieces is not None:
            # The regex's answer on single-spaced text, without compiling it.
            if any(pieces_fullmatch(pieces, t) is not None for t in tries):
                return True
            continue
        full = entry.compiled.full
        try:
            if any(full.fullmatch(t, timeout=REGEX_TIMEOUT) for t in tries):
                return True
        except TimeoutError:
            return True
    return False


_MODE_REASON = {
    "full": "the pattern matches the whole message",
    "prefix": "the pattern matches the start of the message; the rest is extra",
    "inner": "the pattern matches the end of a longer message",
    "truncated": "the message stops partway through the pattern (cut-off paste)",
    "drift": "the message differs from the pattern (drifted between versions?)",
}


def _is_wordless(entry: Entry) -> bool:
    """Whether a pattern has no word of its own (:func:`errcat.patterns.is_wordless`)."""
    return entry.wordless
