"""The HTML report of a log scan at fleet size: its size, how long it takes to write and to render.

Run: .venv/bin/python benchmarks/bench_report.py [--files 120] [--mb 72] [--storm-events 100000]

Writes two sets of logs under ``$ERRCAT_BENCH_DIR`` (default ``/tmp/errcat-bench-report``),
each ``--files`` files and about ``--mb`` MB of server logs with timestamps that move
forward through one night (00:00 to 08:00), sglang-style and vLLM-style hosts mixed:

* ``night``: a night with incidents. Real tracebacks (bench_scan.py's: raised in
  Python and formatted by ``traceback``) planted at a low rate everywhere, a burst
  of one seed error on a third of the hosts between 02:10 and 02:40, and bare
  ``ValueError`` lines after 05:00 on a few hosts;
* ``storm``: the same noise with ``--storm-events`` bare error lines spread over
  all files (a crash loop), to show the report stays usable at 100k events.

For each it runs ``errcat scan --html`` in a subprocess (scan + report, as a user
would), then times writing the report alone from the events, and opens it in
Debian's Chromium (Playwright, as tests/test_browser.py does): load time until
the page's script has run, the page's height, console errors. Prints one table,
and keeps the reports and a screenshot of each in the bench directory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

from bench_scan import SEED_MESSAGES, formatted
from errcat.report import write_report
from errcat.scan import ScanEvent, ScanStats, scan_paths

NIGHT_START = datetime(2026, 1, 2, 0, 0, 0)
NIGHT = timedelta(hours=8)
BURST = (timedelta(hours=2, minutes=10), timedelta(hours=2, minutes=40))
LATE = timedelta(hours=5)


def _sglang(when: datetime, rng: random.Random, tp: int) -> str:
    ts = when.strftime("%Y-%m-%d %H:%M:%S")
    if rng.random() < 0.6:
        return (
            f"[{ts} TP{tp}] Decode batch. #running-req: {rng.randrange(64)}, "
            f"#token: {rng.randrange(99999)}, token usage: 0.{rng.randrange(99):02d}, "
            f"gen throughput (token/s): {rng.random() * 3000:.2f}, #queue-req: 0"
        )
    if rng.random() < 0.7:
        return (
            f"[{ts}] INFO:     10.0.{rng.randrange(9)}.{rng.randrange(255)}:{rng.randrange(65535)} - "
            '"POST /generate HTTP/1.1" 200 OK'
        )
    return (
        f"[{ts} TP{tp}] Prefill batch. #new-seq: 1, #new-token: {rng.randrange(4096)}, "
        f"#cached-token: {rng.randrange(4096)}, cache hit rate: 0.{rng.randrange(99):02d}"
    )


def _vllm(when: datetime, rng: random.Random, tp: int) -> str:
    ts = when.strftime("%m-%d %H:%M:%S")
    if rng.random() < 0.7:
        return (
            f"(Worker_TP{tp} pid={8000 + tp}) INFO {ts} [metrics.py:455] Avg prompt throughput: "
            f"{rng.random() * 100:.1f} tokens/s, Running: {rng.randrange(9)} reqs, error_rate=0.0"
        )
    return (
        f"(APIServer pid=7001) INFO {ts} [logger.py:39] Received request "
        f"cmpl-{rng.randrange(16**8):08x}: prompt tokens {rng.randrange(4096)}"
    )


def _traceback(lines: list[str], when: datetime, rng: random.Random, vllm: bool) -> None:
    tb = formatted(rng)
    tp = rng.randrange(8)
    if vllm:
        ts = when.strftime("%m-%d %H:%M:%S")
        lines.append(f"(Worker_TP{tp} pid={8000 + tp}) ERROR {ts} [core.py:588] EngineCore failed")
        lines.extend(f"(Worker_TP{tp} pid={8000 + tp}) {line}" for line in tb)
    else:
        ts = when.strftime("%Y-%m-%d %H:%M:%S")
        lines.append(f"[{ts} TP{tp}] Scheduler hit an exception: {tb[0]}")
        lines.extend(tb[1:])


def _bare(when: datetime, rng: random.Random, vllm: bool, message: str) -> str:
    if vllm:
        return f"(APIServer pid=7001) ERROR {when.strftime('%m-%d %H:%M:%S')} [serving.py:88] ValueError: {message}"
    return f"[{when.strftime('%Y-%m-%d %H:%M:%S')} TP{rng.randrange(8)}] ValueError: {message}"


def write_logs(
    directory: Path, files: int, total_mb: float, rng: random.Random, storm_events: int
) -> list[Path]:
    """One night of logs; ``storm_events`` > 0 spreads that many bare error lines instead of incidents."""
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    per_file = int(total_mb * 1e6 / files)
    lines_per_file = per_file // 125  # noise lines are 100-150 characters
    storm_rate = storm_events / (files * lines_per_file) if storm_events else 0.0
    paths = []
    for number in range(files):
        vllm = number % 3 == 2
        path = directory / f"node-{number:03d}.log"
        paths.append(path)
        burst_host = number % 3 == 0
        late_host = number % 17 == 5
        lines: list[str] = []
        size = 0
        while size < per_file:
            when = NIGHT_START + NIGHT * (size / per_file)  # time moves with the bytes written
            offset = when - NIGHT_START
            r = rng.random()
            before = len(lines)
            if storm_rate:
                if r < storm_rate:
                    lines.append(
                        _bare(
                            when,
                            rng,
                            vllm,
                            f"batch size {rng.randrange(65, 80)} exceeds the limit of 64",
                        )
                        if rng.random() < 0.7
                        else _bare(when, rng, vllm, rng.choice(SEED_MESSAGES))
                    )
                else:
                    lines.append((_vllm if vllm else _sglang)(when, rng, rng.randrange(8)))
            elif r < 0.0004:
                _traceback(lines, when, rng, vllm)
            elif burst_host and BURST[0] <= offset < BURST[1] and r < 0.02:
                lines.append(_bare(when, rng, vllm, SEED_MESSAGES[0]))
            elif late_host and offset >= LATE and r < 0.004:
                lines.append(_bare(when, rng, vllm, f"unknown mode {rng.randrange(12)!r}"))
            else:
                lines.append((_vllm if vllm else _sglang)(when, rng, rng.randrange(8)))
            size += sum(len(line) + 1 for line in lines[before:])
        path.write_text("\n".join(lines) + "\n")
    return paths


def render_in_chromium(report: Path, shot: Path) -> dict[str, object]:
    """Open the report; time until its script ran; count console errors; keep a screenshot."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        return {"error": f"playwright missing: {exc}"}
    executable = os.environ.get("ERRCAT_CHROMIUM") or shutil.which("chromium")
    if not executable:
        return {"error": "no chromium"}
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=executable, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        start = time.perf_counter()
        page.goto(report.as_uri(), wait_until="load", timeout=120_000)
        page.locator("body[data-ready='1']").wait_for(state="attached", timeout=120_000)
        wall = time.perf_counter() - start
        timing = page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0];"
            " return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}; }"
        )
        height = page.evaluate("() => document.documentElement.scrollHeight")
        sections = page.locator("section.group").count()
        rects = page.locator("svg.chart rect").count()
        start = time.perf_counter()
        page.fill("#filter", "ValueError")
        filter_s = time.perf_counter() - start
        page.screenshot(path=str(shot), full_page=False)
        browser.close()
    return {
        "wall_s": wall,
        "dcl_ms": timing["dcl"],
        "load_ms": timing["load"],
        "height_px": height,
        "sections": sections,
        "bars": rects,
        "filter_s": filter_s,
        "errors": errors,
    }


