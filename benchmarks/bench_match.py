"""Match latency on the bundled catalog and on synthetic catalogs of growing size.

Run: .venv/bin/python benchmarks/bench_match.py [--sizes 1000,10000]

Prints one table: per catalog size, index build time and median / p99 latency
of match_error for hits and misses, bare lines and full tracebacks.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from errcat import Catalog, match_error
from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
from errcat.patterns import template_to_pattern

WORDS = [
    "model",
    "tensor",
    "shape",
    "device",
    "cuda",
    "memory",
    "batch",
    "token",
    "expert",
    "layer",
    "weight",
    "config",
    "backend",
    "kernel",
    "stream",
    "rank",
    "worker",
    "scheduler",
    "cache",
    "page",
    "block",
    "request",
    "sampler",
    "quant",
    "dtype",
    "attention",
    "head",
    "vocab",
    "adapter",
    "lora",
    "graph",
    "capture",
    "dispatch",
    "combine",
]


def synthetic_catalog(size: int, seed: int = 0) -> tuple[Catalog, list[str]]:
    """A catalog of ``size`` distinct templates and one rendered message per template."""
    rng = random.Random(seed)
    base = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)
    envelopes = []
    messages = []
    for n in range(size):
        words = rng.sample(WORDS, 7)
        template = (
            f"{words[0]} {words[1]} {{value!r}} is not supported by {words[2]} {words[3]} "
            f"#{n}; expected one of {{allowed}} for {words[4]} {words[5]}"
        )
        record = base.record.model_copy(
            update={
                "id": f"{n:016x}",
                "slug": f"synthetic-{n}",
                "error_message": template,
                "message_pattern": template_to_pattern(template),
            }
        )
        envelopes.append(base.model_copy(update={"record": record}))
        messages.append(
            template.replace("{value!r}", "'bf16'").replace("{allowed}", "['fp16', 'fp32']")
        )
    return Catalog(envelopes), messages


def traceback_of(message: str) -> str:
    frames = "".join(
        f'  File "/opt/venv/lib/python3.11/site-packages/pkg/mod{n}.py", line {10 * n}, in f{n}\n'
        f"    call_{n}(x)\n"
        for n in range(24)
    )
    return f"Traceback (most recent call last):\n{frames}ValueError: {message}\n"


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def percentiles(samples: list[float]) -> str:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return f"{statistics.median(samples) * 1e6:9.1f} {p99 * 1e6:9.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    print(f"{'catalog':>10} {'build ms':>9} {'case':<16} {'med µs':>9} {'p99 µs':>9}")
    bundled = Catalog.bundled()
    hit = (
        "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend. "
        "Select another --speculative-moe-a2a-backend."
    )
    miss = "ValueError: the expert count 7 is not divisible by the EP size 2"
    start = time.perf_counter()
    _ = bundled.index
    build = (time.perf_counter() - start) * 1e3
    for case, text in [
        ("hit line", hit),
        ("hit traceback", traceback_of(hit.removeprefix("ValueError: "))),
        ("miss line", miss),
        ("miss traceback", traceback_of(miss.removeprefix("ValueError: "))),
    ]:
        samples = timed(partial(match_error, text, catalog=bundled), args.queries)
        print(f"{'bundled':>10} {build:9.1f} {case:<16} {percentiles(samples)}")
    for size in [int(s) for s in args.sizes.split(",") if s]:
        catalog, messages = synthetic_catalog(size)
        start = time.perf_counter()
        _ = catalog.index
        build = (time.perf_counter() - start) * 1e3
        rng = random.Random(1)
        picks = [rng.choice(messages) for _ in range(args.queries)]
        cases: list[tuple[str, Callable[[str], str]]] = [
            ("hit line", lambda m: f"ValueError: {m}"),
            ("hit traceback", traceback_of),
            ("miss line", lambda m: "ValueError: " + m.replace("not supported", "not wanted")),
        ]
        for case, make in cases:
            texts = [make(m) for m in picks]
            samples = []
            for text in texts:
                start = time.perf_counter()
                found = match_error(text, catalog=catalog)
                samples.append(time.perf_counter() - start)
                if case.startswith("hit") and found is None:
                    raise SystemExit(f"expected a match for {text[:80]!r}")
            print(f"{size:>10} {build:9.1f} {case:<16} {percentiles(samples)}")


if __name__ == "__main__":
    main()
