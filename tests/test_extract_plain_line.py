"""A lone ``Class: message`` line read whole gives the full parser's reports."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.extract import extract_reports
from errcat.extract.pipeline import _extract, _plain_line

_CLASSES = st.sampled_from(
    [
        "ValueError",
        "KeyError",
        "RuntimeWarning",
        "KeyboardInterrupt",
        "StopIteration",
        "proj12.errors.InvalidRequestState",
        "torch.OutOfMemoryError",
        "socket.timeout",
        "re.error",
        "Foo",
        "foo.bar",
        "error",
        "ERROR",
        "INFO",
        "Note",
        "HTTPError",
        "__main__.MyError",
        "a.b.C",
    ]
)
# The pieces that decide how a line is read: words of exception names, log prefixes,
# gutters, brackets, colour remnants, quotes, separators, non-ASCII letters.
_PIECES = st.sampled_from(
    [
        "bad value",
        " ",
        "  ",
        ": ",
        "ValueError: x",
        "Error",
        "exception",
        "Traceback (most recent call last):",
        'File "x.py", line 3',
        "[0m",
        "[31m",
        "[rank0]: ",
        "(Worker pid=3) ",
        "INFO 03-06 10:05:08 [engine.py:190] ",
        "2026-01-04 08:00:01,123 - x - ",
        "| ",
        "+",
        "```",
        "~~~",
        "{",
        "}",
        "[1, 2]",
        "'quoted'",
        '"dq"',
        "(a, b)",
        "Foo(x=1)",
        "...",
        "…",
        "é",
        "\t",
        "\n",
        "\x1b",
        "Value error, ",
        "Assertion failed, ",
        "╭",
        "&quot;",
        "--flag",
        "3",
        ".",
    ]
)
_MESSAGES = st.lists(_PIECES, max_size=8).map("".join)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(["", " ", "[rank0]: ", "INFO: ", "x "]), _CLASSES, _MESSAGES)
def test_plain_line_fast_path_agrees_with_the_full_parser(
    before: str, cls: str, message: str
) -> None:
    text = f"{before}{cls}: {message}"
    fast = _plain_line(text)
    if fast is not None:
        assert fast == _extract(text)
    assert extract_reports(text) == _extract(text)


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\r"), max_size=60
    ),
    _CLASSES,
)
def test_any_message_agrees(message: str, cls: str) -> None:
    text = f"{cls}: {message}"
    fast = _plain_line(text)
    if fast is not None:
        assert fast == _extract(text)
    assert extract_reports(text) == _extract(text)


def test_a_bare_line_is_read_by_the_fast_path() -> None:
    (report,) = _plain_line("proj12.errors.InvalidRequestState: packed 3 bytes") or []
    assert (report.error_class, report.message, report.kind) == (
        "proj12.errors.InvalidRequestState",
        "packed 3 bytes",
        "line",
    )
    assert (report.start, report.end) == (
        0,
        len("proj12.errors.InvalidRequestState: packed 3 bytes"),
    )


def test_lines_the_full_parser_reads_are_left_to_it() -> None:
    for text in (
        "[rank0]: ValueError: bad",  # a log prefix
        "ValueError: bad [31mvalue",  # a colour code's remnant
        "ValueError: failed: KeyError: 'k'",  # a report inside the message
        "ValueError: bad | x",  # a gutter
        " ValueError: bad",  # indented
        "ValueError: bad\tvalue",  # a tab
        "not an error line",
    ):
        assert _plain_line(text) is None, text
