"""``errcat history``: mine a project at several revisions into one catalog with its history.

>>> import argparse
>>> p = argparse.ArgumentParser(prog="errcat history")
>>> add_arguments(p)
>>> args = p.parse_args(
...     ["repo.git", "--repo", "o/r", "--rev", "v1", "--rev", "v2", "-o", "x.jsonl"]
... )
>>> args.git_dir, args.rev, args.under
('repo.git', ['v1', 'v2'], [])
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, TextIO

from errcat.cli_common import StatusLine, UsageError, check_output, parse_date
from errcat.history import Revision, sidecar_path
from errcat.loaders import load_envelopes, write_jsonl
from errcat.mine.dists import dist_snapshot
from errcat.mine.git import Commit, GitRepo, git_snapshots, parse_every
from errcat.mine.history import HistoryResult, Snapshot, build_history, with_curated

__all__ = ["add_arguments", "run"]

_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``errcat history`` to a parser."""
    parser.add_argument(
        "git_dir", nargs="?", metavar="GIT_DIR", help="a git repository (bare mirrors work)"
    )
    parser.add_argument("--repo", required=True, metavar="OWNER/NAME", help="GitHub repository")
    parser.add_argument(
        "--rev",
        action="append",
        default=[],
        metavar="REV",
        help="a revision to mine (branch, tag, sha); repeatable, oldest first",
    )
    parser.add_argument(
        "--since",
        metavar="DATE",
        help="pick revisions from DATE on: the first commit of the first-parent line "
        "at or after each step of --every, and the newest",
    )
    parser.add_argument("--every", default="90d", metavar="STEP", help="with --since (90d)")
    parser.add_argument(
        "--branch", default="HEAD", metavar="REV", help="with --since: the line to walk (HEAD)"
    )
    parser.add_argument(
        "--under",
        action="append",
        default=[],
        metavar="SUBDIR",
        help="mine only this folder (paths stay repo-relative); repeatable: several folders",
    )
    parser.add_argument(
        "--dist",
        action="append",
        default=[],
        metavar="VERSION=PATH",
        help="a released wheel or sdist instead of a git revision; repeatable, oldest first",
    )
    parser.add_argument(
        "--path-prefix",
        default="",
        metavar="P",
        help="with --dist: put in front of the archive's paths to give repo paths",
    )
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT.jsonl",
        help="write the records here and their history to OUT.history.json",
    )
    parser.add_argument(
        "--update",
        metavar="CATALOG",
        help="curated records to keep: each replaces the lineage record it describes",
    )
    parser.add_argument("--stats", metavar="STATS.json", help="write per-revision counts here")
    parser.add_argument(
        "--include-tests", action="store_true", help="also mine test folders and files"
    )
    parser.add_argument(
        "--analyzed-at", metavar="ISO-8601", help="timestamp to record instead of now"
    )
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)"
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when a file could not be mined at some revision (always reported)",
    )


def _progress(line: StatusLine, total: int) -> Callable[[int, Revision], None]:
    """The history miner's progress callback: which revision of how many is being mined."""

    def show(index: int, revision: Revision) -> None:
        line.show(
            f"mining revision {index + 1}/{total} {revision.label} "
            f"({revision.short}, {revision.date:%Y-%m-%d})",
            force=True,
        )
        if index + 1 == total:
            line.clear()

    return show


def _commits(args: argparse.Namespace, repo: GitRepo, err: TextIO) -> list[tuple[str, Commit]]:
    picked: list[tuple[str, Commit]] = [(rev, repo.commit(rev)) for rev in args.rev]
    if args.since:
        since = parse_date(args.since)
        line = repo.first_parent_since(since, parse_every(args.every), args.branch)
        picked += [(f"{c.date:%Y-%m-%d}", c) for c in line]
        boundary = repo.shallow_boundary()
        if boundary is not None and boundary.date > since:
            err.write(
                f"errcat history: warning: {args.git_dir} is a shallow clone: its history "
                f"starts at {boundary.date:%Y-%m-%d} ({boundary.sha[:7]}), after --since "
                f"{since:%Y-%m-%d}; the revisions before it cannot be mined (fetch them: "
                f"git -C {args.git_dir} fetch --unshallow)\n"
            )
    out: list[tuple[str, Commit]] = []
    seen: set[str] = set()
    for label, commit in picked:
        if commit.sha in seen:
            err.write(
                f"errcat history: warning: {label} is a revision already listed; mined once\n"
            )
            continue
        if out and commit.date < out[-1][1].date:
            err.write(
                f"errcat history: warning: {label} ({commit.date:%Y-%m-%d}) is older than "
                f"{out[-1][0]}; revisions are taken in the order given\n"
            )
        seen.add(commit.sha)
        out.append((label, commit))
    return out


