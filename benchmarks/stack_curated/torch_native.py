r"""torch's C++ errors users paste most (ATen, c10, autograd), with advice in the engines' levers.

These messages are made in C++ (``TORCH_CHECK`` in ATen's kernels and meta
functions, the ``AT_DISPATCH`` switch, autograd's saved-variable checks) and
reach Python as ``RuntimeError`` and kin with no Python frame of their own. The
torch package mines the check macros of the headers its wheel ships
(``SOURCES.json``: torch's ``native`` folders), with generic advice; most of the
checks users hit live in ``.cpp`` files the wheel does not ship, and the ones it
does ship (``InferSize.h``) say nothing about the model or flag behind them.
These records name the cause as it shows in sglang and vllm threads and the
lever that fixes it (a flag, a config field, a package version). One that
shares a mined record's message replaces it (``build_stack.finish``).

Why the torch package and not the bundled native data: the bundled native
records are failures of no Python package (the CUDA runtime, NCCL, a crash);
these are torch's own checks, whose wording follows torch's release (the device
check was reworded in 2.x, ``AT_DISPATCH`` turned ``RuntimeError`` into
``NotImplementedError``), so they ship, and are rebuilt, with torch's mined
records. Each is tagged ``errcat:site:hidden``: a C++ site never shows as a traceback
frame, so a paste's frames (the Python code that called the operator) are no
evidence against it. One record is vllm's: torch's dispatch message raised from the KV-cache
kernels of vllm's CPU backend, whose x86 dispatch lists no float16 case. It sits
beside the generic dispatch record because it must outrank it for those kernel
names (its template holds more literal text), and vllm's C++ in the bundled data
is mined from check macros, which a dispatch switch is not.

Sources were read in pytorch/pytorch: the 2.14.1 wheel's headers (``ATen/InferSize.h``,
``ATen/Dispatch.h``, ``torch/headeronly/core/Dispatch.h``; the wheel's
``torch/version.py`` names git_version 5c4886908584, tag v2.14.1); ``aten/src/ATen/ExpandUtils.cpp`` at 181624244c76;
``aten/src/ATen/core/op_registration/adaption.cpp`` at 53cc37666b6c;
``torch/csrc/autograd/saved_variable.cpp`` at 42bb714738bb. A site in a ``.cpp``
file whose lines were not counted at the tag is linked at the file (line 1 of
v2.14.1) and its function is named in the record's sources. The threads cited
are even-numbered (odd ones are kept for held-out sets).

>>> import regex
>>> line = "shape '[15, -1, 2048]' is invalid for input of size 90112"
>>> bool(regex.fullmatch(INFER_SIZE.envelope().record.message_pattern, line))
True
>>> old = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
>>> bool(regex.fullmatch(DEVICE_OLD.envelope().record.message_pattern, old))
True
>>> len(RECORDS)
19
"""

from __future__ import annotations

from errcat.imports.site import HIDDEN_SITE_TAG
from stack_curated.spec import Curated

__all__ = ["INFER_SIZE", "RECORDS"]

TORCH = "pytorch/pytorch"
#: The torch release the engines pin (sglang 0.5.23, vllm 0.33.0): the wheel read.
TAG = "v2.14.1"
EXPAND_UTILS_SHA = "181624244c76e6f99a3f20106310ee73245e5e0b"
ADAPTION_SHA = "53cc37666b6cdaf42c30846ca79dfb4f26e7535c"
SAVED_VARIABLE_SHA = "42bb714738bbd8ed3aaa0f0c61606b7a366ba934"

#: A C++ raise site is never a traceback frame: the frames of a paste (the Python code
#: that called the operator) say nothing against these records.
_HIDDEN = HIDDEN_SITE_TAG
#: Tags of a check raised through TORCH_CHECK (RuntimeError) and of its kin.
_CHECK = ("errcat:native:torch-check", "cpp:TORCH_CHECK", _HIDDEN)
_RUNTIME_BASE = "errcat:base:RuntimeError"

