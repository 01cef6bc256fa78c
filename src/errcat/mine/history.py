r"""Mine a project at several revisions into one catalog of message lineages and its history.

Each revision is a :class:`Snapshot`: its files (repo-relative path and a blob
key) and a way to read the blobs. A file whose blob was scanned before, with
the same module name, is not read or parsed again; only the resolution of
class names and messages, cheap next to parsing, runs per revision.

>>> from datetime import datetime, timezone
>>> from errcat.history import Revision
>>> def snap(label, day, files):
...     rev = Revision(label, label[-1] * 40, datetime(2025, 1, day, tzinfo=timezone.utc))
...     blobs = {f"{p}@{label}": text.encode() for p, text in files.items()}
...     return Snapshot(
...         rev, [(p, f"{p}@{label}") for p in files], lambda keys: ((k, blobs[k]) for k in keys)
...     )
>>> v1 = snap("v1", 1, {"m.py": "def f(x):\n    raise ValueError(f'bad value {x}')\n"})
>>> v2 = snap("v2", 9, {"m.py": "def f(x):\n\n    raise ValueError(f'bad value: {x}')\n"})
>>> result = build_history([v1, v2], repo="o/r")
>>> [(r.error_message, r.line_number, r.analyzed_sha[0]) for r in result.records]
[('bad value {x}', 2, '1'), ('bad value: {x}', 3, '2')]
>>> old = result.history.lineage(result.records[0].id)
>>> old.status, old.successor == result.records[1].id
('reworded', True)
"""

from __future__ import annotations

import dataclasses
import io
import multiprocessing
import re
import time
import tokenize
from collections.abc import Callable, Iterable, Iterator, MutableMapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from difflib import SequenceMatcher
from typing import Any

from errcat.history import History, Lineage, Revision, Site
from errcat.mine.core import records_from_scans
from errcat.mine.curated import curated_history, old_wordings
from errcat.mine.facts import _FileScan
from errcat.mine.lineages import Line, advance, msg_of, short_class, statements_of
from errcat.mine.options import OptionIndex
from errcat.mine.pairing import _similar, pair_messages, pair_statements
from errcat.mine.scan import scan_source
from errcat.mine.since import FlagAges
from errcat.models import ErrorRecord, RecordEnvelope
from errcat.patterns import parse_template
from errcat.store import WAS_TAG_PREFIX
from errcat.tags import FUNCTION_TAG_PREFIX, LOGGED_TAG, tag_values

__all__ = [
    "HistoryResult",
    "RevisionStats",
    "Snapshot",
    "build_history",
    "decode_source",
    "keep_path",
    "module_names",
    "with_curated",
]

_PRUNED = frozenset({"__pycache__", "site-packages", "dist-packages", "node_modules"})


def keep_path(path: str, include_tests: bool = False) -> bool:
    """True for a ``.py`` file the miner reads (tests, hidden and vendored folders left out).

    The rules of ``errcat mine`` on a folder, applied to a path relative to it.

    >>> keep_path("pkg/a.py"), keep_path("pkg/tests/t.py"), keep_path("pkg/test_a.py")
    (True, False, False)
    >>> keep_path("pkg/tests/t.py", include_tests=True), keep_path("pkg/.hidden/a.py")
    (True, False)
    """
    *dirs, name = path.split("/")
    if not name.endswith(".py") or name.startswith("."):
        return False
    for d in dirs:
        if d.startswith(".") or d in _PRUNED:
            return False
        if not include_tests and (d in ("test", "tests") or d.endswith(("_test", "_tests"))):
            return False
    return include_tests or not (
        name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"
    )


