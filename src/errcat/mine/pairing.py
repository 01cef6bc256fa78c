"""Pair the messages of one revision with those of the next: same, moved, reworded, or not at all.

The rules are those of re-anchoring (:func:`errcat.mine.reanchor`), plus one
for code that moved to another file *and* was reworded in the same change: a
message that matches nothing in its old file is looked for in the files its
siblings (the other messages of that old file) moved to.

>>> old = [
...     Msg("1", "pkg/args.py", 10, "ValueError", "port {port} is out of range"),
...     Msg("2", "pkg/args.py", 20, "ValueError", "unknown backend {name!r}"),
... ]
>>> new = [
...     Msg("3", "pkg/groups/net.py", 5, "ValueError", "port {port} is out of range"),
...     Msg("4", "pkg/groups/net.py", 9, "ValueError", "unknown backend {backend!r}"),
... ]
>>> [(old[i].id, new[j].id, kind) for i, j, kind in pair_messages(old, new)]
[('1', '3', 'moved'), ('2', '4', 'reworded')]
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Literal

__all__ = [
    "CHANGE_THRESHOLD",
    "OPENING_THRESHOLD",
    "Kind",
    "Msg",
    "Statement",
    "follow_alone",
    "follow_siblings",
    "opening",
    "pair_messages",
    "pair_statements",
    "similarity",
]

#: Minimum difflib ratio between two templates for one to be a rewording of the other.
CHANGE_THRESHOLD = 0.6

Kind = Literal["same", "moved", "reworded"]


@dataclass(frozen=True, slots=True)
class Msg:
    """One message at one revision: its record id, file, line, class and template."""

    id: str
    file_path: str
    line: int
    error_class: str
    template: str


def similarity(a: str, b: str) -> float:
    """The difflib ratio of two templates (1.0 for equal ones).

    >>> similarity("bad port {p}", "bad port {p}"), round(similarity("abc", "abd"), 2)
    (1.0, 0.67)
    """
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def _similar(a: str, b: str, threshold: float) -> float:
    """The ratio of two templates when it can reach ``threshold`` (cheap bounds first), else 0."""
    if 2.0 * min(len(a), len(b)) / max(1, len(a) + len(b)) < threshold:
        return 0.0
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.quick_ratio() < threshold:
        return 0.0
    return matcher.ratio()


_TOKEN = re.compile(r"\{[^{}]*\}|\w+")

#: A rewording that keeps the message's opening may change this much of the rest.
OPENING_THRESHOLD = 0.4


def opening(template: str) -> tuple[str, ...]:
    """The words a message opens with, up to its first placeholder (at most 8), if 4 or more.

    >>> opening("DeepEP v2 is not validated for {arch!r}; use deepep.")
    ('DeepEP', 'v2', 'is', 'not', 'validated', 'for', '{arch!r}')
    >>> opening("bad {x}")
    ()
    """
    tokens = []
    for m in _TOKEN.finditer(template):
        tokens.append(m.group())
        if m.group().startswith("{") or len(tokens) == 8:
            break
    return tuple(tokens) if len(tokens) >= 4 else ()


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


Pairs = list[tuple[int, int, Kind]]


def follow_siblings(
    old: Sequence[Msg],
    new: Sequence[Msg],
    pairs: Sequence[tuple[int, int]],
    threshold: float = CHANGE_THRESHOLD,
) -> list[tuple[int, int]]:
    """Pair messages left over that moved with their siblings and were reworded on the way.

    ``pairs`` are the ``(old, new)`` indexes already paired. An old message not
    paired, in file F, is compared with the new messages not paired in the files
    where F's paired messages went (other than F), raising the same class (last
    dotted part). A candidate qualifies with a similarity of at least
    ``threshold``, or of :data:`OPENING_THRESHOLD` when both messages open with
    the same words up to the first placeholder (:func:`opening`): code moved
    with its siblings and reworded on the way often keeps its subject and
    rewrites the advice. The best score wins, an equal opening first.
    """
    taken_old = {i for i, _ in pairs}
    taken_new = {j for _, j in pairs}
    went: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for i, j in pairs:
        if old[i].file_path != new[j].file_path:
            went[old[i].file_path][new[j].file_path] += 1
    if not went:
        return []
    free_new: defaultdict[str, list[int]] = defaultdict(list)
    for j, msg in enumerate(new):
        if j not in taken_new:
            free_new[msg.file_path].append(j)
    candidates: list[tuple[float, int, int, int]] = []
    for i, o in enumerate(old):
        if i in taken_old or o.file_path not in went:
            continue
        for rank, (dest, _count) in enumerate(went[o.file_path].most_common()):
            for j in free_new.get(dest, ()):
                n = new[j]
                if _short(n.error_class) != _short(o.error_class):
                    continue
                same_opening = bool(opening(o.template)) and opening(o.template) == opening(
                    n.template
                )
                floor = OPENING_THRESHOLD if same_opening else threshold
                ratio = _similar(o.template, n.template, floor)
                if ratio >= floor:
                    candidates.append((-(ratio + same_opening), rank, i, j))
    return _take_best(candidates, taken_old, taken_new)


def _take_best(
    candidates: list[tuple[Any, ...]], taken_old: set[int], taken_new: set[int]
) -> list[tuple[int, int]]:
    """Pair greedily, best (smallest) candidate first; ``taken_*`` are updated in place.

    Each candidate is ``(..., i, j)``: it is taken unless ``i`` or ``j`` already is.
    """
    candidates.sort()
    out: list[tuple[int, int]] = []
    for *_, i, j in candidates:
        if i in taken_old or j in taken_new:
            continue
        taken_old.add(i)
        taken_new.add(j)
        out.append((i, j))
    return out


def pair_messages(
    old: Sequence[Msg], new: Sequence[Msg], threshold: float = CHANGE_THRESHOLD
) -> Pairs:
    """Pair the messages of two revisions, each at most once, sorted by old index.

    1. the same id (same file and template): ``same``;
    2. the same template elsewhere, preferring the same file, then the same
       class, then the nearest line: ``moved`` (``same`` when file and line agree);
    3. in the same file, the same class and a template at least ``threshold``
       similar, best first: ``reworded``;
    4. :func:`follow_siblings`: ``reworded`` in the file the siblings went to;
    5. :func:`follow_alone`: ``reworded`` anywhere, opening alike and very similar.
    """
    taken_old: set[int] = set()
    taken_new: set[int] = set()
    pairs: Pairs = []

    def take(i: int, j: int, kind: Kind) -> None:
        taken_old.add(i)
        taken_new.add(j)
        if kind == "moved" and (old[i].file_path, old[i].line) == (new[j].file_path, new[j].line):
            kind = "same"
        pairs.append((i, j, kind))

    by_id = {m.id: j for j, m in enumerate(new)}
    for i, o in enumerate(old):
        j = by_id.get(o.id)
        if j is not None and j not in taken_new:
            take(i, j, "same")

    by_template: defaultdict[str, list[int]] = defaultdict(list)
    by_file: defaultdict[str, list[int]] = defaultdict(list)
    for j, n in enumerate(new):
        by_template[n.template].append(j)
        by_file[n.file_path].append(j)

    same: list[tuple[tuple[float, ...], int, int]] = []
    for i, o in enumerate(old):
        if i in taken_old:
            continue
        for j in by_template.get(o.template, ()):
            n = new[j]
            key = (
                float(o.file_path != n.file_path),
                float(_short(o.error_class) != _short(n.error_class)),
                float(abs(o.line - n.line)),
            )
            same.append((key, i, j))
    same.sort()
    for _key, i, j in same:
        if i not in taken_old and j not in taken_new:
            take(i, j, "moved")

    near: list[tuple[tuple[float, ...], int, int]] = []
    for i, o in enumerate(old):
        if i in taken_old:
            continue
        for j in by_file.get(o.file_path, ()):
            n = new[j]
            if j in taken_new or _short(o.error_class) != _short(n.error_class):
                continue
            ratio = _similar(o.template, n.template, threshold)
            if ratio >= threshold:
                near.append(((-ratio, float(abs(o.line - n.line))), i, j))
    near.sort()
    for _key, i, j in near:
        if i not in taken_old and j not in taken_new:
            take(i, j, "reworded")

    for i, j in follow_siblings(old, new, [(i, j) for i, j, _ in pairs], threshold):
        take(i, j, "reworded")
    for i, j in follow_alone(old, new, [(i, j) for i, j, _ in pairs]):
        take(i, j, "reworded")
    pairs.sort()
    return pairs


#: How alike two templates in unrelated files must be to pair them (see follow_alone).
ALONE_THRESHOLD = 0.7


def _lead(template: str) -> tuple[str, ...]:
    """The first four words of a template, when it opens with four words before any placeholder.

    >>> _lead("Free memory on device ({free}/{total} GiB)")
    ('Free', 'memory', 'on', 'device')
    >>> _lead("{name} must be positive")
    ()
    """
    words: list[str] = []
    for m in _TOKEN.finditer(template):
        if m.group().startswith("{"):
            break
        words.append(m.group())
        if len(words) == 4:
            return tuple(words)
    return ()


def follow_alone(
    old: Sequence[Msg], new: Sequence[Msg], pairs: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Pair messages left over that moved to another file on their own and were reworded.

    A function moved to a new module and its message edited on the way (a
    typo fixed, a detail inserted) pairs with nothing else. An old message not
    paired and a new one not paired qualify when they raise the same class
    (last dotted part), open with the same four words and are at least
    :data:`ALONE_THRESHOLD` similar; each pairs with its best, most similar first.

    >>> old = [Msg("a", "x/old.py", 5, "ValueError", "Free memory on device ({f}/{t} GiB)")]
    >>> new = [Msg("b", "y/new.py", 9, "ValueError", "Free memory on device {d} ({f}/{t} GiB)")]
    >>> follow_alone(old, new, [])
    [(0, 0)]
    """
    taken_old = {i for i, _ in pairs}
    taken_new = {j for _, j in pairs}
    free_new: defaultdict[tuple[str, tuple[str, ...]], list[int]] = defaultdict(list)
    for j, msg in enumerate(new):
        lead = _lead(msg.template)
        if j not in taken_new and lead:
            free_new[(_short(msg.error_class), lead)].append(j)
    if not free_new:
        return []
    candidates: list[tuple[float, int, int]] = []
    for i, o in enumerate(old):
        lead = _lead(o.template)
        if i in taken_old or not lead:
            continue
        for j in free_new.get((_short(o.error_class), lead), ()):
            ratio = _similar(o.template, new[j].template, ALONE_THRESHOLD)
            if ratio >= ALONE_THRESHOLD:
                candidates.append((-ratio, i, j))
    return _take_best(candidates, taken_old, taken_new)


