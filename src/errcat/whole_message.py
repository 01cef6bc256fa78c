r"""Patterns that are (nearly) all placeholder: they match a whole message, or nothing.

A pattern whose text outside its capture groups holds no word of two letters
(a family record's ``'(\w+)'``, a ``KeyError``'s quoted key; ``'([\w.]+\.weight)'``;
a mined ``{a}: {b}``) says nothing of its own. Searched for inside a longer
message (a prefix, an inner match, a cut-off rendering) it finds a quoted value
in other records' messages (``--enable-reasoning requires reasoning_parser:'x'
which has not been registered``) and takes their place. So such a pattern is
read only as the whole message after its class (:func:`whole_message_only`;
:attr:`errcat.entry.Entry.whole`, worked out once per pattern by the index), and
its hit ranks below any other pattern's hit on the same report
(:func:`errcat.matcher.hits.worded_over_whole`). Nobody types it into a record:
it follows from the pattern.

>>> whole_message_only(r"'(\w+)'"), whole_message_only(r"name '(\w+)' is not defined")
(True, False)
>>> whole_message_only(r"'([\w.]+\.\w*(?:weight|bias)\w*)'")  # its words are captured
True
>>> whole_message_only(r"'(\w+)' (?:is|was) missing")  # words outside the captures
False
"""

from __future__ import annotations

import re

from errcat.patterns import _quantifier_at, _skip_class, _skip_group

__all__ = ["outside_captures", "whole_message_only"]

#: A word of a pattern's own: two letters in a row (``a``, ``x`` and digits are values).
_WORD = re.compile(r"[^\W\d_]{2}")
#: Escapes that match one literal character; any other escaped letter is a class (``\w``).
_ESCAPED_SPACE = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v"}
#: Openers of groups whose text is required as it stands (not captured).
_NON_CAPTURING = ("(?:", "(?>")


def _group_text(pattern: str, start: int, end: int) -> str:
    """The text inside a group's parentheses, its opener (``(?:``) left out."""
    inner = pattern[start + 1 : end - 1]
    for opener in _NON_CAPTURING:
        if pattern.startswith(opener, start):
            return inner[len(opener) - 1 :]
    return inner


def outside_captures(pattern: str) -> str:
    r"""The literal text of a pattern outside its capture groups; a space for anything else.

    Text in a non-capturing group (``(?:is|was)``) is the pattern's own; a capture
    group, a character class, a class escape (``\w``), a lookaround or an inline
    flag is a space.

    >>> outside_captures(r"name '(\w+)' is not defined")
    "name ' ' is not defined"
    >>> outside_captures(r"(?i)bad\.(?:x|yz)\w+[ab]")
    ' bad. x yz  '
    >>> outside_captures(r"'(?P<key>\w+)'")
    "' '"
    """
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            nxt = pattern[i + 1 : i + 2]
            out.append(nxt if nxt and not nxt.isalnum() else _ESCAPED_SPACE.get(nxt, " "))
            i += 2
        elif c == "[":
            out.append(" ")
            i = _skip_class(pattern, i)
        elif c == "(":
            end = _skip_group(pattern, i)
            if pattern.startswith(_NON_CAPTURING, i):
                out.append(" " + outside_captures(_group_text(pattern, i, end)) + " ")
            else:  # a capture, a named one, a lookaround, an inline flag
                out.append(" ")
            i = end
        elif c in "|.^$)":
            out.append(" ")
            i += 1
        else:
            out.append(c)
            i += 1
        i += _quantifier_at(pattern, i)
    return "".join(out)


def whole_message_only(pattern: str) -> bool:
    r"""Whether a pattern is (nearly) all placeholder: no word of its own outside its captures.

    Such a pattern matches only a whole message (see the module's docstring).

    >>> whole_message_only("(.+?): (.+?)"), whole_message_only("bad value (.+?)")
    (True, False)
    >>> whole_message_only(r"foo|bar")  # alternatives are words of its own
    False
    """
    return _WORD.search(outside_captures(pattern)) is None
