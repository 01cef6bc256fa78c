"""The ``errcat`` command.

``main(argv)`` runs one command and returns its exit status: 0 for success (a
match was found), 1 when nothing matched or a validation found problems, 2 for
bad usage or unreadable input.

>>> main(["show", "3fe9ad44079a5344", "--json"])  # doctest: +ELLIPSIS
{
  "id": "3fe9ad44079a5344",
...
0
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, TextIO

from errcat.advice import Advice
from errcat.catalog import Catalog, bundled_data_version
from errcat.cli_common import PROG, Command, UsageError, catalog_from_args, catalog_options
from errcat.errors import ErrcatError, InvalidRecordError
from errcat.loaders import iter_path
from errcat.matcher import CONFIDENCE_THRESHOLD, Match, match_all, match_error

__all__ = ["build_parser", "catalog_from_args", "main"]

_PROG = PROG
_UsageError = UsageError  # the name this module used before errcat.cli_common


def _version_text() -> str:
    from errcat import __version__

    try:
        data = bundled_data_version()
    except ErrcatError as exc:
        data = f"unavailable ({exc})"
    return f"errcat {__version__} (data {data})"


class _VersionAction(argparse.Action):
    """``--version``: the code and data versions, read only when asked (not on every run)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(
            option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show the versions"
        )

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kw: object) -> None:
        sys.stdout.write(_version_text() + "\n")
        parser.exit()


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``errcat`` command (fully built for ``argv``'s command)."""
    wanted = _command_in(sys.argv[1:] if argv is None else argv)
    common = catalog_options()
    parser = argparse.ArgumentParser(
        prog=_PROG,
        description="Find the catalog record that explains a Python error, with its fixes.",
        parents=[catalog_options("global_")],
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser(
        "match",
        parents=[common],
        help="match error text (argument or stdin) to records",
        description="Match an error (a traceback, log excerpt or message) to the catalog.",
    )
    p.add_argument("text", nargs="?", default="-", help="error text; '-' or absent reads stdin")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument(
        "--all",
        action="store_true",
        help="list every candidate, including low-confidence and inexact ones",
    )
    p.add_argument("--limit", type=int, default=5, help="how many candidates --all lists")
    p.add_argument(
        "--lines",
        metavar="FILE",
        help="match each line of FILE ('-' for stdin) as one error; JSON Lines out",
    )
    p.add_argument(
        "--workers", type=int, default=None, help="processes for --lines (default: all cores)"
    )

    p = sub.add_parser("show", parents=[common], help="show one record by id or slug")
    p.add_argument("key", metavar="ID_OR_SLUG")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the advice as JSON")
    fmt.add_argument("--markdown", action="store_true", help="print Markdown")
    fmt.add_argument("--record", action="store_true", help="print the whole record as JSON")

    p = sub.add_parser("list", parents=[common], help="list records, optionally filtered")
    p.add_argument("--repo", help="only records of this owner/name repo")
    p.add_argument("--class", dest="error_class", help="only records of this exception class")
    p.add_argument("--tag", help="only records with this tag")
    p.add_argument("--json", action="store_true", help="print JSON Lines envelopes")

    p = sub.add_parser(
        "validate",
        help="check record files against the schema",
        description="Check that every line of the given files is a valid schemaVersion 2 record.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument(
        "--strict", action="store_true", help="also refuse fields the schema does not define"
    )
    p.add_argument("--json", action="store_true", help="print problems as JSON")

    for name, (module, summary, takes_catalog) in _HEAVY.items():
        p = sub.add_parser(
            name,
            help=summary,
            description=summary[0].upper() + summary[1:] + ".",
            parents=[common] if takes_catalog else [],
        )
        if wanted in (name, None):
            # Imported only when the command runs or help is shown: keeps `errcat match` fast.
            importlib.import_module(module).add_arguments(p)
        else:
            p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


#: Commands whose module is imported only when used: (module, help, takes --catalog).
_HEAVY = {
    "mine": ("errcat.mine", "build draft records from Python source", False),
    "history": (
        "errcat.mine.history_cli",
        "mine a project at several revisions into one catalog",
        False,
    ),
    "release": ("errcat.release", "check, build and diff versioned data releases", False),
    "scan": ("errcat.scan", "find and match every exception event in log files", True),
    "serve": ("errcat.server", "serve the HTTP API and the paste page", True),
}


def _command_in(argv: Sequence[str]) -> str | None:
    """The command named in ``argv`` (None when help is asked for or none is given)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in {"-h", "--help"}:
            return None
        elif arg == "--catalog":
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def _read_text(args: argparse.Namespace, stdin: IO[Any], stderr: TextIO) -> str:
    if args.text != "-":
        return str(args.text)
    if stdin is None:
        raise UsageError("no error text given and no standard input to read")
    if stdin.isatty():
        print("Paste the error, then press Ctrl-D:", file=stderr)
    return str(stdin.read())


def _print_match(match: Match, out: TextIO, *, heading: str = "") -> None:
    if heading:
        print(heading, file=out)
    print(Advice.from_match(match).to_text(), file=out)


def _cmd_match_lines(
    args: argparse.Namespace, catalog: Catalog, stdin: IO[Any], out: TextIO, err: TextIO
) -> int:
    from errcat.batch import match_many

    if args.text != "-":
        raise UsageError("give either TEXT or --lines FILE, not both")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    if args.lines == "-":
        source: IO[Any] = stdin
        total = 0
    else:
        try:
            source = Path(args.lines).open(encoding="utf-8", errors="replace")  # noqa: SIM115
        except OSError as exc:
            raise UsageError(f"cannot read {args.lines}: {exc.strerror or exc}") from None
        total = os.fstat(source.fileno()).st_size
    show = err.isatty()
    done_bytes = 0
    found = 0
    number = 0

    def lines() -> Iterator[str]:
        nonlocal done_bytes
        for line in source:
            done_bytes += len(line.encode("utf-8", "replace"))
            yield line.rstrip("\r\n")

    try:
        for number, match in enumerate(match_many(lines(), catalog, workers=args.workers), 1):
            found += match is not None
            row = {"line": number, "match": match.to_dict() if match else None}
            print(json.dumps(row, ensure_ascii=False), file=out)
            if show and number % 500 == 0:
                share = f" {done_bytes * 100 // total}%" if total else ""
                print(f"\r{number} lines{share}, {found} matched", end="", file=err, flush=True)
    finally:
        if source is not stdin:
            source.close()
    if show:
        print(f"\r{' ' * 40}\r", end="", file=err)
    print(f"{found} of {number} lines matched", file=err)
    return 0 if found else 1


def _cmd_match(args: argparse.Namespace, *, stdin: IO[Any], stdout: TextIO, stderr: TextIO) -> int:
    out, err = stdout, stderr
    catalog = catalog_from_args(args, err)
    if args.limit < 1:
        raise UsageError(f"--limit must be at least 1, got {args.limit}")
    if args.lines is not None:
        return _cmd_match_lines(args, catalog, stdin, out, err)
    text = _read_text(args, stdin, err)
    if args.all:
        matches = match_all(text, catalog=catalog, limit=args.limit)
        if args.json:
            payload = [{**m.to_dict(), "advice": Advice.from_match(m).to_dict()} for m in matches]
            print(json.dumps(payload, indent=2, ensure_ascii=False), file=out)
        else:
            for n, m in enumerate(matches, start=1):
                _print_match(m, out, heading=f"#{n}" if n == 1 else f"\n#{n}")
            if not matches:
                print("No record matches this error.", file=err)
        return 0 if any(m.confident for m in matches) else 1
    best = match_error(text, catalog=catalog)
    if best is None:
        if args.json:
            print("null", file=out)
        print(
            f"No record matches this error with confidence >= {CONFIDENCE_THRESHOLD}"
            " (try --all for hints).",
            file=err,
        )
        return 1
    if args.json:
        print(
            json.dumps({**best.to_dict(), "advice": Advice.from_match(best).to_dict()}, indent=2),
            file=out,
        )
    else:
        _print_match(best, out)
    return 0


def _cmd_show(args: argparse.Namespace, *, stdin: IO[Any], stdout: TextIO, stderr: TextIO) -> int:
    del stdin
    out, err = stdout, stderr
    record = catalog_from_args(args, err)[args.key]
    advice = Advice.from_record(record)
    if args.json:
        print(advice.to_json(), file=out)
    elif args.markdown:
        print(advice.to_markdown(), file=out)
    elif args.record:
        print(record.model_dump_json(indent=2), file=out)
    else:
        print(advice.to_text(), file=out)
    return 0


def _cmd_list(args: argparse.Namespace, *, stdin: IO[Any], stdout: TextIO, stderr: TextIO) -> int:
    del stdin
    out, err = stdout, stderr
    catalog = catalog_from_args(args, err).filter(
        repo=args.repo, error_class=args.error_class, tag=args.tag
    )
    for record in catalog:
        if args.json:
            print(record.model_dump_json(), file=out)
        else:
            print(f"{record.id}  {record.title}", file=out)
            print(f"{'':16}  {record.location}", file=out)
    print(f"{len(catalog)} record{'s' if len(catalog) != 1 else ''}", file=err)
    return 0


def _cmd_validate(
    args: argparse.Namespace, *, stdin: IO[Any], stdout: TextIO, stderr: TextIO
) -> int:
    del stdin, stderr
    out = stdout
    problems: list[InvalidRecordError] = []
    valid = 0
    for path in args.paths:
        for item in iter_path(path, strict=args.strict):
            if item.problem is not None:
                problems.append(item.problem)
            else:
                valid += 1
    if args.json:
        payload = {
            "valid": valid,
            "problems": [
                {"path": p.path, "line": p.line, "field": p.field, "reason": p.reason}
                for p in problems
            ],
        }
        print(json.dumps(payload, indent=2), file=out)
    else:
        for problem in problems:
            print(problem, file=out)
        print(f"{valid} valid record(s), {len(problems)} problem(s)", file=out)
    return 1 if problems else 0


#: The commands this module runs itself (the others are in :data:`_HEAVY`'s modules).
_COMMANDS: dict[str, Command] = {
    "match": _cmd_match,
    "show": _cmd_show,
    "list": _cmd_list,
    "validate": _cmd_validate,
}


def _command(name: str) -> Command:
    """The ``run`` of a command: one of this module's, or its module's (imported now)."""
    if name in _COMMANDS:
        return _COMMANDS[name]
    run: Command = importlib.import_module(_HEAVY[name][0]).run
    return run


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``errcat`` with ``argv`` (default ``sys.argv[1:]``) and return the exit code."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    inp = stdin if stdin is not None else sys.stdin
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or bad usage (argparse printed why)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return _command(args.command)(args, stdin=inp, stdout=out, stderr=err)
    except UsageError as exc:
        print(f"{_PROG} {args.command}: error: {exc}", file=err)
        return 2
    except ErrcatError as exc:
        print(f"{_PROG} {args.command}: error: {exc}", file=err)
        return 2
    except BrokenPipeError:  # e.g. `errcat list | head`
        return 0
    except KeyboardInterrupt:
        return 130
