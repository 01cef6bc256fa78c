"""The ``errcat release`` command: ``check``, ``build`` and ``diff`` steps."""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any, TextIO

from errcat.errors import ErrcatError
from errcat.release.build import ReleaseRefusedError, build, version_arg
from errcat.release.check import check
from errcat.release.diff import diff

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``check``, ``build`` and ``diff`` steps of ``errcat release`` to a parser.

    >>> p = argparse.ArgumentParser(prog="errcat release")
    >>> add_arguments(p)
    >>> args = p.parse_args(["check", "--allow-drafts"])
    >>> args.release_command, args.paths, args.allow_drafts
    ('check', ['data'], True)
    """
    sub = parser.add_subparsers(dest="release_command", metavar="STEP")
    sub.required = True

    p = sub.add_parser(
        "check",
        help="validate strictly and lint a catalog",
        description=(
            "Validate records strictly (schemaVersion 2) and lint them: patterns, "
            "shadowing, URLs and spans, slugs, ids, curation. Exit 1 on an error finding."
        ),
    )
    p.add_argument(
        "paths",
        nargs="*",
        default=["data"],
        metavar="PATH",
        help="data directories, manifests, release artifacts or JSONL files (default: data)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument(
        "--allow-drafts",
        action="store_true",
        default=None,
        help="accept draft records (as a mined catalog has) whatever the manifest says",
    )
    p.add_argument(
        "--previous",
        metavar="OLD",
        help="the previous release: its records must be present or listed as withdrawn",
    )
    p.add_argument(
        "--thorough",
        action="store_true",
        help="time every pattern on the 1 MB inputs (default: screen on 64 KB first)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="also print info findings")

    p = sub.add_parser(
        "build",
        help="rewrite data/ canonically, write the manifest and the release artifact",
        description=(
            "Check the data directory, refuse on errors, rewrite it canonically, write "
            "the manifest and dist/errcat-data-<version>.zip. Building twice changes nothing."
        ),
    )
    p.add_argument("path", nargs="?", default="data", metavar="PATH", help="default: data")
    p.add_argument(
        "--version",
        dest="data_version",
        type=version_arg,
        metavar="V",
        help="data version of the new release (ISO 8601 timestamp or 'now'); "
        "default: unchanged, or the newest datasetVersion when records changed",
    )
    p.add_argument("--dist", metavar="DIR", help="where the artifact goes (default: dist/)")
    p.add_argument(
        "--allow-drafts",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="record in the manifest that this release accepts draft records",
    )
    p.add_argument("--previous", metavar="OLD", help="the previous release, as for check")
    p.add_argument("--thorough", action="store_true", help="as for check")
    p.add_argument("--json", action="store_true", help="print a JSON summary")

    p = sub.add_parser(
        "diff",
        help="records added, changed and withdrawn between two releases",
        description=(
            "Compare two releases (data directories, manifest files or release artifacts). "
            "Markdown for the CHANGELOG by default. Exit 1 when a record was dropped "
            "without being listed as withdrawn."
        ),
    )
    p.add_argument("old", metavar="OLD")
    p.add_argument("new", metavar="NEW")
    p.add_argument("--json", action="store_true", help="print JSON instead of Markdown")


def run(
    args: argparse.Namespace,
    *,
    stdin: IO[Any] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run one ``errcat release`` step; 0 ok, 1 errors or refused, 2 unreadable input."""
    del stdin
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    step = args.release_command
    try:
        if step == "check":
            report = check(
                args.paths,
                allow_drafts=args.allow_drafts,
                previous=args.previous,
                thorough=args.thorough,
            )
            if args.json:
                print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False), file=out)
            else:
                print(report.to_text(verbose=args.verbose), file=out)
            return 0 if report.ok else 1
        if step == "build":
            return _run_build(args, out, err)
        if step == "diff":
            result = diff(args.old, args.new)
            if args.json:
                print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False), file=out)
            else:
                print(result.to_markdown(), file=out)
            for record in result.unlisted:
                print(
                    f"errcat release diff: error: {record.id} ({record.slug}) is missing from "
                    f"{args.new} but not listed as withdrawn in its manifest",
                    file=err,
                )
            return 0 if result.ok else 1
    except ReleaseRefusedError as exc:
        print(f"errcat release {step}: refused: {exc}", file=err)
        return 1
    except BrokenPipeError:  # `errcat release check | head`: the caller handles it
        raise
    except (ErrcatError, OSError, ValueError) as exc:
        print(f"errcat release {step}: error: {exc}", file=err)
        return 2
    print(f"errcat release: unknown step {step!r}", file=err)
    return 2


def _run_build(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        result = build(
            args.path,
            version=args.data_version,
            dist=args.dist,
            allow_drafts=args.allow_drafts,
            previous=args.previous,
            thorough=args.thorough,
        )
    except ReleaseRefusedError as exc:
        if exc.report is not None:
            print(exc.report.to_text(), file=out)
        print(f"errcat release build: refused: {exc}", file=err)
        return 1
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False), file=out)
        return 0
    for line in result.report.to_text().splitlines():
        if not line.startswith(("checked ", "  ")):
            print(line, file=out)  # warnings stay visible
    manifest = result.manifest
    follows = f" (follows {manifest['previous']})" if manifest.get("previous") else ""
    print(
        f"data version {manifest['dataVersion']}{follows}: {manifest['count']} records in "
        f"{len(manifest['files'])} file(s), {manifest['drafts']} draft(s), "
        f"{len(manifest['withdrawn'])} withdrawn",
        file=out,
    )
    if result.written or result.removed:
        for name in result.written:
            print(f"  wrote {name}", file=out)
        for name in result.removed:
            print(f"  removed {name} (its records are in the canonical files)", file=out)
    else:
        print("  nothing to do: the release is already built", file=out)
    print(f"  artifact {result.artifact}", file=out)
    del err
    return 0
