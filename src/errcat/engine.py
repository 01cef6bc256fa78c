"""Which serving engine a pasted log comes from, and which phase it was in when it failed.

The same runtime error asks for different levers in different engines and
phases: a CUDA out-of-memory error while sglang captures CUDA graphs is fixed
with ``--cuda-graph-max-bs-decode``, one while vllm sizes its KV cache with
``--gpu-memory-utilization``. :func:`detect` reads the whole paste (log
prefixes, log lines, traceback frames) and says which, with the evidence.

>>> log = '''[2026-01-02 03:04:05 TP0] Load weight end. type=LlamaForCausalLM, avail mem=60.1 GB
... [2026-01-02 03:04:09 TP0] Capture cuda graph begin. This can take up to several minutes.
... [2026-01-02 03:04:10 TP0] Scheduler hit an exception: Traceback (most recent call last):
... torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.'''
>>> context = detect(log)
>>> context.engine, context.phase
('sglang', 'cuda-graph-capture')
>>> context.engine_evidence[:2], context.phase_evidence
(("'Scheduler hit an exception'", "'Capture cuda graph'"), 'Capture cuda graph begin')
>>> detect("ValueError: nothing to tell").engine is None
True

Only the text is read: nothing is imported from either engine, and nothing is
guessed when the evidence is weak (an engine needs at least two signals' worth,
and more than the other engine's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["ENGINES", "PHASES", "EngineContext", "detect", "lean", "phase_label"]

#: The engines told apart.
ENGINES = ("sglang", "vllm")

#: The phases told apart, in the order a server goes through them.
PHASES = ("startup", "weight-loading", "kv-cache-allocation", "cuda-graph-capture", "serving")

_PHASE_LABELS = {
    "startup": "startup",
    "weight-loading": "weight loading",
    "kv-cache-allocation": "KV cache allocation",
    "cuda-graph-capture": "CUDA graph capture",
    "serving": "serving",
}


def _any(*alternatives: str) -> str:
    return "|".join(alternatives)


#: Evidence for an engine: (engine, weight, label, pattern, gate). Each counts once. The
#: gate is text the pattern cannot match without (one of its strings occurs wherever the
#: pattern does): a paste that holds none of them is not searched (a search scans the whole
#: paste, ~20 us a signal in a traceback of 4,000 characters, which holds none of most).
#: Patterns anchored at the start of the text fail at once: they have no gate (``()``).
_ENGINE_SIGNALS: tuple[tuple[str, int, str, re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (engine, weight, label, re.compile(pattern, re.MULTILINE), gate)
    for engine, weight, label, pattern, gate in (
        (
            "sglang",
            3,
            "sglang module path",
            r"\bsglang[/.](?:srt|launch_server|bench|lang)\b",
            ("sglang",),
        ),
        ("sglang", 2, "sgl-kernel", r"\bsgl[_-]kernel\b", ("kernel",)),
        (
            "sglang",
            2,
            "log prefix [... TP0]",
            r"^\S*\s*\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?: (?:DP|TP|PP|EP|CP)\d+)+\]",
            (" DP", " TP", " PP", " EP", " CP"),
        ),
        (
            "sglang",
            3,
            "'Scheduler hit an exception'",
            r"Scheduler hit an exception",
            ("Scheduler hit an exception",),
        ),
        (
            "sglang",
            3,
            "'Capture cuda graph'",
            r"Capture cuda graph (?:begin|end|failed|bs)",
            ("Capture cuda graph ",),
        ),
        ("sglang", 3, "'Load weight begin/end'", r"Load weight (?:begin|end)\b", ("Load weight ",)),
        (
            "sglang",
            2,
            "'#running-req'",
            r"#running-req|#queue-req|token usage: \d",
            ("#running-req", "#queue-req", "token usage: "),
        ),
        (
            "sglang",
            2,
            "--mem-fraction-static",
            r"--mem-fraction-static|mem_fraction_static",
            ("mem-fraction-static", "mem_fraction_static"),
        ),
        (
            "sglang",
            2,
            "an sglang-only flag",
            r"--(?:"
            + _any(
                "model-path",
                "tp-size",
                "dp-size",
                "ep-size",
                "context-length",
                "chunked-prefill-size",
                "max-running-requests",
                "max-total-tokens",
                "disable-radix-cache",
                "disable-cuda-graph",
                "cuda-graph-max-bs",
                "enable-dp-attention",
                "speculative-algorithm",
            )
            + r")\b",
            ("--",),
        ),
        # sglang's issue templates title an issue "[Bug] ..." (.github/ISSUE_TEMPLATE in
        # sgl-project/sglang); vllm's add a colon: "[Bug]: ...".
        ("sglang", 2, "issue title '[Bug] ...'", r"\A\s*\[(?:Bug|Feature)\] ", ()),
        ("sglang", 1, "the word sglang", r"\bsglang\b|\bSGLang\b", ("sglang", "SGLang")),
        (
            "vllm",
            3,
            "vllm module path",
            r"\bvllm[/.](?:"
            + _any(
                "v1",
                "engine",
                "entrypoints",
                "worker",
                "model_executor",
                "executor",
                "distributed",
                "config",
                "platforms",
                "attention",
            )
            + r")\b",
            ("vllm",),
        ),
        (
            "vllm",
            3,
            "process prefix (EngineCore/VllmWorker pid=...)",
            r"\((?:"
            + _any(
                r"EngineCore(?:_DP\d+|_\d+)?",
                r"VllmWorker(?:Process)?(?: rank=\d+)?",
                "APIServer",
                r"Worker(?:_[A-Z]{2}\d+)+",
                "RayWorkerWrapper",
            )
            + r") pid=\d+",
            (" pid=",),
        ),
        (
            "vllm",
            2,
            "log line 'INFO 03-06 10:05:08 [file.py:12]'",
            r"^\S*\s*(?:INFO|WARNING|ERROR|DEBUG) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? "
            r"\[?[\w./-]+\.py:\d+\]",
            ("INFO ", "WARNING ", "ERROR ", "DEBUG "),
        ),
        (
            "vllm",
            3,
            "'Engine core initialization failed'",
            r"Engine core initialization failed",
            ("Engine core initialization failed",),
        ),
        (
            "vllm",
            2,
            "EngineCore",
            r"\bEngineCore\b|EngineDeadError",
            ("EngineCore", "EngineDeadError"),
        ),
        ("vllm", 3, "vllm serve", r"\bvllm serve\b|vllm\.entrypoints", ("vllm",)),
        (
            "vllm",
            2,
            "--gpu-memory-utilization",
            r"--gpu-memory-utilization|gpu_memory_utilization",
            ("gpu-memory-utilization", "gpu_memory_utilization"),
        ),
        (
            "vllm",
            2,
            "a vllm-only flag",
            r"--(?:"
            + _any(
                "max-model-len",
                "max-num-seqs",
                "max-num-batched-tokens",
                "enforce-eager",
                "enable-prefix-caching",
                "enable-chunked-prefill",
                "distributed-executor-backend",
                "enable-expert-parallel",
                "speculative-config",
                "compilation-config",
                "swap-space",
            )
            + r")\b",
            ("--",),
        ),
        (
            "vllm",
            2,
            "issue title '[Bug]: ...'",
            r"\A\s*\[(?:"
            + _any("Bug", "Feature", "Usage", "Installation", "Doc", "New Model", "Performance")
            + r"|RFC|CI Failure|Misc)\]:",
            (),
        ),
        ("vllm", 1, "the word vllm", r"\bvllm\b|\bvLLM\b", ("vllm", "vLLM")),
    )
)

#: Every gate's strings, each looked for once per paste (several signals share one).
_GATE_PARTS = tuple(sorted({part for *_, gate in _ENGINE_SIGNALS for part in gate}))

#: The least evidence (summed weights) that names an engine.
_MIN_ENGINE_WEIGHT = 3

#: Log lines that say which phase a server is in (or, for an end, that the next began).
_LOG_PHASES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (phase, re.compile(_any(*lines)))
    for phase, lines in (
        (
            "startup",
            (
                "Init torch distributed begin",
                "init_distributed_environment",
                "Initializing a V1 LLM engine",
                "server_args=ServerArgs",
            ),
        ),
        (
            "weight-loading",
            (
                "Load weight begin",
                "Loading safetensors checkpoint shards",
                "Starting to load model",
                "Loading weights took",
                "Loading model weights",
            ),
        ),
        (
            "kv-cache-allocation",
            (
                "Load weight end",
                "Model loading took",
                "Memory profiling takes",
                r"Memory pool (?:begin|end)",
                "determine_available_memory",
                "# GPU blocks",
                "Available KV cache memory",
            ),
        ),
        (
            "cuda-graph-capture",
            (
                "Capture cuda graph begin",
                "Capture cuda graph bs",
                "Capture cuda graph failed",
                "Capturing CUDA graph",
                "Capturing cudagraphs",
                "Capturing batches",
            ),
        ),
        (
            "serving",
            (
                "The server is fired up",
                "Application startup complete",
                "Uvicorn running on",
                "Capture cuda graph end",
                "Graph capturing finished",
                "Decode batch",
                "Prefill batch",
                "Avg prompt throughput",
                r'"POST /(?:v1/|generate)',
            ),
        ),
    )
)


def _frames(functions: tuple[str, ...], *paths: str) -> str:
    return r"\bin (?:" + _any(*functions) + r")\b" + "".join("|" + p for p in paths)


#: Traceback frames (function names, or module paths) that say the phase.
_FRAME_PHASES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (phase, re.compile(pattern))
    for phase, pattern in (
        (
            "startup",
            _frames(
                (
                    "init_distributed_environment",
                    "initialize_model_parallel",
                    "ensure_model_parallel_initialized",
                    "init_torch_distributed",
                    "init_device",
                    "init_process_group",
                )
            ),
        ),
        (
            "weight-loading",
            _frames(
                (
                    "load_model",
                    "load_weights",
                    r"weight_loader\w*",
                    r"_load_weights\w*",
                    "load_weights_and_postprocess",
                    r"download_weights\w*",
                    "_prepare_weights",
                    "safetensors_weights_iterator",
                ),
                r"model_loader[/.]",
            ),
        ),
        (
            "kv-cache-allocation",
            _frames(
                (
                    "init_memory_pool",
                    "_create_buffers",
                    "profile_run",
                    "_dummy_sampler_run",
                    "determine_available_memory",
                    "determine_num_available_blocks",
                    r"initialize_kv_cache\w*",
                    r"_allocate_kv_cache\w*",
                    "_init_cache",
                    "init_cache_engine",
                    "_initialize_kv_caches",
                    "profile_max_num_token",
                ),
                r"mem_cache[/.]memory_pool",
            ),
        ),
        (
            "cuda-graph-capture",
            _frames(
                (
                    "capture",
                    "capture_one_batch_size",
                    "capture_model",
                    "_capture_cudagraphs",
                    "init_cuda_graphs",
                    "init_device_graphs",
                    "capture_graph",
                    "_capture_graph",
                ),
                r"cuda_graph_runner\.py",
                r"cudagraph\w*\.py",
                # torch's own CUDA graph module is on the stack only while one is captured
                r"torch/cuda/graphs\.py",
            ),
        ),
        (
            "serving",
            _frames(
                (
                    r"event_loop_\w+",
                    "run_batch",
                    "forward_batch_generation",
                    r"process_batch_result\w*",
                    "execute_model",
                    "_process_engine_step",
                    "step_with_batch_queue",
                    "run_busy_loop",
                    "worker_busy_loop",
                    "sample_tokens",
                )
            ),
        ),
    )
)

#: Phases that happen before serving: a frame of one in the failing traceback
#: outweighs a serving frame (vllm's V0 profile run calls ``execute_model``).
_INIT_PHASES = frozenset({"startup", "weight-loading", "kv-cache-allocation", "cuda-graph-capture"})


@dataclass(frozen=True)
class EngineContext:
    """What a paste shows of the engine that failed: which one, in which phase, and why."""

    engine: str | None = None
    phase: str | None = None
    #: The signals that named the engine (labels), strongest first.
    engine_evidence: tuple[str, ...] = ()
    #: The line or frame that named the phase, shortened.
    phase_evidence: str = ""

    def describe(self) -> str:
        """One line for an answer: engine and phase, each with its evidence ("" when neither)."""
        parts = []
        if self.engine:
            shown = ", ".join(self.engine_evidence[:2])
            parts.append(f"{self.engine} ({shown})" if shown else self.engine)
        if self.phase:
            label = phase_label(self.phase)
            parts.append(f"{label} ({self.phase_evidence!r})" if self.phase_evidence else label)
        return ", ".join(parts)


def phase_label(phase: str) -> str:
    """How a phase is written in prose.

    >>> phase_label("kv-cache-allocation")
    'KV cache allocation'
    """
    return _PHASE_LABELS.get(phase, phase)


@lru_cache(maxsize=64)  # asked once per paste by the matcher, once more by its advice
def _signals(text: str) -> tuple[str | None, int, int, tuple[str, ...]]:
    """The engine with most evidence (None on a tie), its weight, the runner-up's, its labels."""
    scores = dict.fromkeys(ENGINES, 0)
    found: dict[str, list[tuple[int, str]]] = {engine: [] for engine in ENGINES}
    held = {part for part in _GATE_PARTS if part in text}
    for engine, weight, label, pattern, gate in _ENGINE_SIGNALS:
        if gate and held.isdisjoint(gate):
            continue
        if pattern.search(text):
            scores[engine] += weight
            found[engine].append((weight, label))
    best = max(ENGINES, key=lambda e: scores[e])
    others = max(scores[e] for e in ENGINES if e != best)
    if scores[best] <= others:
        return None, scores[best], others, ()
    ranked = sorted(found[best], key=lambda item: -item[0])
    return best, scores[best], others, tuple(label for _, label in ranked)


