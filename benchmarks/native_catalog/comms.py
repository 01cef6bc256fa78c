"""NCCL, the NCCL watchdog and Gloo: the errors of multi-GPU and multi-node runs.

NCCL's own texts (``ncclGetErrorString``, NVIDIA/nccl src/init.cc) reach users
through torch (``NCCL error in: <file>:<line>, <text>, NCCL version X`` from
``C10D_NCCL_CHECK``, torch/csrc/distributed/c10d/NCCLUtils.hpp, raised as
``torch.distributed.DistBackendError``) or through the engines' own NCCL
wrappers (vllm and sglang's pynccl: ``RuntimeError: NCCL error: <text>``).
torch's watchdog (ProcessGroupNCCL.cpp, ``WorkNCCL::checkTimeout``) reports a
collective that did not finish in time; Gloo (the CPU backend both engines use
for their control groups) reports broken or slow connections.
"""

from __future__ import annotations

from native_catalog.spec import Spec, Variant

__all__ = ["RECORDS"]

NCCL_SHA = "5067397c2676d5aed50042fc39e5c8ee96eb0027"
GLOO_SHA = "cc441984208d0b54b4fc614301f41e82e951e5cd"
_NCCL_ENV = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html"
_NCCL_TROUBLE = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html"
_TORCH_DIST = "https://pytorch.org/docs/stable/distributed.html"

_DEBUG_NCCL = (
    "Rerun with NCCL_DEBUG=INFO (and NCCL_DEBUG_SUBSYS=INIT,NET) to see which rank, GPU or"
    " network interface failed; the first WARN line names the cause"
)

_MULTI_GPU_VARIANTS = (
    Variant(
        "sglang",
        None,
        (
            _DEBUG_NCCL,
            "Turn off custom all-reduce to see whether NCCL alone works: --disable-custom-all-reduce",
            "In docker, give the container --ipc=host (or --shm-size 16g) and --gpus all",
            "On GPUs without NVLink or P2P support, set NCCL_P2P_DISABLE=1",
        ),
        "# before\npython -m sglang.launch_server --model-path M --tp-size 2\n# after\n"
        "NCCL_DEBUG=INFO NCCL_P2P_DISABLE=1 python -m sglang.launch_server --model-path M"
        " --tp-size 2 --disable-custom-all-reduce",
    ),
    Variant(
        "vllm",
        None,
        (
            _DEBUG_NCCL,
            "Turn off custom all-reduce to see whether NCCL alone works: --disable-custom-all-reduce",
            "In docker, give the container --ipc=host (or --shm-size 16g) and --gpus all",
            "On GPUs without NVLink or P2P support, set NCCL_P2P_DISABLE=1",
        ),
        "# before\nvllm serve M --tensor-parallel-size 2\n# after\nNCCL_DEBUG=INFO"
        " NCCL_P2P_DISABLE=1 vllm serve M --tensor-parallel-size 2 --disable-custom-all-reduce",
    ),
)


def _nccl(  # noqa: PLR0917 - each call is one table row, its fields in order
    line: int,
    text: str,
    pattern_text: str,
    documentation: str,
    solutions: tuple[str, ...],
    example_fix: str,
) -> Spec:
    return Spec(
        phrases=_result_names(text),
        kind="nccl-error",
        repo="NVIDIA/nccl",
        path="src/init.cc",
        line=line,
        sha=NCCL_SHA,
        error_class="torch.distributed.DistBackendError",
        also_classes=("RuntimeError",),
        tags=("nccl", "distributed"),
        template="NCCL error in: {location}, " + text + ", NCCL version {nccl_version}",
        # torch's form, or an engine's (``NCCL error: <text>``), or the text alone.
        pattern=r"(?:NCCL error in: (.+?), )?" + pattern_text + r"(?:, NCCL version (\S+))?",
        documentation=documentation,
        trigger="Creating the NCCL communicators at startup (tensor or pipeline parallel"
        " groups) or running a collective (all-reduce, all-gather) while serving.",
        solutions=solutions,
        example_fix=example_fix,
        references=(_NCCL_TROUBLE, _NCCL_ENV),
        variants=_MULTI_GPU_VARIANTS,
    )


