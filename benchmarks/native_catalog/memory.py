"""CUDA and HIP out-of-memory records, with advice per engine and phase.

torch's caching allocator raises the error (c10/cuda/CUDACachingAllocator.cpp,
``TORCH_CHECK_WITH(OutOfMemoryError, ...)`` in ``DeviceCachingAllocator::malloc``;
a ROCm build prints ``HIP`` for ``CUDA``). The wording changed over releases:
torch 2.1 and later print "GPU 0 has a total capacity of ... of which ... is
free" (2.1 itself misspelt "capacty"), older releases "(GPU 0; 79.15 GiB total
capacity; ...)". A ``cudaMalloc`` outside the allocator (NCCL, cuBLAS, a CUDA
graph) fails with the runtime's own text instead: ``CUDA error: out of memory``.
"""

from __future__ import annotations

from native_catalog.spec import Spec, Variant

__all__ = ["RECORDS"]

TORCH = "pytorch/pytorch"
ALLOCATOR = "c10/cuda/CUDACachingAllocator.cpp"
#: The commit the allocator's raise was read at (its TORCH_CHECK_WITH is at line 1351).
ALLOCATOR_SHA = "001074d25084fdb87a799823e395a50f5ec044d3"
ALLOCATOR_LINE = 1351
CUDA_EXCEPTION = "c10/cuda/CUDAException.cpp"
CUDA_EXCEPTION_SHA = "0e4c6cd66277444e521c0d3190b00ee3992cff03"
CUDA_EXCEPTION_LINE = 42

#: torch 2.1+ (2.1 itself spelt "capacty": not kept, a sibling that differs by one letter
#: would be proposed, cut, for every paste of this one). Process lines and the private-pool clause
#: may be absent: their placeholders then hold a single space, so the pattern stays
#: simple (literal text and groups) and a paste cut anywhere still finds it.
_NEW_TEMPLATE = (
    " out of memory. Tried to allocate {size}. GPU {device} has a total capacity of {total}"
    " of which {free} is free.{other_processes}Of the allocated memory {allocated} is"
    " allocated by PyTorch,{private_pools}and {reserved_unallocated} is reserved by PyTorch"
    " but unallocated."
)
_OLD = (
    r" out of memory\. Tried to allocate (.+?) \(GPU (.+?); (.+?) total capacity; (.+?)"
    r" already allocated; (.+?) free; (.+?) reserved in total by"
    r" PyTorch\)"
)
_OLD_TEMPLATE = (
    " out of memory. Tried to allocate {size} (GPU {device}; {total} total capacity;"
    " {allocated} already allocated; {free} free; {reserved} reserved in"
    " total by PyTorch)"
)

_REFERENCES = (
    "https://pytorch.org/docs/stable/notes/cuda.html#environment-variables",
    "https://docs.sglang.ai/advanced_features/server_arguments.html",
    "https://docs.vllm.ai/en/latest/configuration/conserving_memory.html",
    "https://github.com/sgl-project/sglang/issues/12496",
    "https://github.com/vllm-project/vllm/issues/27508",
)

_DOC = (
    "The GPU had no free block as large as the allocation torch asked for: the model"
    " weights, the engine's KV cache, CUDA graphs and the activations of the running batch"
    " together need more memory than the GPU has free. 'Process N has X memory in use' lines"
    " are other processes on the same GPU. When most memory is 'reserved by PyTorch but"
    " unallocated', fragmentation, not size, is the problem."
)

