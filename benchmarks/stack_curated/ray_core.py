"""Ray errors whose text Ray's C++ core writes: the memory monitor's kill, ``ray.get`` and a channel timing out.

``ray.exceptions.OutOfMemoryError`` and ``GetTimeoutError`` are plain carriers in
``python/ray/exceptions.py`` (the first stores the message it is given, the second
has no body): the raylet's memory monitor writes "Task was killed due to the node
running low on memory." with the node's usage, and the core worker writes "Get
timed out: some object(s) not ready." when ``ray.get(..., timeout=...)`` expires.
The miner reads ``raise`` statements, so neither text reached the distributed
package. RL frameworks on Ray (verl, OpenRLHF, SimpleVLA-RL) and Ray Data's actor
pools running vLLM print them, often after their own words, or only the class in an
issue title. Likewise ``RayChannelTimeoutError`` (a ``RaySystemError``, whose text
starts ``System error:``): the core worker writes "Timed out waiting for object
available to read. ObjectID: <id>" when a compiled graph's channel read expires, as
in vLLM's Ray executor (``--distributed-executor-backend ray``, which compiles its
steps into one); the compiled graph's own wrapper, which names
``RAY_CGRAPH_get_timeout``, is mined already.

Read in the ray 2.58.0 wheel (the newest ray the distributed package mines; the
channel's text is in ``ray/_raylet.so``); the links point at the classes. Threads
learned from (even-numbered, in benchmarks/data/study_stack.jsonl):
PRIME-RL/SimpleVLA-RL#30, OpenRLHF/OpenRLHF#936, vllm-project/vllm#9694,
pytorch/pytorch#181632 (and the pull request that added the wrapper's hint,
ray-project/ray#49600).

>>> import regex
>>> oom = "Task was killed due to the node running low on memory."
>>> bool(regex.fullmatch(NODE_LOW_ON_MEMORY.envelope().record.message_pattern, oom))
True
>>> detail = oom + "\\nMemory on the node (IP: 10.0.0.1, ID: ab) where the task was running"
>>> bool(regex.fullmatch(NODE_LOW_ON_MEMORY.envelope().record.message_pattern, detail))
True
>>> bool(regex.fullmatch(GET_TIMED_OUT.envelope().record.message_pattern, "Get timed out"))
False
>>> read = "System error: Timed out waiting for object available to read. ObjectID: 00cc31"
>>> bool(regex.fullmatch(CHANNEL_READ_TIMED_OUT.envelope().record.message_pattern, read))
True
>>> len(RECORDS)
3
"""

from __future__ import annotations

from stack_curated.ray_errors import PATH, RAY, TAG
from stack_curated.spec import Curated

__all__ = ["CHANNEL_READ_TIMED_OUT", "GET_TIMED_OUT", "NODE_LOW_ON_MEMORY", "RECORDS"]


NODE_LOW_ON_MEMORY = Curated(
    repo=RAY,
    path=PATH,
    line=655,
    revision=TAG,
    error_class="ray.exceptions.OutOfMemoryError",
    template="Task was killed due to the node running low on memory.",
    pattern=r"Task was killed due to the node running low on memory\.?(?s:\s.*)?",
    error_type="runtime",
    documentation="Ray's memory monitor (in the raylet) killed a task or actor because the"
    " node's host memory passed RAY_memory_usage_threshold (default 0.95 of RAM); ray.get"
    " raises this in its caller. The lines after it name the node's usage and the biggest"
    " memory users. This is host RAM, not GPU memory: in RL frameworks the usual users are"
    " the colocated trainer workers (model and optimizer state offloaded to CPU, data"
    " loaders), the rollout engine's CPU swap space and pinned buffers, and reward or"
    " scoring tasks run in parallel.",
    solutions=(
        "Lower what the node keeps in RAM: fewer parallel tasks (give each task more CPUs,"
        " e.g. @ray.remote(num_cpus=4), or fewer rollout/reward workers), no CPU offload of"
        " parameters or optimizer when GPU memory allows (verl:"
        " actor_rollout_ref.actor.fsdp_config.param_offload=False), smaller batches",
        "Give the rollout engine no CPU swap it does not need: vLLM --swap-space 0 (or"
        " swap_space=0 in the framework's rollout config)",
        "If the node has headroom the monitor does not see (page cache), raise the kill"
        " threshold when starting Ray: RAY_memory_usage_threshold=0.98 ray start --head ..."
        " (RAY_memory_monitor_refresh_ms=0 turns the killer off, and the OS OOM killer"
        " decides instead)",
        "Find the memory users: ray logs raylet.out -ip <node ip> lists the top processes",
    ),
    example_fix="# before\nray start --head\n# after: more headroom, less parallel work per"
    " node\nRAY_memory_usage_threshold=0.98 ray start --head\n# and in verl, e.g.\n"
    "actor_rollout_ref.actor.fsdp_config.param_offload=False data.train_batch_size=64",
    trigger="Host memory passes the monitor's threshold while tasks or actors run on the node.",
    prevention=(
        "Size host RAM for every colocated process (trainer shards, offloaded optimizer"
        " state, the rollout engine's swap space, data loaders) and keep 10% free",
    ),
    tags=("ray", "memory", "errcat:dual-cause:RayTaskError(OutOfMemoryError)"),
    references=(
        "https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html",
        "https://github.com/PRIME-RL/SimpleVLA-RL/issues/30",
        "https://github.com/OpenRLHF/OpenRLHF/issues/936",
    ),
)

