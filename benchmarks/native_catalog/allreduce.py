"""The engines' custom all-reduce when the GPUs cannot reach each other's memory.

sglang and vllm sum tensor-parallel activations with a custom all-reduce kernel
that maps the other GPUs' buffers through CUDA IPC and peer-to-peer access. Two
texts say it failed:

* vllm's ``CUDACHECK`` macro in ``csrc/custom_all_reduce.cuh`` (line 22 at the
  revision named below; the text has not changed since the kernel landed in January
  2024) prints ``Failed: Cuda error <file>:<line> '<cudaGetErrorString>'`` and exits
  the process, with no exception and no traceback; sglang used vllm's kernel up to
  mid-2024 and its sgl-kernel keeps a HIP copy of the macro
  (``sgl-kernel/csrc/allreduce/custom_all_reduce_hip.cuh``, line 20), which prints
  the same words with the HIP runtime's text;
* torch's ``CUDA error: peer access is not supported between these two devices``
  (``cudaErrorPeerAccessUnsupported``) when the engine or a framework enables peer
  access between GPUs without it (consumer cards, PCIe paths through the CPU, VMs).

The file name the macro prints (``__FILE__``, after the build's own folder) tells
which copy failed, so each record's pattern names its own file. Threads learned from (even-numbered; the first two are in
benchmarks/data/study_stack.jsonl): sgl-project/sglang#552 (2x T4 without P2P; the
maintainers point at turning custom all-reduce off), vllm-project/vllm#45604 (4x H200,
'invalid argument' while the buffers are registered), verl-project/verl#1874 (8x RTX
4090), vllm-project/vllm#9046 ('invalid argument' under tensor parallelism).

>>> import regex
>>> vllm = RECORDS[1].envelope()["record"]["messagePattern"]
>>> line = "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:455 'invalid argument'"
>>> bool(regex.fullmatch(vllm, line))
True
>>> hip = RECORDS[2].envelope()["record"]["messagePattern"]
>>> bool(regex.fullmatch(hip, line)), bool(regex.fullmatch(vllm, line.replace(".cuh", "_hip.cuh")))
(False, False)
>>> bool(regex.fullmatch(vllm, "Failed: Cuda error csrc/cuda_utils.h:40 'invalid argument'"))
False
"""

from __future__ import annotations

import regex

from native_catalog.cuda import cuda_error
from native_catalog.spec import Spec, Variant

__all__ = ["RECORDS"]

#: The revisions read: data/SOURCES.json's newest of each engine (its git mirror).
_VLLM_SHA = "9aaf83ef502fc37bc647f6e474314d48ba36cd1c"
_SGLANG_SHA = "8905cbd42f4a27dbecad6487cd3904278756fef8"
_P2P_DOC = "https://docs.nvidia.com/deploy/topology-aware-p2p/index.html"

_TOPOLOGY = (
    "Check whether the GPUs can reach each other: nvidia-smi topo -p2p r (OK between every"
    " pair) and nvidia-smi topo -m; consumer cards, PCIe paths through the CPU and VMs"
    " often report no P2P, and then the custom all-reduce cannot work there"
)
_NCCL_P2P = (
    "If NCCL then hangs or fails over the same link, set NCCL_P2P_DISABLE=1 so it goes"
    " through host memory (slower, but it works without P2P)"
)
_DRIVER = (
    "Upgrade the NVIDIA driver (nvidia-smi shows its version): old drivers refuse the"
    " IPC handles the kernel registers; in containers also run with --ipc=host"
)

#: Advice per engine: the flag each spells to turn its custom all-reduce off.
_VARIANTS = (
    Variant(
        "sglang",
        None,
        (
            "Turn the custom all-reduce off; NCCL does the sum instead:"
            " --disable-custom-all-reduce",
            _TOPOLOGY,
            _NCCL_P2P,
            _DRIVER,
        ),
        "# before\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp-size 2\n"
        "# after\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp-size 2"
        " --disable-custom-all-reduce",
    ),
    Variant(
        "vllm",
        None,
        (
            "Turn the custom all-reduce off; NCCL does the sum instead:"
            " --disable-custom-all-reduce (LLM(..., disable_custom_all_reduce=True) offline)",
            _TOPOLOGY,
            _NCCL_P2P,
            _DRIVER,
        ),
        "# before\nvllm serve Qwen/Qwen3-8B --tensor-parallel-size 2\n# after\nvllm serve"
        " Qwen/Qwen3-8B --tensor-parallel-size 2 --disable-custom-all-reduce",
    ),
)

_SOLUTIONS = (
    "Turn the engine's custom all-reduce off: --disable-custom-all-reduce (sglang and vllm)",
    _TOPOLOGY,
    _NCCL_P2P,
    _DRIVER,
)
_FIX = (
    "# before\nvllm serve Qwen/Qwen3-8B --tensor-parallel-size 2\n# after\nvllm serve"
    " Qwen/Qwen3-8B --tensor-parallel-size 2 --disable-custom-all-reduce"
)
_MACRO_DOC = (
    "The engine's custom all-reduce kernel (tensor parallelism within a node) checks every"
    " CUDA call it makes while it maps the other GPUs' buffers; this one failed, so the"
    " macro printed the CUDA runtime's text and exited the process (no Python traceback;"
    " the other ranks then die or hang). 'peer access is not supported' means the GPUs"
    " have no P2P path; 'invalid argument' usually means an IPC buffer could not be"
    " registered (a driver, container or CUDA-graph capture problem)."
)


def _macro(repo: str, path: str, line: int, sha: str, *, runtime: str) -> Spec:
    name = path.rsplit("/", 1)[-1]
    return Spec(
        kind="cuda-other",
        repo=repo,
        path=path,
        line=line,
        sha=sha,
        error_class="CUDACHECK",
        template="Failed: Cuda error {build_dir}" + name + ":{__LINE__} '{" + runtime + "}'",
        pattern=r"Failed: Cuda error (\S*)" + regex.escape(name) + r":(\w+) '(.+?)'",
        documentation=_MACRO_DOC,
        solutions=_SOLUTIONS,
        example_fix=_FIX,
        trigger="Tensor parallelism on GPUs whose peer access or CUDA IPC the custom"
        " all-reduce needs but cannot get.",
        tags=("distributed", "custom-all-reduce"),
        variants=_VARIANTS,
        references=(_P2P_DOC, f"{path} CUDACHECK"),
    )


RECORDS: tuple[Spec, ...] = (
    cuda_error(
        "cuda-other",
        "peer access is not supported between these two devices",
        "Two GPUs were asked to read each other's memory directly"
        " (cudaErrorPeerAccessUnsupported), and the hardware path between them does not"
        " allow it. Engines ask for it in their custom all-reduce and in expert-parallel"
        " kernels; RL frameworks in their weight sync.",
        _SOLUTIONS,
        _FIX,
        trigger="Enabling peer access between GPUs without a P2P path.",
        tags=("distributed", "custom-all-reduce"),
        variants=_VARIANTS,
        references=(_P2P_DOC,),
        phrases=("peer access is not supported",),
    ),
    _macro(
        "vllm-project/vllm",
        "csrc/custom_all_reduce.cuh",
        22,
        _VLLM_SHA,
        runtime="cudaGetErrorString(e)",
    ),
    _macro(
        "sgl-project/sglang",
        "sgl-kernel/csrc/allreduce/custom_all_reduce_hip.cuh",
        20,
        _SGLANG_SHA,
        runtime="hipGetErrorString(e)",
    ),
)
