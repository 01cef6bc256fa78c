r"""torch's C++ errors before a model runs: no driver for CUDA, a process group that cannot rendezvous.

All are thrown in C++ and reach Python with no frame of their own: c10's device
count check (``c10/cuda/CUDAFunctions.cpp``) when the CUDA runtime reports no
driver at all or one older than torch's CUDA, and c10d's socket connect
(``torch/csrc/distributed/c10d/socket.cpp``) when a ``TCPStore`` client never
reaches the store's host and port before its timeout; the second reaches Python as ``torch.distributed.DistNetworkError``.
The store itself (``torch/csrc/distributed/c10d/TCPStore.cpp``) raises
``torch.distributed.DistStoreError`` when the ranks it waits for never all join,
and when a key a rank waits for is never set. The
engines hit the first when a container is started without the GPUs (or a driver)
and the second when a multi-node or RL setup points its ranks at an address or
port they cannot reach: a weight-sync group between a trainer and a vLLM server,
vllm's ``StatelessProcessGroup``, torchrun's rendezvous, sglang's
``--dist-init-addr``.

Sources were read in pytorch/pytorch at v2.14.1 (the release the engines pin); their
lines were not counted at the tag, so the links point at the files (line 1), and the
functions are named in the records' sources. Threads learned from (even-numbered, in
benchmarks/data/study_stack.jsonl): vllm-project/vllm#19670, huggingface/trl#4538,
bentoml/OpenLLM#746, vllm-project/vllm#1772; the two store timeouts were seen in
OpenRLHF/OpenRLHF#1040 and vllm-project/vllm#12526 (titles only: their advice is the
store's general causes).

>>> import regex
>>> line = "The client socket has timed out after 600000ms while trying to connect to (172.17.0.9, 46229)."
>>> bool(regex.fullmatch(STORE_CONNECT_TIMEOUT.envelope().record.message_pattern, line))
True
>>> old = (
...     "The client socket has timed out after 1800s while trying to connect to (127.0.0.1, 29500)."
... )
>>> bool(regex.fullmatch(STORE_CONNECT_TIMEOUT.envelope().record.message_pattern, old))
True
>>> short = "Found no NVIDIA driver on your system."
>>> bool(regex.fullmatch(NO_DRIVER.envelope().record.message_pattern, short))
True
>>> old_driver = "The NVIDIA driver on your system is too old (found version 11040)."
>>> bool(regex.fullmatch(DRIVER_TOO_OLD.envelope().record.message_pattern, old_driver))
True
>>> joined = "Timed out after 1801 seconds waiting for clients. 1/3 clients joined."
>>> bool(regex.fullmatch(STORE_CLIENTS_TIMEOUT.envelope().record.message_pattern, joined))
True
>>> wait = STORE_WAIT_TIMEOUT.envelope().record.message_pattern
>>> bool(regex.fullmatch(wait, "wait timeout after 600000ms, keys: /default_pg/0//cuda//0"))
True
>>> len(RECORDS)
5
"""

from __future__ import annotations

from errcat.imports.site import HIDDEN_SITE_TAG
from stack_curated.spec import Curated

__all__ = [
    "DRIVER_TOO_OLD",
    "NO_DRIVER",
    "RECORDS",
    "STORE_CLIENTS_TIMEOUT",
    "STORE_CONNECT_TIMEOUT",
    "STORE_WAIT_TIMEOUT",
]

TORCH = "pytorch/pytorch"
#: DistStoreError subclasses RuntimeError: a paste may print either class.
_RUNTIME_BASE = "errcat:base:RuntimeError"
TAG = "v2.14.1"