#: The usual cause of ATen's shape checks inside an engine, said once.
_SHAPE_CAUSE = (
    " Inside sglang or vllm the tensors come from the model's own code, so a shape check"
    " that fails there almost always means the checkpoint and what the engine was told"
    " about it disagree: config.json (hidden_size, num_attention_heads,"
    " num_key_value_heads, head_dim, intermediate_size, vocab_size) does not describe"
    " the weights; a quantized checkpoint is loaded without its quantization method; a"
    " tensor-parallel size that does not divide the heads; a speculative draft model"
    " from another base model; or an engine release older than the architecture."
)
_SHAPE_SOLUTIONS = (
    "Check the model's config.json against the weights (hidden_size, num_attention_heads,"
    " num_key_value_heads, head_dim): a fine-tune or merge saved with a stale config"
    " gives exactly this; correct the field, or override it without editing the file"
    " (vllm: --hf-overrides '{\"head_dim\": 128}'; sglang: --json-model-override-args"
    " '{\"head_dim\": 128}')",
    "Serve with a --tensor-parallel-size that divides num_attention_heads and"
    " num_key_value_heads (e.g. 8 heads: 1, 2, 4 or 8)",
    "A draft model for speculative decoding must come from the same base model as the"
    " target (vllm: the model in --speculative-config; sglang:"
    " --speculative-draft-model-path); serve without speculation to confirm",
    "Upgrade the engine to a release that lists the architecture (pip install -U vllm,"
    " pip install -U 'sglang[all]'): a new architecture often needs a newer release",
)

DISPATCH = Curated(
    repo=TORCH,
    path="torch/headeronly/core/Dispatch.h",
    line=42,
    revision=TAG,
    error_class="NotImplementedError",
    template="\"{op}\" not implemented for '{dtype}'",
    error_type="configuration",
    documentation="torch's AT_DISPATCH switch picks the kernel of an operator for the"
    " tensor's dtype, and this build has no kernel of that operator for that dtype on"
    " that device: the quoted name is the kernel (addmm_impl_cpu_, LayerNormKernelImpl,"
    " slow_conv2d_cpu, an engine's own CPU kernel), the dtype the tensor's. Nearly"
    " always half precision on the CPU: the model was loaded as float16 on a machine or"
    " device that runs the operator in float32 or bfloat16 only, often because the GPU"
    " was never used (CUDA not visible, a CPU build of torch, device_map on cpu). torch"
    " 2.14 raises it as NotImplementedError (a RuntimeError subclass); 2.7 and older"
    " printed RuntimeError.",
    trigger="--dtype float16 (or a checkpoint whose torch_dtype is float16, picked by"
    " --dtype auto) on vllm's or sglang's CPU backend; transformers from_pretrained(...,"
    " torch_dtype=torch.float16) without a GPU",
    solutions=(
        "On the CPU, serve in bfloat16 or float32: --dtype bfloat16 (vllm and sglang"
        " spell it the same); --dtype auto keeps the checkpoint's float16",
        "If a GPU was meant to run it, check that torch sees one: python -c 'import"
        " torch; print(torch.cuda.is_available(), torch.version.cuda)' must print True and"
        " a CUDA version; a CPU-only build (+cpu) prints None: reinstall the CUDA build the"
        " engines pin (PyPI's Linux wheel of torch 2.14.1 is 2.14.1+cu130, built for CUDA"
        " 13.0: pip install --force-reinstall torch==2.14.1)",
        "transformers: load with torch_dtype=torch.bfloat16 (or float32) when the device"
        " is the CPU",
    ),
    example_fix="# before (CPU backend, float16 checkpoint)\nvllm serve facebook/opt-125m"
    " --dtype float16\n# after\nvllm serve facebook/opt-125m --dtype bfloat16",
    prevention=("Leave float16 to GPUs; on CPUs serve bfloat16 (AVX512-BF16/AMX) or float32",),
    tags=("errcat:native:torch-check", "cpp:AT_DISPATCH", _RUNTIME_BASE, _HIDDEN),
    references=(
        "pytorch v2.14.1 aten/src/ATen/Dispatch.h AT_DISPATCH_SWITCH (passes"
        " TORCH_CHECK_NOT_IMPLEMENTED) and torch/headeronly/core/Dispatch.h"
        " THO_DISPATCH_SWITCH_TMPL (the message)",
        "huggingface/text-generation-inference#1104 (addmm_impl_cpu_ for Half on a CPU,"
        " answered with --dtype bfloat16)",
        "bigscience-workshop/petals#432 (float16 unsupported by torch on the CPU)",
    ),
)

INFER_SIZE = Curated(
    repo=TORCH,
    path="aten/src/ATen/InferSize.h",
    line=73,
    revision=TAG,
    error_class="RuntimeError",
    template="shape '{shape}' is invalid for input of size {numel}",
    error_type="configuration",
    documentation="A view() or reshape() asked for a shape whose element count cannot"
    " hold the tensor's: the product of the shape (with -1 inferred) does not divide or"
    " equal the input's size. The numbers say by how much: in an attention layer the"
    " size is usually tokens x heads x head_dim, so a wrong head count, head_dim or"
    " token count shows as a ratio between them." + _SHAPE_CAUSE,
    trigger="A model whose config.json head_dim or num_key_value_heads differs from the"
    " checkpoint; a new architecture on an older engine; a quantized checkpoint loaded"
    " as unquantized; speculative decoding with a mismatched draft model",
    solutions=_SHAPE_SOLUTIONS,
    example_fix="# the checkpoint's heads are 128 wide but config.json omits head_dim\n"
    "vllm serve ./my-model --hf-overrides '{\"head_dim\": 128}'",
    tags=_CHECK,
    references=(
        "pytorch v2.14.1 aten/src/ATen/InferSize.h infer_size_impl",
        "vllm-project/vllm#8054 (shape invalid in the attention view of a new backend)",
    ),
)

