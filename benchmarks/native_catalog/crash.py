"""Crashes with no Python exception: segmentation faults, bus errors, aborts, the OOM killer.

The shell prints a dead child's signal (bash: jobs.c prints the description from
siglist.c and ``(core dumped)``); Python's faulthandler (enabled by vllm, sglang
and torch elastic) prints ``Fatal Python error: <signal>`` and the Python stacks
(cpython Modules/faulthandler.c).
"""

from __future__ import annotations

from native_catalog.spec import Spec

__all__ = ["RECORDS"]

BASH_SHA = "637f5c8696a6adc9b4519f1cd74aa78492266b7f"
CPYTHON_SHA = "005b3eee72b02b0d986640e63bbed1890d68ebf6"

_SEGV_DOC = (
    "A native library (a CUDA kernel package, a tokenizer, NCCL, the driver) crashed the"
    " process; Python had no chance to raise an exception. In serving stacks the usual"
    " causes are binary mismatches: a compiled extension (vllm._C, sgl-kernel, flash-attn,"
    " xformers) built against another torch or CUDA than the one installed."
)
_SEGV_SOLUTIONS = (
    "Reinstall the engine with the torch it pins, in a fresh environment (pip install vllm"
    " or pip install sglang, letting pip choose torch), or use the engine's docker image",
    "Find which library crashed: run with PYTHONFAULTHANDLER=1 to print the Python stack,"
    " or under gdb (gdb -ex run --args python ...) for the native one",
    "Check that no two CUDA runtimes or NCCL builds are mixed (LD_LIBRARY_PATH, conda and pip"
    " packages side by side)",
)
_SEGV_FIX = (
    "# before\npip install vllm  # into an env that already had another torch\n# after\n"
    "python -m venv fresh && fresh/bin/pip install vllm && PYTHONFAULTHANDLER=1"
    " fresh/bin/vllm serve M"
)

_BUS_DOC = (
    "The process got SIGBUS: it touched memory-mapped memory that no longer has anything"
    " behind it. In serving and training stacks this is nearly always shared memory"
    " (/dev/shm) running full: docker gives a container 64 MB of it unless told otherwise,"
    " and vLLM's and SGLang's worker processes, NCCL's shared-memory transport, torch's"
    " multiprocessing tensors and Ray's object store all write there. A weights file on a"
    " network file system that changes or is truncated while mapped does it too."
)
_BUS_SOLUTIONS = (
    "In docker, give the container the host's IPC namespace or a larger /dev/shm: docker"
    " run --ipc=host ... (as the engines' docs do), or --shm-size=16g",
    "In Kubernetes, mount a memory-backed emptyDir at /dev/shm (volumes: - name: dshm,"
    " emptyDir: {medium: Memory, sizeLimit: 16Gi}; volumeMounts: mountPath: /dev/shm)",
    "Check the space while the engine starts: df -h /dev/shm; outside containers, grow it"
    " with sudo mount -o remount,size=32G /dev/shm",
)
_BUS_FIX = (
    "# before\ndocker run --gpus all vllm/vllm-openai --model M --tensor-parallel-size 2\n"
    "# after\ndocker run --gpus all --ipc=host vllm/vllm-openai --model M"
    " --tensor-parallel-size 2"
)
_BUS_REFERENCES = (
    "vllm-project/vllm#1710 (tensor parallelism in docker with 64 MB of /dev/shm; Ray's"
    " warning and --shm-size)",
    "https://docs.docker.com/reference/cli/docker/container/run/#ipc",
)

