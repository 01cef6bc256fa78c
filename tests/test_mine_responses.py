"""The miner reads HTTP error bodies a server builds as sites (errcat.mine.responses)."""

from __future__ import annotations

from pathlib import Path

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import errcat
from errcat.catalog import Catalog
from errcat.tags import LOGGED_TAG, RESPONSE_TAG, WRAPPER_TAG
from test_mine_logged import _mine  # one module mined as a package of its own

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8).map(
    lambda w: "zq" + w
)
values = st.sampled_from(["48173", "qwen", "None", "3.25", "[1, 2]"])


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lead=st.lists(words, min_size=3, max_size=5).map(" ".join),
    tail=st.lists(words, min_size=0, max_size=2).map(" ".join),
    form=st.sampled_from(
        [
            ("return self.create_error_response({msg})", "BadRequestError", 400),
            (
                "return create_error_response(message={msg}, err_type='NotFoundError', "
                "status_code=HTTPStatus.NOT_FOUND)",
                "NotFoundError",
                404,
            ),
            (
                "return self.create_error_response({msg}, 'InvalidUserInput', 422)",
                "InvalidUserInput",
                422,
            ),
            (
                "err = ErrorResponse(message={msg}, type='BadRequestError', code=400)",
                "BadRequestError",
                400,
            ),
            (
                "return JSONResponse(content=ErrorResponse(error=ErrorInfo(message={msg}, "
                "type='ZqError', code=HTTPStatus.CONFLICT.value)).model_dump())",
                "ZqError",
                409,
            ),
        ]
    ),
    shown=values,
)
def test_an_error_body_is_mined_with_its_type_and_status_and_its_pattern_reads_the_body(
    tmp_path: Path, lead: str, tail: str, form: tuple[str, str, int], shown: str
) -> None:
    statement, error_type, status = form
    message = f"f'{lead.capitalize()} {{value}} {tail}'"
    source = f"def f(self, value):\n    {statement.format(msg=message)}\n"
    (record,) = _mine(tmp_path, source)
    assert RESPONSE_TAG in record.tags and LOGGED_TAG not in record.tags
    assert record.error_class == error_type
    assert record.http_status == status
    assert record.line_number == 2
    printed = f"{lead.capitalize()} {shown} {tail}".strip()
    assert regex.fullmatch(record.message_pattern, printed), (record.message_pattern, printed)


@pytest.mark.parametrize(
    "statement",
    [
        "return self.create_error_response(str(e))",  # values only: nothing of its own
        "return self.create_error_response(message=e.detail, err_type=str(e.status_code))",
        "return make_error_response('Zq model is gone')",  # another name
        "return ErrorResponse(type='ZqError', code=400)",  # no message
        "return self.create_error_response(*parts)",  # what it passes is not known
        "return lambda: create_error_response('Zq model is gone')",  # not built here
        "return self.create_error_response('Zqunknown zqerror')",  # two words: any text's
        "return self.create_error_response(f'Zqfailed: {e}')",
    ],
)
def test_calls_that_build_no_known_body_are_not_sites(tmp_path: Path, statement: str) -> None:
    source = f"def f(self, e, parts):\n    {statement}\n"
    assert _mine(tmp_path, source) == ()


def test_a_body_that_prints_a_caught_error_is_a_wrapper_of_it(tmp_path: Path) -> None:
    source = (
        "def f(self, e):\n"
        "    return self.create_error_response(message=f'Internal server error: {e}',"
        " err_type='InternalServerError', status_code=500)\n"
    )
    (record,) = _mine(tmp_path, source)
    assert WRAPPER_TAG in record.tags and record.http_status == 500


def test_a_status_the_code_computes_is_left_unknown(tmp_path: Path) -> None:
    source = (
        "def f(self, e):\n"
        "    return self.create_error_response('Zq adapter refused', 'ZqError', e.status)\n"
    )
    (record,) = _mine(tmp_path, source)
    assert record.error_class == "ZqError" and record.http_status is None


def test_a_client_printed_body_finds_the_mined_record(tmp_path: Path) -> None:
    # vllm's render serving (vllm/entrypoints/serve/render/serving.py) refuses a request
    # asking for automatic tool choice from a server started without a tool parser.
    source = (
        "class OpenAIServingRender:\n"
        "    def _check_tools(self, request):\n"
        "        if request.tool_choice == 'auto' and not self.enable_auto_tools:\n"
        "            return self.create_error_response(\n"
        "                '\"auto\" tool choice requires '\n"
        "                '--enable-auto-tool-choice and --tool-call-parser to be set'\n"
        "            )\n"
    )
    records = _mine(tmp_path, source)
    paste = (
        "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': "
        '\'"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser '
        "to be set', 'type': 'BadRequestError', 'param': None, 'code': 400}"
    )
    match = errcat.match_error(paste, catalog=Catalog(list(records)))
    assert match is not None and match.record.id == records[0].id
