"""Unit tests of the lint rules: pattern structure, timing, samples, findings."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.errors import InvalidRecordError
from errcat.lint import (
    Finding,
    LintItem,
    adversarial_inputs,
    is_draft,
    lint_records,
    measure_pattern,
    pattern_risks,
    problem_finding,
    sample_messages,
    source_line_count,
)
from errcat.models import EXAMPLE_ENVELOPE_JSON, ErrorRecord, RecordEnvelope
from errcat.patterns import GROUP, escape_literal, template_to_pattern


def _record(**fields: object) -> ErrorRecord:
    data = json.loads(EXAMPLE_ENVELOPE_JSON)
    data["record"].update(fields)
    return RecordEnvelope.model_validate(data).record


@pytest.mark.parametrize(
    ("pattern", "kind", "level"),
    [
        (r"(\w+\s?)+$", "nested-quantifier", "error"),
        (r"bad (a+)+b", "nested-quantifier", "error"),
        (r"(?:x|y+)*z", "nested-quantifier", "error"),
        (r"(.+?){2,5}!", "nested-quantifier", "error"),
        (r"(['\"]).+?\1", "backreference", "error"),
        (r"(?P<q>a)b(?P=q)", "backreference", "error"),
        (r"foo(?=bar)", "lookaround", "error"),
        (r"(?<!x)y", "lookaround", "error"),
        (r"(a)(?(1)b|c)", "conditional", "error"),
        (r"(.+?)(.+?)", "adjacent-quantifiers", "warning"),
        (r"(.+?)\s*(.+?)", "adjacent-quantifiers", "warning"),
        (r"at most (.+?) (.+?) headers", "adjacent-quantifiers", "warning"),
        ("Expected: (.+?)\n  (.+?)", "adjacent-quantifiers", "warning"),
        (r"(\d+)(\w+)", "adjacent-quantifiers", "warning"),
        (r"(.+?)(?:, )?(.+?)", "adjacent-quantifiers", "warning"),
    ],
)
def test_risky_constructs_are_found(pattern: str, kind: str, level: str) -> None:
    risks = pattern_risks(pattern)
    assert [(r.kind, r.level) for r in risks] == [(kind, level)]
    assert "\n" not in risks[0].describe()


@pytest.mark.parametrize(
    "pattern",
    [
        "plain literal text",
        r"bad value (.+?) for (.+?)\.",
        r"at most (\d+) (.+?) headers",  # \d+ cannot run over the space
        r"(\S+) (\S+)",
        r"(.+?) is not defined",
        r"x (.+?)",
        r"a++b",  # possessive: gives nothing back
        r"(?>a+)+b",  # atomic group inside a repeat
        r"a{2,5}b{3}",
        r"[(.+)] \(.+?\)",
    ],
)
def test_safe_patterns_have_no_risk(pattern: str) -> None:
    assert pattern_risks(pattern) == []


_LITERAL = st.text(alphabet="ab .,;:()[]{}?*+|^$\\-'\"", min_size=1, max_size=6)


@given(st.lists(_LITERAL, min_size=1, max_size=5), st.booleans())
@settings(max_examples=150, deadline=None)
def test_mined_shape_is_adjacent_exactly_when_blank_separated(
    literals: list[str], lead: bool
) -> None:
    """Literal text and (.+?) groups: a risk only where two groups have blank text between."""
    pieces = [GROUP] if lead else []
    for index, literal in enumerate(literals):
        if index:
            pieces.append(GROUP)
        pieces.append(escape_literal(literal))
    pattern = "".join(pieces)
    risks = pattern_risks(pattern)
    assert all(r.level == "warning" and r.kind == "adjacent-quantifiers" for r in risks)
    blank_between = any(not lit.strip() for lit in literals[1:-1]) or (
        lead and len(literals) > 1 and not literals[0].strip()
    )
    assert bool(risks) == blank_between


def test_measure_pattern_flags_only_the_slow_one() -> None:
    assert measure_pattern(r"bad value (.+?) for (.+?)\.") is None
    slow = measure_pattern(r"at most (.+?) (.+?) headers in a message", timeout=0.05)
    assert slow is not None and slow[0] == "words"


def test_adversarial_inputs_hold_the_literal_text_but_not_as_filler() -> None:
    inputs = adversarial_inputs(r"(.+?): (.+?)\.", size=1000)
    assert set(inputs) == {"letters", "words", "dots and semicolons"}
    for text in inputs.values():
        assert text.count(": ") == 1  # the separator once; the filler never repeats it
        assert "  " not in text and text.endswith(".#")
        assert 900 <= len(text) <= 1100


def test_sample_messages_render_every_shape() -> None:
    samples = sample_messages("got {x!r} and {y}")
    assert samples["words"] == "got value_0 and value_1"
    assert samples["list reprs"] == "got ['a0', 'b c'] and ['a1', 'b c']"
    assert "a.b; c0. d;e" in samples["dots and semicolons"]
    assert sample_messages("no placeholders\n  here") == dict.fromkeys(
        samples, "no placeholders here"
    )


def test_source_line_count_splits_on_newlines_only() -> None:
    assert source_line_count("a\x0cb\nc") == 2
    assert source_line_count("") == 1


def test_draft_and_curated() -> None:
    assert not is_draft(_record())
    draft = _record(documentation="", solutions=[], exampleFix="")
    assert is_draft(draft)
    (finding,) = lint_records([LintItem(draft, "x.jsonl", 3, drafts_allowed=True)])
    assert (finding.rule, finding.level, finding.line) == ("draft", "info", 3)
    half = _record(exampleFix="")
    (finding,) = lint_records([LintItem(half, "x.jsonl", 1)])
    assert (finding.rule, finding.level) == ("curated", "error")
    assert finding.message == "curated record has no exampleFix"


def test_valid_record_has_no_finding() -> None:
    assert lint_records([LintItem(_record(), "x.jsonl", 1)]) == []


def test_finding_is_one_line_and_serialises() -> None:
    finding = Finding("self-match", "error", "bad\nthing", "a.jsonl", 2, "0123456789abcdef")
    assert str(finding) == "a.jsonl:2: error[self-match] 0123456789abcdef: bad\\nthing"
    assert finding.to_dict() == {
        "path": "a.jsonl",
        "line": 2,
        "recordId": "0123456789abcdef",
        "rule": "self-match",
        "level": "error",
        "message": "bad\\nthing",
    }
    assert str(Finding("manifest", "info", "m")) == "<catalog>: info[manifest]: m"


@pytest.mark.parametrize(
    ("reason", "field", "rule"),
    [
        ("unknown field", "record.notes", "schema"),
        (
            "Value error, does not compile with regex: missing )",
            "record.messagePattern",
            "pattern-compiles",
        ),
        (
            'Value error, lineNumber 60 is outside [2, 31] (got {"id": ...)',
            "record",
            "line-in-span",
        ),
        ("Value error, sourceCodeStart 9 is after sourceCodeEnd 3", "record", "line-in-span"),
    ],
)
def test_load_problems_are_named_after_the_rule(reason: str, field: str, rule: str) -> None:
    problem = InvalidRecordError(reason, path="a.jsonl", line=4, field=field, record_id="ab")
    finding = problem_finding(problem)
    assert (finding.rule, finding.level, finding.line, finding.record_id) == (
        rule,
        "error",
        4,
        "ab",
    )
    assert "Value error" not in finding.message and "(got {" not in finding.message


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(["value", "7", "{x}", "for", "stage", "{y}", "'q'"]),
            min_size=2,
            max_size=5,
        ),
        min_size=2,
        max_size=14,
    ),
    st.integers(0, 13),
)
@example(  # "7 stage" and "7 stage 'q'"-like records rank above "{x} stage" rendered as "7 stage"
    [["{x}", "stage"], ["7", "stage"], ["7", "{y}"], ["{x}", "{y}"], ["{y}", "stage"]],
    0,
)
def test_shadowing_asks_for_few_matches_but_sees_every_rival(
    shapes: list[list[str]], pick: int
) -> None:
    """``_at_least_own`` gives the record and everything at or above it, as asking for all."""
    from errcat.catalog import Catalog
    from errcat.lint.shadowing import _at_least_own, _flat
    from errcat.matcher import match_all
    from errcat.patterns import template_to_pattern

    envelopes = []
    for n, words in enumerate(shapes):
        template = " ".join(words)
        envelopes.append(
            make_envelope(
                id=f"{n:016x}",
                slug=f"case-{n}",
                filePath=f"src/project/m{n}.py",
                errorMessage=template,
                messagePattern=template_to_pattern(template),
            )
        )
    catalog = Catalog(envelopes)
    record = envelopes[pick % len(envelopes)].record
    text = "ValueError: " + record.error_message.replace("{x}", "7").replace("{y}", "'q'")
    everything = _flat(match_all(text, catalog=catalog, limit=len(catalog)))
    few = _flat(_at_least_own(text, record.id, catalog, len(catalog), first=1))
    own = next((c for rid, c in everything if rid == record.id), None)
    if own is None:
        assert all(rid != record.id for rid, _ in few)
        return
    assert [m for m in everything if m[1] >= own] == [m for m in few if m[1] >= own]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([" ", "  ", "\t", "", "a", "b c", ". ", " for ", "x-y"]),
            st.text(alphabet="ab .,:-_\t", max_size=6),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_risks_of_simple_patterns_read_off_the_pieces_equal_the_parsers(
    literals: list[str],
) -> None:
    from errcat.lint.regex_risks import _parsed_risks
    from errcat.lint.regex_risks import cached_risks as _risks
    from errcat.patterns import pattern_pieces

    pattern = GROUP.join(escape_literal(text) for text in literals)
    assume(pattern_pieces(pattern) is not None)
    assert _risks(pattern) == _parsed_risks(pattern)


@pytest.mark.parametrize(
    "template",
    ["Unknown type: {type(other)}", "Expected `latents` to be a list, got {type(latents)}"],
)
def test_a_class_placeholder_is_rendered_as_a_class_and_its_record_finds_itself(
    template: str,
) -> None:
    # {type(x)} prints <class 'x'>; the matcher rejects any other capture there, so a
    # sample with a bare word would not find its own record.
    record = _record(errorMessage=template, messagePattern=template_to_pattern(template))
    findings = lint_records([LintItem(record, "x.jsonl", 1)])
    assert not [f for f in findings if f.level == "error"], findings


def test_a_wordless_rival_of_another_class_shadows_nothing() -> None:
    """A KeyError family's quoted-key pattern finds the quoted value of any message.

    In the bundled catalog it tied at the floor with sglang's logged ``Unknown
    output type: {type(recv_obj)}`` (rendered ``<class 'value_0'>``), and the build
    refused the release; the matcher answers such a rival only for its own class.
    """
    from errcat.lint.findings import LintItem
    from errcat.lint.shadowing import _wordless_other_class

    logged = _record(errorClass="WARNING", messagePattern="Unknown output type: (.+?)")
    family = _record(errorClass="KeyError", messagePattern=r"'(\w+)'")
    assert _wordless_other_class(LintItem(family), logged)
    # Of the record's own class, or with words of its own, a rival still counts.
    assert not _wordless_other_class(
        LintItem(family.model_copy(update={"error_class": "WARNING"})), logged
    )
    worded = family.model_copy(update={"message_pattern": r"missing key '(\w+)'"})
    assert not _wordless_other_class(LintItem(worded), logged)
