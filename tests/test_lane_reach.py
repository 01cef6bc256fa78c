"""Tests of benchmarks/lane_reach.py's counts on tiny catalogs (the real run is at 100k)."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from conftest import ZQ_WORD
from errcat import Catalog, match_error
from errcat.index import PatternIndex
from errcat.models import EXAMPLE_ENVELOPE_JSON, ErrorRecord, RecordEnvelope

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import lane_reach  # noqa: E402

_RECORD = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record


def _record(n: int, message: str, pattern: str, error_class: str = "ValueError") -> ErrorRecord:
    return _RECORD.model_copy(
        update={
            "id": f"{n:016x}",
            "error_class": error_class,
            "error_message": message,
            "message_pattern": pattern,
        }
    )


def test_own_lines_are_the_all_literal_records_lines_under_each_class() -> None:
    catalog = Catalog(
        [
            _record(1, "zqa is gone", "zqa is gone"),
            _record(2, "zqa is gone", "zqa is gone", "KeyError"),
            _record(3, "zqb {n} left", "zqb (.+?) left"),
        ]
    )
    assert lane_reach.own_lines(catalog) == {"ValueError: zqa is gone", "KeyError: zqa is gone"}


def test_a_word_that_files_no_pattern_leaves_the_index_silent() -> None:
    index = PatternIndex(["zqa went (.+?) away", "zqb stayed"])
    assert lane_reach.files_a_pattern([index], "zqb at last")
    assert not lane_reach.files_a_pattern([index], "zqc at last")


def test_whole_matches_count_worded_patterns_only() -> None:
    index = PatternIndex(["zqa went (.+?) away", "(.+?)", "zqa went (.+?)"])
    # "(.+?)" matches anything but has no word of its own; "zqa went (.+?)" matches too.
    assert lane_reach.whole_matches([index], "zqa went far away") == 2
    assert lane_reach.whole_matches([index], "zqc") == 0


@given(words=st.lists(ZQ_WORD, min_size=2, max_size=5, unique=True))
def test_an_own_line_is_answered_with_its_record(words: list[str]) -> None:
    """The lane's premise: an all-literal record's own line is answered by that record."""
    message = " ".join(words)
    catalog = Catalog([_record(1, message, message), _record(2, "zqzq {n}", "zqzq (.+?)")])
    (line,) = (t for t in lane_reach.own_lines(catalog) if t.endswith(message))
    found = match_error(line, catalog=catalog)
    assert found is not None
    assert found.record.id == f"{1:016x}"


def test_message_of_keeps_a_line_without_a_class_whole() -> None:
    assert lane_reach.message_of("zq zqa: zqb") == "zq zqa: zqb"
    assert lane_reach.message_of("zq.ZqError:  zqa\n zqb") == "zqa zqb"
