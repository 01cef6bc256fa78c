"""A logged message's record (tag errcat:logged) answers a log line, not a traceback beside it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.advice import Advice
from errcat.catalog import Catalog
from errcat.matcher import match_error
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern
from errcat.tags import LOGGED_TAG

LOGGED = "Received sigquit from a child process. It usually means the child failed."
RAISED = "Not enough memory for the decode buffers of {count} requests"


def _envelope(rid: str, template: str, cls: str, tags: list[str]) -> RecordEnvelope:
    return make_envelope(
        id=rid,
        slug=rid,
        errorMessage=template,
        messagePattern=template_to_pattern(template),
        errorClass=cls,
        tags=tags,
    )


CATALOG = Catalog(
    [
        _envelope("aaaaaaaaaaaaaaa1", LOGGED, "ERROR", [LOGGED_TAG]),
        _envelope("bbbbbbbbbbbbbbb1", RAISED, "RuntimeError", []),
    ]
)
TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.11/site-packages/project/core.py", line 12, in init\n'
    "    reserve(count)\n"
    "RuntimeError: Not enough memory for the decode buffers of 48 requests\n"
)
log_prefixes = st.sampled_from(
    ["", "[2026-03-02 10:11:12] ", "ERROR 03-06 10:05:08 [launch.py:190] ", "(APIServer pid=9) "]
)


@settings(max_examples=30, deadline=None)
@given(prefix=log_prefixes, after=st.booleans())
def test_a_log_line_beside_a_traceback_does_not_answer_for_it(prefix: str, after: bool) -> None:
    line = f"{prefix}{LOGGED}\n"
    text = TRACEBACK + line if after else line + TRACEBACK
    found = match_error(text, catalog=CATALOG)
    assert found is not None and found.record.id == "bbbbbbbbbbbbbbb1"


@settings(max_examples=20, deadline=None)
@given(prefix=log_prefixes)
def test_a_log_line_alone_is_answered_by_its_record(prefix: str) -> None:
    found = match_error(f"{prefix}{LOGGED}", catalog=CATALOG)
    assert found is not None and found.record.id == "aaaaaaaaaaaaaaa1"
    # Where it was printed is a log call, not a raise.
    assert "\n  logged at " in Advice.from_match(found).to_text()


def test_a_raised_record_still_says_raised() -> None:
    found = match_error(TRACEBACK, catalog=CATALOG)
    assert found is not None and "\n  raised at " in Advice.from_match(found).to_text()
