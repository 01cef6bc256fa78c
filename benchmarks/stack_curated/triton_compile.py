r"""Triton's ``CompilationError`` (``at <line>:<column>:``, the kernel's source, then the cause)
and ``PassManager::run failed``, an MLIR pass pipeline of its compiler failing.

Triton's code generator wraps any error raised while it lowers a ``@triton.jit``
kernel into ``CompilationError``, whose text ``_format_message`` builds: the node's
line and column in the kernel (``at 152:12:``), up to twelve source lines ending at
that line with a caret under the column, and the cause's own text. The miner reads
the ``raise`` statements, whose message is the method call
(``{self._format_message()}``): a template with no words, so pastes of it under the
engines (vLLM's and sglang's Triton attention, MoE and sampling kernels, inductor's
generated kernels) got no record. The kernel and its cause differ every time; what is
common is where to look (the line after the caret) and what to change: a kernel
written for another Triton release, another GPU backend or another head layout.

Read in the triton 3.9.0 wheel (``triton/compiler/errors.py``, ``CompilationError``).
Thread learned from (even-numbered, in benchmarks/data/study_stack.jsonl):
vllm-project/vllm#40966 (a ROCm MLA decode kernel whose shapes did not hold with
tensor parallelism above 1; vLLM's fix changed the kernel).

>>> import regex
>>> pattern = COMPILATION.envelope().record.message_pattern
>>> bool(regex.fullmatch(pattern, "at 152:12:"))
True
>>> bool(regex.fullmatch(pattern, "at 22:25:\n    x = tl.dot(a, b)\n        ^\nAssertionError()"))
True
>>> bool(regex.fullmatch(pattern, "look at 22:25: the log"))
False

Past the code generator, Triton lowers the kernel through MLIR pass pipelines
(``make_ttir``, ``make_ttgir``, ``make_llir`` of its backend's ``compiler.py``), each
run by the compiled binding ``pass_manager.run`` (``python/src/ir.cc``), which throws
``std::runtime_error("PassManager::run failed")`` when a pass fails: a ``RuntimeError``
whose text the miner cannot read (it is in C++), raised at the stage's ``pm.run`` call.
The pass that failed is named on stderr just above (``Pipeline failed while executing
[...]``). Read in the triton 3.9.0 wheel (``triton/backends/nvidia/compiler.py``, the
``make_ttgir`` call at line 384; the repository keeps it at
``third_party/nvidia/backend/compiler.py``; the string is in ``triton/_C/libtriton.so``,
as are the ``TRITON_REPRODUCER_PATH`` and ``MLIR_ENABLE_DIAGNOSTICS`` switches it reads).
Thread learned from (even-numbered, in benchmarks/data/study_stack.jsonl):
pytorch/pytorch#180908 (vLLM's penalties kernel failing in ``make_ttgir`` under a new
Triton release).

>>> pattern = PASS_MANAGER.envelope().record.message_pattern
>>> bool(regex.fullmatch(pattern, "PassManager::run failed"))
True
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = ["COMPILATION", "PASS_MANAGER", "RECORDS"]

COMPILATION = Curated(
    repo="triton-lang/triton",
    path="python/triton/compiler/errors.py",
    line=6,
    revision="v3.9.0",
    error_class="triton.compiler.errors.CompilationError",
    template="at {lineno}:{col_offset}:",
    pattern=r"at (\d+):(\d+):(?s:\s.*)?",
    error_type="runtime",
    documentation="Triton could not compile one of the engine's kernels. The numbers are the"
    " line and column inside the @triton.jit function (not the Python file), the lines"
    " below them are the kernel's source ending at that line with a caret under the"
    " column, and the last lines give the cause (an assertion on shapes or dtypes, a"
    " value that must be a constexpr or a power of two, an op the backend lacks). Under"
    " vLLM and sglang the kernel is the engine's own (attention, MoE, sampling) or"
    " inductor's, and the cause is usually a combination it was not written for: a"
    " Triton release other than the one the engine's torch pins, another GPU backend"
    " (ROCm, an older NVIDIA architecture), or a model shape (head size, tensor-parallel"
    " split) the kernel's asserts reject.",
    solutions=(
        "Read the line after the caret: it names the failed rule and the kernel; if it"
        " names a shape or head size, the model/parallelism pairing is the trigger (try"
        " another --tensor-parallel-size, or the engine's other attention backend: vLLM"
        " --attention-backend FLASH_ATTN or TRITON_ATTN, sglang --attention-backend"
        " flashinfer or triton)",
        "Install the Triton release your torch pins (pip show torch names it; torch 2.14"
        " pairs with triton 3.9.0: pip install 'triton==3.9.0'), and on ROCm the triton of"
        " the ROCm image the engine ships",
        "If the kernel is inductor's (a triton_poi_/triton_red_ name), serve without"
        " torch.compile to confirm: vLLM --enforce-eager, sglang without"
        " --enable-torch-compile",
        "Upgrade the engine when the thread shows the kernel was fixed upstream",
    ),
    example_fix="# before\nvllm serve M --tensor-parallel-size 2  # CompilationError at"
    " 152:12 in the MLA decode kernel\n# after: another backend while the kernel is fixed\n"
    "vllm serve M --tensor-parallel-size 2 --attention-backend TRITON_ATTN",
    trigger="The first call of a Triton kernel with a new set of constexpr values, shapes or"
    " dtypes, or on a new GPU backend.",
    tags=("triton", "compile"),
    references=(
        "https://triton-lang.org/main/programming-guide/chapter-1/introduction.html",
        "https://github.com/vllm-project/vllm/issues/40966",
    ),
)

PASS_MANAGER = Curated(
    repo="triton-lang/triton",
    path="third_party/nvidia/backend/compiler.py",
    line=384,
    revision="v3.9.0",
    error_class="RuntimeError",
    template="PassManager::run failed",
    error_type="runtime",
    documentation="One of Triton's MLIR pass pipelines failed while lowering a kernel"
    " (make_ttir, make_ttgir or make_llir: the stage is the function of the last"
    " triton/backends/.../compiler.py frame). The pass that failed is printed on stderr just"
    " above ('Pipeline failed while executing [`<Pass>` on 'builtin.module' operation]'),"
    " often with an 'error:' line at the kernel's source line. Under vLLM and sglang the"
    " kernel is the engine's own (sampling, MoE, attention) or one inductor generated under"
    " torch.compile, and the usual cause is a pairing the kernel or the pass was not written"
    " for: a Triton release other than the one the engine's torch pins (a newer or a vendor"
    " build), a GPU the release does not handle well yet (a new NVIDIA architecture, ROCm),"
    " or a launch config (num_warps, num_stages, block sizes) the lowering rejects.",
    solutions=(
        "Install the Triton release your torch pins (pip show torch names it; torch 2.14"
        " pairs with triton 3.9.0: pip install 'triton==3.9.0'), or upgrade torch and the"
        " engine together (pip install -U vllm installs the torch and triton it was tested"
        " with)",
        "If the failing kernel is inductor's (a triton_poi_/triton_red_/triton_per_ name),"
        " serve without torch.compile: vLLM --enforce-eager, sglang without"
        " --enable-torch-compile",
        "If it is one of the engine's kernels, try the engine's other backend for that layer"
        " (vLLM --attention-backend FLASH_ATTN or TRITON_ATTN, sglang --attention-backend"
        " flashinfer or triton) and upgrade the engine when the thread shows a fix",
        "To report it, rerun with MLIR_ENABLE_DIAGNOSTICS=1 and"
        " TRITON_REPRODUCER_PATH=/tmp/triton_repro.mlir: the first prints the failing pass's"
        " diagnostics, the second writes a reproducer Triton's developers can run",
    ),
    example_fix="# before\nvllm serve M  # RuntimeError: PassManager::run failed (make_ttgir)\n"
    "# after: the triton that torch 2.14 pins\npip install 'triton==3.9.0'\nvllm serve M",
    trigger="The first call of a Triton kernel whose lowering hits a pass that fails for this"
    " Triton release, GPU or launch config.",
    tags=("triton", "compile"),
    references=(
        "https://triton-lang.org/main/programming-guide/chapter-3/debugging.html",
        "https://github.com/pytorch/pytorch/issues/180908",
    ),
)

RECORDS = (COMPILATION, PASS_MANAGER)