STORE_CONNECT_TIMEOUT = Curated(
    repo=TORCH,
    path="torch/csrc/distributed/c10d/socket.cpp",
    line=1,
    revision=TAG,
    error_class="torch.distributed.DistNetworkError",
    template="The client socket has timed out after {timeout} while trying to connect to"
    " ({host}, {port}).",
    pattern=r"The client socket has timed out after (\S+) while trying to connect to"
    r" \((.+?), (\d+)\)\.?",
    error_type="network",
    documentation="A torch.distributed TCPStore client (the rendezvous every process group"
    " starts with) tried for the whole timeout to reach the store at the host and port it"
    " names, and nothing answered. The store is served by rank 0 (or by the process that"
    " created the group): that process is not running yet or has died, the host is the"
    " wrong one (a container's own address, 127.0.0.1 on another node, a hostname that"
    " resolves elsewhere), the port is closed by a firewall or not published from a"
    " container, or two jobs use the same port. In RL setups the trainer and the vLLM"
    " server must name the same host and port for their weight-sync group, and the"
    " server must be up before the trainer connects.",
    solutions=(
        "Check the address from the failing node: nc -zv <host> <port> (or python -c"
        " 'import socket; socket.create_connection((\"<host>\", <port>), 5)'); use the node's"
        " reachable IP, not 127.0.0.1 or a container-internal address",
        "Make the store's host and port reachable: open the port in the firewall, run"
        " containers with --network host (or publish the port), and set MASTER_ADDR and"
        " MASTER_PORT to the rank-0 node's IP and a free port (sglang: --dist-init-addr"
        " <ip>:<port> on every node; vllm multi-node: VLLM_HOST_IP=<this node's ip>)",
        "Pin the network interface when a node has several: export"
        " GLOO_SOCKET_IFNAME=eth0 and NCCL_SOCKET_IFNAME=eth0 (the interface that carries"
        " the node's IP)",
        "Start the side that serves the store first (rank 0; in TRL the vLLM server with"
        " trl vllm-serve) and make sure it did not exit with its own error",
    ),
    example_fix="# before: node 2 points at an address it cannot reach\n"
    "python -m sglang.launch_server --model-path M --tp 16 --nnodes 2 --node-rank 1"
    " --dist-init-addr 127.0.0.1:5000\n"
    "# after: the rank-0 node's reachable IP on both nodes\n"
    "python -m sglang.launch_server --model-path M --tp 16 --nnodes 2 --node-rank 1"
    " --dist-init-addr 10.0.0.1:5000",
    trigger="Creating a process group or TCPStore whose host and port the process cannot"
    " reach before the connect timeout.",
    prevention=(
        "Check every node can reach rank 0's IP and port before a multi-node launch (nc -zv"
        " <ip> <port>)",
    ),
    tags=("distributed", "c10d", HIDDEN_SITE_TAG),
    references=(
        "torch/csrc/distributed/c10d/socket.cpp SocketConnectOp::throwTimeoutError",
        "https://github.com/vllm-project/vllm/issues/19670",
        "https://github.com/huggingface/trl/issues/4538",
    ),
)

NO_DRIVER = Curated(
    repo=TORCH,
    path="c10/cuda/CUDAFunctions.cpp",
    line=1,
    revision=TAG,
    error_class="RuntimeError",
    template="Found no NVIDIA driver on your system. Please check that you have an NVIDIA"
    " GPU and installed a driver from http://www.nvidia.com/Download/index.aspx",
    pattern=r"Found no NVIDIA driver on your system\.(?: Please check that you have an NVIDIA"
    r" GPU and installed a driver from \S+)?",
    error_type="environment",
    documentation="torch asked the CUDA runtime how many GPUs there are and was told there is"
    " no driver at all: the process sees no NVIDIA kernel driver. On a bare machine the"
    " driver is not installed or not loaded (nvidia-smi fails too); in a container the GPUs"
    " were not passed in (docker run without --gpus, a Kubernetes pod without the NVIDIA"
    " runtime class), so the driver's libraries are not mounted. A CPU-only machine with a"
    " CUDA build of torch gives the same message when code asks for cuda.",
    solutions=(
        "Check the driver where the engine runs: nvidia-smi must list the GPUs (on the host,"
        " and inside the container)",
        "Start containers with the GPUs: docker run --gpus all ... (and install the NVIDIA"
        " Container Toolkit on the host if docker refuses --gpus); in Kubernetes request"
        " nvidia.com/gpu and set runtimeClassName: nvidia",
        "On a bare machine install and load the driver (sudo ubuntu-drivers install, then"
        " reboot), or run on a machine that has an NVIDIA GPU",
    ),
    example_fix="# before\ndocker run vllm/vllm-openai --model M  # Found no NVIDIA driver on"
    " your system\n# after\ndocker run --gpus all vllm/vllm-openai --model M",
    trigger="A CUDA call in a process that sees no NVIDIA driver.",
    tags=("cuda", "driver", HIDDEN_SITE_TAG),
    references=(
        "c10/cuda/CUDAFunctions.cpp device_count_impl (the driver_version check)",
        "https://github.com/bentoml/OpenLLM/issues/746",
    ),
)

