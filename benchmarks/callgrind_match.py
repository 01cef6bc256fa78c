"""Instructions per first answer at N records, counted by callgrind: deterministic under load.

Run: .venv/bin/python benchmarks/callgrind_match.py [--size 100000] [--kinds "hit line,hit traceback"]

Wall-clock medians move with whatever else the machine runs; an instruction
count does not. For each kind, valgrind's callgrind runs a child that opens
``bench_match.py``'s stored catalog and answers its first query (what every run
pays: imports, the index, one-time tables), then, in a second child, the same
followed by each query's first answer; the difference over the queries is the
count per answer. Needs ``valgrind`` on the PATH; runs take a minute or two each.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402 - the generator lives beside this script

# Runs under callgrind: open the catalog, answer the first query, then (with "all") the rest.
CHILD = r"""
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import corpus
from errcat import match_error
path, kind, mode = Path(sys.argv[2]), sys.argv[3], sys.argv[4]
texts = [t for t, _ in corpus.make_query_set(path, int(sys.argv[5]), seed=1).queries[kind]]
catalog = corpus.stored_catalog(path)
match_error(texts[0], catalog=catalog)
if mode == "all":
    for text in texts[1:]:
        match_error(text, catalog=catalog)
print(len(texts))
"""


def instructions(args: list[str]) -> tuple[int, int]:
    """Instructions callgrind counted for a child run, and what the child printed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
        return int(found.group(1)), int(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200, help="queries per kind")
    parser.add_argument("--kinds", default="hit line,hit traceback,miss line")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on the PATH")
    path = corpus.write_catalog(args.size, corpus.catalogs_dir())
    corpus.make_query_set(path, args.queries, seed=1)  # cached beside the catalog
    print(f"{args.size:,} records, {path.name}")
    print(f"  {'kind':<16} {'queries':>7} {'instructions per answer':>24}")
    for kind in (k for k in args.kinds.split(",") if k):
        child = [sys.executable, "-c", CHILD, str(HERE), str(path), kind]
        base, _ = instructions([*child, "first", str(args.queries)])
        total, n = instructions([*child, "all", str(args.queries)])
        print(f"  {kind:<16} {n - 1:7d} {(total - base) / max(1, n - 1):24,.0f}")


if __name__ == "__main__":
    main()
