"""When each record's message existed: the lineages of a catalog mined across revisions.

``errcat history`` mines a project at several revisions and writes one record
per *message lineage* (a message that stays the same while its code moves),
plus a sidecar file ``NAME.history.json`` beside ``NAME.jsonl``: the
revisions, and for each record where its message was raised at each revision
and which record it was reworded from or into. Records stay plain
schemaVersion 2; :meth:`errcat.Catalog.from_path` loads the sidecar with them.

>>> from datetime import datetime, timezone
>>> old = Revision("v1", "a" * 40, datetime(2025, 1, 5, tzinfo=timezone.utc))
>>> new = Revision("v2", "b" * 40, datetime(2025, 4, 2, tzinfo=timezone.utc))
>>> history = History(
...     "o/r",
...     (old, new),
...     [
...         Lineage("1111111111111111", (Site(old, "pkg/a.py", 10),), successor="2222222222222222"),
...         Lineage(
...             "2222222222222222", (Site(new, "pkg/b.py", 4),), predecessor="1111111111111111"
...         ),
...     ],
... )
>>> line = history.lineage("1111111111111111")
>>> line.status, line.first.label, line.last.label
('reworded', 'v1', 'v1')
>>> history.current("1111111111111111").record_id
'2222222222222222'
>>> [r.label for r in history.fits("1111111111111111", [10])]
['v1']
"""

from __future__ import annotations

import dataclasses
import json
import logging
import mmap
import os
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, Protocol

from errcat.errors import CatalogSourceError, InvalidRecordError

__all__ = [
    "HISTORY_FORMAT",
    "FrameLike",
    "History",
    "Lineage",
    "Revision",
    "Site",
    "attach",
    "find_sidecar",
    "history_of",
    "is_sidecar",
    "sidecar_path",
    "sidecars_in",
]

#: Version of the sidecar file format (the ``errcatHistory`` field).
HISTORY_FORMAT = 1

Status = Literal["current", "reworded", "removed"]


class FrameLike(Protocol):
    """A traceback frame as :mod:`errcat.extract` gives it: a path and a line."""

    @property
    def path(self) -> str:
        """The file as the traceback prints it."""

    @property
    def line(self) -> int:
        """The line number."""


@dataclass(frozen=True, slots=True)
class Revision:
    """A revision mined: its label (a ref, a version), commit sha and date."""

    label: str
    sha: str
    date: datetime

    @property
    def short(self) -> str:
        """The first seven digits of the sha; the label when the commit is unknown (40 zeros).

        >>> from datetime import datetime, timezone
        >>> when = datetime(2026, 10, 30, tzinfo=timezone.utc)
        >>> Revision("2026-07-20", "8905cbd42f" + "0" * 30, when).short
        '8905cbd'
        >>> Revision("0.5.23", "0" * 40, when).short
        '0.5.23'
        """
        return self.label if self.sha == "0" * 40 else self.sha[:7]


@dataclass(frozen=True, slots=True)
class Site:
    """Where a message was raised at one revision: the file and the line of the raise."""

    revision: Revision
    file_path: str
    line: int


