"""An issue title cut where the index proposes nothing: read against the nearest patterns.

``[Bug]: The model's max seq len (4096) is larger than the maximum number of
tokens that can be stored in KV cache (3664)`` stops just before vllm's longest
fragment (``). Try increasing ...``), and "The" opens more templates than even
the wide prefix search reads: it was answered only as a fuzzy hint (0.29). The
patterns sharing the most words with such a text are now read as cut off too,
under the same bounds as any cut-off paste.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import templates_catalog
from errcat.catalog import Catalog
from errcat.index import WIDE_FIRST_WORD
from errcat.matcher import match_error

# Words no template of the tests holds by chance ("zq" + letters).
WORD = st.text("abcdefgh", min_size=3, max_size=6).map(lambda w: "zq" + w)
LETTERS = "abcdefghijklmnop"


def _filler(n: int) -> str:
    """The n-th crowding template: "The", then words of its own (no "zq" word)."""
    a, b, c = LETTERS[n % 16], LETTERS[n // 16 % 16], LETTERS[n // 256 % 16]
    return f"The {a}{b}{c}word {c}{a}{b}thing failed at step {{x}}"


CROWD = [_filler(n) for n in range(WIDE_FIRST_WORD + 20)]
#: The target's id: ``templates_catalog`` numbers its records from 1, the target last.
TARGET_ID = f"{len(CROWD) + 1:016x}"


def _catalog(target: str) -> Catalog:
    """``target`` among more templates that open with its first word than any search reads."""
    return templates_catalog(*CROWD, target)


def _target(words: list[str]) -> str:
    """A template like vllm's KV cache one: two values, then a long advice sentence.

    Without backticks: a template with them is also read unticked, from an index of
    its own, which proposes it by its first fragment.
    """
    a, b, c, d, e, f = words
    return (
        f"The {a} {b} len ({{n}}) is larger than the {c} number of {d} stored in {e} "
        f"({{m}}). Try increasing {f}_utilization or decreasing {f}_len when "
        "initializing the engine."
    )


SIX = st.lists(WORD, min_size=6, max_size=6, unique=True)


@settings(max_examples=15, deadline=None)
@given(
    words=SIX,
    n=st.integers(1, 99999),
    m=st.integers(1, 99999),
    tag=st.sampled_from(["", "[Bug]: ", "ValueError: ", "[Bug]: ValueError: "]),
)
def test_a_title_cut_before_the_longest_fragment_is_answered(
    words: list[str], n: int, m: int, tag: str
) -> None:
    a, b, c, d, e, _ = words
    title = f"{tag}The {a} {b} len ({n}) is larger than the {c} number of {d} stored in {e} ({m})"
    found = match_error(title, catalog=_catalog(_target(words)))
    assert found is not None and found.summary.id == TARGET_ID
    assert found.mode == "truncated"


@settings(max_examples=15, deadline=None)
@given(words=SIX, n=st.integers(1, 99999), other=WORD)
def test_a_text_that_leaves_the_template_is_not_read_as_cut_off(
    words: list[str], n: int, other: str
) -> None:
    # The same words, but the text goes on with its own instead of the template's:
    # it is no cut-off rendering of the target, whatever words the two share.
    a, b, c, d, e, _ = words
    text = f"The {a} {b} len ({n}) is larger than the {c} number of {d} stored in {other} {e}."
    found = match_error(text, catalog=_catalog(_target(words)))
    assert found is None or found.summary.id != TARGET_ID or found.mode != "truncated"


@settings(max_examples=15, deadline=None)
@given(words=SIX, n=st.integers(1, 99999), others=st.lists(WORD, min_size=2, max_size=3))
def test_a_value_followed_by_the_writers_words_is_not_read_as_cut_off(
    words: list[str], n: int, others: list[str]
) -> None:
    # The template's head, then words of the writer's own where its text goes on: the
    # last capture would hold them all, which no value of the template does.
    a, b, *_ = words
    text = f"[Bug]: The {a} {b} len ({n}) {' '.join(others)}"
    found = match_error(text, catalog=_catalog(_target(words)))
    assert found is None or found.summary.id != TARGET_ID


@settings(max_examples=15, deadline=None)
@given(words=SIX, n=st.integers(1, 99999))
def test_a_short_head_is_not_read_as_cut_off_from_the_nearest_patterns(
    words: list[str], n: int
) -> None:
    # Fewer than 30 of the template's characters: a head that several templates may
    # open, of which the few nearest patterns read may miss the one it was cut from.
    # (The whole opening then a cut inside the first value, ``The a b len (4096``, is
    # read from every pattern opening so: tests/test_matcher_first_value_cut.py.)
    a, b, *_ = words
    found = match_error(f"[Bug]: The {a} {b} len (", catalog=_catalog(_target(words)))
    assert found is None or found.summary.id != TARGET_ID