def module_names(paths: Sequence[str]) -> dict[str, tuple[str, bool]]:
    """Each path's dotted module and whether it is a package, as ``errcat mine`` names them.

    A folder with an ``__init__.py`` among ``paths`` is a package; a folder
    without one inside a package counts too (a namespace subpackage).

    >>> names = module_names(["src/pkg/__init__.py", "src/pkg/a.py", "src/pkg/ns/b.py", "top.py"])
    >>> names["src/pkg/a.py"], names["src/pkg/__init__.py"], names["src/pkg/ns/b.py"]
    (('pkg.a', False), ('pkg', True), ('pkg.ns.b', False))
    >>> names["top.py"]
    ('top', False)
    """
    packages = {p.rpartition("/")[0] for p in paths if p.rpartition("/")[2] == "__init__.py"}
    memo: dict[str, bool] = {}

    def in_package(directory: str) -> bool:
        # A namespace subpackage: every folder up to a package is an identifier.
        if directory not in memo:
            parent, _, name = directory.rpartition("/")
            memo[directory] = (
                bool(directory)
                and name.isidentifier()
                and (parent in packages or (bool(parent) and in_package(parent)))
            )
        return memo[directory]

    out: dict[str, tuple[str, bool]] = {}
    for path in paths:
        directory, _, name = path.rpartition("/")
        is_package = name == "__init__.py"
        parts = [] if is_package else [name[:-3] if name.endswith(".py") else name]
        while directory and (directory in packages or in_package(directory)):
            directory, _, last = directory.rpartition("/")
            parts.insert(0, last)
        if is_package and not parts:
            parts = [path.rsplit("/", 2)[-2] if "/" in path else "module"]
        out[path] = (".".join(parts), is_package)
    return out


def decode_source(data: bytes) -> str | None:
    r"""A file's text as Python reads it (declared encoding, BOM, newlines), or None.

    >>> decode_source(b"# -*- coding: latin-1 -*-\nx = '\xe9'\r\n")
    "# -*- coding: latin-1 -*-\nx = 'é'\n"
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _scan_task(task: tuple[bytes, str, str, bool]) -> _FileScan:
    """:func:`_scan` on one tuple (what a worker process runs)."""
    return _scan(*task)


def _scan(data: bytes, file_path: str, module: str, is_package: bool) -> _FileScan:
    text = decode_source(data)
    if text is None:
        return _FileScan(file_path, file_path, module, error="cannot decode the file")
    return scan_source(
        text, module=module, is_package=is_package, source=file_path, file_path=file_path
    )


#: Reads blobs by key: yields ``(key, content)`` for each key asked for.
BlobReader = Callable[[Sequence[str]], Iterator[tuple[str, bytes]]]


@dataclass(frozen=True)
class Snapshot:
    """One revision to mine: its files as ``(repo-relative path, blob key)`` and a blob reader.

    ``missing`` is set when the folder to mine does not exist at this revision
    (the snapshot then has no files, and the build says so).
    """

    revision: Revision
    files: Sequence[tuple[str, str]]
    read: BlobReader
    missing: str | None = None


@dataclass(frozen=True)
class RevisionStats:
    """What one revision gave: files, files parsed (the others came from the cache), records..."""

    revision: Revision
    files: int
    parsed: int
    records: int
    new: int
    moved: int
    reworded: int
    removed: int
    skipped: int
    parse_errors: tuple[tuple[str, str], ...] = ()
    missing: str | None = None
    #: Raises without a message (their lineages follow the statement: :func:`pair_statements`).
    bare: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The counts as a JSON-ready dict."""
        return {
            "label": self.revision.label,
            "sha": self.revision.sha,
            "date": self.revision.date.isoformat(),
            "files": self.files,
            "parsed": self.parsed,
            "records": self.records,
            "new": self.new,
            "moved": self.moved,
            "reworded": self.reworded,
            "removed": self.removed,
            "skipped": self.skipped,
            "bare": self.bare,
            "parseErrors": len(self.parse_errors),
            "missing": self.missing,
        }


