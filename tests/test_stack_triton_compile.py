"""Triton's CompilationError in errcat-data-torch (stack_curated.triton_compile, by hand).

Its text is built by a method, so the mined records say nothing. The study-set dev paste
(vllm#40966, even) gets the record; the location shape alone, under another class or
inside prose, does not.
"""

from __future__ import annotations

import sys
from pathlib import Path

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import stack_package_catalog, study_stack_texts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from stack_curated import triton_compile


def test_a_kernel_that_triton_could_not_compile_gets_its_record() -> None:
    match = errcat.match_error(
        study_stack_texts()["vllm-40966"], catalog=stack_package_catalog("torch")
    )
    assert match is not None
    assert match.record.error_class == "triton.compiler.errors.CompilationError"
    assert any("--attention-backend" in s for s in match.record.solutions)


def test_the_location_shape_under_another_class_is_not_tritons() -> None:
    match = errcat.match_error("RuntimeError: at 12:3:", catalog=stack_package_catalog("torch"))
    assert match is None or match.record.error_class != triton_compile.COMPILATION.error_class


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=1, max_value=10**4),
    st.integers(min_value=0, max_value=200),
    st.lists(st.from_regex(r"zq[a-z]{1,8}( zq[a-z]{1,8}){0,4}", fullmatch=True), max_size=6),
)
def test_any_location_and_source_excerpt_fit(line: int, column: int, source: list[str]) -> None:
    text = "\n".join([f"at {line}:{column}:", *source])
    pattern = triton_compile.COMPILATION.envelope().record.message_pattern
    assert regex.fullmatch(pattern, text) is not None
    assert regex.fullmatch(pattern, f"zq {text}") is None


def test_a_failed_pass_pipeline_gets_its_record_with_the_triton_pin_and_a_reproducer() -> None:
    match = errcat.match_error(
        study_stack_texts()["pytorch-180908-title"], catalog=stack_package_catalog("torch")
    )
    assert match is not None
    assert match.record.error_message == triton_compile.PASS_MANAGER.template
    advice = " ".join(match.record.solutions)
    assert "triton==3.9.0" in advice and "TRITON_REPRODUCER_PATH=" in advice


def test_the_pass_manager_line_in_a_traceback_gets_the_record() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/env/site-packages/triton/backends/nvidia/compiler.py", line 384, in make_ttgir\n'
        "    pm.run(mod, 'make_ttgir')\n"
        "RuntimeError: PassManager::run failed\n"
    )
    match = errcat.match_error(text, catalog=stack_package_catalog("torch"))
    assert match is not None
    assert match.record.error_message == triton_compile.PASS_MANAGER.template
