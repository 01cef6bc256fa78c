"""An HTTP status named beside its cause does not answer (errcat.matcher.status_cause)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD, status_envelope
from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.matcher import match_error
from errcat.matcher.status_cause import states_reason, yields_to_cause

CATALOG = Catalog(
    [status_envelope(1, 400, "Bad Request"), status_envelope(2, 500, "Internal Server Error")]
)


@settings(max_examples=60, deadline=None)
@given(
    before=st.lists(ZQ_WORD, min_size=1, max_size=4),
    after=st.lists(ZQ_WORD, max_size=4),
    which=st.sampled_from(["400 Bad Request", "500 Internal Server Error"]),
    sep=st.sampled_from([" when calling ", " - ", " on ", ", "]),
)
def test_a_status_named_alone_answers(
    before: list[str], after: list[str], which: str, sep: str
) -> None:
    """The writer's words around the status (after a dash or comma too) leave it the answer."""
    text = " ".join([*before, "got", which]) + sep + " ".join(["zqcall", *after])
    found = match_error(text, catalog=CATALOG)
    assert found is not None and found.mode == "phrase"
    assert f"http-status-{which.split(maxsplit=1)[0]}" in found.record.tags


@settings(max_examples=60, deadline=None)
@given(
    before=st.lists(ZQ_WORD, max_size=3),
    reason=st.lists(ZQ_WORD, min_size=3, max_size=6),
    lead=st.sampled_from([" saying ", ", saying ", " with error: ", " because ", " due to "]),
    which=st.sampled_from(["400 Bad Request", "500 Internal Server Error"]),
)
def test_a_status_with_its_reason_stated_does_not_answer(
    before: list[str], reason: list[str], lead: str, which: str
) -> None:
    """The server's reason after the status is the error: no record explains it here."""
    text = " ".join([*before, "got", which]) + lead + " ".join(reason)
    assert match_error(text, catalog=CATALOG) is None


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(ZQ_WORD, min_size=3, max_size=6),
    cls=st.sampled_from(["ValueError", "RuntimeError", "vllm.zq.ZqError"]),
)
def test_a_status_beside_an_exception_of_its_own_does_not_answer(
    words: list[str], cls: str
) -> None:
    """The client's status line with the server's exception inside it: the cause is the error."""
    cause = " ".join(words)
    text = (
        "openai.InternalServerError: internal server error; "
        f"status 500 Internal Server Error {cls}('{cause}')"
    )
    assert match_error(text, catalog=CATALOG) is None
    inside = f"openai.InternalServerError: got 500 Internal Server Error\n{cls}: {cause}"
    assert match_error(inside, catalog=CATALOG) is None


def test_a_cause_that_is_itself_a_status_is_no_cause() -> None:
    """Another report naming a status (requests' '500 Server Error: ...') is the same status."""
    text = "HTTPError: 500 Server Error: Internal Server Error for url: http://zqa:8000/v1"
    reports = extract_reports(text)
    message = reports[0].message
    end = message.index("Internal Server Error") + len("Internal Server Error")
    start = message.index("Internal Server Error")
    assert not yields_to_cause(reports[0], reports[:1], message, (start, len(message)))
    assert yields_to_cause(reports[0], reports, message, (start, end)) is states_reason(
        message, end
    )


@settings(max_examples=40, deadline=None)
@given(words=st.lists(ZQ_WORD, min_size=4, max_size=7), cls=st.sampled_from(["ValueError: ", ""]))
def test_a_status_under_a_logged_exception_does_not_answer(words: list[str], cls: str) -> None:
    """An exception logged above the access line is the cause; a log line with no class is not."""
    text = (
        f"ERROR 08-09 09:58:19 [zqsched.py:18] {cls}{' '.join(words)}\n"
        'INFO:     127.0.0.1:37932 - "POST /v1/chat/completions HTTP/1.1" '
        "500 Internal Server Error"
    )
    found = match_error(text, catalog=CATALOG)
    if cls:
        assert found is None
    else:
        assert found is not None and "http-status-500" in found.record.tags
