"""safetensors' header error in errcat-data-hf (written by hand: the binding is compiled).

``benchmarks/stack_curated/safetensors_errors.py`` writes ``Error while
deserializing header: <reason>``. These tests read the committed package: the
study-set dev title (an even-numbered thread) and the class-led line get the
record, whatever the Rust reason; the advice tells a git-lfs pointer from a
cut-short file.
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

from stack_curated import safetensors_errors  # noqa: E402
from stack_curated.spec import CURATED_TAG  # noqa: E402


def test_the_study_title_and_a_class_led_line_get_the_record() -> None:
    title = study_stack_texts()["vllm-14596-title"]
    line = "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge"
    for text in (title, line):
        match = errcat.match_error(text, catalog=stack_package_catalog("hf"))
        assert match is not None, text
        assert match.record.repo == "huggingface/safetensors"
        assert CURATED_TAG in match.record.tags
        assert any("git lfs pull" in s for s in match.record.solutions)
        assert any("--force-download" in s for s in match.record.solutions)


@settings(max_examples=40, deadline=None)
@given(st.from_regex(r"[A-Z][A-Za-z]{3,30}(\([^()\n]{0,40}\))?", fullmatch=True))
def test_any_rust_reason_fits_the_pattern(reason: str) -> None:
    pattern = safetensors_errors.HEADER.envelope().record.message_pattern
    assert regex.fullmatch(pattern, f"Error while deserializing header: {reason}")
    assert not regex.fullmatch(pattern, f"Error while serializing header: {reason}")


def test_a_loader_traceback_over_the_compiled_site_still_gets_the_record() -> None:
    """The binding is compiled: vllm's loader frames never show its site and say nothing
    against the record (it is tagged as a hidden site)."""
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/env/site-packages/vllm/model_executor/model_loader/weight_utils.py",'
        " line 468, in safetensors_weights_iterator\n"
        '    with safe_open(st_file, framework="pt") as f:\n'
        "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge"
    )
    match = errcat.match_error(paste, catalog=stack_package_catalog("hf"))
    assert match is not None and match.record.repo == "huggingface/safetensors"