MM_SHAPES = Curated(
    repo=TORCH,
    path="aten/src/ATen/native/LinearAlgebra.cpp",
    line=1,
    revision=TAG,
    error_class="RuntimeError",
    template="mat1 and mat2 shapes cannot be multiplied ({rows1}x{cols1} and {rows2}x{cols2})",
    error_type="configuration",
    documentation="A matrix product (nn.Linear, addmm, mm) got an input whose last"
    " dimension (cols1) differs from the weight's first (rows2): the layer was built for"
    " another width than the tensor fed to it. The two numbers are the widths to"
    " compare, e.g. 5120 against 4096 is a 14B hidden size fed to a 7B layer." + _SHAPE_CAUSE,
    trigger="A draft or adapter (Medusa/EAGLE heads, LoRA, a vision projector) trained for"
    " another base model; a vision-language model whose vision tower and projector"
    " disagree; a hidden_size edited in config.json",
    solutions=(
        "Compare the two widths in the message with the models involved: the adapter,"
        " draft or projector must come from the same base model (hidden_size) as the"
        " model served",
        *_SHAPE_SOLUTIONS[2:],
    ),
    example_fix="# a Medusa head trained on a 4096-wide base served with a 5120-wide model\n"
    "# serve the target model the head was trained for, or drop --speculative-config",
    tags=_CHECK,
    references=(
        "pytorch aten/src/ATen/native/LinearAlgebra.cpp ADDMM_META (TORCH_META_FUNC(addmm))",
        "xorbitsai/inference#740 (32x5120 against 1x2560: a 4-bit llama-2 13B)",
        "Comfy-Org/ComfyUI#5836 (models of different widths mixed in one pipeline)",
    ),
)

MM_DTYPE = Curated(
    repo=TORCH,
    path="aten/src/ATen/native/cuda/Blas.cpp",
    line=1,
    revision=TAG,
    error_class="RuntimeError",
    template="expected mat1 and mat2 to have the same dtype, but got: {dtype1} != {dtype2}",
    error_type="configuration",
    documentation="A matrix product got operands of two dtypes (float32 against float16"
    " or bfloat16): one tensor was never cast to the model's dtype. In an engine it is"
    " usually a part the engine does not cast itself (a vision tower, an embedding"
    " passed in as inputs_embeds, a LoRA or quantization layer kept in float32); in"
    " training, autocast off around a layer whose weights are half precision.",
    trigger="--dtype float16 with a model whose remote code or a plug-in keeps float32"
    " weights; quantized (GGUF, bitsandbytes) weights dequantized to another dtype",
    solutions=(
        "Serve with the dtype the checkpoint was trained in: --dtype bfloat16 (or"
        " float16) instead of auto; a float32 part then gets cast with the rest",
        "For prompt embeddings you pass yourself, cast them to the model's dtype"
        " (embeds.to(torch.bfloat16)) before the request",
        "Upgrade the engine (pip install -U vllm): missing casts of inputs_embeds and"
        " vision features were fixed release by release",
    ),
    example_fix="vllm serve google/gemma-3-4b-it --dtype bfloat16",
    tags=_CHECK,
    references=(
        "pytorch aten/src/ATen/native/cuda/Blas.cpp addmm_out_cuda_impl",
        "vllm-project/vllm#27580 (gemma-3 GGUF on a DGX Spark)",
        "hiyouga/LlamaFactory#2022 (c10::BFloat16 != float with a 4-bit base model)",
    ),
)