@dataclass(frozen=True, slots=True)
class Lineage:
    """A message through the revisions: where it was raised, and what it came from or became.

    ``sites`` holds one entry per revision where the message exists, oldest
    first. ``predecessor`` is the record it was reworded from, ``successor``
    the record that carries it on after its last revision: the message it was
    reworded into, or the same message raised at a site that remained (ids;
    ``None`` when there is none).
    ``newest`` is the newest revision of the whole history, which tells a
    message still present from one that was removed.
    """

    record_id: str
    sites: tuple[Site, ...]
    predecessor: str | None = None
    successor: str | None = None
    newest: Revision | None = None

    @property
    def first(self) -> Revision:
        """The oldest revision where the message exists."""
        return self.sites[0].revision

    @property
    def last(self) -> Revision:
        """The newest revision where the message exists."""
        return self.sites[-1].revision

    @property
    def current(self) -> Site:
        """Where the message is raised at its last revision (what the record is anchored at)."""
        return self.sites[-1]

    @property
    def status(self) -> Status:
        """``current`` (present at the newest revision), ``reworded`` or ``removed``."""
        if self.newest is None or self.last.sha == self.newest.sha:
            return "current"
        return "reworded" if self.successor is not None else "removed"

    @property
    def revisions(self) -> tuple[Revision, ...]:
        """The revisions where the message exists, oldest first."""
        return tuple(s.revision for s in self.sites)

    def fits(self, lines: Iterable[int]) -> tuple[Revision, ...]:
        """The revisions at which the raise was on one of these lines (a traceback's frames)."""
        wanted = set(lines)
        return tuple(s.revision for s in self.sites if s.line in wanted)

    def fits_frames(self, frames: Iterable[FrameLike], near: int = 0) -> tuple[Revision, ...]:
        """The revisions at which a traceback's frames in the record's file show the raise.

        ``near``: a frame this many lines from a revision's raise line fits it too
        (a release between two mined revisions moved the line a little).

        A frame is in the file when its path ends with the file's path less
        some leading folders (installed paths lack a repo's ``python/``), at
        least the last two parts.

        >>> from datetime import datetime, timezone
        >>> from types import SimpleNamespace as Frame
        >>> r1 = Revision("v1", "a" * 40, datetime(2025, 1, 1, tzinfo=timezone.utc))
        >>> r2 = Revision("v2", "b" * 40, datetime(2025, 4, 1, tzinfo=timezone.utc))
        >>> lin = Lineage(
        ...     "1" * 16, (Site(r1, "python/pkg/a.py", 10), Site(r2, "python/pkg/a.py", 12))
        ... )
        >>> frames = [Frame(path="/site-packages/pkg/a.py", line=12)]
        >>> [r.label for r in lin.fits_frames(frames)]
        ['v2']
        """
        out = []
        for site in self.sites:
            tail = site.file_path.split("/")
            for frame in frames:
                parts = frame.path.replace("\\", "/").split("/")
                k = min(len(parts), len(tail))
                while k >= 2 and parts[-k:] != tail[-k:]:
                    k -= 1
                if (
                    k >= min(2, len(tail))
                    and parts[-k:] == tail[-k:]
                    and abs(frame.line - site.line) <= near
                ):
                    out.append(site.revision)
                    break
        return tuple(out)

    def note(
        self, successor_message: str | None = None, now: Site | None = None, *, moved: bool = False
    ) -> str:
        """A short sentence on when the message existed, for an answer.

        ``moved``: the message it became is the same text, raised elsewhere.

        >>> from datetime import datetime, timezone
        >>> r1 = Revision("v1", "abc1234" + "0" * 33, datetime(2025, 3, 1, tzinfo=timezone.utc))
        >>> r2 = Revision("v2", "def5678" + "0" * 33, datetime(2025, 6, 1, tzinfo=timezone.utc))
        >>> old = Lineage("1" * 16, (Site(r1, "a.py", 3),), successor="2" * 16, newest=r2)
        >>> print(old.note("bad value: {x}", Site(r2, "b.py", 7)))
        reworded after 2025-03 (abc1234): now 'bad value: {x}' at b.py:7
        >>> print(old.note("bad value: {x}", Site(r2, "b.py", 7), moved=True))
        raised elsewhere after 2025-03 (abc1234): now at b.py:7
        """
        last = self.last
        if self.status == "current":
            return f"present since {self.first.date:%Y-%m} ({self.first.short})"
        if self.status == "removed":
            return f"removed after {last.date:%Y-%m} ({last.short})"
        if moved:
            text = f"raised elsewhere after {last.date:%Y-%m} ({last.short}): now"
            return f"{text} at {now.file_path}:{now.line}" if now is not None else text
        text = f"reworded after {last.date:%Y-%m} ({last.short})"
        if successor_message is not None:
            text += f": now {successor_message!r}"
        if now is not None:
            text += f" at {now.file_path}:{now.line}"
        return text


def sidecar_path(catalog_path: str | os.PathLike[str]) -> Path:
    """The history sidecar of a catalog file: ``NAME.history.json`` beside ``NAME.jsonl``.

    A compressed catalog (``NAME.jsonl.gz``) has its sidecar under the same ``NAME``.

    >>> sidecar_path("out/sglang.jsonl").as_posix()
    'out/sglang.history.json'
    >>> sidecar_path("records/o__r.jsonl.gz").as_posix()
    'records/o__r.history.json'
    """
    path = Path(catalog_path)
    name = path.name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    return path.with_name(name.rsplit(".", 1)[0] + ".history.json")


