"""tokenizers' untagged-enum refusal in errcat-data-hf (stack_curated.tokenizers_errors).

The text is serde's, raised by the compiled binding, so no mined record holds it. The
study-set dev title (an even-numbered thread) and a loader traceback get the record,
whatever wrapper and position the message names; the advice is to upgrade the pair.
"""

from __future__ import annotations

import sys
from pathlib import Path

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import stack_package_catalog, study_stack_texts

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stack_curated import tokenizers_errors  # noqa: E402


def test_the_study_title_and_a_loader_traceback_get_the_record() -> None:
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "/env/site-packages/transformers/tokenization_utils_fast.py", line 116,'
        " in __init__\n"
        "    fast_tokenizer = TokenizerFast.from_file(fast_tokenizer_file)\n"
        "Exception: data did not match any variant of untagged enum PyPreTokenizerTypeWrapper"
        " at line 40 column 3"
    )
    for text in (study_stack_texts()["open-instruct-738-title"], traceback):
        match = errcat.match_error(text, catalog=stack_package_catalog("hf"))
        assert match is not None, text
        assert match.record.repo == "huggingface/tokenizers"
        assert any("pip install -U tokenizers transformers" in s for s in match.record.solutions)


@settings(max_examples=40, deadline=None)
@given(
    st.from_regex(r"Zq[A-Za-z]{1,20}Wrapper", fullmatch=True),
    st.integers(min_value=1, max_value=10**7),
    st.integers(min_value=1, max_value=500),
)
def test_any_wrapper_and_position_fit_the_pattern(wrapper: str, line: int, column: int) -> None:
    pattern = tokenizers_errors.UNTAGGED_ENUM.envelope().record.message_pattern
    text = (
        f"data did not match any variant of untagged enum {wrapper} at line {line} column {column}"
    )
    assert regex.fullmatch(pattern, text) is not None
    assert regex.fullmatch(pattern, text.replace("untagged", "tagged")) is None