_GENERIC = (
    "Free the GPU of other processes (nvidia-smi lists them) or run on a GPU with more memory",
    "Serve a smaller or quantized model (for example an FP8 or AWQ checkpoint), or split it"
    " over more GPUs with tensor parallelism (sglang --tp-size 2, vllm --tensor-parallel-size 2)",
    "Lower the engine's memory budget: sglang --mem-fraction-static 0.8, vllm"
    " --gpu-memory-utilization 0.85",
    "When 'reserved by PyTorch but unallocated' is large, set the environment variable"
    " PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to reduce fragmentation",
)
_GENERIC_FIX = (
    "# before\n"
    "python -m sglang.launch_server --model-path Qwen/Qwen2.5-32B-Instruct\n"
    "# after (or vllm serve Qwen/Qwen2.5-32B-Instruct --tensor-parallel-size 2)\n"
    "python -m sglang.launch_server --model-path Qwen/Qwen2.5-32B-Instruct --tp-size 2"
    " --mem-fraction-static 0.8"
)
_CUDA_GRAPH_FLAG_NOTE = " (sglang releases before June 2026 call it --cuda-graph-max-bs)"

_SGLANG = (
    "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct --tp-size 4"
)
_VLLM = "vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4"

#: The same out-of-memory error asks for other levers in each engine and phase.
VARIANTS = (
    Variant(
        "sglang",
        None,
        (
            "Lower --mem-fraction-static (for example from 0.9 to 0.8): it is the share of"
            " GPU memory sglang keeps for weights and KV cache, the rest is for activations"
            " and CUDA graphs",
            "Lower --max-running-requests (for example to 64) and --chunked-prefill-size (for"
            " example to 4096) so each batch needs less activation memory",
            "Lower --cuda-graph-max-bs-decode (for example to 32)" + _CUDA_GRAPH_FLAG_NOTE,
            "Shard the model over more GPUs with --tp-size, or serve a quantized checkpoint",
        ),
        f"# before\n{_SGLANG} --mem-fraction-static 0.9\n# after\n{_SGLANG}"
        " --mem-fraction-static 0.8 --max-running-requests 64 --chunked-prefill-size 4096",
    ),
    Variant(
        "sglang",
        "weight-loading",
        (
            "The weights alone do not fit in this GPU's free memory: shard them with --tp-size"
            " (for example --tp-size 2, one GPU per rank)",
            "Serve a quantized checkpoint (FP8, AWQ or GPTQ) or add --quantization fp8",
            "Check that no other process holds memory on the GPU (nvidia-smi); the message's"
            " 'Process N has X memory in use' names them",
        ),
        f"# before\n{_SGLANG}\n# after\n" + _SGLANG.replace("--tp-size 4", "--tp-size 8"),
        "sglang ran out of memory while loading the model weights, before any KV cache or"
        " CUDA graph was allocated: the weights of this model, split over --tp-size GPUs, do"
        " not fit in the free memory of each GPU.",
    ),
    Variant(
        "sglang",
        "kv-cache-allocation",
        (
            "Lower --mem-fraction-static (for example from 0.9 to 0.8): the KV cache pool is"
            " sized from it, and other processes on the GPU leave less memory than it assumes",
            "Cap the pool with --max-total-tokens (for example 200000) or shorten --context-length",
            "Store the KV cache in FP8 with --kv-cache-dtype fp8_e4m3 to halve its size",
        ),
        f"# before\n{_SGLANG} --mem-fraction-static 0.92\n# after\n{_SGLANG}"
        " --mem-fraction-static 0.8",
        "sglang ran out of memory while allocating its KV cache pool (init_memory_pool), whose"
        " size comes from --mem-fraction-static: the fraction asks for more memory than the"
        " GPU has free after the weights.",
    ),
    Variant(
        "sglang",
        "cuda-graph-capture",
        (
            "Capture CUDA graphs for fewer batch sizes: --cuda-graph-max-bs-decode 16"
            + _CUDA_GRAPH_FLAG_NOTE,
            "Leave more room outside the static pool: lower --mem-fraction-static (for example"
            " from 0.88 to 0.8)",
            "As a last resort turn decode CUDA graphs off with --cuda-graph-backend-decode"
            " disabled (--disable-cuda-graph before June 2026); decoding gets much slower",
        ),
        f"# before\n{_SGLANG}\n# after\n{_SGLANG} --cuda-graph-max-bs-decode 16"
        " --mem-fraction-static 0.8",
        "sglang ran out of memory while capturing CUDA graphs, after the KV cache was"
        " allocated: each captured batch size keeps its own buffers, and what is left outside"
        " --mem-fraction-static was not enough.",
    ),
    Variant(
        "sglang",
        "serving",
        (
            "Lower --max-running-requests (for example to 64) and --chunked-prefill-size (for"
            " example to 4096): a large batch or a long prompt needs activation memory beyond"
            " the static pool",
            "Lower --mem-fraction-static (for example from 0.9 to 0.85) to leave more room for"
            " activations",
            "Limit the request: a smaller max_tokens, fewer images per request",
        ),
        f"# before\n{_SGLANG}\n# after\n{_SGLANG} --max-running-requests 64"
        " --chunked-prefill-size 4096 --mem-fraction-static 0.85",
        "sglang ran out of memory while serving requests: the activations of the running"
        " batch did not fit in the memory left outside the static pool.",
    ),
    Variant(
        "vllm",
        None,
        (
            "Lower --gpu-memory-utilization (for example from 0.9 to 0.85) to leave more memory"
            " outside the KV cache for activations, the sampler and CUDA graphs",
            "Shorten --max-model-len (for example to 8192) and lower --max-num-seqs (for"
            " example to 64)",
            "Run without CUDA graphs with --enforce-eager to save their memory",
            "Shard the model with --tensor-parallel-size, or serve a quantized checkpoint",
        ),
        f"# before\n{_VLLM}\n# after\n{_VLLM} --gpu-memory-utilization 0.85"
        " --max-model-len 8192 --max-num-seqs 64",
    ),
    Variant(
        "vllm",
        "weight-loading",
        (
            "The weights do not fit in this GPU's free memory: shard them with"
            " --tensor-parallel-size (for example 2)",
            "Serve a quantized checkpoint (FP8, AWQ, GPTQ) or add --quantization fp8",
            "Offload part of the weights to CPU memory with --cpu-offload-gb 10 (slower)",
            "Check that no other process holds memory on the GPU (nvidia-smi)",
        ),
        f"# before\n{_VLLM}\n# after\n" + _VLLM.replace("size 4", "size 8"),
        "vllm ran out of memory while loading the model weights: the weights of this model,"
        " split over --tensor-parallel-size GPUs, do not fit in each GPU's free memory.",
    ),
    Variant(
        "vllm",
        "kv-cache-allocation",
        (
            "Lower --max-num-batched-tokens (for example to 4096) and --max-num-seqs (for"
            " example to 64): vllm's memory profiling run uses a batch of that size",
            "Shorten --max-model-len (for example to 8192)",
            "Lower --gpu-memory-utilization (for example to 0.85) when other processes use"
            " the same GPU: it is a share of the whole GPU, theirs included",
        ),
        f"# before\n{_VLLM}\n# after\n{_VLLM} --max-num-batched-tokens 4096 --max-num-seqs 64"
        " --max-model-len 8192",
        "vllm ran out of memory while measuring how much memory is left for the KV cache"
        " (its profiling run with a dummy batch of --max-num-batched-tokens tokens and"
        " --max-num-seqs sequences) or while allocating that cache.",
    ),
    Variant(
        "vllm",
        "cuda-graph-capture",
        (
            "Capture CUDA graphs for fewer batch sizes: --max-cudagraph-capture-size 64",
            "Lower --gpu-memory-utilization (for example from 0.9 to 0.85): CUDA graph memory"
            " comes out of what the KV cache leaves",
            "Turn CUDA graphs off with --enforce-eager (slower decoding)",
        ),
        f"# before\n{_VLLM}\n# after\n{_VLLM} --max-cudagraph-capture-size 64"
        " --gpu-memory-utilization 0.85",
        "vllm ran out of memory while capturing CUDA graphs, after the KV cache was allocated.",
    ),
    Variant(
        "vllm",
        "serving",
        (
            "Lower --max-num-seqs (for example to 64) and --max-num-batched-tokens (for example"
            " to 4096)",
            "Lower --gpu-memory-utilization (for example from 0.9 to 0.85) to leave more room"
            " for activations and the sampler",
            "Shorten --max-model-len, or limit max_tokens and images per request",
        ),
        f"# before\n{_VLLM}\n# after\n{_VLLM} --max-num-seqs 64 --max-num-batched-tokens 4096"
        " --gpu-memory-utilization 0.85",
        "vllm ran out of memory while serving: the running batch's activations did not fit in"
        " the memory left outside the KV cache.",
    ),
)

