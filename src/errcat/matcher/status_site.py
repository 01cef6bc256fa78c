"""A status named inside a client's own message: the client's status record, not a server's.

A status's phrase (``503 Service Unavailable``, ``status code 404``) names the
status records of :mod:`errcat.matcher.phrases`; which of them answers is the one
whose phrase the text holds (uvicorn's access-line record carries most phrases).
But the words around a phrase may be a message that a status record of the same
status prints whole: httpx's ``Server error '503 Service Unavailable' for url
'...'``, requests' ``503 Server Error: ... for url: ...``. Such a record names the
client that raised the error, which the access line's record does not: when its
pattern matches the report's whole message (or its first lines), it answers instead (a pattern that
also matched with a class the report contradicts, as a Rust ``Error:`` prefix
does, may have stayed below the threshold on its own).

>>> status_tags(("http", "http-status-503", "errcat:native"))
frozenset({'http-status-503'})
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import regex

from errcat.matcher.result import REGEX_TIMEOUT
from errcat.matcher.status_cause import STATUS_TAG_PREFIX

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = ["MIN_LITERAL", "status_tags", "whole_status_record"]

#: The literal text a client's pattern needs besides its placeholders: a status's
#: record of a bare ``{code} {reason}`` shape would match any status line.
MIN_LITERAL = 16


def status_tags(tags: Iterable[str]) -> frozenset[str]:
    """The ``http-status-<code>`` tags of a record.

    >>> sorted(status_tags(("http-status-400", "http", "http-status-404")))
    ['http-status-400', 'http-status-404']
    """
    return frozenset(t for t in tags if t.startswith(STATUS_TAG_PREFIX))


def _matches_whole(pattern: regex.Pattern[str], message: str) -> bool:
    r"""Whether ``pattern`` matches the message's first line or more, ending at a line's end.

    A client's message may go on in lines of its own (httpx's ``For more information
    check: ...``, a retry loop's note) that its pattern does not spell.

    >>> p = regex.compile("Server error '503 ([^']+?)' for url '(.+?)'")
    >>> _matches_whole(p, "Server error '503 Service Unavailable' for url 'u'\nzqa zqb")
    True
    >>> _matches_whole(p, "Server error '503 Service Unavailable' for url 'u' zqa")
    False
    """
    try:
        found = pattern.match(message, timeout=REGEX_TIMEOUT)
    except TimeoutError:
        return False
    return found is not None and message[found.end() :].lstrip(" \t")[:1] in ("", "\n")


def whole_status_record(
    catalog: Catalog, message: str, statuses: frozenset[str], named: str
) -> tuple[int, int] | None:
    """Another record of one of ``statuses`` whose pattern matches ``message`` whole.

    Whole: from its start to the end of a line (:func:`_matches_whole`).

    ``named`` is the id of the record the phrase named (not an answer here). The one
    with the most literal text wins; returns its (part, position), or None.
    """
    best: tuple[int, int, int] | None = None
    for part, store in enumerate(catalog.parts):
        for entry in store.index.candidates(message):
            if entry.literal_length < MIN_LITERAL or (
                best is not None and entry.literal_length <= best[0]
            ):
                continue
            for position in entry.records:
                summary = store.summary(position)
                if (
                    summary.id == named
                    or not statuses & status_tags(summary.tags)
                    or catalog.hidden(part, summary.id)
                ):
                    continue
                if _matches_whole(entry.compiled.full, message):
                    best = (entry.literal_length, part, position)
                break
    return None if best is None else (best[1], best[2])
