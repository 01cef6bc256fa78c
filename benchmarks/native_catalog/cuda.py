"""CUDA and HIP runtime errors as torch prints them: ``CUDA error: <cudaGetErrorString text>``.

torch's ``C10_CUDA_CHECK`` builds the message in c10/cuda/CUDAException.cpp
(``c10_cuda_check_implementation``): "CUDA error: " and the runtime's text, then,
depending on the release, a line "Search for `cudaErrorX' in ...", the note that
kernel errors are reported asynchronously with the advice to pass
``CUDA_LAUNCH_BLOCKING=1``, and "Compile with `TORCH_USE_CUDA_DSA` to enable
device-side assertions." Since torch 2.8 the class is ``torch.AcceleratorError``
(a ``RuntimeError``); before, ``RuntimeError``. The texts are those of NVIDIA's
``cudaGetErrorString`` (and AMD's ``hipGetErrorString`` on ROCm builds).
"""

from __future__ import annotations

from native_catalog.memory import CUDA_EXCEPTION, CUDA_EXCEPTION_LINE, CUDA_EXCEPTION_SHA
from native_catalog.spec import Spec, Variant

__all__ = ["RECORDS", "cuda_error"]

_CUDA_TYPES = "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html"
_TORCH_CUDA = "https://pytorch.org/docs/stable/notes/cuda.html"
_ARCH = "https://developer.nvidia.com/cuda-gpus"

_DEBUG = (
    "Rerun with the environment variable CUDA_LAUNCH_BLOCKING=1 so the traceback points at"
    " the kernel that failed (kernel errors are reported at a later, unrelated call)"
)
_DEBUG_FIX = (
    "# before\nvllm serve Qwen/Qwen3-8B\n# after: find the failing kernel, then rule out"
    " CUDA graphs\nCUDA_LAUNCH_BLOCKING=1 vllm serve Qwen/Qwen3-8B --enforce-eager"
)

#: Illegal memory access during serving usually sits in an attention or MoE kernel.
_ILLEGAL_VARIANTS = (
    Variant(
        "sglang",
        None,
        (
            _DEBUG,
            "Rule out CUDA graphs: --cuda-graph-backend-decode disabled (--disable-cuda-graph"
            " before June 2026); if the error goes away, report it with the launch command",
            "Try another attention kernel: --attention-backend triton (or flashinfer, fa3)",
            "Turn off optional fast paths named in the traceback (speculative decoding,"
            " data-parallel attention, custom all-reduce with --disable-custom-all-reduce)",
            "Upgrade sglang and sgl-kernel together: many such crashes are fixed kernels",
        ),
        "# before\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B\n# after\n"
        "CUDA_LAUNCH_BLOCKING=1 python -m sglang.launch_server --model-path Qwen/Qwen3-8B"
        " --attention-backend triton --disable-custom-all-reduce",
    ),
    Variant(
        "vllm",
        None,
        (
            _DEBUG,
            "Rule out CUDA graphs and torch.compile with --enforce-eager; if the error goes"
            " away, report it with the launch command",
            "Try another attention kernel: --attention-backend TRITON_ATTN (or FLASH_ATTN,"
            " FLASHINFER)",
            "Turn off optional fast paths named in the traceback (speculative decoding,"
            " --disable-custom-all-reduce)",
            "Upgrade vllm: many such crashes are fixed kernels",
        ),
        "# before\nvllm serve Qwen/Qwen3-8B\n# after\nCUDA_LAUNCH_BLOCKING=1 vllm serve"
        " Qwen/Qwen3-8B --enforce-eager --attention-backend TRITON_ATTN",
    ),
)


def cuda_error(
    kind: str,
    text: str,
    documentation: str,
    solutions: tuple[str, ...],
    example_fix: str,
    *,
    trigger: str = "",
    tags: tuple[str, ...] = (),
    variants: tuple[Variant, ...] = (),
    references: tuple[str, ...] = (_CUDA_TYPES, _TORCH_CUDA),
    phrases: tuple[str, ...] = (),
) -> Spec:
    return Spec(
        kind=kind,
        repo="pytorch/pytorch",
        path=CUDA_EXCEPTION,
        line=CUDA_EXCEPTION_LINE,
        sha=CUDA_EXCEPTION_SHA,
        error_class="torch.AcceleratorError",
        also_classes=("RuntimeError",),
        template=f"CUDA error: {text}",
        documentation=documentation,
        solutions=solutions,
        example_fix=example_fix,
        trigger=trigger,
        tags=tags,
        variants=variants,
        references=references,
        phrases=phrases,
    )


