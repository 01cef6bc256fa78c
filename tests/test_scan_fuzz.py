"""Planted events are counted back through noise, prefixes, CRLF, compression and damage.

Every event whose lines were readable is found, with its class, message and
first line; nothing else is; a damaged file is reported and everything before
the damage is scanned (issue 28, cases 10-13 and the general rules).
"""

from __future__ import annotations

import gzip
import random
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.scan import ScanStats, scan_chunks, scan_paths

EMPTY = Catalog([])
CLASSES = ["ValueError", "KeyError", "RuntimeError", "mypkg.errors.BadThing"]
ODD_CLASSES = ["StopIteration", "re.error", "decimal.DivisionByZero", "poplib.error_proto"]
# Noise lines, each a log record of its own (a line without a record prefix after an
# exception line would continue its message).
NOISE = [
    "[2026-01-02 03:04:05 TP0] Decode batch. #running-req: {n}, token usage: 0.{n}",
    'INFO 03-06 10:05:08 api_server.py:190] 127.0.0.1:{n} - "POST /generate HTTP/1.1" 200',
    "[2026-01-02 03:04:06 TP0] loading shard {n} of 8 took {n} ms",
    "(Worker_TP1 pid=88) INFO 03-06 10:05:09 worker.py:77] scheduler step {n} done",
]
PREFIXES = ("(Worker_TP2 pid=77) ", "[2026-01-02 03:04:05 TP0] ", "[2026-01-02 03:04:05 TP1] ")
FORMS = ["traceback", "prefixed", "every-line", "bare", "logged", "odd", "chained", "after-tb"]


@dataclass(frozen=True)
class Planted:
    """One event as planted: where it starts, its class and message, and its text's end."""

    start_line: int
    error_class: str
    message: str
    end: int  # characters of the log up to the end of the event's last line


def _frames(rng: random.Random, prefix: str = "") -> list[str]:
    n = rng.randint(1, 3)
    lines = [f"{prefix}Traceback (most recent call last):"]
    for k in range(n):
        lines += [f'{prefix}  File "/srv/app/m{k}.py", line {rng.randint(1, 900)}, in f{k}']
        lines += [f"{prefix}    step_{k}()"]
    return lines


def _event(rng: random.Random, form: str, n: int) -> list[list[str]]:
    """The lines of one planted form: a list of events (the after-tb form plants two)."""
    cls = rng.choice(CLASSES)  # any class ends a traceback
    named = rng.choice(CLASSES[:3])  # a bare line's class says it is one (or is known: odd)
    message = f"planted event {n} value {rng.randint(0, 99)}"
    if form == "traceback":
        return [[*_frames(rng), f"{cls}: {message}"]]
    if form == "prefixed":  # a log prefix on the first line only, after a log message
        head = "[2026-01-02 03:04:05 TP3] Scheduler hit an exception: "
        lines = _frames(rng)
        return [[head + lines[0], *lines[1:], f"{cls}: {message}"]]
    if form == "every-line":
        prefix = "(Worker_TP2 pid=77) "
        return [[*_frames(rng, prefix), f"{prefix}{cls}: {message}"]]
    if form == "bare":
        return [[f"{named}: {message}"]]
    if form == "logged":
        return [[f"[2026-01-02 03:04:05 TP0] {named}: {message}"]]
    if form == "odd":
        return [[f"{rng.choice(ODD_CLASSES)}: {message}"]]
    if form == "chained":
        first = [*_frames(rng), f"KeyError: 'inner {n}'", ""]
        link = ["The above exception was the direct cause of the following exception:", ""]
        return [[*first, *link, *_frames(rng), f"{cls}: {message}"]]
    # after-tb: a prefixed traceback, and an error line right after it without a prefix
    prefix = "[2026-01-02 03:04:05 TP1] "
    tb = [*_frames(rng, prefix), f"{prefix}{cls}: {message}"]
    return [tb, [f"ValueError: planted event {n} follows"]]


def _class_and_message(lines: list[str]) -> tuple[str, str]:
    last = lines[-1]
    for prefix in PREFIXES:
        last = last.removeprefix(prefix)
    cls, _, message = last.partition(": ")
    return cls, message


def _log(seed: int, events: int, *, crlf: bool) -> tuple[str, list[Planted]]:
    rng = random.Random(seed)
    eol = "\r\n" if crlf else "\n"
    lines: list[str] = []
    planted: list[Planted] = []
    size = 0

    def add(line: str) -> None:
        nonlocal size
        lines.append(line)
        size += len(line) + len(eol)

    for n in range(events):
        for _ in range(rng.randint(1, 4)):
            add(rng.choice(NOISE).format(n=rng.randint(1, 9999)))
        add("[2026-01-02 03:04:07 TP0] ---")  # a record of its own: no event runs on into it
        for block in _event(rng, rng.choice(FORMS), n):
            start = len(lines) + 1
            for line in block:
                add(line)
            cls, message = _class_and_message(block)
            planted.append(Planted(start, cls, message, size))
    add("[2026-01-02 03:04:08 TP0] done")
    return eol.join(lines) + eol, planted