#: NCCL's result codes (``ncclResult_t`` in nccl.h / src/include/nccl_net.h of
#: NVIDIA/nccl) by the opening words of the text ``ncclGetErrorString`` prints for
#: them. A title often names the code instead of the text: the enum name, or cupy's
#: ``NCCL_ERROR_<NAME>`` (cupy_backends' NcclError prints that before the text, and
#: vllm used cupy for NCCL in early 2024): both are phrases of the record.
_RESULT_NAMES = {
    "unhandled cuda error": ("ncclUnhandledCudaError", "NCCL_ERROR_UNHANDLED_CUDA_ERROR"),
    "unhandled system error": ("ncclSystemError", "NCCL_ERROR_SYSTEM_ERROR"),
    "internal error": ("ncclInternalError", "NCCL_ERROR_INTERNAL_ERROR"),
    "invalid argument": ("ncclInvalidArgument", "NCCL_ERROR_INVALID_ARGUMENT"),
    "invalid usage": ("ncclInvalidUsage", "NCCL_ERROR_INVALID_USAGE"),
    "remote process exited": ("ncclRemoteError", "NCCL_ERROR_REMOTE_ERROR"),
}


def _result_names(text: str) -> tuple[str, ...]:
    """The names of the NCCL result code whose text ``text`` is (see :data:`_RESULT_NAMES`)."""
    return next((names for lead, names in _RESULT_NAMES.items() if text.startswith(lead)), ())


_ESCAPED = {"(": r"\(", ")": r"\)", ".": r"\."}


def _escape(text: str) -> str:
    return "".join(_ESCAPED.get(c, c) for c in text)


