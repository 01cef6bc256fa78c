from __future__ import annotations

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import seed_objects
from errcat.index import fold_whitespace
from errcat.patterns import (
    GROUP,
    compile_pattern,
    escape_literal,
    is_wordless,
    literal_fragments,
    parse_template,
    placeholder_names,
    render_template,
    template_to_pattern,
)

# Literal text: words, punctuation including every regex metacharacter, spaces.
literal_text = st.text(
    alphabet=st.sampled_from(list("abcXYZ019 .,;:-_'\"()[]<>*+?^$|\\/=!#%&@~`")),
    max_size=20,
)
# Placeholder values as they appear in messages: reprs, numbers, paths, lists.
value_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
    min_size=1,
    max_size=15,
)
expr_names = st.sampled_from(["x", "name", "sorted(a)", "obj.attr", "d['k']", "len(xs) + 1"])
conversions = st.sampled_from(["", "!r", "!s", ":>3", "!r:^10"])


@st.composite
def templates(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A template (as a source f-string would read) and the literal parts it should parse to."""
    n = draw(st.integers(0, 4))
    literals = [draw(literal_text) for _ in range(n + 1)]
    out = []
    for i, lit in enumerate(literals):
        out.append(lit.replace("{", "{{").replace("}", "}}"))
        if i < n:
            out.append("{" + draw(expr_names) + draw(conversions) + "}")
    return "".join(out), literals


def test_seed_patterns_are_reproduced_from_their_templates() -> None:
    for seed in seed_objects():
        record = seed["record"]
        assert template_to_pattern(record["errorMessage"]) == record["messagePattern"]


def test_seed_placeholders() -> None:
    record = seed_objects()[0]["record"]
    assert record["id"] == "e06cd5f724ab16c0"
    assert placeholder_names(record["errorMessage"]) == [
        "architecture",
        "sorted(validated_architectures)",
    ]


def test_parse_template_handles_nested_syntax() -> None:
    literals, fields = parse_template("a {d['}']!r} b {f(x, {1: 2})} c {x:{w}.{p}f} {y=}")
    assert [f.expr for f in fields] == ["d['}']", "f(x, {1: 2})", "x", "y"]
    assert fields[0].conversion == "r"
    assert fields[2].spec == "{w}.{p}f"
    assert fields[3].debug
    assert literals == ("a ", " b ", " c ", " y=", "")


def test_unbalanced_braces_are_literal() -> None:
    literals, fields = parse_template("stray } and unclosed { brace")
    assert fields == ()
    assert literals == ("stray } and unclosed { brace",)


def test_not_equal_is_not_a_conversion() -> None:
    assert placeholder_names("{a != b} and {c!r}") == ["a != b", "c"]


@given(templates())
def test_template_literals_round_trip(case: tuple[str, list[str]]) -> None:
    template, literals = case
    parsed, fields = parse_template(template)
    assert list(parsed) == literals
    assert len(fields) == len(literals) - 1


@given(templates(), st.data())
def test_pattern_matches_its_template_rendered(
    case: tuple[str, list[str]], data: st.DataObject
) -> None:
    template, _ = case
    pattern = template_to_pattern(template)
    names = placeholder_names(template)
    assert regex.compile(pattern).groups == len(names) == pattern.count(GROUP)
    values = [data.draw(value_text) for _ in names]
    rendered = render_template(template, values)
    folded = fold_whitespace(rendered)
    if not folded:
        return
    compiled = compile_pattern(pattern)
    assert compiled.full.fullmatch(folded, timeout=1) is not None
    # Every literal fragment of the pattern occurs in the message, in order.
    position = 0
    for fragment in literal_fragments(pattern):
        found = folded.find(fragment, position)
        assert found >= 0, (fragment, folded)
        position = found + len(fragment)


@given(templates(), st.data())
def test_rewrapped_message_still_matches(case: tuple[str, list[str]], data: st.DataObject) -> None:
    template, _ = case
    values = [data.draw(value_text) for _ in placeholder_names(template)]
    rendered = render_template(template, values).strip()
    if not rendered:
        return
    breaks = st.sampled_from([" ", "\n", "\n    ", "  \n\t", "\r\n  "])
    rewrapped = regex.sub(r" +", lambda _: data.draw(breaks), rendered)
    assert compile_pattern(template_to_pattern(template)).full.fullmatch(rewrapped, timeout=1)


@settings(max_examples=200)
@given(literal_text)
def test_escape_literal_matches_exactly_itself(text: str) -> None:
    assert regex.fullmatch(escape_literal(text), text)
    expected = (regex.sub(r"\s+", " ", text.strip()),) if text.strip() else ()
    assert literal_fragments(escape_literal(text)) == expected


def test_literal_fragments_of_hand_written_patterns() -> None:
    assert literal_fragments(r"x \d+ y") == ("x ", " y")
    assert literal_fragments(r"colou?r") == ("colo", "r")
    assert literal_fragments(r"a[bc]d") == ("a", "d")
    assert literal_fragments(r"(?:foo|bar) baz") == (" baz",)
    assert literal_fragments(r"foo|bar") == ()
    assert literal_fragments(r"tab\there\.") == ("tab here.",)


def test_inner_form_captures_to_the_end_and_narrows_a_leading_group() -> None:
    compiled = compile_pattern(r"(.+?) must be positive, got (.+?)")
    m = compiled.inner.search("RuntimeError: worker said: n must be positive, got -3'.")
    assert m is not None
    assert m.groups() == ("n", "-3")


@given(templates(), value_text)
def test_a_pattern_is_wordless_when_its_literal_text_has_no_word(
    case: tuple[str, list[str]], value: str
) -> None:
    template, literals = case
    pattern = template_to_pattern(template)
    has_word = any(regex.search(r"[^\W\d_]{2}", literal) for literal in literals)
    assert is_wordless(pattern) == (not has_word)
    if is_wordless(pattern) and placeholder_names(template):
        # Such a pattern matches nearly anything: a value in every placeholder is enough.
        n = len(placeholder_names(template))
        text = render_template(template, [value] * n)
        assert compile_pattern(pattern).full.fullmatch(fold_whitespace(text)) is not None
