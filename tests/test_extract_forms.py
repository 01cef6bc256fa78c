"""Message forms for writers' additions: a sentence glued to the message, a line under it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import errcat
from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.extract.forms import message_forms
from errcat.patterns import template_to_pattern


def _catalog(*templates: str) -> Catalog:
    return Catalog(
        [
            make_envelope(
                id=f"{n:016x}",
                slug=f"record-{n}",
                errorClass="ValueError",
                errorMessage=template,
                messagePattern=template_to_pattern(template),
                repo="example/engine",
                filePath=f"engine/mod{n}.py",
            )
            for n, template in enumerate(templates, 1)
        ]
    )


def _forms(text: str) -> list[str]:
    return message_forms(extract_reports(text)[0])


def test_a_sentence_glued_to_the_message_is_cut_off() -> None:
    text = (
        "[Bug]: ValueError: There is no module or parameter named 'lm_head.qweight_type' "
        "in Qwen2ForCausalLM.When use GGUF and draft model"
    )
    assert _forms(text)[-1].endswith("in Qwen2ForCausalLM")
    catalog = _catalog("There is no module or parameter named {prefix!r} in {model}")
    match = errcat.match_error(text, catalog)
    assert match is not None and match.params == {
        "prefix": "'lm_head.qweight_type'",
        "model": "Qwen2ForCausalLM",
    }


_MODULE = st.from_regex(r"[a-z][a-z0-9_]{1,10}", fullmatch=True)
_CLASS = st.from_regex(r"[A-Z][a-z]{1,8}[A-Z]?[a-z]{0,6}", fullmatch=True)
_PROSE = st.from_regex(r"[a-z]{2,8}( [a-z]{1,8}){0,3}", fullmatch=True)


@given(_MODULE, _CLASS, _PROSE)
def test_a_dotted_name_before_lowercase_words_is_never_cut(
    module: str, cls: str, rest: str
) -> None:
    message = f"expected {module}.{cls} {rest}"
    assert all(f"{module}.{cls}" in form for form in _forms(f"TypeError: {message}"))


def test_a_line_under_the_message_is_tried_without_it() -> None:
    text = (
        "ValueError: Attempted to assign 6 x 256 = 1536 image tokens to 466 placeholders\n"
        "Command is shown as follows: swift infer --infer_backend vllm"
    )
    assert "Attempted to assign 6 x 256 = 1536 image tokens to 466 placeholders" in _forms(text)
    catalog = _catalog("Attempted to assign {expr} = {total} image tokens to {count} placeholders")
    match = errcat.match_error(text, catalog)
    assert match is not None and match.params["count"] == "466"


def test_a_template_that_spans_lines_still_explains_both() -> None:
    catalog = _catalog("Model failed to load.\nCheck the path {path}", "Model failed to load.")
    match = errcat.match_error("ValueError: Model failed to load.\nCheck the path /m/x", catalog)
    assert match is not None and match.record.error_message.startswith("Model failed to load.\n")