def is_sidecar(name: str | os.PathLike[str]) -> bool:
    """True for a history sidecar's file name (``.history.json``, or gzip-compressed).

    >>> is_sidecar("o__r.history.json.gz"), is_sidecar("o__r.jsonl.gz"), is_sidecar("h.json")
    (True, False, False)
    """
    return Path(name).name.lower().endswith(_SIDECAR_SUFFIXES)


_SIDECAR_SUFFIXES = (".history.json", ".history.json.gz")


def find_sidecar(catalog_path: str | os.PathLike[str]) -> Path | None:
    """The sidecar of a catalog file when one exists (plain or ``.gz``), else None."""
    plain = sidecar_path(catalog_path)
    for candidate in (plain, plain.with_name(plain.name + ".gz")):
        if candidate.is_file():
            return candidate
    return None


def sidecars_in(directory: str | os.PathLike[str]) -> list[Path]:
    """Every history sidecar under a data directory, sorted (hidden folders skipped)."""
    found: list[Path] = []
    for root, dirs, names in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(Path(root) / n for n in sorted(names) if is_sidecar(n))
    return found


class History:
    """The lineages of a catalog's records, by record id, with the revisions they span."""

    __slots__ = ("_lineages", "repo", "revisions")

    def __init__(self, repo: str, revisions: Sequence[Revision], lineages: Iterable[Lineage]):
        """Collect ``lineages`` (a later lineage with the same id wins)."""
        self.repo = repo
        self.revisions = tuple(revisions)
        newest = self.revisions[-1] if self.revisions else None
        self._lineages: Mapping[str, Lineage] = {}
        found: dict[str, Lineage] = {}
        for given in lineages:
            lineage = given
            if lineage.newest is None and newest is not None:
                lineage = dataclasses.replace(lineage, newest=newest)
            found[lineage.record_id] = lineage
        self._lineages = found

    def __reduce__(self) -> tuple[type[History], tuple[str, tuple[Revision, ...], list[Lineage]]]:
        """Pickle the lineages themselves (a loaded history reads a memory-mapped sidecar).

        >>> import pickle
        >>> pickle.loads(pickle.dumps(History("o/r", [], []))).repo
        'o/r'
        """
        return (History, (self.repo, self.revisions, list(self)))

    def __len__(self) -> int:
        """Number of lineages."""
        return len(self._lineages)

    def __iter__(self) -> Iterator[Lineage]:
        """The lineages, in the order they were given."""
        return iter(self._lineages.values())

    def __contains__(self, record_id: object) -> bool:
        """True when a record id has a lineage here."""
        return record_id in self._lineages

    def __repr__(self) -> str:
        """The repo, the number of revisions and of lineages."""
        return f"<History of {self.repo}: {len(self.revisions)} revisions, {len(self)} lineages>"

    def lineage(self, record_id: str) -> Lineage | None:
        """The lineage of a record, or ``None`` when the record has no history here."""
        return self._lineages.get(record_id)

    def current(self, record_id: str) -> Lineage | None:
        """The newest lineage reached by following rewordings from a record (itself if none)."""
        lineage = self._lineages.get(record_id)
        seen = set()
        while lineage is not None and lineage.successor is not None:
            seen.add(lineage.record_id)
            nxt = self._lineages.get(lineage.successor)
            if nxt is None or nxt.record_id in seen:
                break
            lineage = nxt
        return lineage

    def describe(self, record_id: str, message_of: Callable[[str], str | None]) -> str | None:
        """The :meth:`Lineage.note` of a record, naming the message it became (``None`` if unknown).

        ``message_of(record_id)`` gives a record's ``errorMessage`` (e.g. from the
        catalog); a rewording is followed to the newest message.

        >>> from datetime import datetime, timezone
        >>> r1 = Revision("v1", "abc1234" + "0" * 33, datetime(2025, 3, 1, tzinfo=timezone.utc))
        >>> r2 = Revision("v2", "def5678" + "0" * 33, datetime(2025, 6, 1, tzinfo=timezone.utc))
        >>> h = History(
        ...     "o/r",
        ...     (r1, r2),
        ...     [
        ...         Lineage("1" * 16, (Site(r1, "a.py", 3),), successor="2" * 16),
        ...         Lineage("2" * 16, (Site(r2, "b.py", 7),), predecessor="1" * 16),
        ...     ],
        ... )
        >>> h.describe("1" * 16, {"2" * 16: "bad value: {x}"}.get)
        "reworded after 2025-03 (abc1234): now 'bad value: {x}' at b.py:7"
        >>> h.describe("1" * 16, lambda record_id: "bad value: {x}")
        'raised elsewhere after 2025-03 (abc1234): now at b.py:7'
        """
        lineage = self._lineages.get(record_id)
        if lineage is None:
            return None
        newest = self.current(record_id)
        if lineage.status != "reworded" or newest is None or newest is lineage:
            return lineage.note()
        message = message_of(newest.record_id)
        moved = message is not None and message == message_of(record_id)
        return lineage.note(message, newest.current, moved=moved)

    def fits(self, record_id: str, lines: Iterable[int]) -> tuple[Revision, ...]:
        """The revisions at which a record's raise was on one of ``lines`` (empty if unknown)."""
        lineage = self._lineages.get(record_id)
        return lineage.fits(lines) if lineage is not None else ()

    def merged(self, *others: History) -> History:
        """A history holding this one's lineages and the others' (later ids win)."""
        revisions = {r.sha: r for h in (self, *others) for r in h.revisions}
        ordered = sorted(revisions.values(), key=lambda r: r.date)
        repos = sorted({h.repo for h in (self, *others)})
        merged = History(",".join(repos), ordered, [])
        # Later ids win: the last history's lineages are looked up first.
        merged._lineages = _Chain([h._lineages for h in reversed((self, *others))])
        return merged

    # -- files ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The sidecar document (see :meth:`from_json`)."""
        index = {r.sha: i for i, r in enumerate(self.revisions)}
        lineages = []
        for lin in self._lineages.values():
            path = lin.current.file_path
            at: list[list[Any]] = []
            for s in lin.sites:
                entry: list[Any] = [index[s.revision.sha], s.line]
                if s.file_path != path:
                    entry.append(s.file_path)
                at.append(entry)
            item: dict[str, Any] = {"id": lin.record_id, "path": path, "at": at}
            if lin.predecessor:
                item["predecessor"] = lin.predecessor
            if lin.successor:
                item["successor"] = lin.successor
            lineages.append(item)
        return {
            "errcatHistory": HISTORY_FORMAT,
            "repo": self.repo,
            "revisions": [
                {"label": r.label, "sha": r.sha, "date": r.date.isoformat()} for r in self.revisions
            ],
            "lineages": lineages,
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], *, source: str = "<history>") -> History:
        """Read a sidecar document; a malformed one raises :class:`InvalidRecordError`."""
        revisions = cls._revisions_of(doc, source)
        lineages = [
            _lineage_of(item, revisions, source, f"lineages[{i}]")
            for i, item in enumerate(doc.get("lineages", ()))
        ]
        return cls(str(doc.get("repo", "")), revisions, lineages)

    @staticmethod
    def _revisions_of(doc: Mapping[str, Any], source: str) -> list[Revision]:
        """The revisions of a sidecar document (its header)."""
        if not isinstance(doc, Mapping) or doc.get("errcatHistory") != HISTORY_FORMAT:
            raise InvalidRecordError(
                f"not an errcat history (format {HISTORY_FORMAT})",
                path=source,
                field="errcatHistory",
            )
        revisions: list[Revision] = []
        try:
            for r in doc["revisions"]:
                revisions.append(
                    Revision(str(r["label"]), str(r["sha"]), datetime.fromisoformat(r["date"]))
                )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidRecordError(
                f"invalid revision: {exc}", path=source, field=f"revisions[{len(revisions)}]"
            ) from None
        return revisions

    def dump(self, path: str | os.PathLike[str]) -> None:
        """Write the sidecar to ``path`` (compact JSON, one lineage per line)."""
        doc = self.to_json()
        lineages = doc.pop("lineages")
        head = json.dumps(doc, ensure_ascii=False)[:-1]
        body = ",\n".join(
            json.dumps(x, ensure_ascii=False, separators=(",", ":")) for x in lineages
        )
        Path(path).write_text(f'{head}, "lineages": [\n{body}\n]}}\n', encoding="utf-8")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> History:
        """Read a sidecar file (``.gz`` too); raises :class:`CatalogSourceError` if unreadable.

        A sidecar in the layout :meth:`dump` writes (a header line, then one lineage
        per line) is not parsed whole: a record's lineage is read from its line when
        first asked for, so an answer that needs two lineages of thirty thousand
        does not pay for the rest. A compressed one is decompressed once into the
        user cache (:func:`errcat.store.inflated_copy`), or in memory if that fails.
        """
        source = str(path)
        try:
            raw = _sidecar_bytes(Path(path))
            newline = raw.find(b"\n")
            head = raw[:newline] if newline >= 0 else b""
            if newline >= 0 and head.endswith(_LINEAGES_OPEN):
                doc = json.loads(head[: -len(_LINEAGES_OPEN)] + b"}")
                revisions = cls._revisions_of(doc, source)
                history = cls(str(doc.get("repo", "")), revisions, [])
                history._lineages = _LazyLineages(raw, len(head) + 1, revisions, source)
                return history
            doc = json.loads(bytes(raw[:]).decode("utf-8"))
        except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CatalogSourceError(f"Cannot read history {source!r}: {exc}") from None
        except RecursionError:  # JSON nested too deep for the parser: not a sidecar
            raise CatalogSourceError(
                f"Cannot read history {source!r}: JSON nested too deeply"
            ) from None
        return cls.from_json(doc, source=source)


