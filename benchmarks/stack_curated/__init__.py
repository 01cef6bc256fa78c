"""Hand-written records of the stack's data packages, by group, for ``build_stack.py``.

``SOURCES.json`` names a package's groups under ``curated``; :func:`curated`
returns their envelopes. Groups: ``argparse`` (command-line errors),
``symbols`` (``undefined symbol`` by whose symbol), ``loader`` (the dynamic loader's
missing shared library and too-old glibc or libstdc++), ``kernels`` (flashinfer's and DeepEP's most pasted C++
errors), ``torch-native`` (torch's most pasted ATen, c10 and autograd C++ errors), ``torch-runtime``
(torch's C++ errors before a model runs: no NVIDIA driver, a TCPStore that cannot be reached), ``torch-compile`` (Dynamo's fake-tensor
run of an op failing under torch.compile), ``trl-server`` (trl's
vLLM client answered 404 by a server without its routes), ``pydantic-core`` (the
validation error types, read from a pydantic-core git mirror at the commit
``spec["pydanticCore"]`` pins; mirrors sit at ``<mirrors>/<owner>+<name>/repo``),
``ray-errors`` (ray's dead-actor and dead-worker exceptions, whose text the
exception class writes), ``ports`` (a port another process holds: pyzmq's, asyncio's
and the socket's ``Address already in use``), ``safetensors`` (a weight shard that is
not, or not all, a safetensors file), ``tokenizers`` (a ``tokenizer.json`` the installed
tokenizers cannot read), ``ray-core`` (the texts Ray's C++ core writes: the memory
monitor's kill, ``ray.get`` timing out), ``ray-raylet`` (the lines Ray's C++ daemons print: a dead
worker, the memory monitor's kills, an unreachable GCS, a full disk), ``ray-options`` (a
resource quantity Ray's option validators refuse: finer than 0.0001, negative), ``chat-templates`` (the models' own chat-template
refusals: no system role, roles that must alternate), ``jinja-undefined`` (Jinja's
``UndefinedError``: a chat template reading a variable, key or index the request lacks),
``triton-driver`` (Triton's CUDA
driver errors), ``triton-compile`` (Triton's ``CompilationError``: a kernel it could not
compile), ``transformers-tokenizer`` (a tokenizer refusing an attribute its caller,
written for another transformers, reads), ``harmony`` (openai-harmony's Rust parser refusing
gpt-oss output), ``compiled-texts`` (compiled extensions' texts whose cause their words
do not say: msgspec's keyword refusal, harmony's vocabulary download, serde_json's syntax
errors in a ``tokenizer.json``), ``mooncake`` (the RDMA errors Mooncake's transfer engine logs in PD
disaggregation), ``openai-client`` (the openai client's ``Connection error.``: no answer
from the server at ``base_url``), ``nvcc`` (the CUDA compiler refusing an architecture
its release does not know, in flashinfer's JIT or a source build), ``dynamo-graph-breaks``
(torch.compile's graph-break types, read from the registry of the torch wheel
``spec["dynamoRegistry"]`` names, found in the wheel cache).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from errcat.models import RecordEnvelope
from stack_closure import DEFAULT_CACHE
from stack_curated import (
    argparse_errors,
    chat_templates,
    compiled_texts,
    dynamo_graph_breaks,
    harmony,
    jinja_undefined,
    kernels,
    loader,
    mooncake,
    nvcc,
    openai_client,
    ports,
    pydantic_errors,
    ray_core,
    ray_errors,
    ray_options,
    ray_raylet,
    safetensors_errors,
    symbols,
    tokenizers_errors,
    torch_compile,
    torch_native,
    torch_runtime,
    transformers_tokenizer,
    triton_compile,
    triton_driver,
    trl_server,
)
from stack_curated.spec import CURATED_TAG, Curated

__all__ = ["CURATED_TAG", "MIRRORS", "curated"]


#: Where the git mirrors are unless told (``build_stack.py --mirrors``).
MIRRORS = Path("/work/.mirror")


def curated(
    groups: Sequence[str],
    spec: dict[str, Any],
    mirrors: Path = MIRRORS,
    cache: Path = DEFAULT_CACHE,
) -> list[RecordEnvelope]:
    """The envelopes of the groups named (an unknown name stops the build)."""
    out: list[Curated] = []
    for group in groups:
        if group == "argparse":
            out += argparse_errors.RECORDS
        elif group == "symbols":
            out += symbols.RECORDS
        elif group == "loader":
            out += loader.RECORDS
        elif group == "kernels":
            out += kernels.RECORDS
        elif group == "torch-native":
            out += torch_native.RECORDS
        elif group == "torch-runtime":
            out += torch_runtime.RECORDS
        elif group == "torch-compile":
            out += torch_compile.RECORDS
        elif group == "trl-server":
            out += trl_server.RECORDS
        elif group == "ray-errors":
            out += ray_errors.RECORDS
        elif group == "ports":
            out += ports.RECORDS
        elif group == "openai-client":
            out += openai_client.RECORDS
        elif group == "nvcc":
            out += nvcc.RECORDS
        elif group == "safetensors":
            out += safetensors_errors.RECORDS
        elif group == "tokenizers":
            out += tokenizers_errors.RECORDS
        elif group == "transformers-tokenizer":
            out += transformers_tokenizer.RECORDS
        elif group == "ray-core":
            out += ray_core.RECORDS
        elif group == "ray-raylet":
            out += ray_raylet.RECORDS
        elif group == "ray-options":
            out += ray_options.RECORDS
        elif group == "chat-templates":
            out += chat_templates.RECORDS
        elif group == "jinja-undefined":
            out += jinja_undefined.RECORDS
        elif group == "harmony":
            out += harmony.RECORDS
        elif group == "compiled-texts":
            out += compiled_texts.RECORDS
        elif group == "mooncake":
            out += mooncake.RECORDS
        elif group == "triton-driver":
            out += triton_driver.RECORDS
        elif group == "triton-compile":
            out += triton_compile.RECORDS
        elif group == "pydantic-core":
            source = spec["pydanticCore"]
            mirror = mirrors / source["repo"].replace("/", "+") / "repo"
            out += pydantic_errors.records(mirror, source["commit"])
        elif group == "dynamo-graph-breaks":
            wheel = spec["dynamoRegistry"]
            found = sorted(cache.glob(f"{wheel['dist']}-{wheel['version']}-*.whl"))
            if not found:
                raise SystemExit(
                    f"{spec['name']}: no {wheel['dist']} {wheel['version']} wheel in {cache}"
                )
            out += dynamo_graph_breaks.records(found[0], wheel["tag"])
        else:
            raise SystemExit(f"{spec['name']}: unknown curated group {group!r}")
    return [c.envelope() for c in out]