@dataclass(frozen=True)
class HistoryResult:
    """The lineage records (one per message lineage), their history, and per-revision counts."""

    envelopes: tuple[RecordEnvelope, ...]
    history: History
    revisions: tuple[RevisionStats, ...]
    seconds: float = 0.0
    #: Curated records (:func:`with_curated`) that matched no lineage, kept as they were.
    unmatched_curated: int = 0

    @property
    def records(self) -> tuple[ErrorRecord, ...]:
        """The records, in the order of :attr:`envelopes`."""
        return tuple(e.record for e in self.envelopes)

    def summary(self) -> str:
        """One line per revision, then the totals."""
        lines = []
        for s in self.revisions:
            extra = f" ({s.missing})" if s.missing else ""
            errors = f", {len(s.parse_errors)} unparsable" if s.parse_errors else ""
            lines.append(
                f"{s.revision.label} {s.revision.short} {s.revision.date:%Y-%m-%d}: "
                f"{s.files} files ({s.parsed} parsed{errors}), {s.records} records: "
                f"{s.new} new, {s.moved} moved, {s.reworded} reworded, {s.removed} removed"
                f"{extra}"
            )
        status = [lin.status for lin in self.history]
        lines.append(
            f"{len(self.history)} lineages over {len(self.revisions)} revisions in "
            f"{self.seconds:.1f} s: {status.count('current')} current, "
            f"{status.count('reworded')} reworded, {status.count('removed')} removed"
        )
        return "\n".join(lines)


#: How alike a message that appeared elsewhere must be to one that ended just before
#: to carry it on (:func:`_link_survivors`): stricter than pairing within a file.
SURVIVOR_THRESHOLD = 0.8


def _common_prefix(a: str, b: str) -> int:
    """How many leading path parts two paths share."""
    n = 0
    for x, y in zip(a.split("/"), b.split("/"), strict=False):
        if x != y:
            break
        n += 1
    return n


def _link_survivors(lines: Sequence[Line], revisions: Sequence[Revision]) -> int:
    """Give each message that ended with no successor the message that carries it on; a count.

    Pairing is one to one between two revisions, so a message raised at two
    sites ends its lineage when one site goes (a retired backend, a deleted
    file) although its text lives on at the other; and a message reworded
    while moving to an unrelated file pairs with nothing. Users of the old
    version still paste the old message, and its answer should say where it
    is raised now. So, at the revision after a lineage's last one:

    1. a lineage raised there with the same template and class (last dotted
       part) carries it on: the one whose file there shares the most leading
       folders, then the nearest line; failing that, for a template of at least
       :data:`_RENAMED_CLASS_LITERAL` literal characters, one with the same
       template under another class (``ValueError`` became the project's own
       ``VLLMNotFoundError``: the same check, its class renamed);
    2. else a lineage that begins there, was reworded from nothing, raises the
       same class and is at least :data:`SURVIVOR_THRESHOLD` similar: the most
       similar; it also gets this lineage as its ``predecessor``.

    Only ``successor`` (and, in rule 2, ``predecessor``) change; every message
    keeps its one lineage.
    """
    order = {r.sha: n for n, r in enumerate(revisions)}
    newest = len(revisions) - 1
    at: dict[int, dict[str, list[tuple[Line, Site]]]] = {}
    born: dict[int, dict[str, list[Line]]] = {}
    for line in lines:
        cls = short_class(line.msg.error_class)
        for site in line.sites:
            at.setdefault(order[site.revision.sha], {}).setdefault(cls, []).append((line, site))
        born.setdefault(order[line.sites[0].revision.sha], {}).setdefault(cls, []).append(line)
    linked = 0
    for line in lines:
        last = order[line.sites[-1].revision.sha]
        if line.successor is not None or last >= newest:
            continue
        cls = short_class(line.msg.error_class)
        end = line.sites[-1]
        following = at.get(last + 1, {})
        kept = following.get(cls, ())
        if not any(other.msg.template == line.msg.template for other, _ in kept) and (
            _literal_chars(line.msg.template) >= _RENAMED_CLASS_LITERAL
        ):
            kept = [pair for pairs in following.values() for pair in pairs]
        same = [
            (
                -_common_prefix(site.file_path, end.file_path),
                abs(site.line - end.line),
                other.id,
                other,
            )
            for other, site in kept
            if other.msg.template == line.msg.template
        ]
        if same:
            line.successor = min(same, key=lambda item: item[:3])[3].id
            linked += 1
            continue
        scored = []
        words = _words(line.msg.template)
        for other in born.get(last + 1, {}).get(cls, ()):
            score = _carried(line.msg.template, words, other.msg.template)
            if score >= SURVIVOR_THRESHOLD:
                scored.append((score, other.predecessor is None, other.id, other))
        if scored:
            best = max(scored, key=lambda item: item[:3])[3]
            line.successor = best.id
            if best.predecessor is None:
                best.predecessor = line.id
            linked += 1
    return linked


