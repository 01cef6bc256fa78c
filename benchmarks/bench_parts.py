"""Match latency of the default catalog in parts: bundled data alone, then with the plug-ins.

Run with ``python benchmarks/bench_parts.py [--runs N]`` in an environment where the
stack's data packages are installed (see the README's set-up); without them both
rows measure the bundled data. A catalog made of several stores (the bundled data,
then each ``errcat.catalogs`` plug-in) looks every message up in each store's
index; this prints, per catalog, the parts and records, the first answer in the
process, the median and p90 in-process latency of ``match_error`` on a few real
shapes (an engine line, a stack line, a traceback, a line no record holds), and
how long counting the records takes (every part's ids are read once).
"""

from __future__ import annotations

import argparse
import statistics
import time

import errcat
from errcat.catalog import Catalog

SHAPES = {
    "engine line": "ValueError: The input (85050 tokens) is longer than the model's context"
    " length (32768 tokens).",
    "stack line": "ModuleNotFoundError: No module named 'flash_attn'",
    "traceback": "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.12/site-packages/vllm/entrypoints/llm.py", line 245, in'
    " __init__\n    self.llm_engine = LLMEngine.from_engine_args(\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a"
    " total capacity of 79.10 GiB of which 1.06 GiB is free.",
    "miss": "KeyError: 'no record anywhere holds this exact wording, surely'",
}


def _measure(catalog: Catalog, runs: int) -> dict[str, tuple[float, float]]:
    out = {}
    for name, text in SHAPES.items():
        errcat.match_error(text, catalog=catalog)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            errcat.match_error(text, catalog=catalog)
            times.append((time.perf_counter() - start) * 1e6)
        times.sort()
        out[name] = (statistics.median(times), times[int(0.9 * (len(times) - 1))])
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args(argv)
    rows = []
    for name, load in (("bundled", Catalog.bundled), ("default", Catalog.default)):
        catalog = load()
        start = time.perf_counter()
        errcat.match_error(SHAPES["engine line"], catalog=catalog)
        first = time.perf_counter() - start
        start = time.perf_counter()
        size = len(catalog)
        counted = time.perf_counter() - start
        rows.append((name, len(catalog.parts), size, first, counted, _measure(catalog, args.runs)))
    heads = " | ".join(f"{s} median / p90 µs" for s in SHAPES)
    print(f"catalog | parts | records | first answer s | len() s | {heads}")
    print("---|---:|---:|---:|---:|" + "---:|" * len(SHAPES))
    for name, parts, size, first, counted, times in rows:
        cells = " | ".join(f"{m:,.0f} / {p:,.0f}" for m, p in times.values())
        print(f"{name} | {parts} | {size:,} | {first:.2f} | {counted:.2f} | {cells}")


if __name__ == "__main__":
    main()