DRIVER_TOO_OLD = Curated(
    repo=TORCH,
    path="c10/cuda/CUDAFunctions.cpp",
    line=1,
    revision=TAG,
    error_class="RuntimeError",
    template="The NVIDIA driver on your system is too old (found version {version}). Please"
    " update your GPU driver by downloading and installing a new version from the URL:"
    " http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org"
    " to install a PyTorch version that has been compiled with your version of the CUDA"
    " driver.",
    pattern=r"The NVIDIA driver on your system is too old(?: \(found version (\d+)\)\.?"
    r"(?: Please update your GPU driver .*)?)?",
    error_type="environment",
    documentation="torch was built for a newer CUDA than the NVIDIA driver supports: the"
    " CUDA runtime refused to start (the driver's CUDA version, printed as found version"
    " 11040 for 11.4, is below the one torch's wheel needs). pip installs the newest torch"
    " wheel, built for the newest CUDA, so upgrading or installing an engine (which pins a"
    " recent torch) on a host with an old driver ends here. nvidia-smi shows the newest"
    " CUDA the driver supports; python -c 'import torch; print(torch.version.cuda)' the one"
    " torch needs.",
    solutions=(
        "Upgrade the NVIDIA driver to one that supports the CUDA of torch (CUDA 12.1 needs"
        " driver 530 or newer, 12.4 needs 550, 12.8 needs 570), then reboot",
        "Or install the torch built for the CUDA your driver supports and an engine release"
        " that pins that torch: pip install torch --index-url"
        " https://download.pytorch.org/whl/cu118 (for a driver that reports CUDA 11.8)",
    ),
    example_fix="# nvidia-smi: CUDA Version: 11.4; torch wheel for CUDA 12.x\n# before\npip"
    " install vllm\n# after: a driver for CUDA 12 (or a torch and engine built for 11.8)\nsudo"
    " apt install nvidia-driver-550 && sudo reboot",
    trigger="The first CUDA call (device count) of a process whose driver is older than"
    " torch's CUDA.",
    tags=("cuda", "driver", HIDDEN_SITE_TAG),
    references=(
        "c10/cuda/CUDAFunctions.cpp device_count_impl (cudaErrorInsufficientDriver)",
        "https://github.com/vllm-project/vllm/issues/1772 (building vLLM on a driver that"
        " covers CUDA 11.4; a maintainer: upgrade the driver)",
    ),
)

_OTHER_RANKS = (
    "Find the first error of the ranks that never arrived: their own log (each worker, each"
    " node, each Ray actor) usually ends in an out-of-memory, an import error or a failed"
    " model load before this timeout; fix that one"
)

