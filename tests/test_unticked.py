"""Backticks Markdown ate or added: a template's literal backticks are optional in matching.

A template's ``has model type `{t}` but ...`` pasted through a Markdown renderer
loses its backticks; a writer adds some around a value or the whole line
(``Error message: `KeyError: 'x'` ``). Either way the record is found, from the
same records (errcat.matcher.unticked, errcat.extract.forms).
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.extract.forms import message_forms
from errcat.index import Entry, PatternIndex
from errcat.loaders import write_jsonl
from errcat.matcher import match_error
from errcat.matcher.unticked import untick_pieces, unticked_index
from errcat.models import EXAMPLE_ENVELOPE_JSON, ErrorRecord, RecordEnvelope
from errcat.patterns import pattern_pieces, render_template, template_to_pattern
from errcat.store import open_file_store
from errcat.untick import build_unticked

_BASE = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record

# A record's own words: "zq" opens no common word, so the template is never a shape any
# message fills ("non non non {name}" carries no evidence of whose message it is, and
# rightly gets no confident answer).
words = st.lists(
    st.text(string.ascii_lowercase, min_size=1, max_size=7).map("zq".__add__),
    min_size=3,
    max_size=6,
).map(" ".join)
values = st.text(string.ascii_lowercase + string.digits + "_", min_size=1, max_size=12)


def _record(template: str, rid: str = "0123456789abcdef") -> ErrorRecord:
    return _BASE.model_copy(
        update={
            "id": rid,
            "slug": rid,
            "error_message": template,
            "message_pattern": template_to_pattern(template),
        }
    )


@given(words, words, values)
def test_a_template_whose_backticks_markdown_ate_is_found(head: str, tail: str, value: str) -> None:
    template = f"{head} `{{name}}` {tail}."
    record = _record(template)
    catalog = Catalog([record])
    printed = render_template(template, [value])
    for message in (printed, printed.replace("`", "")):
        found = match_error(f"ValueError: {message}", catalog=catalog)
        assert found is not None and found.record.id == record.id, message
        assert found.params["name"] == value


@given(words, words, values)
def test_backticks_a_writer_put_around_a_value_are_read_past(
    head: str, tail: str, value: str
) -> None:
    template = f"{head} {{name}} {tail}."
    record = _record(template)
    found = match_error(f"ValueError: {head} `{value}` {tail}.", catalog=Catalog([record]))
    assert found is not None and found.record.id == record.id


@given(words, values)
def test_an_error_line_wrapped_in_backticks_is_the_line(head: str, value: str) -> None:
    template = f"{head} {{name}}"
    record = _record(template)
    text = f"Error message: `ValueError: {head} {value}`"
    found = match_error(text, catalog=Catalog([record]))
    assert found is not None and found.record.id == record.id and found.params["name"] == value


@given(words, words)
def test_unticked_pieces_keep_everything_but_the_backticks(head: str, tail: str) -> None:
    pieces = pattern_pieces(template_to_pattern(f"{head} `{{a}}` and `{{b}}` {tail}"))
    assert pieces is not None
    unticked = untick_pieces(pieces)
    assert unticked is not None
    assert "".join(unticked) == "".join(pieces).replace("`", "")
    assert len(unticked) == len(pieces)


def test_groups_the_backticks_alone_kept_apart_are_not_unticked() -> None:
    assert untick_pieces(("x ", "`", " y")) is None


def test_a_hand_written_regex_is_left_alone() -> None:
    index = PatternIndex([r"bad [^`]+ value `(.+?)`", "bad `(.+?)` thing"])
    unticked = unticked_index(index)
    assert [e.pattern for e in unticked.candidates("bad x thing")] == ["bad (.+?) thing"]
    assert unticked.candidates("bad y value z") == []


def test_unticked_entries_stand_for_the_original_records() -> None:
    index = PatternIndex(["a `(.+?)` b", "other", "a (.+?) b", "a `(.+?)` b"])
    (entry,) = unticked_index(index).candidates("a x b")
    assert entry.records == (0, 3)


def test_a_message_with_backticks_has_a_form_without_them() -> None:
    (report,) = extract_reports("ValueError: model type `qwen3_moe` is unknown")
    assert "model type qwen3_moe is unknown" in message_forms(report)


long_words = st.lists(
    st.text(string.ascii_lowercase, min_size=2, max_size=7).map("zq".__add__),
    min_size=6,
    max_size=9,
).map(" ".join)


@given(long_words, long_words, values, st.integers(min_value=1, max_value=12))
def test_a_cut_off_paste_of_a_template_whose_backticks_it_lost_is_found(
    head: str, tail: str, value: str, cut: int
) -> None:
    # An issue title stops partway through a template whose backticks it does not show
    # ("... Try increasing gpu_memory_utilization or decreasing max_model_len when ini"):
    # cut off and unticked at once, it is the record's message all the same.
    template = f"{head} ({{size}}). Try increasing `{tail}` when initializing the engine."
    record = _record(template)
    printed = render_template(template, [value]).replace("`", "")
    message = printed[: len(printed) - cut]
    assume(not message.endswith(" "))
    found = match_error(f"ValueError: {message}", catalog=Catalog([record]))
    assert found is not None and found.record.id == record.id, message
    assert found.mode == "truncated"


def test_unticked_prefix_candidates_stand_for_the_original_records() -> None:
    index = PatternIndex(
        ["other", "a long opening clause of a message `(.+?)` and its careful closing words"]
    )
    (entry,) = unticked_index(index).prefix_candidates("a long opening clause of a message x and")
    assert entry.pattern == "a long opening clause of a message (.+?) and its careful closing words"
    assert entry.records == (1,)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(words, words), min_size=1, max_size=6), values)
def test_a_stored_index_keeps_the_unticked_patterns_it_would_build(
    tmp_path_factory: pytest.TempPathFactory, heads: list[tuple[str, str]], value: str
) -> None:
    """The stored index's unticked patterns are the ones built from its patterns."""
    templates = [f"{head} `{{name}}` {tail}." for head, tail in heads] + ["plain {x} words"]
    envelope = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)
    path = tmp_path_factory.mktemp("stored") / "catalog.jsonl"
    write_jsonl(
        path,
        [
            envelope.model_copy(update={"record": _record(t, f"{k:016x}")})
            for k, t in enumerate(templates)
        ],
    )
    store = open_file_store(path, progress=False)
    assert store is not None and store.index.unticked_tables is not None
    kept = unticked_index(store.index)
    built = build_unticked(store.index)
    assert list(kept.origins) == list(built.origins)
    assert list(kept.index.patterns) == list(built.index.patterns)
    for head, tail in heads:
        text = f"{head} {value} {tail}."
        assert _seen(kept.candidates(text)) == _seen(built.candidates(text))
        assert kept.candidates(text), text


def _seen(entries: list[Entry]) -> list[tuple[object, ...]]:
    """What the matcher reads of each entry (entries compare by identity)."""
    return [(e.pattern, e.records, e.pieces, e.literal_length, e.rarity, e.prior) for e in entries]
