"""The words a text mentions, counted on demand, are the counts of splitting it into words."""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.matcher.text_evidence import _ANSI, _MENTION_CHARS, _MENTION_WORD, Mentions, _mentions


def split_and_count(text: str) -> Counter[str]:
    """Every word of the text counted at once (what the matcher read before)."""
    plain = _ANSI.sub(" ", text[:_MENTION_CHARS])
    if plain.isascii():
        return Counter(_MENTION_WORD.findall(plain.lower()))
    return Counter(map(str.lower, _MENTION_WORD.findall(plain)))


# Texts made of the pieces that decide where a word starts and ends: letters of both
# cases, digits, underscores, separators, colour codes, and a few non-ASCII letters.
_PIECES = st.sampled_from(
    [
        "vllm",
        "VLLM",
        "sglang",
        "_x",
        "3",
        "42",
        "_",
        ".",
        "/",
        " ",
        "\n",
        "-",
        "a",
        "Z",
        "é",
        "İ",
        "\x1b[31m",
        "\x1b[0m",
        "torch",
        "Error",
        "vllm_",
        "x3",
    ]
)
_TEXTS = st.lists(_PIECES, max_size=30).map("".join)
# Words asked for: some a text holds, some it cannot (upper case, a leading digit, empty).
_WORDS = st.sampled_from(
    [
        "vllm",
        "sglang",
        "_x",
        "x3",
        "x3vllm",
        "vllm_",
        "a",
        "z",
        "torch",
        "error",
        "VLLM",
        "3vllm",
        "",
        "_",
        "é",
        "i",
    ]
)


@settings(max_examples=400, deadline=None)
@given(_TEXTS, st.lists(_WORDS, max_size=6))
def test_counts_asked_for_are_the_counts_of_all_words(text: str, asked: list[str]) -> None:
    reference = split_and_count(text)
    mentions = _mentions(text)
    for word in asked:
        assert (word in mentions) == (word in reference), (text, word)
        assert mentions.get(word, 0) == reference.get(word, 0), (text, word)
    assert dict(mentions) == dict(reference)
    assert len(mentions) == len(reference)


@settings(max_examples=200, deadline=None)
@given(_TEXTS)
def test_every_word_of_the_text_is_found_with_its_count(text: str) -> None:
    reference = split_and_count(text)
    mentions = Mentions(text)  # asked word by word before any walk over all of them
    for word, count in reference.items():
        assert mentions[word] == count, (text, word)


def test_a_word_glued_after_digits_is_a_word_and_after_a_letter_is_not() -> None:
    mentions = _mentions("see 3vllm and x3sglang, \x1b[1mtorch\x1b[0m")
    assert mentions["vllm"] == 1
    assert "sglang" not in mentions
    assert mentions["x3sglang"] == 1
    assert mentions["torch"] == 1
    assert "mtorch" not in mentions


def test_only_the_first_characters_are_read() -> None:
    text = "a " * (_MENTION_CHARS // 2) + "vllm"
    assert "vllm" not in _mentions(text)
    assert re.search("vllm", text)
