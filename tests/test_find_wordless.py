"""Patterns without a word are left out where they can change nothing: the same hits, answers.

A frameless report's exact search never reads them; a traceback's sets aside those
no record in its raise file uses (:func:`errcat.matcher.find._idle`).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.index import PatternIndex
from errcat.matcher import Match, collect, find, match_all, match_error
from errcat.matcher.context import contexts_of
from errcat.patterns import template_to_pattern

_PARTS = ["alpha", "beta", "shard", "rank", "{x}", "{y!r}", ":", ".", "-", "(", ")", "=", ","]
_TEMPLATES = st.lists(
    st.lists(st.sampled_from(_PARTS), min_size=1, max_size=6).map(" ".join),
    min_size=1,
    max_size=14,
    unique=True,
)
_VALUES = st.sampled_from(["3", "alpha", "a b", "'q'", "x: y", "(1, 2)"])


def _hits(index: PatternIndex, text: str) -> list[tuple[object, ...]]:
    found: list[tuple[object, ...]] = []
    for ctx in contexts_of(extract_reports(text), {}):
        for hit in find._find_hits([index], ctx, set())[0]:
            found.append((ctx.order, hit.entry.pattern, hit.hit, hit.text, hit.literal))
    return found


@settings(max_examples=150, deadline=None)
@given(_TEMPLATES, st.lists(st.tuples(st.integers(0, 13), _VALUES, _VALUES), max_size=6))
def test_leaving_out_wordless_patterns_finds_the_same_hits(
    templates: list[str], fills: list[tuple[int, str, str]]
) -> None:
    index = PatternIndex([template_to_pattern(t) for t in templates])
    texts = [
        "ValueError: " + templates[n % len(templates)].replace("{x}", x, 1).replace("{y!r}", y, 1)
        for n, x, y in fills
    ]
    texts.append("ValueError: a: b - c")
    fast = [_hits(index, text) for text in texts]
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(find, "_wordless", lambda index: frozenset())  # read them all
        full = [_hits(index, text) for text in texts]
    assert fast == full


@settings(max_examples=150, deadline=None)
@given(_TEMPLATES, st.text(alphabet="alpha beta:.-()=,' 3", max_size=30))
def test_candidates_but_some_are_the_candidates_less_those(templates: list[str], text: str) -> None:
    index = PatternIndex([template_to_pattern(t) for t in templates])
    leave_out = frozenset(range(0, len(index), 2))
    every = index.candidates(text)
    left_out = {index.entry(pid).pattern for pid in leave_out}
    assert index.candidates(text, leave_out) == [e for e in every if e.pattern not in left_out]


def test_a_wordless_pattern_is_left_out_of_a_bare_lines_search() -> None:
    index = PatternIndex([template_to_pattern("{a}: {b}"), template_to_pattern("shard {x} is bad")])
    assert find._wordless(index) == frozenset({0})
    (ctx,) = contexts_of(extract_reports("ValueError: shard 3 is bad"), {})
    assert [h.entry.pattern for h in find._find_hits([index], ctx, set())[0]] == [
        template_to_pattern("shard {x} is bad")
    ]


# A traceback's patterns without words that no record in the raise file uses are set
# aside unread (find._idle), unless another hit needs them (find._put_back): the
# answers, their reasons and their order must be those of reading every one.
_TB_TEMPLATES = st.sampled_from(
    [
        "{a}: {b}",
        "{a} {b}",
        "{a}",
        "{a} = {b}",
        "{a}, {b} ({c})",
        "{a} - {b} - {c} - {d} - {e}",
        "{a} - {b} - {c} - {d}",
        "zq {x}!",
        "zqa {x}",
        "zq {x}",
        "zqb: {x}",
        "zqa zqb {x} zqc",
        "{x} zqc",
    ]
)
_TB_FILES = st.sampled_from(["src/pkg/core.py", "src/pkg/io.py", "src/other/core.py", "lib/x.py"])
_TB_VALUES = st.sampled_from(
    ["3", "zqa", "x y", "zqa: zqb", "zq 1 - 2 - 3 - 4 - 5", "(1, 2)", "zq 1!", "zq 1! zqc"]
)


@st.composite
def _traceback_case(draw: st.DrawFn) -> tuple[Catalog, str]:
    sites = draw(
        st.lists(st.tuples(_TB_TEMPLATES, _TB_FILES, st.integers(1, 30)), min_size=1, max_size=9)
    )
    envelopes = [
        make_envelope(
            id=f"{n:016x}",
            slug=f"record-{n}",
            errorClass="ValueError",
            errorMessage=template,
            messagePattern=template_to_pattern(template),
            filePath=path,
            lineNumber=line,
        )
        for n, (template, path, line) in enumerate(sites)
    ]
    message = draw(_TB_TEMPLATES)
    while "{" in message:
        start = message.index("{")
        end = message.index("}", start)
        message = message[:start] + draw(_TB_VALUES) + message[end + 1 :]
    frames = draw(st.lists(st.tuples(_TB_FILES, st.integers(1, 30)), min_size=1, max_size=3))
    text = (
        "Traceback (most recent call last):\n"
        + "".join(f'  File "/x/{path}", line {line}, in f\n    g()\n' for path, line in frames)
        + f"ValueError: {message}"
    )
    return Catalog(envelopes), text


def _every_answer(catalog: Catalog, text: str) -> tuple[object, ...]:
    def key(m: Match | None) -> object:
        if m is None:
            return None
        return (m.summary.id, m.confidence, m.mode, m.params, m.reasons, m.related)

    return (
        key(match_error(text, catalog=catalog)),
        tuple(key(m) for m in match_all(text, catalog=catalog, limit=5)),
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_traceback_case())
def test_setting_idle_wordless_patterns_aside_changes_no_answer(case: tuple[Catalog, str]) -> None:
    catalog, text = case
    fast = _every_answer(catalog, text)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(collect, "_raise_files", lambda ctx, catalog: None)  # read them all
        full = _every_answer(catalog, text)
    assert fast == full


def test_a_set_aside_pattern_is_read_only_where_it_could_explain_a_looser_hit_better() -> None:
    # The prefix hit of "zq {x}!" holds 4 literal characters, the pattern without words
    # 9: it could explain the message better (hits._dominated), so it is read after all.
    index = PatternIndex(
        [template_to_pattern("{a} - {b} - {c} - {d}"), template_to_pattern("zq {x}!")]
    )
    assert find._idle(index.entry(0), frozenset)
    assert not find._idle(index.entry(0), lambda: frozenset({0}))  # a record in the raise file
    # A pattern with a word is read whatever the raise file holds: that is not asked.
    assert not find._idle(index.entry(1), _never_asked)
    tb = 'Traceback (most recent call last):\n  File "/x/a.py", line 1, in f\n    g()\n'
    found = []
    for message in ("zq 1! - 2 - 3 - 4", "1 - 2 - 3 - 4"):
        (ctx,) = contexts_of(extract_reports(f"{tb}ValueError: {message}"), {})
        aside = find._find_hits([index], ctx, set(), [frozenset])[0]
        found.append([(h.entry.pattern, h.hit.mode) for h in aside])
    assert found == [
        [(r"(.+?) - (.+?) - (.+?) - (.+?)", "full"), ("zq (.+?)!", "prefix")],
        [],  # nothing it could explain better: set aside unread
    ]


def _never_asked() -> frozenset[int]:
    raise AssertionError("the raise file's records were worked out for a pattern with words")
