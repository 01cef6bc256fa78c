"""List the command-line flags an sglang or vllm wheel defines, for the curated-records test.

Run with ``python benchmarks/engine_flags.py SGLANG_WHEEL VLLM_WHEEL [-o FILE]``
(the wheels as ``pip download --no-deps --only-binary :all: sglang==0.5.23``
and ``vllm==0.33.0`` fetch them). It reads the Python files straight from the
wheels, without importing them, and writes ``tests/fixtures/engine_flags.json``:
``{"sglang==0.5.23": ["--attention-backend", ...], "vllm==0.33.0": [...]}``.

Flags are found statically, the way each engine declares them:

- every string starting with ``--`` passed to an ``add_argument`` call, in both
  packages;
- sglang: every field of its ``arg_groups/fields`` namespaces annotated
  ``A[T, "help"]`` or ``A[T, Arg(...)]`` (named ``--field-name``, or its
  ``cli_name``, plus its ``aliases``), unless ``Arg(no_cli=True)``;
- vllm: every field of its frontend argument classes (``*FrontendArgs``), named
  ``--field-name``; and ``--no-X`` beside ``--X`` when the field behind ``--X``
  (in a frontend class or a ``vllm/config`` dataclass) is annotated ``bool``,
  since vllm registers booleans with ``argparse.BooleanOptionalAction``.

>>> sorted(
...     _sglang_fields('''
... class Memory:
...     disable_radix_cache: A[bool, Arg(help="x")] = False
...     _hidden: A[bool, Arg(no_cli=True)] = False
...     tp_size: A[int, Arg(cli_name="--tensor-parallel-size", aliases=["--tp"])] = 1
...     page_size: A[int, "help"] = 1
... ''')
... )
['--disable-radix-cache', '--page-size', '--tensor-parallel-size', '--tp']
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "tests" / "fixtures" / "engine_flags.json"


def _python_files(wheel: Path, package: str) -> Iterator[tuple[str, str]]:
    """Each ``.py`` file of ``package`` in the wheel: (its path, its text)."""
    with zipfile.ZipFile(wheel) as zf:
        for name in sorted(zf.namelist()):
            if name.startswith(f"{package}/") and name.endswith(".py"):
                yield name, zf.read(name).decode("utf-8", errors="replace")


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except SyntaxError:
        return None


def _add_argument_flags(tree: ast.Module) -> set[str]:
    """The ``--flag`` strings passed positionally to any ``add_argument`` call."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "add_argument"
        ):
            for arg in node.args:
                if (
                    isinstance(arg, ast.Constant)
                    and isinstance(arg.value, str)
                    and arg.value.startswith("--")
                ):
                    out.add(arg.value)
    return out


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def _sglang_fields(text: str) -> set[str]:
    """The flags of the ``A[T, ...]`` fields declared in one sglang namespace module."""
    tree = _parse(text)
    out: set[str] = set()
    if tree is None:
        return out
    for node in ast.walk(tree):
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        ann = node.annotation
        if not (
            isinstance(ann, ast.Subscript)
            and isinstance(ann.value, ast.Name)
            and ann.value.id == "A"
            and isinstance(ann.slice, ast.Tuple)
            and len(ann.slice.elts) == 2
        ):
            continue
        meta = ann.slice.elts[1]
        name = "--" + node.target.id.replace("_", "-")
        if isinstance(meta, ast.Constant) and isinstance(meta.value, str):
            out.add(name)
        elif (
            isinstance(meta, ast.Call) and isinstance(meta.func, ast.Name) and meta.func.id == "Arg"
        ):
            no_cli = _keyword(meta, "no_cli")
            if isinstance(no_cli, ast.Constant) and no_cli.value is True:
                continue
            cli_name = _keyword(meta, "cli_name")
            if isinstance(cli_name, ast.Constant) and isinstance(cli_name.value, str):
                name = cli_name.value
            out.add(name)
            aliases = _keyword(meta, "aliases")
            if isinstance(aliases, ast.List):
                out.update(
                    e.value
                    for e in aliases.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                )
    return out


def sglang_flags(wheel: Path) -> set[str]:
    """Every flag sglang's server-argument parser defines in this wheel."""
    out: set[str] = set()
    for name, text in _python_files(wheel, "sglang"):
        if "/arg_groups/fields/" in name:
            out |= _sglang_fields(text)
        elif name.endswith("srt/server_args.py"):
            tree = _parse(text)
            if tree is not None:
                out |= _add_argument_flags(tree)
    return out


def _dataclass_fields(tree: ast.Module, class_filter: re.Pattern[str] | None) -> dict[str, bool]:
    """Fields of the classes in ``tree`` (name -> annotated bool), optionally only some classes."""
    out: dict[str, bool] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        if class_filter is not None and not class_filter.search(node.name):
            continue
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                ann = ast.unparse(item.annotation)
                is_bool = re.fullmatch(r"bool|bool \| None|Optional\[bool\]", ann) is not None
                out[item.target.id] = out.get(item.target.id, False) or is_bool
    return out


def vllm_flags(wheel: Path) -> set[str]:
    """Every flag vllm's ``vllm serve`` parser defines in this wheel (engine and frontend)."""
    flags: set[str] = set()
    bools: dict[str, bool] = {}
    frontend = re.compile(r"FrontendArgs$")
    for name, text in _python_files(wheel, "vllm"):
        if "add_argument" not in text and "FrontendArgs" not in text and "/config/" not in name:
            continue
        tree = _parse(text)
        if tree is None:
            continue
        flags |= _add_argument_flags(tree)
        if "/config/" in name:
            for field, is_bool in _dataclass_fields(tree, None).items():
                bools[field] = bools.get(field, False) or is_bool
        if "FrontendArgs" in text:
            for field, is_bool in _dataclass_fields(tree, frontend).items():
                flags.add("--" + field.replace("_", "-"))
                bools[field] = bools.get(field, False) or is_bool
    for flag in list(flags):
        if bools.get(flag[2:].replace("-", "_")):
            flags.add("--no-" + flag[2:])
    return flags


def _version(wheel: Path) -> str:
    dist, version = wheel.name.split("-")[:2]
    return f"{dist}=={version}"


def main(argv: list[str] | None = None) -> int:
    """Write the flags of both wheels as sorted JSON lists."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sglang_wheel", type=Path)
    parser.add_argument("vllm_wheel", type=Path)
    parser.add_argument("-o", "--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    data = {
        _version(args.sglang_wheel): sorted(sglang_flags(args.sglang_wheel)),
        _version(args.vllm_wheel): sorted(vllm_flags(args.vllm_wheel)),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for key, values in data.items():
        print(f"{key}: {len(values)} flags")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
