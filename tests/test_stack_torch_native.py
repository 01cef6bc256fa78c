"""torch's C++ messages in errcat-data-torch: the wheel's headers mined, the rest by hand.

The torch package mines the check macros of the C++ headers torch's wheel
ships (``SOURCES.json``: torch's ``native`` folders) and carries the
hand-written records of ``benchmarks/stack_curated/torch_native.py`` (the ATen,
c10 and autograd errors users paste most). These tests read the committed
package: its records answer real pastes' lines (census dev lines and
``real_pastes.jsonl`` only), hand-written advice names flags the engines define,
and a hand-written record replaces the mined one of its message.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from errcat import Catalog
from errcat.models import GENERATED_TAG

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stack_curated import torch_native  # noqa: E402
from stack_curated.spec import CURATED_TAG  # noqa: E402

PACKAGE = ROOT / "stack" / "packages" / "errcat-data-torch" / "src" / "errcat_data_torch"
CENSUS = ROOT / "benchmarks" / "data" / "stack_census.jsonl"
PASTES = ROOT / "benchmarks" / "data" / "real_pastes.jsonl"
NATIVE = "errcat:native:torch-check"


@cache
def _catalog() -> Catalog:
    """The bundled catalog with the committed torch package over it, as installed."""
    return Catalog.bundled().merge(Catalog.from_path(PACKAGE))


@cache
def _dev_census() -> dict[str, dict[str, object]]:
    """The census's dev lines by id (the held-out split is never read)."""
    out = {}
    for line in CENSUS.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if item.get("split") == "dev":
            out[str(item["id"])] = item
    return out


@cache
def _pastes() -> dict[str, str]:
    return {
        str(item["id"]): str(item["text"])
        for item in map(json.loads, PASTES.read_text(encoding="utf-8").splitlines())
    }


def _line(text: str, words: str) -> str:
    """The paste's line that holds ``words``."""
    return next(line for line in text.splitlines() if words in line)


@pytest.mark.parametrize(
    ("source", "item", "words", "path"),
    [
        ("census", "vllm-24881", "is invalid for input of size", "aten/src/ATen/InferSize.h"),
        ("census", "vllm-ascend-337", "is invalid for input of size", "aten/src/ATen/InferSize.h"),
        (
            "pastes",
            "sglang-2706",
            "must match the size of tensor b",
            "aten/src/ATen/ExpandUtils.cpp",
        ),
        (
            "pastes",
            "sglang-13352",
            "Sizes of tensors must match",
            "aten/src/ATen/native/TensorShape.cpp",
        ),
    ],
)
def test_a_real_pastes_torch_line_gets_the_hand_written_record(
    source: str, item: str, words: str, path: str
) -> None:
    text = str(_dev_census()[item]["text"]) if source == "census" else _pastes()[item]
    match = errcat.match_error(_line(text, words), catalog=_catalog())
    assert match is not None and match.exact
    assert (match.record.repo, match.record.file_path) == ("pytorch/pytorch", path)
    assert CURATED_TAG in match.record.tags and NATIVE in match.record.tags
    assert GENERATED_TAG not in match.record.tags


def test_the_whole_worker_chunk_of_a_census_line_ranks_the_torch_check_first() -> None:
    """vllm-24881: worker-prefixed lines, the exception line followed by a cut traceback.

    The frames are vllm's model code, never the C++ site; the record hides its site
    (``errcat:site:hidden``), so they do not count against it and it ranks first.
    """
    text = str(_dev_census()["vllm-24881"]["text"])
    first = errcat.match_all(text, catalog=_catalog())[0]
    assert first.record.error_message == torch_native.INFER_SIZE.template
    assert not any("never passes through" in reason for reason in first.reasons)
    assert any("--hf-overrides" in s for s in first.record.solutions)


def test_vllms_cpu_cache_kernel_outranks_torchs_generic_dispatch_record() -> None:
    """vllm-17225-title: the label is vllm's csrc/cpu/cache.cpp; torch's record answers others."""
    title = str(_dev_census()["vllm-17225-title"]["text"])
    candidates = errcat.match_all(title, catalog=_catalog())
    paths = [c.record.file_path for c in candidates]
    assert paths[0] == "csrc/cpu/cache.cpp"
    assert "torch/headeronly/core/Dispatch.h" in paths  # both records answer; vllm's first
    assert any("--dtype bfloat16" in s for s in candidates[0].record.solutions)
    other = "RuntimeError: \"addmm_impl_cpu_\" not implemented for 'Half'"
    match = errcat.match_error(other, catalog=_catalog())
    assert match is not None and match.record.file_path == "torch/headeronly/core/Dispatch.h"


