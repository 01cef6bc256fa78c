"""The prefilter and the regex-free verifier agree with plain regex evaluation."""

from __future__ import annotations

from dataclasses import replace

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat import background
from errcat.catalog import Catalog
from errcat.index import Entry, PatternIndex, ends_inside, fold_whitespace
from errcat.matcher import match_all
from errcat.patterns import (
    compile_pattern,
    literal_fragments,
    pattern_pieces,
    pieces_fullmatch,
    pieces_prefix,
    template_to_pattern,
)
from errcat.store.format import word_columns

alphabet = st.sampled_from(list("ab .:;'()[]x-_"))
literal = st.text(alphabet=alphabet, max_size=6)


@st.composite
def simple_patterns(draw: st.DrawFn) -> str:
    n = draw(st.integers(0, 3))
    template = draw(literal).replace("{", "").replace("}", "")
    for _ in range(n):
        template += "{v}" + draw(literal)
    return template_to_pattern(template)


texts = st.text(alphabet=alphabet, max_size=20).map(fold_whitespace)


@settings(max_examples=500)
@given(simple_patterns(), texts)
def test_pieces_agree_with_the_regex(pattern: str, text: str) -> None:
    pieces = pattern_pieces(pattern)
    assert pieces is not None
    compiled = compile_pattern(pattern)
    full = compiled.full.fullmatch(text)
    assert pieces_fullmatch(pieces, text) == (full.groups() if full else None)
    if full is None:
        prefix = compiled.full.match(text)
        got = pieces_prefix(pieces, text)
        assert got == ((prefix.groups(), prefix.end()) if prefix else None)


@given(simple_patterns())
def test_pieces_give_the_same_fragments_as_the_tokenizer(pattern: str) -> None:
    from errcat.index import Entry

    assert Entry.build(pattern, (0,)).fragments == literal_fragments(pattern)


@settings(max_examples=800)
@given(simple_patterns(), st.text(alphabet=alphabet, max_size=8), texts)
def test_inner_pieces_agree_with_the_regex(pattern: str, before: str, text: str) -> None:
    from errcat.patterns import inner_tail_possible, pieces_inner, pieces_inner_lead

    pieces = pattern_pieces(pattern)
    assert pieces is not None
    whole = fold_whitespace(before + " " + text)
    m = compile_pattern(pattern).inner.search(whole)
    if m is not None:
        assert inner_tail_possible(pieces, whole)
    if pieces[0] or pattern.startswith("(.+?)"):  # (others keep their regex)
        got = pieces_inner(pieces, whole) if pieces[0] else pieces_inner_lead(pieces, whole)
        assert got == ((m.groups(), m.start(), m.end()) if m else None)


lead_patterns = simple_patterns().map(lambda p: "(.+?)" + p if not p.startswith("(.+?)") else p)


@settings(max_examples=1500)
@given(lead_patterns, st.text(alphabet=alphabet, max_size=24).map(fold_whitespace))
def test_lead_group_inner_agrees_with_the_regex(pattern: str, text: str) -> None:
    """A pattern opening with a placeholder is found at a message's end as its regex finds it."""
    from errcat.patterns import pieces_inner_lead

    pieces = pattern_pieces(pattern)
    assert pieces is not None and not pieces[0]
    m = compile_pattern(pattern).inner.search(text)
    assert pieces_inner_lead(pieces, text) == ((m.groups(), m.start(), m.end()) if m else None)


def test_non_simple_patterns_have_no_pieces() -> None:
    for pattern in [r"a\d", "a.b", "(?:x)", "a|b", "a+", r"\n"]:
        assert pattern_pieces(pattern) is None, pattern
    assert regex.compile(template_to_pattern("a {x} (b) [c] d.")).groups == 1


WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "shard",
    "expert",
    "tensor",
    "rank",
    "cache",
    "page",
    "token",
    "batch",
]


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    templates = draw(
        st.lists(
            st.lists(
                st.sampled_from([*WORDS, "{x}", "{y!r}", ":", "."]), min_size=1, max_size=7
            ).map(" ".join),
            min_size=1,
            max_size=12,
            unique=True,
        )
    )
    messages = []
    for template in templates:
        filled = template.replace("{x}", draw(st.sampled_from(["3", "alpha", "a b"]))).replace(
            "{y!r}", "'q'"
        )
        messages.append("ValueError: " + filled)
        messages.append("ValueError: " + filled.replace("alpha", "omega"))
    return templates, messages


@settings(max_examples=60, deadline=None)
@given(corpora())
def test_prefilter_and_scan_give_identical_results(corpus: tuple[list[str], list[str]]) -> None:
    templates, messages = corpus
    envelopes = [
        make_envelope(
            id=f"{n:016x}",
            slug=f"r{n}",
            errorMessage=t,
            messagePattern=template_to_pattern(t),
        )
        for n, t in enumerate(templates)
    ]
    fast = Catalog(envelopes)
    slow = fast.with_engine("scan")
    for message in messages:
        a = [
            (m.record.id, m.mode, m.confidence, dict(m.params))
            for m in match_all(message, catalog=fast)
        ]
        b = [
            (m.record.id, m.mode, m.confidence, dict(m.params))
            for m in match_all(message, catalog=slow)
        ]
        exact_a = [x for x in a if x[1] != "fuzzy"]
        exact_b = [x for x in b if x[1] != "fuzzy"]
        assert exact_a == exact_b, message