_DEVICE_DOC = (
    "One operator got tensors on two devices (cuda:0 and cpu, or cuda:0 and cuda:1): a"
    " weight, buffer or input was left behind when the rest moved. In an engine it is"
    " mostly a second model or hand-made tensor in the same process (a reward or"
    " reference model placed with device_map, a tensor created without device=),"
    " CPU offloading of weights, or an out-of-tree plug-in that creates buffers on the"
    " CPU; in training, a model split across GPUs by device_map='auto' whose inputs"
    " stay on cuda:0."
)
_DEVICE_SOLUTIONS = (
    "Put every tensor you create on the model's device: torch.zeros(..., device=x.device)"
    " or t.to(x.device); the argument and method named in the message say which one",
    "vllm: serve without --cpu-offload-gb (or with a smaller value) if the error came"
    " after enabling it; sglang: without --cpu-offload-gb",
    "Running two models in one process: pin each to its GPU with CUDA_VISIBLE_DEVICES per"
    " process rather than device_map inside one process",
)

DEVICE_OLD = Curated(
    repo=TORCH,
    path="aten/src/ATen/core/op_registration/adaption.cpp",
    line=7,
    revision=ADAPTION_SHA,
    error_class="RuntimeError",
    template="Expected all tensors to be on the same device, but found at least two devices,"
    " {device1} and {device2}! (when checking argument for argument {argument} in method"
    " {method})",
    pattern=r"Expected all tensors to be on the same device, but found at least two devices,"
    r" (.+?) and (.+?)!(?: \(when checking argument for argument (.+?) in method (.+?)\))?",
    error_type="configuration",
    documentation=_DEVICE_DOC + " This is the older wording, naming the two devices; newer"
    " releases name the argument on the odd device instead.",
    solutions=_DEVICE_SOLUTIONS,
    example_fix="x = torch.arange(n)                  # on the CPU\n"
    "x = torch.arange(n, device=h.device)  # on the model's GPU",
    tags=_CHECK,
    references=(
        "pytorch aten/src/ATen/core/op_registration/adaption.cpp"
        " common_device_check_failure, read at 53cc37666b6c in an earlier wording ('same"
        " common device', 'arugment'); the wording here is the one pastes show",
        "vllm-project/vllm#2108 (a second model on cuda:1 beside vllm's on cuda:0)",
        "vllm-project/vllm#3482 (an L4 machine)",
    ),
)

DEVICE_NEW = Curated(
    repo=TORCH,
    path="aten/src/ATen/core/op_registration/adaption.cpp",
    line=1,
    revision=TAG,
    error_class="RuntimeError",
    template="Expected all tensors to be on the same device, but got {argument} is on"
    " {device}, different from other tensors on {common} (when checking argument in"
    " method {method})",
    error_type="configuration",
    documentation=_DEVICE_DOC + " This is the wording of recent torch releases: the"
    " argument named is the one on the odd device.",
    solutions=_DEVICE_SOLUTIONS,
    example_fix="x = torch.arange(n)                  # on the CPU\n"
    "x = torch.arange(n, device=h.device)  # on the model's GPU",
    tags=_CHECK,
    references=(
        "pytorch v2.14.1 aten/src/ATen/core/op_registration/adaption.cpp"
        " common_device_check_failure",
    ),
)

BROADCAST = Curated(
    repo=TORCH,
    path="aten/src/ATen/ExpandUtils.cpp",
    line=31,
    revision=EXPAND_UTILS_SHA,
    error_class="RuntimeError",
    template="The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) at"
    " non-singleton dimension {dim}",
    error_type="configuration",
    documentation="An elementwise operation (add, mul, a mask, a residual) got two tensors"
    " whose sizes differ in a dimension where neither is 1, so they cannot broadcast. The"
    " two sizes name the mismatch: a vocab size against another vocab size (two"
    " tokenizers), a sequence length against a cache or mask length, a hidden size"
    " against another." + _SHAPE_CAUSE,
    trigger="Two models with different vocabularies compared token by token (reward or"
    " teacher models in RL and distillation); a prompt longer than the context a mask or"
    " rotary cache was built for",
    solutions=(
        "Compare the two sizes with the models' configs: vocab_size of both models when"
        " logits meet (teacher/student, policy/reference must share a tokenizer),"
        " max_position_embeddings or the served length when sequence lengths meet",
        "Serve with a context no longer than the model supports: --max-model-len (vllm)"
        " or --context-length (sglang) at or below config.json max_position_embeddings",
        *_SHAPE_SOLUTIONS[:1],
    ),
    example_fix="vllm serve M --max-model-len 32768  # not above max_position_embeddings",
    tags=_CHECK,
    references=(
        "pytorch aten/src/ATen/ExpandUtils.cpp infer_size_impl (181624244c76)",
        "Qihoo360/360-LLaMA-Factory#62 (16648 against 16384 at dimension 2: a sequence"
        " longer than a 16384-long buffer)",
    ),
)