_LINEAGES_OPEN = b', "lineages": ['


def _sidecar_bytes(path: Path) -> bytes | mmap.mmap:
    """A sidecar's text, decompressed (once, into the user cache, when it can be) and mapped."""
    plain = path
    if path.name.lower().endswith(".gz"):
        from errcat.store import inflated_copy

        try:
            plain = inflated_copy(path)
        except CatalogSourceError:
            raise
        except OSError:  # a cache that cannot be written: decompress in memory (bounded)
            from errcat.loaders.limits import inflate

            return inflate(path.read_bytes(), str(path))
    with plain.open("rb") as fh:
        try:
            return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file cannot be mapped
            return b""


def _lineage_of(item: Any, revisions: Sequence[Revision], source: str, where: str) -> Lineage:
    """One lineage of a sidecar document; :class:`InvalidRecordError` when malformed."""
    try:
        path = str(item["path"])
        sites = tuple(
            Site(revisions[e[0]], str(e[2]) if len(e) > 2 else path, int(e[1])) for e in item["at"]
        )
        lineage = Lineage(str(item["id"]), sites, item.get("predecessor"), item.get("successor"))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise InvalidRecordError(f"invalid lineage: {exc!r}", path=source, field=where) from None
    if not sites:
        raise InvalidRecordError("invalid lineage: no revision", path=source, field=where)
    return lineage