RECORDS = (
    Spec(
        kind="segfault",
        repo="bminor/bash",
        path="jobs.c",
        line=2105,
        sha=BASH_SHA,
        error_class="Segmentation fault",
        tags=("crash",),
        template="Segmentation fault (core dumped)",
        pattern=r"Segmentation fault(?: \(core dumped\))?",
        documentation=_SEGV_DOC,
        solutions=_SEGV_SOLUTIONS,
        example_fix=_SEGV_FIX,
        trigger="Importing the engine, loading the model or running the first batch with"
        " native packages built for another torch, CUDA or CPU.",
    ),
    Spec(
        kind="segfault",
        repo="python/cpython",
        path="Modules/faulthandler.c",
        line=107,
        sha=CPYTHON_SHA,
        error_class="Fatal Python error",
        tags=("crash",),
        template="Fatal Python error: Segmentation fault",
        # A title names the crash ("[Bug] segfault when loading ..."): one of the two
        # segfault records carries the words (both would name neither). This one, since
        # a faulthandler dump under frames finds no record sure enough and falls to phrases.
        phrases=("segmentation fault", "segfault", "SIGSEGV"),
        documentation=_SEGV_DOC + " Python's faulthandler printed the Python stack of every"
        " thread below this line: the innermost frame of the thread marked 'most recent call"
        " first' is where the native call was made.",
        solutions=_SEGV_SOLUTIONS,
        example_fix=_SEGV_FIX,
    ),
    Spec(
        kind="fatal-python-error",
        repo="python/cpython",
        path="Modules/faulthandler.c",
        line=104,
        sha=CPYTHON_SHA,
        error_class="Fatal Python error",
        tags=("crash",),
        template="Fatal Python error: Aborted",
        documentation="The process aborted (SIGABRT): usually a C++ exception nobody caught"
        " ('terminate called after throwing an instance of ...' just above, with its what():"
        " message, which is the real error), or a failed assert in a native library. In"
        " multi-GPU serving the what() is often an NCCL watchdog or a CUDA error.",
        solutions=(
            "Read the 'terminate called after throwing' and 'what():' lines above: they hold"
            " the real error (a CUDA error, an NCCL timeout); fix that one",
            "Run with CUDA_LAUNCH_BLOCKING=1 when the what() is a CUDA error, to find the kernel",
        ),
        example_fix="CUDA_LAUNCH_BLOCKING=1 PYTHONFAULTHANDLER=1 vllm serve M",
    ),
    Spec(
        kind="fatal-python-error",
        repo="python/cpython",
        path="Modules/faulthandler.c",
        line=264,
        sha=CPYTHON_SHA,
        error_class="Fatal Python error",
        tags=("crash",),
        template="Fatal Python error: {reason}",
        documentation="The interpreter stopped the process on an unrecoverable error; the"
        " text after the colon says which (a signal such as 'Aborted', or a C-API misuse such"
        " as calling Python without the GIL, which points at a native extension).",
        solutions=(
            "Read the reason and the Python stacks printed below it: the innermost frame of"
            " the current thread shows which library call it was",
            "Reinstall native extensions built for the installed Python and torch",
        ),
        example_fix="PYTHONFAULTHANDLER=1 python -X dev serve.py",
    ),
    Spec(
        kind="oom-killed",
        repo="bminor/bash",
        path="siglist.c",
        line=87,
        sha=BASH_SHA,
        error_class="Killed",
        tags=("crash", "host-memory"),
        template="Killed",
        phrases=("OOM killer", "OOMKilled"),
        documentation="The process received SIGKILL, nearly always from the kernel's"
        " out-of-memory killer: host (CPU) memory, not GPU memory, ran out. Loading a large"
        " checkpoint, many tokenizer or worker processes, and CPU offload all use host RAM."
        " 'dmesg | grep -i killed' shows 'Out of memory: Killed process ...' when that is"
        " what happened; in a container, the memory limit counts, and docker reports exit"
        " code 137.",
        solutions=(
            "Give the machine or container more RAM (docker --memory, the pod's memory limit)",
            "Load weights with less host memory: safetensors checkpoints, fewer loader"
            " processes, no --cpu-offload-gb",
            "Lower the number of processes that each hold a copy (API server workers,"
            " tokenizer pools, data-parallel replicas on one host)",
        ),
        example_fix="# before\ndocker run --gpus all --memory 32g vllm/vllm-openai ...\n#"
        " after\ndocker run --gpus all --memory 128g --ipc=host vllm/vllm-openai ...",
        references=("https://www.kernel.org/doc/gorman/html/understand/understand016.html",),
    ),
    Spec(
        kind="bus-error",
        repo="bminor/bash",
        path="jobs.c",
        line=2105,
        sha=BASH_SHA,
        error_class="Bus error",
        tags=("crash", "host-memory"),
        template="Bus error (core dumped)",
        pattern=r"Bus error(?: \(core dumped\))?",
        documentation=_BUS_DOC,
        solutions=_BUS_SOLUTIONS,
        example_fix=_BUS_FIX,
        references=_BUS_REFERENCES,
    ),
    Spec(
        kind="bus-error",
        repo="python/cpython",
        path="Modules/faulthandler.c",
        line=98,
        sha=CPYTHON_SHA,
        error_class="Fatal Python error",
        tags=("crash", "host-memory"),
        template="Fatal Python error: Bus error",
        documentation=_BUS_DOC + " Python's faulthandler printed the Python stack of every"
        " thread below this line: a frame in the engine's shared-memory broadcast, in"
        " torch.multiprocessing or in the weight loader says which.",
        solutions=_BUS_SOLUTIONS,
        example_fix=_BUS_FIX,
        references=_BUS_REFERENCES,
    ),
)
