"""The miner reads log calls at WARNING and above as sites (errcat.mine.logged)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.history import Revision
from errcat.mine import mine_paths
from errcat.mine.history import Snapshot, build_history
from errcat.models import ErrorRecord
from errcat.tags import LOGGED_TAG, WRAPPER_TAG

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)
specs = st.sampled_from(["%s", "%d", "%r", "%.2f", "%5d"])
values = st.sampled_from(["48173", "'qwen'", "None", "3.25", "[1, 2]"])


def _mine(tmp_path: Path, source: str) -> tuple[ErrorRecord, ...]:
    root = tmp_path / "pkg"
    root.mkdir(exist_ok=True)
    (root / "mod.py").write_text(source)
    return mine_paths([root], repo="o/pkg", sha="0" * 40, path_prefix="pkg").records


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lead=st.lists(words, min_size=2, max_size=5).map(" ".join),
    parts=st.lists(st.tuples(specs, words), min_size=0, max_size=3),
    logs=st.tuples(
        st.sampled_from(["logger", "self.logger", "_log", "logging", "init_logger(__name__)"]),
        st.sampled_from(["warning", "error", "exception", "critical", "warning_once"]),
    ),
    shown=st.data(),
)
def test_a_logged_message_is_mined_and_its_pattern_reads_what_logging_prints(
    tmp_path: Path,
    lead: str,
    parts: list[tuple[str, str]],
    logs: tuple[str, str],
    shown: st.DataObject,
) -> None:
    receiver, method = logs
    fmt = lead.capitalize() + "".join(f" {spec} {word}" for spec, word in parts)
    args = "".join(f", v{i}" for i in range(len(parts)))
    source = f"def f(self, {', '.join(f'v{i}' for i in range(len(parts))) or 'x'}):\n"
    source += f"    {receiver}.{method}({fmt!r}{args})\n"
    (record,) = _mine(tmp_path, source)
    assert LOGGED_TAG in record.tags
    level = {"exception": "ERROR", "warning_once": "WARNING"}.get(method, method.upper())
    assert record.error_class == level
    assert record.severity == ("warning" if method.startswith("warning") else "error")
    # What logging prints: the format with each argument put in by %.
    printed = lead.capitalize() + "".join(f" {shown.draw(values)} {word}" for _spec, word in parts)
    assert regex.fullmatch(record.message_pattern, printed), (record.message_pattern, printed)


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    call=st.sampled_from(
        [
            "logger.info('Input prompt is too long: {n}')",
            "logger.debug('Input prompt is too long: %d', n)",
            "warnings.warn('Input prompt is too long')",
            "catalog.error('Input prompt is too long')",
            "logger.warning(*parts)",
            "logger.warning('%s', n)",
            # What it prints reads as another error's line: that error's record answers.
            "logger.error(f'OpenAI Error: {n}. Waiting 5 seconds...')",
            "logger.warning('Failed to reach the encoder server. Error: %s', n)",
        ]
    )
)
def test_calls_that_are_not_errors_or_print_no_known_text_are_not_sites(
    tmp_path: Path, call: str
) -> None:
    assert _mine(tmp_path, f"def f(n, parts, catalog):\n    {call}\n") == ()


def test_a_logged_site_gets_advice_from_its_guard(tmp_path: Path) -> None:
    (record,) = _mine(
        tmp_path,
        "def schedule(prompt_len, max_model_len):\n"
        "    if prompt_len > max_model_len:\n"
        "        logger.warning(\n"
        "            'Input prompt (%d tokens) is too long and exceeds limit of %d',\n"
        "            prompt_len, max_model_len)\n",
    )
    assert record.line_number == 3
    assert record.error_message == (
        "Input prompt ({prompt_len} tokens) is too long and exceeds limit of {max_model_len}"
    )
    assert any("max_model_len" in s for s in record.solutions)


def test_a_message_logged_then_raised_by_one_function_is_one_record(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        "def alloc(n):\n"
        "    if n > 8:\n"
        "        msg = f'Decode out of memory. Try to lower your batch size. Allocating {n}'\n"
        "        logger.error(msg)\n"
        "        raise RuntimeError(msg)\n"
        "def report(n):\n"
        "    logger.error(f'Decode out of memory. Try to lower your batch size. Allocating {n}')\n",
    )
    # The raise answers for its own log call; another function's log call stays its own.
    assert sorted((r.error_class, r.line_number) for r in records) == [
        ("ERROR", 7),
        ("RuntimeError", 5),
    ]


def _snap(label: str, day: int, source: str) -> Snapshot:
    revision = Revision(
        label, (label.encode().hex() * 40)[:40], datetime(2025, 1, day, tzinfo=timezone.utc)
    )
    return Snapshot(
        revision, [("pkg/batch.py", label)], lambda keys: ((k, source.encode()) for k in keys)
    )


@settings(max_examples=10, deadline=None)
@given(padding=st.integers(0, 30), then=st.sampled_from(["exit(1)", "return None"]))
def test_a_message_once_logged_and_later_raised_by_its_function_is_the_raise(
    padding: int, then: str
) -> None:
    logged = (
        "def alloc_slots(n):\n"
        "    if n > 8:\n"
        "        logger.error(\n"
        "            f'Decode out of memory. Try to lower your batch size. Have {pool.size()}')\n"
        f"        {then}\n"
    )
    raised = "\n" * padding + (
        "def alloc_slots(n):\n"
        "    if n > 8:\n"
        "        raise RuntimeError(\n"
        "            f'Decode out of memory. Try to lower your batch size. Have {alloc.size()}')\n"
    )
    result = build_history(
        [_snap("v1", 1, logged), _snap("v2", 2, raised)],
        repo="o/pkg",
        analyzed_at=datetime(2026, 1, 2, tzinfo=timezone.utc),
    )
    # The placeholder's expression changed with the raise: no lineage links the two.
    assert [r.error_class for r in result.records] == ["RuntimeError"]
    assert len(result.history) == 1


def test_an_older_wording_of_a_logged_twin_is_reworded_into_the_raise() -> None:
    def logged(text: str) -> str:
        body = f"        logger.error(f'{text}')\n        exit(1)\n"
        return "def alloc_slots(n):\n    if n > 8:\n" + body

    raised = (
        "def alloc_slots(n):\n    if n > 8:\n"
        "        raise RuntimeError(\n"
        "            f'Decode out of memory. Lower the batch size. Have {alloc.size}')\n"
    )
    result = build_history(
        [
            _snap("v1", 1, logged("Decode out of memory. Try to lower your batch size. Have {n}")),
            _snap("v2", 2, logged("Decode out of memory. Lower the batch size. Have {pool.size}")),
            _snap("v3", 3, raised),
        ],
        repo="o/pkg",
        analyzed_at=datetime(2026, 1, 2, tzinfo=timezone.utc),
    )
    classes = {r.id: r.error_class for r in result.records}
    assert sorted(classes.values()) == ["ERROR", "RuntimeError"]
    (older,) = [lin for lin in result.history if classes[lin.record_id] == "ERROR"]
    assert older.successor is not None and classes[older.successor] == "RuntimeError"


@pytest.mark.parametrize(
    ("message", "wraps"),
    [
        ("f'Scheduler hit an exception: {get_exception_traceback()}'", True),
        ("f'Initialization failed. warmup error: {last_traceback}'", True),
        ("f'Failed to load the adapter: {str(e)}'", True),
        ("f'Unsupported element size {size!r} for the kernel'", False),
        ("f'Error {e} while loading the adapter, retrying'", False),
    ],
)
def test_a_logged_message_that_ends_with_the_caught_error_is_a_wrapper(
    tmp_path: Path, message: str, wraps: bool
) -> None:
    (record,) = _mine(tmp_path, f"def f(size, e, last_traceback):\n    logger.error({message})\n")
    assert (WRAPPER_TAG in record.tags) == wraps
