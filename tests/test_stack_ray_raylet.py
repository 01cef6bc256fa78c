"""Ray's own lines and wrappers in errcat-data-distributed, DeepEP's CUDA_CHECK in -kernels.

``benchmarks/stack_curated/ray_raylet.py`` writes the lines Ray's C++ daemons print (the
raylet's dead-worker and memory-kill reports, an unreachable GCS, a full ``/tmp/ray``);
``ray_errors.py`` the ``RayTaskError`` header and the GCS's death cause of an actor;
``kernels.py`` DeepEP's ``CUDA_CHECK``. These tests read the committed packages with the
study set's dev pastes (``benchmarks/data/study_stack.jsonl``, even-numbered threads), and
check the advice names what a user changes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import errcat
from conftest import stack_package_catalog, study_stack_texts

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stack_curated import ray_raylet  # noqa: E402


@pytest.mark.parametrize(
    ("paste", "path", "lever"),
    [
        ("vllm-1160", "src/ray/raylet/node_manager.cc", "RAY_memory_usage_threshold"),
        (
            "mm-eureka-32-title",
            "src/ray/raylet/node_manager.cc",
            "--distributed-executor-backend mp",
        ),
        ("mm-eureka-54", "src/ray/gcs/gcs_client/gcs_client.cc", "ray start --head"),
        ("vllm-3568-title", "src/ray/common/file_system_monitor.cc", "--temp-dir"),
        ("toolrl-26-title", "python/ray/exceptions.py", "gpu_memory_utilization"),
    ],
)
def test_rays_own_lines_get_rays_record_with_a_lever(paste: str, path: str, lever: str) -> None:
    match = errcat.match_error(
        study_stack_texts()[paste], catalog=stack_package_catalog("distributed")
    )
    assert match is not None
    assert (match.record.repo, match.record.file_path) == ("ray-project/ray", path)
    assert any(lever in s for s in match.record.solutions)


def test_a_ray_task_error_cut_before_its_cause_line_gets_the_memory_monitors_record() -> None:
    """verl-omni-402: only the ``RayTaskError(OutOfMemoryError)`` header and remote frames;
    the record tagged for that dual class answers, the wrapper's is related."""
    match = errcat.match_error(
        study_stack_texts()["verl-omni-402"], catalog=stack_package_catalog("distributed")
    )
    assert match is not None
    assert match.record.error_class == "ray.exceptions.OutOfMemoryError"
    assert match.related[0].record.error_class == "ray.exceptions.RayTaskError"


def test_a_ray_task_error_of_another_class_keeps_the_wrappers_advice() -> None:
    header = (
        "ray.exceptions.RayTaskError(ValueError): ray::AsyncvLLMEngine.generate_sequences()"
        " (pid=1361049, ip=172.17.0.2, actor_id=d4c1, repr=<AsyncvLLMEngine object>)"
    )
    match = errcat.match_error(header, catalog=stack_package_catalog("distributed"))
    assert match is not None
    assert match.record.error_class == "ray.exceptions.RayTaskError"
    assert any("worker-*.err" in s for s in match.record.solutions)


def test_deepeps_cuda_check_gets_its_record() -> None:
    match = errcat.match_error(
        study_stack_texts()["deepep-584"], catalog=stack_package_catalog("kernels")
    )
    assert match is not None
    assert (match.record.repo, match.record.file_path) == (
        "deepseek-ai/DeepEP",
        "csrc/kernels/exception.cuh",
    )
    assert any("--moe-a2a-backend none" in s for s in match.record.solutions)


def test_every_raylet_record_is_a_logged_line_of_rays() -> None:
    for spec in ray_raylet.RECORDS:
        record = spec.envelope().record
        assert record.error_class in ("WARNING", "ERROR")
        assert "errcat:logged" in record.tags