_PREVENTION = (
    "Size the engine for the worst case: the longest prompt times the largest batch",
    "Keep one serving engine per GPU; check nvidia-smi before starting another",
)


def _oom(
    device: str,
    kind: str,
    template: str,
    pattern: str | None,
    documentation: str,
    *,
    phrases: tuple[str, ...] = (),
) -> Spec:
    return Spec(
        kind=kind,
        repo=TORCH,
        path=ALLOCATOR,
        line=ALLOCATOR_LINE,
        sha=ALLOCATOR_SHA,
        error_class="torch.OutOfMemoryError",
        also_classes=("RuntimeError",),
        tags=("errcat:was:torch.cuda.OutOfMemoryError", "out-of-memory", "gpu-memory"),
        template=device + template,
        pattern=device + pattern if pattern else None,
        documentation=documentation,
        trigger="Loading a model, sizing the KV cache, capturing CUDA graphs or running a"
        " batch that needs more GPU memory than is free.",
        situations="A larger model or context than the GPU fits; another process on the same"
        " GPU; a memory fraction set too high; long prompts or many concurrent requests.",
        solutions=_GENERIC,
        example_fix=_GENERIC_FIX,
        prevention=_PREVENTION,
        references=_REFERENCES,
        variants=VARIANTS,
        phrases=phrases,
    )


