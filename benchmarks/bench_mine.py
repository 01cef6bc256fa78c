"""Benchmark the miner on the running interpreter's standard library, or on a whole site-packages.

Run with ``python benchmarks/bench_mine.py [--jobs N ...] [--repeat R] [PATH ...]``;
prints a table of files, raise sites, records, skipped sites by reason, seconds
and records per second for each worker count.

``--site-packages [DIR]`` mines every package installed there (the running
environment's by default), each on its own as ``errcat mine`` would, tests
included, and prints per package and in all: files, records, files the miner
could not read or mine (each named with its reason) and seconds. A package
that stops the miner itself counts as failed whole. Exit status 1 when any
file failed (a file that is not Python 3 source is reported apart: it is not
the miner's fault).
"""

from __future__ import annotations

import argparse
import sys
import sysconfig
import time
from pathlib import Path

from errcat.mine import MineResult, mine_paths


def bench(paths: list[str], jobs: int, repeat: int) -> tuple[MineResult, float]:
    """Mine ``paths`` ``repeat`` times with ``jobs`` workers; the last result and best time."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = mine_paths(paths, repo="python/cpython", sha="0" * 40, workers=jobs)
        best = min(best, time.perf_counter() - started)
    assert result is not None
    return result, best


def _packages(site: Path) -> list[Path]:
    """The top-level packages and modules of a site-packages folder, sorted."""
    out = []
    for entry in sorted(site.iterdir()):
        if entry.name.startswith((".", "_", "__pycache__")) and entry.name != "_pytest":
            continue
        if entry.suffix in (".dist-info", ".egg-info", ".data", ".pth"):
            continue
        if entry.is_dir() or entry.suffix == ".py":
            out.append(entry)
    return out


def _not_python3(reason: str) -> bool:
    """A file that is no Python 3 source: a syntax error (Python 2, a template), bad bytes."""
    return reason.startswith(("SyntaxError", "UnicodeDecodeError", "ValueError: source code"))


def site_packages(site: Path, jobs: int) -> int:
    """Mine every package of ``site``; print the table; 1 when a file failed, else 0."""
    rows = []
    failed: list[tuple[str, str]] = []
    not_python: list[tuple[str, str]] = []
    started = time.perf_counter()
    for package in _packages(site):
        began = time.perf_counter()
        try:
            result = mine_paths(
                [package],
                repo=f"site/{package.stem}",
                sha="0" * 40,
                include_tests=True,
                workers=jobs,
            )
        except Exception as exc:  # the miner itself stopped: the whole package failed
            failed.append((str(package), f"{type(exc).__name__}: {exc}"))
            rows.append((package.name, 0, 0, 1, time.perf_counter() - began))
            continue
        stats = result.stats
        mine_failed = [(f, e) for f, e in stats.parse_errors if not _not_python3(e)]
        failed.extend(mine_failed)
        not_python.extend((f, e) for f, e in stats.parse_errors if _not_python3(e))
        rows.append(
            (
                package.name,
                stats.files,
                stats.records,
                len(mine_failed),
                time.perf_counter() - began,
            )
        )
    total = time.perf_counter() - started
    print(f"site-packages: {site} ({len(rows)} packages, {jobs} job(s))")
    print(f"{'package':<28} {'files':>7} {'records':>8} {'failed':>7} {'seconds':>8}")
    for name, files, records, bad, seconds in rows:
        print(f"{name:<28} {files:>7} {records:>8} {bad:>7} {seconds:>8.1f}")
    files = sum(r[1] for r in rows)
    records = sum(r[2] for r in rows)
    print(f"{'all':<28} {files:>7} {records:>8} {len(failed):>7} {total:>8.1f}")
    print(f"files that are not Python 3 source (skipped, not failures): {len(not_python)}")
    for file, reason in not_python:
        print(f"  {file}: {reason}")
    for file, reason in failed:
        print(f"FAILED {file}: {reason}")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[sysconfig.get_paths()["stdlib"]])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--site-packages",
        nargs="?",
        const=sysconfig.get_paths()["purelib"],
        metavar="DIR",
        help="mine every package of a site-packages folder (default: this environment's)",
    )
    args = parser.parse_args(argv)
    if args.site_packages:
        return site_packages(Path(args.site_packages), args.jobs[-1])
    rows = []
    reasons: dict[str, int] = {}
    for jobs in args.jobs:
        result, seconds = bench(args.paths, jobs, args.repeat)
        stats = result.stats
        reasons = dict(stats.skipped)
        rows.append(
            (
                jobs,
                stats.files,
                stats.sites,
                stats.records,
                stats.skipped_total,
                len(stats.parse_errors),
                seconds,
                stats.records / seconds,
            )
        )
    print(f"mined: {' '.join(args.paths)} (best of {args.repeat})")
    header = (
        "jobs",
        "files",
        "sites",
        "records",
        "skipped",
        "parse errors",
        "seconds",
        "records/s",
    )
    print(" | ".join(f"{h:>12}" for h in header))
    print("-+-".join("-" * 12 for _ in header))
    for row in rows:
        cells = [f"{v:>12}" if isinstance(v, int) else f"{v:>12.2f}" for v in row]
        print(" | ".join(cells))
    print("\nskipped sites by reason:")
    for reason, count in reasons.items():
        print(f"  {count:>6}  {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
