"""torch.compile's errors whose text the miner cannot read from a ``raise``.

Dynamo runs every op of the graph it traces on fake tensors (shapes, dtypes and
devices without data) to learn its output. When the op raises, ``run_node`` re-raises
``RuntimeError(make_error_message(e))``, a message a nested helper builds (``Dynamo
failed to run FX node with fake tensors: <op> <target>(*<args>, **<kwargs>): got
<the op's error>``; the record's template calls the node's part ``{node}``), and Dynamo reports it as ``torch._dynamo.exc.TorchRuntimeError``.
The mined record of that raise is the bare call of the helper, so the text had no
record. Under vLLM (which compiles every model by default) and SGLang's
``--enable-torch-compile`` the op is in the model's forward: the error after ``got``
is the real fault, a shape, dtype or device mismatch that the same model would also hit
eagerly, or an op (a custom kernel) with no fake implementation.

Read in the torch 2.14.1 wheel (torch/_dynamo/utils.py: the helper at line 4405, the
raise at line 4470). Threads learned from (even-numbered): vllm-project/vllm#38884
(Gemma 4 under vLLM's compile, in benchmarks/data/study_stack.jsonl),
vllm-project/vllm#31046 (a model's forward fixed in vLLM so that Dynamo's fake run
passes), vllm-project/vllm#12340 (vLLM's notes on torch.compile errors: run without
compilation to tell a compile fault from a model fault).

>>> import regex
>>> pattern = FAKE_TENSOR_RUN.envelope().record.message_pattern
>>> bool(
...     regex.fullmatch(
...         pattern,
...         "Dynamo failed to run FX node with fake tensors: call_function <built-in function"
...         " mul>(*(FakeTensor(..., size=(2, 3)), FakeTensor(..., size=(4,))), **{}): got"
...         " RuntimeError('The size of tensor a (3) must match the size of tensor b (4)')",
...     )
... )
True
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = ["FAKE_TENSOR_RUN", "RECORDS"]

FAKE_TENSOR_RUN = Curated(
    repo="pytorch/pytorch",
    path="torch/_dynamo/utils.py",
    line=4470,
    revision="v2.14.1",
    error_class="torch._dynamo.exc.TorchRuntimeError",
    template="Dynamo failed to run FX node with fake tensors: {node}: got {error}",
    pattern=r"Dynamo failed to run FX node with fake tensors(?:: (.+?): got (.+?))?",
    error_type="runtime",
    documentation="torch.compile's tracer (Dynamo) ran one op of the model on fake"
    " tensors and the op raised: the text after 'got' is that op's own error. A shape,"
    " dtype or device mismatch there is a fault of the model code or its inputs (the same"
    " model fails eagerly, or only at the shapes the compiler traces); an error about a"
    " missing fake or meta implementation names a custom op that cannot be compiled. The"
    " engines compile the model at startup (vLLM by default, SGLang with"
    " --enable-torch-compile), so the error stops the server before it serves.",
    solutions=(
        "Run once without compilation to tell a compile fault from a model fault: vllm"
        " serve M --enforce-eager (or -O0), sglang without --enable-torch-compile",
        "If the model also fails eagerly, fix the inputs the op names after 'got' (the"
        " dtype, shape or device of the tensors), or upgrade the engine to a release that"
        " supports the model (pip install -U vllm)",
        "If only the compiled run fails, keep serving eagerly and report the op and the"
        " shapes after 'got' to the engine, with TORCH_LOGS=+dynamo output",
    ),
    example_fix="# before\nvllm serve google/gemma-4-...  # TorchRuntimeError: Dynamo failed"
    " to run FX node\n# after\nvllm serve google/gemma-4-... --enforce-eager",
    trigger="A model whose forward raises for the shapes, dtypes or devices Dynamo traces"
    " with, under torch.compile.",
    tags=("torch", "torch.compile", "dynamo"),
    references=(
        "https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html",
        "https://github.com/vllm-project/vllm/issues/38884",
        "https://github.com/vllm-project/vllm/pull/31046",
        "https://github.com/vllm-project/vllm/pull/12340",
    ),
)

RECORDS = (FAKE_TENSOR_RUN,)