def _engine(text: str) -> tuple[str | None, tuple[str, ...]]:
    best, weight, _, labels = _signals(text)
    if best is None or weight < _MIN_ENGINE_WEIGHT:
        return None, ()
    return best, labels


def lean(text: str) -> tuple[str | None, tuple[str, ...]]:
    """The engine a paste shows more evidence of than of the other, however little, and why.

    :func:`detect` names an engine only on enough evidence to pick its advice;
    the matcher asks less of it, to choose between records of equal evidence
    raised by both engines (code one copied from the other): any signal more
    for one engine than for the other tells which engine printed the paste.
    None when the signals are even (none at all, most often).

    >>> lean("[Bug] Model architectures ['X'] are not supported for now.")
    ('sglang', ("issue title '[Bug] ...'",))
    >>> detect("[Bug] Model architectures ['X'] are not supported for now.").engine is None
    True
    >>> lean("[Bug]: vllm and sglang both fail")[0], lean("ValueError: bad")
    ('vllm', (None, ()))
    """
    best, _, _, labels = _signals(text)
    return best, labels


def _last_traceback(text: str) -> str:
    """The text from the last ``Traceback`` header on (the failing one), or all of it.

    A paste cut below its header still shows its frames: then all of it is read.
    """
    at = text.rfind("Traceback (most recent call last)")
    return text[at:] if at >= 0 else text


