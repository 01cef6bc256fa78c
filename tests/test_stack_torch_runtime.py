"""torch's C++ errors before a model runs, in errcat-data-torch (stack_curated.torch_runtime).

c10d's TCPStore connect timeout (``torch.distributed.DistNetworkError``) and c10's
"Found no NVIDIA driver" are thrown in C++, so the miner never sees them. Study-set dev
pastes (even-numbered threads) get the records: a title and a trainer's traceback through
vllm's ``StatelessProcessGroup``; the advice names the address to check and the levers.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import stack_package_catalog, study_stack_texts

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stack_curated import torch_runtime  # noqa: E402
from stack_curated.spec import CURATED_TAG, Curated  # noqa: E402


@pytest.mark.parametrize("paste", ["vllm-19670-title", "trl-4538"])
def test_a_store_that_cannot_be_reached_gets_c10ds_record(paste: str) -> None:
    match = errcat.match_error(study_stack_texts()[paste], catalog=stack_package_catalog("torch"))
    assert match is not None
    assert match.record.error_class == "torch.distributed.DistNetworkError"
    assert CURATED_TAG in match.record.tags
    assert any("--dist-init-addr" in s for s in match.record.solutions)
    assert any("MASTER_ADDR" in s for s in match.record.solutions)


def test_no_driver_gets_its_record_and_docker_advice() -> None:
    match = errcat.match_error(
        study_stack_texts()["openllm-746-title"], catalog=stack_package_catalog("torch")
    )
    assert match is not None
    assert match.record.file_path == "c10/cuda/CUDAFunctions.cpp"
    assert any("--gpus all" in s for s in match.record.solutions)


@settings(max_examples=40, deadline=None)
@given(
    st.from_regex(r"[0-9]{1,7}(ms|s|min)", fullmatch=True),
    st.from_regex(r"zq[a-z0-9.-]{1,20}", fullmatch=True),
    st.integers(min_value=1, max_value=65535),
)
def test_any_timeout_host_and_port_fit_and_a_server_line_does_not(
    timeout: str, host: str, port: int
) -> None:
    pattern = torch_runtime.STORE_CONNECT_TIMEOUT.envelope().record.message_pattern
    client = (
        f"The client socket has timed out after {timeout} while trying to connect to"
        f" ({host}, {port})."
    )
    assert regex.fullmatch(pattern, client) is not None
    server = f"The server socket on {host}:{port} has timed out, will retry."
    assert regex.fullmatch(pattern, server) is None


def test_a_driver_older_than_torchs_cuda_gets_its_record_and_the_driver_lever() -> None:
    match = errcat.match_error(
        study_stack_texts()["vllm-1772"], catalog=stack_package_catalog("torch")
    )
    assert match is not None
    assert match.record.file_path == "c10/cuda/CUDAFunctions.cpp"
    assert match.record.error_message.startswith("The NVIDIA driver on your system is too old")
    assert "nvidia-driver" in match.record.example_fix
    assert any("download.pytorch.org/whl/cu118" in s for s in match.record.solutions)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1000, max_value=999999))
def test_any_found_version_fits_and_no_driver_at_all_does_not(version: int) -> None:
    pattern = torch_runtime.DRIVER_TOO_OLD.envelope().record.message_pattern
    line = (
        f"The NVIDIA driver on your system is too old (found version {version}). Please update"
        " your GPU driver by downloading and installing a new version from the URL:"
        " http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org"
        " to install a PyTorch version that has been compiled with your version of the CUDA"
        " driver."
    )
    assert regex.fullmatch(pattern, line) is not None
    assert regex.fullmatch(
        pattern, f"The NVIDIA driver on your system is too old (found version {version})."
    )
    assert regex.fullmatch(pattern, "Found no NVIDIA driver on your system.") is None


@pytest.mark.parametrize(
    ("paste", "record"),
    [
        ("openrlhf-1040-title", torch_runtime.STORE_CLIENTS_TIMEOUT),
        ("vllm-12526-title", torch_runtime.STORE_WAIT_TIMEOUT),
    ],
)
def test_a_store_timeout_gets_its_own_record_and_the_other_ranks_advice(
    paste: str, record: Curated
) -> None:
    match = errcat.match_error(study_stack_texts()[paste], catalog=stack_package_catalog("torch"))
    assert match is not None
    assert match.record.id == record.envelope().record.id
    assert match.record.error_class == "torch.distributed.DistStoreError"
    assert "first error" in match.record.solutions[0]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=1, max_value=99999),
    st.integers(min_value=0, max_value=63),
    st.integers(min_value=1, max_value=64),
    st.from_regex(r"zq[a-z0-9/_]{1,20}", fullmatch=True),
)
def test_any_store_counts_fit_and_the_other_store_texts_do_not(
    elapsed: int, joined: int, world: int, key: str
) -> None:
    clients = torch_runtime.STORE_CLIENTS_TIMEOUT.envelope().record.message_pattern
    wait = torch_runtime.STORE_WAIT_TIMEOUT.envelope().record.message_pattern
    joined_line = (
        f"Timed out after {elapsed} seconds waiting for clients. {joined}/{world} clients joined."
    )
    wait_line = f"wait timeout after {elapsed}ms, keys: {key}"
    assert regex.fullmatch(clients, joined_line) is not None
    assert regex.fullmatch(wait, wait_line) is not None
    assert regex.fullmatch(wait, f"wait timeout after {elapsed}ms") is not None
    assert regex.fullmatch(clients, wait_line) is None
    assert regex.fullmatch(wait, joined_line) is None
