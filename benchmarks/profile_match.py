"""Where match time goes: cProfile of a query mix against an N-record benchmark catalog.

Run: .venv/bin/python benchmarks/profile_match.py [--size 100000] [--kinds ...] [--top 30]

The catalog and its queries are ``bench_match.py``'s (``corpus.write_catalog``
and ``corpus.make_query_set`` with seed 1), opened as a stored index as
``bench_match.py`` opens it. Every query is answered once unprofiled (so that
caches filled on first use, the index's word memo and the summaries, are warm
as in a long-running process), then ``--rounds`` times under cProfile; with
``--cold`` the first pass is the profiled one (each query's first answer, what
``bench_match.py`` times). Prints the median microseconds per kind (unprofiled,
without ``--cold``), then the top functions by own time and by cumulative time. ``--out FILE`` keeps the raw profile for
``python -m pstats``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402 - the generator lives beside this script


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200, help="queries per kind")
    parser.add_argument(
        "--kinds", default=",".join(corpus.KINDS), help="comma-separated query kinds to run"
    )
    parser.add_argument("--rounds", type=int, default=1, help="profiled passes over the queries")
    parser.add_argument("--top", type=int, default=30, help="functions listed per table")
    parser.add_argument("--out", type=Path, help="write the raw profile here")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="profile the first pass (each query's first answer, as bench_match times it)",
    )
    parser.add_argument(
        "--dir",
        type=Path,
        default=corpus.catalogs_dir(),
    )
    args = parser.parse_args()

    from errcat import match_error

    path = corpus.write_catalog(args.size, args.dir)
    queries = corpus.make_query_set(path, args.queries, seed=1).queries
    kinds = [k for k in args.kinds.split(",") if k]
    texts = {kind: [text for text, _ in queries[kind]] for kind in kinds}
    catalog = corpus.stored_catalog(path)

    print(f"{args.size:,} records, {path.name}")
    match_error(texts[kinds[0]][0], catalog=catalog)  # what bench_match's first answer pays
    if not args.cold:
        print(f"  {'kind':<18} {'n':>5} {'median µs':>10}")
        for kind in kinds:
            samples = []
            for text in texts[kind]:
                start = time.perf_counter()
                match_error(text, catalog=catalog)
                samples.append(time.perf_counter() - start)
            print(f"  {kind:<18} {len(samples):5d} {statistics.median(samples) * 1e6:10.1f}")

    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.rounds):
        for kind in kinds:
            for text in texts[kind]:
                match_error(text, catalog=catalog)
    profile.disable()
    if args.out is not None:
        profile.dump_stats(args.out)
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out).strip_dirs().sort_stats(order)
        stats.print_stats(args.top)
        lines = out.getvalue().splitlines()
        start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
        print(f"\ntop {args.top} by {order}:")
        print("\n".join(lines[start:]))


if __name__ == "__main__":
    main()