def _hip(
    text: str,
    documentation: str,
    solutions: tuple[str, ...],
    example_fix: str,
    *,
    threads: tuple[str, ...] = (),
) -> Spec:
    return Spec(
        kind="hip-other",
        repo="pytorch/pytorch",
        path=CUDA_EXCEPTION,
        line=CUDA_EXCEPTION_LINE,
        sha=CUDA_EXCEPTION_SHA,
        error_class="torch.AcceleratorError",
        also_classes=("RuntimeError",),
        tags=("rocm",),
        template=f"HIP error: {text}",
        documentation=documentation,
        solutions=solutions,
        example_fix=example_fix,
        references=("https://rocm.docs.amd.com/projects/HIP/en/latest/index.html", *threads),
    )


#: A capture that failed: rule the graphs out, then the non-graph-safe fast paths.
_CAPTURE_SOLUTIONS = (
    "Start without CUDA graphs to confirm: vllm --enforce-eager; sglang"
    " --cuda-graph-backend-decode disabled (--disable-cuda-graph before June 2026)",
    "Turn off the custom all-reduce, the usual non-graph-safe call in multi-GPU capture:"
    " --disable-custom-all-reduce (both engines)",
    "Read the first error logged above (an NCCL WARN line or another CUDA error) and"
    " upgrade the engine and its NCCL / kernel packages together",
)
_CAPTURE_FIX = (
    "# before\nvllm serve M --tensor-parallel-size 2\n# after: no custom all-reduce (or,"
    " to confirm, no graphs)\nvllm serve M --tensor-parallel-size 2"
    " --disable-custom-all-reduce\nvllm serve M --tensor-parallel-size 2 --enforce-eager"
)

_NO_KERNEL_SOLUTIONS = (
    "Install builds made for this GPU's architecture: for a new GPU (RTX 50xx, B200: sm_100"
    " or sm_120) a torch wheel built for CUDA 12.8 or newer, for example pip install torch"
    " --index-url https://download.pytorch.org/whl/cu128, and an engine release built"
    " against that torch",
    "For an old GPU (V100 sm_70, T4 sm_75, P100 sm_60) use an engine release that still"
    " builds its kernels for it, or a newer GPU",
    'When building from source, list the architecture: TORCH_CUDA_ARCH_LIST="8.0 9.0 12.0"'
    " before pip install -e .",
    'python -c "import torch; print(torch.cuda.get_device_capability(),'
    " torch.cuda.get_arch_list())\" shows the GPU's capability and the ones the install"
    " supports",
)

