"""Error lines behind log-level words and vLLM's worker prefixes are events of their own.

Issue 28, case 12 and its leftovers: an exception line after a level word
(``ERROR re.error: ...``, ``2026-01-01 12:00:00 ERROR StopIteration: 8``) is an
event whose message ends at the next log line, also when that line has no
prefix errcat knows (``INFO ok``); vLLM's ``(VllmWorker rank=0 pid=410)``
prefix is a stream, like ``(EngineCore_DP0 pid=123)``, so ranks printing
tracebacks line by line give one event each, with its own class.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.extract.lines import clean_text
from errcat.scan import scan_chunks, scan_text

EMPTY = Catalog([])


def _events(text: str) -> list[tuple[int, int, str, str]]:
    return [
        (e.start_line, e.end_line, e.error_class, e.message) for e in scan_text(text, catalog=EMPTY)
    ]


@pytest.mark.parametrize(
    ("line", "cls", "message"),
    [
        (
            "ERROR re.error: multiple repeat at position 2",
            "re.error",
            "multiple repeat at position 2",
        ),
        ("2026-01-01 12:00:00 ERROR StopIteration: 8", "StopIteration", "8"),
        (
            "2026-01-01 12:00:00,123 ERROR decimal.DivisionByZero: x / 0",
            "decimal.DivisionByZero",
            "x / 0",
        ),
        (
            "[ERROR] io.UnsupportedOperation: not readable",
            "io.UnsupportedOperation",
            "not readable",
        ),
        ("CRITICAL poplib.error_proto: -ERR bad", "poplib.error_proto", "-ERR bad"),
        ("2026-01-01 12:00:00 ERROR ValueError: bad size 3", "ValueError", "bad size 3"),
    ],
)
@pytest.mark.parametrize(
    "after", ["INFO ok", "DEBUG step 3", "WARNING: slow", "2026/01/01 12:00:01 next", "ERROR] x"]
)
def test_an_error_line_behind_a_level_word_is_an_event_and_ends_at_the_next_log_line(
    line: str, cls: str, message: str, after: str
) -> None:
    # The message took the next line before: 'StopIteration: 8\nINFO ok'.
    assert _events(f"INFO start\n{line}\n{after}\nINFO end\n") == [(2, 2, cls, message)]


def test_a_level_word_line_after_a_traceback_is_not_its_message() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/a.py", line 3, in f\n'
        "    g()\n"
        "StopIteration: 8\n"
        "INFO 12 requests served\n"
    )
    assert _events(text) == [(1, 4, "StopIteration", "8")]


def test_a_level_word_error_line_after_another_error_line_is_its_own_event() -> None:
    text = "ValueError: first\nERROR re.error: second at position 1\n"
    assert _events(text) == [
        (1, 1, "ValueError", "first"),
        (2, 2, "re.error", "second at position 1"),
    ]


def test_a_pasted_error_line_does_not_take_the_log_line_after_it() -> None:
    reports = extract_reports("ValueError: bad size 3\nINFO 12 requests served")
    assert [(r.error_class, r.message) for r in reports] == [("ValueError", "bad size 3")]


def test_a_message_still_continues_over_its_own_lines() -> None:
    reports = extract_reports("ValueError: bad size 3\n  expected one of 1, 2")
    assert reports[0].message == "bad size 3\n  expected one of 1, 2"


WORKERS = [
    "(VllmWorker rank=0 pid=410) ",
    "(VllmWorker rank=1 pid=411) ",
    "(VllmWorker TP0 pid=412) ",
    "(EngineCore_DP0 pid=123) ",
    "(APIServer pid=1) ",
    "(RayWorkerWrapper pid=5521, ip=10.0.0.2) ",
]


@pytest.mark.parametrize("prefix", WORKERS)
def test_a_vllm_worker_prefix_is_stripped_like_a_log_prefix(prefix: str) -> None:
    assert clean_text(prefix + "ValueError: x") == "ValueError: x"
    assert clean_text(prefix + "ERROR 03-06 10:05:08 [core.py:12] ValueError: x") == (
        "ValueError: x"
    )


def _traceback(prefix: str, cls: str, message: str) -> list[str]:
    return [
        f"{prefix}Traceback (most recent call last):",
        f'{prefix}  File "/vllm/v1/worker/gpu_worker.py", line 12, in execute',
        f"{prefix}    self.model_runner.execute_model()",
        f"{prefix}{cls}: {message}",
    ]


def test_two_ranks_printing_tracebacks_at_once_give_two_events() -> None:
    """Before: one event (1-6, TypeError); rank 0's KeyError was reported nowhere."""
    first = _traceback("(VllmWorker rank=0 pid=410) ", "KeyError", "'k'")
    second = _traceback("(VllmWorker rank=1 pid=411) ", "TypeError", "t")
    lines = [line for pair in zip(first, second, strict=True) for line in pair]
    text = "\n".join([*lines, "(APIServer pid=1) INFO 01-01 12:00:00 [api.py:3] done"]) + "\n"
    assert _events(text) == [(1, 7, "KeyError", "'k'"), (2, 8, "TypeError", "t")]


