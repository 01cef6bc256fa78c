"""Messages cut at their start (:mod:`errcat.matcher.head_cut`).

A search chunk or an issue title that begins mid-message (``ncountered an issue.
See stack trace (above) ...``, a title quoting ``"unsupported LoRA weight"`` of
``{name} is unsupported LoRA weight``) was never answered: no pattern matches it
from its start, and the index does not propose the pattern whose fragment the cut
fell in. It is now read as a cut-off rendering of the patterns sharing its words.
"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD, templates_catalog
from errcat.matcher import match_error
from errcat.matcher.head_cut import HEAD_CUT_MIN_CHARS, head_cut, head_word

FIVE = st.lists(ZQ_WORD, min_size=5, max_size=5, unique=True)
#: The target's id: ``templates_catalog`` numbers its records from 1; the target is first.
TARGET_ID = f"{1:016x}"


def _template(words: list[str]) -> str:
    a, b, c, d, e = words
    return f"Engine{a} {b} failed for {{name}} because {c} {d} could not be {e}."


def _others(words: list[str]) -> list[str]:
    """Templates that share some of the target's words (what the index proposes too)."""
    _, b, c, d, e = words
    return [f"{b} failed for {{name}}", f"{c} {d} is {{value}}", f"could not be {e} {{x}}"]


@settings(max_examples=20, deadline=None)
@given(words=FIVE, name=ZQ_WORD, cut=st.integers(0, 5))
def test_a_message_cut_inside_its_first_word_is_answered_as_cut_off(
    words: list[str], name: str, cut: int
) -> None:
    a, b, c, d, e = words
    first = f"Engine{a}"
    partial = first[cut + 1 :]  # "ngine..." to "...": a lower-case rest of the word
    text = f"{partial} {b} failed for {name} because {c} {d} could not be {e}."
    found = match_error(text, catalog=templates_catalog(_template(words), *_others(words)))
    assert found is not None and found.summary.id == TARGET_ID
    assert found.mode == "truncated" and not found.exact
    # Less than a whole match of the same template.
    whole = match_error(
        f"{first} {text[len(partial) + 1 :]}", catalog=templates_catalog(_template(words))
    )
    assert whole is not None and whole.confidence >= found.confidence


@settings(max_examples=20, deadline=None)
@given(words=FIVE, name=ZQ_WORD, title=st.sampled_from(['[Bug]: "{}"', "{}", "[Usage] `{}`"]))
def test_a_title_quoting_the_messages_last_words_is_answered(
    words: list[str], name: str, title: str
) -> None:
    # "{name} is" dropped: a value and a common word, as vllm's "{name} is unsupported
    # LoRA weight" quoted as "unsupported LoRA weight".
    _, b, c, d, e = words
    template = f"{{name}} is {b} because {c} {d} could not be {e}."
    tail = f"{b} because {c} {d} could not be {e}."
    found = match_error(title.format(tail), catalog=templates_catalog(template))
    assert found is not None and found.summary.id == TARGET_ID and found.mode == "truncated"


@settings(max_examples=20, deadline=None)
@given(words=FIVE, name=ZQ_WORD)
def test_a_cut_between_words_that_removed_a_name_is_not_read(words: list[str], name: str) -> None:
    # "Engine<a>" dropped whole: another template ending the same way may have had
    # another name there, filed under it, which the tail does not propose.
    _, b, c, d, e = words
    tail = f"{b} failed for {name} because {c} {d} could not be {e}."
    found = match_error(f'[Bug]: "{tail}"', catalog=templates_catalog(_template(words)))
    assert found is None or found.mode != "truncated"


@settings(max_examples=20, deadline=None)
@given(words=FIVE, name=ZQ_WORD, mine=st.lists(ZQ_WORD, min_size=2, max_size=3))
def test_a_tail_that_leaves_the_template_is_not_read_as_cut(
    words: list[str], name: str, mine: list[str]
) -> None:
    # The template's words, then the writer's own where its text goes on.
    _, b, c, d, _ = words
    text = f"{b} failed for {name} because {c} {d} {' '.join(mine)}."
    found = match_error(text, catalog=templates_catalog(_template(words)))
    assert found is None or found.mode != "truncated"