EXPAND = Curated(
    repo=TORCH,
    path="aten/src/ATen/ExpandUtils.cpp",
    line=95,
    revision=EXPAND_UTILS_SHA,
    error_class="RuntimeError",
    template="The expanded size of the tensor ({target}) must match the existing size"
    " ({size}) at non-singleton dimension {dim}.  Target sizes: {target_sizes}.  Tensor"
    " sizes: {tensor_sizes}",
    error_type="configuration",
    documentation="expand() was asked to stretch a dimension that is not 1 to another size:"
    " the target sizes and the tensor's sizes are both printed, so the dimension that"
    " differs is visible. In models it is mostly an attention mask or position tensor"
    " built for another batch or sequence length than the hidden states." + _SHAPE_CAUSE,
    solutions=(
        "Find the dimension that differs in the two printed size lists: a batch size"
        " (mask built for another batch), a sequence length (cache or mask shorter than"
        " the prompt) or a head count (num_key_value_heads in config.json)",
        *_SHAPE_SOLUTIONS[:2],
    ),
    example_fix="# attention_mask built for the unpadded prompt; pad it with the inputs\n"
    "batch = tokenizer(prompts, padding=True, return_tensors='pt')",
    tags=_CHECK,
    references=("pytorch aten/src/ATen/ExpandUtils.cpp inferExpandGeometryImpl (181624244c76)",),
)

VIEW_STRIDE = Curated(
    repo=TORCH,
    path="aten/src/ATen/native/TensorShape.cpp",
    line=1,
    revision=TAG,
    error_class="RuntimeError",
    template="view size is not compatible with input tensor's size and stride (at least one"
    " dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
    error_type="runtime",
    documentation="view() cannot give the shape asked for without copying, because the"
    " tensor is not contiguous (it was transposed, permuted, sliced or expanded). The"
    " code calling view() assumed a layout another operation changed: in an engine, a"
    " kernel or backend that returns a non-contiguous output where the model code"
    " expects a contiguous one.",
    solutions=(
        "In your own code, call .reshape(...) or .contiguous().view(...) instead of .view()",
        "Inside the engine, switch the backend that produced the tensor: --attention-backend"
        " (another attention kernel) and, on sglang, --disable-cuda-graph to rule out a"
        " captured layout; then report the model and flags to the engine",
        "Upgrade the engine (pip install -U vllm, pip install -U 'sglang[all]'); such"
        " view() calls are fixed model by model",
    ),
    example_fix="y = x.transpose(1, 2).view(b, -1)      # fails\n"
    "y = x.transpose(1, 2).reshape(b, -1)   # copies when it must",
    tags=_CHECK,
    references=("pytorch aten/src/ATen/native/TensorShape.cpp view_impl (computeStride)",),
)

CAT = Curated(
    repo=TORCH,
    path="aten/src/ATen/native/TensorShape.cpp",
    line=1,
    revision=TAG,
    error_class="RuntimeError",
    template="Sizes of tensors must match except in dimension {dim}. Expected size {expected}"
    " but got size {got} for tensor number {index} in the list.",
    error_type="configuration",
    documentation="torch.cat (or stack) got tensors that differ in a dimension other than"
    " the one joined. In an engine it is usually a speculative-decoding draft step (EAGLE"
    " and MTP heads concatenate the target's hidden states with their own embeddings) or"
    " a multimodal merge, fed tensors of another batch or token count than it expects."
    + _SHAPE_CAUSE,
    solutions=(
        "Serve without speculative decoding to confirm (drop --speculative-algorithm on"
        " sglang, --speculative-config on vllm); then use a draft model trained for this"
        " target and the engine release its card names",
        *_SHAPE_SOLUTIONS[:1],
    ),
    example_fix="# confirm the draft model is the cause\npython -m sglang.launch_server"
    " --model-path M  # without --speculative-algorithm EAGLE3",
    tags=_CHECK,
    references=("pytorch aten/src/ATen/native/TensorShape.cpp check_cat_shape_except_dim",),
)

SCALAR_TYPE = Curated(
    repo=TORCH,
    path="aten/src/ATen/templates/TensorMethods.cpp",
    line=1,
    revision=TAG,
    error_class="RuntimeError",
    template="expected scalar type {expected} but found {found}",
    error_type="configuration",
    documentation="A kernel read a tensor as one dtype (the first name) but the tensor is"
    " another (the second): mixed precision where an operator needs one dtype, e.g."
    " half-precision weights with float32 activations, or the reverse. It comes from"
    " code that runs outside autocast, or a layer cast separately from the rest.",
    solutions=(
        "Run the model in one dtype: serve with --dtype float16 or --dtype bfloat16"
        " (both engines), or cast the module with model.to(torch.bfloat16)",
        "Training: wrap the forward in torch.autocast('cuda', dtype=torch.bfloat16), or"
        " set bf16=True (not fp16=True with a bfloat16 checkpoint) in TrainingArguments",
    ),
    example_fix="with torch.autocast('cuda', dtype=torch.bfloat16):\n    loss = model(**batch).loss",
    tags=_CHECK,
    references=(
        "pytorch aten/src/ATen/templates/TensorMethods.cpp (data_ptr<T> dtype check)",
        "mymusise/ChatGLM-Tuning#200 (Half against Float while fine-tuning)",
    ),
)

