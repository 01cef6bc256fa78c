"""How much work one match does: what is read once, from the index alone, without a regex.

The answers are the same as before; these tests pin down the work (speed itself is
measured by ``benchmarks/bench_match.py`` and ``benchmarks/profile_match.py``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat import Catalog, match_all, match_error
from errcat.index import PatternIndex
from errcat.matcher import site_evidence
from errcat.matcher.summaries import class_may_end, raised_near
from errcat.patterns import compile_pattern, template_to_pattern
from errcat.store import open_file_store
from errcat.store.file import FileStore


def _line(n: int, path: str, line: int, message: str) -> str:
    envelope = make_envelope(
        id=f"{n:016x}",
        slug=f"record-{n}",
        filePath=path,
        lineNumber=line,
        errorMessage=message,
        messagePattern=template_to_pattern(message),
        githubUrl=f"https://github.com/example/project/blob/{'0' * 40}/{path}#L1-L30",
    )
    return envelope.model_dump_json(by_alias=True) + "\n"


@pytest.fixture
def stored(tmp_path: Path) -> FileStore:
    path = tmp_path / "catalog.jsonl"
    path.write_text(
        _line(1, "pkg/util.py", 20, "shard {i} of {n} is missing")
        + _line(2, "pkg/util.py", 12, "bad value {v} for {name}")
        + _line(3, "other/util.py", 21, "cannot open {path!r}")
        + _line(4, "pkg/util.py", 21, "disk {d} is full")
        + _line(5, "pkg/core.py", 20, "core {c} failed"),
        encoding="utf-8",
    )
    store = open_file_store(path, progress=False)
    assert isinstance(store, FileStore) and len(store) == 5
    return store


def test_raised_lines_come_from_the_index_in_line_order(stored: FileStore) -> None:
    lines, positions = stored.raised_lines("util.py")
    assert list(lines) == [12, 20, 21, 21]
    assert [stored.summary(p).line_number for p in positions] == [12, 20, 21, 21]
    assert list(positions) == sorted(positions, key=lambda p: (stored.summary(p).line_number, p))
    assert [len(part) for part in stored.raised_lines("nothing.py")] == [0, 0]


def test_raised_near_reads_no_row_of_a_stored_index(
    stored: FileStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = sorted(
        p for p in stored.records_in_file("util.py") if abs(stored.summary(p).line_number - 20) <= 1
    )

    def no_rows(position: int) -> Any:
        raise AssertionError("a row was decoded")

    monkeypatch.setattr(stored, "summary", no_rows)
    assert len(expected) == 3
    assert sorted(raised_near(stored, "util.py", 20, 1)) == expected
    assert raised_near(stored, "util.py", 100, 3) == []


def test_an_assert_without_a_message_reads_each_records_raise_source_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The statement's owners are found by the raise source, then each is scored by it.
    path = tmp_path / "asserts.jsonl"
    path.write_text(
        "".join(
            make_envelope(
                id=f"{n:016x}",
                slug=f"assert-{n}",
                filePath="pkg/util.py",
                lineNumber=line,
                errorMessage="",
                messagePattern="",
                errorClass="AssertionError",
                sourceCode="\n".join(
                    "    assert shard_count is not None"
                    if k == 20
                    else "    assert other_value is not None"
                    if k == 12
                    else f"    x{k} = {k}"
                    for k in range(1, 31)
                ),
                githubUrl=f"https://github.com/example/project/blob/{'0' * 40}/pkg/util.py#L1-L30",
            ).model_dump_json(by_alias=True)
            + "\n"
            for n, line in ((1, 12), (2, 20))
        ),
        encoding="utf-8",
    )
    store = open_file_store(path, progress=False)
    assert store is not None
    text = (
        "Traceback (most recent call last):\n"
        '  File "/venv/site-packages/pkg/util.py", line 26, in load\n'
        "    assert shard_count is not None\n"
        "AssertionError\n"
    )
    reads: list[int] = []
    view = store.view

    def counted(position: int) -> Any:
        reads.append(position)
        return view(position)

    monkeypatch.setattr(store, "view", counted)
    match_all(text, Catalog.of_stores([store]))
    assert reads and len(reads) == len(set(reads)), reads


def test_a_traceback_reads_each_records_raise_source_once(
    stored: FileStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = Catalog.of_stores([stored])
    text = (
        "Traceback (most recent call last):\n"
        '  File "/venv/site-packages/pkg/util.py", line 24, in load\n'
        "    raise ValueError(msg)\n"
        "ValueError: shard 3 of 8 is missing\n"
    )
    reads: list[int] = []
    view = stored.view

    def counted(position: int) -> Any:
        reads.append(position)
        return view(position)

    monkeypatch.setattr(stored, "view", counted)
    assert match_all(text, catalog)
    assert reads and len(reads) == len(set(reads)), reads


_TEMPLATES = st.sampled_from(
    [
        "shard {i} of {n} is missing",
        "{name} must be non-negative",
        "bad value {v}",
        "cannot open {path!r}.",
        "{a}: {b}",
        "no placeholder here",
        "",
    ]
)


@settings(max_examples=300, deadline=None)
@given(_TEMPLATES, st.text(alphabet="shard 3of8ismng{}:.'bad value-", max_size=40))
def test_fits_agrees_with_the_regex(template: str, text: str) -> None:
    text = " ".join(text.split())
    full = compile_pattern(template_to_pattern(template)).full
    by_regex = bool(full.fullmatch(text) or full.fullmatch(text, partial=True))
    assert site_evidence._fits(template, text) == by_regex


def test_fits_needs_no_regex_for_a_template_of_text_and_placeholders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_regex(pattern: str) -> Any:
        raise AssertionError("a regex was compiled")

    monkeypatch.setattr(site_evidence, "compile_pattern", no_regex)
    long = "shard 3 of 8 is missing" + " x" * 5000
    assert site_evidence._fits("shard {i} of {n} is missing", "shard 3 of 8 is mis")
    assert site_evidence._fits("shard {i} of {n} is missing", long)  # {n} may hold it all
    assert not site_evidence._fits("shard {i} of {n} is missing", "disk" + long)


def test_answers_of_a_stored_index_are_unchanged_by_the_stored_lines(stored: FileStore) -> None:
    catalog = Catalog.of_stores([stored])
    text = (
        "Traceback (most recent call last):\n"
        '  File "/venv/site-packages/pkg/util.py", line 20, in load\n'
        "    raise ValueError(msg)\n"
        "ValueError: shard 3 of 8 is missing\n"
    )
    found = match_error(text, catalog)
    assert found is not None and found.summary.id == f"{1:016x}"
    assert found.reasons and any("raise site" in r for r in found.reasons)


_WORDS = st.sampled_from(["shard", "of", "is", "missing", "bad", "value", "x", "é", "_a"])
_GLUE = st.sampled_from([" ", "", ", ", ": ", "-", "'", "("])


def _phrase(draw: st.DrawFn, size: int) -> str:
    return "".join(draw(_WORDS) + draw(_GLUE) for _ in range(size))


@st.composite
def _patterns_and_text(draw: st.DrawFn) -> tuple[list[str], str]:
    patterns = [
        re.escape(_phrase(draw, draw(st.integers(1, 4))))
        + draw(st.sampled_from(["", "(.+?)", " (.+?)"]))
        for _ in range(draw(st.integers(1, 6)))
    ]
    return patterns, _phrase(draw, draw(st.integers(0, 8)))


@settings(max_examples=300, deadline=None)
@given(_patterns_and_text())
def test_key_masks_pass_over_only_keys_the_text_cannot_hold(
    case: tuple[list[str], str],
) -> None:
    patterns, text = case
    index = PatternIndex(patterns)
    every = set(range(len(index.patterns)))
    assert set(index._with_key(text, every)) == {p for p in every if index.keys[p] in text}


def test_a_key_with_a_word_the_text_lacks_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    index = PatternIndex(["checkpoint (.+?) is missing from (.+?)", "checkpoint (.+?) failed"])
    read: list[int] = []
    keys = index.keys

    class Counted(list[str]):
        def __getitem__(self, pid: Any) -> Any:
            read.append(pid)
            return keys[pid]

    monkeypatch.setattr(index, "keys", Counted(keys))
    found = index.candidates("checkpoint 3 failed")
    assert [e.pattern for e in found] == ["checkpoint (.+?) failed"]
    assert read == [1]  # the first's key, " is missing from ", holds words the text lacks


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("aZ_9 .\x1b[m:İK")), max_size=40))
def test_mentions_lower_the_words_as_before(text: str) -> None:
    """The words a text mentions: each word lowered (an ASCII text is lowered whole)."""
    from collections import Counter

    from errcat.matcher.text_evidence import _ANSI, _MENTION_WORD, _mentions

    plain = _ANSI.sub(" ", text)
    assert _mentions(text) == Counter(w.lower() for w in _MENTION_WORD.findall(plain))


def test_a_pattern_opening_with_a_placeholder_is_found_inside_without_its_regex(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``worker 3 failed: <message>`` finds ``{x} is missing`` by its pieces, never its regex."""
    from errcat.index import Entry
    from errcat.matcher.verify import _verify

    def no_regex(self: Entry) -> None:
        raise AssertionError(f"compiled {self.pattern!r}")

    entry = Entry.build("(.+?) is missing from (.+?)", (0,))
    monkeypatch.setattr(Entry, "compiled", property(no_regex))
    hit = _verify(entry, "worker 3 failed: shard7 is missing from '/ckpt'.", use_pieces=True)
    assert hit is not None and (hit.mode, hit.groups) == ("inner", ("shard7", "'/ckpt"))
    wrapped = _verify(entry, "worker crashed: shard7 is missing from x", use_pieces=True)
    assert wrapped is not None and (wrapped.mode, wrapped.groups) == ("inner", ("shard7", "x"))