def test_a_hand_written_record_replaces_the_mined_one_of_its_message() -> None:
    same = [
        r
        for r in Catalog.from_path(PACKAGE)
        if r.error_message == torch_native.INFER_SIZE.template and r.repo == "pytorch/pytorch"
    ]
    assert [CURATED_TAG in r.tags for r in same] == [True]


def test_a_bare_device_mismatch_gets_atens_record_not_fake_tensors_copy() -> None:
    """FakeTensor re-raises ATen's device check word for word; the package keeps ATen's.

    Before, the two tied on a bare message and the mined FakeTensor site answered
    (torch.compile tracing, generated advice) for the eager error users paste.
    """
    line = (
        "RuntimeError: Expected all tensors to be on the same device, but found at least two"
        " devices, cuda:0 and cpu!"
    )
    match = errcat.match_error(line, catalog=_catalog())
    assert match is not None
    assert match.record.file_path == "aten/src/ATen/core/op_registration/adaption.cpp"
    assert not any(
        r.file_path == "torch/_subclasses/fake_tensor.py"
        and r.error_message.startswith("Expected all tensors to be on the same device")
        for r in Catalog.from_path(PACKAGE)
    )


def test_the_wheels_headers_are_mined_and_vendored_folders_are_not() -> None:
    records = [r for r in Catalog.from_path(PACKAGE) if "errcat:cpp" in r.tags]
    folders = {r.file_path.split("/")[0] for r in records}
    assert {"aten", "c10", "torch"} <= folders
    assert not any("/flash_attn/" in r.file_path for r in records)
    assert not any("/mem_eff_attention/" in r.file_path for r in records)
    assert not any(r.file_path.startswith("torch/csrc/lazy/generated/") for r in records)
    assert all("/blob/v2.14.1/" in r.github_url for r in records)


#: Flags of the other commands the advice runs (pip install, huggingface-cli download).
OTHER_COMMANDS = frozenset({"--force-reinstall", "--local-dir"})


def test_the_advice_names_only_flags_the_engines_define() -> None:
    flags = json.loads((ROOT / "tests" / "fixtures" / "engine_flags.json").read_text())
    known = OTHER_COMMANDS.union(*map(frozenset, flags.values()))
    for record in torch_native.RECORDS:
        text = " ".join([*record.solutions, record.example_fix, record.trigger])
        named = set(regex.findall(r"(?<![\w-])--[a-z][a-z0-9-]+", text))
        assert named <= known, (record.template, named - known)


def test_every_record_cites_its_source_and_only_even_numbered_threads() -> None:
    for record in torch_native.RECORDS:
        assert record.references, record.template
        numbers = [int(n) for ref in record.references for n in regex.findall(r"#(\d+)", ref)]
        assert all(n % 2 == 0 for n in numbers), (record.template, numbers)


_SIZES = st.integers(min_value=0, max_value=10**9)


@settings(max_examples=40, deadline=None)
@given(a=_SIZES, b=_SIZES, c=_SIZES, d=_SIZES)
def test_shape_messages_of_any_sizes_fit_their_records(a: int, b: int, c: int, d: int) -> None:
    """The shape checks print sizes; whatever the sizes, each record's pattern prints them."""
    cases = [
        (
            torch_native.MM_SHAPES,
            f"mat1 and mat2 shapes cannot be multiplied ({a}x{b} and {c}x{d})",
        ),
        (
            torch_native.BROADCAST,
            f"The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton"
            f" dimension {c}",
        ),
        (torch_native.INFER_SIZE, f"shape '[{a}, -1, {b}]' is invalid for input of size {c}"),
        (
            torch_native.CAT,
            f"Sizes of tensors must match except in dimension {a}. Expected size {b} but got"
            f" size {c} for tensor number {d} in the list.",
        ),
    ]
    for record, message in cases:
        pattern = record.envelope().record.message_pattern
        assert regex.fullmatch(pattern, message), (pattern, message)