def test_anchor_words_skip_words_glued_to_placeholders() -> None:
    index = PatternIndex([template_to_pattern("prefix{x}suffix and more words")])
    assert index.candidates("prefixVALUEsuffix and more words")
    assert not index._anchors.get("prefix") and not index._anchors.get("suffix")
    assert "and" in index._anchors.words or "words" in index._anchors.words  # others are anchors


def test_shared_patterns_keep_every_record() -> None:
    index = PatternIndex(["a (.+?) b", "c", "a (.+?) b"])
    assert len(index) == 2
    assert index.candidates("a 1 b")[0].records == (0, 2)


@settings(max_examples=40, deadline=None)
@given(corpora(), st.integers(0, 3))
def test_pair_anchors_and_their_fallback_find_the_same_candidates(
    corpus: tuple[list[str], list[str]], most_words: int
) -> None:
    import errcat.index as index_module

    templates, messages = corpus
    patterns = [template_to_pattern(t) for t in templates]
    plain = PatternIndex(patterns)
    old = index_module.RARE_WORD, index_module.PAIR_WORDS_MAX
    try:
        index_module.RARE_WORD = 0  # every pattern with two words is pair-anchored
        index_module.PAIR_WORDS_MAX = most_words  # and wordy messages use the fallback
        paired = PatternIndex(patterns)
        for message in messages:
            text = fold_whitespace(message.split(": ", 1)[1])
            assert [e.pattern for e in paired.candidates(text)] == [
                e.pattern for e in plain.candidates(text)
            ]
    finally:
        index_module.RARE_WORD, index_module.PAIR_WORDS_MAX = old


def test_common_rarest_word_files_the_pattern_under_a_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    import errcat.index as index_module

    monkeypatch.setattr(index_module, "RARE_WORD", 1)
    index = PatternIndex(["shard (.+?) missing", "shard (.+?) corrupt", "disk (.+?) missing"])
    # "missing" and "shard" are each in two patterns; "corrupt" and "disk" in one.
    assert index._pairs.words == ["missing\x00shard"]
    assert sorted(index._anchors.words) == ["corrupt", "disk"]
    assert [e.pattern for e in index.candidates("shard 3 missing")] == ["shard (.+?) missing"]
    assert index.candidates("shard 3 gone") == []


@given(
    st.text(alphabet=alphabet, min_size=0, max_size=12),
    st.text(alphabet=alphabet, min_size=1, max_size=16),
)
def test_ends_inside_means_the_text_ends_with_a_proper_start_of_the_fragment(
    text: str, fragment: str
) -> None:
    brute = any(text.endswith(fragment[:k]) for k in range(4, len(fragment)))
    assert ends_inside(text, fragment) == brute


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.sampled_from(["cache", "layer", "shard", "quota", "token"]), min_size=2, max_size=4
    ),
    st.sampled_from(["Supported kinds: ", "Known ones are ", "See the docs for "]),
)
def test_a_text_cut_where_the_longest_fragment_goes_on_is_a_prefix_candidate(
    topic: list[str], more: str
) -> None:
    # So many patterns start with "Model" that the first word does not propose them.
    fillers = [template_to_pattern(f"Model {n} has no field {{f}}") for n in range(80)]
    sentence = f" are not supported for {' '.join(topic)} now."
    target = template_to_pattern("Model kinds {k}" + sentence + " " + more + "{known}")
    index = PatternIndex([*fillers, target])
    text = "Model kinds ['X']" + sentence
    assert target in [e.pattern for e in index.prefix_candidates(text)]
    # A text that stops elsewhere does not propose it.
    other = "Model kinds ['X'] were not found."
    assert target not in [e.pattern for e in index.prefix_candidates(other)]


@settings(max_examples=1500)
@given(simple_patterns(), texts)
def test_truncated_pieces_agree_with_the_regex_partial_match(pattern: str, text: str) -> None:
    from errcat.patterns import pieces_truncated

    pieces = pattern_pieces(pattern)
    assert pieces is not None
    m = compile_pattern(pattern).full.fullmatch(text, partial=True)
    assert pieces_truncated(pieces, text) == (m is not None and m.partial)


_C_LIKE = st.sampled_from(
    [
        template_to_pattern(t)
        for t in (
            "No module named {name!r}",
            "{obj!r} object is not callable",
            "list index out of range",
            "invalid literal for int() with base {base}: {value!r}",
            "{name} must be a positive integer",
        )
    ]
)


