"""HIP's graph-capture errors get records of their own (native_catalog.cuda, curated).

On ROCm the process-group watchdog carries the capture error (ROCm/hip#3876, even, in
benchmarks/data/study_stack.jsonl); with only the generic ``HIP error: {error}`` record the
watchdog's wrapper answered. The specific record is strong enough to be its cause.
"""

from __future__ import annotations

import errcat
from conftest import curated_over_bundled, study_stack_texts

HIP_OTHER = "errcat:native:hip-other"


def test_a_hip_capture_error_gets_the_hip_capture_record() -> None:
    match = errcat.match_error(
        "RuntimeError: HIP error: operation not permitted when stream is capturing",
        catalog=curated_over_bundled("pytorch__pytorch.native.jsonl"),
    )
    assert match is not None
    assert HIP_OTHER in match.record.tags
    assert "stream is capturing" in match.record.error_message
    assert any("--enforce-eager" in s for s in match.record.solutions)


def test_the_watchdog_carrying_it_answers_with_the_hip_cause() -> None:
    match = errcat.match_error(
        study_stack_texts()["rocm-hip-3876"],
        catalog=curated_over_bundled("pytorch__pytorch.native.jsonl"),
    )
    assert match is not None
    assert HIP_OTHER in match.record.tags


def test_a_cuda_capture_error_keeps_the_cuda_record() -> None:
    match = errcat.match_error(
        "RuntimeError: CUDA error: operation not permitted when stream is capturing",
        catalog=curated_over_bundled("pytorch__pytorch.native.jsonl"),
    )
    assert match is not None
    assert "errcat:native:cuda-other" in match.record.tags
