"""flash-attn's C++ checks in errcat-data-kernels: mined from its git mirror, one written by hand.

``stack/SOURCES.json`` names flash-attention v2.8.3's ``csrc/flash_attn`` as a
``gitSources`` entry of the kernels package (PyPI ships flash-attn as an sdist
only), and ``benchmarks/stack_curated/kernels.py`` writes the record of its
Ampere check. These tests read the committed package: a vision encoder's
traceback through flash-attn gets flash-attn's check, the Ampere line gets the
hand-written record with levers a user sets, and another package's check of a
shape flash-attn shares (``{x} must be on CUDA``, which sgl-kernel's copy of the
macro raises too), raised in its own file, is not flash-attn's.
"""

from __future__ import annotations

import errcat
from conftest import stack_package_catalog

FLASH_ATTN = "Dao-AILab/flash-attention"

_VISION_ENCODER = (
    "Traceback (most recent call last):\n"
    '  File "/env/site-packages/vllm/model_executor/models/qwen2_vl.py", line 398, in forward\n'
    "    output = flash_attn_varlen_func(q, k, v, cu_seqlens_q=cu_seqlens)\n"
    '  File "/env/site-packages/flash_attn/flash_attn_interface.py", line 1443, in'
    " flash_attn_varlen_func\n"
    "    return FlashAttnVarlenFunc.apply(\n"
    '  File "/env/site-packages/torch/_ops.py", line 1243, in __call__\n'
    "    return self._op(*args, **kwargs)\n"
    "RuntimeError: FlashAttention only support fp16 and bf16 data type\n"
)


def test_a_vision_encoder_s_traceback_gets_flash_attn_s_dtype_check() -> None:
    match = errcat.match_error(_VISION_ENCODER, catalog=stack_package_catalog("kernels"))
    assert match is not None
    assert match.record.repo == FLASH_ATTN
    assert match.record.file_path == "csrc/flash_attn/flash_api.cpp"


def test_the_ampere_check_gets_the_hand_written_record_with_its_levers() -> None:
    match = errcat.match_error(
        "RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
        catalog=stack_package_catalog("kernels"),
    )
    assert match is not None and match.record.repo == FLASH_ATTN
    assert "errcat:stack:curated" in match.record.tags
    advice = " ".join(match.record.solutions)
    assert "attn_implementation='sdpa'" in advice
    assert "--mm-encoder-attn-backend TORCH_SDPA" in advice


def test_another_package_s_check_of_the_same_shape_is_not_flash_attn_s() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/env/site-packages/zqkernels/ops.py", line 12, in run\n'
        "    _check(zqbuf)\n"
        '  File "/env/site-packages/zqkernels/ops.py", line 40, in _check\n'
        '    raise RuntimeError(f"{name} must be on CUDA")\n'
        "RuntimeError: zqbuf must be on CUDA\n"
    )
    match = errcat.match_error(text, catalog=stack_package_catalog("kernels"))
    assert match is None or match.record.repo != FLASH_ATTN


def test_a_flash_attention_3_check_gets_its_hopper_record() -> None:
    """FlashAttention-3 (``hopper/``, which vLLM's and sgl-kernel's copies fork) has checks of
    its own; its copies of FlashAttention-2's messages stay FlashAttention-2's records."""
    kernels = stack_package_catalog("kernels")
    match = errcat.match_error(
        "RuntimeError: This flash attention build does not support paged KV.", catalog=kernels
    )
    assert match is not None and match.record.repo == FLASH_ATTN
    assert match.record.file_path == "hopper/flash_api.cpp"
    shared = errcat.match_error(_VISION_ENCODER, catalog=kernels)
    assert shared is not None and shared.record.file_path == "csrc/flash_attn/flash_api.cpp"
