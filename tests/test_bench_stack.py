"""benchmarks/bench_stack.py on a tiny census made for the test (the real one is labels')."""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.imports.records import Provider, Site, missing_module

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import bench_stack  # noqa: E402

CENSUS = Path(__file__).parent / "data" / "stack_census_tiny.jsonl"


def _catalog() -> Catalog:
    site = Site("python/cpython", "v3.11.7", "Lib/importlib/_bootstrap.py", 20, "x = 1\n" * 40)
    kernel = Provider("sglang-kernel", "0.4.10", (), "sglang-kernel==0.4.10")
    when = datetime(2026, 11, 1, tzinfo=timezone.utc)
    flux = make_envelope(
        id="f1f1f1f1f1f1f1f1",
        slug="flux",
        errorClass="RuntimeError",
        errorMessage="the flux capacitor of unit {unit} needs 1.21 gigawatts",
        messagePattern="the flux capacitor of unit (.+?) needs 1\\.21 gigawatts",
        repo="example/flux",
        filePath="src/flux/core.py",
    )
    return Catalog([missing_module("sgl_kernel", [kernel], site, when=when), flux])


def test_census_is_judged_per_group_and_the_holdout_is_not_read() -> None:
    items = bench_stack.read_census(CENSUS, "dev")
    assert [i["id"] for i in items] == ["t1", "t2", "t3", "t4", "t5"]
    counts = bench_stack.measure(items, _catalog())
    assert "holdout only" not in counts
    imports, example, http = counts["import system"], counts["example"], counts["http"]
    assert (imports["n"], imports["right"], imports["none"], imports["absent"]) == (2, 1, 1, 1)
    # t4 names another repo: the flux record is a confident answer for an absent error.
    assert (example["right"], example["wrong"], example["absent_answered"]) == (1, 1, 1)
    assert (http["n"], http["none"], http["absent"]) == (1, 1, 1)
    text = bench_stack.table(counts, "dev")
    assert "confident wrong: 1/5 = 20.0%; confident for absent: 1/3 = 33.3%" in text
    assert bench_stack.read_census(CENSUS, "holdout")[0]["id"] == "h1"


def test_a_wrapper_is_also_answered_right_by_the_cause_its_paste_shows() -> None:
    wrapper = {
        "raising_repo": "pydantic/pydantic-core",
        "file_path": None,
        "error_class": "ValidationError",
        "message_prefix": "1 validation error for ModelConfig",
    }
    cause = {
        "raising_repo": "example/flux",
        "file_path": "src/flux/core.py",
        "error_class": "RuntimeError",
        "message_prefix": "the flux capacitor",
    }
    flux = _catalog()["f1f1f1f1f1f1f1f1"]
    presence = bench_stack.Presence.of(_catalog())
    assert not bench_stack.is_right(flux, wrapper)
    assert not presence.has(wrapper)
    assert bench_stack.is_right(flux, {**wrapper, "cause": cause})
    assert presence.has({**wrapper, "cause": cause})
    # a cause of another repo does not make the flux record right
    elsewhere = {**cause, "raising_repo": "example/other", "message_prefix": "other"}
    assert not bench_stack.is_right(flux, {**wrapper, "cause": elsewhere})
