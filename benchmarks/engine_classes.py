"""List the torch-module classes only an engine defines, for frameless attribute errors.

Run with ``python benchmarks/engine_classes.py SGLANG_WHEEL VLLM_WHEEL TRANSFORMERS_WHEEL``
(the wheels as ``pip download --no-deps --only-binary :all: sglang==0.5.23``,
``vllm==0.33.0`` and the ``transformers`` release they pin fetch them). It reads the
Python files straight from the wheels, without importing them, and writes
``src/errcat/_engine_classes.json.gz``, read by :mod:`errcat.matcher.engine_class`:
``{"sources": [...], "engines": {"sgl-project/sglang": [...], "vllm-project/vllm": [...]}}``.

A class is listed for an engine when the engine's package defines it (a ``class``
statement anywhere in it), it is named as torch modules are
(:data:`errcat.matcher.module_attr.MODULE_CLASS`), and neither transformers nor
torch's ``nn`` defines a class of that name: then a frameless
``'Glm4MoeSparseMoeBlock' object has no attribute '_enable_a2a_moe'`` was
printed for a module of that engine's code. A class both engines define stays in
both lists (the matcher then asks which engine the paste names).

>>> sorted(class_names({"p/a.py": "class LlamaBlock(nn.Module):\\n    class InnerMLP: ...\\n"}))
['InnerMLP', 'LlamaBlock']
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from errcat.matcher.module_attr import MODULE_CLASS

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "errcat" / "_engine_classes.json.gz"
_CLASS = re.compile(r"^[ \t]*class[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
#: torch.nn's own module classes of these shapes (torch's wheel is not read: too large).
TORCH_NN = frozenset(
    {
        "Linear",
        "LazyLinear",
        "Bilinear",
        "NonDynamicallyQuantizableLinear",
        "Embedding",
        "EmbeddingBag",
        "LayerNorm",
        "GroupNorm",
        "RMSNorm",
        "LocalResponseNorm",
        "CrossMapLRN2d",
        "MultiheadAttention",
        "TransformerEncoderLayer",
        "TransformerDecoderLayer",
        "ModuleList",
        "ModuleDict",
        "Sequential",
        "ParameterList",
    }
)
#: Each engine: (its repository, its package in the wheel).
ENGINES = (("sgl-project/sglang", "sglang"), ("vllm-project/vllm", "vllm"))


def _python_files(wheel: Path, package: str) -> dict[str, str]:
    """Each ``.py`` file of ``package`` in the wheel: its path and its text."""
    with zipfile.ZipFile(wheel) as zf:
        return {
            name: zf.read(name).decode("utf-8", errors="replace")
            for name in sorted(zf.namelist())
            if name.startswith(f"{package}/") and name.endswith(".py")
        }


def class_names(files: Mapping[str, str]) -> set[str]:
    """The names of every class the files define that are named as torch modules are."""
    return {
        name
        for text in files.values()
        for name in _CLASS.findall(text)
        if MODULE_CLASS.fullmatch(name)
    }


def engine_only(engine: Iterable[str], others: Iterable[str]) -> list[str]:
    """The engine's names no other package defines, sorted.

    >>> engine_only(["Glm4MoeSparseMoeBlock", "Qwen3ForCausalLM", "Linear"], ["Qwen3ForCausalLM"])
    ['Glm4MoeSparseMoeBlock']
    """
    return sorted(set(engine) - set(others) - TORCH_NN)


def _source(wheel: Path) -> str:
    dist, version = wheel.name.split("-")[:2]
    return f"{dist}=={version}"


def main(argv: list[str] | None = None) -> int:
    """Write each engine's own module classes (gzip, no name, mtime 0: reproducible)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("sglang_wheel", type=Path)
    parser.add_argument("vllm_wheel", type=Path)
    parser.add_argument("transformers_wheel", type=Path)
    parser.add_argument("-o", "--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    others = class_names(_python_files(args.transformers_wheel, "transformers"))
    wheels = (args.sglang_wheel, args.vllm_wheel)
    engines = {
        repo: engine_only(class_names(_python_files(wheel, package)), others)
        for (repo, package), wheel in zip(ENGINES, wheels, strict=True)
    }
    data = {
        "sources": [_source(w) for w in (*wheels, args.transformers_wheel)],
        "engines": engines,
    }
    raw = json.dumps(data, indent=0, sort_keys=True).encode("utf-8")
    args.out.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
    for repo, names in engines.items():
        print(f"{repo}: {len(names)} module classes of its own")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