# --------------------------------------------------------------------------
# Planted events through random prefixes, counted back.

LEVEL_PREFIXES = [
    "",
    "ERROR ",
    "CRITICAL ",
    "2026-01-01 12:00:00 ERROR ",
    "2026-01-01T12:00:00.5Z ERROR ",
    "2026-01-01 12:00:00,123 - ERROR - app - ",
    "[ERROR] ",
    "ERROR:root:",
    "ERROR 01-01 12:00:00 [core.py:12] ",
]
ODD = [
    "StopIteration",
    "re.error",
    "decimal.DivisionByZero",
    "io.UnsupportedOperation",
    "poplib.error_proto",
    "queue.Empty",
]
PLAIN = ["ValueError", "KeyError", "RuntimeError", "torch.OutOfMemoryError"]
# Log lines without a prefix errcat knows (a level word, a clock): each a record of its own.
NOISE = [
    "INFO served {n} requests",
    "DEBUG step {n} done",
    "WARNING: queue at {n}%",
    "12:00:{n:02d} heartbeat",
    "[2026-01-02 03:04:05 TP0] Decode batch. #running-req: {n}",
]


def _planted_log(seed: int, events: int) -> tuple[str, set[tuple[int, str, str]]]:
    """A log of noise and planted events; the (line, class, message) of each event."""
    rng = random.Random(seed)
    lines: list[str] = []
    planted: set[tuple[int, str, str]] = set()
    for n in range(events):
        for _ in range(rng.randint(1, 3)):
            lines.append(rng.choice(NOISE).format(n=rng.randint(0, 59)))
        message = f"planted {n} value {rng.randint(0, 999)}"
        kind = rng.randrange(3)
        if kind == 0:  # an error line behind a level prefix
            cls = rng.choice(ODD + PLAIN)
            planted.add((len(lines) + 1, cls, message))
            lines.append(f"{rng.choice(LEVEL_PREFIXES)}{cls}: {message}")
        elif kind == 1:  # a worker's traceback, every line prefixed
            cls = rng.choice(ODD + PLAIN)
            planted.add((len(lines) + 1, cls, message))
            lines.extend(_traceback(rng.choice(WORKERS), cls, message))
        else:  # two ranks' tracebacks, line by line interleaved
            a, b = rng.sample(WORKERS[:3], 2)
            cls_a, cls_b = rng.choice(PLAIN), rng.choice(ODD + PLAIN)
            first = _traceback(a, cls_a, message + " a")
            second = _traceback(b, cls_b, message + " b")
            planted.add((len(lines) + 1, cls_a, message + " a"))
            planted.add((len(lines) + 2, cls_b, message + " b"))
            lines.extend(line for pair in zip(first, second, strict=True) for line in pair)
    lines.append("INFO done")
    return "\n".join(lines) + "\n", planted


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 100_000), events=st.integers(1, 30), chunk=st.integers(1, 4000))
def test_planted_events_come_back_through_random_prefixes(
    seed: int, events: int, chunk: int
) -> None:
    text, planted = _planted_log(seed, events)
    chunks = [text[i : i + chunk] for i in range(0, len(text), chunk)]
    found = [(e.start_line, e.error_class, e.message) for e in scan_chunks(chunks, catalog=EMPTY)]
    assert set(found) == planted
    assert len(found) == len(planted)


def test_every_event_planted_through_prefixes_is_found_at_scale(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text, planted = _planted_log(7, 2000)
    found = {(e.start_line, e.error_class, e.message) for e in scan_text(text, catalog=EMPTY)}
    with capsys.disabled():
        print(f"\nscan prefixes: {len(found & planted)} of {len(planted)} planted events found")
    assert found == planted
