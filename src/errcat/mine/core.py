"""Mining a set of files: discover, scan each file, resolve across files, build records."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from errcat.mine.advice import _Advice, with_message, write_advice
from errcat.mine.bindings import CallIndex
from errcat.mine.facts import LOGGED_AND_RAISED, _FileScan, _Guard
from errcat.mine.files import _discover, _join_prefix
from errcat.mine.options import OptionIndex
from errcat.mine.project import ProjectIndex
from errcat.mine.records import _build_envelopes, _check_repo_sha, _Entry, _now
from errcat.mine.resolve import _Resolver, _site_texts
from errcat.mine.scan import _scan_file, scan_source
from errcat.models import ErrorRecord, RecordEnvelope


@dataclass(frozen=True)
class MineStats:
    """Counts of a mining run: files, raise sites, records, skipped sites by reason.

    ``sites`` counts every ``raise`` of an exception and every ``assert``;
    ``reraises`` counts bare ``raise`` statements, which are not sites.
    ``skipped`` maps each reason to its count, most frequent first;
    ``parse_errors`` holds ``(file, error)`` for files that could not be read
    or mined (each left out; the run goes on).
    """

    files: int
    sites: int
    records: int
    skipped: Mapping[str, int]
    parse_errors: tuple[tuple[str, str], ...] = ()
    reraises: int = 0
    seconds: float = 0.0

    @property
    def skipped_total(self) -> int:
        """Number of raise sites that gave no record."""
        return sum(self.skipped.values())

    def as_dict(self) -> dict[str, Any]:
        """The counts as a JSON-ready dict."""
        return {
            "files": self.files,
            "sites": self.sites,
            "records": self.records,
            "skipped": dict(self.skipped),
            "parseErrors": [{"file": f, "error": e} for f, e in self.parse_errors],
            "reraises": self.reraises,
            "seconds": round(self.seconds, 3),
        }

    def summary(self) -> str:
        """A short human-readable summary.

        >>> stats = MineStats(
        ...     files=2,
        ...     sites=5,
        ...     records=4,
        ...     skipped={"no message": 2},
        ...     parse_errors=(("a.py", "SyntaxError: x (line 1)"),),
        ...     seconds=0.5,
        ... )
        >>> print(stats.summary())
        mined 2 files in 0.5 s: 5 raise sites, 4 records, 2 sites skipped
          skipped, no message: 2
          1 file could not be mined:
            a.py: SyntaxError: x (line 1)
        """
        lines = [
            f"mined {self.files} file{'s' * (self.files != 1)} in {self.seconds:.1f} s: "
            f"{self.sites} raise sites, {self.records} records, "
            f"{self.skipped_total} sites skipped"
        ]
        for reason, count in self.skipped.items():
            lines.append(f"  skipped, {reason}: {count}")
        if self.parse_errors:
            n = len(self.parse_errors)
            lines.append(f"  {n} file{'s' * (n != 1)} could not be mined:")
            lines.extend(f"    {f}: {e}" for f, e in self.parse_errors)
        return "\n".join(lines)


@dataclass(frozen=True)
class MineResult:
    """The envelopes of a mining run (sorted by file, line), its counts, repo and commit."""

    envelopes: tuple[RecordEnvelope, ...]
    stats: MineStats
    repo: str
    sha: str

    @property
    def records(self) -> tuple[ErrorRecord, ...]:
        """The mined records, in the order of :attr:`envelopes`."""
        return tuple(e.record for e in self.envelopes)


def _scan_all(
    tasks: list[tuple[str, str]],
    workers: int,
    progress: Callable[[int, int, str], None] | None,
) -> list[_FileScan]:
    total = len(tasks)
    scans: list[_FileScan] = []
    if workers <= 1 or total < 2:
        for index, task in enumerate(tasks, start=1):
            scans.append(_scan_file(task))
            if progress is not None:
                progress(index, total, task[0])
        return scans
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    chunk = max(1, min(32, total // (workers * 8)))
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        for index, scan in enumerate(pool.map(_scan_file, tasks, chunksize=chunk), start=1):
            scans.append(scan)
            if progress is not None:
                progress(index, total, scan.source)
    return scans


def mine_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    repo: str,
    sha: str,
    path_prefix: str = "",
    include_tests: bool = False,
    analyzed_at: datetime | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    workers: int = 1,
    advice: bool = True,
    bare_raises: bool = True,
) -> MineResult:
    """Mine draft records from ``.py`` files and folders (see the module docstring).

    ``filePath`` is each file's path relative to the folder it was found under
    (a file given directly: its name), with ``path_prefix`` prepended. Tests
    (``test``/``tests`` folders, ``test_*.py``, ``*_test.py``, ``conftest.py``)
    are skipped unless ``include_tests``; hidden folders, ``__pycache__`` and
    nested ``site-packages`` are never walked. ``progress(done, total, file)``
    is called after each file. With ``workers`` above 1, files are scanned by a
    pool of processes (started with forkserver or spawn, so a calling script
    needs the ``if __name__ == "__main__":`` guard); one process mines the
    whole standard library in a few seconds. A file that cannot be parsed is
    listed in ``stats.parse_errors``; it never stops the run. With ``advice``
    (the default) every record gets advice written from the code at its raise
    site and the tag ``errcat:generated`` (:mod:`errcat.mine.advice`);
    without, the free-text fields are left empty for curation. With
    ``bare_raises`` (the default) a raise without a message (``assert x is not
    None``, ``raise NotImplementedError``) is a record too, with the empty
    template: a traceback's frame at its line finds it.
    """
    started = time.perf_counter()
    sha = _check_repo_sha(repo, sha)
    when = analyzed_at or _now()
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    files = _discover(paths, include_tests)
    tasks = [(str(path), _join_prefix(path_prefix, rel)) for path, rel in files]
    scans = _scan_all(tasks, workers, progress)
    built = records_from_scans(
        scans, repo=repo, sha=sha, when=when, advice=advice, bare_raises=bare_raises
    )
    stats = MineStats(
        files=len(files),
        sites=built.sites,
        records=len(built.envelopes),
        skipped=dict(sorted(built.skipped.items(), key=lambda kv: (-kv[1], kv[0]))),
        parse_errors=built.parse_errors,
        reraises=built.reraises,
        seconds=time.perf_counter() - started,
    )
    return MineResult(built.envelopes, stats, repo, sha)


@dataclass(frozen=True)
class _Built:
    """The records built from a set of file scans, with the counts of the run."""

    envelopes: tuple[RecordEnvelope, ...]
    sites: int
    reraises: int
    skipped: Mapping[str, int]
    parse_errors: tuple[tuple[str, str], ...]


def records_from_scans(
    scans: Sequence[_FileScan],
    *,
    repo: str,
    sha: str,
    when: datetime,
    advice: bool = True,
    bare_raises: bool = True,
    advice_for: Callable[[str, int], bool] | None = None,
) -> _Built:
    """Resolve per-file scans (from :func:`errcat.mine.scan.scan_source`) into draft records.

    This is the cross-file step of mining: class names and messages are
    resolved against every scan given, so the scans of one commit go in together.
    ``bare_raises``: see :func:`mine_paths`. ``advice_for(file_path, line)``,
    when given, picks the raise sites whose advice is written (the others' is left
    empty): writing advice is most of the cost of this step.
    """
    resolver = _Resolver(scans)
    options = OptionIndex.of(scans, resolver.canonical) if advice else None
    calls = CallIndex(scans, options, resolver.canonical) if options is not None else None
    project = ProjectIndex(scans, resolver.canonical) if options is not None else None
    if calls is not None:
        calls.project = project
    written_for: dict[tuple[_Guard, str, str, int], _Advice] = {}
    skipped: Counter[str] = Counter()
    parse_errors: list[tuple[str, str]] = []
    entries: list[_Entry] = []
    sites = reraises = 0
    for scan in scans:
        if scan.error is not None:
            parse_errors.append((scan.source, scan.error))
            continue
        # One file's failure (a construct the advice writer cannot read) leaves that file
        # out, reported with its reason; the run goes on with the others.
        kept, counted = len(entries), (sites, reraises, skipped.copy())
        try:
            sites, reraises = _file_entries(
                scan,
                resolver=resolver,
                options=options,
                calls=calls,
                written_for=written_for,
                advice_for=advice_for,
                project=project,
                repo=repo,
                skipped=skipped,
                entries=entries,
                sites=sites,
                reraises=reraises,
                bare_raises=bare_raises,
            )
        except Exception as exc:  # fault isolation: the file is reported, the run goes on
            del entries[kept:]
            sites, reraises, skipped = counted
            reason = str(exc)[:300]
            parse_errors.append((scan.source, f"{type(exc).__name__}: {reason}".rstrip(": ")))
    envelopes = _build_envelopes(entries, repo, sha, when)
    return _Built(tuple(envelopes), sites, reraises, dict(skipped), tuple(parse_errors))


def _file_entries(
    scan: _FileScan,
    *,
    resolver: _Resolver,
    options: OptionIndex | None,
    calls: CallIndex | None,
    written_for: dict[tuple[_Guard, str, str, int], _Advice],
    advice_for: Callable[[str, int], bool] | None,
    project: ProjectIndex | None,
    repo: str,
    skipped: Counter[str],
    entries: list[_Entry],
    sites: int,
    reraises: int,
    bare_raises: bool,
) -> tuple[int, int]:
    """Add one file's entries (and its skipped sites); the updated site and re-raise counts."""
    reraises += scan.reraises
    first = len(entries)
    snippets = {line: (start, end, code) for line, start, end, code in scan.snippets}
    for site in scan.sites:
        sites += 1
        texts, reason = _site_texts(resolver, site, bare=bare_raises)
        if reason is not None:
            skipped[reason] += 1
            continue
        for cls_name, text in texts:
            base = resolver.builtin_base(cls_name)
            written = None
            wanted = advice_for is None or advice_for(scan.file_path, site.line)
            if options is not None and site.guard is not None and wanted:
                key = (site.guard, cls_name, scan.file_path, site.line)
                if key not in written_for:  # a site's advice, before its message's own
                    written_for[key] = write_advice(
                        guard=site.guard,
                        template="",
                        error_class=cls_name,
                        options=options,
                        file_path=scan.file_path,
                        line=site.line,
                        calls=calls,
                        project=project,
                        repo=repo,
                        logged=site.cls.kind == "logged",
                        traceback=site.traceback,
                    )
                written = with_message(written_for[key], text)
            entries.append(
                _Entry(
                    scan.file_path,
                    site.line,
                    site.qualname,
                    cls_name,
                    text,
                    base,
                    snippets[site.line],
                    written,
                    site.caller_class,
                    site.cls.kind == "logged",
                    site.cls.kind == "response",
                    site.status,
                )
            )
    _drop_logged_raises(entries, first, skipped)
    return sites, reraises


