"""Wrapper records (tag errcat:wrapper) are answered by the cause the paste holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.matcher import WRAPPER_TAG, match_all, match_error
from errcat.models import EXAMPLE_ENVELOPE_JSON
from errcat.patterns import template_to_pattern


def _envelope(rid: str, template: str, cls: str, tags: list[str], path: str) -> str:
    data = json.loads(EXAMPLE_ENVELOPE_JSON)
    record = data["record"]
    record.update(
        id=rid,
        slug=rid,
        errorMessage=template,
        messagePattern=template_to_pattern(template),
        errorClass=cls,
        tags=tags,
        filePath=path,
        githubUrl=record["githubUrl"].replace("src/project/core.py", path),
    )
    return json.dumps(data)


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    lines = [
        _envelope(
            "aaaaaaaaaaaaaaa1",
            "Engine core initialization failed. See root cause above. Failed core proc(s): {f}",
            "RuntimeError",
            [WRAPPER_TAG],
            "engine/utils.py",
        ),
        _envelope(
            "aaaaaaaaaaaaaaa2",
            "Capture cuda graph failed: {e}",
            "Exception",
            [WRAPPER_TAG],
            "graph_runner.py",
        ),
        _envelope(
            "bbbbbbbbbbbbbbb1",
            "The tokenizer of model {name} defines no chat template for this request",
            "ValueError",
            [],
            "chat/templates.py",
        ),
        _envelope(
            "bbbbbbbbbbbbbbb2",
            "Device memory exhausted while reserving {size} for the decode buffers",
            "RuntimeError",
            [],
            "memory/pool.py",
        ),
    ]
    path = Path(tmp_path_factory.mktemp("w")) / "c.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Catalog.from_path(path)


CAUSE_ABOVE = """\
(EngineCore pid=7) ValueError: The tokenizer of model q defines no chat template for this request
(APIServer pid=1) Traceback (most recent call last):
(APIServer pid=1)   File "/x/engine/utils.py", line 12, in wait_for_engine_startup
(APIServer pid=1)     raise RuntimeError(
(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. \
Failed core proc(s): {'EngineCore_DP0': 1}
"""


def test_cause_earlier_in_the_paste_answers(catalog: Catalog) -> None:
    match = match_error(CAUSE_ABOVE, catalog=catalog)
    assert match is not None
    assert match.summary.id == "bbbbbbbbbbbbbbb1"
    assert [m.summary.id for m in match.related] == ["aaaaaaaaaaaaaaa1"]
    assert match_all(CAUSE_ABOVE, catalog=catalog)[0].summary.id == "bbbbbbbbbbbbbbb1"


def test_cause_inside_the_wrappers_message_answers(catalog: Catalog) -> None:
    text = (
        "Exception: Capture cuda graph failed: Device memory exhausted while reserving"
        " 2.00 GiB for the decode buffers"
    )
    match = match_error(text, catalog=catalog)
    assert match is not None
    assert match.summary.id == "bbbbbbbbbbbbbbb2"
    assert match.params["size"] == "2.00 GiB"
    assert match.related[0].summary.id == "aaaaaaaaaaaaaaa2"


def test_a_wrapper_alone_answers_with_where_to_look(catalog: Catalog) -> None:
    text = (
        "RuntimeError: Engine core initialization failed. See root cause above."
        " Failed core proc(s): {'EngineCore_DP0': 1}"
    )
    match = match_error(text, catalog=catalog)
    assert match is not None
    assert match.summary.id == "aaaaaaaaaaaaaaa1"
    assert match.related == ()


def test_a_wrapper_whose_message_holds_nothing_known_stays(catalog: Catalog) -> None:
    match = match_error(
        "Exception: Capture cuda graph failed: something odd happened", catalog=catalog
    )
    assert match is not None
    assert match.summary.id == "aaaaaaaaaaaaaaa2"


def test_a_wrapper_beside_a_traceback_cut_before_its_exception_does_not_answer(
    catalog: Catalog,
) -> None:
    # The paste lost the exception line under the frames: the wrapper's line says an
    # error happened, the cut traceback says where; neither is the answer.
    cut = (
        "Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"
        "Traceback (most recent call last):\n"
        '  File "/x/engine/loader.py", line 42, in load\n'
        "    raise ValueError(f\"{', '.join(problems)}\")\n"
    )
    assert match_error(cut, catalog=catalog) is None
    assert match_all(cut, catalog=catalog)[0].summary.id == "aaaaaaaaaaaaaaa1"
    # without the frames the same line answers, as any wrapper alone does
    alone = cut.split("\n", 1)[0]
    match = match_error(alone, catalog=catalog)
    assert match is not None and match.summary.id == "aaaaaaaaaaaaaaa1"


_NAME = st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True)
_FRAME = st.tuples(st.lists(_NAME, min_size=1, max_size=4), st.integers(1, 9999), _NAME)


@settings(max_examples=40, deadline=None)
@given(st.lists(_FRAME, min_size=1, max_size=5))
def test_no_cut_traceback_is_answered_by_the_wrapper_line_above_it(
    catalog: Catalog, frames: list[tuple[list[str], int, str]]
) -> None:
    lines = [
        "Capture cuda graph failed: something odd happened",
        "Traceback (most recent call last):",
        *(f'  File "/x/{"/".join(parts)}.py", line {n}, in {fn}' for parts, n, fn in frames),
    ]
    assert match_error("\n".join(lines), catalog=catalog) is None
