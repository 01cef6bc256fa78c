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


def test_a_family_record_is_right_for_any_file_of_its_scope_and_its_class() -> None:
    family = make_envelope(
        id="fa1fa1fa1fa1fa1f",
        slug="family",
        errorClass="KeyError",
        errorMessage="'{name}.weight'",
        messagePattern="'([\\w.]+\\.weight)'",
        repo="sgl-project/sglang",
        filePath="python/sglang/srt/models/llama.py",
        tags=["errcat:family", "errcat:scope:python/sglang/srt/models"],
    )
    record = Catalog([family]).get("fa1fa1fa1fa1fa1f")
    assert record is not None
    expect = {
        "raising_repo": "sgl-project/sglang",
        "file_path": "python/sglang/srt/models/deepseek_v2.py",
        "error_class": "KeyError",
        "message_prefix": "'model.layers.3.mlp.experts.w2_weight_scale_inv'",
    }
    assert bench_stack.is_right(record, expect)
    assert not bench_stack.is_right(record, {**expect, "error_class": "ValueError"})
    outside = {**expect, "file_path": "python/sglang/srt/managers/scheduler.py"}
    assert not bench_stack.is_right(record, outside)
    # Without the tag the file alone decides, as for any record.
    plain = record.model_copy(update={"tags": []})
    assert not bench_stack.is_right(plain, expect)


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


def test_a_template_opening_with_a_placeholder_must_print_the_labelled_message() -> None:
    summary = make_envelope(
        id="a1a1a1a1a1a1a1a1",
        errorMessage="{count} validation error{plural} for {title}",
        messagePattern="(.+?) validation error(.*?) for (.+?)",
        repo="pydantic/pydantic-core",
        filePath="src/errors/validation_exception.rs",
    ).record
    label = {
        "raising_repo": "pydantic/pydantic-core",
        "file_path": None,
        "message_prefix": "1 validation error for ParallelConfig",
    }
    assert bench_stack.is_right(summary, label)
    # a quote or a placeholder alone is no prefix: another message is not this one
    assert not bench_stack.is_right(summary, {**label, "message_prefix": "forward() missing 1"})
    envelope = make_envelope(**summary.model_dump(by_alias=True))
    presence = bench_stack.Presence.of(Catalog([envelope]))
    assert presence.has(label)
    assert not presence.has({**label, "message_prefix": "forward() missing 1"})


def test_the_import_system_s_own_record_is_right_for_any_module_it_prints() -> None:
    generic = make_envelope(
        id="c1c1c1c1c1c1c1c1",
        errorClass="ImportError",
        errorMessage="cannot import name {name!r} from {module!r}",
        messagePattern="cannot import name ('[^'\\s]+') from ('[^'\\s]+')",
        repo="python/cpython",
        filePath="Python/ceval.c",
        tags=["errcat:native", "errcat:native:import-cannot-import-name"],
    )
    copy = make_envelope(  # a library that copied CPython's wording is not the raiser
        id="d1d1d1d1d1d1d1d1",
        errorClass="ImportError",
        errorMessage="cannot import name {name!r} from {module!r}",
        messagePattern="cannot import name (.+?) from (.+?)",
        repo="pydantic/pydantic",
        filePath="pydantic/_internal/_validators.py",
    )
    label = {"cannot_import": "MaxLoRARanks", "from": "vllm.config.lora"}
    assert bench_stack.is_right(generic.record, label)
    assert not bench_stack.is_right(copy.record, label)
    assert not bench_stack.is_right(generic.record, {"missing_module": "sgl_kernel"})
    assert bench_stack.Presence.of(Catalog([generic])).has(label)
    assert not bench_stack.Presence.of(Catalog([copy])).has(label)


def test_a_tool_s_output_is_answered_by_a_record_of_the_tool_the_label_names_first() -> None:
    gcc = make_envelope(
        id="e1e1e1e1e1e1e1e1",
        errorClass="gcc",
        errorMessage="fatal error: Python.h: No such file or directory",
        messagePattern="fatal error: Python\\.h: No such file or directory",
        repo="gcc-mirror/gcc",
        filePath="libcpp/files.cc",
        tags=["errcat:native", "errcat:tool:gcc"],
    )
    label = {"tools": "gcc fatal error: Python.h missing when a kernel is JIT-compiled"}
    assert bench_stack.is_right(gcc.record, label)
    assert not bench_stack.is_right(gcc.record, {"tools": "pip failed to build the wheel"})
    presence = bench_stack.Presence.of(Catalog([gcc]))
    assert presence.has(label)
    assert not presence.has({"tools": "docker: could not select device driver"})


def test_an_http_label_is_right_for_a_record_of_its_leading_status() -> None:
    status = make_envelope(
        id="b404b404b404b404",
        errorClass="openai.NotFoundError",
        errorMessage="Error code: 404",
        messagePattern="Error code: 404",
        repo="openai/openai-python",
        filePath="src/openai/_base_client.py",
        tags=["errcat:wrapper", "errcat:native", "errcat:native:http-404"],
    )
    catalog = Catalog([status])
    record = catalog["b404b404b404b404"]
    label = {"http": "404 Not Found on POST /v1/embeddings (route not registered)"}
    assert bench_stack.is_right(record, label)
    assert not bench_stack.is_right(record, {"http": "500 Internal Server Error"})
    assert not bench_stack.is_right(record, {"http": "no status in the paste"})
    # a status record is not right for another label, nor another record for this one
    assert not bench_stack.is_right(record, {"native": "cuda-oom"})
    assert not bench_stack.is_right(_catalog()["f1f1f1f1f1f1f1f1"], label)
    presence = bench_stack.Presence.of(catalog)
    assert presence.has(label)
    assert not presence.has({"http": "503 Service Unavailable"})
    assert not bench_stack.Presence.of(_catalog()).has(label)
