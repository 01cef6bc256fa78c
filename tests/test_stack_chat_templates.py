"""The models' chat-template refusals in errcat-data-hf (stack_curated.chat_templates).

transformers raises them through ``raise_exception`` with the template's own text, so
the mined record of that raise is a bare ``{message}``. Study-set dev pastes
(even-numbered threads): the class-and-message title gets the record, and so does the
same text after the writer's Chinese words (errcat.extract.cjk).
"""

from __future__ import annotations

import pytest

import errcat
from conftest import stack_package_catalog, study_stack_texts


@pytest.mark.parametrize("paste", ["sglang-1342-title", "sglang-892-title"])
def test_gemmas_system_role_refusal_gets_the_record(paste: str) -> None:
    match = errcat.match_error(study_stack_texts()[paste], catalog=stack_package_catalog("hf"))
    assert match is not None
    assert match.record.file_path == "src/transformers/utils/chat_template_utils.py"
    assert any("--chat-template" in s for s in match.record.solutions)


def test_the_alternation_check_of_either_wording_gets_one_record() -> None:
    catalog = stack_package_catalog("hf")
    plain = errcat.match_error(
        "jinja2.exceptions.TemplateError: Conversation roles must alternate"
        " user/assistant/user/assistant/...",
        catalog=catalog,
    )
    after = errcat.match_error(
        "jinja2.exceptions.TemplateError: After the optional system message, conversation"
        " roles must alternate user/assistant/user/assistant/...",
        catalog=catalog,
    )
    assert plain is not None and after is not None
    assert plain.record.id == after.record.id