@settings(max_examples=20, deadline=None)
@given(words=FIVE)
def test_a_short_tail_is_not_read_as_cut(words: list[str]) -> None:
    # "not be <e>." holds fewer literal characters than a head-cut form must.
    e = words[4]
    text = f"not be {e}."
    assert len(text) < HEAD_CUT_MIN_CHARS
    found = match_error(text, catalog=templates_catalog(_template(words)))
    assert found is None or found.summary.id != TARGET_ID


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(ZQ_WORD, min_size=4, max_size=4, unique=True),
    values=st.lists(ZQ_WORD, min_size=2, max_size=2),
    cut=st.integers(1, 3),
)
def test_head_cut_recovers_the_captures_after_the_cut(
    words: list[str], values: list[str], cut: int
) -> None:
    assume(not set(values) & set(words))  # a value spelled as a word reads two ways
    a, b, c, d = words
    pieces = (f"{a} {b} ", f" {c} ", f" {d}.")
    rendered = f"{a} {b} {values[0]} {c} {values[1]} {d}."
    # Cut inside the second word: the first capture survives, none is lost.
    text = rendered[len(a) + 1 + cut :]
    assert head_word(text) == b[cut:]
    assert head_cut(pieces, text) == (
        (values[0], values[1]),
        len(pieces[0]) - len(a) - 1 - cut + len(c) + 2 + len(d) + 2,
    )
    # Cut between words in the second piece: the words removed were names, no reading.
    later = rendered[rendered.index(f" {c} ") + 1 :]
    assert head_cut(pieces, later) is None
    # ... but "{x} is" removed (a value and a common word): the first capture is lost.
    common = ("", f" is {c} ", f" {d}.")
    assert head_cut(common, later) == ((None, values[1]), len(c) + 1 + len(d) + 2)
    # The whole rendering is a whole match, not a head-cut one.
    assert head_cut(pieces, rendered) is None


def test_a_capital_first_word_is_no_head_cut() -> None:
    # A message that opens with a capital is printed whole (or its class was cut).
    assert head_cut(("", " is unsupported LoRA weight"), "Unsupported LoRA weight") is None


@settings(max_examples=20, deadline=None)
@given(words=FIVE, cut=st.integers(0, 4), end=st.integers(1, 8))
def test_a_message_cut_at_both_ends_is_answered_as_cut_off(
    words: list[str], cut: int, end: int
) -> None:
    # "itsAndBytes load format ... 'bitsandbytes' quantization" of vllm's "BitsAndBytes
    # load format ... quantization, but got {q}": a title that lost its first letter and
    # its tail.
    a, b, c, d, e = words
    template = f"Engine{a} {b} and {c} only support {d} {e}, but got {{value}}"
    whole = f"Engine{a} {b} and {c} only support {d} {e}, but got"
    text = whole[cut + 1 : len(whole) - end]
    found = match_error(f"Here is the error: {text}", catalog=templates_catalog(template))
    assert found is not None and found.summary.id == TARGET_ID and found.mode == "truncated"


@settings(max_examples=20, deadline=None)
@given(words=FIVE, n=st.integers(1, 999), mine=st.lists(ZQ_WORD, min_size=2, max_size=3))
def test_a_value_then_the_writers_words_is_no_cut_at_both_ends(
    words: list[str], n: int, mine: list[str]
) -> None:
    # The head of the template's rest, a value, then words of the writer's own in the
    # place of the template's next words: no rendering of it, cut or whole.
    a, b, c, d, e = words
    template = f"Engine{a} {b} size {{n}} is too large for {c} {d} {e}"
    text = f"ngine{a} {b} size {n} {' '.join(mine)}"
    found = match_error(text, catalog=templates_catalog(template))
    assert found is None or found.mode != "truncated"