class _LazyLineages(Mapping[str, "Lineage"]):
    """The lineages of a sidecar's body, each parsed from its line when first looked up."""

    def __init__(
        self, raw: bytes | mmap.mmap, start: int, revisions: Sequence[Revision], source: str
    ):
        self._raw = raw
        self._start = start
        self._revisions = tuple(revisions)
        self._newest = self._revisions[-1] if self._revisions else None
        self._source = source
        self._found: dict[str, Lineage | None] = {}
        self._all: dict[str, Lineage] | None = None
        self._lock = threading.Lock()

    def _finish(self, lineage: Lineage) -> Lineage:
        if lineage.newest is None and self._newest is not None:
            return dataclasses.replace(lineage, newest=self._newest)
        return lineage

    def __getitem__(self, record_id: str) -> Lineage:
        if self._all is not None:
            return self._all[record_id]
        if record_id not in self._found:
            self._found[record_id] = self._find(record_id)
        found = self._found[record_id]
        if found is None:
            raise KeyError(record_id)
        return found

    def _find(self, record_id: str) -> Lineage | None:
        key = b'\n{"id":' + json.dumps(record_id).encode() + b","
        at = self._raw.find(key, self._start - 1)
        if at < 0:
            return None
        end = self._raw.find(b"\n", at + 1)
        line = self._raw[at + 1 : end if end >= 0 else len(self._raw)].rstrip(b",")
        try:
            item = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise InvalidRecordError(
                f"invalid lineage: {exc}", path=self._source, field=f"lineage {record_id}"
            ) from None
        return self._finish(_lineage_of(item, self._revisions, self._source, record_id))

    def _parsed(self) -> dict[str, Lineage]:
        with self._lock:  # parsed once, whichever thread asks first
            return self._all if self._all is not None else self._parse_all()

    def _parse_all(self) -> dict[str, Lineage]:
        if self._all is None:
            try:
                body = json.loads(
                    b"[" + self._raw[self._start :].rstrip().removesuffix(b"]}") + b"]"
                )
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
                raise InvalidRecordError(
                    f"invalid lineages: {exc}", path=self._source, field="lineages"
                ) from None
            lineages = (
                self._finish(_lineage_of(item, self._revisions, self._source, f"lineages[{i}]"))
                for i, item in enumerate(body)
            )
            self._all = {lin.record_id: lin for lin in lineages}
        return self._all

    def __iter__(self) -> Iterator[str]:
        return iter(self._parsed())

    def __len__(self) -> int:
        return len(self._parsed())


