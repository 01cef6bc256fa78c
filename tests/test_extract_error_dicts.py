"""Pydantic error dicts whose body does not parse (:mod:`errcat.extract.error_dicts`).

``BadRequestError: Error code: 400 - {'object': 'error', 'message': '[{'type':
'value_error', 'loc': ('body',), 'msg': 'Value error, `tool_choice` must either be ...',
'input': {...`` (a 400 body pasted with its inner quotes unescaped and cut inside the
echoed request) gave only the outer message up to its first inner quote (``[{``), and
no record answered.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD, templates_catalog
from errcat.extract import extract_reports
from errcat.extract.error_dicts import error_dict_messages
from errcat.matcher import match_error

WORDS = st.lists(ZQ_WORD, min_size=3, max_size=6)
QUOTES = st.sampled_from(["'", '"'])


def _body(message: str, quote: str, tail: str) -> str:
    """A 400 body around a pydantic error list whose inner quotes lost their escapes."""
    inner = (
        f"[{{{quote}type{quote}: {quote}value_error{quote}, {quote}loc{quote}: ({quote}body"
        f"{quote},), {quote}msg{quote}: {quote}Value error, {message}{quote}, {quote}input"
        f"{quote}: {{{quote}model{quote}: {quote}zq{quote}"
    )
    return f"BadRequestError: Error code: 400 - {{'object': 'error', 'message': '{inner}{tail}"


@settings(max_examples=40, deadline=None)
@given(words=WORDS, quote=QUOTES, tail=st.sampled_from(["", "}]', 'code': 400}", ", 'n': 1"]))
def test_the_validator_message_is_read_from_a_body_that_does_not_parse(
    words: list[str], quote: str, tail: str
) -> None:
    message = " ".join(words) + "."
    reports = extract_reports(_body(message, quote, tail))
    assert ("ValueError", message) in [(r.error_class, r.message) for r in reports]


@settings(max_examples=40, deadline=None)
@given(words=WORDS, quote=QUOTES)
def test_a_message_cut_at_the_line_end_runs_to_it(words: list[str], quote: str) -> None:
    message = " ".join(words)
    text = f"{{{quote}msg{quote}: {quote}Assertion failed, {message}"
    [(start, end, error_class, found, closer)] = error_dict_messages(text)
    assert (error_class, found, closer) == ("AssertionError", message, quote)
    assert (start, end) == (1, len(text))


@settings(max_examples=40, deadline=None)
@given(words=WORDS, quote=QUOTES)
def test_a_quote_inside_the_message_does_not_end_it(words: list[str], quote: str) -> None:
    # Only a quote a next key or the dict's end follows closes the value.
    message = f"{words[0]}{quote}s {' '.join(words[1:])}"
    [(_, _, _, found, closer)] = error_dict_messages(
        f"{{{quote}msg{quote}: {quote}Value error, {message}{quote}, {quote}input{quote}: 3}}"
    )
    assert (found, closer) == (message, None)


@settings(max_examples=30, deadline=None)
@given(words=WORDS, quote=QUOTES)
def test_a_message_not_worded_by_a_validator_is_left_alone(words: list[str], quote: str) -> None:
    # "Field required" and the like name no exception raised by the server's code.
    assert error_dict_messages(f"{{{quote}msg{quote}: {quote}{' '.join(words)}{quote}}}") == []


@settings(max_examples=20, deadline=None)
@given(words=WORDS, quote=QUOTES)
def test_the_record_of_the_validator_answers(words: list[str], quote: str) -> None:
    a, b, c = words[:3]
    template = f"Engine{a} must be {b} or {c}, not {{value}}."
    message = f"Engine{a} must be {b} or {c}, not {words[-1]}."
    found = match_error(_body(message, quote, ""), catalog=templates_catalog(template))
    assert found is not None and found.record.error_message == template


def test_a_body_that_parses_gives_its_message_once() -> None:
    text = (
        "Error code: 400 - {'detail': [{'type': 'value_error', 'msg': 'Value error, "
        "zqa went zqb', 'input': 1}]}"
    )
    found = [(r.error_class, r.message) for r in extract_reports(text)]
    assert found.count(("ValueError", "zqa went zqb")) == 1
