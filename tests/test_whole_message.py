"""A pattern that is all placeholder (``'(\\w+)'``) matches a whole message, never part of one.

:mod:`errcat.whole_message` tells such patterns from the pattern alone; the matcher
reads them only as the whole message after the class, and ranks their hits below
any other pattern's hit on the report (issues 26/27: the word-key ``KeyError``
families found a quoted value inside vllm's ``--enable-reasoning requires
reasoning_parser:'x' ...`` and took its record's place).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import curated_over_bundled, make_envelope
from errcat.catalog import Catalog
from errcat.index import Entry
from errcat.matcher import match_all, match_error
from errcat.matcher.verify import _verify
from errcat.models import ErrorRecord
from errcat.patterns import template_to_pattern
from errcat.tags import FAMILY_TAG
from errcat.whole_message import outside_captures, whole_message_only

#: Words hypothesis draws: "zq"-prefixed, so none is a word the catalogs or rules know.
_ZQ = st.from_regex(r"zq[a-z]{1,8}", fullmatch=True)
_KEY = r"'(\w+)'"
#: Placeholders a hand-written pattern uses, and what sits between them.
_GROUPS = st.sampled_from([r"(\w+)", r"([\w.]+)", r"(\d+)", r"(.+?)", r"([\w.]+\.zqw(?:zqa|zqb))"])
_PUNCT = st.sampled_from(["'", ": ", " ", ".", ", ", "=", "(", ")", "-"])


def _record(n: int, pattern: str, message: str, error_class: str = "KeyError") -> ErrorRecord:
    return make_envelope(
        id=f"{n:016x}",
        slug=f"record-{n}",
        errorClass=error_class,
        errorMessage=message,
        messagePattern=pattern,
        repo="example/engine",
        filePath=f"engine/mod{n}.py",
    ).record


@st.composite
def _placeholder_patterns(draw: st.DrawFn) -> str:
    """A regex whose text outside its captures is punctuation: words only inside groups."""
    parts = draw(st.lists(st.one_of(_GROUPS, _PUNCT.map(lambda p: "\\" + p)), min_size=1))
    return "".join(parts)


@settings(max_examples=120, deadline=None)
@given(_placeholder_patterns(), _ZQ)
def test_words_only_inside_captures_make_a_whole_message_pattern(pattern: str, word: str) -> None:
    assert whole_message_only(pattern)
    assert Entry.build(pattern, (0,)).whole
    # One word of its own outside the captures, anywhere, and it is not.
    assert not whole_message_only(pattern + word)
    assert not whole_message_only(f"{word} {pattern}")
    assert not whole_message_only(f"(?:{word}|{word}s) {pattern}")
    assert word not in outside_captures(f"({word}) {pattern}")


@settings(max_examples=120, deadline=None)
@given(st.lists(st.one_of(_ZQ, st.sampled_from(["{x}", "{y!r}", ":", "'{z}'"])), min_size=1))
def test_a_mined_template_is_whole_message_exactly_when_it_has_no_words(parts: list[str]) -> None:
    pattern = template_to_pattern(" ".join(parts))
    entry = Entry.build(pattern, (0,))
    assert entry.whole == entry.wordless == whole_message_only(pattern)


@settings(max_examples=150, deadline=None)
@given(_ZQ, st.lists(_ZQ, min_size=1, max_size=4), st.lists(_ZQ, max_size=4))
def test_a_quoted_word_inside_a_longer_message_is_no_hit(
    key: str, before: list[str], after: list[str]
) -> None:
    entry = Entry.build(_KEY, (0,))
    for text in (
        " ".join([*before, f"'{key}'", *after]),
        " ".join([*before, f"x:'{key}'", *after]),
        " ".join([f"'{key}'", *before]),
    ):
        for prose in (False, True):
            assert _verify(entry, text, use_pieces=True, prose=prose) is None
    hit = _verify(entry, f"'{key}'", use_pieces=True)
    assert hit is not None and hit.mode == "full" and hit.groups == (key,)


@settings(max_examples=60, deadline=None)
@given(_ZQ, _ZQ, _ZQ)
def test_the_quoted_word_is_answered_by_the_message_around_it(
    head: str, key: str, tail: str
) -> None:
    """The worded record answers; the all-placeholder one is not even a hint."""
    template = f"{head} requires parser:'{{name}}' which has {tail}"
    catalog = Catalog(
        [
            _record(1, _KEY, "'{key}'"),
            _record(2, template_to_pattern(template), template, "ValueError"),
        ]
    )
    text = f"ValueError: {head} requires parser:'{key}' which has {tail}"
    found = match_all(text, catalog, limit=5)
    assert [m.summary.id for m in found] == [f"{2:016x}"]
    # Cut off before its end, the message is still no word key's.
    cut = match_all(text[: len(text) - len(tail) // 2 - 1], catalog, limit=5)
    assert all(m.summary.id != f"{1:016x}" for m in cut)


@settings(max_examples=60, deadline=None)
@given(_ZQ)
def test_a_whole_message_hit_ranks_below_a_worded_pattern_that_fits_too(key: str) -> None:
    catalog = Catalog([_record(1, _KEY, "'{key}'"), _record(2, r"'zqpre_(\w+)'", "'zqpre_{k}'")])
    found = match_all(f"KeyError: 'zqpre_{key}'", catalog, limit=5)
    assert found and found[0].summary.id == f"{2:016x}"
    assert all(m.confidence < found[0].confidence for m in found[1:])
    # Alone, the key is the all-placeholder record's (a hint: its words say nothing).
    alone = match_all(f"KeyError: '{key}'", catalog, limit=5)
    assert [m.summary.id for m in alone] == [f"{1:016x}"] and not alone[0].confident


def _families_overlay() -> Catalog:
    return curated_over_bundled(
        "sgl-project__sglang.families.jsonl", "vllm-project__vllm.families.jsonl"
    )


def test_the_engine_messages_holding_a_quoted_name_keep_their_records() -> None:
    """What tests/test_curated.py caught when the word-key families were first written."""
    for flag, field in (
        ("--enable-reasoning", "reasoning_parser"),
        ("--enable-auto-tool-choice", "tool_parser"),
    ):
        text = f"Error: {flag} requires {field}:'zqparser' which has not been registered"
        found = match_all(text, _families_overlay(), limit=3)
        assert found and found[0].summary.repo == "vllm-project/vllm"
        assert all(FAMILY_TAG not in m.summary.tags for m in found)


def test_the_word_key_family_answers_at_its_raise_frame_only() -> None:
    frame = (
        "Traceback (most recent call last):\n"
        '  File "{path}", line 66, in _verify_bundles\n'
        '    bundles = pg_data["bundles"]\n'
        "KeyError: 'bundles'\n"
    )
    engine = frame.format(path="/opt/venv/lib/python3.12/site-packages/vllm/v1/executor/x.py")
    found = match_error(engine, _families_overlay())
    assert found is not None and found.record.repo == "vllm-project/vllm"
    assert FAMILY_TAG in found.record.tags and found.record.error_message == "'{key}'"
    elsewhere = frame.format(path="/srv/app/placement.py")
    other = match_error(elsewhere, _families_overlay())
    assert other is None or FAMILY_TAG not in other.record.tags
