"""Ray's dual class ``W(X)``: class evidence for both names, and the record tagged for ``W(X)``."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.matcher import match_error
from errcat.matcher.classes import _class_state
from errcat.models import EXAMPLE_ENVELOPE_JSON, ErrorRecord, RecordEnvelope
from errcat.store import RecordSummary

_BASE = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
#: Class names no project raises: "Zq" and letters, capitalised as classes are.
_NAME = st.text(alphabet="abcdefghij", min_size=2, max_size=6).map(lambda w: "Zq" + w + "Error")


def _record(n: int, cls: str, message: str, pattern: str, *tags: str) -> ErrorRecord:
    fields = {"error_class": cls, "error_message": message, "message_pattern": pattern}
    return _BASE.model_copy(update={"id": f"{n:016x}", "tags": tags, **fields})


def _wrapper(outer: str) -> ErrorRecord:
    return _record(
        1,
        f"zqpkg.{outer}",
        "zq::{f}() (pid={pid})",
        r"zq::(\S+?)\(\) \(pid=(\d+)\)",
        "errcat:wrapper",
    )


def _cause(n: int, inner: str, tagged_for: str) -> ErrorRecord:
    text = f"zqnode {inner.lower()} ran out of zqroom"
    return _record(n, f"zqpkg.{inner}", text, text, f"errcat:dual-cause:{tagged_for}")


@given(outer=_NAME, inner=_NAME)
def test_a_dual_class_agrees_with_its_wrapper_and_its_cause(outer: str, inner: str) -> None:
    report = extract_reports(f"zqpkg.{outer}({inner}): zq::zqrun() (pid=7)")[0]
    for cls in (f"zqpkg.{outer}", f"zqpkg.{inner}"):
        summary = RecordSummary.of(_BASE.model_copy(update={"error_class": cls}))
        assert _class_state(report, summary) == "custom"
    other = RecordSummary.of(_BASE.model_copy(update={"error_class": "zqpkg.ZqOtherThing"}))
    if "ZqOtherThing" not in (outer, inner):
        assert _class_state(report, other) == "disagree"


@given(outer=_NAME, inner=_NAME, other=_NAME)
def test_the_record_tagged_for_the_dual_class_answers_when_the_cause_line_is_cut(
    outer: str, inner: str, other: str
) -> None:
    paste = f"zqpkg.{outer}({inner}): zq::zqrun() (pid=7)"
    tagged = _cause(2, inner, f"{outer}({inner})")
    found = match_error(paste, catalog=Catalog([_wrapper(outer), tagged]))
    assert found is not None
    assert found.summary.id == tagged.id
    assert found.related[0].summary.id == _wrapper(outer).id
    if other != inner:
        elsewhere = _cause(3, other, f"{outer}({other})")
        alone = match_error(paste, catalog=Catalog([_wrapper(outer), elsewhere]))
        assert alone is not None and alone.summary.id == _wrapper(outer).id


@given(outer=_NAME, inner=_NAME)
def test_two_records_tagged_for_one_dual_class_leave_the_wrapper(outer: str, inner: str) -> None:
    paste = f"zqpkg.{outer}({inner}): zq::zqrun() (pid=7)"
    twins = [_cause(2, inner, f"{outer}({inner})"), _cause(3, inner + "b", f"{outer}({inner})")]
    found = match_error(paste, catalog=Catalog([_wrapper(outer), *twins]))
    assert found is not None and found.summary.id == _wrapper(outer).id
