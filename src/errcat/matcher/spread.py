r"""How many projects of the whole catalog raise a hit's shape: its spread.

A catalog may be several stores (the bundled data and each plug-in's); a
message shape such as ``{name} must be positive`` or ``{fn}() got an unexpected
keyword argument {arg!r}`` may be raised by records of several of them. Every
pattern of the same literal skeleton (:func:`errcat.background.shape_key`: the
literal words in order) matches a message that one of them matches, so the
report's hits in every part, grouped by skeleton, are all the records that
share it: the projects (repos) among them are its spread. A shape that several
projects of the catalog raise, with few bits of distinctive text, is what any
other project may raise too (see :func:`errcat.matcher.score._generic_shape`).

>>> from errcat.index import Entry
>>> from errcat.store import MemoryStore
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> from errcat.matcher.find import _Found
>>> from errcat.matcher.verify import _Hit
>>> def store(repo: str) -> MemoryStore:
...     example = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
...     return MemoryStore([example.model_copy(update={"repo": repo})])
>>> hit = _Hit("full", ("n",), 0, 18)
>>> a = _Found(Entry.build("(.+?) must be positive", (0,)), hit, "n must be positive", 16)
>>> b = _Found(Entry.build("(.+?) must be positive\\.", (0,)), hit, "n must be positive", 16)
>>> spread = ShapeSpread((store("org/a"), store("org/b")), [[a], [b]])
>>> spread.repos(a.entry), ShapeSpread((store("org/a"),), [[a]]).repos(a.entry)
(2, 1)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from errcat import background
from errcat.index import Entry
from errcat.matcher.find import _Found
from errcat.store import Store

#: Records of one pattern whose repos are read (a pattern shared wider than this is
#: generic whatever its repos: ``{a}: {b}``).
_READ_RECORDS = 64
#: Repos counted at most: more says no more.
MAX_REPOS = 8


@functools.lru_cache(maxsize=1 << 14)
def skeleton(fragments: tuple[str, ...]) -> str:
    """A pattern's literal skeleton (:func:`errcat.background.shape_key`), kept.

    >>> skeleton(("", " must be positive"))
    'must be positive'
    """
    return background.shape_key(fragments)


class ShapeSpread:
    """The spread of each shape among one report's hits in every part of a catalog.

    ``stores`` are the catalog's parts and ``hits`` the report's hits in each,
    in the same order. Worked out on first use (most hits never ask).
    """

    __slots__ = ("_counted", "_groups", "_hits", "_stores")

    def __init__(self, stores: Sequence[Store], hits: Sequence[Sequence[_Found]]) -> None:
        self._stores = stores
        self._hits = hits
        self._groups: dict[str, list[tuple[int, Entry]]] | None = None
        self._counted: dict[str, int] = {}

    def _grouped(self) -> dict[str, list[tuple[int, Entry]]]:
        if self._groups is None:
            groups: dict[str, list[tuple[int, Entry]]] = {}
            for part, found in enumerate(self._hits):
                seen: set[str] = set()
                for f in found:
                    if f.entry.pattern in seen:
                        continue
                    seen.add(f.entry.pattern)
                    groups.setdefault(skeleton(f.entry.fragments), []).append((part, f.entry))
            self._groups = groups
        return self._groups

    def repos(self, entry: Entry) -> int:
        """How many repos raise ``entry``'s shape among the report's hits (at least 1)."""
        key = skeleton(entry.fragments)
        counted = self._counted.get(key)
        if counted is not None:
            return counted
        repos: set[str] = set()
        for part, member in self._grouped().get(key, ()):
            store = self._stores[part]
            for position in member.records[:_READ_RECORDS]:
                repos.add(store.summary(position).repo.lower())
                if len(repos) >= MAX_REPOS:
                    break
            if len(repos) >= MAX_REPOS:
                break
        counted = self._counted[key] = max(1, len(repos))
        return counted
