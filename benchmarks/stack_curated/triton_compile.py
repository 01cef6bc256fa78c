r"""Triton's ``CompilationError``: ``at <line>:<column>:``, the kernel's source, then the cause.

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
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = ["COMPILATION", "RECORDS"]

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

RECORDS = (COMPILATION,)
