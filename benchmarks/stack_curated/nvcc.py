"""nvcc refusing a GPU architecture it does not know: ``nvcc fatal : Unsupported gpu architecture``.

The engines' kernels are compiled for a list of GPU architectures: flashinfer
JIT-compiles (and AOT-builds) its modules with ``-gencode=arch=compute_100a,...``
flags per architecture, and source builds of vllm, sgl-kernel, flash-attn or any
torch extension pass the list from ``TORCH_CUDA_ARCH_LIST`` or CMake's
``CMAKE_CUDA_ARCHITECTURES``. Each CUDA toolkit's nvcc knows the architectures up
to its release only (compute_90 from CUDA 11.8, compute_100a and compute_120a from
12.8), so an old toolkit, or a list naming a newer GPU than the toolkit, stops the
compile with this line; ninja, CMake or pip then report only that the build failed.
nvcc is closed source: the record points at the flag list of flashinfer's JIT, where
the engines' run-time compiles take their architectures.

Sources: flashinfer v0.6.17 ``flashinfer/jit/core.py`` (line 131, the sm100a flags).
Thread learned from (even-numbered, in benchmarks/data/study_stack.jsonl):
dusty-nv/jetson-containers#1186 (flashinfer built for compute_100a with CUDA 12.6 on
a Jetson Orin).

>>> import regex
>>> pattern = RECORDS[0].envelope().record.message_pattern
>>> bool(regex.fullmatch(pattern, "nvcc fatal   : Unsupported gpu architecture 'compute_90'"))
True
>>> bool(regex.fullmatch(pattern, "Unsupported gpu architecture 'compute_100a'"))
True
>>> bool(regex.fullmatch(pattern, "Unsupported gpu architecture"))
False
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = ["RECORDS"]

RECORDS = (
    Curated(
        repo="flashinfer-ai/flashinfer",
        path="flashinfer/jit/core.py",
        line=131,
        revision="a0a6b019b9b27d49d209f85d028a1ae5a9b347d7",
        error_class="nvcc",
        template="Unsupported gpu architecture '{arch}'",
        pattern=r"(?:nvcc fatal\s*:\s*)?Unsupported gpu architecture '([^'\s]+)'",
        error_type="build",
        documentation="The CUDA compiler (nvcc) was asked to build for a GPU architecture its"
        " release does not know, so the compile stopped before any kernel was built. The"
        " architecture list came from the build: flashinfer's JIT or AOT build (one module"
        " per architecture: compute_90a, compute_100a, compute_120a), or a source build of"
        " vllm, sgl-kernel, flash-attn or another torch extension (TORCH_CUDA_ARCH_LIST, or"
        " CMake's CMAKE_CUDA_ARCHITECTURES). Each toolkit knows the GPUs up to its release:"
        " compute_89 and compute_90 need CUDA 11.8, compute_100a and compute_120a need"
        " CUDA 12.8. An old toolkit picked first on PATH (/usr/bin/nvcc from the"
        " distribution), an image older than the GPU, or a list naming GPUs the machine"
        " does not have (a Jetson building Blackwell kernels) all end here.",
        solutions=(
            "Check which nvcc the build runs and its release: which nvcc && nvcc --version;"
            " put the toolkit you mean first: export CUDA_HOME=/usr/local/cuda-12.8 and"
            " export PATH=$CUDA_HOME/bin:$PATH",
            "Build only for the GPUs you have: export TORCH_CUDA_ARCH_LIST='8.7' (a Jetson"
            " Orin; 9.0 for H100, 8.9 for L4 and RTX 40) for vllm, sgl-kernel and torch"
            " extension builds, export FLASHINFER_CUDA_ARCH_LIST='8.7' for flashinfer's JIT"
            " and AOT builds, or -DCMAKE_CUDA_ARCHITECTURES=87 for a plain CMake build",
            "For Hopper (compute_90) use CUDA 11.8 or newer, for Blackwell (compute_100a,"
            " compute_120a) CUDA 12.8 or newer: a newer toolkit, or the engine's docker image"
            " built for it (its cu128 or cu129 tag)",
            "Then delete the half-built cache (rm -rf ~/.cache/flashinfer for flashinfer's"
            " JIT, or build/ in a checkout) before retrying",
        ),
        example_fix="# before: CUDA 12.6 on a Jetson Orin\npython -m sglang.launch_server --model-path"
        " M  # nvcc fatal : Unsupported gpu architecture 'compute_100a'\n# after\nexport"
        " FLASHINFER_CUDA_ARCH_LIST='8.7'\nrm -rf ~/.cache/flashinfer\npython -m"
        " sglang.launch_server --model-path M",
        trigger="A kernel compile (flashinfer's JIT at run time, or a source build of an"
        " engine or extension) with an architecture list the installed CUDA toolkit's nvcc"
        " is too old for.",
        prevention=(
            "Use the engine's released wheels or docker image for the GPU generation you run;"
            " when building, set TORCH_CUDA_ARCH_LIST (and FLASHINFER_CUDA_ARCH_LIST) to your"
            " own GPUs",
        ),
        tags=("errcat:tool:nvcc", "build"),
        references=(
            "https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/#gpu-feature-list",
            "dusty-nv/jetson-containers#1186 (compute_100a with CUDA 12.6 on a Jetson Orin)",
        ),
    ),
)