RECORDS = (
    cuda_error(
        "cuda-illegal-address",
        "an illegal memory access was encountered",
        "A GPU kernel read or wrote memory outside what it owns, and the CUDA context is now"
        " unusable: every later call fails too. In a serving engine this is almost always a"
        " kernel bug or a kernel used outside what it supports (attention backend, MoE,"
        " speculative decoding, custom all-reduce, CUDA graphs), rarely your input.",
        (
            _DEBUG,
            "Rule out CUDA graphs (vllm --enforce-eager; sglang --cuda-graph-backend-decode"
            " disabled) and other optional kernels, one at a time",
            "Upgrade the engine and its kernel package (sgl-kernel, flashinfer) together",
        ),
        _DEBUG_FIX,
        trigger="Usually while serving a batch (a long prompt, a new model architecture, a"
        " speculative-decoding or multi-GPU fast path) or at CUDA graph capture.",
        variants=_ILLEGAL_VARIANTS,
        tags=("gpu-crash",),
        phrases=("illegal memory access",),
    ),
    cuda_error(
        "cuda-illegal-address",
        "misaligned address",
        "A GPU kernel accessed memory at an address not aligned for its data type: a kernel"
        " bug, or a kernel given a tensor view (slice, odd head size) it does not support.",
        (
            _DEBUG,
            "Rule out CUDA graphs and optional kernels (vllm --enforce-eager; sglang"
            " --attention-backend triton) one at a time",
            "Upgrade the engine and its kernel package; report the model and launch command",
        ),
        _DEBUG_FIX,
        variants=_ILLEGAL_VARIANTS,
        phrases=("misaligned address",),
    ),
    cuda_error(
        "cuda-device-assert",
        "device-side assert triggered",
        "A check inside a GPU kernel failed. In LLM serving the usual cause is an index out"
        " of range: a token id not below the vocabulary size (tokenizer and model disagree),"
        " a position beyond the model's maximum, or NaN/inf probabilities reaching the"
        " sampler. The first assert message (printed above, 'Assertion ... failed') says"
        " which.",
        (
            "Read the first 'Assertion `...` failed' line above the traceback: it names the"
            " index that was out of range",
            "Check that the tokenizer belongs to the model (vocab size of tokenizer.json vs"
            " config.json's vocab_size)",
            _DEBUG,
            "Compile torch with TORCH_USE_CUDA_DSA=1 only if you build it yourself; prebuilt"
            " wheels ignore it",
        ),
        "# before\nvllm serve ./my-finetune --tokenizer ./other-tokenizer\n# after\n"
        "CUDA_LAUNCH_BLOCKING=1 vllm serve ./my-finetune",
        tags=("gpu-crash",),
        phrases=("device-side assert triggered",),
    ),
    cuda_error(
        "cuda-no-kernel-image",
        "no kernel image is available for execution on the device",
        "The installed binaries (torch, the engine's compiled kernels such as vllm._C or"
        " sgl-kernel, flash-attention, a custom op) were not compiled for this GPU's"
        " architecture (compute capability): a GPU newer than the build, or older than its"
        " oldest supported one.",
        _NO_KERNEL_SOLUTIONS,
        "# before: torch built for CUDA 12.4 on an RTX 5090 (sm_120)\npip install torch\n#"
        " after\npip install torch --index-url https://download.pytorch.org/whl/cu128",
        references=(_CUDA_TYPES, _ARCH, "https://pytorch.org/get-started/locally/"),
        tags=("gpu-architecture", "installation"),
        phrases=("no kernel image is available",),
    ),
    cuda_error(
        "cuda-other",
        "invalid device function",
        "A kernel was launched that the installed binaries do not hold for this GPU: like"
        " 'no kernel image is available', an architecture mismatch between the build and the"
        " GPU (common on ROCm and with custom kernels).",
        _NO_KERNEL_SOLUTIONS,
        "# before: a wheel built without this GPU's architecture\npip install sgl-kernel\n#"
        ' after: a build that includes it\nTORCH_CUDA_ARCH_LIST="9.0" pip install -e'
        " sgl-kernel",
        tags=("gpu-architecture",),
    ),
    cuda_error(
        "cuda-other",
        "unspecified launch failure",
        "A GPU kernel crashed without a more precise reason (often an out-of-bounds access or"
        " a kernel killed by the driver watchdog); the CUDA context is lost.",
        (
            _DEBUG,
            "Rule out CUDA graphs and optional kernels (vllm --enforce-eager; sglang"
            " --cuda-graph-backend-decode disabled)",
            "Check the driver log (dmesg | grep -i xid) for hardware errors (Xid 79, 48)",
        ),
        _DEBUG_FIX,
        phrases=("unspecified launch failure",),
    ),
    cuda_error(
        "cuda-other",
        "an illegal instruction was encountered",
        "A GPU kernel executed an instruction the GPU cannot run: usually a kernel compiled"
        " for another architecture, or a corrupted build.",
        (*_NO_KERNEL_SOLUTIONS[:1], _DEBUG),
        _DEBUG_FIX,
    ),
    cuda_error(
        "cuda-other",
        "invalid argument",
        "A CUDA runtime call got a value it rejects: often a kernel launched with more shared"
        " memory or threads than the GPU allows, a custom all-reduce buffer that could not be"
        " registered, or peer access between GPUs that do not support it.",
        (
            _DEBUG,
            "When the traceback passes through custom all-reduce, turn it off: sglang and vllm"
            " --disable-custom-all-reduce",
            "Upgrade the engine: some kernels assume a newer GPU than yours",
        ),
        "# before\nvllm serve Qwen/Qwen3-32B --tensor-parallel-size 2\n# after\nvllm serve"
        " Qwen/Qwen3-32B --tensor-parallel-size 2 --disable-custom-all-reduce",
    ),
    cuda_error(
        "cuda-other",
        "initialization error",
        "CUDA could not be initialised in this process: most often a process forked after"
        " CUDA was already initialised in its parent, or a driver/container problem.",
        (
            "Start worker processes with 'spawn', not 'fork': for vllm set the environment"
            " variable VLLM_WORKER_MULTIPROC_METHOD=spawn",
            "Do not touch torch.cuda before the engine starts its workers",
            "Check the driver inside the container: nvidia-smi must work there",
        ),
        "# before\npython serve.py\n# after\nVLLM_WORKER_MULTIPROC_METHOD=spawn python serve.py",
    ),
    cuda_error(
        "cuda-other",
        "CUDA driver version is insufficient for CUDA runtime version",
        "The NVIDIA driver is older than the CUDA runtime torch was built with.",
        (
            "Upgrade the NVIDIA driver (nvidia-smi shows its version and the highest CUDA it"
            " supports)",
            "Or install a torch built for an older CUDA, for example pip install torch"
            " --index-url https://download.pytorch.org/whl/cu121, with an engine release that"
            " supports it",
        ),
        "# before\npip install torch\n# after\npip install torch --index-url"
        " https://download.pytorch.org/whl/cu121",
        tags=("installation",),
        phrases=("CUDA driver version is insufficient",),
    ),
    cuda_error(
        "cuda-other",
        "invalid device ordinal",
        "A GPU index was used that does not exist: more GPUs were asked for (tensor or"
        " pipeline parallel size, a --base-gpu-id) than CUDA_VISIBLE_DEVICES shows.",
        (
            "Make the parallel sizes fit the visible GPUs: tensor parallel size times pipeline"
            " (and data) parallel size must not exceed the GPUs in CUDA_VISIBLE_DEVICES",
            "Check CUDA_VISIBLE_DEVICES and, for docker, --gpus all",
        ),
        "# before\nCUDA_VISIBLE_DEVICES=0,1 vllm serve M --tensor-parallel-size 4\n# after\n"
        "CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve M --tensor-parallel-size 4",
        phrases=("invalid device ordinal",),
    ),
    cuda_error(
        "cuda-other",
        "operation not permitted when stream is capturing",
        "Code ran a call that is forbidden during CUDA graph capture (a synchronisation, a"
        " host copy, an allocation outside the graph pool): a model or kernel that is not"
        " graph-safe.",
        (
            "Turn CUDA graphs off to confirm: vllm --enforce-eager; sglang"
            " --cuda-graph-backend-decode disabled",
            "Upgrade the engine; report the model if it still happens",
        ),
        "# before\nvllm serve M\n# after\nvllm serve M --enforce-eager",
        phrases=("operation not permitted when stream is capturing",),
    ),
    cuda_error(
        "cuda-other",
        "operation failed due to a previous error during capture",
        "CUDA graph capture was invalidated: an earlier call in the same capture did"
        " something forbidden while the stream was capturing (a synchronisation, a copy to"
        " the host, work on another stream the capture does not join, an NCCL or custom"
        " all-reduce call that is not graph-safe), and every later call of the capture fails"
        " with this. The first error, logged above it (often by NCCL or the all-reduce), names"
        " the call; the engine fails at start-up while capturing its graphs.",
        _CAPTURE_SOLUTIONS,
        _CAPTURE_FIX,
        trigger="At engine start-up, while CUDA graphs are captured for each batch size.",
        phrases=("previous error during capture",),
    ),
    cuda_error(
        "cuda-other",
        "capturing stream has unjoined work",
        "CUDA graph capture ended while work forked onto another stream (by a kernel library,"
        " a communication kernel, an overlap feature) had not been joined back to the"
        " capturing stream: a code path that is not graph-safe; the capture fails and the"
        " engine stops at start-up.",
        _CAPTURE_SOLUTIONS,
        _CAPTURE_FIX,
        trigger="At engine start-up, while CUDA graphs are captured for each batch size.",
        phrases=("capturing stream has unjoined work",),
    ),
    cuda_error(
        "cuda-other",
        "too many resources requested for launch",
        "A kernel was launched with more registers or threads per block than the GPU allows:"
        " a kernel tuned for another GPU.",
        (
            "Try another attention or MoE backend (sglang --attention-backend triton; vllm"
            " --attention-backend TRITON_ATTN)",
            "Upgrade the engine and kernel packages",
        ),
        "# before\nvllm serve M\n# after\nvllm serve M --attention-backend TRITON_ATTN",
        phrases=("too many resources requested for launch",),
    ),
    cuda_error(
        "cuda-other",
        "CUDA-capable device(s) is/are busy or unavailable",
        "The GPU refused a new context: it is in exclusive-process compute mode and another"
        " process holds it, or the GPU is in a bad state.",
        (
            "Stop the other process on the GPU (nvidia-smi), or set the default compute mode"
            " (nvidia-smi -c DEFAULT)",
            "If no process holds it, reset the GPU (nvidia-smi -r) or reboot",
        ),
        "nvidia-smi -c DEFAULT",
    ),
    cuda_error(
        "cuda-other",
        "uncorrectable ECC error encountered",
        "The GPU's memory reported a hardware error; results cannot be trusted.",
        (
            "Check nvidia-smi -q -d ECC and dmesg for Xid errors; reset the GPU or move the"
            " workload off it",
        ),
        "nvidia-smi -q -d ECC",
        phrases=("uncorrectable ECC error",),
    ),
    cuda_error(
        "cuda-other",
        "unknown error",
        "The CUDA runtime or driver failed without a specific code (cudaErrorUnknown). In a"
        " serving process it usually means the GPU fell off the bus or hit a hardware fault"
        " (an Xid in the kernel log), the driver and the CUDA of torch disagree (a container"
        " on an older host driver), or a kernel crashed and left the context unusable; the"
        " NCCL watchdog thread often reports it first in multi-GPU runs.",
        (
            "Check the host: dmesg | grep -i xid (Xid 79 'fallen off the bus', 48 double-bit"
            " ECC), nvidia-smi; reset the GPU (nvidia-smi -r) or reboot the node",
            "Check that the driver supports the CUDA of torch (nvidia-smi shows the driver's"
            " CUDA version; python -c 'import torch; print(torch.version.cuda)')",
            _DEBUG,
        ),
        "dmesg | grep -i xid\nnvidia-smi\nCUDA_LAUNCH_BLOCKING=1 vllm serve M --enforce-eager",
    ),
    cuda_error(
        "cuda-other",
        "no CUDA-capable device is detected",
        "No GPU is visible to the process: CUDA_VISIBLE_DEVICES is empty or wrong, the"
        " container was started without GPUs, or the driver is not loaded.",
        (
            "For docker pass --gpus all (and install the NVIDIA container toolkit)",
            "Check CUDA_VISIBLE_DEVICES and that nvidia-smi works in the same environment",
        ),
        "# before\ndocker run vllm/vllm-openai ...\n# after\ndocker run --gpus all"
        " vllm/vllm-openai ...",
        phrases=("no CUDA-capable device is detected",),
    ),
    cuda_error(
        "cuda-other",
        "the provided PTX was compiled with an unsupported toolchain.",
        "A kernel (often Triton's or a JIT-compiled one) was compiled by a newer CUDA than the"
        " driver supports.",
        (
            "Upgrade the NVIDIA driver to one that supports the CUDA version of torch and Triton",
            "Or install torch (and the engine) built for the CUDA your driver supports",
        ),
        "# before: driver 535 (CUDA 12.2) with torch for CUDA 12.8\n# after\nsudo apt install"
        " nvidia-driver-570",
        tags=("installation",),
    ),
    cuda_error(
        "cuda-other",
        "{error}",
        "A CUDA runtime call failed; the text after 'CUDA error:' is NVIDIA's description of"
        " the error code. Errors reported by a kernel can surface at a later, unrelated call.",
        (
            _DEBUG,
            "Search the error name (cudaErrorX, printed on the next line by recent torch) in"
            " NVIDIA's list of CUDA runtime error codes",
        ),
        _DEBUG_FIX,
    ),
    _hip(
        "{error}",
        "A HIP runtime call failed on a ROCm build of torch (the HIP counterpart of 'CUDA"
        " error:'). Kernel errors can surface at a later call.",
        (
            "Rerun with AMD_SERIALIZE_KERNEL=3 (and HIP_LAUNCH_BLOCKING=1 on older ROCm) to"
            " see the failing kernel",
            "Check that torch, the engine and ROCm versions match the engine's ROCm docker image",
        ),
        "# before\nvllm serve M\n# after\nAMD_SERIALIZE_KERNEL=3 vllm serve M --enforce-eager",
    ),
    _hip(
        "operation not permitted when stream is capturing",
        "Code ran a call that is forbidden during HIP graph capture (a synchronisation, a"
        " host copy, an allocation outside the graph pool) on a ROCm build of torch: the HIP"
        " counterpart of CUDA's capture error. It often surfaces in another thread (the"
        " process group's watchdog, which only carries it) while the engine captures its"
        " graphs at start-up.",
        _CAPTURE_SOLUTIONS,
        _CAPTURE_FIX,
        threads=("https://github.com/ROCm/hip/issues/3876",),
    ),
    _hip(
        "operation failed due to a previous error during capture",
        "HIP graph capture was invalidated by an earlier forbidden call in the same capture"
        " (the HIP counterpart of CUDA's); every later call of the capture fails with this."
        " The first error, logged above it, names the call.",
        _CAPTURE_SOLUTIONS,
        _CAPTURE_FIX,
    ),
    _hip(
        "invalid device function",
        "The ROCm binaries hold no kernel for this GPU's architecture (gfx id): the build"
        " was made for other gfx targets.",
        (
            "Use the engine's ROCm docker image for your GPU, or build with the right target:"
            " PYTORCH_ROCM_ARCH=gfx942 (MI300) or gfx90a (MI250)",
            "For a consumer GPU not in the build, HSA_OVERRIDE_GFX_VERSION=11.0.0 can map it"
            " to a supported target (at your own risk)",
        ),
        "# before\npip install -e .\n# after\nPYTORCH_ROCM_ARCH=gfx942 pip install -e .",
    ),
)

