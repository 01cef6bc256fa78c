"""Issue 28's lost-event cases of ``errcat scan`` (10-13 and new ones), for bench_adversarial.py.

Planted-event logs (their events known by line, class and message), the small
logs of ``benchmarks/adversarial/`` with their ``*.expected.json``, and
bombs of zeros, each scanned by ``errcat scan --json`` in a subprocess.
"""

from __future__ import annotations

import gzip
import json
import random
import zlib
from collections.abc import Iterable
from pathlib import Path

from bench_adversarial import INPUTS, MiB, Ran, Result, _events, _no_traceback, _scan, _zeros_gz

# --------------------------------------------------------------------------
# Lost events (cases 10-13).

_NOISE = [
    "[2026-01-02 03:04:05 TP0] Decode batch. #running-req: {n}, token usage: 0.{n}",
    'INFO 03-06 10:05:08 api_server.py:190] 127.0.0.1:{n} - "POST /generate HTTP/1.1" 200',
]


def _planted(
    events: int, seed: int, *, after_tb: bool
) -> tuple[str, list[tuple[int, str, str, int]]]:
    """A log of noise and planted events: its text and each event's (line, class, message, end)."""
    rng = random.Random(seed)
    lines: list[str] = []
    planted: list[tuple[int, str, str, int]] = []
    size = 0

    def add(line: str) -> None:
        nonlocal size
        lines.append(line)
        size += len(line) + 1

    for n in range(events):
        for _ in range(rng.randint(1, 3)):
            add(rng.choice(_NOISE).format(n=rng.randint(1, 9999)))
        prefix = "[2026-01-02 03:04:05 TP1] " if after_tb or n % 2 else ""
        start = len(lines) + 1
        add(f"{prefix}Traceback (most recent call last):")
        add(f'{prefix}  File "/srv/app/m.py", line {rng.randint(1, 900)}, in step')
        add(f"{prefix}    step()")
        add(f"{prefix}KeyError: 'planted {n}'")
        planted.append((start, "KeyError", f"'planted {n}'", size))
        if after_tb or n % 3 == 0:  # an error line right after it, without a prefix
            add(f"ValueError: planted {n} follows")
            planted.append((len(lines), "ValueError", f"planted {n} follows", size))
    add("[2026-01-02 03:04:08 TP0] done")
    return "\n".join(lines) + "\n", planted


def _count(
    found: list[tuple[int, str, str]], planted: Iterable[tuple[int, str, str, int]], readable: int
) -> tuple[int, int]:
    expected = {(s, c, m) for s, c, m, end in planted if end <= readable}
    return len(expected & set(found)), len(expected)


def case_10(tmp: Path) -> Result:
    text, planted = _planted(6000, 10, after_tb=False)
    packed = gzip.compress(text.encode(), mtime=0)
    cut = packed[: len(packed) * 6 // 10]
    readable = len(zlib.decompressobj(wbits=31).decompress(cut).decode("utf-8", "replace"))
    results = []
    runs = []
    for name, data, chars in (
        ("cut", cut, readable),
        ("trailing", packed + b"garbage after the end", len(text)),
    ):
        path = tmp / f"{name}.log.gz"
        path.write_bytes(data)
        ran = _scan(path)
        runs.append(ran)
        results.append(
            (*_count(_events(ran), planted, chars), ran.code, "damaged after" in ran.err)
        )
    ok = _no_traceback(runs) and all(f == e and code == 2 and said for f, e, code, said in results)
    figure = ", ".join(
        f"{name} {f:,}/{e:,} events"
        for name, (f, e, _, _) in zip(("cut at 60%", "trailing bytes"), results, strict=True)
    )
    return Result(
        "10",
        "gzip cut at 60% / with trailing bytes (planted tracebacks and error lines)",
        ok,
        figure + ", damage reported (exit 2)",
    )


def case_11(tmp: Path) -> Result:
    text, planted = _planted(2000, 11, after_tb=True)
    path = tmp / "after.log"
    path.write_text(text)
    ran = _scan(path)
    found, expected = _count(_events(ran), planted, len(text))
    return Result(
        "11",
        "2,000 prefixed tracebacks, each followed at once by an unprefixed error line",
        found == expected and not ran.traceback,
        f"{found:,}/{expected:,} events",
    )


def _expected_log(name: str) -> tuple[int, int, Ran]:
    ran = _scan(INPUTS / f"{name}.log")
    expected = [tuple(e) for e in json.loads((INPUTS / f"{name}.expected.json").read_text())]
    found = _events(ran)
    return sum(e in found for e in expected), len(expected) + len(set(found) - set(expected)), ran


def case_12(tmp: Path) -> Result:
    found, expected, ran = _expected_log("odd_classes")
    return Result(
        "12",
        "bare lines of classes not ending in Error (re.error, StopIteration, decimal.DivisionByZero, ...)",
        found == expected and not ran.traceback,
        f"{found}/{expected} events",
    )


def case_12b(tmp: Path) -> Result:
    found, expected, ran = _expected_log("level_words")
    return Result(
        "12b",
        "new: error lines behind level words / clocks, each followed by `INFO ok`-like lines",
        found == expected and not ran.traceback,
        f"{found}/{expected} events, messages exact",
    )


def case_11b(tmp: Path) -> Result:
    found, expected, ran = _expected_log("vllm_ranks")
    return Result(
        "11b",
        "new: (VllmWorker rank=0/1 pid=...) tracebacks interleaved, EngineCore_DP0, APIServer",
        found == expected and not ran.traceback,
        f"{found}/{expected} events, each its own class",
    )


def case_13(tmp: Path) -> Result:
    line = tmp / "oneline.log"
    with line.open("wb") as fh:
        fh.write(b"ERROR ValueError: at the start ")
        chunk = b"y" * MiB
        for _ in range(256):
            fh.write(chunk)
        fh.write(b" KeyError: at the end")
    zeros = tmp / "zeros.log.gz"
    zeros.write_bytes(_zeros_gz(1 << 30))
    runs = [_scan(line), _scan(zeros)]
    ok = _no_traceback(runs) and all(r.peak_mib < 200 for r in runs) and len(_events(runs[0])) == 1
    return Result(
        "13",
        "scan 256 MiB without a line end; a 1 MiB gzip of 1 GiB zeros (was 4.2 GB / 2.1 GB)",
        ok,
        f"peak {runs[0].peak_mib:.0f} MiB / {runs[1].peak_mib:.0f} MiB",
    )


def case_13b(tmp: Path) -> Result:
    try:
        import zstandard
    except ImportError:
        return Result(
            "13b", "new: scan a zstd frame of 1 GiB zeros", None, "zstandard not installed"
        )
    packer = zstandard.ZstdCompressor(level=3).compressobj()
    path = tmp / "zeros.log.zst"
    with path.open("wb") as fh:
        for _ in range(1024):
            fh.write(packer.compress(b"\0" * MiB))
        fh.write(packer.flush())
    ran = _scan(path)
    ok = ran.peak_mib < 200 and not ran.traceback
    return Result(
        "13b",
        f"new: scan a {path.stat().st_size / 1024:.0f} KiB zstd of 1 GiB zeros",
        ok,
        f"peak {ran.peak_mib:.0f} MiB, {ran.seconds:.1f} s",
    )