_CLASS_NAMES = ["ValueError", "pkg.errors.ShardError", "pkg.Error", "other.ShardError", "x.y.Err"]


@pytest.fixture(scope="module")
def classed(tmp_path_factory: pytest.TempPathFactory) -> FileStore:
    path = tmp_path_factory.mktemp("classed") / "catalog.jsonl"
    lines = []
    for n, cls in enumerate(_CLASS_NAMES):
        envelope = make_envelope(
            id=f"{n:016x}",
            slug=f"record-{n}",
            errorClass=cls,
            errorMessage=f"shard {{i}} failed at step {n}",
            messagePattern=template_to_pattern(f"shard {{i}} failed at step {n}"),
        )
        lines.append(envelope.model_dump_json(by_alias=True) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    store = open_file_store(path, progress=False)
    assert isinstance(store, FileStore)
    return store


@given(
    st.sampled_from(range(len(_CLASS_NAMES))), st.text(alphabet=".ErorShadVlupkgsxy", max_size=12)
)
def test_a_class_the_row_rules_out_does_not_end_so(
    classed: FileStore, position: int, tail: str
) -> None:
    if classed.summary(position).error_class.endswith(tail):
        assert class_may_end(classed, position, tail)


def test_a_class_is_ruled_out_from_its_row_alone(
    classed: FileStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_rows(position: int) -> Any:
        raise AssertionError("a row was decoded")

    monkeypatch.setattr(classed, "summary", no_rows)
    assert not class_may_end(classed, 0, ".ShardError")  # ValueError
    assert class_may_end(classed, 1, ".ShardError") and class_may_end(classed, 3, ".ShardError")
