"""Ray's C++ daemons' own lines: the raylet's dead-worker and memory-kill reports, GCS unreachable, a full disk.

Users of the engines' Ray executor and of RL frameworks on Ray (verl, OpenRLHF,
ToolRL, MM-EUREKA) often paste what the raylet and the GCS client print to the
driver instead of a Python exception: ``(raylet) A worker died or was killed
while executing a task by an unexpected system error. ...``, ``2 Workers (tasks /
actors) killed due to memory pressure (OOM), ...``, ``Failed to connect to GCS at
address :6379 within 5 seconds.``, ``/tmp/ray/session_... is over 95% full ...``.
No ``raise`` prints them (they are ``RAY_LOG`` lines and messages the raylet
publishes), so the miner never sees them. Their class is the log level they are
printed at (``WARNING``, ``ERROR``) and they are tagged ``errcat:logged``.

Paths are the C++ files the lines name (``node_manager.cc:3049``,
``file_system_monitor.cc:116``); the line numbers are those the raylet printed in
the pastes learned from (even-numbered threads of benchmarks/data/study_stack.jsonl:
vllm-project/vllm#1160, #3568, ModalMinds/MM-EUREKA#32, #54), which move between
releases.

>>> import regex
>>> line = (
...     "2 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed"
...     " due to other reasons at node (ID: ab, IP: 10.0.0.1) over the last time period."
... )
>>> bool(regex.fullmatch(OOM_KILLS.envelope().record.message_pattern, line))
True
>>> bool(
...     regex.fullmatch(
...         GCS_UNREACHABLE.envelope().record.message_pattern,
...         "Failed to connect to GCS at address :6379 within 5 seconds.",
...     )
... )
True
>>> len(RECORDS)
5
"""

from __future__ import annotations

from stack_curated.ray_errors import RAY, TAG
from stack_curated.spec import Curated

__all__ = ["DISK_FULL", "GCS_CLUSTER_ID", "GCS_UNREACHABLE", "OOM_KILLS", "RECORDS", "WORKER_DIED"]

_NODE_MANAGER = "src/ray/raylet/node_manager.cc"
_LOGGED = ("ray", "errcat:logged")
_RAY_LOGS = (
    "Read the dead worker's own log for its last error: /tmp/ray/session_latest/logs/"
    " (worker-*.err and python-core-worker-*.log, named by the Worker ID the line prints),"
    " or ray logs worker-<Worker ID>*out -ip <node ip>; 'dmesg | grep -i killed' shows a"
    " kill by the kernel's OOM killer"
)

WORKER_DIED = Curated(
    repo=RAY,
    path=_NODE_MANAGER,
    line=1,
    revision=TAG,
    error_class="WARNING",
    template="A worker died or was killed while executing a task by an unexpected system"
    " error. To troubleshoot the problem, check the logs for the dead worker.{detail}",
    pattern=r"A worker died or was killed while executing a task by an unexpected system"
    r" error\.([^\n]*)",
    error_type="runtime",
    documentation="The raylet reports that a Ray worker process (a task or an actor: a vLLM"
    " RayWorkerWrapper, a verl WorkerDict, an OpenRLHF actor) exited while it ran, and the"
    " driver prints the report (WARNING worker.py, or '(raylet)' before it). It is a symptom:"
    " 'Worker exit type: SYSTEM_ERROR ... connection error code 2. End of file' means the"
    " process was killed or crashed, most often by the OOM killer (host RAM), else by a crash"
    " in native code (a CUDA kernel, NCCL, a segfault in an extension). The error the driver"
    " raises next (ActorDiedError, RayTaskError) only repeats it.",
    solutions=(
        _RAY_LOGS,
        "Host memory (the usual cause): fewer workers or smaller batches per node, no CPU"
        " offload the GPUs do not need (verl actor_rollout_ref.actor.fsdp_config.param_offload"
        "=False), or more RAM; Ray's own monitor kills at RAY_memory_usage_threshold (default"
        " 0.95)",
        "A crash in native code: rerun with CUDA_LAUNCH_BLOCKING=1 and NCCL_DEBUG=INFO; for a"
        " single-node vLLM run, --distributed-executor-backend mp takes Ray out of the picture",
    ),
    example_fix="# find why the worker died\ngrep -iE 'error|killed|oom' /tmp/ray/session_latest/"
    "logs/raylet.out | tail\ndmesg | grep -i 'killed process'\n# single node: run vLLM without Ray\n"
    "vllm serve M --tensor-parallel-size 4 --distributed-executor-backend mp",
    trigger="A Ray worker process exits (killed or crashed) while it runs a task or an actor call.",
    tags=_LOGGED,
    references=("https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html",),
)