GET_TIMED_OUT = Curated(
    repo=RAY,
    path=PATH,
    line=933,
    revision=TAG,
    error_class="ray.exceptions.GetTimeoutError",
    template="Get timed out: some object(s) not ready.",
    pattern=r"Get timed out: some object\(s\) not ready\.?",
    error_type="runtime",
    documentation="ray.get was called with a timeout and the results were not ready when"
    " it expired. Under Ray Data (map_batches with an actor class running vLLM) the actor"
    " pool waits this way for its actors to start: the usual cause is that the actors"
    " cannot be placed (each asks for more GPUs than a node has free, or a tensor-parallel"
    " placement group cannot be packed), or that starting the engine (downloading and"
    " loading the model, compiling) takes longer than the wait.",
    solutions=(
        "Check that the cluster can place every actor: ray status shows free GPUs per node;"
        " with tensor_parallel_size=N each actor needs N GPUs on one node (num_gpus=N, or"
        " num_gpus=0 with a placement group of N GPU bundles), and concurrency x N must fit",
        "Give actors time to start: raise the timeout the caller passes to ray.get, or in"
        " Ray Data raise DataContext.get_current().wait_for_min_actors_s (e.g. 1800)",
        "Start the engine faster: download the model first (huggingface-cli download M) and"
        " point the actors at the local path",
    ),
    example_fix="# before\nds.map_batches(LLMPredictor, concurrency=8, num_gpus=1)  # with"
    " tensor_parallel_size=2\n# after\nctx = ray.data.DataContext.get_current()\n"
    "ctx.wait_for_min_actors_s = 1800\nds.map_batches(LLMPredictor, concurrency=4,"
    " num_gpus=2)",
    trigger="ray.get(refs, timeout=...) expires before the objects exist.",
    tags=(
        "ray",
        "timeout",
        "errcat:base:TimeoutError",
        "errcat:phrase:GetTimeoutError",
        "errcat:dual-cause:RayTaskError(GetTimeoutError)",
    ),
    references=(
        "https://docs.ray.io/en/latest/ray-core/api/doc/ray.get.html",
        "https://github.com/vllm-project/vllm/issues/9694",
    ),
)

CHANNEL_READ_TIMED_OUT = Curated(
    repo=RAY,
    path=PATH,
    line=1071,
    revision=TAG,
    error_class="ray.exceptions.RayChannelTimeoutError",
    template="System error: Timed out waiting for object available to read. ObjectID: {object_id}",
    pattern=r"(?:System error: )?Timed out waiting for object available to read\.(?: ObjectID: (\w+))?",
    error_type="runtime",
    documentation="A Ray compiled graph (vLLM's Ray executor runs each engine step as one,"
    " over tensor- and pipeline-parallel workers) waited for a worker's output longer than"
    " RAY_CGRAPH_get_timeout seconds (Ray's default is 10; vLLM raises it to 300 unless it"
    " is set already). Either a step really takes that long (a very large batch or"
    " prefill, the first step compiling kernels), or a worker is stuck: a collective waiting"
    " for a rank that died or hangs, a node that stopped, a torch or NCCL release the"
    " engine was not built against. The compiled graph then raises its own"
    " RayChannelTimeoutError naming RAY_CGRAPH_get_timeout, with this one as its cause.",
    solutions=(
        "If steps are legitimately slow, give them more time: export"
        " RAY_CGRAPH_get_timeout=1200 before starting the engine (vLLM keeps a value"
        " already set)",
        "If a worker hangs, find it: the other workers' logs (NCCL or CUDA errors, a dead"
        " actor) and ray status; on one node, --distributed-executor-backend mp takes Ray out"
        " of the path",
        "Run the torch release the engine pins (pip install 'torch==<the engine's pin>'):"
        " the same timeout appeared when vLLM's Ray tests ran under a newer torch than its"
        " pin",
    ),
    example_fix="# before\nvllm serve M --tensor-parallel-size 8 --pipeline-parallel-size 2"
    " --distributed-executor-backend ray\n# after: allow 20 minutes per step\n"
    "RAY_CGRAPH_get_timeout=1200 vllm serve M --tensor-parallel-size 8"
    " --pipeline-parallel-size 2 --distributed-executor-backend ray",
    trigger="A compiled-graph channel read (ray.experimental.channel) expires while the engine"
    " waits for its workers' output.",
    tags=(
        "ray",
        "timeout",
        "errcat:base:TimeoutError",
        "errcat:phrase:RayChannelTimeoutError",
    ),
    references=(
        "https://github.com/pytorch/pytorch/issues/181632",
        "https://github.com/ray-project/ray/pull/49600",
        "vllm 0.33.0 vllm/v1/executor/ray_executor.py (RAY_CGRAPH_get_timeout set to 300)",
    ),
)

RECORDS = (NODE_LOW_ON_MEMORY, GET_TIMED_OUT, CHANNEL_READ_TIMED_OUT)
