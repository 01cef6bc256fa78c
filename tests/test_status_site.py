"""A status phrase inside a client's message, or after an application's words.

See errcat.matcher.status_site and errcat.matcher.status_number.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD, make_envelope, status_envelope
from errcat.catalog import Catalog
from errcat.matcher import match_error
from errcat.matcher.status_number import names_operation, numeric_phrase
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern
from errcat.tags import WRAPPER_TAG


def _server(code: int, phrase: str) -> RecordEnvelope:
    return status_envelope(code, code, phrase, f"status code {code}")


def _client(code: int) -> RecordEnvelope:
    message = f"Server error '{code} {{reason}}' for url '{{url}}'"
    return make_envelope(
        id=f"{code + 1000:016x}",
        slug=f"client-{code}",
        errorMessage=message,
        messagePattern=template_to_pattern(message),
        errorClass="httpx.HTTPStatusError",
        repo="encode/httpx",
        filePath="httpx/_models.py",
        tags=[WRAPPER_TAG, "http", f"http-status-{code}"],
    )


CATALOG = Catalog([_server(503, "Service Unavailable"), _client(503), _server(404, "Not Found")])


@settings(max_examples=50, deadline=None)
@given(
    host=ZQ_WORD,
    note=st.lists(ZQ_WORD, min_size=2, max_size=6),
    lead=st.sampled_from(["Error: ", "(zqproc pid=7) Error: ", ""]),
)
def test_a_clients_message_around_the_status_names_the_client(
    host: str, note: list[str], lead: str
) -> None:
    """slime-683 (census dev): httpx's message, its own lines after it, under a Rust prefix."""
    text = (
        f"{lead}Server error '503 Service Unavailable' for url 'http://{host}:80/generate'\n"
        f"For more information check: {' '.join(note)}"
    )
    found = match_error(text, catalog=CATALOG)
    assert found is not None and found.record.repo == "encode/httpx"


@settings(max_examples=50, deadline=None)
@given(before=st.lists(ZQ_WORD, min_size=1, max_size=4), after=st.lists(ZQ_WORD, max_size=3))
def test_a_status_named_by_a_writer_still_names_the_servers_record(
    before: list[str], after: list[str]
) -> None:
    text = " ".join([*before, "got 503 Service Unavailable", *after])
    found = match_error(text, catalog=CATALOG)
    assert found is not None and found.record.repo == "Kludex/uvicorn"


@settings(max_examples=50, deadline=None)
@given(subject=st.lists(ZQ_WORD, min_size=2, max_size=4))
def test_a_status_number_after_an_applications_failure_names_nothing(subject: list[str]) -> None:
    """dify-13297 (census dev): 'Credentials validation failed with status code 404'."""
    text = " ".join(subject).capitalize() + " failed with status code 404"
    assert names_operation(text, text.index("status"))
    assert match_error(text, catalog=CATALOG) is None


@settings(max_examples=50, deadline=None)
@given(
    lead=st.sampled_from(["Request failed", "[Bug] request failed", "Unexpected", "got"]),
    rest=st.lists(ZQ_WORD, max_size=3),
)
def test_a_status_number_after_generic_words_still_names_the_status(
    lead: str, rest: list[str]
) -> None:
    """axios' own words, a poller's, a writer's 'got': the status is all there is."""
    text = " ".join([lead, "with status code 404" if "failed" in lead else "status code 404"])
    text = " ".join([text, *rest])
    found = match_error(text, catalog=CATALOG)
    assert found is not None and "http-status-404" in found.record.tags


def test_only_a_bare_number_is_a_numeric_phrase() -> None:
    assert numeric_phrase("status code: 404") and numeric_phrase("HTTP error 500")
    assert not numeric_phrase("404 Not Found") and not numeric_phrase("Too Many Requests (429)")
