"""Compiled extensions' texts in errcat-data-models (stack_extensions, compiled_texts).

safetensors', tokenizers' and openai-harmony's Rust bindings and msgspec's C code
raise texts no Python miner sees. The committed package holds the texts read from
their sources (advice generic, tagged generated) and three written by hand; pastes
shaped as the even-numbered threads the hand-written ones cite get them, a mined
text gets its project's record, and the package repeats no text another catalog
(errcat-data-hf's safetensors header record) already answers.
"""

from __future__ import annotations

import sys
from pathlib import Path

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import stack_package_catalog
from errcat import Catalog
from errcat.models import GENERATED_TAG

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stack_curated import compiled_texts  # noqa: E402
from stack_curated.spec import CURATED_TAG  # noqa: E402

MODELS = ROOT / "stack" / "packages" / "errcat-data-models" / "src" / "errcat_data_models"
HF = ROOT / "stack" / "packages" / "errcat-data-hf" / "src" / "errcat_data_hf"


def _answer(text: str) -> errcat.Match | None:
    return errcat.match_error(text, catalog=stack_package_catalog("models"))


def test_a_wrapper_s_removed_sampling_keyword_gets_msgspec_s_record() -> None:
    paste = (
        "2024-10-26 03:35:00 | ERROR | stderr | Traceback (most recent call last):\n"
        '2024-10-26 03:35:00 | ERROR | stderr |   File "/app/fastchat/serve/vllm_worker.py",'
        " line 114, in generate_stream\n"
        "2024-10-26 03:35:00 | ERROR | stderr |     sampling_params = SamplingParams(\n"
        "2024-10-26 03:35:00 | ERROR | stderr | TypeError: Unexpected keyword argument"
        " 'use_beam_search'"
    )
    match = _answer(paste)
    assert match is not None and match.record.repo == "jcrist/msgspec"
    assert CURATED_TAG in match.record.tags
    assert any('"vllm==0.6.2"' in s for s in match.record.solutions)


def test_python_s_own_keyword_error_is_not_msgspec_s() -> None:
    match = _answer("TypeError: __init__() got an unexpected keyword argument 'use_beam_search'")
    assert match is None or match.record.repo != "jcrist/msgspec"


def test_the_interpreter_s_abstract_class_error_is_not_msgspec_s() -> None:
    """msgspec's C code copies CPython 3.12's wording for a Struct; a plain class's error is
    the interpreter's, so no built-in-class text of msgspec is in the package."""
    text = (
        "TypeError: Can't instantiate abstract class ZqTool without an implementation for"
        " abstract method 'run'"
    )
    match = _answer(text)
    assert match is None or match.record.repo != "jcrist/msgspec"
    msgspec = [r for r in Catalog.from_path(MODELS) if r.repo == "jcrist/msgspec"]
    assert {r.error_class for r in msgspec if CURATED_TAG not in r.tags} <= {
        "msgspec.ValidationError",
        "msgspec.DecodeError",
        "msgspec.EncodeError",
    }


def test_an_offline_gpt_oss_server_gets_the_vocabulary_record() -> None:
    paste = (
        '  File "/venv/lib/python3.12/site-packages/openai_harmony/__init__.py", line 689,'
        " in load_harmony_encoding\n"
        "    inner: _PyHarmonyEncoding = _load_harmony_encoding(name)\n"
        "openai_harmony.HarmonyError: error downloading or loading vocab file: failed to"
        " download or load vocab file"
    )
    match = _answer(paste)
    assert match is not None and match.record.repo == "openai/harmony"
    assert any("TIKTOKEN_ENCODINGS_BASE=" in s for s in match.record.solutions)


def test_a_tokenizer_json_that_is_no_json_gets_the_download_advice() -> None:
    paste = (
        '  File "/env/site-packages/transformers/tokenization_utils_fast.py", line 111,'
        " in __init__\n"
        "    fast_tokenizer = TokenizerFast.from_file(fast_tokenizer_file)\n"
        "Exception: expected value at line 1 column 1"
    )
    match = _answer(paste)
    assert match is not None and match.record.repo == "huggingface/tokenizers"
    assert any("git lfs" in s for s in match.record.solutions)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["a value", "a string", "an object", "a list"]),
    st.integers(min_value=1, max_value=10**7),
    st.integers(min_value=1, max_value=500),
    st.from_regex(r"Zq[A-Za-z]{1,12}Wrapper", fullmatch=True),
)
def test_serde_s_syntax_errors_fit_and_its_enum_refusal_does_not(
    what: str, line: int, column: int, wrapper: str
) -> None:
    cut = compiled_texts.TOKENIZER_JSON_CUT.envelope().record.message_pattern
    start = compiled_texts.TOKENIZER_JSON.envelope().record.message_pattern
    assert regex.fullmatch(cut, f"EOF while parsing {what} at line {line} column {column}")
    assert regex.fullmatch(start, f"expected value at line {line} column {column}")
    enum = f"data did not match any variant of untagged enum {wrapper} at line {line} column 3"
    assert not regex.fullmatch(cut, enum) and not regex.fullmatch(start, enum)


def test_mined_binding_texts_answer_as_their_project() -> None:
    for text, repo in (
        (
            "safetensors_rust.SafetensorError: File does not contain tensor"
            " model.layers.0.mlp.gate_proj.weight",
            "huggingface/safetensors",
        ),
        (
            "openai_harmony.HarmonyError: channel marker present but no channel value found"
            " in header",
            "openai/harmony",
        ),
        (
            "Exception: Unk token `<unk>` not found in the vocabulary",
            "huggingface/tokenizers",
        ),
    ):
        match = _answer(text)
        assert match is not None and match.record.repo == repo, text
        assert GENERATED_TAG in match.record.tags


def test_the_package_repeats_no_text_the_hf_package_answers() -> None:
    hf = {r.message_pattern for r in Catalog.from_path(HF)}
    mined = [r for r in Catalog.from_path(MODELS) if "errcat:compiled" in r.tags]
    assert len(mined) > 100
    assert not [r.error_message for r in mined if r.message_pattern in hf]