#: A message this long (characters) that another holds almost whole lives on in it.
_CONTAINED_LENGTH = 40
#: The opening text a logged record and a raised one share to be one error (_drop_logged_twins).
_TWIN_OPENING = 20
#: Literal characters a template needs for the same text under another class to carry it on.
_RENAMED_CLASS_LITERAL = 24


def _literal_chars(template: str) -> int:
    """The characters of a template outside its placeholders.

    >>> _literal_chars("The model `{name}` does not exist.")
    28
    """
    literals, _fields = parse_template(template)
    return sum(len(part) for part in literals)


def _words(template: str) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(template) if len(w) >= 4)


def _carried(old: str, old_words: frozenset[str], new: str) -> float:
    """How well ``new`` carries ``old`` on: their similarity, or the share of ``old`` it holds.

    The share counts only for a message of at least :data:`_CONTAINED_LENGTH`
    characters (a rewording that appended advice keeps the old text whole);
    cheap word checks come first.

    >>> old = "The number of required GPUs exceeds the total number of available GPUs."
    >>> new = (
    ...     "The number of required {d}s exceeds the total number of available {d}s. "
    ...     "Required number of devices: {n}. Total number of devices: {m}."
    ... )
    >>> round(_carried(old, _words(old), new), 2)
    0.92
    """
    if old_words and len(old_words & _words(new)) < SURVIVOR_THRESHOLD * len(old_words):
        return 0.0
    ratio = _similar(old, new, SURVIVOR_THRESHOLD)
    if ratio >= SURVIVOR_THRESHOLD or len(old) < _CONTAINED_LENGTH:
        return ratio
    blocks = SequenceMatcher(None, old, new, autojunk=False).get_matching_blocks()
    return sum(b.size for b in blocks) / len(old)


_WORD = re.compile(r"[A-Za-z]+")


def _scan_revision(
    snapshot: Snapshot,
    cache: dict[tuple[str, str, bool], _FileScan],
    pool: Executor | None = None,
) -> tuple[list[_FileScan], int, dict[tuple[str, str, bool], _FileScan]]:
    """A snapshot's scans (cached or parsed), the number parsed, and the cache to keep."""
    paths = [p for p, _ in snapshot.files]
    names = module_names(paths)
    keys = [(blob, *names[path]) for path, blob in snapshot.files]
    missing = [k for k in dict.fromkeys(keys) if k not in cache]
    fresh: dict[tuple[str, str, bool], _FileScan] = {}
    if missing:
        wanted: dict[str, list[tuple[str, str, bool]]] = {}
        first_path: dict[tuple[str, str, bool], str] = {}
        first_blob: dict[str, str] = {}
        first_pkg: dict[str, bool] = {}
        for (path, _blob), key in zip(snapshot.files, keys, strict=True):
            if key not in cache and key not in first_path:
                first_path[key] = path
                first_blob[path], first_pkg[path] = key[0], key[2]
                wanted.setdefault(key[0], []).append(key)
        tasks = (
            (data, first_path[key], key[1], key[2])
            for blob, data in snapshot.read(list(wanted))
            for key in wanted.get(blob, ())
        )
        if pool is None:
            results: Iterable[_FileScan] = map(_scan_task, tasks)
        else:
            results = pool.map(_scan_task, tasks, chunksize=8)
        for done in results:
            fresh[(first_blob[done.file_path], done.module, first_pkg[done.file_path])] = done
    scans = []
    kept: dict[tuple[str, str, bool], _FileScan] = {}
    for (path, _blob), key in zip(snapshot.files, keys, strict=True):
        scan = cache.get(key) or fresh.get(key)
        if scan is None:  # the reader did not return it: reported as a parse error
            scans.append(_FileScan(path, path, key[1], error=f"blob {key[0]} was not read"))
            continue
        kept[key] = scan
        if scan.file_path != path:
            scan = dataclasses.replace(scan, source=path, file_path=path)
        scans.append(scan)
    return scans, len(fresh), kept