#: ROCm's runtime (ROCR) prints a GPU page fault itself, to stderr, and aborts the
#: process (Runtime::VMFaultHandler in runtime/hsa-runtime/core/runtime/runtime.cpp;
#: the line is the format string's at this commit, ROCR's newest in the mirror).
_ROCR_SHA = "c7785a6da1c10c25bc8d527c00b1fe79bfbd84c9"
_ROCR_DEBUG = (
    "Rerun with AMD_SERIALIZE_KERNEL=3 (and HIP_LAUNCH_BLOCKING=1 on older ROCm) so the"
    " fault is reported at the kernel that made it"
)

HIP_FAULT = Spec(
    kind="hip-memory-access-fault",
    repo="ROCm/ROCR-Runtime",
    path="runtime/hsa-runtime/core/runtime/runtime.cpp",
    line=1866,
    sha=_ROCR_SHA,
    error_class="MemoryAccessFault",
    template="Memory access fault by GPU node-{node} (Agent handle: {handle}) on address"
    " {address}{exact}. Reason: {reason}.",
    # Older ROCm printed no agent handle; the reason may be cut or end the paste.
    pattern=r"Memory access fault by GPU node-(\d+)(?: \(Agent handle: (\S+?)\))? on"
    r" address (\S+?)(\(may not be exact address\))?\.(?:\s*Reason: (.+?)\.?)?",
    documentation="An AMD GPU kernel read or wrote an address the process has not mapped,"
    " and ROCm's runtime aborted the whole process (there is no Python traceback: the"
    " worker dies, and the engine reports a dead worker after it). On MI200/MI300 it is the"
    " ROCm counterpart of CUDA's illegal memory access: almost always a kernel bug or a"
    " kernel path used outside what it supports (an AITER attention or MoE kernel, expert"
    " parallelism, CUDA graphs, a quantized path), sometimes a driver or firmware too old"
    " for the ROCm release, rarely the input.",
    solutions=(
        _ROCR_DEBUG,
        "Turn the AITER kernels off to see whether one of them faults: SGLANG_USE_AITER=0"
        " for sglang, VLLM_ROCM_USE_AITER=0 for vllm",
        "Rule out graph capture: vllm --enforce-eager; sglang --cuda-graph-backend-decode"
        " disabled (--disable-cuda-graph before June 2026)",
        "Use the engine's ROCm docker image for your GPU (rocm/sgl-dev, rocm/vllm), whose"
        " ROCm, torch and kernels were built together; on a host install, upgrade the"
        " amdgpu driver and firmware to what that ROCm release lists",
    ),
    example_fix="# before\npython -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3"
    " --tp 8 --ep 8\n# after: find the faulting kernel, then try without AITER\n"
    "AMD_SERIALIZE_KERNEL=3 SGLANG_USE_AITER=0 python -m sglang.launch_server --model-path"
    " deepseek-ai/DeepSeek-V3 --tp 8",
    trigger="Serving on AMD Instinct GPUs (MI250, MI300X, MI308) with expert parallelism,"
    " speculative decoding, long prompts or a new model architecture; consumer Radeon GPUs"
    " used through HSA_OVERRIDE_GFX_VERSION.",
    tags=("rocm", "gpu-crash"),
    references=(
        "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/debugging.html",
        "https://github.com/ROCm/ROCR-Runtime",
    ),
    phrases=("memory access fault",),
)

