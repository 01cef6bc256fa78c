"""Tests of benchmarks/bench_fixes.py on a tiny labelled set (the real one is benchmarks/data)."""

from __future__ import annotations

import json
import sys
import textwrap
from datetime import datetime, timezone
from pathlib import Path

import pytest

from errcat import Catalog
from errcat.loaders import write_jsonl
from errcat.mine import mine_paths

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import bench_fixes  # noqa: E402

SOURCE = """
import argparse
def parser():
    p = argparse.ArgumentParser()
    p.add_argument("--max-model-len", type=int, help="Model context length.")
    return p
def check(args, prompt_len):
    if prompt_len > args.max_model_len:
        raise ValueError(f"The prompt (length {prompt_len}) is longer than {args.max_model_len}")
class Pool:
    def grab(self):
        if self._free < 1:
            raise RuntimeError("No free block in the pool")
"""


@pytest.fixture
def catalog(tmp_path: Path) -> Catalog:
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "engine.py").write_text(textwrap.dedent(SOURCE))
    result = mine_paths(
        [root],
        repo="o/pkg",
        sha="0" * 40,
        path_prefix="pkg",
        analyzed_at=datetime(2026, 1, 2, tzinfo=timezone.utc),
    )
    write_jsonl(tmp_path / "pkg.jsonl", result.envelopes)
    return Catalog.from_path(tmp_path / "pkg.jsonl")


def _line(id_: str, text: str, prefix: str, levers: list[str], split: str) -> str:
    expect = {"file_path": "pkg/engine.py", "error_class": "ValueError", "message_prefix": prefix}
    data = {
        "id": id_,
        "url": "https://example.org",
        "repo": "o/pkg",
        "version": None,
        "text": text,
        "expect": expect,
        "fix": "raised the limit",
        "levers": levers,
        "lever_kind": "flag",
        "fix_url": "https://example.org",
        "split": split,
    }
    return json.dumps(data)


def test_the_figures_of_each_split(tmp_path: Path, catalog: Catalog) -> None:
    data = tmp_path / "fixes.jsonl"
    lines = [
        _line(
            "a",
            "ValueError: The prompt (length 9000) is longer than 4096",
            "The prompt",
            ["--max-model-len"],
            "dev",
        ),
        _line(
            "b",
            "ValueError: The prompt (length 10) is longer than 8",
            "The prompt",
            ["VLLM_FLAG"],
            "holdout",
        ),
        _line("c", "KeyError: 'nothing of the kind'", "The prompt", ["x"], "holdout"),
    ]
    data.write_text("\n".join(lines) + "\n")
    rows = bench_fixes.measure(bench_fixes.load(data), catalog)
    dev, holdout = rows["dev"], rows["holdout"]
    assert (dev.pastes, dev.right, dev.pointed, dev.first, dev.bad) == (1, 1, 1, 1, 0)
    assert (holdout.pastes, holdout.right, holdout.pointed, holdout.first) == (2, 1, 0, 1)
    assert dev.doc_words and max(dev.doc_words) <= 60


def test_a_bad_line_names_its_number(tmp_path: Path) -> None:
    data = tmp_path / "fixes.jsonl"
    data.write_text('{"id": "a"}\n')
    with pytest.raises(SystemExit, match=r"fixes.jsonl:1: bad line"):
        bench_fixes.load(data)


def test_internal_state_and_unasked_hardware_are_bad() -> None:
    assert bench_fixes.bad_solutions(["Make sure `self.pool` is not None"], "x") != []
    assert bench_fixes.bad_solutions(["Run on ROCm (AMD GPUs)"], "out of host memory") != []
    assert bench_fixes.bad_solutions(["Run on a GPU where x"], "needs a newer GPU") == []
    assert bench_fixes.bad_solutions(["Set --tp-size to 2"], "x") == []