def build_history(
    snapshots: Iterable[Snapshot],
    *,
    repo: str,
    analyzed_at: datetime | None = None,
    progress: Callable[[int, Revision], None] | None = None,
    workers: int = 1,
    scans: MutableMapping[tuple[str, str, bool], _FileScan] | None = None,
) -> HistoryResult:
    """Mine each snapshot (oldest first) and link their messages into lineages.

    A message keeps its lineage while it is the same text (even when its code
    moves, to another file too); a reworded message starts a new lineage whose
    ``predecessor`` is the old one; a message that disappears ends its lineage,
    whose record stays anchored at its last revision. Each lineage's record is
    the message as mined at the newest revision where it exists, with the id it
    had when it first appeared (ids stay stable as revisions are added). A
    raise without a message (``assert x``: the empty template) has no text to
    follow: its lineage follows its statement in its function instead (the
    same statement in the same function is one lineage, wherever its line, and
    in another file when nothing else there is like it: :func:`pair_statements`).
    ``progress(index, revision)`` is called before each revision is mined.
    With ``workers`` above 1, files are parsed by a pool of processes (started
    with forkserver or spawn: a calling script needs the ``__main__`` guard).
    ``scans``, when given, holds the scans of file blobs from an earlier run
    (keyed by blob, module and whether it is a package) and receives this run's:
    a caller may keep it on disk, so that mining the same revisions again parses
    nothing (it must drop it when the miner's code changes).
    """
    store = scans if scans is not None else {}
    if workers <= 1:
        return _build(snapshots, repo, analyzed_at, progress, None, store=store)
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return _build(snapshots, repo, analyzed_at, progress, pool, store=store)


