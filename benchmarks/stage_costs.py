"""Where one kind of query's match time goes, stage by stage, in CPU time.

Run: .venv/bin/python benchmarks/stage_costs.py [--size 100000] [--kind "hit line"] [--warm]

The catalog and queries are ``bench_match.py``'s (``corpus.write_catalog``, and
``corpus.make_query_set`` with seed 1), opened as a stored index. Every query
is answered once with ``match_error`` (its first answer, as ``bench_match.py``
times it; with ``--warm``, after a pass that fills the caches a long-running
process holds). First the median and mean CPU time per query without timers
(thread CPU time: another process on the machine does not count), then, in a
fresh process, a pass with a timer around each stage of the matcher
(:data:`STAGES`): each stage's mean microseconds per query, share of that
pass and calls per query (``verify``: regex verifications, ``score (add)``:
patterns scored, ``weigh``: records scored); an indented stage is part of the
stage above it. The timers cost time of
their own: the shares say where the time goes, the untimed median what a
query costs.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402 - the generator lives beside this script

#: (module, attribute (``Class.method`` for a method), label, depth, whether it yields).
STAGES: tuple[tuple[str, str, str, int, bool], ...] = (
    ("errcat.matcher", "_reports", "extract reports", 0, False),
    ("errcat.matcher", "_mentions", "words mentioned", 0, False),
    ("errcat.matcher.collect", "contexts_of", "report contexts", 0, False),
    ("errcat.matcher.context", "message_forms", "message forms", 1, False),
    ("errcat.matcher.context", "FrameView", "frames by file", 1, False),
    ("errcat.matcher.collect", "_find_hits", "find hits", 0, False),
    ("errcat.index", "PatternIndex.candidates", "index candidates", 1, False),
    ("errcat.index", "PatternIndex._proposed", "patterns under the words", 2, False),
    ("errcat.index", "PatternIndex.entry", "pattern entries", 2, False),
    ("errcat.matcher.find", "_verify", "verify", 1, False),
    ("errcat.matcher.find", "_unpunctuated_hits", "period lost", 1, True),
    ("errcat.matcher.find", "_unticked_hits", "backticks lost", 1, True),
    ("errcat.matcher.find", "_truncated_hits", "cut-off search", 1, True),
    ("errcat.matcher.find", "_near_cut_hits", "cut-off, by shared words", 1, True),
    ("errcat.matcher.collect", "_candidates", "relate hits", 0, True),
    ("errcat.matcher.collect", "_Collector.add", "score (add)", 0, False),
    ("errcat.matcher.collect", "_text_evidence", "text evidence", 1, False),
    ("errcat.background", "c_origin", "did C print it", 2, False),
    ("errcat.matcher.collect", "record_evidence", "record evidence", 1, False),
    ("errcat.matcher.collect", "_score", "weigh", 1, False),
    ("errcat.matcher.collect", "Match", "build Match", 1, False),
    ("errcat.matcher.collect", "_drift_candidates", "drift", 0, True),
    ("errcat.matcher.collect", "_Collector.answer", "rank and answer", 0, False),
    ("errcat.matcher", "_named", "named (phrases, families)", 0, False),
    ("errcat.matcher", "lead_word_rests", "title lead words", 0, True),
)


@contextmanager
def timed(spent: dict[str, int], calls: dict[str, int]) -> Iterator[None]:
    """Every stage of :data:`STAGES` adds its CPU nanoseconds to ``spent``, a call to ``calls``.

    (Restored after.)
    """
    undo: list[tuple[Any, str, Any]] = []
    for module_name, attribute, label, _, yields in STAGES:
        owner: Any = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
        undo.append((owner, name, original))
        setattr(owner, name, _timer(original, label, spent, calls, yields=yields))
    try:
        yield
    finally:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)


def _timer(
    function: Callable[..., Any],
    label: str,
    spent: dict[str, int],
    calls: dict[str, int],
    *,
    yields: bool,
) -> Callable[..., Any]:
    clock = time.thread_time_ns

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        calls[label] += 1
        start = clock()
        try:
            result = function(*args, **kwargs)
            return iter(list(result)) if yields else result  # a generator's work, all of it
        finally:
            spent[label] += clock() - start

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--kind", default="hit line", choices=corpus.KINDS)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--warm", action="store_true", help="answer every query once first")
    parser.add_argument("--timed", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--dir",
        type=Path,
        default=corpus.catalogs_dir(),
    )
    args = parser.parse_args()

    from errcat import Catalog, match_error

    path = corpus.write_catalog(args.size, args.dir)
    texts = [
        text for text, _ in corpus.make_query_set(path, args.queries, seed=1).queries[args.kind]
    ]

    def fresh() -> Catalog:
        catalog = corpus.stored_catalog(path)
        match_error(texts[0], catalog=catalog)  # what bench_match's first answer pays
        if args.warm:
            for text in texts:
                match_error(text, catalog=catalog)
        return catalog

    clock = time.thread_time_ns
    catalog = fresh()
    if not args.timed:
        samples = []
        for text in texts:
            start = clock()
            match_error(text, catalog=catalog)
            samples.append(clock() - start)
        mode = "warm" if args.warm else "first answers"
        print(f"{args.size:,} records, {args.kind!r}, {len(texts)} queries, {mode}")
        print(
            f"  untimed: median {statistics.median(samples) / 1e3:.1f} us,"
            f" mean {statistics.mean(samples) / 1e3:.1f} us CPU"
        )
        sys.stdout.flush()
        # The timed pass in a process of its own: the same caches as this one started with.
        subprocess.run([sys.executable, __file__, *sys.argv[1:], "--timed"], check=True)
        return
    spent: dict[str, int] = defaultdict(int)
    calls: dict[str, int] = defaultdict(int)
    total = 0
    with timed(spent, calls):
        for text in texts:
            start = clock()
            match_error(text, catalog=catalog)
            total += clock() - start
    print(f"  timed pass: mean {total / len(texts) / 1e3:.1f} us CPU")
    print(f"  {'stage':<34} {'us/query':>9} {'share':>6} {'calls/query':>12}")
    for _, _, label, depth, _ in STAGES:
        line = "  " * depth + label
        print(
            f"  {line:<34} {spent[label] / len(texts) / 1e3:9.1f} {spent[label] / total:6.1%}"
            f" {calls[label] / len(texts):12.2f}"
        )


if __name__ == "__main__":
    main()
