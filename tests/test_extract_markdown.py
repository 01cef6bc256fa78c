"""Error lines a Markdown writer wrapped: in backticks or emphasis, the line is read as printed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from errcat.extract import extract_reports

_CLASS = st.sampled_from(["ValueError", "KeyError", "RuntimeError", "AttributeError"])
_MESSAGE = st.from_regex(r"[A-Za-z'][\w' .,:()\[\]-]{0,40}[\w')\]]", fullmatch=True)
_LEAD = st.sampled_from(["", "Error message: ", "I get ", "> "])
_TRAIL = st.sampled_from(["", " when loading", ".", " (see above)"])


@given(_LEAD, _CLASS, _MESSAGE, _TRAIL, st.sampled_from(["`", "``", "*", "**", "***"]))
def test_a_wrapped_error_line_is_the_line(
    lead: str, cls: str, message: str, trail: str, mark: str
) -> None:
    reports = extract_reports(f"{lead}{mark}{cls}: {message}{mark}{trail}")
    assert [(r.error_class, r.message) for r in reports][-1:] == [(cls, message)]


@given(_CLASS, st.sampled_from(["f(**kwargs) failed", "got 4 * 8 blocks", "a ** b"]))
def test_asterisks_inside_the_message_do_not_close_the_emphasis(cls: str, message: str) -> None:
    (report,) = extract_reports(f"**{cls}: {message}**")
    assert report.message == message
