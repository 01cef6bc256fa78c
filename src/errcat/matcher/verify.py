"""Verifying a candidate pattern against a message: full, prefix, inner, or cut off.

Every regex runs with a time limit (:data:`~errcat.matcher.REGEX_TIMEOUT`);
literal-and-group patterns are matched piece by piece without a regex.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import regex

from errcat.index import Entry
from errcat.matcher.result import REGEX_TIMEOUT
from errcat.patterns import (
    GROUP,
    inner_tail_possible,
    pieces_fullmatch,
    pieces_inner,
    pieces_inner_lead,
    pieces_prefix,
    pieces_truncated,
    placeholder_names,
)

#: A leading capture that starts like prose followed by ": " is a wrapper's text.
_WRAPPER_LEAD = re.compile(r"[A-Za-z][A-Za-z0-9_ .'-]*: \S")


@dataclass(frozen=True, slots=True)
class _Hit:
    """Where a pattern matched a message and what its groups captured."""

    mode: str
    groups: tuple[str | None, ...]
    start: int
    end: int
    #: The pattern matched only with the message's final period put back.
    restored: bool = False


def _regex_hit(mode: str, m: regex.Match[str]) -> _Hit:
    return _Hit(mode, m.groups(), m.start(), m.end())


def _verify(entry: Entry, text: str, *, use_pieces: bool, prose: bool = False) -> _Hit | None:
    r"""Match one candidate against a folded message: full, then prefix, then inner.

    A regex that runs past :data:`REGEX_TIMEOUT` counts as no match. That limit
    is wall-clock time, which a busy machine can stretch for a sound pattern:
    one that times out is tried once more with ten times the limit, so an
    answer does not depend on the load (a pattern that backtracks without end
    still gives up). The empty pattern (a raise without a message) matches the
    empty message only: it is the start of every text, and explains none. A
    pattern that is all placeholder (:attr:`~errcat.index.Entry.whole`:
    ``'(\w+)'``) matches the whole message or nothing: the start or end of a
    longer one is a quoted value of another message, not its error.
    """
    if not entry.pattern:
        return _Hit("full", (), 0, 0) if not text else None
    try:
        hit = _verify_once(entry, text, use_pieces, prose, REGEX_TIMEOUT)
    except TimeoutError:
        try:
            hit = _verify_once(entry, text, use_pieces, prose, REGEX_TIMEOUT * 10)
        except TimeoutError:
            return None
    return None if hit is not None and hit.mode != "full" and entry.whole else hit


def _verify_once(
    entry: Entry, text: str, use_pieces: bool, prose: bool, timeout: float
) -> _Hit | None:
    """One try of :func:`_verify` (raises TimeoutError when a regex runs past ``timeout``).

    With ``prose`` (a message quoted in a sentence or a title, not printed by
    Python after its class), a pattern may also match with the message's final
    period put back (the hit is marked ``restored``).
    """
    compiled = None
    if use_pieces and entry.pieces is not None:
        groups = pieces_fullmatch(entry.pieces, text)
        full = _Hit("full", groups, 0, len(text)) if groups is not None else None
        if full is None and prose and _lost_period(entry, text):
            # The message's own final period, lost where it was quoted in a sentence.
            groups = pieces_fullmatch(entry.pieces, text + ".")
            if groups is not None:
                full = _Hit("full", groups, 0, len(text), restored=True)
    else:
        compiled = entry.compiled
        m = compiled.full.fullmatch(text, timeout=timeout)
        full = _regex_hit("full", m) if m else None
        if full is None and prose and _lost_period(entry, text):
            m = compiled.full.fullmatch(text + ".", timeout=timeout)
            if m is not None:
                full = _Hit("full", m.groups(), 0, len(text), restored=True)
    if full is None and entry.whole:
        return None  # no prefix or inner match to look for (see _verify)
    if full is not None:
        lead = full.groups[0] if entry.pattern.startswith(GROUP) else None
        if lead and _WRAPPER_LEAD.match(lead):
            # "worker crashed: <message>": the wrapper is not the placeholder's value.
            if use_pieces and entry.pieces is not None:
                inner_hit = pieces_inner_lead(entry.pieces, text)
                if inner_hit is not None:
                    return _Hit("inner", *inner_hit)
                return full
            inner = entry.compiled.inner.search(text, timeout=timeout)
            if inner:
                return _regex_hit("inner", inner)
        return full
    if use_pieces and entry.pieces is not None:
        prefix = pieces_prefix(entry.pieces, text)
        if prefix is not None:
            return _Hit("prefix", prefix[0], 0, prefix[1])
        if entry.pieces[0]:
            return _pieces_inner_hit(pieces_inner, entry, entry.pieces, text, prose=prose)
        if not inner_tail_possible(entry.pieces, text):
            return None
        if entry.pattern.startswith(GROUP):
            # The regex's search tries every start and split: slow on a long message.
            return _pieces_inner_hit(pieces_inner_lead, entry, entry.pieces, text, prose=prose)
    else:
        assert compiled is not None
        m = compiled.full.match(text, timeout=timeout)
        if m:
            return _regex_hit("prefix", m)
    m = entry.compiled.inner.search(text, timeout=timeout)
    if m:
        return _regex_hit("inner", m)
    if prose and _lost_period(entry, text):
        m = entry.compiled.inner.search(text + ".", timeout=timeout)
        if m and m.start() < len(text):
            return _Hit("inner", m.groups(), m.start(), len(text), restored=True)
    return None


#: Placeholder expressions that print a name: a module's, a class's or a function's.
_NAME_EXPRESSIONS = ("__name__", "__qualname__")


@functools.lru_cache(maxsize=4096)
def _name_fields(template: str) -> tuple[int, tuple[int, ...]]:
    """How many placeholders a template has, and which of them print a name."""
    try:
        names = placeholder_names(template)
    except ValueError:
        return (-1, ())
    return (len(names), tuple(i for i, n in enumerate(names) if n.endswith(_NAME_EXPRESSIONS)))


def _spaced_name(template: str, captures: Sequence[str | None]) -> bool:
    """Whether a placeholder that prints a name captured text with whitespace inside it.

    ``{cls.__qualname__}`` prints ``Outer.<locals>.Inner``, never ``prerelease
    token. It may only consist of ...``: a pattern whose name placeholder has to
    swallow a sentence to match matched the wrong message. Spaces around the
    name are a format spec's padding (``{cls.__name__:40}``), not part of it.

    >>> _spaced_name("{v!r} is not a valid {cls.__qualname__}", ["'x'", "build token. It"])
    True
    >>> _spaced_name("{v!r} is not a valid {cls.__qualname__}", ["'x' y", "Color"])
    False
    >>> _spaced_name("not '{d.__class__.__name__:>12}'", ["    Decimal "])
    False
    """
    if "__name__" not in template and "__qualname__" not in template:
        # No placeholder can print a name (a placeholder's expression is text of the
        # template; see _NAME_EXPRESSIONS): most templates, told without parsing them.
        return False
    count, fields = _name_fields(template)
    if not fields or count != len(captures):
        return False
    return any(
        (value := captures[i]) is not None and any(c.isspace() for c in value.strip())
        for i in fields
    )


#: A placeholder that prints a class: ``{type(x)}`` (``<class 'pkg.Name'>``).
_TYPE_EXPRESSION = re.compile(r"type\([^()]*\)")


@functools.lru_cache(maxsize=4096)
def type_fields(template: str) -> tuple[int, tuple[int, ...]]:
    """How many placeholders a template has, and which of them print a class (``type(x)``)."""
    try:
        names = placeholder_names(template)
    except ValueError:
        return (-1, ())
    return (len(names), tuple(i for i, n in enumerate(names) if _TYPE_EXPRESSION.fullmatch(n)))


def _bare_type(template: str, captures: Sequence[str | None]) -> bool:
    """Whether a placeholder that prints a class captured something else.

    ``{type(other)}`` prints ``<class 'sympy.core.expr.Expr'>``, never ``'Expr'``:
    a pattern that matched ``unsupported operand type(s) for *: 'Expr' and 'One'``
    that way matched the interpreter's message, not this record's.

    >>> t = "unsupported operand type(s) for *: {type(self)} and {type(other)}"
    >>> _bare_type(t, ["'Expr'", "'One'"]), _bare_type(t, ["<class 'A'>", "<enum 'B'>"])
    (True, False)
    >>> _bare_type("bad {type(x).__name__}", ["int"])
    False
    """
    if "type(" not in template:
        return False
    count, fields = type_fields(template)
    if not fields or count != len(captures):
        return False
    return any(
        (value := captures[i]) is not None
        and not (value.strip().startswith("<") and value.strip().endswith(">"))
        for i in fields
    )


def _cannot_print(template: str, captures: Sequence[str | None]) -> bool:
    """Whether the record's template could not have printed these captures.

    A name placeholder holding words with spaces (:func:`_spaced_name`), or a
    class placeholder holding no class (:func:`_bare_type`).
    """
    return _spaced_name(template, captures) or _bare_type(template, captures)


def _pieces_inner_hit(
    find: Callable[[Sequence[str], str], tuple[tuple[str, ...], int, int] | None],
    entry: Entry,
    pieces: Sequence[str],
    text: str,
    *,
    prose: bool,
) -> _Hit | None:
    """The inner hit ``find`` (``pieces_inner`` or ``pieces_inner_lead``) gives, if any.

    In prose, a message quoted at the end of a sentence that took its final
    period is tried with the period put back (``restored``).
    """
    found = find(pieces, text)
    if found is None and prose and _lost_period(entry, text):
        found = find(pieces, text + ".")
        if found is not None and found[1] < len(text):
            groups, start, _ = found
            return _Hit("inner", groups, start, len(text), restored=True)
        return None
    return None if found is None else _Hit("inner", *found)


def _lost_period(entry: Entry, text: str) -> bool:
    """Whether the pattern ends with a period that the text, ending in a word, lacks."""
    return text[-1:].isalnum() and entry.pattern.endswith(r"\.") and entry.literal_length > 1


def _lookup_text(text: str) -> str:
    """The text to find candidates with: a lost final period put back (see :func:`_verify`)."""
    return text + "." if text[-1:].isalnum() else text


def _verify_truncated(entry: Entry, text: str) -> _Hit | None:
    if entry.pieces is not None and not pieces_truncated(entry.pieces, text):
        return None  # the same answer as the regex, without compiling it
    m = None
    for timeout in (REGEX_TIMEOUT, REGEX_TIMEOUT * 10):  # see _verify
        try:
            m = entry.compiled.full.fullmatch(text, partial=True, timeout=timeout)
            break
        except TimeoutError:
            continue
    return _regex_hit("truncated", m) if m is not None and m.partial else None


def _verify_quoted_truncated(entry: Entry, text: str) -> _Hit | None:
    """A cut-off message quoted after other words (an issue title): truncated from its start.

    The pattern must start with literal text, found in ``text`` after the
    words before it; the match's span leaves those words unexplained.
    """
    if not entry.fragments or entry.pattern.startswith(GROUP):
        return None
    at = text.find(entry.fragments[0])
    if at <= 0:
        return None
    hit = _verify_truncated(entry, text[at:])
    if hit is None:
        return None
    return _Hit(hit.mode, hit.groups, hit.start + at, hit.end + at)
