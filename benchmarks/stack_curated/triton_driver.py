"""Triton's CUDA driver errors: ``Triton Error [CUDA]: <the driver's description>``.

Triton loads and launches its compiled kernels through the CUDA driver API in a C
file it compiles at first use (``backends/nvidia/driver.c``); a failed driver call is
raised as ``RuntimeError`` with the prefix ``Triton Error [CUDA]: `` and the driver's
own description (``cuGetErrorString``). The miner reads Python ``raise`` statements,
so the torch package (which mines triton) had no record of it. The descriptions users
paste most say the driver could not load what Triton built (``device kernel image is
invalid``: Triton's bundled ptxas is newer than the driver understands) or refused a
launch (``invalid argument``, ``out of memory``).

Read in the triton 3.6.0 wheel (triton/backends/nvidia/driver.c, line 19; the
repository keeps it at third_party/nvidia/backend/driver.c). Thread learned from
(even-numbered, in benchmarks/data/study_stack.jsonl): vllm-project/vllm#18580.

>>> import regex
>>> pattern = CUDA_DRIVER.envelope().record.message_pattern
>>> bool(regex.fullmatch(pattern, "Triton Error [CUDA]: device kernel image is invalid"))
True
>>> bool(regex.fullmatch(pattern, "Triton Error [HIP]: invalid argument"))
False
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = ["CUDA_DRIVER", "RECORDS"]

CUDA_DRIVER = Curated(
    repo="triton-lang/triton",
    path="third_party/nvidia/backend/driver.c",
    line=19,
    revision="v3.6.0",
    error_class="RuntimeError",
    template="Triton Error [CUDA]: {error}",
    pattern=r"Triton Error \[CUDA\]: (.+?)",
    error_type="runtime",
    documentation="A CUDA driver call that Triton made to load or launch one of its"
    " kernels failed; the text after the prefix is the driver's description. 'device kernel"
    " image is invalid' (or 'a PTX JIT compilation failed', 'the provided PTX was compiled"
    " with an unsupported toolchain') means the driver cannot load the code Triton's"
    " bundled ptxas produced: the driver is older than that ptxas's CUDA. 'invalid"
    " argument' at a launch usually means the kernel asks for more shared memory or"
    " threads than the GPU gives (a config tuned for another GPU); 'out of memory' is GPU"
    " memory.",
    solutions=(
        "For 'device kernel image is invalid' and PTX errors: let Triton use the ptxas of"
        " the CUDA toolkit your driver supports, TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas,"
        " or upgrade the NVIDIA driver (nvidia-smi shows the CUDA version it supports),"
        " then clear ~/.triton/cache",
        "Or install the torch and triton pair built for your driver's CUDA (pip install"
        " torch --index-url https://download.pytorch.org/whl/cu121 brings its triton)",
        "For 'invalid argument': avoid the kernel's config for another GPU (vLLM: drop a"
        " custom fused-MoE config or VLLM_TUNED_CONFIG_FOLDER, try --enforce-eager)",
    ),
    example_fix="# before\nvllm serve M  # Triton Error [CUDA]: device kernel image is invalid\n"
    "# after\nrm -rf ~/.triton/cache\nTRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas vllm serve M",
    trigger="The first launch of a Triton kernel on a node whose driver is older than Triton's"
    " bundled CUDA, or a launch the GPU cannot satisfy.",
    tags=("triton", "driver"),
    references=(
        "https://triton-lang.org/main/getting-started/installation.html",
        "https://github.com/vllm-project/vllm/issues/18580",
    ),
)

RECORDS = (CUDA_DRIVER,)