def _frame_phase(traceback: str) -> tuple[str | None, str]:
    """The phase the failing traceback's frames show: its innermost init-phase frame first."""
    init: tuple[str, str] | None = None
    serving: tuple[str, str] | None = None
    for line in traceback.splitlines():
        if "File " not in line or ", line " not in line:
            continue
        for phase, pattern in _FRAME_PHASES:
            m = pattern.search(line)
            if m is None:
                continue
            shown = m.group().removeprefix("in ")
            if phase in _INIT_PHASES:
                init = (phase, shown)
            elif serving is None:
                serving = (phase, shown)
            break
    chosen = init or serving
    return chosen if chosen is not None else (None, "")


def _log_phase(text: str) -> tuple[str | None, str]:
    """The phase the last phase-telling log line before the failure shows."""
    best: tuple[int, str, str] | None = None
    for phase, pattern in _LOG_PHASES:
        for m in pattern.finditer(text):
            if best is None or m.start() > best[0]:
                best = (m.start(), phase, m.group())
    return (best[1], best[2]) if best is not None else (None, "")


@lru_cache(maxsize=64)  # one paste is asked about once per match it has: read it once
def detect(text: str) -> EngineContext:
    """Read which engine (``sglang``, ``vllm`` or ``None``) and phase a paste shows.

    The phase comes from the failing traceback's frames when they tell it (a
    frame in ``capture_one_batch_size`` is CUDA graph capture, whatever was
    logged before), else from the last log line that tells one (``Capture cuda
    graph begin``, ``Loading safetensors checkpoint shards``, ``Decode batch``).

    >>> tb = '''Traceback (most recent call last):
    ...   File "/x/vllm/v1/worker/gpu_worker.py", line 210, in determine_available_memory
    ...     self.model_runner.profile_run()
    ...   File "/x/vllm/v1/worker/gpu_model_runner.py", line 2500, in profile_run
    ...     output = self._dummy_sampler_run(hidden_states)
    ... torch.OutOfMemoryError: CUDA out of memory.'''
    >>> detect(tb).phase, detect(tb).engine
    ('kv-cache-allocation', 'vllm')
    """
    engine, evidence = _engine(text)
    phase, shown = _frame_phase(_last_traceback(text))
    if phase is None:  # the failing traceback may be a wrapper's: the others' frames tell
        phase, shown = _frame_phase(text)
    if phase is None:
        phase, shown = _log_phase(text)
    return EngineContext(engine, phase, evidence, shown[:60])
