"""The engines' custom all-reduce on GPUs without peer access (native_catalog.allreduce).

vllm's ``CUDACHECK`` (and sgl-kernel's HIP copy) prints ``Failed: Cuda error <file>:<line>
'<text>'`` and exits; torch prints ``CUDA error: peer access is not supported between
these two devices``. The records are curated into ``curated/vllm-project__vllm.native.jsonl``,
``curated/sgl-project__sglang.native.jsonl`` and ``curated/pytorch__pytorch.native.jsonl``;
the bundled data holds them once the lead rebuilds ``data/``, so these tests load the
curated files over the bundled catalog. Study-set dev pastes (even-numbered threads) get
them, each macro's pattern takes only its own file, and another project's macro of the
same words (DeepEP's, in errcat-data-kernels) keeps its own record.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import ZQ_WORD, curated_over_bundled, study_stack_texts
from errcat.catalog import Catalog

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))

from native_catalog import allreduce  # noqa: E402

_FILES = (
    "pytorch__pytorch.native.jsonl",
    "vllm-project__vllm.native.jsonl",
    "sgl-project__sglang.native.jsonl",
)
_PEER, _VLLM, _HIP = (spec.envelope()["record"] for spec in allreduce.RECORDS)


def _catalog() -> Catalog:
    return curated_over_bundled(*_FILES)


@pytest.mark.parametrize(
    ("paste", "record"),
    [
        ("sglang-552", _VLLM),  # sglang 0.1.17 on 2x T4 with vllm's kernel: no P2P
        ("vllm-45604", _VLLM),  # 4x H200: 'invalid argument' while registering buffers
        ("verl-1874-title", _PEER),  # 8x RTX 4090 under an RL framework
    ],
)
def test_a_study_paste_gets_the_all_reduce_record(paste: str, record: dict[str, object]) -> None:
    match = errcat.match_error(study_stack_texts()[paste], catalog=_catalog())
    assert match is not None
    assert match.record.id == record["id"]


def test_each_engine_is_told_its_flag_and_the_nccl_lever() -> None:
    match = errcat.match_error(study_stack_texts()["vllm-45604"], catalog=_catalog())
    assert match is not None
    advice = {a.engine: " ".join(a.solutions) for a in match.record.engine_advice or ()}
    assert set(advice) == {"sglang", "vllm"}
    assert all("--disable-custom-all-reduce" in text for text in advice.values())
    assert "NCCL_P2P_DISABLE=1" in " ".join(match.record.solutions)


def test_the_hip_copy_answers_for_sgl_kernel() -> None:
    line = (
        "Failed: Cuda error /sgl-workspace/sglang/sgl-kernel/csrc/allreduce/"
        "custom_all_reduce_hip.cuh:312 'invalid argument'"
    )
    match = errcat.match_error(line, catalog=_catalog())
    assert match is not None
    assert match.record.id == _HIP["id"]


def test_deeps_eps_own_cuda_check_keeps_its_record() -> None:
    kernels = ROOT / "stack" / "packages" / "errcat-data-kernels" / "src" / "errcat_data_kernels"
    catalog = _catalog().merge(Catalog.from_path(kernels))
    match = errcat.match_error(study_stack_texts()["deepep-584"], catalog=catalog)
    assert match is not None
    assert match.record.repo == "deepseek-ai/DeepEP"


@settings(max_examples=50, deadline=None)
@given(
    st.lists(ZQ_WORD, min_size=0, max_size=4),
    st.integers(min_value=1, max_value=99999),
    st.lists(ZQ_WORD, min_size=1, max_size=6),
)
def test_any_build_folder_line_and_text_fit_only_their_own_file(
    folders: list[str], line: int, words: list[str]
) -> None:
    root = "".join(f"/{f}" for f in folders) + "/csrc/"
    text = " ".join(words)
    cuda = f"Failed: Cuda error {root}custom_all_reduce.cuh:{line} '{text}'"
    hip = f"Failed: Cuda error {root}allreduce/custom_all_reduce_hip.cuh:{line} '{text}'"
    other = f"Failed: Cuda error {root}cuda_utils.h:{line} '{text}'"
    vllm, sglang = str(_VLLM["messagePattern"]), str(_HIP["messagePattern"])
    assert regex.fullmatch(vllm, cuda) and not regex.fullmatch(sglang, cuda)
    assert regex.fullmatch(sglang, hip) and not regex.fullmatch(vllm, hip)
    assert not regex.fullmatch(vllm, other) and not regex.fullmatch(sglang, other)