OOM_KILLS = Curated(
    repo=RAY,
    path=_NODE_MANAGER,
    line=3049,
    revision=TAG,
    error_class="ERROR",
    template="{killed} Workers (tasks / actors) killed due to memory pressure (OOM),"
    " {crashed} Workers crashed due to other reasons at node (ID: {node_id}, IP: {ip}) over"
    " the last time period.{rest}",
    pattern=r"(\d+) Workers \(tasks /\s*actors\) killed due to memory pressure \(OOM\),"
    r"\s+(\d+) Workers crashed due to other reasons at node(?: \(ID: ([^,]+?), IP:"
    r" ([^)]+?)\))?((?s:.*))",
    error_type="runtime",
    documentation="The raylet's summary of what Ray's memory monitor killed on a node: the"
    " node's host RAM passed RAY_memory_usage_threshold (default 0.95), so the monitor killed"
    " the most recently scheduled workers (vLLM's Ray workers, an RL framework's actors). The"
    " tasks or actors it killed fail with ray.exceptions.OutOfMemoryError ('Task was killed"
    " due to the node running low on memory'). This is host memory, not GPU memory.",
    solutions=(
        "Lower what the node keeps in RAM: fewer parallel tasks or rollout workers, smaller"
        " batches, no CPU offload the GPUs do not need, no large outputs (logits) gathered on"
        " the driver; ray logs raylet.out -ip <node ip> names the biggest users",
        "If the node has headroom the monitor does not count (page cache), raise the threshold"
        " when starting Ray: RAY_memory_usage_threshold=0.98 ray start --head"
        " (RAY_memory_monitor_refresh_ms=0 turns the monitor off)",
    ),
    example_fix="# before\nray start --head\n# after\nRAY_memory_usage_threshold=0.98 ray start"
    " --head",
    trigger="Host memory on a Ray node passes the memory monitor's threshold.",
    tags=(*_LOGGED, "memory"),
    references=("https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html",),
)

GCS_UNREACHABLE = Curated(
    repo=RAY,
    path="src/ray/rpc/gcs/gcs_rpc_client.h",
    line=151,
    revision=TAG,
    error_class="WARNING",
    template="Failed to connect to GCS at address {address} within {seconds} seconds.",
    error_type="configuration",
    documentation="A Ray process (ray start --address on a worker node, ray.init, vLLM's"
    " Ray executor joining a cluster) could not reach the head node's GCS (its control"
    " store, port 6379 by default) at the address it was given. Usually the address is wrong"
    " (empty, 127.0.0.1 on a worker node, an unset $MASTER_ADDR), the head was not started or"
    " has died, a firewall blocks the port, or the ray versions of head and worker differ.",
    solutions=(
        "Start the head first (ray start --head --port 6379 --num-gpus 8 on the head node) and"
        " join each worker with the head's reachable IP: ray start --address=<head ip>:6379"
        " --num-gpus 8",
        "Check the address the command was given (an empty $MASTER_ADDR leaves ':6379'), and"
        " that the worker reaches it: nc -zv <head ip> 6379; open the port in the firewall",
        "Use the same ray (and Python) version on every node: pip install 'ray[default]==<the"
        " head's version>'",
    ),
    example_fix="# head node\nray start --head --port 6379 --num-gpus 8\n# each worker node\n"
    "ray start --address=10.0.0.1:6379 --num-gpus 8 --block",
    trigger="A Ray process starts or joins a cluster whose GCS it cannot reach.",
    tags=(*_LOGGED, "distributed"),
    references=(
        "https://docs.ray.io/en/latest/cluster/vms/user-guides/launching-clusters/on-premises.html",
    ),
)

GCS_CLUSTER_ID = Curated(
    repo=RAY,
    path="src/ray/gcs/gcs_client/gcs_client.cc",
    line=183,
    revision=TAG,
    error_class="WARNING",
    template="Failed to get cluster ID from GCS server: {status}",
    pattern=r"Failed to get cluster ID from GCS server: (.+?)",
    error_type="configuration",
    documentation=GCS_UNREACHABLE.documentation,
    solutions=GCS_UNREACHABLE.solutions,
    example_fix=GCS_UNREACHABLE.example_fix,
    trigger=GCS_UNREACHABLE.trigger,
    tags=(*_LOGGED, "distributed"),
)

DISK_FULL = Curated(
    repo=RAY,
    path="src/ray/common/file_system_monitor.cc",
    line=116,
    revision=TAG,
    error_class="ERROR",
    template="{path} is over {percent}% full, available space: {available}; capacity:"
    " {capacity}. Object creation will fail if spilling is required.",
    pattern=r"(\S+) is over (\d+)% full(?:,(?: available space: (.+?); capacity: (.+?)\.)?"
    r" Object creation will fail if spilling is required\.)?",
    error_type="runtime",
    documentation="The raylet found the disk that holds Ray's session directory (/tmp/ray by"
    " default) over 95% full. Ray spills objects there when its object store fills; once it"
    " cannot, object creation fails and calls hang or error (a vLLM server on Ray stops"
    " answering). In docker /tmp is often the container's small overlay disk.",
    solutions=(
        "Put Ray's temporary directory on a disk with room: ray start --head"
        " --temp-dir=/data/ray_tmp (or ray.init(_temp_dir=...)); in docker mount a volume"
        " there (-v /data/ray_tmp:/tmp/ray)",
        "Free the disk: remove old sessions (rm -rf /tmp/ray/session_2*, not session_latest)"
        " and cached downloads",
    ),
    example_fix="# before\nray start --head\n# after\nray start --head --temp-dir=/data/ray_tmp",
    trigger="The disk holding /tmp/ray passes 95% use while Ray runs.",
    tags=(*_LOGGED, "errcat:phrase:file_system_monitor.cc"),
)

RECORDS: tuple[Curated, ...] = (WORKER_DIED, OOM_KILLS, GCS_UNREACHABLE, GCS_CLUSTER_ID, DISK_FULL)
