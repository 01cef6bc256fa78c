"""Benchmark the miner on the running interpreter's standard library.

Run with ``python benchmarks/bench_mine.py [--jobs N ...] [--repeat R] [PATH ...]``;
prints a table of files, raise sites, records, skipped sites by reason, seconds
and records per second for each worker count.
"""

from __future__ import annotations

import argparse
import sysconfig
import time

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[sysconfig.get_paths()["stdlib"]])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    main()
