"""The ``errcat mine`` command: options and run."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, TextIO

from errcat.cli_common import StatusLine, parse_date
from errcat.loaders import dump_envelope, load_envelopes, write_jsonl
from errcat.mine.core import mine_paths
from errcat.mine.reanchor import reanchor
from errcat.mine.records import _REPO, _SHA
from errcat.models import RecordEnvelope


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``errcat mine`` to a parser.

    >>> p = argparse.ArgumentParser(prog="errcat mine")
    >>> add_arguments(p)
    >>> args = p.parse_args(["pkg", "--repo", "o/r", "--sha", "a" * 40])
    >>> args.src, args.path_prefix, args.output
    (['pkg'], '', None)
    """
    parser.add_argument("src", nargs="+", metavar="SRC", help="a .py file or a folder to mine")
    parser.add_argument("--repo", required=True, metavar="OWNER/NAME", help="GitHub repository")
    parser.add_argument("--sha", required=True, help="the commit the source is at (40 hex)")
    parser.add_argument(
        "--path-prefix",
        default="",
        metavar="P",
        help="prepended to paths relative to SRC to give the path in the repo",
    )
    parser.add_argument("-o", "--output", metavar="OUT.jsonl", help="write records here")
    parser.add_argument(
        "--include-tests", action="store_true", help="also mine test folders and files"
    )
    parser.add_argument(
        "--update",
        metavar="CATALOG",
        help="re-anchor this catalog's records to the mined sites instead of writing drafts",
    )
    parser.add_argument(
        "--report", metavar="REPORT.json", help="with --update: write the report as JSON here"
    )
    parser.add_argument(
        "--add-new",
        action="store_true",
        help="with --update: also write draft records for new raise sites",
    )
    parser.add_argument(
        "--analyzed-at",
        metavar="ISO-8601",
        help="timestamp to record instead of now (reproducible output)",
    )
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)"
    )
    parser.add_argument(
        "--no-advice",
        dest="advice",
        action="store_false",
        help="leave the advice fields empty instead of writing them from the code",
    )


def _progress(line: StatusLine) -> Callable[[int, int, str], None]:
    """The miner's progress callback, shown on ``line``: files done, of all, and the current one."""

    def show(done: int, total: int, path: str) -> None:
        name = path if len(path) <= 50 else "..." + path[-47:]
        line.show(f"mining {done}/{total} {name}", force=done == total)
        if done == total:
            line.clear()

    return show


def _write(envelopes: Sequence[RecordEnvelope], output: str | None, out: TextIO) -> None:
    if output:
        write_jsonl(output, envelopes)
        return
    for envelope in envelopes:
        out.write(dump_envelope(envelope) + "\n")
    out.flush()


def run(
    args: argparse.Namespace,
    *,
    stdin: IO[Any] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``errcat mine`` with parsed arguments; return the exit status (0 ok, 2 bad usage)."""
    del stdin
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    if args.report and not args.update:
        err.write("errcat mine: --report needs --update\n")
        return 2
    if args.add_new and not args.update:
        err.write("errcat mine: --add-new needs --update\n")
        return 2
    if not _REPO.match(args.repo):
        err.write(f"errcat mine: invalid --repo {args.repo!r} (expected OWNER/NAME)\n")
        return 2
    if not _SHA.match(args.sha.lower()):
        err.write(f"errcat mine: invalid --sha {args.sha!r} (expected 40 hex digits)\n")
        return 2
    if args.jobs < 1:
        err.write("errcat mine: --jobs must be at least 1\n")
        return 2
    try:
        when = parse_date(args.analyzed_at) if args.analyzed_at is not None else None
    except ValueError:
        err.write(f"errcat mine: invalid --analyzed-at {args.analyzed_at!r}\n")
        return 2
    old = load_envelopes(args.update) if args.update else None
    line = StatusLine(err, interval=0.1)
    progress = _progress(line) if line.enabled else None
    result = mine_paths(
        args.src,
        repo=args.repo,
        sha=args.sha,
        path_prefix=args.path_prefix,
        include_tests=args.include_tests,
        analyzed_at=when,
        progress=progress,
        workers=args.jobs,
        advice=args.advice,
    )
    err.write(result.stats.summary() + "\n")
    if old is None:
        _write(result.envelopes, args.output, out)
        return 0
    anchored = reanchor(old, result)
    kept = list(anchored.envelopes)
    if args.add_new:
        kept.extend(anchored.new_envelopes)
    _write(kept, args.output, out)
    if args.report:
        text = json.dumps(anchored.report, indent=2, ensure_ascii=False) + "\n"
        Path(args.report).write_text(text, encoding="utf-8")
    err.write(anchored.summary() + "\n")
    return 0