STORE_CLIENTS_TIMEOUT = Curated(
    repo=TORCH,
    path="torch/csrc/distributed/c10d/TCPStore.cpp",
    line=1,
    revision=TAG,
    error_class="torch.distributed.DistStoreError",
    template="Timed out after {elapsed} seconds waiting for clients. {joined}/{world} clients"
    " joined.",
    error_type="network",
    documentation="The process that serves a torch.distributed TCPStore (rank 0 of a process"
    " group, or the trainer's side of an RL weight-sync group) waited for every other rank to"
    " connect, and only the number shown did before the timeout. The missing ranks were never"
    " started, died before they connected (their own error is in their log), point at"
    " another host or port, or the world size counts more processes than were launched (in"
    " RL setups: trainer ranks plus every vLLM engine's tensor-parallel workers).",
    solutions=(
        _OTHER_RANKS,
        "Make the world size match what is launched: the number of processes (or, for a"
        " weight-sync group, 1 + engines x tensor-parallel size) must equal the size the"
        " store expects",
        "Point every rank at the store's reachable address: MASTER_ADDR=<rank-0 node IP> and a"
        " free MASTER_PORT (for example 29500) on every node; pin the interface with"
        " GLOO_SOCKET_IFNAME=eth0 and NCCL_SOCKET_IFNAME=eth0 on multi-homed nodes",
    ),
    example_fix="# 1 trainer rank + 1 vLLM engine with tensor-parallel size 2 = 3 clients\n"
    "# for example one engine worker died of a CUDA out of memory before it joined\n"
    "# after: give the engine room so all three join\n"
    "--vllm_num_engines 1 --vllm_tensor_parallel_size 2 --vllm_gpu_memory_utilization 0.6",
    trigger="Creating a TCPStore (a process group's rendezvous) whose other ranks do not all"
    " connect within its timeout.",
    prevention=(
        "Start every rank from one launcher (torchrun, Ray, the engine's own) so a crash of"
        " one stops the others instead of leaving the store waiting",
    ),
    tags=("distributed", "c10d", _RUNTIME_BASE, HIDDEN_SITE_TAG),
    references=(
        "torch/csrc/distributed/c10d/TCPStore.cpp TCPStore::waitForWorkers",
        "https://github.com/OpenRLHF/OpenRLHF/issues/1040 (an RL weight-sync group with a"
        " vLLM engine of tensor-parallel size 2)",
    ),
)

STORE_WAIT_TIMEOUT = Curated(
    repo=TORCH,
    path="torch/csrc/distributed/c10d/TCPStore.cpp",
    line=1,
    revision=TAG,
    error_class="torch.distributed.DistStoreError",
    template="wait timeout after {timeout}ms, keys: {keys}",
    pattern=r"wait timeout after (\d+)ms(?:, keys: (.+))?",
    error_type="network",
    documentation="A rank waited in the TCPStore for keys another rank was to set (a"
    " barrier, the NCCL unique id of a new communicator) and nothing set them within the"
    " timeout (600000 ms, ten minutes, by default). The rank that should have set them is"
    " stuck or dead: it crashed earlier (out of memory, a failed import or load), hangs in"
    " a collective, or is slower than the timeout (a long compile or download on one rank"
    " only).",
    solutions=(
        _OTHER_RANKS,
        "Rerun with NCCL_DEBUG=INFO and TORCH_DISTRIBUTED_DEBUG=DETAIL to see which rank"
        " stops and where",
        "When one rank is only slow (a first download or compile), do that step once before"
        " the launch (huggingface-cli download <model>) so every rank starts together",
    ),
    example_fix="# before: 4 workers, one of them stalls while the others wait ten minutes\n"
    "vllm serve M --tensor-parallel-size 4\n# after: see which rank stops, and why\n"
    "NCCL_DEBUG=INFO TORCH_DISTRIBUTED_DEBUG=DETAIL vllm serve M --tensor-parallel-size 4",
    trigger="TCPStore.wait (a barrier, a communicator's id exchange) for keys that no rank"
    " sets before the store timeout.",
    tags=("distributed", "c10d", _RUNTIME_BASE, HIDDEN_SITE_TAG),
    references=(
        "torch/csrc/distributed/c10d/TCPStore.cpp TCPStore::doWait",
        "https://github.com/vllm-project/vllm/issues/12526 (tensor parallelism on one 4x"
        " A100 node)",
    ),
)

RECORDS: tuple[Curated, ...] = (
    STORE_CONNECT_TIMEOUT,
    NO_DRIVER,
    DRIVER_TOO_OLD,
    STORE_CLIENTS_TIMEOUT,
    STORE_WAIT_TIMEOUT,
)