#: aten/src/ATen/cuda/Exceptions.h at this commit: TORCH_CUDABLAS_CHECK (line 59) and
#: AT_CUDNN_CHECK (line 46; line 41 for CUDNN_STATUS_NOT_SUPPORTED).
EXCEPTIONS_H = "aten/src/ATen/cuda/Exceptions.h"
EXCEPTIONS_SHA = "0220ea5a36c33d1fd6b3fdd20bcd8f273bbccbbb"
_CUBLAS_DOC = (
    "A cuBLAS call (a matrix multiply inside a linear layer or attention) failed. torch"
    " prints cuBLAS's status name and the call. EXECUTION_FAILED and INTERNAL_ERROR are"
    " usually a kernel crash or an architecture mismatch; NOT_INITIALIZED and ALLOC_FAILED"
    " mean cuBLAS could not get GPU memory for its handle or workspace; INVALID_VALUE means"
    " shapes or strides it rejects."
)


def _cublas(status: str, documentation: str, solutions: tuple[str, ...], fix: str) -> Spec:
    return Spec(
        kind="cublas",
        repo="pytorch/pytorch",
        path=EXCEPTIONS_H,
        line=59,
        sha=EXCEPTIONS_SHA,
        error_class="RuntimeError",
        tags=("cublas",),
        template=f"CUDA error: {status} when calling `{{call}}`",
        documentation=documentation,
        solutions=solutions,
        example_fix=fix,
        references=("https://docs.nvidia.com/cuda/cublas/index.html#cublasstatus-t",),
    )


