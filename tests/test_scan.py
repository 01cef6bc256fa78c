from __future__ import annotations

import builtins
import gzip
import io
import json
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.cli import main
from errcat.scan import (
    EVENT_FIELDS,
    LogSourceError,
    ScanStats,
    read_log,
    scan_chunks,
    scan_paths,
    scan_text,
    summarize,
)

SEED_MESSAGE = (
    "DeepEP v2 MoE is not validated as a speculative draft backend. "
    "Select another --speculative-moe-a2a-backend."
)
SEED_ID = "3fe9ad44079a5344"


# -- real tracebacks, made by raising ---------------------------------------------


def _raise(message: str) -> None:
    raise ValueError(message)


def _formatted(make: int) -> list[str]:
    try:
        if make == 0:
            _raise(SEED_MESSAGE)
        elif make == 1:
            try:
                shards: dict[str, int] = {}
                shards["shard"] += 1
            except KeyError as exc:
                raise RuntimeError("Capture failed: 'shard'") from exc
        else:
            try:
                int("x")
            except ValueError:
                _raise("tokenizer not found at '/models/x'")
    except Exception as exc:  # the exception to format
        lines = "".join(traceback.format_exception(exc)).rstrip("\n").split("\n")
        if make == 0:
            # Raised where the seed record says it is, as an installed sglang would show
            # it: the frame is evidence for the record.
            seed = Catalog.bundled().get(SEED_ID)
            assert seed is not None and seed.file_path.startswith("python/")
            installed = seed.file_path.removeprefix("python/")
            site = f'  File "/usr/lib/python3/site-packages/{installed}", line {seed.line_number},'
            lines = [
                f"{site} in _raise" if line.endswith(", in _raise") else line for line in lines
            ]
        return lines
    raise AssertionError


TRACEBACKS = [_formatted(n) for n in range(3)]
FINAL = [("ValueError", SEED_MESSAGE), ("RuntimeError", "Capture failed: 'shard'")]


def test_tracebacks_are_real_and_chained() -> None:
    assert TRACEBACKS[0][0] == "Traceback (most recent call last):"
    assert any("direct cause" in line for line in TRACEBACKS[1])
    assert any("During handling" in line for line in TRACEBACKS[2])


# -- examples ---------------------------------------------------------------------


