"""pip's and uv's lines: a failed build, a broken install, no solution (native_catalog.builds).

The records are curated into ``curated/pypa__pip.native.jsonl`` and
``curated/astral-sh__uv.native.jsonl``; the bundled data holds them once the lead
rebuilds ``data/``, so these tests load the curated files over the bundled catalog.
Study-set dev pastes (``benchmarks/data/study_stack.jsonl``, even-numbered threads)
get the tool's record; a conflict line of any packages fits the pattern; another
program's 'did not run successfully' does not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import curated_over_bundled, study_stack_texts
from errcat.catalog import Catalog

ROOT = Path(__file__).resolve().parents[1]
#: The curated files of these records (the bundled data holds them after a rebuild).
_FILES = ("pypa__pip.native.jsonl", "astral-sh__uv.native.jsonl")


@pytest.mark.parametrize(
    ("paste", "tool"),
    [
        ("vllm-778", "pip"),  # the wheel build of vllm on Windows, cut inside its output
        ("vllm-556", "pip"),  # the sdist's requirements hook, cut inside setup.py's traceback
        ("vllm-ascend-8286", "pip"),  # the resolver's conflicts after installing a plug-in
        ("open-instruct-172", "pip"),
        ("sglang-12398", "uv"),  # scikit-build-core's build_wheel under uv in a docker build
    ],
)
def test_a_study_paste_gets_the_tools_record(paste: str, tool: str) -> None:
    match = errcat.match_error(
        study_stack_texts()[paste],
        catalog=curated_over_bundled(*_FILES),
    )
    assert match is not None
    assert f"errcat:tool:{tool}" in match.record.tags


def test_the_conflict_advice_names_the_versions_to_install_and_pip_check() -> None:
    match = errcat.match_error(
        study_stack_texts()["vllm-ascend-8286"],
        catalog=curated_over_bundled(*_FILES),
    )
    assert match is not None
    advice = " ".join(match.record.solutions)
    assert "pip install torch==2.10.0" in advice and "pip check" in advice


def test_another_programs_did_not_run_successfully_is_not_pips() -> None:
    match = errcat.match_error(
        "ValueError: Exiftool copy command did not run successfully.",
        catalog=curated_over_bundled(*_FILES),
    )
    assert match is None or "errcat:tool:pip" not in match.record.tags


_NAME = st.from_regex(r"zq[a-z]{1,8}(-[a-z]{1,5})?", fullmatch=True)
_VERSION = st.from_regex(r"[0-9]{1,2}\.[0-9]{1,2}(\.[0-9]{1,3})?", fullmatch=True)


@settings(max_examples=50, deadline=None)
@given(_NAME, _VERSION, _NAME, _VERSION, _VERSION)
def test_any_conflict_line_fits_the_pattern(
    name: str, version: str, dep: str, wanted: str, have: str
) -> None:
    line = (
        f"{name} {version} requires {dep}=={wanted}, but you have {dep} {have}"
        " which is incompatible."
    )
    record = next(
        r
        for r in Catalog.from_path(ROOT / "curated" / "pypa__pip.native.jsonl")
        if "errcat:native:tool-pip-conflict" in r.tags and r.error_message.startswith("{name}")
    )
    found = regex.fullmatch(record.message_pattern, line)
    assert found is not None and found.group(1) == name and found.group(5) == have


_RESOLVER_REPORT = (
    "$ uv pip install -U vllm --pre --extra-index-url https://wheels.vllm.ai/nightly\n"
    "  \u00d7 No solution found when resolving dependencies:\n"
    "  \u2570\u2500\u25b6 Because there is no version of xformers==0.0.33+5d4b92a5 and"
    " vllm==0.11.1rc6 depends on xformers==0.0.33+5d4b92a5, we can conclude that"
    " vllm==0.11.1rc6 cannot be used.\n"
    "      And because you require vllm, we can conclude that your requirements are"
    " unsatisfiable.\n\n"
    "      hint: `vllm` was found on https://wheels.vllm.ai/nightly, but not at the"
    " requested version\n"
)


def test_uv_s_resolver_report_gets_the_resolver_record_with_the_index_lever() -> None:
    """The shape of vllm#28030 (even): a nightly pins a dependency build no searched index has."""
    match = errcat.match_error(_RESOLVER_REPORT, catalog=curated_over_bundled(*_FILES))
    assert match is not None and match.exact
    assert "errcat:native:tool-uv-resolve" in match.record.tags
    assert any("--index-strategy unsafe-best-match" in s for s in match.record.solutions)


def test_another_program_s_no_solution_is_not_uv_s() -> None:
    match = errcat.match_error(
        "RuntimeError: No solution found for the linear system",
        catalog=curated_over_bundled(*_FILES),
    )
    assert match is None or "errcat:tool:uv" not in match.record.tags


@settings(max_examples=50, deadline=None)
@given(
    _NAME,
    _VERSION,
    st.sampled_from(["", "build ", "script "]),
    st.sampled_from(["", " for split (python_full_version == '3.10.*')"]),
    st.sampled_from(["\u00d7 ", "x ", "error: ", ""]),
)
def test_any_resolver_header_and_report_fit_the_pattern(
    name: str, version: str, context: str, split: str, lead: str
) -> None:
    record = next(
        r
        for r in Catalog.from_path(ROOT / "curated" / "astral-sh__uv.native.jsonl")
        if "errcat:native:tool-uv-resolve" in r.tags
    )
    header = f"{lead}No solution found when resolving {context}dependencies{split}:"
    report = f"\n  Because {name}=={version} depends on zq>=1 we can conclude ..."
    assert regex.fullmatch(record.message_pattern, header)
    assert regex.fullmatch(record.message_pattern, header + report)
    assert not regex.fullmatch(record.message_pattern, f"No {name} found when resolving")