def measure(name: str, paths: list[Path], out: Path) -> list[tuple[str, str]]:
    report = out / f"{name}.html"
    size_mb = sum(p.stat().st_size for p in paths) / 1e6
    errcat = Path(sys.executable).with_name("errcat")
    start = time.perf_counter()
    done = subprocess.run(
        [str(errcat), "scan", "--summary", "--html", str(report), *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
    )
    cli_s = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr)
    stats = ScanStats()
    start = time.perf_counter()
    events: list[ScanEvent] = list(scan_paths(paths, stats=stats))
    scan_s = time.perf_counter() - start
    start = time.perf_counter()
    size = write_report(
        out / f"{name}-again.html", events, stats=stats, inputs=[str(p) for p in paths]
    )
    write_s = time.perf_counter() - start
    groups = len({e.record_id or f"{e.error_class}:{e.message}" for e in events})
    browser = render_in_chromium(report, out / f"{name}.png")
    rows = [
        (f"{name}: logs", f"{len(paths)} files, {size_mb:.1f} MB, {stats.lines:,} lines"),
        (
            f"{name}: events found",
            f"{len(events):,} ({sum(e.record_id is not None for e in events):,} answered)",
        ),
        (f"{name}: errcat scan --summary --html (process)", f"{cli_s:.1f} s"),
        (f"{name}: scan alone / report alone", f"{scan_s:.1f} s / {write_s:.2f} s"),
        (f"{name}: report size", f"{size / 1e3:.0f} kB"),
        (f"{name}: distinct messages", f"{groups:,}"),
    ]
    if "error" in browser:
        rows.append((f"{name}: Chromium", str(browser["error"])))
    else:
        rows += [
            (
                f"{name}: Chromium load (DOMContentLoaded / load / script ran)",
                f"{browser['dcl_ms']:.0f} ms / {browser['load_ms']:.0f} ms / {browser['wall_s']:.2f} s",
            ),
            (
                f"{name}: page",
                f"{browser['sections']} group sections, {browser['bars']} chart bars, "
                f"{browser['height_px']:,} px tall",
            ),
            (f"{name}: filter box, typing 'ValueError'", f"{browser['filter_s']:.2f} s"),
            (f"{name}: console errors", json.dumps(browser["errors"])),
        ]
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--files", type=int, default=120)
    parser.add_argument("--mb", type=float, default=72.0)
    parser.add_argument("--storm-events", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    base = Path(os.environ.get("ERRCAT_BENCH_DIR", "/tmp/errcat-bench-report"))
    base.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[str, str]] = []
    night = write_logs(base / "night", args.files, args.mb, random.Random(args.seed), 0)
    rows += measure("night", night, base)
    if args.storm_events:
        storm = write_logs(
            base / "storm", args.files, args.mb, random.Random(args.seed + 1), args.storm_events
        )
        rows += measure("storm", storm, base)
    width = max(len(name) for name, _ in rows)
    print(f"| {'measure':<{width}} | value |")
    print(f"|{'-' * (width + 2)}|-------|")
    for name, value in rows:
        print(f"| {name:<{width}} | {value} |")
    print(f"\nreports and screenshots in {base}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
