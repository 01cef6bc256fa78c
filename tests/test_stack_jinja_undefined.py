"""Jinja's UndefinedError texts in errcat-data-serving (stack_curated.jinja_undefined, by hand).

The raise passes a property (``Undefined._undefined_message``), so the miner's record of it
says nothing; a chat template reading a key the request's tools lack (sglang#9166, even)
or a variable the engine does not pass got no answer before these records.
"""

from __future__ import annotations

import errcat
from conftest import stack_package_catalog

JINJA = "pallets/jinja"


def test_a_missing_tool_key_gets_jinjas_record_and_the_openai_tool_shape() -> None:
    match = errcat.match_error(
        "jinja2.exceptions.UndefinedError: 'dict object' has no attribute 'function'",
        catalog=stack_package_catalog("serving"),
    )
    assert match is not None
    assert match.record.repo == JINJA
    assert match.record.file_path == "src/jinja2/runtime.py"
    assert any('"type": "function"' in s for s in match.record.solutions)


def test_a_missing_variable_ranks_jinjas_record_first_though_not_confidently() -> None:
    # "'x' is undefined" has few words of its own: the record leads the candidates but
    # is too weak for a confident answer (a KeyError's bare "'x'" ties with it).
    matches = errcat.match_all(
        "jinja2.exceptions.UndefinedError: 'strftime_now' is undefined",
        catalog=stack_package_catalog("serving"),
    )
    assert matches
    assert matches[0].record.repo == JINJA
    assert any("chat_template_kwargs" in s for s in matches[0].record.solutions)


def test_the_interpreters_attribute_error_is_not_jinjas() -> None:
    # Python quotes the type alone ('dict' object), Jinja the type and 'object' together.
    match = errcat.match_error(
        "AttributeError: 'dict' object has no attribute 'function'",
        catalog=stack_package_catalog("serving"),
    )
    assert match is None or match.record.repo != JINJA
