r"""How many projects of the whole catalog raise a hit's shape: its spread.

A catalog may be several stores (the bundled data and each plug-in's); a
message shape such as ``{name} must be positive`` or ``{fn}() got an unexpected
keyword argument {arg!r}`` may be raised by records of several of them. Every
pattern of the same literal skeleton (:func:`errcat.background.shape_key`: the
literal words in order) matches a message that one of them matches, so the
report's hits in every part, grouped by skeleton, are all the records that
share it: the projects (repos) among them are its spread. So do the patterns
that explain the whole message with part of its words, when the rest adds less
than :data:`SUBJECT_BITS` (``alpha must be positive`` is transformers' wording
of sglang's and vllm's ``{name} must be positive``: a subject filled in). A
shape that several projects of the catalog raise, with few bits of distinctive
text, is what any other project may raise too (see
:func:`errcat.matcher.generic.generic_shape`).

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
#: A pattern whose words add fewer bits than this to a shape that matches the whole
#: message shares that shape (a subject or two: ``alpha`` in ``alpha must be positive``).
SUBJECT_BITS = 12.0
#: ... when that shape has words of its own (``{a}: {b}`` matches every message).
_SHAPE_MIN_BITS = 6.0


def _within(words: Sequence[str], inside: Sequence[str]) -> bool:
    """Whether ``words`` occur in ``inside`` in order (a sub-shape of it).

    >>> _within(["must", "be"], ["alpha", "must", "be"]), _within(["be", "must"], ["must", "be"])
    (True, False)
    """
    rest = iter(inside)
    return all(word in rest for word in words)


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

    __slots__ = ("_counted", "_groups", "_hits", "_stores", "_whole")

    def __init__(self, stores: Sequence[Store], hits: Sequence[Sequence[_Found]]) -> None:
        self._stores = stores
        self._hits = hits
        self._groups: dict[str, list[tuple[int, Entry]]] | None = None
        #: The skeletons of the hits that explain the whole message.
        self._whole: set[str] = set()
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
                    key = skeleton(f.entry.fragments)
                    groups.setdefault(key, []).append((part, f.entry))
                    if f.hit.mode == "full" and not f.hit.restored:
                        self._whole.add(key)
            self._groups = groups
        return self._groups

    def _shared(self, key: str, fragments: tuple[str, ...]) -> list[str]:
        """The skeletons whose records share ``key``'s: itself, and those it adds little to."""
        groups = self._grouped()
        if key not in self._whole:
            return [key]
        words = key.split()
        bits = background.information(fragments)
        out = [key]
        for other in self._whole:
            if other == key or not _within(other.split(), words):
                continue
            other_bits = background.information(groups[other][0][1].fragments)
            if other_bits >= _SHAPE_MIN_BITS and bits - other_bits < SUBJECT_BITS:
                out.append(other)
        return out

    def repos(self, entry: Entry) -> int:
        """How many repos raise ``entry``'s shape among the report's hits (at least 1)."""
        key = skeleton(entry.fragments)
        counted = self._counted.get(key)
        if counted is not None:
            return counted
        repos: set[str] = set()
        groups = self._grouped()
        shared = self._shared(key, entry.fragments)
        for part, member in (m for other in shared for m in groups.get(other, ())):
            store = self._stores[part]
            for position in member.records[:_READ_RECORDS]:
                repos.add(store.summary(position).repo.lower())
                if len(repos) >= MAX_REPOS:
                    break
            if len(repos) >= MAX_REPOS:
                break
        counted = self._counted[key] = max(1, len(repos))
        return counted
