"""Ray's own exceptions whose text is built in the exception class, not at a ``raise``.

``ray.get`` re-raises what a worker or actor left behind. When the process itself
died (the OOM killer, a segfault in a CUDA kernel, ``ray stop``), the error is one
of the classes in ``python/ray/exceptions.py`` whose message their constructor or
``__str__`` writes from constants: ``ActorDiedError`` ("The actor died
unexpectedly before finishing this task.", then the actor's fields and the
worker's exit detail), the creation-task form ("The actor died because of an
error raised in its creation task, ..."), and ``WorkerCrashedError`` for plain
tasks. The miner reads ``raise`` statements, so none of these texts reach the
distributed package; RL frameworks built on Ray (verl, OpenRLHF, ms-swift's
rollout) print them as the last line of a paste whose real cause sits in another
process's log. The advice says so and names where that log is and the levers
that usually cure it (memory per GPU, the rollout's memory share).

Sources were read in ray-project/ray at ``ray-2.58.0`` (the newest ray the
distributed package mines). Threads cited are even-numbered.

>>> import regex
>>> died = "The actor died unexpectedly before finishing this task."
>>> bool(regex.fullmatch(ACTOR_DIED.envelope().record.message_pattern, died))
True
>>> bool(
...     regex.fullmatch(ACTOR_DIED.envelope().record.message_pattern, died + "\\n\\tclass_name: W")
... )
True
>>> bool(regex.fullmatch(WORKER_CRASHED.envelope().record.message_pattern, "Worker died"))
False
>>> long = (
...     died
...     + "\\n\\tclass_name: W\\n\\tpid: 1\\nThe actor is dead because its worker process has died."
... )
>>> bool(regex.fullmatch(ACTOR_DIED.envelope().record.message_pattern, long))
True
>>> header = "ray::TaskRunner.run() (pid=9, ip=10.0.0.1, actor_id=ab, repr=<R>)"
>>> bool(regex.fullmatch(TASK_ERROR.envelope().record.message_pattern, header))
True
>>> len(RECORDS)
5
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = [
    "ACTOR_DIED",
    "ACTOR_INIT_FAILED",
    "ACTOR_WORKER_DEAD",
    "RECORDS",
    "TASK_ERROR",
    "WORKER_CRASHED",
]

RAY = "ray-project/ray"
TAG = "ray-2.58.0"
PATH = "python/ray/exceptions.py"

#: What every dead-worker record tells first: the exception is a symptom.
_WHERE = (
    "Find the worker's own death above the exception or in its log: /tmp/ray/session_latest/"
    "logs/ (raylet.out, worker-*.err, python-core-worker-*.log); 'dmesg | grep -i"
    " killed' shows an OOM kill"
)

ACTOR_DIED = Curated(
    repo=RAY,
    path=PATH,
    line=463,
    revision=TAG,
    error_class="ray.exceptions.ActorDiedError",
    template="The actor died unexpectedly before finishing this task.",
    pattern=r"The actor died unexpectedly before finishing this task\.(?s:\s.*)?",
    error_type="runtime",
    documentation="The Ray actor a call was sent to died while the call ran or before"
    " it started, so ray.get has no result to return. Ray writes this text itself"
    " (ActorDiedError's constructor), then the actor's class, id, pid and node and the"
    " worker's exit detail: 'Worker unexpectedly exits with a connection error code 2'"
    " or 'exit type: SYSTEM_ERROR' means the process was killed or crashed, not that"
    " Python raised. In RL frameworks on Ray (verl, OpenRLHF) the actor is usually the"
    " colocated worker that holds both the trainer and the vLLM or sglang rollout; it"
    " dies when host memory runs out (the OOM killer), when a CUDA kernel crashes the"
    " process, or when another rank's failure tears the group down.",
    solutions=(
        _WHERE,
        "Host memory (the usual cause): lower what each worker keeps in RAM, e.g. verl's"
        " actor_rollout_ref.actor.fsdp_config.param_offload=False and"
        " optimizer_offload=False, fewer data loader workers, or more RAM per node; Ray's"
        " memory monitor kills at RAY_memory_usage_threshold (default 0.95)",
        "GPU memory during rollout: lower the engine's share, e.g."
        " actor_rollout_ref.rollout.gpu_memory_utilization=0.4 in verl (vLLM's"
        " --gpu-memory-utilization, sglang's --mem-fraction-static)",
        "If the log shows a CUDA error or a segfault, fix that first (CUDA_LAUNCH_BLOCKING=1"
        " to find the kernel); the ActorDiedError only reports it",
    ),
    example_fix="# find why the worker died\ngrep -iE 'error|killed|oom' /tmp/ray/session_latest/"
    "logs/raylet.out | tail\ndmesg | grep -i 'killed process'\n# then, e.g. for verl\n"
    "actor_rollout_ref.rollout.gpu_memory_utilization=0.4",
    trigger="ray.get on a call to an actor whose process exited (killed by the OOM killer,"
    " crashed in native code, or stopped by ray stop).",
    prevention=(
        "Leave headroom in host memory for every colocated worker (model shards, optimizer"
        " state when offloaded, rollout buffers)",
    ),
    tags=("ray", "errcat:base:RayActorError", "errcat:dual-cause:RayTaskError(ActorDiedError)"),
    references=(
        "ray python/ray/exceptions.py ActorDiedError (ray-2.58.0)",
        "https://github.com/Simple-Efficient/RL-Factory/issues/8",
        "https://github.com/rllm-org/rllm/issues/8",
    ),
)

ACTOR_INIT_FAILED = Curated(
    repo=RAY,
    path=PATH,
    line=490,
    revision=TAG,
    error_class="ray.exceptions.ActorDiedError",
    template="The actor died because of an error raised in its creation task, {cause}",
    pattern=r"The actor died because of an error raised in its creation task, (.+?)",
    error_type="configuration",
    documentation="The actor's __init__ raised, so the actor never came up and every"
    " call to it fails with this error. The text after 'creation task,' is the worker's"
    " own traceback (ray::ClassName.__init__() ...): the exception at its end, not this"
    " wrapper, is the one to fix. Engines wrapped in Ray actors (a vLLM or sglang rollout"
    " worker, a Ray Serve replica) fail here on any start-up error: an unknown flag, a"
    " model that does not fit, a missing package on the worker node.",
    solutions=(
        "Read the exception at the end of the quoted creation-task traceback and fix that one",
        "Errors that appear only under Ray (not when the engine starts alone) are often the"
        " worker node's environment: the same package versions on every node (pip freeze |"
        " grep -E 'vllm|sglang|torch'), or a runtime_env={'pip': [...]} for the job",
    ),
    example_fix="# run the failing constructor outside Ray to see its error directly\n"
    "python -c \"from vllm import LLM; LLM(model='Qwen/Qwen2.5-7B-Instruct')\"",
    trigger="The __init__ of a Ray actor raised.",
    tags=("ray", "errcat:base:RayActorError", "errcat:wrapper"),
    references=("ray python/ray/exceptions.py ActorDiedError.__init__ (ray-2.58.0)",),
)

WORKER_CRASHED = Curated(
    repo=RAY,
    path=PATH,
    line=411,
    revision=TAG,
    error_class="ray.exceptions.WorkerCrashedError",
    template="The worker died unexpectedly while executing this task."
    " Check python-core-worker-*.log files for more information.",
    pattern=r"The worker died unexpectedly while executing this task\.(?: Check"
    r" python-core-worker-\*\.log files for more information\.)?",
    error_type="runtime",
    documentation="The Ray worker process running a task exited in the middle of it (a"
    " task, not an actor: for actors Ray raises ActorDiedError). Ray writes this text"
    " in WorkerCrashedError.__str__; the cause is in the worker's log or the kernel's:"
    " most often the OOM killer, else a crash in native code (a CUDA kernel, a"
    " segfault in an extension).",
    solutions=(
        _WHERE,
        "Give each task less to hold at once (smaller batches per task) or fewer tasks per"
        " node (num_cpus=/num_gpus= on the task, or memory= to let Ray schedule by RAM)",
    ),
    example_fix="# let Ray schedule by memory\n@ray.remote(num_gpus=1, memory=32 * 1024**3)\n"
    "def generate(batch): ...",
    trigger="A Ray task's worker process exited while the task ran.",
    tags=("ray", "errcat:dual-cause:RayTaskError(WorkerCrashedError)"),
    references=("ray python/ray/exceptions.py WorkerCrashedError (ray-2.58.0)",),
)

ACTOR_WORKER_DEAD = Curated(
    repo=RAY,
    path=PATH,
    line=463,
    revision=TAG,
    error_class="ray.exceptions.ActorDiedError",
    template="The actor is dead because its worker process has died. Worker exit type:"
    " {exit_type} Worker exit detail: {detail}",
    pattern=r"The actor is dead because its worker process has died\.(?: Worker exit type:"
    r" (\S+) Worker exit detail: ([^\n]*))?(?s:\s.*)?",
    error_type="runtime",
    documentation="The death cause Ray's GCS records for an actor whose process exited,"
    " carried in ActorDiedError's message after the actor's fields (a paste or a title often"
    " shows only this part). 'Worker exit type: SYSTEM_ERROR ... connection error code 2. End"
    " of file' means the process was killed or crashed, not that Python raised: most often"
    " the OOM killer (host RAM), else a crash in native code (a CUDA kernel, NCCL, a segfault)"
    " or ray stop. In RL frameworks on Ray the actor is usually the colocated worker holding"
    " the trainer and the vLLM or sglang rollout.",
    solutions=ACTOR_DIED.solutions,
    example_fix=ACTOR_DIED.example_fix,
    trigger=ACTOR_DIED.trigger,
    prevention=ACTOR_DIED.prevention,
    tags=("ray", "errcat:base:RayActorError"),
    references=("https://github.com/qiancheng0/ToolRL/issues/26",),
)

TASK_ERROR = Curated(
    repo=RAY,
    path=PATH,
    line=324,
    revision=TAG,
    error_class="ray.exceptions.RayTaskError",
    template="ray::{function}() (pid={pid}, ip={ip})",
    pattern=r"ray::(\S+?)\(\) \(pid=(\S+?), ip=([^,)\s]+)(?:, actor_id=[0-9a-f]+)?[^\n]*(?s:\n.*)?",
    error_type="runtime",
    documentation="ray.get re-raised an exception that a Ray task or actor method raised in"
    " another process. Ray prints the wrapper as RayTaskError(X): X is the class of the real"
    " error, and its own message is the LAST line of the block below this header (after the"
    " remote frames: 'X: ...'). That line, not the wrapper, is the one to look up. When the"
    " paste stops before it, the cause is in the worker's log. RayTaskError(OutOfMemoryError)"
    " is either Ray's memory monitor (host RAM: 'Task was killed due to the node running low on"
    " memory') or torch's CUDA out of memory ('CUDA out of memory. Tried to allocate'); in RL"
    " frameworks (verl's TaskRunner.run, OpenRLHF) the wrapper often nests another: read"
    " down to the innermost one.",
    solutions=(
        "Read the last 'X: message' line under the ray::...() header (scroll past the remote"
        " frames) and look that error up; it names what to change",
        "If the paste ends before it, find it in the worker's log: /tmp/ray/session_latest/"
        "logs/worker-*.err on the node the header names (ip=...), or ray logs"
        " worker-*.err -ip <ip>",
        "For a vLLM engine on one node, --distributed-executor-backend mp runs the workers"
        " without Ray, so the real error is raised directly",
    ),
    example_fix="# the cause is in the worker's own log\ngrep -B5 -A30 Traceback"
    " /tmp/ray/session_latest/logs/worker-*.err | tail -60",
    trigger="ray.get on the result of a remote task or actor call that raised.",
    tags=("ray", "errcat:wrapper"),
    references=("ray python/ray/exceptions.py RayTaskError.__str__ (ray-2.58.0)",),
)

RECORDS: tuple[Curated, ...] = (
    ACTOR_DIED,
    ACTOR_INIT_FAILED,
    WORKER_CRASHED,
    ACTOR_WORKER_DEAD,
    TASK_ERROR,
)
