"""A record raised where no Python frame shows is weighed on its text, frames or not.

A ``TORCH_CHECK`` in ``aten/src/ATen/InferSize.h`` is raised from C++: the
traceback printed above ``RuntimeError: shape '[15, -1, 2048]' is invalid ...``
is the model's Python code, never the check's file. Those frames say nothing
against the record, so the paste must be answered as surely as the bare line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.loaders import write_jsonl
from errcat.matcher import match_all, match_error
from errcat.matcher.hidden_sites import hidden_positions
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern
from errcat.store import MemoryStore

CHECK = "shape '{shape}' is invalid for input of size {numel}"


def _record(record_id: str, template: str, file_path: str, **more: object) -> RecordEnvelope:
    return make_envelope(
        id=record_id,
        slug=record_id,
        repo="pytorch/pytorch",
        errorClass="RuntimeError",
        errorMessage=template,
        messagePattern=template_to_pattern(template),
        filePath=file_path,
        **more,
    )


def _catalog(check_file: str) -> Catalog:
    """The check (raised in ``check_file``) among a few Python records."""
    return Catalog(
        [
            _record("a000000000000001", CHECK, check_file),
            _record("a000000000000002", "expected {n} dims but got {m}", "torch/nn/functional.py"),
            _record("a000000000000003", "mat1 and mat2 must have the same dtype", "torch/mm.py"),
        ]
    )


NATIVE = _catalog("aten/src/ATen/InferSize.h")
#: The same record raised from a Python file the frames do not reach: they count against it.
PYTHON = _catalog("torch/_refs/infer_size.py")

_NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)
_FRAMES = st.lists(
    st.tuples(
        st.sampled_from(
            (
                "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/models",
                "/sgl-workspace/sglang/python/sglang/srt/layers",
                "/opt/conda/lib/python3.11/site-packages/torch/nn/modules",
                "/home/user/project",
            )
        ),
        _NAMES,
        st.integers(min_value=1, max_value=5000),
        _NAMES,
    ),
    min_size=1,
    max_size=6,
)


def _traceback(frames: list[tuple[str, str, int, str]], line: str) -> str:
    shown = "".join(
        f'  File "{folder}/{name}.py", line {number}, in {function}\n    x = y.view(-1)\n'
        for folder, name, number, function in frames
    )
    return f"Traceback (most recent call last):\n{shown}{line}\n"


LINE = "RuntimeError: shape '[15, -1, 2048]' is invalid for input of size 90112"


@given(frames=_FRAMES)
def test_python_frames_do_not_hold_down_a_native_check(
    frames: list[tuple[str, str, int, str]],
) -> None:
    bare = match_error(LINE, NATIVE)
    assert bare is not None and bare.record.id == "a000000000000001"
    framed = match_all(_traceback(frames, LINE), NATIVE)[0]
    assert framed.record.id == bare.record.id
    assert framed.confidence == bare.confidence
    assert any("no traceback frame shows" in r for r in framed.reasons)


@given(frames=_FRAMES)
def test_frames_still_count_against_a_python_raise_they_do_not_reach(
    frames: list[tuple[str, str, int, str]],
) -> None:
    bare = match_all(LINE, PYTHON)[0]
    framed = match_all(_traceback(frames, LINE), PYTHON)[0]
    assert framed.record.id == "a000000000000001"
    assert framed.confidence < bare.confidence
    assert not any("no traceback frame shows" in r for r in framed.reasons)


def test_a_python_raise_at_the_frame_outranks_the_native_check() -> None:
    """Frames still speak for a Python record: its raise line in the traceback wins."""
    own = _record("b000000000000001", CHECK, "vllm/model_executor/models/llama.py", lineNumber=12)
    catalog = Catalog([_record("a000000000000001", CHECK, "aten/src/ATen/InferSize.h"), own])
    text = _traceback([("/x/vllm/model_executor/models", "llama", 12, "forward")], LINE)
    found = match_error(text, catalog)
    assert found is not None and found.record.id == "b000000000000001"


def test_file_and_memory_stores_find_the_same_hidden_records(tmp_path: Path) -> None:
    envelopes = [
        _record("c000000000000001", CHECK, "csrc/moe/align.cu"),
        _record("c000000000000002", "no kernel for {x}", "torch/ops.py"),
        _record("c000000000000003", "bad {x}", "torch/imp.py", tags=["errcat:site:hidden"]),
        _record("c000000000000004", "worse {x}", "sgl-kernel/include/utils.H"),
    ]
    memory = MemoryStore(envelopes)
    path = tmp_path / "records.jsonl"
    write_jsonl(path, envelopes)
    stored = Catalog.from_path(path).parts[0]
    assert hidden_positions(memory) == {0, 2, 3}
    assert {stored.summary(p).id for p in hidden_positions(stored)} == {
        "c000000000000001",
        "c000000000000003",
        "c000000000000004",
    }
    assert sorted(memory.file_tails()) == sorted(stored.file_tails())


@pytest.mark.parametrize("suffix", [".py", ".pyx", ".txt"])
def test_python_and_other_files_are_not_native(suffix: str) -> None:
    store = MemoryStore([_record("d000000000000001", CHECK, f"torch/x{suffix}")])
    assert hidden_positions(store) == frozenset()