def lines_of(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def test_traceback_after_a_log_message_is_one_event_with_its_line_range(bundled: Catalog) -> None:
    tb = TRACEBACKS[0]
    log = [
        "[2026-01-02 03:04:04 TP0] Decode batch. #running-req: 1\n",
        f"[2026-01-02 03:04:05 TP3] Scheduler hit an exception: {tb[0]}\n",
        *(line + "\n" for line in tb[1:]),
        "[2026-01-02 03:04:06] Received sigquit from a child process.\n",
    ]
    (event,) = scan_chunks(log, "a.log", catalog=bundled)
    assert (event.path, event.start_line, event.end_line) == ("a.log", 2, 1 + len(tb))
    assert (event.error_class, event.message) == FINAL[0]
    assert event.record_id == SEED_ID and event.exact and event.confidence >= 0.5


def test_a_chain_is_one_event_reported_with_its_final_exception() -> None:
    tb = TRACEBACKS[1]
    after = "INFO 03-06 10:05:08 [x.py:1] after\n"
    events = scan_text("INFO start\n" + "\n".join(tb) + "\n" + after)
    assert [(e.start_line, e.end_line, e.error_class, e.message) for e in events] == [
        (2, 1 + len(tb), *FINAL[1])
    ]


def test_interleaved_ranks_are_kept_apart() -> None:
    tb = TRACEBACKS[0]
    log = []
    for line in tb:
        log.append(f"(Worker_TP1 pid=88) {line}\n")
        log.append(f"(Worker_TP0 pid=87) {line}\n")
    log.append("(Worker_TP0 pid=87) INFO 03-06 10:05:08 [worker.py:1] exiting\n")
    events = scan_chunks(log)
    assert [(e.start_line, e.end_line, e.message) for e in events] == [
        (1, 2 * len(tb) - 1, SEED_MESSAGE),
        (2, 2 * len(tb), SEED_MESSAGE),
    ]


def test_bare_lines_are_events_and_noise_is_not() -> None:
    text = (
        "[2026-01-02 03:04:05 TP1] Prefill batch. Exception handling: on, ErrorRate=0\n"
        "[2026-01-02 03:04:05 TP1] KeyError: 'layers.0.weight'\n"
        "INFO 03-06 10:05:08 [engine.py:190] error_rate=0 Warning count 0\n"
        "api_1 | RuntimeError('engine died')\n"
        '[2026-01-02 03:04:06] {"object":"error","message":"bad top_p",'
        '"type":"BadRequestError","code":400}\n'
    )
    found = [(e.start_line, e.error_class, e.message) for e in scan_text(text)]
    assert found == [
        (2, "KeyError", "'layers.0.weight'"),
        (4, "RuntimeError", "engine died"),
        (5, "BadRequestError", "bad top_p"),
    ]


def test_message_tips_continue_until_the_next_log_record() -> None:
    text = (
        "[2026-01-02 03:04:05 TP0] ValueError: capture failed. Try:\n"
        "  1. lower --mem-fraction-static\n"
        "  2. disable cuda graph\n"
        "[2026-01-02 03:04:06 TP0] next record\n"
    )
    (event,) = scan_text(text)
    assert (event.start_line, event.end_line) == (1, 3)
    assert event.message.endswith("2. disable cuda graph")


def test_ansi_colours_and_crlf_line_ends() -> None:
    text = "ok\r\n\x1b[31mValueError\x1b[0m: red\r\nINFO 03-06 10:05:08 [x.py:1] more\r\n"
    (event,) = scan_text(text)
    assert (event.start_line, event.error_class, event.message) == (2, "ValueError", "red")


def _raise_group() -> None:
    group = getattr(builtins, "ExceptionGroup")  # noqa: B009 - Python 3.11+, mypy checks 3.10
    raise group("two failed", [ValueError("a"), KeyError("b")])


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exception groups exist from Python 3.11")
def test_exception_group_is_one_event_named_by_the_group() -> None:
    try:
        _raise_group()
    except Exception as exc:  # the group to format
        tb = "".join(traceback.format_exception(exc)).rstrip("\n").split("\n")
    events = scan_text("start\n" + "\n".join(tb) + "\nINFO 03-06 10:05:08 [x.py:1] done\n")
    assert [(e.start_line, e.end_line, e.error_class) for e in events] == [
        (2, 1 + len(tb), "ExceptionGroup")
    ]


def test_a_traceback_cut_before_its_exception_is_counted_not_reported() -> None:
    stats = ScanStats()
    events = list(scan_chunks(["\n".join(TRACEBACKS[0][:3]) + "\n"], stats=stats))
    assert events == []
    assert (stats.incomplete, stats.lines) == (1, 3)


def test_events_come_out_in_start_order_and_as_dicts() -> None:
    events = scan_text("TypeError: b\nnoise\nKeyError: 'a'\n")
    assert [e.start_line for e in events] == [1, 3]
    assert list(events[0].to_dict()) == list(EVENT_FIELDS)


def test_chunks_must_be_text() -> None:
    with pytest.raises(TypeError, match="must be str"):
        list(scan_chunks([b"bytes"]))  # type: ignore[list-item]


# -- properties -------------------------------------------------------------------


@dataclass
class Planted:
    lines: list[str]
    ranges: list[tuple[int, int]]


def _noise(draw: st.DrawFn, tag: int) -> str:
    kind = draw(st.integers(0, 2))
    n = draw(st.integers(0, 999))
    if kind == 0:
        return f"[2026-01-02 03:04:{n % 60:02d} TP{tag}] Decode batch. #running-req: {n}"
    if kind == 1:
        return f"(Worker_TP{tag} pid={80 + tag}) INFO 03-06 10:05:08 [metrics.py:4] tokens {n}"
    return f'[2026-01-02 03:04:05] INFO:     127.0.0.1:{n} - "POST /generate HTTP/1.1" 200'


@st.composite
def planted_logs(draw: st.DrawFn) -> Planted:
    """Noise with k real events planted: contiguous sglang-style blocks, bare lines, and
    every-line-prefixed worker tracebacks interleaved with other streams line by line."""
    lines: list[str] = []
    ranges: list[tuple[int, int]] = []
    for _ in range(draw(st.integers(0, 4))):
        for _ in range(draw(st.integers(0, 6))):
            lines.append(_noise(draw, draw(st.integers(0, 3))))
        style = draw(st.integers(0, 2))
        tb = TRACEBACKS[draw(st.integers(0, 2))]
        first = len(lines) + 1
        if style == 0:  # sglang: prefix on the first line only, header after a message
            tp = draw(st.integers(0, 3))
            lines.append(f"[2026-01-02 03:04:05 TP{tp}] Scheduler hit an exception: {tb[0]}")
            lines.extend(tb[1:])
            ranges.append((first, len(lines)))
            lines.append(_noise(draw, tp))
        elif style == 1:
            lines.append(f"[2026-01-02 03:04:05 TP{draw(st.integers(0, 3))}] ValueError: x")
            ranges.append((first, first))
        else:  # workers 4..7, interleaved at random with each other and with noise
            workers = draw(st.lists(st.integers(4, 7), min_size=1, max_size=3, unique=True))
            queues = {w: [f"(Worker_TP{w} pid={80 + w}) {line}" for line in tb] for w in workers}
            starts: dict[int, int] = {}
            while queues:
                pick = draw(st.sampled_from([*sorted(queues), -1]))
                if pick == -1:
                    lines.append(_noise(draw, draw(st.integers(0, 3))))
                    continue
                starts.setdefault(pick, len(lines) + 1)
                lines.append(queues[pick].pop(0))
                if not queues[pick]:
                    del queues[pick]
                    ranges.append((starts[pick], len(lines)))
                    closer = f"(Worker_TP{pick} pid={80 + pick}) INFO 03-06 10:05:09 [w.py:1] bye"
                    lines.append(closer)
    lines.extend(_noise(draw, 0) for _ in range(draw(st.integers(0, 3))))
    return Planted(lines, sorted(ranges))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(planted_logs())
def test_planted_events_are_found_exactly_with_their_line_ranges(planted: Planted) -> None:
    catalog = Catalog.bundled()
    events = scan_chunks((line + "\n" for line in planted.lines), catalog=catalog)
    assert [(e.start_line, e.end_line) for e in events] == planted.ranges


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(planted_logs(), st.lists(st.integers(1, 200), min_size=1, max_size=20))
def test_how_the_text_is_chunked_does_not_matter(planted: Planted, sizes: list[int]) -> None:
    text = "".join(line + "\n" for line in planted.lines)
    chunks: list[str] = []
    pos = 0
    while pos < len(text):
        size = sizes[len(chunks) % len(sizes)]
        chunks.append(text[pos : pos + size])
        pos += size
    whole = scan_text(text)
    assert list(scan_chunks(chunks)) == whole
    assert list(scan_chunks(lines_of(text))) == whole


FRAGMENTS = [
    "Traceback (most recent call last):",
    '  File "x.py", line 1, in f',
    "ValueError: ",
    "Exception",
    "Error(",
    "[2026-01-02 03:04:05 TP1] ",
    "(Worker pid=1) ",
    "The above exception was the direct cause of the following exception:",
    "\n",
    "\r",
    "\x1b[31m",
    "    ",
    "{",
    '"type":"E',
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=8), max_size=40).map("".join))
def test_any_text_scans_without_raising(text: str) -> None:
    stats = ScanStats()
    events = list(scan_chunks([text], stats=stats))
    total = text.count("\n") + (not text.endswith("\n") and bool(text))
    assert stats.lines == total
    for event in events:
        assert 1 <= event.start_line <= event.end_line <= max(total, 1)


