r"""The kernel libraries' C++ errors users paste most, with advice in the engines' own levers.

The C++ miner (:mod:`errcat.mine.cpp`) gives every flashinfer, DeepEP and flash-attn check a
record, but its advice can only be generic (upgrade, report, the condition in
words). For the few checks users hit again and again the cause is known and a
flag or environment variable of the engine fixes it; these records replace the
mined ones of the same message (``build_stack.finish``). Sources read:
flashinfer-python 0.7.2's wheel (``include/flashinfer/trtllm/fmha/fmhaRunner.cuh``,
``include/flashinfer/allocator.h``, ``trtllm/common.h``: ``kSM_100/103/107``),
DeepEP at sglang's ``DEEPEP_COMMIT`` (``csrc/deep_ep.cpp``), flash-attention v2.8.3
(``csrc/flash_attn/flash_api.cpp``), sglang 0.5.23's
wheel (``environ.py``, ``arg_groups/choices.py``, ``layers/attention/
flashinfer_backend.py``, ``layers/moe/token_dispatcher/deepep.py``) and vllm
0.33.0's (``engine/arg_utils.py``, ``config/attention.py``, ``envs.py``).

Their messages and patterns are the mined ones' (``{__DIR__}`` any directory
before the file's own name, ``{__LINE__}`` any line: the paste shows the
builder's path), so each replaces the mined record of its message.

>>> import regex
>>> arch = "Error in function 'TllmGenFmhaRunner' at /workspace/include/flashinfer/trtllm/fmha/fmhaRunner.cuh:30: Unsupported architecture"
>>> bool(regex.fullmatch(RECORDS[0].pattern or "", arch))
True
>>> [r.path for r in RECORDS]  # doctest: +NORMALIZE_WHITESPACE
['include/flashinfer/trtllm/fmha/fmhaRunner.cuh', 'include/flashinfer/allocator.h',
 'include/flashinfer/allocator.h', 'csrc/deep_ep.cpp', 'csrc/kernels/exception.cuh',
 'csrc/flash_attn/flash_api.cpp']
>>> peer = "Failed: CUDA error /x/DeepEP/csrc/deep_ep.cpp:200\n'peer access'"
>>> bool(regex.fullmatch(RECORDS[-2].pattern or "", peer))
True
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = ["RECORDS"]

FLASHINFER = "flashinfer-ai/flashinfer"
DEEPEP = "deepseek-ai/DeepEP"
#: DeepEP has no release tags users install: sglang's docker image builds this commit.
DEEPEP_COMMIT = "9af0e0d0e74f3577af1979c9b9e1ac2cad0104ee"
FLASH_ATTN = "Dao-AILab/flash-attention"
#: flash-attn v2.8.3 (the ``gitSources`` entry of the kernels package).
FLASH_ATTN_COMMIT = "060c9188beec3a8b62b33a3bfa6d5d2d44975fab"

_FI = "Error in function '{{__FUNCTION__}}' at {{__DIR__}}{file}:{{__LINE__}}: "
_FI_PATTERN = r"Error in function '(.+?)' at (\S*?){file}:(\d+): "

_ARCH = Curated(
    repo=FLASHINFER,
    path="include/flashinfer/trtllm/fmha/fmhaRunner.cuh",
    line=37,
    revision="v0.7.2",
    error_class="RuntimeError",
    template=_FI.format(file="fmhaRunner.cuh") + "Unsupported architecture",
    pattern=_FI_PATTERN.format(file=r"fmhaRunner\.cuh") + "Unsupported architecture",
    error_type="configuration",
    documentation="flashinfer's trtllm-gen attention kernels (TllmGenFmhaRunner, behind"
    " sglang's trtllm_mha and trtllm_mla backends and vllm's TRTLLM attention path) exist"
    " only for data-center Blackwell: the runner accepts SM 100, 103 and 107 (B200, GB200,"
    " B300, GB300) and refuses every other GPU. An RTX 50xx or RTX PRO 6000 Blackwell"
    " (SM 120), a Hopper H100/H200 (SM 90) or an older GPU reaches this check when the"
    " engine, or a flag, picks a trtllm backend on it.",
    trigger="--attention-backend trtllm_mha / trtllm_mla (or --decode-attention-backend"
    " trtllm_mha) on a GPU that is not SM 100/103; vllm's FlashInfer backend with TRTLLM"
    " attention forced on a GPU without trtllm-gen prefill kernels",
    solutions=(
        "sglang: serve with --attention-backend flashinfer (or triton; fa3 on Hopper) and"
        " drop any trtllm_mha / trtllm_mla from --attention-backend,"
        " --prefill-attention-backend and --decode-attention-backend",
        "vllm 0.33.0: serve with --attention-backend FLASH_ATTN (or TRITON_ATTN), or keep"
        " FlashInfer and turn its TRTLLM path off with --attention-config"
        " '{\"use_trtllm_attention\": false}' (the VLLM_ATTENTION_BACKEND variable of older"
        " releases is gone)",
        "Check the GPU: nvidia-smi --query-gpu=name,compute_cap --format=csv; only compute"
        " capability 10.0/10.3 runs these kernels",
    ),
    example_fix="# before (RTX PRO 6000, SM 120)\npython -m sglang.launch_server --model-path M"
    " --attention-backend trtllm_mha\n# after\npython -m sglang.launch_server --model-path M"
    " --attention-backend flashinfer",
    prevention=(
        "Leave the attention backend unset on GPUs other than B200/GB200/B300 and let the"
        " engine pick one its kernels support",
    ),
    tags=("errcat:native:kernel-check", "cpp:FLASHINFER_CHECK"),
    references=(
        "flashinfer include/flashinfer/trtllm/fmha/fmhaRunner.cuh and trtllm/common.h"
        " (kSM_100, kSM_103, kSM_107), flashinfer-python 0.7.2",
        "sglang 0.5.23 sglang/srt/arg_groups/choices.py ATTENTION_BACKEND_CHOICES",
        "vllm 0.33.0 vllm/config/attention.py use_trtllm_attention,"
        " vllm/utils/flashinfer.py supports_trtllm_attention",
    ),
)

_WORKSPACE_DOC = (
    "flashinfer plans an attention batch inside one workspace buffer the engine allocates"
    " once at start-up, and its AlignedAllocator ran out of it: the batch (long prompts,"
    " many sequences, split-KV partial outputs such as batch_prefill_tmp_v) needs more"
    " bytes than the buffer holds. The size asked for is in the message; the buffer's is"
    " the engine's setting, not the GPU's free memory."
)
_WORKSPACE_SOLUTIONS = (
    "sglang: raise the buffer above the size the message asks for, e.g."
    " SGLANG_FLASHINFER_WORKSPACE_SIZE=1073741824 (1 GiB; the default is 384 MiB). sglang"
    " 0.5.23 sets it itself to 2 GiB with --enable-deterministic-inference and to 512 MiB"
    " for Qwen3-VL and a few other models, whatever the environment says: there, lower"
    " --chunked-prefill-size or use --attention-backend fa3 (Hopper) or triton",
    "vllm: raise VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE above the size asked for, e.g."
    " VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE=1073741824 (the default is 394 MiB), or lower"
    " --max-num-batched-tokens",
    "Or serve with another attention backend (sglang --attention-backend triton, vllm"
    " --attention-backend FLASH_ATTN), which plans no such workspace",
)
_WORKSPACE_FIX = (
    "# before\npython -m sglang.launch_server --model-path M --context-length 131072\n"
    "# after: 1 GiB of flashinfer workspace (the message asked for 458752000 bytes)\n"
    "SGLANG_FLASHINFER_WORKSPACE_SIZE=1073741824 python -m sglang.launch_server"
    " --model-path M --context-length 131072"
)
_WORKSPACE_REFERENCES = (
    "sglang 0.5.23 sglang/srt/environ.py SGLANG_FLASHINFER_WORKSPACE_SIZE,"
    " sglang/srt/layers/attention/flashinfer_backend.py",
    "vllm 0.33.0 vllm/envs.py VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE",
)

_OVERFLOW = Curated(
    repo=FLASHINFER,
    path="include/flashinfer/allocator.h",
    line=71,
    revision="v0.7.2",
    error_class="RuntimeError",
    template=_FI.format(file="allocator.h")
    + "Buffer overflow when allocating memory for {name} with size {size} and"
    " alignment {alignment}, but only {remaining_space} bytes available in AlignedAllocator."
    " Increase the workspace buffer size.",
    pattern=_FI_PATTERN.format(file=r"allocator\.h") + r"Buffer overflow when allocating"
    r" memory for (.+?) with size (.+?) and alignment (.+?), but only (.+?) bytes available"
    r" in AlignedAllocator\. Increase the workspace buffer size\.",
    error_type="resource",
    documentation=_WORKSPACE_DOC,
    solutions=_WORKSPACE_SOLUTIONS,
    example_fix=_WORKSPACE_FIX,
    tags=("errcat:native:kernel-check", "cpp:FLASHINFER_ERROR"),
    references=("flashinfer-python 0.7.2 include/flashinfer/allocator.h", *_WORKSPACE_REFERENCES),
)

_OVERFLOW_OLD = Curated(
    repo=FLASHINFER,
    path="include/flashinfer/allocator.h",
    line=46,
    revision="v0.2.5",
    error_class="RuntimeError",
    template="Failed to allocate memory for {name} with size {size} and alignment"
    " {alignment} in AlignedAllocator",
    error_type="resource",
    documentation=_WORKSPACE_DOC + " This is the wording of flashinfer before mid-2025"
    " (flashinfer pull request 1357 renamed it 'Buffer overflow when allocating memory').",
    solutions=_WORKSPACE_SOLUTIONS,
    example_fix=_WORKSPACE_FIX,
    tags=("errcat:native:kernel-check",),
    references=(
        "https://github.com/flashinfer-ai/flashinfer/pull/1357",
        *_WORKSPACE_REFERENCES,
    ),
)

_DISPATCH = Curated(
    repo=DEEPEP,
    path="csrc/deep_ep.cpp",
    line=1105,
    revision=DEEPEP_COMMIT,
    error_class="RuntimeError",
    template="Failed: Assertion error {__DIR__}deep_ep.cpp:{__LINE__} 'x.size(0) =="
    " topk_idx.size(0)"
    " and x.size(0) <= num_max_dispatch_tokens_per_rank'",
    pattern=r"Failed: Assertion error (\S*?)deep_ep\.cpp:(\d+) 'x\.size\(0\) =="
    r" topk_idx\.size\(0\) and x\.size\(0\) <= num_max_dispatch_tokens_per_rank'",
    error_type="configuration",
    documentation="DeepEP's low-latency dispatch (Buffer::low_latency_dispatch, the"
    " decode path of --moe-a2a-backend deepep with --deepep-mode low_latency or auto) got"
    " more tokens on one rank than its buffer was sized for. The buffer holds"
    " num_max_dispatch_tokens_per_rank tokens per rank, which sglang takes from"
    " SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 128, at most 1024); a decode"
    " batch larger than that (a --cuda-graph-max-bs-decode or --max-running-requests above"
    " it, or speculative decoding multiplying the tokens per request) fails here.",
    trigger="decode batches per rank above 128 with DeepEP low-latency mode and the"
    " default SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK",
    solutions=(
        "Raise the buffer to at least the largest decode batch per rank, e.g."
        " SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK=256 (sglang refuses values above"
        " 1024; with speculative decoding count batch size x draft tokens)",
        "Or keep decode batches within it: --cuda-graph-max-bs-decode 128 and"
        " --max-running-requests no higher than 128 x the data-parallel size",
        "Or use --deepep-mode normal (no low-latency buffers, slower decode)",
    ),
    example_fix="# before\npython -m sglang.launch_server --model-path M --tp 8"
    " --moe-a2a-backend deepep --cuda-graph-max-bs-decode 256\n# after\n"
    "SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK=256 python -m sglang.launch_server"
    " --model-path M --tp 8 --moe-a2a-backend deepep --cuda-graph-max-bs-decode 256",
    prevention=(
        "Set SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK with --cuda-graph-max-bs-decode:"
        " the first must not be below the second",
    ),
    tags=("errcat:native:kernel-check", "cpp:EP_HOST_ASSERT"),
    references=(
        f"DeepEP csrc/deep_ep.cpp at {DEEPEP_COMMIT[:12]} (sglang's docker DEEPEP_COMMIT)",
        "sglang 0.5.23 sglang/srt/environ.py SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK,"
        " sglang/srt/layers/moe/token_dispatcher/deepep.py",
    ),
)

_CUDA_CHECK = Curated(
    repo=DEEPEP,
    path="csrc/kernels/exception.cuh",
    line=30,
    revision=DEEPEP_COMMIT,
    error_class="RuntimeError",
    template="Failed: CUDA error {file}:{line} '{error}'",
    pattern=r"Failed: CUDA error (\S+?):(\d+)\s+'(.+?)'",
    error_type="runtime",
    documentation="A CUDA runtime call inside DeepEP failed: its CUDA_CHECK macro throws"
    " EPException('CUDA', file, line, cudaGetErrorString(...)), so the file and line are"
    " DeepEP's own (csrc/deep_ep.cpp in the builder's tree) and the quoted text is CUDA's."
    " 'peer access is not supported between these two devices' at Buffer's setup means the"
    " GPUs cannot reach each other's memory directly: DeepEP's intranode path needs every"
    " pair of GPUs in the expert-parallel group to have P2P (NVLink, or PCIe under one"
    " switch); many PCIe servers and consumer GPUs have it only for some pairs.",
    solutions=(
        "Check P2P between the GPUs: nvidia-smi topo -m (NV# or PIX between every pair is"
        " needed); on a host without it, serve without DeepEP: sglang --moe-a2a-backend none"
        " (or vllm without --all2all-backend deepep_*)",
        "Use only GPUs that reach each other, e.g. CUDA_VISIBLE_DEVICES=0,1 with --ep 2 on a"
        " host where only pairs under one PCIe switch have P2P",
        "For another CUDA error text, look that text up: it names the failing runtime call's"
        " cause (out of memory, invalid argument, an illegal address)",
    ),
    example_fix="# before\npython -m sglang.launch_server --model-path M --tp 8 --ep 8"
    " --moe-a2a-backend deepep\n# after: a PCIe-only host\npython -m sglang.launch_server"
    " --model-path M --tp 8 --moe-a2a-backend none",
    trigger="DeepEP creates its buffers (IPC handles, peer access) or launches a kernel and"
    " a CUDA runtime call returns an error.",
    tags=("errcat:native:kernel-check", "cpp:EPException"),
    references=(
        f"DeepEP csrc/kernels/exception.cuh at {DEEPEP_COMMIT[:12]} (CUDA_CHECK)",
        "https://github.com/deepseek-ai/DeepEP/issues/584",
    ),
)

_FA2_AMPERE = Curated(
    repo=FLASH_ATTN,
    path="csrc/flash_attn/flash_api.cpp",
    line=370,
    revision=FLASH_ATTN_COMMIT,
    error_class="RuntimeError",
    template="FlashAttention only supports Ampere GPUs or newer.",
    error_type="configuration",
    documentation="The flash-attn package's FlashAttention-2 kernels (flash_attn_2_cuda)"
    " run on compute capability 8.0 and newer only (A100, RTX 30xx and later); every entry"
    " point checks the GPU first. A T4, V100 or RTX 20xx (compute capability 7.x) reaches"
    " the check when code calls flash-attn because it is installed: a vision encoder"
    " (Qwen2-VL and kin, in vLLM or in transformers), a model loaded with"
    " attn_implementation='flash_attention_2', or an engine backend chosen by hand. The"
    " engines' own attention has backends for these GPUs.",
    trigger="Serving or running a vision-language model, or training with"
    " flash_attention_2, on a GPU older than Ampere with flash-attn installed.",
    solutions=(
        "Check the GPU: nvidia-smi --query-gpu=name,compute_cap --format=csv; below 8.0,"
        " flash-attn 2 cannot run on it",
        "Let callers fall back: pip uninstall -y flash-attn (vision encoders then use torch's"
        " SDPA); in transformers load the model with attn_implementation='sdpa' instead of"
        " 'flash_attention_2'",
        "In vLLM, pick backends that run on the GPU: vllm serve M --mm-encoder-attn-backend"
        " TORCH_SDPA for the vision encoder, --attention-backend TRITON_ATTN for the"
        " language model",
    ),
    example_fix="# before (Tesla T4)\nmodel = AutoModel.from_pretrained(M,"
    " attn_implementation='flash_attention_2')\n# after\nmodel = AutoModel.from_pretrained(M,"
    " attn_implementation='sdpa')",
    tags=("errcat:native:kernel-check", "cpp:TORCH_CHECK"),
    references=(
        f"flash-attention csrc/flash_attn/flash_api.cpp at v2.8.3 ({FLASH_ATTN_COMMIT[:12]})",
        "vllm vllm/engine/arg_utils.py (--mm-encoder-attn-backend, --attention-backend)",
    ),
)

RECORDS = (_ARCH, _OVERFLOW, _OVERFLOW_OLD, _DISPATCH, _CUDA_CHECK, _FA2_AMPERE)