@settings(max_examples=300)
@given(
    st.one_of(simple_patterns(), _C_LIKE),
    st.one_of(texts, st.just("No module named 'vllm._C'"), st.just("list index out of range")),
    st.sampled_from([None, "ValueError", "IndexError", "ModuleNotFoundError", "pkg.Error"]),
)
def test_stored_word_evidence_is_what_the_model_says(
    pattern: str, message: str, error_class: str | None
) -> None:
    # A stored index keeps each pattern's word evidence: reading it must answer as
    # asking the background model does, C's question included.
    entry = Entry.build(pattern, ())
    columns = word_columns([pattern])
    fragments = entry.fragments
    assert columns.bits[0] == background.information(fragments)
    assert columns.projects[0] == background.projects(fragments)
    assert bool(columns.flags[0] & 1) == any(background.shape_words(f) for f in fragments)
    c_wording = bool(columns.flags[0] & 2)
    assert background.c_origin(
        message, fragments, error_class, c_wording=c_wording
    ) == background.c_origin(message, fragments, error_class)


def test_an_index_from_tables_hands_each_entry_its_stored_word_evidence() -> None:
    patterns = [template_to_pattern("No module named {name!r}"), template_to_pattern("bad {x}")]
    built = PatternIndex(patterns)
    assert built.entry(0).prior is None  # in memory: the matcher asks the model
    tables = built.tables()
    stored = PatternIndex.from_tables(replace(tables, priors=word_columns(tables.patterns)))
    prior = stored.entry(0).prior
    assert prior == background.word_evidence(stored.entry(0).fragments)
    assert prior is not None and prior.c_wording and prior.has_words


@settings(max_examples=200)
@given(
    st.lists(st.one_of(simple_patterns(), _C_LIKE, st.just(r"bad \d+ (?:x|y) items")), max_size=6)
)
def test_index_built_with_priors_agrees_with_each_patterns_evidence(patterns: list[str]) -> None:
    # The stored index's builder works the evidence out from the pieces it splits
    # anyway; it must be what each pattern's own fragments give.
    built = PatternIndex(patterns, priors=True).priors
    assert built is not None
    distinct = list(dict.fromkeys(patterns))
    expected = word_columns(distinct)
    assert list(built.bits) == list(expected.bits)
    assert list(built.projects) == list(expected.projects)
    assert list(built.flags) == list(expected.flags)


@settings(max_examples=400)
@given(simple_patterns(), st.lists(st.text(alphabet=alphabet, max_size=16), max_size=3))
def test_c_printing_check_reads_pieces_as_the_regex(pattern: str, examples: list[str]) -> None:
    """Whether C could print a record's message: its pieces say what its regex says."""
    from errcat.matcher.text_evidence import _c_could_print

    entry = Entry.build(pattern, (0,))
    assert entry.pieces is not None
    by_regex = replace(entry, pieces=None)
    assert _c_could_print(entry, examples) == _c_could_print(by_regex, examples)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(WORDS), min_size=2, max_size=5), min_size=3, max_size=15),
    st.lists(st.sampled_from(WORDS), max_size=8),
)
def test_pair_anchored_patterns_are_proposed_by_each_pair_the_text_holds(
    lines: list[list[str]], said: list[str]
) -> None:
    """A pattern filed under a pair of words is proposed exactly when the text has both."""
    import errcat.index as index_module

    saved = index_module.RARE_WORD
    index_module.RARE_WORD = 1  # every pattern's rarest word is common: all are pair-filed
    try:
        idx = PatternIndex([" ".join(words) for words in lines])
    finally:
        index_module.RARE_WORD = saved
    text = " ".join(said)
    present = set(said)
    expected = set(idx.always)
    for key in idx._pairs.words:
        a, b = key.split("\x00")
        if a in present and b in present:
            expected.update(idx._pairs.get(key))
    for word in present:
        expected.update(idx._anchors.get(word))
    assert idx._find_proposed(text) == expected


def _pieces_by_the_whole_pattern(pattern: str) -> tuple[str, ...] | None:
    """pattern_pieces as first written: one regex for the whole pattern, then each piece."""
    import re

    from errcat.patterns import GROUP, is_simple_pattern

    if not is_simple_pattern(pattern):
        return None
    pieces = []
    for raw in pattern.split(GROUP):
        piece = re.sub(r"\\(.)", r"\1", raw, flags=re.DOTALL) if "\\" in raw else raw
        if re.search(r"\s\s|[^\S ]", piece):
            piece = re.sub(r"\s+", " ", piece)
        pieces.append(piece)
    pieces[0] = pieces[0].lstrip()
    pieces[-1] = pieces[-1].rstrip()
    return tuple(pieces)


PATTERN_BITS = [
    *["(.+?)", "\\", "\\.", "\\\\", "\\d", "(", ")", ".", "+", "?", "a", "  ", " ", "\t"],
    *["\n", "\u00a0", "\u200b", "\x1c", "é", "{", "[", "|", "x y", "\\ ", "\\\t"],
]


@settings(max_examples=1500)
@given(st.lists(st.sampled_from(PATTERN_BITS), max_size=10).map("".join))
def test_pattern_pieces_read_piece_by_piece_as_the_whole(pattern: str) -> None:
    """Pieces found piece by piece are those the whole-pattern test finds."""
    pattern_pieces.cache_clear()
    assert pattern_pieces(pattern) == _pieces_by_the_whole_pattern(pattern)
