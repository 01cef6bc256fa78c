"""The curated native catalog (curated/*.native.jsonl): up to date, valid, and answering."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import regex

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.engine import ENGINES, PHASES
from errcat.matcher import match_error
from errcat.models import validate_envelope

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import build_native  # noqa: E402
from native_catalog import cmake  # noqa: E402
from native_catalog.spec import KINDS  # noqa: E402

FILES = sorted((ROOT / "curated").glob("*.native.jsonl"))

#: Flags the native advice names, as sglang 0.5.23 and vllm 0.33.0 define them
#: (checked in their wheels' argument definitions).
KNOWN_FLAGS = {
    "sglang": {
        "--mem-fraction-static",
        "--max-running-requests",
        "--chunked-prefill-size",
        "--cuda-graph-max-bs-decode",
        "--cuda-graph-max-bs",  # the name before June 2026, said so where named
        "--cuda-graph-backend-decode",
        "--disable-cuda-graph",  # deprecated spelling, said so where named
        "--tp-size",
        "--quantization",
        "--max-total-tokens",
        "--context-length",
        "--kv-cache-dtype",
        "--model-path",
        "--disable-custom-all-reduce",
        "--attention-backend",
    },
    "vllm": {
        "--gpu-memory-utilization",
        "--max-model-len",
        "--max-num-seqs",
        "--enforce-eager",
        "--tensor-parallel-size",
        "--quantization",
        "--cpu-offload-gb",
        "--max-num-batched-tokens",
        "--max-cudagraph-capture-size",
        "--disable-custom-all-reduce",
        "--attention-backend",
    },
}
#: docker run's own flags, which the advice names for containers.
DOCKER_FLAGS = {"--ipc", "--shm-size", "--gpus", "--network", "--memory"}


def test_files_are_what_the_specs_render() -> None:
    rendered = build_native.render()
    assert sorted(rendered) == [p.name for p in FILES]
    for path in FILES:
        assert path.read_text(encoding="utf-8") == rendered[path.name]


def test_every_record_is_valid_and_names_one_known_kind() -> None:
    for path in FILES:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            record = validate_envelope(json.loads(line), strict=True, path=str(path), line=number)
            kinds = [
                t.split(":", 2)[2]
                for t in record.record.tags
                if t.count(":") == 2 and t.startswith("errcat:native:")
            ]
            assert len(kinds) == 1, (path, number)
            assert kinds[0] in KINDS
            assert record.record.solutions and record.record.example_fix
            assert "Sources: https://" in record.record.documentation or record.record.repo in {
                "bminor/bash",
                "python/cpython",
            }


def test_engine_advice_names_only_flags_the_engines_define() -> None:
    import re

    for path in FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            for entry in json.loads(line)["record"].get("engineAdvice", []):
                assert entry["engine"] in ENGINES
                assert entry["phase"] is None or entry["phase"] in PHASES
                text = " ".join([*entry["solutions"], entry["exampleFix"]])
                flags = set(re.findall(r"--[a-z][a-z0-9-]+", text))
                unknown = flags - KNOWN_FLAGS[entry["engine"]] - DOCKER_FLAGS
                assert not unknown, unknown


@pytest.fixture(scope="module")
def native() -> Catalog:
    return Catalog.from_path(*FILES)


@pytest.mark.parametrize(
    ("text", "kind", "params"),
    [
        (
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a"
            " total capacity of 79.15 GiB of which 1.02 GiB is free. Process 11 has 78.1 GiB"
            " memory in use. Of the allocated memory 70.00 GiB is allocated by PyTorch, and"
            " 3.00 GiB is reserved by PyTorch but unallocated. If reserved but unallocated"
            " memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
            "cuda-oom",
            {"size": "2.00 GiB", "free": "1.02 GiB", "reserved_unallocated": "3.00 GiB"},
        ),
        (
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0;"
            " 4.00 GiB total capacity; 3.46 GiB already allocated; 0 bytes free; 3.47 GiB"
            " reserved in total by PyTorch) If reserved memory is >> allocated memory try",
            "cuda-oom",
            # Known: the 2.1+ record, cut, outranks this wording's exact record (the matcher
            # reads a 38-character form of the message as truncated): right kind, no values.
            {},
        ),
        (
            "CUDA out of memory. Tried to allocate 50.00 MiB. GPU 0 has a total capacity of"
            " 23.56 GiB of which 56.88 MiB is free",
            "cuda-oom",
            {"size": "50.00 MiB"},
        ),
        (
            "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 500.00 MiB. GPU 0 has a"
            " total capacity of 31.98 GiB of which 136.00 MiB is free. Of the allocated memory"
            " 31.61 GiB is allocated by PyTorch, and 1.21 MiB is reserved by PyTorch but"
            " unallocated.",
            "hip-oom",
            {"size": "500.00 MiB"},
        ),
        (
            "RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel"
            " errors might be asynchronously reported at some other API call, so the stacktrace"
            " below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1",
            "cuda-illegal-address",
            {},
        ),
        (
            "torch.distributed.DistBackendError: NCCL error in:"
            " ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error"
            " (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5",
            "nccl-error",
            {"nccl_version": "2.20.5"},
        ),
        (
            "[rank0]:[E626 06:24:44.9 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught"
            " collective operation timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE,"
            " NumelIn=9801523, NumelOut=9801523, Timeout(ms)=600000) ran for 600020 milliseconds"
            " before timing out.",
            "nccl-watchdog-timeout",
            {"op_type": "ALLREDUCE", "timeout_ms": "600000"},
        ),
        (
            "Fatal Python error: Segmentation fault\n\nThread 0x00007f (most recent call first):",
            "segfault",
            {},
        ),
        (
            "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling"
            " `cublasCreate(handle)`",
            "cublas",
            {"call": "cublasCreate(handle)"},
        ),
        (
            "ModuleNotFoundError: No module named 'vllm.transformers_utils.tokenizer'",
            "import-missing-module",
            {"name": "'vllm.transformers_utils.tokenizer'"},
        ),
        (
            "ImportError: cannot import name 'MaxLoRARanks' from 'vllm.config.lora'"
            " (/opt/venv/lib/python3.12/site-packages/vllm/config/lora.py)",
            "import-cannot-import-name",
            {"name": "'MaxLoRARanks'", "module": "'vllm.config.lora'"},
        ),
        (
            "ImportError: cannot import name 'LLM' from partially initialized module 'vllm'"
            " (most likely due to a circular import) (/home/me/vllm.py)",
            "import-cannot-import-name",
            {"name": "'LLM'", "module": "'vllm'"},
        ),
        (
            "/tmp/tmps1rkq3y3/main.c:5:10: fatal error: Python.h: No such file or directory",
            "tool-python-headers",
            {},
        ),
        ("/usr/bin/ld: cannot find -lcuda: No such file or directory", "tool-libcuda-link", {}),
        (
            'docker: Error response from daemon: could not select device driver "" with'
            " capabilities: [[gpu]].",
            "tool-docker-gpu",
            {"driver": ""},
        ),
        (
            "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please"
            " update your driver to a newer version, or use an earlier cuda container: unknown.",
            "tool-docker-gpu",
            {"condition": "cuda>=12.4"},
        ),
        (
            "docker: Error response from daemon: failed to create task for container: failed to"
            " create shim task: OCI runtime create failed: runc create failed: unable to start"
            " container process: error during container init: error running hook #0: error"
            " running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'"
            " nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please"
            " update your driver to a newer version, or use an earlier cuda container: unknown.",
            "tool-docker-gpu",
            {"condition": "cuda>=12.8"},
        ),
        (
            "RuntimeError: CUDA error: operation failed due to a previous error during capture",
            "cuda-other",
            {},
        ),
        (
            "Exception: Capture cuda graph failed: CUDA error: capturing stream has unjoined work",
            "cuda-other",
            {},
        ),
        (
            "ERROR: Could not find a version that satisfies the requirement vllm==0.33.0"
            " (from versions: none)",
            "tool-pip-no-version",
            {"requirement": "vllm==0.33.0"},
        ),
        ("ERROR: Failed building wheel for flash-attn", "tool-pip-build", {"name": "flash-attn"}),
        (
            "ERROR: No matching distribution found for torch==2.3.1",
            "tool-pip-no-version",
            {"requirement": "torch==2.3.1"},
        ),
        (
            "CMake Error at CMakeLists.txt:3 (project):\n  No CMAKE_CUDA_COMPILER could be"
            " found.\n\n  Tell CMake where to find the compiler by setting either the"
            ' environment\n  variable "CUDACXX" or the CMake cache entry CMAKE_CUDA_COMPILER',
            "tool-cmake-cuda",
            {},
        ),
        (
            "CMake Error at /usr/share/cmake-3.28/Modules/CMakeDetermineCUDACompiler.cmake:270"
            " (message):\n  Failed to detect a default CUDA architecture.\n\n  Compiler"
            " output:\n\nCall Stack (most recent call first):\n  CMakeLists.txt:27"
            " (enable_language)",
            "tool-cmake-cuda",
            {},
        ),
        (
            "CMake Error at /usr/share/cmake-3.22/Modules/CMakeDetermineCompilerId.cmake:726"
            " (message):\n  Compiling the CUDA compiler identification source file\n"
            '  "CMakeCUDACompilerId.cu" failed.\n\n  Compiler: CMAKE_CUDA_COMPILER-NOTFOUND',
            "tool-cmake-cuda",
            {"source": "CMakeCUDACompilerId.cu"},
        ),
        (
            "CMake Error at CMakeLists.txt:25 (project):\n  No CMAKE_CXX_COMPILER could be found.",
            "tool-cmake-compiler",
            {},
        ),
        ("(RayWorker pid=3554640) Fatal Python error: Bus error", "bus-error", {}),
        ("Bus error (core dumped)", "bus-error", {}),
        (
            "error: externally-managed-environment\n\n\u00d7 This environment is externally"
            " managed\n\u2570\u2500> To install Python packages system-wide, try apt install",
            "tool-pip-externally-managed",
            {},
        ),
        ("error: externally-managed-environment", "tool-pip-externally-managed", {}),
    ],
)
def test_real_shapes_answer_with_their_kind(
    native: Catalog, text: str, kind: str, params: dict[str, str]
) -> None:
    match = match_error(text, catalog=native)
    assert match is not None, text
    assert f"errcat:native:{kind}" in match.summary.tags
    for name, value in params.items():
        assert match.params[name] == value


def test_the_import_system_s_record_outranks_a_library_s_copy_of_its_words() -> None:
    # pydantic's lazy importer raises "cannot import name {attribute!r} from {module_path!r}"
    # too; a paste with no pydantic frame is the import system's.
    copy = make_envelope(
        id="d1d1d1d1d1d1d1d1",
        errorClass="ImportError",
        errorMessage="cannot import name {attribute!r} from {module_path!r}",
        messagePattern="cannot import name (.+?) from (.+?)",
        repo="pydantic/pydantic",
        filePath="pydantic/_internal/_validators.py",
    )
    imports = ROOT / "curated" / "python__cpython.native.jsonl"
    lines = imports.read_text(encoding="utf-8").splitlines()
    envelopes = [validate_envelope(json.loads(line)) for line in lines]
    catalog = Catalog([*envelopes, copy])
    found = match_error("ImportError: cannot import name 'Foo' from 'vllm.config'", catalog=catalog)
    assert found is not None and found.summary.repo == "python/cpython"
    assert "the import system prints this message in this very form" in found.reasons


def test_the_native_records_pass_the_release_lint_together() -> None:
    # build_data.py refuses a release whose records tie even with a traceback frame at
    # their raise site (CPython's 'Fatal Python error: {reason}' and its named reasons)
    from errcat.lint import LintItem, lint_records

    items = [
        LintItem(validate_envelope(json.loads(line), strict=True).record, str(path), number)
        for path in FILES
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
    ]
    errors = [str(f) for f in lint_records(items) if f.level == "error"]
    assert not errors, errors


def test_a_project_s_own_raise_of_the_import_wording_wins_at_its_raise_frame() -> None:
    # vllm raises ModuleNotFoundError(f"No module named {name!r}") itself in a lazy
    # importer: with a frame at that line it is vllm's, and the release lint agrees.
    from errcat.lint import LintItem, lint_records

    imports = ROOT / "curated" / "python__cpython.native.jsonl"
    envelopes = [
        validate_envelope(json.loads(line))
        for line in imports.read_text(encoding="utf-8").splitlines()
    ]
    own = make_envelope(
        id="a1a1a1a1a1a1a1a1",
        errorClass="ModuleNotFoundError",
        errorMessage="No module named {name!r}",
        messagePattern="No module named (.+?)",
        repo="vllm-project/vllm",
        filePath="vllm/utils/import_utils.py",
        lineNumber=40,
        sourceCode="    raise ModuleNotFoundError(f'No module named {name!r}')",
        githubUrl="https://github.com/vllm-project/vllm/blob/"
        + "0" * 40
        + "/vllm/utils/import_utils.py#L40-L40",
        sourceCodeStart=40,
        sourceCodeEnd=40,
    )
    catalog = Catalog([*envelopes, own])
    text = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/vllm/utils/import_utils.py", line 40,'
        " in lazy\n"
        "    raise ModuleNotFoundError(f'No module named {name!r}')\n"
        "ModuleNotFoundError: No module named 'flash_attn'\n"
    )
    found = match_error(text, catalog=catalog)
    assert found is not None and found.summary.repo == "vllm-project/vllm"
    bare = match_error("ModuleNotFoundError: No module named 'flash_attn'", catalog=catalog)
    assert bare is not None and bare.summary.repo == "python/cpython"
    items = [LintItem(e.record, "test", n) for n, e in enumerate([*envelopes, own], 1)]
    assert not [str(f) for f in lint_records(items) if f.level == "error"]


def test_a_cmake_record_for_cuda_does_not_answer_a_c_compiler_it_lacks() -> None:
    """The CUDA compiler record and the C/C++ one split on the language CMake names."""
    cuda = cmake.RECORDS[0].envelope()["record"]["messagePattern"]
    other = cmake.RECORDS[3].envelope()["record"]["messagePattern"]
    assert regex.fullmatch(cuda, "No CMAKE_CUDA_COMPILER could be found.")
    assert not regex.fullmatch(cuda, "No CMAKE_C_COMPILER could be found.")
    assert not regex.fullmatch(other, "No CMAKE_CUDA_COMPILER could be found.")
    assert not regex.fullmatch(other, "No CMAKE_Java_COMPILER could be found.")
