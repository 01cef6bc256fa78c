"""Load on POST /v1/match: requests per second and latency, on loopback.

Run: .venv/bin/python benchmarks/bench_server.py [--duration 10] [--concurrency 1,8,32]
     [--size 100000] [--workers 1]

For each catalog (the bundled one, then one of ``--size`` records) a server is
started in a child process (``errcat.server.create_app`` under uvicorn, on a
free 127.0.0.1 port); this process then drives it with N concurrent
keep-alive HTTP/1.1 connections for ``--duration`` seconds per concurrency
level and prints one table row per case. The bodies cycle through seed
tracebacks, bare error lines and misses, so the rows mix hits and misses.

The large catalog comes from ``corpus.py``: mined from the standard library
and the installed packages with ``errcat.mine``, scaled up to ``--size`` with
records as other projects would raise them (cached, as for ``bench_match.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED_LINE = (
    "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend. "
    "Select another --speculative-moe-a2a-backend."
)
SEED_TRACEBACK = (
    "[2026-03-02 10:11:12 TP0] Traceback (most recent call last):\n"
    '[2026-03-02 10:11:12 TP0]   File "/opt/venv/lib/python3.11/site-packages/sglang/srt/'
    'server_args.py", line 7614, in _validate_deepep_v2_moe\n'
    "[2026-03-02 10:11:12 TP0]     raise ValueError(\n"
    "[2026-03-02 10:11:12 TP0] ValueError: DeepEP v2 MoE is not validated for "
    "'MixtralForCausalLM'; supported architectures are ['DeepseekV3ForCausalLM', "
    "'DeepseekV4ForCausalLM', 'Qwen3MoeForCausalLM']. Other model workflows may require an "
    "all-reduce after A2A combine. Use --moe-a2a-backend deepep.\n"
)
MISS = "ValueError: the expert count 7 is not divisible by the EP size 2"


# --- the server side (child process) ---------------------------------------------------------


def corpus_catalog(size: int) -> tuple[object, list[str], str]:
    """A catalog of ``size`` records from ``corpus.py`` (mined code, scaled), and sample errors."""
    sys.path.insert(0, str(HERE))
    import corpus
    from errcat import Catalog

    path = corpus.write_catalog(size, corpus.cache_root() / "catalogs")
    queries = corpus.make_queries(path, 30, seed=2)
    samples = [
        text for kind in ("hit line", "hit traceback", "miss line") for text, _ in queries[kind]
    ]
    return Catalog.from_path(path), samples, "mined and scaled (corpus.py)"


def serve(size: int, port: int, workers: int) -> None:
    """Child process: build the catalog, report ready (with sample messages), serve."""
    import uvicorn

    from errcat import Catalog
    from errcat.server import create_app
    from errcat.server.command import serve_forked

    started = time.perf_counter()
    if size:
        catalog, samples, kind = corpus_catalog(size)
    else:
        catalog, samples, kind = Catalog.bundled(), [], "bundled"
    app = create_app(catalog)  # type: ignore[arg-type]
    ready = {
        "records": len(catalog),  # type: ignore[arg-type]
        "kind": kind,
        "samples": samples,
        "build_s": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(ready), flush=True)
    gc.collect()
    gc.freeze()  # as `errcat serve` does
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="error", access_log=False, backlog=4096
    )
    if workers > 1:
        serve_forked(config, workers)
    else:
        uvicorn.Server(config).run()


# --- the client side ---------------------------------------------------------------------------


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    confident: int = 0


async def client(port: int, bodies: list[bytes], until: float, offset: int, out: Result) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    n = offset
    try:
        while time.perf_counter() < until:
            body = bodies[n % len(bodies)]
            n += 1
            request = (
                b"POST /v1/match HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            start = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            length = next(
                int(line.split(":", 1)[1])
                for line in lines
                if line.lower().startswith("content-length:")
            )
            payload = await reader.readexactly(length)
            out.confident += b'"confident":true' in payload
            out.latencies.append(time.perf_counter() - start)
            out.statuses[status] = out.statuses.get(status, 0) + 1
    finally:
        writer.close()


async def drive(
    port: int, bodies: list[bytes], concurrency: int, duration: float
) -> tuple[Result, float]:
    out = Result()
    start = time.perf_counter()
    until = start + duration
    await asyncio.gather(*(client(port, bodies, until, n * 7, out) for n in range(concurrency)))
    return out, time.perf_counter() - start


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"server on port {port} did not come up")


def pct(samples: list[float], q: float) -> float:
    return samples[min(len(samples) - 1, int(len(samples) * q))] * 1e3


def bench(size: int, args: argparse.Namespace) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--_serve",
            str(size),
            "--_port",
            str(port),
            "--workers",
            str(args.workers),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        ready = json.loads(proc.stdout.readline())
        wait_until_up(port, 60)
        texts = [SEED_TRACEBACK, SEED_LINE, MISS]
        texts += ready["samples"][:60]
        bodies = [json.dumps({"text": t}).encode() for t in texts]
        name = f"{ready['records']} {ready['kind']}"
        for concurrency in [int(c) for c in args.concurrency.split(",")]:
            asyncio.run(drive(port, bodies, concurrency, min(1.0, args.duration)))  # warm up
            result, elapsed = asyncio.run(drive(port, bodies, concurrency, args.duration))
            lat = sorted(result.latencies)
            errors = sum(v for k, v in result.statuses.items() if k != 200)
            print(
                f"{name:<34} {args.workers:>3} {concurrency:>5} {len(lat) / elapsed:>8.0f} "
                f"{pct(lat, 0.5):>8.2f} {pct(lat, 0.9):>8.2f} {pct(lat, 0.99):>8.2f} "
                f"{statistics.fmean(lat) * 1e3:>8.2f} {result.confident / len(lat):>5.0%} "
                f"{errors:>6} {ready['build_s']:>7.1f}",
                flush=True,
            )
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per case")
    parser.add_argument("--concurrency", default="1,8,32", help="concurrent connections")
    parser.add_argument("--size", type=int, default=100_000, help="records in the big catalog")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--_serve", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--_port", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args._serve is not None:
        serve(args._serve, args._port, args.workers)
        return
    print(f"loopback, {os.cpu_count()} CPUs, {args.duration:g} s per case; latency in ms")
    print(
        f"{'catalog':<34} {'wrk':>3} {'conns':>5} {'req/s':>8} {'p50':>8} {'p90':>8} "
        f"{'p99':>8} {'mean':>8} {'hits':>5} {'errors':>6} {'build s':>7}"
    )
    for size in (0, args.size):
        bench(size, args)


if __name__ == "__main__":
    main()
