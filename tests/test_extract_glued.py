"""A writer's colon glued to the message it introduces (errcat.extract.glued)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD, templates_catalog
from errcat.extract import extract_reports
from errcat.extract.forms import message_forms
from errcat.extract.glued import unglued
from errcat.matcher import match_error

TEMPLATE = "Zqshard {index} could not be assigned to any zqworker of the zqpool"
CATALOG = templates_catalog(TEMPLATE)


@settings(max_examples=60, deadline=None)
@given(
    lead=st.lists(ZQ_WORD, min_size=1, max_size=4),
    word=st.sampled_from(["error", "failed", "problem", "zqoops"]),
    value=st.integers(min_value=0, max_value=999),
    tag=st.sampled_from(["", "[Bug]: ", "[Usage] "]),
)
def test_a_title_with_a_glued_colon_reads_as_the_spaced_one(
    lead: list[str], word: str, value: int, tag: str
) -> None:
    """The message after "<words> error:" is a form of its own and answers as the spaced one."""
    message = TEMPLATE.format(index=value)
    spaced = f"{tag}{' '.join(lead)} {word}: {message}"
    glued = f"{tag}{' '.join(lead)} {word}:{message}"
    (report,) = extract_reports(glued)
    assert message in message_forms(report)
    found = match_error(glued, catalog=CATALOG)
    assert found is not None and found.record.error_message == TEMPLATE
    expected = match_error(spaced, catalog=CATALOG)
    assert expected is not None and expected.record.id == found.record.id


@settings(max_examples=100, deadline=None)
@given(text=st.text(alphabet="abcXYZ:/ 019.", max_size=40))
def test_unglued_only_adds_spaces_after_colons(text: str) -> None:
    """Nothing is taken away or moved: the text comes back with spaces after some colons."""
    spaced = unglued(text)
    if spaced is None:
        return
    assert spaced != text
    assert spaced.replace(": ", ":") == text.replace(": ", ":")
    assert spaced.count(":") == text.count(":")


def test_times_urls_and_module_references_are_not_glues() -> None:
    """A colon with a digit, a slash or a lowercase word after it is the text's own."""
    for text in ("at 14:31:48", "see http://zqhost:8000/v1", "zqpkg.zqmod:main", "C:\\zq"):
        assert unglued(text) is None
