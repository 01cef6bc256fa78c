"""The ``errcat triage`` command: read an issue, print the one reply that answers its errors.

``errcat triage [ISSUE]`` reads an issue (a file, or stdin when absent or
``-``) as an event payload, an API object or Markdown (see
:mod:`errcat.triage.issue`) and prints the reply in GitHub Markdown; ``--json``
prints the errors found and the reply as one JSON object. The exit status is 0
when an error was found (the reply answers it, or says honestly that no record
does), 1 when the issue holds no error (the reply says so: a bot that already
commented updates its comment, and otherwise posts nothing), 2 for unreadable
input.

>>> import argparse
>>> p = argparse.ArgumentParser(prog="errcat triage")
>>> add_arguments(p)
>>> args = p.parse_args(["event.json", "--json"])
>>> args.issue, args.json, args.title
('event.json', True, '')
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, Any, TextIO

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``errcat triage`` (the catalog options come from the main CLI)."""
    parser.add_argument(
        "issue",
        nargs="?",
        default="-",
        metavar="ISSUE",
        help="an event payload, an API issue (JSON) or Markdown; '-' or absent reads stdin",
    )
    parser.add_argument("--title", default="", help="the issue's title, for Markdown input")
    parser.add_argument(
        "--json", action="store_true", help="print the errors found and the reply as JSON"
    )


def _read(args: argparse.Namespace, stdin: IO[Any] | None) -> tuple[str, str]:
    from errcat.scan import LogSourceError

    if args.issue == "-":
        source = stdin if stdin is not None else sys.stdin
        data = source.read()
        return (data.decode("utf-8", "replace") if isinstance(data, bytes) else data), "<stdin>"
    try:
        return Path(args.issue).read_text(encoding="utf-8", errors="replace"), args.issue
    except OSError as exc:
        raise LogSourceError(args.issue, f"cannot read: {exc.strerror or exc}") from None


def run(
    args: argparse.Namespace,
    *,
    stdin: IO[Any] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``errcat triage``: 0 when the issue holds an error, 1 when it holds none."""
    from errcat.cli_common import catalog_from_args
    from errcat.triage import triage

    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    text, source = _read(args, stdin)
    catalog = catalog_from_args(args, err, prog="errcat triage")
    result = triage(text, title=args.title, source=source, catalog=catalog)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False), file=out)
    else:
        out.write(result.reply)
    found = len(result.findings.errors)
    print(
        f"errcat triage: {found} error(s), {len(result.findings.answered)} answered",
        file=err,
    )
    return 0 if found or result.findings.cut_tracebacks else 1