def _build(
    snapshots: Iterable[Snapshot],
    repo: str,
    analyzed_at: datetime | None,
    progress: Callable[[int, Revision], None] | None,
    pool: Executor | None,
    *,
    store: MutableMapping[tuple[str, str, bool], _FileScan],
) -> HistoryResult:
    started = time.perf_counter()
    when = analyzed_at or datetime.now(timezone.utc).replace(microsecond=0)
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    cache: dict[tuple[str, str, bool], _FileScan] = {}
    lines: dict[str, Line] = {}
    alive: list[Line] = []
    revisions: list[Revision] = []
    stats: list[RevisionStats] = []
    bare_alive: list[Line] = []
    ages = FlagAges()
    scans_at: list[list[_FileScan]] = []
    for index, snapshot in enumerate(snapshots):
        revision = snapshot.revision
        revisions.append(revision)
        if progress is not None:
            progress(index, revision)
        known = {**store, **cache} if store else cache
        scans, parsed, cache = _scan_revision(snapshot, known, pool)
        store.update(cache)
        scans_at.append(scans)
        # Advice is written below, only for the revision each record is anchored at.
        built = records_from_scans(scans, repo=repo, sha=revision.sha, when=when, advice=False)
        ages.add(revision, OptionIndex.of(scans).flags)
        # A raise without a message has no text to follow from revision to revision:
        # its statement in its function is followed instead.
        bare = [e for e in built.envelopes if not e.record.error_message]
        envelopes = [e for e in built.envelopes if e.record.error_message]
        msgs = [msg_of(e) for e in envelopes]
        step = advance(
            alive,
            msgs,
            envelopes,
            pair_messages([line.msg for line in alive], msgs),
            lines=lines,
            revision=revision,
            index=index,
        )
        statements = statements_of(bare, scans)
        bare_alive = advance(
            bare_alive,
            [msg_of(e) for e in bare],
            bare,
            pair_statements([s for x in bare_alive if (s := x.statement)], statements),
            lines=lines,
            revision=revision,
            index=index,
            statements=statements,
        ).alive
        stats.append(
            RevisionStats(
                revision,
                files=len(snapshot.files),
                parsed=parsed,
                records=len(envelopes),
                new=step.new,
                moved=step.counts["moved"],
                reworded=step.counts["reworded"],
                removed=step.removed,
                skipped=sum(built.skipped.values()),
                parse_errors=tuple(built.parse_errors),
                missing=snapshot.missing,
                bare=len(bare),
            )
        )
        alive = step.alive
    # A raise without a message has no text another could carry on.
    _link_survivors([line for line in lines.values() if line.statement is None], revisions)
    _with_advice(list(lines.values()), scans_at=scans_at, revisions=revisions, repo=repo, when=when)
    out: list[RecordEnvelope] = []
    lineages: list[Lineage] = []
    twins = _drop_logged_twins(list(lines.values()))
    for line in lines.values():
        if line.id in twins:
            continue
        envelope = line.envelope
        update: dict[str, Any] = {}
        if envelope.record.id != line.id:
            update["id"] = line.id
        was = sorted(line.classes - {short_class(line.msg.error_class)})
        if was:
            update["tags"] = (*envelope.record.tags, *(f"{WAS_TAG_PREFIX}{c}" for c in was))
        if update:
            record = envelope.record.model_copy(update=update)
            envelope = envelope.model_copy(update={"record": record})
        # A flag newer than the message: a user of the message's first release lacks it.
        out.append(ages.annotate(envelope, line.sites[0].revision))
        lineages.append(Lineage(line.id, tuple(line.sites), line.predecessor, line.successor))
    out.sort(key=lambda e: (e.record.file_path, e.record.line_number, e.record.id))
    order = {e.record.id: n for n, e in enumerate(out)}
    lineages.sort(key=lambda lin: order[lin.record_id])
    history = History(repo, revisions, lineages)
    return HistoryResult(tuple(out), history, tuple(stats), time.perf_counter() - started)


def _drop_logged_twins(lines: Sequence[Line]) -> frozenset[str]:
    """The logged lineages whose message a raise of the same function says in some revision.

    sglang's ``alloc_token_slots`` logged ``Decode out of memory. ...`` and exited in
    2024, and raises it since: one error, whose raise's record answers both (the
    release check cannot tell the two apart). Same file, same function, and the
    same opening text up to the first placeholder (at least 20 characters). A
    dropped lineage that an older wording was reworded into passes that link on
    to the raise's lineage (when the raise has no older wording of its own); one
    reworded into another is kept, so that every link resolves.
    """

    def key(record: ErrorRecord) -> tuple[str, tuple[str, ...], str] | None:
        opening = record.error_message.split("{", 1)[0]
        if len(opening) < _TWIN_OPENING:
            return None
        return (record.file_path, tag_values(record.tags, FUNCTION_TAG_PREFIX), opening)

    raised: dict[tuple[str, tuple[str, ...], str], Line] = {}
    for line in lines:
        record = line.envelope.record
        if LOGGED_TAG not in record.tags and (k := key(record)) is not None:
            raised.setdefault(k, line)
    by_id = {line.id: line for line in lines}
    dropped: set[str] = set()
    for line in lines:
        record = line.envelope.record
        if LOGGED_TAG not in record.tags or line.successor is not None:
            continue
        k = key(record)
        twin = raised.get(k) if k is not None else None
        if twin is None:
            continue
        if line.predecessor is not None:
            older = by_id.get(line.predecessor)
            if older is None or twin.predecessor is not None:
                continue
            older.successor = twin.id
            twin.predecessor = older.id
        dropped.add(line.id)
    return frozenset(dropped)


