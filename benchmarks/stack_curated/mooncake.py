"""Mooncake's transfer engine: the RDMA errors a PD-disaggregated deployment logs.

SGLang's and vLLM's Mooncake connectors move the KV cache from prefill to
decode instances with Mooncake's transfer engine (``mooncake-transfer-engine``),
whose C++ core logs its failures through glog (``E0414 03:56:41.856248 77969
worker_pool.cpp:448] Worker: ...``) rather than raising them: the wheel ships
only compiled code, so no miner reads these texts, and users paste the log line
(or its words in a title) when prefill and decode cannot reach each other. The
class of these records is the component that writes the line, as for the tools'
records (``gcc``, ``docker``): no Python exception carries it. The worker pool opens
its lines with its own name (``Worker: ``), which is no part of the message: the
patterns allow it, the templates leave it out.

Sources: kvcache-ai/Mooncake at ``v0.3.12.post1``
(``mooncake-transfer-engine/src/transport/rdma_transport/worker_pool.cpp`` and
``rdma_endpoint.cpp``; ``src/config.cpp`` reads ``MC_GID_INDEX``, ``MC_MTU``
(512, 1024, 2048 or 4096) and ``MC_IB_PORT``), its troubleshooting guide
(``docs/source/troubleshooting/troubleshooting.md``: RDMA resource initialization,
RDMA transfer period), and the even thread kvcache-ai/Mooncake#882 (sglang with
HiCache on Mooncake).

>>> import regex
>>> [
...     bool(regex.fullmatch(r.envelope().record.message_pattern, text))
...     for r, text in (
...         (
...             CONNECT,
...             "Worker: Cannot make connection for endpoint: 10.0.0.2:15347@mlx5_4,"
...             " no alternate peer RNIC is available; marking endpoint unavailable",
...         ),
...         (CONNECT, "Cannot make connection for endpoint: 192.168.39.255:15347@mlx5_4"),
...         (RTR, "Failed to modify QP to RTR, check mtu, gid, peer lid, peer qp num"),
...         (
...             SLICE,
...             "Worker: Process failed for slice (opcode: 0, source_addr: 0x7f00,"
...             " length: 65536, dest_addr: 0x7e00, local_nic: mlx5_0, peer_nic: 10.0.0.2@mlx5_1,"
...             " dest_rkey: 1234, retry_cnt: 0): transport retry counter exceeded",
...         ),
...     )
... ]
[True, True, True, True]
>>> len(RECORDS)
3
"""

from __future__ import annotations

from functools import partial

from stack_curated.spec import Curated

__all__ = ["CONNECT", "RECORDS", "RTR", "SLICE"]

_REPO = "kvcache-ai/Mooncake"
_REVISION = "v0.3.12.post1"
_RDMA = "mooncake-transfer-engine/src/transport/rdma_transport"
_CLASS = "mooncake-transfer-engine"
_TAGS = ("mooncake", "kv-transfer", "pd-disaggregation", "rdma")
#: Every record here: the transfer engine's RDMA transport at the release read.
_record = partial(
    Curated,
    repo=_REPO,
    revision=_REVISION,
    error_class=_CLASS,
    error_type="network",
    tags=_TAGS,
)
_REACH = (
    "Check that the two nodes reach each other over RDMA on the devices the engine was"
    " given: ibv_devinfo on both (the port must be PORT_ACTIVE), then ib_send_bw -d mlx5_0"
    " on one node and ib_send_bw -d mlx5_0 <other node's IP> on the other"
)
_DEVICE = (
    "Name the RDMA devices that are cabled and active to the engine, e.g. sglang's"
    " --disaggregation-ib-device mlx5_0,mlx5_1 (one per GPU rail), not every device"
    " ibv_devinfo lists"
)
_GID = (
    "When the log's 'RDMA device: ..., GID: (N) 00:00:...' line shows an all-zero GID, pick"
    " the GID index of your RoCE network with MC_GID_INDEX (for example MC_GID_INDEX=3) on"
    " both sides"
)
_MTU = (
    "Give both sides the same MTU the switch supports: MC_MTU=1024 (or 512, 2048, 4096) in"
    " the environment of the prefill and the decode servers"
)

