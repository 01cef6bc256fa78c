"""Triton's CUDA driver errors in errcat-data-torch (stack_curated.triton_driver, by hand).

Raised in the C file Triton compiles at first use, so never mined. The study-set dev
title (vllm#18580, even) gets the record, whose advice names TRITON_PTXAS_PATH.
"""

from __future__ import annotations

import errcat
from conftest import stack_package_catalog, study_stack_texts


def test_an_invalid_kernel_image_gets_tritons_record() -> None:
    match = errcat.match_error(
        study_stack_texts()["vllm-18580-title"], catalog=stack_package_catalog("torch")
    )
    assert match is not None
    assert match.record.repo == "triton-lang/triton"
    assert any("TRITON_PTXAS_PATH" in s for s in match.record.solutions)


def test_a_hip_error_is_not_the_cuda_record() -> None:
    match = errcat.match_error(
        "RuntimeError: Triton Error [HIP]: Code: 98, Messsage: invalid device function",
        catalog=stack_package_catalog("torch"),
    )
    assert match is None or match.record.file_path != "third_party/nvidia/backend/driver.c"
