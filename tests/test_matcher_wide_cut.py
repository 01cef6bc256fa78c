"""A paste cut before its template's longest fragment, whose first word opens many templates.

``CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of
79.15 GiB of which 1.06 GiB is free.`` (an issue title) stops before torch's
longest fragment, and "CUDA" opens more templates than the first prefix search
reads: it went unanswered (0.07) until a second, wider search for texts that
nothing else answered.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.index import RARE_WORD, WIDE_FIRST_WORD
from errcat.matcher import match_all as errcat_match_all
from errcat.matcher import match_error
from errcat.patterns import template_to_pattern

TARGET = (
    "CUDA out of memory. Tried to allocate {size}. GPU {device} has a total capacity of "
    "{total} of which {free} is free.{others}Of the allocated memory {allocated} is "
    "allocated by PyTorch, and {reserved} is reserved by PyTorch but unallocated."
)
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"]


def _catalog(others: int) -> Catalog:
    """The target and ``others`` templates that open with the same word, each its own."""
    items = [
        make_envelope(
            id=f"{n:016x}",
            slug=f"cuda-error-{n}",
            errorMessage=message,
            messagePattern=template_to_pattern(message),
            errorClass="RuntimeError",
        )
        for n, message in enumerate(
            f"CUDA error: {WORDS[n % 9]} {WORDS[n // 9 % 9]} {WORDS[n // 81 % 9]} step {{x}}"
            for n in range(others)
        )
    ]
    items.append(
        make_envelope(
            id="ffffffffffffffff",
            slug="cuda-out-of-memory",
            errorMessage=TARGET,
            messagePattern=template_to_pattern(TARGET),
            errorClass="torch.OutOfMemoryError",
        )
    )
    return Catalog(items)


CROWDED = _catalog(RARE_WORD + 40)
assert RARE_WORD + 41 <= WIDE_FIRST_WORD


@settings(max_examples=40)
@given(
    size=st.sampled_from(["2.00 GiB", "512.00 MiB", "20.50 GiB"]),
    device=st.integers(0, 7),
    total=st.sampled_from(["79.15 GiB", "23.64 GiB", "139.81 GiB"]),
    free=st.sampled_from(["1.06 GiB", "17.06 MiB", "0 bytes"]),
    rest=st.sampled_from(["", " Including non-PyTorch memory, this process has 78.08 GiB."]),
)
def test_a_cut_paste_is_answered_among_many_templates_with_its_first_word(
    size: str, device: int, total: str, free: str, rest: str
) -> None:
    paste = (
        f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {size}. GPU {device} "
        f"has a total capacity of {total} of which {free} is free.{rest}"
    )
    found = match_error(paste, catalog=CROWDED)
    assert found is not None and found.summary.id == "ffffffffffffffff"
    assert found.mode == "truncated"


def test_the_wide_search_does_not_answer_what_no_template_opens() -> None:
    assert match_error("RuntimeError: CUDA kernels stopped for no reason", catalog=CROWDED) is None


def test_a_pattern_without_words_at_a_frame_does_not_stop_the_wide_search() -> None:
    # A traceback's frames propose the patterns without a word of their own ('{msg}'),
    # which fit any message: such a fit is not "something fits", so the cut-off
    # search still runs (the OOM record was found as a bare line, not under a frame).
    wordless = make_envelope(
        id="eeeeeeeeeeeeeeee",
        slug="wordless",
        errorMessage="{msg}",
        messagePattern=template_to_pattern("{msg}"),
        errorClass="ValueError",
        filePath="vllm/entrypoints/llm.py",
        lineNumber=10,
        sourceCodeStart=1,
        sourceCodeEnd=30,
    )
    catalog = CROWDED.merge(Catalog([wordless]))
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.12/site-packages/vllm/entrypoints/llm.py", line 245, in'
        " __init__\n    self.llm_engine = LLMEngine.from_engine_args(\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has"
        " a total capacity of 79.10 GiB of which 1.06 GiB is free."
    )
    found = errcat_match_all(paste, catalog=catalog)
    assert found and found[0].summary.id == "ffffffffffffffff"
    assert found[0].mode == "truncated"