def _with_advice(
    lines: Sequence[Line],
    *,
    scans_at: Sequence[Sequence[_FileScan]],
    revisions: Sequence[Revision],
    repo: str,
    when: datetime,
) -> None:
    """Write the advice of each lineage's record at the revision it is anchored at.

    Each revision's records are built again with advice, only for the lineages
    that end there (at the newest revision, all of them).
    """
    by_revision: dict[int, list[Line]] = {}
    for line in lines:
        by_revision.setdefault(line.at, []).append(line)
    newest = len(revisions) - 1
    for index in sorted(by_revision):
        anchored = by_revision.get(index, [])
        sites = {(x.envelope.record.file_path, x.envelope.record.line_number) for x in anchored}

        def wanted(file_path: str, line: int, sites: set[tuple[str, int]] = sites) -> bool:
            return (file_path, line) in sites

        built = records_from_scans(
            list(scans_at[index]),
            repo=repo,
            sha=revisions[index].sha,
            when=when,
            advice_for=None if index == newest else wanted,
        )
        found = {e.record.id: e for e in built.envelopes}
        for line in anchored:
            line.envelope = found.get(line.envelope.record.id, line.envelope)


def with_curated(result: HistoryResult, curated: Sequence[RecordEnvelope]) -> HistoryResult:
    """Put curated records in place of the lineage drafts they describe (curation is kept).

    Each curated record is re-anchored (:func:`errcat.mine.reanchor`) onto the
    lineage records: it keeps its id and curated text, takes its lineage's
    anchor, and the history follows it under its id. A curated record that
    matches no lineage is kept as it was (never dropped), without history;
    :attr:`HistoryResult.unmatched_curated` counts them. One that took a new
    wording also keeps answering its old wording and place: a copy as it was
    joins the records, a lineage reworded into it (:mod:`errcat.mine.curated`).
    """
    from errcat.mine.reanchor import reanchor

    anchored = reanchor(curated, result.envelopes)
    before = {e.record.id: e for e in curated}
    copies = old_wordings(before, anchored.envelopes)
    by_anchor = {
        (r.file_path, r.line_number, r.analyzed_sha, r.error_message): r.id
        for r in (e.record for e in result.envelopes)
    }
    renamed: dict[str, str] = {}
    for envelope in anchored.envelopes:
        r = envelope.record
        lineage_id = by_anchor.get((r.file_path, r.line_number, r.analyzed_sha, r.error_message))
        if lineage_id is not None:
            renamed[lineage_id] = r.id
    out = [*anchored.envelopes, *anchored.new_envelopes, *anchored.removed, *copies]
    out.sort(key=lambda e: (e.record.file_path, e.record.line_number, e.record.id))

    def rename(rid: str | None) -> str | None:
        return renamed.get(rid, rid) if rid is not None else None

    lineages = [
        Lineage(
            renamed.get(lin.record_id, lin.record_id),
            lin.sites,
            rename(lin.predecessor),
            rename(lin.successor),
        )
        for lin in result.history
    ]
    history = History(result.history.repo, result.history.revisions, lineages)
    history = curated_history(history, before, copies)
    return dataclasses.replace(
        result, envelopes=tuple(out), history=history, unmatched_curated=len(anchored.removed)
    )