def _found(events: list[tuple[int, str, str]]) -> set[tuple[int, str, str]]:
    return {(start, cls, message.rstrip("\r")) for start, cls, message in events}


def _expected(planted: list[Planted], readable: int) -> set[tuple[int, str, str]]:
    return {(p.start_line, p.error_class, p.message) for p in planted if p.end <= readable}


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    events=st.integers(1, 25),
    crlf=st.booleans(),
    chunk=st.integers(1, 5000),
)
def test_planted_events_come_back_whatever_the_chunking(
    seed: int, events: int, crlf: bool, chunk: int
) -> None:
    text, planted = _log(seed, events, crlf=crlf)
    chunks = [text[i : i + chunk] for i in range(0, len(text), chunk)]
    found = [(e.start_line, e.error_class, e.message) for e in scan_chunks(chunks, catalog=EMPTY)]
    assert _found(found) == _expected(planted, len(text))
    assert len(found) == len(planted)


def _compress(text: bytes, how: str) -> bytes:
    if how == "gzip":
        return gzip.compress(text, mtime=0)
    if how == "zstd":
        zstandard = pytest.importorskip("zstandard")
        return bytes(zstandard.ZstdCompressor().compress(text))
    return text


def _readable(data: bytes, how: str) -> int:
    """Characters of text that can be read from damaged compressed ``data``."""
    if how == "gzip":
        out = zlib.decompressobj(wbits=31).decompress(data)
    elif how == "zstd":
        zstandard = pytest.importorskip("zstandard")
        out = b""
        inflater = zstandard.ZstdDecompressor().decompressobj()
        for at in range(0, len(data), 4096):
            out += inflater.decompress(data[at : at + 4096])
    else:
        out = data
    return len(out.decode("utf-8", "replace"))


@settings(max_examples=40, deadline=None)
@given(
    log=st.tuples(st.integers(0, 10_000), st.integers(1, 40), st.booleans()),
    how=st.sampled_from(["plain", "gzip", "zstd"]),
    damage=st.sampled_from(["none", "cut", "trailing"]),
    where=st.floats(0.05, 0.99),
)
# Cut inside the record prefix after the last event: the unfinished line once joined its message.
@example(log=(0, 1, False), how="gzip", damage="cut", where=0.9453125)
def test_damaged_files_keep_every_event_before_the_damage(
    log: tuple[int, int, bool], how: str, damage: str, where: float
) -> None:
    seed, events, crlf = log
    text, planted = _log(seed, events, crlf=crlf)
    data = _compress(text.encode(), how)
    if damage == "cut" and how != "plain":
        data = data[: int(len(data) * where)]
    elif damage == "trailing" and how != "plain":
        data += b"garbage after the data"
    readable = _readable(data, how) if damage == "cut" and how != "plain" else len(text)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"log.{how}"
        path.write_bytes(data)
        stats = ScanStats()
        events_found = list(scan_paths([path], catalog=EMPTY, stats=stats))
    found = _found([(e.start_line, e.error_class, e.message) for e in events_found])
    expected = _expected(planted, readable)
    assert expected <= found
    # Beyond the damage point at most one event is seen, cut short: nothing else is made up.
    assert len(found - expected) <= (1 if damage == "cut" else 0)
    damaged = damage != "none" and how != "plain"
    assert bool(stats.unreadable) == damaged
    if damaged:
        assert "damaged after" in stats.unreadable[0][1]


def test_every_planted_event_is_found_at_scale(capsys: pytest.CaptureFixture[str]) -> None:
    """The counts the issue asks for: thousands planted over every form, all found."""
    planted_total = found_total = 0
    for seed, crlf in ((1, False), (2, True), (3, False)):
        text, planted = _log(seed, 1500, crlf=crlf)
        chunks = [text[i : i + 65_536] for i in range(0, len(text), 65_536)]
        events = scan_chunks(chunks, catalog=EMPTY)
        found = [(e.start_line, e.error_class, e.message) for e in events]
        planted_total += len(planted)
        found_total += len(_found(found) & _expected(planted, len(text)))
        assert len(found) == len(planted)
    with capsys.disabled():
        print(f"\nscan fuzz: {found_total} of {planted_total} planted events found")
    assert found_total == planted_total


def test_a_line_without_end_is_bounded_and_its_ends_kept() -> None:
    """Case 13: scan kept a whole line in memory (2 GiB without a newline took 4.2 GB)."""
    from errcat.scan.lines import MAX_LINE_CHARS

    head = "ERROR ValueError: at the start " + "x" * 100
    chunks = [head, *(["y" * 65_536] * 300), " KeyError: at the end\n", "INFO ok\n"]
    stats = ScanStats()
    events = list(scan_chunks(chunks, catalog=EMPTY, stats=stats))
    assert stats.cut_lines == 1 and stats.lines == 2
    assert [e.start_line for e in events] == [1]
    assert events[0].message.endswith("KeyError: at the end") or events[0].error_class == "KeyError"
    assert len(events[0].message) < MAX_LINE_CHARS