INDEX_SELF = Curated(
    repo=TORCH,
    path="aten/src/ATen/native/TensorAdvancedIndexing.cpp",
    line=1,
    revision=TAG,
    error_class="IndexError",
    template="index out of range in self",
    error_type="data",
    documentation="index_select (behind nn.Embedding on the CPU) got an index at or past"
    " the table's size: a token id not below the embedding's vocab size, or a position"
    " id past the position table. The tokenizer and the model disagree (a tokenizer with"
    " added tokens, a model whose embeddings were not resized), or the input is longer"
    " than max_position_embeddings. On a GPU the same fault shows as a device-side"
    " assert instead.",
    solutions=(
        "Make the tokenizer and the model agree: after adding tokens call"
        " model.resize_token_embeddings(len(tokenizer)); serve with the tokenizer the"
        " model was trained with (vllm --tokenizer; sglang --tokenizer-path)",
        "Keep inputs within the model's positions: truncate to max_position_embeddings,"
        " or serve with --max-model-len (vllm) / --context-length (sglang) no larger",
    ),
    example_fix="tokenizer.add_special_tokens({'pad_token': '[PAD]'})\n"
    "model.resize_token_embeddings(len(tokenizer))",
    tags=("errcat:native:torch-check", "cpp:TORCH_CHECK_INDEX", _RUNTIME_BASE, _HIDDEN),
    references=("pytorch aten/src/ATen/native/TensorAdvancedIndexing.cpp index_select_out_cpu_",),
)

MULTINOMIAL = Curated(
    repo=TORCH,
    path="aten/src/ATen/native/Distributions.cpp",
    line=1,
    revision=TAG,
    error_class="RuntimeError",
    template="probability tensor contains either `inf`, `nan` or element < 0",
    error_type="runtime",
    documentation="torch.multinomial, which samples the next token, got probabilities"
    " with inf or NaN: the model's logits overflowed. Almost always half precision: a"
    " model trained in bfloat16 run in float16 overflows its activations (large models,"
    " long contexts); a broken quantization or a model with NaN weights does the same."
    " Tiny temperatures or top_p (0.0001) push the softmax to inf as well.",
    trigger="--dtype float16 (or auto on an old GPU without bfloat16) with a bfloat16"
    " checkpoint; temperature or top_p near 0 on engines that sample with multinomial",
    solutions=(
        "Serve in the dtype the model was trained in: --dtype bfloat16 (both engines); on"
        " GPUs without bfloat16 (V100, T4) use --dtype float32 for models that overflow"
        " in float16",
        "For greedy output use temperature 0 (the engines switch to argmax) rather than"
        " a tiny temperature or top_p such as 0.0001",
        "If it persists in bfloat16, check the checkpoint for NaN weights or a broken"
        " quantization (serve the unquantized model to compare)",
    ),
    example_fix="vllm serve M --dtype bfloat16\n# and in requests: temperature 0 rather than 1e-4",
    tags=_CHECK,
    references=(
        "pytorch aten/src/ATen/native/Distributions.cpp multinomial",
        "casper-hansen/AutoAWQ#252 (Falcon 7B AWQ under vLLM)",
    ),
)

ZIP_ARCHIVE = Curated(
    repo=TORCH,
    path="caffe2/serialize/inline_container.cc",
    line=1,
    revision=TAG,
    error_class="RuntimeError",
    template="PytorchStreamReader failed reading zip archive: {reason}",
    error_type="data",
    documentation="torch.load opened a file saved by torch.save (a zip archive since torch"
    " 1.6) and could not read it: 'failed finding central directory' means the file is"
    " cut short or is not a zip at all. A download that stopped part-way, a git"
    " clone that left Git LFS pointer files instead of the weights, a disk that filled"
    " while saving, or a .bin of another format.",
    solutions=(
        "Check the file's size against the one on the hub; a file of about 130 bytes is a"
        " Git LFS pointer (run git lfs pull in the clone)",
        "Delete the partial file and download again: huggingface-cli download <repo>"
        " --local-dir <dir> (or remove the model's folder under ~/.cache/huggingface/hub)",
        "Prefer safetensors weights where the model has them (vllm and sglang load"
        " *.safetensors first: --load-format safetensors)",
    ),
    example_fix="rm -rf ~/.cache/huggingface/hub/models--org--name\n"
    "huggingface-cli download org/name",
    tags=_CHECK,
    references=("pytorch caffe2/serialize/inline_container.cc PytorchStreamReader::valid",),
)

