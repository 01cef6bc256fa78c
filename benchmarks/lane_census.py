"""How many queries take the matcher's simplest course, and what that course costs.

Run: .venv/bin/python benchmarks/lane_census.py [--size 100000] [--kinds "hit line,miss line"]

The catalog and queries are ``bench_match.py``'s (``corpus.write_catalog``, and
``corpus.make_query_set`` with seed 1), opened as a stored index. Every query
is answered once with ``match_error`` (its first answer, as ``bench_match.py``
times it), counting the candidates the collector weighs (``add``) and the
records it scores. Each query falls in one course:

``simple``
    one line of text, one candidate matching the whole message as it is (no
    wrapper, cut-off or capped hit) and one record scored: what a precomputed
    "fast lane" would have to answer;
``no candidate``
    nothing reached scoring (most misses);
``other``
    the rest.

For each kind and course: how many queries, and their median and mean CPU time.
What a fast lane could save is bounded by the ``simple`` rows: their time is the
whole pipeline's fixed cost (extraction, message forms, index lookup, ranking),
which ``no candidate`` rows show without scoring.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402 - the generator lives beside this script

COURSES = ("simple", "no candidate", "other")


def course(text: str, counts: Counter[str]) -> str:
    """The course one query took, from what the collector counted for it.

    >>> course("ValueError: zq", Counter(add=1, score=1))
    'simple'
    >>> course("ValueError: zq", Counter(add=1, score=1, loose=1))
    'other'
    >>> course("zq", Counter())
    'no candidate'
    """
    if counts["add"] == 0:
        return "no candidate"
    if counts["add"] == 1 and counts["score"] == 1 and not counts["loose"] and "\n" not in text:
        return "simple"
    return "other"


def parse_args(description: str) -> argparse.Namespace:
    """The census's options (``lane_reach.py`` takes the same): size, queries per kind, kinds."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200, help="queries per kind")
    parser.add_argument("--kinds", default="hit line,miss line")
    return parser.parse_args()


def main() -> None:
    args = parse_args(__doc__.splitlines()[0])

    from errcat import match_error
    from errcat.matcher import collect as collect_module

    collect: Any = collect_module  # its private stages are wrapped below

    path = corpus.write_catalog(args.size, corpus.catalogs_dir())
    queries = corpus.make_query_set(path, args.queries, seed=1).queries
    catalog = corpus.stored_catalog(path)
    match_error(queries["hit line"][0][0], catalog=catalog)  # what every run pays first

    counts: Counter[str] = Counter()
    add, score = collect._Collector.add, collect._score

    def counted_add(self: Any, ctx: Any, candidate: Any) -> None:
        counts["add"] += 1
        if candidate.hit.mode != "full" or candidate.inner is not None or candidate.cap_below:
            counts["loose"] += 1
        add(self, ctx, candidate)

    def counted_score(**kwargs: Any) -> Any:
        counts["score"] += 1
        return score(**kwargs)

    collect._Collector.add = counted_add
    collect._score = counted_score
    clock = time.thread_time_ns
    print(f"{args.size:,} records, first answers, CPU time per query")
    print(f"  {'kind':<14} {'course':<13} {'queries':>7} {'median us':>10} {'mean us':>8}")
    for kind in (k for k in args.kinds.split(",") if k):
        spent: dict[str, list[float]] = defaultdict(list)
        for text, _ in queries[kind][1:]:
            counts.clear()
            start = clock()
            match_error(text, catalog=catalog)
            spent[course(text, counts)].append((clock() - start) / 1e3)
        for name in COURSES:
            if spent[name]:
                times = spent[name]
                print(
                    f"  {kind:<14} {name:<13} {len(times):7d}"
                    f" {statistics.median(times):10.0f} {statistics.mean(times):8.0f}"
                )


if __name__ == "__main__":
    main()