# -- files and the command ----------------------------------------------------------


def run(*argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        list(argv),
        stdin=io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"),
        stdout=out,
        stderr=err,
    )
    return code, out.getvalue(), err.getvalue()


SEED_LOG = "INFO ok\n" + "\n".join(TRACEBACKS[0]) + "\nINFO 03-06 10:05:08 [x.py:1] after\n"


def test_scan_json_lists_events_and_exits_0(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text(SEED_LOG)
    code, out, err = run("scan", "--json", str(log))
    assert code == 0
    (row,) = [json.loads(line) for line in out.splitlines()]
    assert list(row) == list(EVENT_FIELDS)
    assert row["record_id"] == SEED_ID and row["start_line"] == 2
    assert row["end_line"] == 1 + len(TRACEBACKS[0])
    assert "1 event(s)" in err


def test_scan_reads_gzip_and_stdin_and_exits_1_on_noise(tmp_path: Path) -> None:
    gz = tmp_path / "a.log.gz"
    gz.write_bytes(gzip.compress(SEED_LOG.encode()))
    code, out, _ = run("scan", "--json", str(gz))
    assert code == 0 and json.loads(out)["record_id"] == SEED_ID
    code, out, _ = run("scan", "--json", "-", stdin=gzip.compress(SEED_LOG.encode()))
    assert code == 0 and json.loads(out)["path"] == "<stdin>"
    code, out, _ = run("scan", "-", stdin=b"INFO nothing to see\n")
    assert (code, out) == (1, "")


def test_an_unreadable_file_is_reported_and_the_scan_goes_on(tmp_path: Path) -> None:
    good = tmp_path / "good.log"
    good.write_text(SEED_LOG)
    broken = tmp_path / "broken.log.gz"
    broken.write_bytes(gzip.compress(SEED_LOG.encode())[:-12] + b"garbage")
    code, out, err = run("scan", "--json", str(tmp_path / "missing.log"), str(broken), str(good))
    assert code == 2
    assert "missing.log: cannot open" in err and "broken.log.gz: damaged after" in err
    paths = [json.loads(line)["path"] for line in out.splitlines()]
    assert paths[-1] == str(good)
    assert "2 unreadable" in err


def test_zstd_is_read_or_named_as_a_missing_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    zstandard = pytest.importorskip("zstandard")
    log = tmp_path / "a.log.zst"
    log.write_bytes(zstandard.ZstdCompressor().compress(SEED_LOG.encode()))
    assert "".join(read_log(log)) == SEED_LOG
    monkeypatch.setitem(sys.modules, "zstandard", None)
    monkeypatch.setitem(sys.modules, "compression", None)
    with pytest.raises(LogSourceError, match=r"errcat\[zstd\]") as caught:
        list(read_log(log))
    assert isinstance(caught.value, OSError) and caught.value.path == str(log)


def test_a_zstd_bomb_is_decompressed_a_few_mib_at_a_time(tmp_path: Path) -> None:
    """A 2 KiB zstd of 64 MiB of zeros came out of one 4 KiB step whole (a 1 GiB one took
    550 MiB to scan): zstd's output per compressed byte is up to 32,768 times more."""
    import io

    from errcat.scan.logs import _unzstd

    zstandard = pytest.importorskip("zstandard")
    packer = zstandard.ZstdCompressor().compressobj()
    data = b"".join(packer.compress(b"\0" * (1 << 20)) for _ in range(64)) + packer.flush()
    sizes = [len(block) for block in _unzstd(io.BytesIO(data), "zeros.zst")]
    assert sum(sizes) == 64 << 20
    assert max(sizes) <= 4 << 20


def test_summary_counts_by_record_most_frequent_first(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text(SEED_LOG + "KeyError: 'a'\nINFO 03-06 10:05:08 [x.py:1] ok\n" + SEED_LOG)
    code, out, _ = run("scan", "--summary", str(log))
    assert code == 0
    rows = out.splitlines()
    assert rows[0].split() == ["events", "files", "record", "class", "slug"]
    assert rows[1].split()[:3] == ["2", "1", SEED_ID]
    assert rows[2].split()[:4] == ["1", "1", "-", "KeyError"]
    assert rows[2].endswith("(no record)")
    code, out, _ = run("scan", "--summary", "--json", str(log))
    assert [json.loads(line)["events"] for line in out.splitlines()] == [2, 1]


def test_scan_paths_keeps_stats_and_summarize_matches_the_cli(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text(SEED_LOG * 3)
    stats = ScanStats()
    events = list(scan_paths([log], stats=stats))
    assert (stats.files, stats.events, stats.lines) == (1, 3, 3 * SEED_LOG.count("\n"))
    assert summarize(events) == [
        {"record_id": SEED_ID, "error_class": "ValueError", "events": 3, "files": 1}
    ]


def test_a_line_longer_than_a_block_is_read_whole() -> None:
    long_line = "x " * (1 << 20) + "ValueError: at the end\n"
    chunks = [long_line[i : i + 4096] for i in range(0, len(long_line), 4096)]
    events = list(scan_chunks([*chunks, "KeyError: 'next'\n"]))
    assert [(e.start_line, e.error_class) for e in events] == [(1, "ValueError"), (2, "KeyError")]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_on_a_terminal_only(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text(SEED_LOG)
    shown = _Terminal()
    assert main(["scan", str(log)], stdout=io.StringIO(), stderr=shown) == 0
    assert "\r\x1b[Kscanning file 1/1" in shown.getvalue()  # one StatusLine for every command
    code, _, err = run("scan", str(log))
    assert code == 0 and "scanning file" not in err


def test_classes_whose_names_do_not_end_in_error_are_events() -> None:
    """Case 12 of issue 28: these five were all the 47 events a 1,175-event fleet test missed."""
    lines = [
        "ERROR re.error: multiple repeat at position 2",
        "StopIteration: 8",
        "decimal.DivisionByZero: x / 0",
        "io.UnsupportedOperation: not readable",
        "poplib.error_proto: -ERR bad",
        "INFO Timeout: 3 s, error: none",  # ordinary words, not classes
        "Traceback (most recent call last):",
        '  File "/srv/app/x.py", line 3, in f',
        "mypkg.Timeout: took too long",
        "[2026-01-02 03:04:05 TP0] later",
        "mypkg.Timeout: took too long again",  # a class a traceback in the file showed
    ]
    events = scan_text("\n".join(lines) + "\n", catalog=Catalog([]))
    assert [(e.start_line, e.error_class) for e in events] == [
        (1, "re.error"),
        (2, "StopIteration"),
        (3, "decimal.DivisionByZero"),
        (4, "io.UnsupportedOperation"),
        (5, "poplib.error_proto"),
        (7, "mypkg.Timeout"),
        (11, "mypkg.Timeout"),
    ]


def test_an_error_line_right_after_a_traceback_is_its_own_event() -> None:
    """Case 11: it was folded into the traceback's event, whose own exception was lost."""
    text = (
        "[2026-01-02 03:04:05 TP1] Traceback (most recent call last):\n"
        '[2026-01-02 03:04:05 TP1]   File "/srv/app/x.py", line 3, in f\n'
        "[2026-01-02 03:04:05 TP1] RuntimeError: first\n"
        "KeyError: 'second'\n"
    )
    events = scan_text(text, catalog=Catalog([]))
    assert [(e.start_line, e.error_class, e.message) for e in events] == [
        (1, "RuntimeError", "first"),
        (4, "KeyError", "'second'"),
    ]


def test_a_damaged_gzip_keeps_what_was_readable_and_says_so(tmp_path: Path) -> None:
    """Case 10: a truncated gzip (or one with trailing bytes) lost up to 1 MiB before it."""
    data = gzip.compress(SEED_LOG.encode(), mtime=0)
    for name, damaged in (("cut.log.gz", data[:-8]), ("trailing.log.gz", data + b"junk!")):
        path = tmp_path / name
        path.write_bytes(damaged)
        stats = ScanStats()
        events = list(scan_paths([path], catalog=Catalog([]), stats=stats))
        assert [e.start_line for e in events] == [2]
        assert stats.unreadable and "damaged after" in stats.unreadable[0][1]