_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors"
    " after they have already been freed). Saved intermediate values of the graph are"
    " freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you"
    " need to backward through the graph a second time or if you need to access saved"
    " tensors after calling backward."
)

BACKWARD_TWICE = Curated(
    repo=TORCH,
    path="torch/csrc/autograd/saved_variable.cpp",
    line=1,
    revision=SAVED_VARIABLE_SHA,
    error_class="RuntimeError",
    template=_BACKWARD,
    error_type="runtime",
    documentation="backward() reached a part of the graph whose saved tensors the previous"
    " backward() freed: a tensor from an earlier step (a loss, a hidden state, a cached"
    " log-prob) is reused in the next step's graph. In RL and distillation trainers it is"
    " typically a reference or old-policy output computed with grad and kept across"
    " steps; retain_graph=True only hides that.",
    solutions=(
        "Detach what you keep between steps: store old_logprobs.detach() (or compute it"
        " under torch.no_grad()) rather than the tensor with its graph",
        "Call backward() once per forward: sum the losses and backward the sum, instead of"
        " two backward() calls over a shared part",
        "Only if two passes over one graph are intended, pass retain_graph=True to the"
        " first backward()",
    ),
    example_fix="with torch.no_grad():\n    ref_logprobs = ref_model(**batch).logits.log_softmax(-1)",
    tags=_CHECK,
    references=(
        "pytorch torch/csrc/autograd/saved_variable.cpp SavedVariable::unpack,"
        " ERR_BACKWARD_TWICE (42bb714738bb)",
    ),
)

INPLACE_VERSION = Curated(
    repo=TORCH,
    path="torch/csrc/autograd/saved_variable.cpp",
    line=1,
    revision=SAVED_VARIABLE_SHA,
    error_class="RuntimeError",
    template="one of the variables needed for gradient computation has been modified by an"
    " inplace operation: [{tensor}]{output_of} is at version {version}; expected version"
    " {saved} instead.{hint}",
    pattern=r"one of the variables needed for gradient computation has been modified by an"
    r" inplace operation: \[(.+?)\]((?:, which is output .+? of .+?,)?) is at version"
    r" (.+?); expected version (.+?) instead\.(.*)",
    error_type="runtime",
    documentation="A tensor autograd saved for the backward pass was changed in place"
    " (x += ..., x.add_(), relu(inplace=True), an index assignment, a kernel writing into"
    " its input) before backward() ran, so the gradient would be wrong. The message names"
    " the tensor's dtype and shape and the function it is an output of.",
    solutions=(
        "Rerun with torch.autograd.set_detect_anomaly(True): the error then shows the"
        " forward line whose result was modified",
        "Replace the in-place operation by its out-of-place form (x = x + y, nn.ReLU()"
        " without inplace=True, x = x.clone() before writing into it)",
        "In trainers, do not write into model outputs or cached tensors that a later loss"
        " still uses (clone them first)",
    ),
    example_fix="h = h + residual        # not h += residual",
    tags=_CHECK,
    references=(
        "pytorch torch/csrc/autograd/saved_variable.cpp SavedVariable::unpack (42bb714738bb)",
    ),
)

NO_GRAD_FN = Curated(
    repo=TORCH,
    path="torch/csrc/autograd/python_engine.cpp",
    line=1,
    revision=TAG,
    error_class="RuntimeError",
    template="element {index} of tensors does not require grad and does not have a grad_fn",
    error_type="configuration",
    documentation="backward() was called on a loss that autograd did not record: nothing in"
    " its computation required grad. With gradient checkpointing on a model whose"
    " embeddings are frozen (LoRA, PEFT), the checkpointed blocks see inputs without"
    " grad and record nothing; also a loss computed under torch.no_grad() or"
    " inference_mode, or from a model with every parameter frozen.",
    solutions=(
        "With gradient checkpointing and LoRA, make the inputs require grad:"
        " model.enable_input_require_grads(), or set gradient_checkpointing_kwargs="
        "{'use_reentrant': False} in TrainingArguments",
        "Check that some parameters are trainable (sum(p.requires_grad for p in"
        " model.parameters()) > 0) and that the loss is not computed under torch.no_grad()",
    ),
    example_fix="args = TrainingArguments(..., gradient_checkpointing=True,\n"
    "    gradient_checkpointing_kwargs={'use_reentrant': False})",
    tags=_CHECK,
    references=("pytorch torch/csrc/autograd/python_engine.cpp THPEngine_run_backward",),
)