def _drop_logged_raises(entries: list[_Entry], first: int, skipped: Counter[str]) -> None:
    """Drop the logged entries (from ``first`` on) whose function also raises their message.

    ``logger.error(msg); raise RuntimeError(msg)`` is one error: the raise's record
    answers it, with its class; a second, logged record of the same text a few lines
    away could not be told from it.
    """
    raised = {(e.qualname, e.template) for e in entries[first:] if not e.logged}
    kept = [e for e in entries[first:] if not (e.logged and (e.qualname, e.template) in raised)]
    dropped = len(entries) - first - len(kept)
    if dropped:
        skipped[LOGGED_AND_RAISED] += dropped
        entries[first:] = kept


def mine_source(source: str, *, module: str = "module") -> list[tuple[int, str, str]]:
    """The ``(line, errorClass, template)`` of every message mined from one module's source.

    >>> mine_source(
    ...     '''
    ... class ParseError(ValueError):
    ...     pass
    ... def parse(text, pos):
    ...     if not text:
    ...         raise ParseError("empty input at %d" % pos)
    ...     msg = "unexpected character"
    ...     if pos:
    ...         msg += f" at {pos}"
    ...     raise ValueError(msg)
    ... ''',
    ...     module="mypkg.parser",
    ... )
    [(6, 'mypkg.parser.ParseError', 'empty input at {pos}'), (10, 'ValueError', 'unexpected character'), (10, 'ValueError', 'unexpected character at {pos}')]
    """  # noqa: E501
    scan = scan_source(source, module=module)
    if scan.error is not None:
        raise SyntaxError(scan.error)
    resolver = _Resolver([scan])
    out: list[tuple[int, str, str]] = []
    for site in scan.sites:
        texts, _reason = _site_texts(resolver, site)
        out.extend((site.line, cls_name, text) for cls_name, text in texts)
    return sorted(out)