RECORDS = (
    _nccl(
        3420,
        "unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
        _escape("unhandled cuda error (run with NCCL_DEBUG=INFO for details)"),
        "A CUDA call inside NCCL failed: most often GPU memory ran out while NCCL set up its"
        " buffers (the engine had reserved the rest), peer-to-peer access between the GPUs"
        " is broken or unsupported, or the CUDA context was already lost to an earlier"
        " kernel error. The 'Last error:' line after it says which CUDA call failed.",
        (
            _DEBUG_NCCL,
            "If the last error is 'out of memory', leave NCCL room: lower sglang"
            " --mem-fraction-static (for example to 0.8) or vllm --gpu-memory-utilization"
            " (for example to 0.85)",
            "If it happens on GPUs without NVLink (consumer cards, some cloud VMs), set"
            " NCCL_P2P_DISABLE=1",
            "Make torch's bundled NCCL and the system's agree: do not point LD_LIBRARY_PATH or"
            " VLLM_NCCL_SO_PATH at another libnccl",
        ),
        "# before\nvllm serve M --tensor-parallel-size 2\n# after\nNCCL_P2P_DISABLE=1"
        " NCCL_DEBUG=INFO vllm serve M --tensor-parallel-size 2 --gpu-memory-utilization 0.85",
    ),
    _nccl(
        3422,
        "unhandled system error (run with NCCL_DEBUG=INFO for details)",
        _escape("unhandled system error (run with NCCL_DEBUG=INFO for details)"),
        "A system call inside NCCL failed: usually shared memory (/dev/shm) too small in a"
        " container, a network interface NCCL cannot use, or InfiniBand/RDMA set up wrong.",
        (
            "In docker, start the container with --ipc=host or --shm-size 16g",
            _DEBUG_NCCL,
            "Name the network interface to use: NCCL_SOCKET_IFNAME=eth0 (the one that"
            " carries traffic between the nodes); without InfiniBand set NCCL_IB_DISABLE=1",
        ),
        "# before\ndocker run --gpus all vllm/vllm-openai ...\n# after\ndocker run --gpus all"
        " --ipc=host -e NCCL_SOCKET_IFNAME=eth0 vllm/vllm-openai ...",
    ),
    _nccl(
        3424,
        "internal error - please report this issue to the NCCL developers",
        _escape("internal error - please report this issue to the NCCL developers"),
        "NCCL hit a state it does not expect: often a version mix (two libnccl loaded), GPUs"
        " of different kinds in one group, or a broken topology detection.",
        (
            _DEBUG_NCCL,
            "Upgrade NCCL (pip install -U nvidia-nccl-cu12) together with torch",
            "Check that every rank uses the same NCCL and the same GPU model",
        ),
        "pip install -U nvidia-nccl-cu12",
    ),
    _nccl(
        3426,
        "invalid argument (run with NCCL_DEBUG=WARN for details)",
        _escape("invalid argument (run with NCCL_DEBUG=WARN for details)"),
        "NCCL rejected an argument: mismatched tensor sizes or dtypes between ranks, or a"
        " communicator used from a device it was not created on.",
        (
            "Rerun with NCCL_DEBUG=WARN to see which argument",
            "Check that all ranks run the same engine version and launch flags",
        ),
        "NCCL_DEBUG=WARN vllm serve M --tensor-parallel-size 2",
    ),
    _nccl(
        3428,
        "invalid usage (run with NCCL_DEBUG=WARN for details)",
        _escape("invalid usage (run with NCCL_DEBUG=WARN for details)"),
        "NCCL was called in a way it does not allow: most often two ranks on the same GPU"
        " (CUDA_VISIBLE_DEVICES lists a GPU twice, or two engines share one GPU), or a"
        " communicator reused after an error.",
        (
            "Give each rank its own GPU: check CUDA_VISIBLE_DEVICES and that no other engine"
            " runs on the same GPUs",
            "Rerun with NCCL_DEBUG=WARN to see which call",
        ),
        "# before\nCUDA_VISIBLE_DEVICES=0,0 vllm serve M --tensor-parallel-size 2\n# after\n"
        "CUDA_VISIBLE_DEVICES=0,1 vllm serve M --tensor-parallel-size 2",
    ),
    _nccl(
        3430,
        "remote process exited or there was a network error",
        "remote process exited or there was a network error",
        "Another rank died (its own error is in its log: look there first) or the network"
        " between the nodes dropped the connection.",
        (
            "Find the first error of the other ranks or nodes: this rank only saw them go",
            _DEBUG_NCCL,
            "For multi-node runs name the interface (NCCL_SOCKET_IFNAME) and check the"
            " firewall between the nodes",
        ),
        "NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=eth0 vllm serve M --tensor-parallel-size 16",
    ),
    Spec(
        kind="nccl-error",
        repo="pytorch/pytorch",
        path="torch/csrc/distributed/c10d/NCCLUtils.hpp",
        line=74,
        sha="04dbcd01a205761e6e513047ca5c005e981f6d7a",
        error_class="torch.distributed.DistBackendError",
        also_classes=("RuntimeError",),
        tags=("nccl", "distributed"),
        template="NCCL error in: {location}, {nccl_error}, NCCL version {nccl_version}",
        documentation="An NCCL call made by torch's process group failed; the text after the"
        " location is NCCL's own description, and the lines after it (ncclX: ..., 'Last"
        " error:') give the detail.",
        solutions=(
            _DEBUG_NCCL,
            "Read the 'Last error:' line: 'out of memory' means the engine left NCCL no room,"
            " a network message means the nodes cannot reach each other",
        ),
        example_fix="NCCL_DEBUG=INFO vllm serve M --tensor-parallel-size 2",
        references=(_NCCL_TROUBLE, _TORCH_DIST),
        variants=_MULTI_GPU_VARIANTS,
    ),
    Spec(
        kind="nccl-watchdog-timeout",
        repo="pytorch/pytorch",
        path="torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp",
        line=748,
        sha="0007e752d518810f0f8942a830dbbbfc69f34577",
        error_class="torch.distributed.DistBackendError",
        also_classes=("RuntimeError",),
        tags=("nccl", "distributed", "timeout"),
        phrases=("collective operation timeout", "watchdog timeout"),
        template="Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq},"
        " OpType={op_type}, NumelIn={numel_in}, NumelOut={numel_out},"
        " Timeout(ms)={timeout_ms}) ran for {elapsed_ms} milliseconds before timing out.",
        documentation="A collective (OpType, for example ALLREDUCE) waited longer than the"
        " process group's timeout for the other ranks. It is the symptom, not the cause: one"
        " rank stopped (crashed, hung, was killed, or is still loading weights or compiling)"
        " while the others waited. SeqNum tells which collective; ranks that printed a"
        " different SeqNum or none went another way.",
        trigger="Multi-GPU or multi-node serving: one rank fails or stalls (an exception, an"
        " OOM, a slow disk while loading, a long torch.compile or CUDA graph capture, a"
        " network hang) and the others time out 10 or 30 minutes later.",
        solutions=(
            "Look for the first error of any rank earlier in the log (or in the other nodes'"
            " logs): that is the cause; this timeout only reports it",
            "If a rank is legitimately slow (loading from a network disk, compiling), raise"
            " sglang's timeout with --dist-timeout 3600, or keep the model on local disk on"
            " every node so all ranks load at the same speed",
            "For multi-node runs check that NCCL can reach every node: NCCL_DEBUG=INFO and"
            " NCCL_SOCKET_IFNAME set to the interface between the nodes",
        ),
        example_fix="# before\npython -m sglang.launch_server --model-path M --tp-size 16"
        " --nnodes 2 ...\n# after\nNCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=eth0 python -m"
        " sglang.launch_server --model-path M --tp-size 16 --nnodes 2 --dist-timeout 3600 ...",
        prevention=(
            "Keep model files on local disk on every node so all ranks load at the same speed",
            "Monitor every rank's log, not only rank 0's",
        ),
        references=(
            _TORCH_DIST,
            _NCCL_ENV,
            "https://github.com/vllm-project/vllm/issues/2734",
        ),
    ),
    Spec(
        kind="gloo",
        repo="facebookincubator/gloo",
        path="gloo/transport/tcp/pair.cc",
        line=544,
        sha=GLOO_SHA,
        error_class="RuntimeError",
        tags=("gloo", "distributed"),
        template="Connection closed by peer {peer}",
        documentation="Gloo (the CPU backend the engines use for their control process"
        " groups) lost the TCP connection to another rank: that process exited (look for its"
        " error first) or the network between the nodes dropped the connection.",
        solutions=(
            "Find the first error of the peer named in the message: it usually died first",
            "For multi-node runs name the interface Gloo uses: GLOO_SOCKET_IFNAME=eth0 (and"
            " NCCL_SOCKET_IFNAME=eth0), and open the ports between the nodes",
        ),
        example_fix="GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0 vllm serve M"
        " --tensor-parallel-size 8 --pipeline-parallel-size 2",
        references=(_TORCH_DIST,),
    ),
    Spec(
        kind="gloo",
        repo="facebookincubator/gloo",
        path="gloo/transport/tcp/pair.h",
        line=311,
        sha=GLOO_SHA,
        error_class="RuntimeError",
        tags=("gloo", "distributed"),
        template="Connect timeout {peer}",
        documentation="Gloo could not connect to another rank in time: the address it"
        " advertised is not reachable from here (wrong interface, container network, firewall)"
        " or that rank never started.",
        solutions=(
            "Set GLOO_SOCKET_IFNAME (and NCCL_SOCKET_IFNAME) to the interface the nodes share,"
            " and the master address to that interface's IP",
            "In docker use --network host for multi-node runs",
        ),
        example_fix="GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0 python -m"
        " sglang.launch_server --model-path M --tp-size 16 --nnodes 2 --node-rank 0"
        " --dist-init-addr 10.0.0.1:5000",
        references=(_TORCH_DIST,),
    ),
    Spec(
        kind="gloo",
        repo="facebookincubator/gloo",
        path="gloo/transport/tcp/unbound_buffer.cc",
        line=79,
        sha=GLOO_SHA,
        error_class="RuntimeError",
        tags=("gloo", "distributed", "timeout"),
        template="Timed out waiting {timeout}ms for recv operation to complete",
        documentation="A Gloo receive waited longer than its timeout: the sending rank is"
        " stuck or gone.",
        solutions=(
            "Find the error or hang of the other ranks first",
            "Raise the timeout where the engine allows it: sglang --dist-timeout 3600",
        ),
        example_fix="python -m sglang.launch_server --model-path M --tp-size 8 --dist-timeout 3600",
        references=(_TORCH_DIST,),
    ),
)