CONNECT = _record(
    path=f"{_RDMA}/worker_pool.cpp",
    line=448,
    template="Cannot make connection for endpoint: {endpoint}{detail}",
    pattern=r"(?:Worker: )?Cannot make connection for endpoint: (\S+?)((?:,|;).*)?",
    documentation="Mooncake's transfer engine could not set up an RDMA connection to the"
    " peer endpoint (<ip>:<port>@<device>) the KV cache is sent to or read from: the"
    " handshake that exchanges GID, LID and queue-pair numbers failed or the queue pair"
    " could not be brought up. The usual causes are an RDMA device that is down or not"
    " cabled, the wrong device names given to the engine, an all-zero GID (wrong GID"
    " index on RoCE), an MTU the two sides do not share, or nodes with no RDMA path to"
    " each other at all (a TCP-only network).",
    solutions=(_REACH, _DEVICE, _GID, _MTU),
    example_fix="export MC_GID_INDEX=3\nexport MC_MTU=1024\n"
    "python -m sglang.launch_server ... --disaggregation-mode prefill"
    " --disaggregation-transfer-backend mooncake --disaggregation-ib-device mlx5_0",
    trigger="PD disaggregation with Mooncake: the first KV transfer between a prefill and"
    " a decode instance whose RDMA devices cannot connect.",
    prevention=(
        "Test the RDMA path with ib_send_bw between the nodes before starting the engines",
    ),
    references=(
        "Mooncake docs/source/troubleshooting/troubleshooting.md (RDMA Resource Initialization)",
        "https://github.com/kvcache-ai/Mooncake/issues/882",
    ),
)

RTR = _record(
    path=f"{_RDMA}/rdma_endpoint.cpp",
    line=1193,
    template="Failed to modify QP to RTR, check mtu, gid, peer lid, peer qp num",
    documentation="Mooncake could not move an RDMA queue pair to ready-to-receive with the"
    " peer's parameters: the two sides disagree on the MTU, one GID is invalid (all zero,"
    " or of the wrong index for RoCE), or the peer is not reachable. Without the prefix"
    " 'Handshake request rejected by peer endpoint: ' the side that logs it is the one"
    " whose settings are wrong.",
    solutions=(_MTU, _GID, _REACH),
    example_fix="export MC_MTU=1024\nexport MC_GID_INDEX=3",
    trigger="PD disaggregation with Mooncake over RoCE or InfiniBand with mismatched"
    " MTU or GID settings.",
    references=(
        "Mooncake docs/source/troubleshooting/troubleshooting.md (RDMA Resource Initialization)",
    ),
)

SLICE = _record(
    path=f"{_RDMA}/worker_pool.cpp",
    line=606,
    template="Process failed for slice ({fields}): {status}",
    pattern=r"(?:Worker: )?Process failed for slice \((.+?)\)(?::\s*(.*))?",
    documentation="An RDMA transfer of one slice of the KV cache completed with an error."
    " The first such line names the cause after its last colon (a transport retry counter"
    " exceeded, a remote access error); the lines after it usually say 'work request"
    " flushed error', because the driver marks the connection unusable after the first"
    " failure. A link that drops or flaps, a peer that went away, or memory the peer no"
    " longer has registered are the usual causes; the engine retries on other paths.",
    solutions=(
        "Find the first 'Process failed for slice' line of the log and read its last field:"
        " the later 'work request flushed error' lines follow from it",
        _REACH,
        "Upgrade the transfer engine: pip install -U mooncake-transfer-engine (0.3.12.post1"
        " or newer), on the prefill and the decode nodes alike",
    ),
    example_fix="grep -m1 'Process failed for slice' prefill.log\n"
    "pip install -U mooncake-transfer-engine",
    trigger="KV cache transfers over an unstable RDMA link, or to a peer that restarted.",
    references=("Mooncake docs/source/troubleshooting/troubleshooting.md (RDMA Transfer Period)",),
)

RECORDS: tuple[Curated, ...] = (CONNECT, RTR, SLICE)