def run(
    args: argparse.Namespace,
    *,
    stdin: IO[Any] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``errcat history`` with parsed arguments; return the exit status (0 ok, 2 bad usage)."""
    del stdin, stdout  # the records go to --output
    err = stderr if stderr is not None else sys.stderr
    try:
        return _run(args, err)
    except UsageError as exc:
        err.write(f"errcat history: error: {exc}\n")
        return 2


def _run(args: argparse.Namespace, err: TextIO) -> int:
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if not _REPO.match(args.repo):
        raise UsageError(f"invalid --repo {args.repo!r} (expected OWNER/NAME)")
    if args.dist and (args.git_dir or args.rev or args.since):
        raise UsageError("--dist mines distributions: give no GIT_DIR, --rev or --since with it")
    if not args.dist and not args.git_dir:
        raise UsageError("give a GIT_DIR with --rev or --since, or distributions with --dist")
    if args.git_dir and not (args.rev or args.since):
        raise UsageError("give the revisions to mine: --rev REV (repeatable) or --since DATE")
    try:
        when = parse_date(args.analyzed_at) if args.analyzed_at else None
        if args.since:
            parse_date(args.since)
            parse_every(args.every)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    check_output(args.output, "-o")  # before the work, not after it
    check_output(args.stats, "--stats")
    dists: list[tuple[str, str]] = []
    for spec in args.dist:
        label, sep, path = spec.partition("=")
        if not sep or not label or not path:
            raise UsageError(f"invalid --dist {spec!r} (expected VERSION=PATH)")
        dists.append((label, path))

    curated = load_envelopes(args.update) if args.update else None
    snapshots: list[Snapshot] | Iterator[Snapshot]
    if dists:
        snapshots = [
            dist_snapshot(
                label, path, path_prefix=args.path_prefix, include_tests=args.include_tests
            )
            for label, path in dists
        ]
        total = len(snapshots)
    else:
        repo = GitRepo(args.git_dir)
        commits = _commits(args, repo, err)
        total = len(commits)
        snapshots = git_snapshots(repo, commits, under=args.under, include_tests=args.include_tests)
    line = StatusLine(err)
    progress = _progress(line, total) if line.enabled else None
    started = time.perf_counter()
    result = build_history(
        snapshots, repo=args.repo, analyzed_at=when, progress=progress, workers=args.jobs
    )
    if curated is not None:
        result = with_curated(result, curated)
        if result.unmatched_curated:
            err.write(
                f"errcat history: warning: {result.unmatched_curated} curated records match "
                "no message of any revision; kept as they were, without history\n"
            )
    _write(result, args.output, args.stats)
    for stats in result.revisions:
        if stats.missing:
            err.write(
                f"errcat history: warning: {stats.revision.label}: {stats.missing}; "
                "the revision is mined as empty\n"
            )
    failed = _report_failed(result, err)
    err.write(result.summary() + "\n")
    err.write(
        f"wrote {args.output} and {sidecar_path(args.output)} in "
        f"{time.perf_counter() - started:.1f} s\n"
    )
    return 1 if args.strict and failed else 0


def _report_failed(result: HistoryResult, err: TextIO) -> int:
    """Name each file that could not be mined (once, with the first revision); how many."""
    seen: dict[tuple[str, str], str] = {}
    for stats in result.revisions:
        for file, reason in stats.parse_errors:
            seen.setdefault((file, reason), stats.revision.label)
    for (file, reason), label in seen.items():
        err.write(f"errcat history: warning: {label}: {file}: {reason}; left out\n")
    return len(seen)


def _write(result: HistoryResult, output: str, stats_path: str | None) -> None:
    write_jsonl(output, result.envelopes)
    result.history.dump(sidecar_path(output))
    if stats_path:
        doc = {"revisions": [s.as_dict() for s in result.revisions], "seconds": result.seconds}
        Path(stats_path).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