@dataclass(frozen=True, slots=True)
class Statement:
    """A raise without a message at one revision: its record id, file, line, class, and what it is.

    ``function`` is the raising function's qualified name in its module
    (``FusedMoE.__init__``; empty at module level), ``code`` the raising line of
    code, whitespace folded (``assert self.quant_method is not None``).
    """

    id: str
    file_path: str
    line: int
    error_class: str
    function: str
    code: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What it is wherever its line: file, function, class (last dotted part), statement."""
        return (self.file_path, self.function, _short(self.error_class), self.code)


#: A statement this short (``assert x``) is not told from another file's by its function.
MIN_MOVED_STATEMENT = 12


def pair_statements(old: Sequence[Statement], new: Sequence[Statement]) -> Pairs:
    """Pair the raises without a message of two revisions: the same statement, the same function.

    A raise without a message has no text to follow, only its statement:

    1. the same file, function, class (last dotted part) and statement, its
       line anywhere: ``same`` (``moved`` when the line changed); the same
       statement written twice in one function pairs in line order;
    2. of those left, the same function, class and statement in another file,
       when it is the only one of them left on each side (module-level code and
       a statement shorter than :data:`MIN_MOVED_STATEMENT` characters stay):
       ``moved``.

    >>> old = [
    ...     Statement("a", "m/layer.py", 218, "AssertionError", "F.__init__", "assert self.q"),
    ...     Statement(
    ...         "b", "m/layer.py", 240, "AssertionError", "F.run", "assert self.pool is not None"
    ...     ),
    ... ]
    >>> new = [
    ...     Statement("c", "m/layer.py", 335, "AssertionError", "F.__init__", "assert self.q"),
    ...     Statement(
    ...         "d", "m/run.py", 12, "AssertionError", "F.run", "assert self.pool is not None"
    ...     ),
    ... ]
    >>> pair_statements(old, new)
    [(0, 0, 'moved'), (1, 1, 'moved')]
    """
    pairs: Pairs = []
    by_key: defaultdict[tuple[str, str, str, str], list[int]] = defaultdict(list)
    for j, n in enumerate(new):
        by_key[n.key].append(j)
    olds: defaultdict[tuple[str, str, str, str], list[int]] = defaultdict(list)
    for i, o in enumerate(old):
        olds[o.key].append(i)
    taken_old: set[int] = set()
    taken_new: set[int] = set()
    for key, old_is in olds.items():
        new_js = sorted(by_key.get(key, ()), key=lambda j: new[j].line)
        for i, j in zip(sorted(old_is, key=lambda i: old[i].line), new_js, strict=False):
            pairs.append((i, j, "same" if old[i].line == new[j].line else "moved"))
            taken_old.add(i)
            taken_new.add(j)

    def moved_key(s: Statement) -> tuple[str, str, str] | None:
        if not s.function or len(s.code) < MIN_MOVED_STATEMENT:
            return None
        return (s.function, _short(s.error_class), s.code)

    left_old: defaultdict[tuple[str, str, str], list[int]] = defaultdict(list)
    left_new: defaultdict[tuple[str, str, str], list[int]] = defaultdict(list)
    for i, o in enumerate(old):
        if i not in taken_old and (k := moved_key(o)) is not None:
            left_old[k].append(i)
    for j, n in enumerate(new):
        if j not in taken_new and (k := moved_key(n)) is not None:
            left_new[k].append(j)
    for k, old_is in left_old.items():
        new_js = left_new.get(k, [])
        if len(old_is) == 1 and len(new_js) == 1:
            pairs.append((old_is[0], new_js[0], "moved"))
    pairs.sort()
    return pairs