_MEMORY_ROOM = (
    "Leave cuBLAS room: lower sglang --mem-fraction-static (for example to 0.8) or vllm"
    " --gpu-memory-utilization (for example to 0.85)"
)

CUBLAS_CUDNN = (
    _cublas(
        "{status}",
        _CUBLAS_DOC,
        (
            _DEBUG,
            "If the status is NOT_INITIALIZED or ALLOC_FAILED: " + _MEMORY_ROOM,
            "If it is EXECUTION_FAILED or INTERNAL_ERROR: install a torch and engine built for"
            " this GPU (see 'no kernel image is available'), and try another --dtype (float16"
            " instead of bfloat16 on GPUs before Ampere)",
        ),
        "# before\nvllm serve M --gpu-memory-utilization 0.95\n# after\nvllm serve M"
        " --gpu-memory-utilization 0.85",
    ),
    _cublas(
        "CUBLAS_STATUS_EXECUTION_FAILED",
        _CUBLAS_DOC + " Here the GEMM kernel itself failed on the GPU.",
        (
            _DEBUG,
            "Install a torch and engine built for this GPU's architecture (a GPU newer than"
            " the build fails this way too)",
            "On GPUs before Ampere (V100, T4) serve in float16: --dtype float16",
            "Rule out CUDA graphs (vllm --enforce-eager; sglang --cuda-graph-backend-decode"
            " disabled)",
        ),
        "# before\nvllm serve M\n# after\nvllm serve M --dtype float16 --enforce-eager",
    ),
    _cublas(
        "CUBLAS_STATUS_NOT_INITIALIZED",
        _CUBLAS_DOC + " Here cuBLAS could not create its handle, almost always for lack of"
        " GPU memory.",
        (_MEMORY_ROOM, "Check for other processes on the GPU (nvidia-smi)"),
        "# before\npython -m sglang.launch_server --model-path M --mem-fraction-static 0.95\n#"
        " after\npython -m sglang.launch_server --model-path M --mem-fraction-static 0.8",
    ),
    _cublas(
        "CUBLAS_STATUS_ALLOC_FAILED",
        _CUBLAS_DOC + " Here cuBLAS could not allocate its workspace.",
        (_MEMORY_ROOM, "Check for other processes on the GPU (nvidia-smi)"),
        "# before\nvllm serve M --gpu-memory-utilization 0.95\n# after\nvllm serve M"
        " --gpu-memory-utilization 0.85",
    ),
    Spec(
        kind="cudnn",
        repo="pytorch/pytorch",
        path=EXCEPTIONS_H,
        line=46,
        sha=EXCEPTIONS_SHA,
        error_class="RuntimeError",
        tags=("cudnn",),
        template="cuDNN error: {status}",
        documentation="A cuDNN call (a convolution, often in a vision or audio encoder of a"
        " multimodal model) failed with the status named. NOT_INITIALIZED and ALLOC_FAILED mean"
        " no GPU memory was left for cuDNN; EXECUTION_FAILED and INTERNAL_ERROR a kernel"
        " failure or a cuDNN build that does not match the GPU or torch.",
        solutions=(
            "If the status is NOT_INITIALIZED or ALLOC_FAILED: " + _MEMORY_ROOM,
            "Make the cuDNN torch loads the one it was built with: do not set LD_LIBRARY_PATH"
            " to another cuDNN, reinstall nvidia-cudnn-cu12 with torch",
            _DEBUG,
        ),
        example_fix="# before\nvllm serve Qwen/Qwen2.5-VL-7B-Instruct --gpu-memory-utilization"
        " 0.95\n# after\nvllm serve Qwen/Qwen2.5-VL-7B-Instruct --gpu-memory-utilization 0.85",
        references=("https://docs.nvidia.com/deeplearning/cudnn/latest/api/overview.html",),
    ),
    Spec(
        kind="cudnn",
        repo="pytorch/pytorch",
        path=EXCEPTIONS_H,
        line=41,
        sha=EXCEPTIONS_SHA,
        error_class="RuntimeError",
        tags=("cudnn",),
        template="cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed"
        " in a non-contiguous input.",
        documentation="cuDNN has no kernel for this input: a non-contiguous tensor, a dtype or"
        " shape it does not support on this GPU, or too little memory to pick a kernel.",
        solutions=(
            "Upgrade torch (and its bundled cuDNN) to the version the engine pins",
            _MEMORY_ROOM,
        ),
        example_fix="pip install --upgrade torch nvidia-cudnn-cu12",
        references=("https://docs.nvidia.com/deeplearning/cudnn/latest/api/overview.html",),
    ),
)