class _Chain(Mapping[str, "Lineage"]):
    """Several lineage maps looked up in order (the first that has an id wins), unmerged."""

    _maps: list[Mapping[str, Lineage]]

    def __init__(self, maps: Sequence[Mapping[str, Lineage]]) -> None:
        flat: list[Mapping[str, Lineage]] = []
        for lineages in maps:
            flat.extend(lineages._maps if isinstance(lineages, _Chain) else [lineages])
        self._maps = flat

    def __getitem__(self, record_id: str) -> Lineage:
        for lineages in self._maps:
            found = lineages.get(record_id)
            if found is not None:
                return found
        raise KeyError(record_id)

    def __iter__(self) -> Iterator[str]:
        return iter({k: None for lineages in reversed(self._maps) for k in lineages})

    def __len__(self) -> int:
        return len({k for lineages in self._maps for k in lineages})


# The history of each store of a loaded catalog (a match knows its store, not its catalog).
_BY_STORE: weakref.WeakKeyDictionary[object, History] = weakref.WeakKeyDictionary()
# Sidecars attached but not read yet: a large history is read when a match first asks.
_PENDING: weakref.WeakKeyDictionary[object, list[Callable[[], History]]] = (
    weakref.WeakKeyDictionary()
)
# Held while a store's history is attached or its pending sidecars are read: threads
# asking at once for a history being read wait for it rather than answering without it.
_LOCK = threading.RLock()


def attach(store: object, history: History | Callable[[], History]) -> None:
    """Record that a store's records have this history (see :func:`history_of`).

    ``history`` may be a function that loads it: it is called on the first
    :func:`history_of` for the store, so that a catalog whose matches never
    ask for history never reads it.
    """
    with _LOCK:
        if callable(history) and not isinstance(history, History):
            _PENDING.setdefault(store, []).append(history)
            return
        known = _BY_STORE.get(store)
        _BY_STORE[store] = history if known is None else known.merged(history)


def history_of(store: object) -> History | None:
    """The history attached to a store, if any (pending sidecars are read now, once).

    Thread-safe: when several threads ask at once, one reads the sidecars and
    the others wait for it; none answers without the history.
    """
    if store is None:
        return None
    if store not in _PENDING:  # the pending entry goes only once its history is attached
        return _BY_STORE.get(store)
    with _LOCK:
        pending = _PENDING.get(store)
        for load in pending or ():
            try:
                attach(store, load())
            except (CatalogSourceError, InvalidRecordError) as exc:  # answers go on without it
                logging.getLogger("errcat").warning("history skipped: %s", exc)
        _PENDING.pop(store, None)
        return _BY_STORE.get(store)
