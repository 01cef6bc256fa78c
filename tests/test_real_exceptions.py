"""Real exceptions raised by real code under its own test suites: errcat must keep finding them.

``tests/data/real_exceptions.jsonl`` is a sample of the corpus that
``benchmarks/harvest.py`` harvests (the standard library's test suite and
those of third-party packages; see ``benchmarks/sample_real_exceptions.py``):
each case holds the forms users paste (the traceback as Python printed it,
the bare ``Class: message`` line, a log line with a server prefix and ANSI
colour) and the ids of the records at its true raise site, taken from the
traceback object. ``real_exceptions_stdlib.jsonl`` and
``real_exceptions_thirdparty.jsonl`` are the slices of the mined catalogs
that the sample meets (its records and their competitors).

The floors are a little below what the matcher scores today; raise them as it
improves, never lower them.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from errcat import Catalog, match_all, match_error

DATA = Path(__file__).parent / "data"
FORMS = ("traceback", "line", "log")

# Measured on this sample with main at 3e98faa (share of the 260 cases, per form):
#   top-1 of match_all:             traceback 0.904, line 0.973, log 0.973
#   right answer from match_error:  traceback 0.819, line 0.931, log 0.931
#   wrong answer from match_error:  traceback 0.062, line 0.012, log 0.012
# The traceback form must find the exact raise line, and scores lower: a frame
# at ``/usr/lib/python3.11/gzip.py`` gives no evidence for a record at
# ``Lib/gzip.py``, so identical messages at several sites tie (issue 9, cause 1).
# With the calibrated confidence (issue 9), measured the same way:
#   top-1 of match_all:             traceback 0.992, line 0.965, log 0.965
#   right answer from match_error:  traceback 0.985, line 0.900, log 0.900
#   wrong answer from match_error:  traceback 0.000, line 0.019, log 0.019
# Tracebacks gained 17 points; bare and log lines lost 3 (answers on wording that
# CPython's C code or another project also raises are now declined).
# With bare lines weighed by text weights of their own and the map calibrated on the
# fit half (threshold chosen there, not on the test half):
#   top-1 of match_all:             traceback 0.992, line 0.965, log 0.965
#   right answer from match_error:  traceback 0.985, line 0.888, log 0.888
#   wrong answer from match_error:  traceback 0.000, line 0.019, log 0.019
# (three cases fewer answered right on bare lines: 231/260 against 234/260).
TOP1_FLOOR = {"traceback": 0.98, "line": 0.95, "log": 0.95}
ANSWER_FLOOR = {"traceback": 0.97, "line": 0.88, "log": 0.88}
#: No form may answer wrongly more often than this (share of cases).
WRONG_CEILING = {"traceback": 0.075, "line": 0.025, "log": 0.025}


@cache
def cases() -> tuple[dict[str, Any], ...]:
    with (DATA / "real_exceptions.jsonl").open(encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


@cache
def catalog(side: str) -> Catalog:
    name = (
        "real_exceptions_stdlib.jsonl" if side == "stdlib" else "real_exceptions_thirdparty.jsonl"
    )
    return Catalog.from_path(DATA / name, strict=True)


@cache
def scores(form: str) -> dict[str, float]:
    counts: Counter[str] = Counter()
    for case in cases():
        right = set(case["right_with_frames" if form == "traceback" else "right_without_frames"])
        text = case["texts"][form]
        cat = catalog(case["catalog"])
        top = match_all(text, cat, limit=1)
        counts["top1"] += bool(top) and top[0].summary.id in right
        answer = match_error(text, cat)
        counts["right"] += answer is not None and answer.summary.id in right
        counts["wrong"] += answer is not None and answer.summary.id not in right
    n = len(cases())
    return {key: counts[key] / n for key in ("top1", "right", "wrong")}


def test_sample_is_varied_and_labelled() -> None:
    sample = cases()
    assert len(sample) >= 250
    projects = Counter(case["project"] for case in sample)
    assert len(projects) >= 16 and "cpython" in projects
    for case in sample:
        assert set(case["texts"]) == set(FORMS)
        assert case["right_with_frames"], case["id"]
        assert set(case["right_with_frames"]) <= set(case["right_without_frames"])
        ids = {record.id for record in catalog(case["catalog"])}
        assert set(case["right_without_frames"]) <= ids, case["id"]
        traceback = case["texts"]["traceback"]
        assert "Traceback (most recent call last):" in traceback
        assert f", line {case['raise_line']}, in " in traceback
        assert case["texts"]["log"].endswith("\x1b[0m")


@pytest.mark.parametrize("form", FORMS)
def test_top1_stays_at_or_above_the_floor(form: str) -> None:
    assert scores(form)["top1"] >= TOP1_FLOOR[form]


@pytest.mark.parametrize("form", FORMS)
def test_answers_stay_right(form: str) -> None:
    got = scores(form)
    assert got["right"] >= ANSWER_FLOOR[form]
    assert got["wrong"] <= WRONG_CEILING[form]
