"""Errors logged inside a quoted string with escaped line breaks read as printed."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.extract.escaped import expand_escaped

ROOT = Path(__file__).resolve().parents[1]
WORDS = st.sampled_from(["shard", "rank", "expert", "cache", "tokens", "layer", "bad", "'x'", "42"])
CLASSES = st.sampled_from(["ValueError", "KeyError", "RuntimeError", "torch.OutOfMemoryError"])
PREFIXES = st.sampled_from(
    ["", "E1027 15:54:53.431777 1342 model.py:502] ", "2026-01-01 12:00:00 ERROR worker: "]
)


def _traceback(cls: str, words: list[str]) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/vllm/engine/core.py", line 12, in run\n'
        "    raise Oops(x)\n"
        f"{cls}: {' '.join(words)}"
    )


@settings(max_examples=80, deadline=None)
@given(cls=CLASSES, words=st.lists(WORDS, min_size=1, max_size=8), prefix=PREFIXES)
def test_a_traceback_logged_as_a_json_string_is_read_as_printed(
    cls: str, words: list[str], prefix: str
) -> None:
    plain = extract_reports(_traceback(cls, words))
    for logged in (
        prefix + json.dumps(_traceback(cls, words)),
        prefix + json.dumps({"level": "error", "msg": _traceback(cls, words)}),
    ):
        found = extract_reports(logged)
        assert [(r.error_class, r.message, r.frames) for r in found] == [
            (r.error_class, r.message, r.frames) for r in plain
        ]
        assert all(0 <= r.start < r.end <= len(logged) for r in found)


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="ab \\n\"'/:", max_size=40))
def test_text_that_logs_no_error_is_left_as_it_is(text: str) -> None:
    expanded = expand_escaped(text)
    assert expanded is None or "Error" in expanded.text or "Traceback" in expanded.text


def test_a_windows_path_is_no_line_break() -> None:
    assert expand_escaped('ValueError: path "C:\\\\new\\\\nvidia" is missing') is None


def test_the_import_system_s_message_ending_a_wrapper_s_is_the_import_system_s() -> None:
    # eks-ml-117 (a Triton log line): ray's RaySystemError quotes the cause whole.
    line = (
        'E1027 15:54:53.431777 1342 model.py:502] "[vllm] Error generating stream:'
        " \\u001B[36mray::RayWorkerWrapper.execute_method()\\u001B[39m (pid=1)\\n  At least"
        " one of the input arguments for this task could not be computed:\\n"
        "ray.exceptions.RaySystemError: System error: No module named 'utils'\""
    )
    imports = Catalog.from_path(ROOT / "curated" / "python__cpython.native.jsonl")
    found = errcat.match_error(line, catalog=imports)
    assert found is not None and found.mode == "inner" and found.confidence >= 0.99
    assert "'utils'" in found.params.values()
