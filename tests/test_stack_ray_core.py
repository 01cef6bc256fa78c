"""Ray's C++-written texts in errcat-data-distributed (stack_curated.ray_core, by hand).

The memory monitor's kill, ``ray.get``'s timeout and a compiled graph's channel read
timing out are written by Ray's core, not at a ``raise``. Study-set dev pastes
(even-numbered threads) get the records: the exception line, and the same text after a
framework's own words in its log line.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import stack_package_catalog, study_stack_texts

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stack_curated import ray_core  # noqa: E402


@pytest.mark.parametrize("paste", ["simplevla-rl-30-title", "openrlhf-936-title"])
def test_the_memory_monitors_kill_gets_rays_record(paste: str) -> None:
    match = errcat.match_error(
        study_stack_texts()[paste], catalog=stack_package_catalog("distributed")
    )
    assert match is not None
    assert match.record.error_class == "ray.exceptions.OutOfMemoryError"
    assert any("RAY_memory_usage_threshold" in s for s in match.record.solutions)


def test_the_timeout_line_gets_its_record() -> None:
    match = errcat.match_error(
        "ray.exceptions.GetTimeoutError: Get timed out: some object(s) not ready.",
        catalog=stack_package_catalog("distributed"),
    )
    assert match is not None and match.record.error_message == ray_core.GET_TIMED_OUT.template


@settings(max_examples=40, deadline=None)
@given(st.from_regex(r"zq[a-z]{1,10}( zq[a-z]{1,10}){0,5}", fullmatch=True))
def test_any_detail_after_the_kill_still_fits(detail: str) -> None:
    text = f"{ray_core.NODE_LOW_ON_MEMORY.template}\nMemory on the node {detail}"
    pattern = ray_core.NODE_LOW_ON_MEMORY.envelope().record.message_pattern
    assert regex.fullmatch(pattern, text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "pytorch-181632",  # the study paste: quoted in backticks behind a Markdown quote
        "[Bug]: vLLM failure (ray.exceptions.RayChannelTimeoutError) observed since v0.10.2",
    ],
)
def test_a_channel_read_timing_out_gets_the_record_that_names_the_timeout(text: str) -> None:
    paste = study_stack_texts().get(text, text)
    match = errcat.match_error(paste, catalog=stack_package_catalog("distributed"))
    assert match is not None
    assert match.record.error_message == ray_core.CHANNEL_READ_TIMED_OUT.template
    assert any("RAY_CGRAPH_get_timeout=1200" in s for s in match.record.solutions)


def test_the_compiled_graphs_own_wrapper_keeps_its_mined_record() -> None:
    wrapper = (
        "ray.exceptions.RayChannelTimeoutError: System error: If the execution is expected to"
        " take a long time, increase RAY_CGRAPH_get_timeout which is currently 300 seconds."
        " Otherwise, this may indicate that the execution is hanging."
    )
    match = errcat.match_error(wrapper, catalog=stack_package_catalog("distributed"))
    assert match is not None
    assert match.record.file_path.endswith("compiled_dag_node.py")
