"""transformers' tokenizer ``__getattr__`` refusal (stack_curated.transformers_tokenizer).

The miner drops ``{cls} has no attribute {key}`` as too vague, so the record is written by
hand and keeps to tokenizer classes. The study-set dev paste (an even-numbered thread:
vLLM reading ``all_special_tokens_extended`` under transformers 5) gets it, with the pin
that fixed it; a class that is not a tokenizer does not.
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

from stack_curated import transformers_tokenizer  # noqa: E402


def test_the_study_paste_gets_the_record_and_the_transformers_pin() -> None:
    match = errcat.match_error(
        study_stack_texts()["qwen3-vl-2058"], catalog=stack_package_catalog("hf")
    )
    assert match is not None
    assert match.record.file_path == "src/transformers/tokenization_utils_base.py"
    assert any('"transformers<5"' in s for s in match.record.solutions)


@settings(max_examples=60, deadline=None)
@given(
    st.from_regex(r"zq[A-Za-z0-9]{0,12}", fullmatch=True),
    st.sampled_from(["", "Fast", "sBackend"]),
    st.from_regex(r"zq[a-z_]{1,20}", fullmatch=True),
)
def test_tokenizer_classes_fit_and_other_classes_do_not(model: str, kind: str, key: str) -> None:
    pattern = transformers_tokenizer.TOKENIZER_ATTRIBUTE.envelope().record.message_pattern
    assert regex.fullmatch(pattern, f"{model}Tokenizer{kind} has no attribute {key}")
    assert regex.fullmatch(pattern, f"{model}Config has no attribute {key}") is None
    # the interpreter's own wording (quotes, 'object') is another record's
    assert regex.fullmatch(pattern, f"'{model}Tokenizer' object has no attribute '{key}'") is None