INFERENCE_SAVED = Curated(
    repo=TORCH,
    path="torch/csrc/autograd/saved_variable.cpp",
    line=1,
    revision=SAVED_VARIABLE_SHA,
    error_class="RuntimeError",
    template="Inference tensors cannot be saved for backward. To work around you can make a"
    " clone to get a normal tensor and use it in autograd.",
    error_type="runtime",
    documentation="A tensor created under torch.inference_mode() was used in a computation"
    " that autograd records. Generation code (vllm's and sglang's engines, transformers"
    " generate) runs in inference mode, so its outputs (token ids, log-probs, cached"
    " tensors) cannot enter a training graph directly; RL trainers that reuse rollout"
    " tensors in the loss hit this.",
    solutions=(
        "Clone the tensor outside inference mode before it enters the loss:"
        " ids = ids.clone() (a clone made in normal mode is an ordinary tensor)",
        "Compute the training forward pass outside torch.inference_mode() (use"
        " torch.no_grad() for rollouts whose outputs you later train on)",
    ),
    example_fix="rollout_ids = rollout_ids.clone()  # outside torch.inference_mode()",
    tags=_CHECK,
    references=("pytorch torch/csrc/autograd/saved_variable.cpp SavedVariable::SavedVariable",),
)

#: vllm's commit of April 2025 whose CPU cache kernels the record reads (issue 17225's).
VLLM_CPU_CACHE_SHA = "3642c59aa8a52d5565cdb070b06b8ed3a3f62303"

VLLM_CPU_CACHE = Curated(
    repo="vllm-project/vllm",
    path="csrc/cpu/cache.cpp",
    line=168,
    revision=VLLM_CPU_CACHE_SHA,
    error_class="NotImplementedError",
    template="\"{kernel}_cpu_impl\" not implemented for '{dtype}'",
    error_type="configuration",
    documentation="vllm's CPU backend has no kernel of its KV-cache operations for this"
    " dtype: csrc/cpu/cache.cpp dispatches copy_blocks_cpu_impl,"
    " reshape_and_cache_cpu_impl and concat_and_cache_mla_cpu_impl through torch's"
    " AT_DISPATCH switch, and on x86 that switch (VLLM_DISPATCH_FLOATING_TYPES_WITH_E5M2)"
    " lists float32, bfloat16 and float8_e5m2 only, so a model served in float16 fails on"
    " its first request. The message is torch's dispatch error; the missing case is"
    " vllm's. torch 2.14 raises it as NotImplementedError, 2.7 and older as RuntimeError.",
    trigger="vllm built for the CPU (VLLM_TARGET_DEVICE=cpu) serving a float16 checkpoint"
    " with --dtype auto or --dtype float16",
    solutions=(
        "Serve in bfloat16 on the CPU: --dtype bfloat16 (or --dtype float32 on CPUs"
        " without AVX512-BF16)",
        "Size the CPU KV cache with VLLM_CPU_KVCACHE_SPACE (GiB, e.g."
        " VLLM_CPU_KVCACHE_SPACE=8) rather than changing the dtype of the cache",
    ),
    example_fix="# before\nvllm serve facebook/opt-125m\n# after (x86 CPU backend)\n"
    "vllm serve facebook/opt-125m --dtype bfloat16",
    tags=("errcat:native:torch-check", "cpp:AT_DISPATCH", _RUNTIME_BASE, _HIDDEN),
    references=(
        "vllm csrc/cpu/cache.cpp (DISPATCH_MACRO, lines 6-10 and 168) and"
        " csrc/cpu/cpu_types_x86.hpp (VLLM_DISPATCH_CASE_FLOATING_TYPES_FP8) at 3642c59aa8a5",
    ),
)

#: Every hand-written record of the group, in the order of the module.
RECORDS: tuple[Curated, ...] = (
    DISPATCH,
    INFER_SIZE,
    MM_SHAPES,
    MM_DTYPE,
    DEVICE_OLD,
    DEVICE_NEW,
    BROADCAST,
    EXPAND,
    VIEW_STRIDE,
    CAT,
    SCALAR_TYPE,
    INDEX_SELF,
    MULTINOMIAL,
    ZIP_ARCHIVE,
    BACKWARD_TWICE,
    INPLACE_VERSION,
    NO_GRAD_FN,
    INFERENCE_SAVED,
    VLLM_CPU_CACHE,
)
