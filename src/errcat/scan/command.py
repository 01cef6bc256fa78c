"""The ``errcat scan`` command: options, progress, and the events or their summary printed."""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from typing import IO, TYPE_CHECKING, Any, TextIO

from errcat.cli_common import StatusLine, catalog_from_args
from errcat.scan.events import LogSourceError, ScanEvent, ScanStats, summarize
from errcat.scan.scanner import scan_paths

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``errcat scan`` (the catalog options come from the main CLI).

    >>> p = argparse.ArgumentParser(prog="errcat scan")
    >>> add_arguments(p)
    >>> args = p.parse_args(["a.log", "b.log.gz", "--summary"])
    >>> args.logs, args.summary, args.json
    (['a.log', 'b.log.gz'], True, False)
    """
    parser.add_argument(
        "logs",
        nargs="+",
        metavar="LOG",
        help="log files (gzip and zstd are read as they are); '-' reads stdin",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per event")
    parser.add_argument(
        "--summary", action="store_true", help="print counts by record, most frequent first"
    )


class _Progress:
    """The scan's progress on a terminal's stderr: file, text read, rate and events so far."""

    def __init__(self, files: int, line: StatusLine, stats: ScanStats) -> None:
        self.line = line
        self.stats = stats
        self.files = files
        self.done = 0
        self.started = time.monotonic()

    def __call__(self, chars: int) -> None:
        self.done += chars
        if not self.line.due():
            return
        now = time.monotonic()
        rate = self.done / 1e6 / max(now - self.started, 1e-3)
        self.line.show(
            f"scanning file {self.stats.files}/{self.files}: {self.done / 1e6:.1f} MB of text"
            f" ({rate:.0f} MB/s), {self.stats.events} events "
        )


def _event_line(event: ScanEvent) -> str:
    first = event.message.split("\n", 1)[0]
    if len(first) > 160:
        first = first[:157] + "..."
    where = f"{event.path}:{event.start_line}"
    if event.end_line != event.start_line:
        where += f"-{event.end_line}"
    found = (
        f"record {event.record_id} ({'exact' if event.exact else 'inexact'},"
        f" confidence {event.confidence:.2f})"
        if event.record_id
        else "no record"
    )
    shown = f"{event.error_class}: {first}" if first else f"{event.error_class} (no message)"
    return f"{where}: {shown}\n  {found}"


def run(
    args: argparse.Namespace,
    *,
    stdin: IO[Any] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``errcat scan``: 0 when events were found, 1 when none, 2 when an input was unreadable.

    Every readable file is scanned even when another one is not. ``stdin`` (for
    ``-``) may be a binary or a text stream.
    """
    raw_in: IO[bytes] | None = None
    if stdin is not None:
        buffer = getattr(stdin, "buffer", None)
        if buffer is not None:
            raw_in = buffer
        else:
            data = stdin.read()
            raw_in = io.BytesIO(
                data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
            )
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    catalog = catalog_from_args(args, err)
    stats = ScanStats()
    status = StatusLine(err)
    progress = _Progress(len(args.logs), status, stats) if status.enabled else None

    def report(exc: LogSourceError) -> None:
        status.clear()
        print(f"errcat scan: error: {exc}", file=err)

    events = scan_paths(
        args.logs,
        catalog=catalog,
        stats=stats,
        on_error=report,
        stdin=raw_in,
        progress=progress,
    )
    if args.summary:
        rows = summarize(events)
        status.clear()
        _print_summary(rows, catalog, out, as_json=args.json)
    else:
        for event in events:
            status.clear()
            if args.json:
                print(json.dumps(event.to_dict(), ensure_ascii=False), file=out)
            else:
                print(_event_line(event), file=out)
    status.clear()
    print(
        f"errcat scan: {stats.files} file(s), {stats.lines} lines, {stats.events} event(s)"
        + (
            f", {stats.incomplete} traceback(s) cut before the exception"
            if stats.incomplete
            else ""
        )
        + (f", {len(stats.unreadable)} unreadable" if stats.unreadable else ""),
        file=err,
    )
    if stats.unreadable:
        return 2
    return 0 if stats.events else 1


def _print_summary(
    rows: list[dict[str, Any]], catalog: Catalog, out: TextIO, *, as_json: bool
) -> None:
    for row in rows:
        record = catalog.get(row["record_id"]) if row["record_id"] else None
        row["slug"] = record.slug if record is not None else None
    if as_json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False), file=out)
        return
    print(f"{'events':>7}  {'files':>5}  {'record':<16}  {'class':<24}  slug", file=out)
    for row in rows:
        print(
            f"{row['events']:>7}  {row['files']:>5}  {row['record_id'] or '-':<16}  "
            f"{row['error_class']:<24}  {row['slug'] or '(no record)'}",
            file=out,
        )