_OLD_DOC = (
    _DOC + " This is the wording of torch releases before 2.1; 'reserved in total by PyTorch'"
    " much larger than 'already allocated' means fragmentation."
)

RECORDS = (
    # A title names the error by these words; the current wording's record answers it.
    _oom("CUDA", "cuda-oom", _NEW_TEMPLATE, None, _DOC, phrases=("CUDA out of memory", "CUDA OOM")),
    _oom("CUDA", "cuda-oom", _OLD_TEMPLATE, _OLD, _OLD_DOC),
    _oom(
        "HIP",
        "hip-oom",
        _NEW_TEMPLATE,
        None,
        _DOC.replace("GPU", "AMD GPU", 1),
        phrases=("HIP out of memory",),
    ),
    _oom("HIP", "hip-oom", _OLD_TEMPLATE, _OLD, _OLD_DOC.replace("GPU", "AMD GPU", 1)),
    Spec(
        kind="cuda-oom",
        repo=TORCH,
        path=CUDA_EXCEPTION,
        line=CUDA_EXCEPTION_LINE,
        sha=CUDA_EXCEPTION_SHA,
        error_class="torch.AcceleratorError",
        also_classes=("RuntimeError",),
        tags=("out-of-memory", "gpu-memory"),
        template="CUDA error: out of memory",
        documentation="A CUDA call outside torch's caching allocator (NCCL or cuBLAS"
        " initialisation, a custom kernel's workspace, CUDA graph capture) could not get"
        " memory: the engine had already reserved nearly all of the GPU.",
        trigger="Usually right after the engine sized its KV cache, when NCCL, cuBLAS or a"
        " CUDA graph asks the driver for memory directly.",
        solutions=_GENERIC,
        example_fix=_GENERIC_FIX,
        prevention=_PREVENTION,
        references=_REFERENCES,
        variants=VARIANTS,
    ),
)
