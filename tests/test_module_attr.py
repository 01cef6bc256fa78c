"""A frameless ``'X' object has no attribute 'y'`` on a torch module: torch's ``__getattr__``.

The class name is the evidence (errcat.matcher.module_attr): a model class or one
of its parts answers with torch's record when the catalog holds it; any other class,
a paste with frames, or an attribute some record raises by name, does not.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.matcher import match_all, match_error
from errcat.matcher.module_attr import MODULE_CONFIDENCE, module_attribute
from errcat.models import EXAMPLE_ENVELOPE_JSON, ErrorRecord, RecordEnvelope

_BASE = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record


def _record(
    rid: str, repo: str, path: str, message: str, *, pattern: str, tags: tuple[str, ...]
) -> ErrorRecord:
    return _BASE.model_copy(
        update={
            "id": rid,
            "slug": rid,
            "repo": repo,
            "file_path": path,
            "error_class": "AttributeError",
            "error_message": message,
            "message_pattern": pattern,
            "tags": tags,
        }
    )


TORCH = _record(
    "70c0000000000001",
    "pytorch/pytorch",
    "torch/nn/modules/module.py",
    "'{type(self).__name__}' object has no attribute '{name}'",
    pattern="'(.+?)' object has no attribute '(.+?)'",
    tags=("errcat:generated", "errcat:in:__getattr__"),
)
#: An engine's own copy of the interpreter's wording, for any attribute.
ENGINE_COPY = _record(
    "e0c0000000000002",
    "sgl-project/sglang",
    "python/sglang/srt/managers/schedule_batch.py",
    "'{self.__class__.__name__}' object has no attribute '{name}'",
    pattern="'(.+?)' object has no attribute '(.+?)'",
    tags=("errcat:generated", "errcat:in:__getattr__"),
)
#: An engine that raises one attribute's message itself.
ENGINE_OWN = _record(
    "e0c0000000000003",
    "vllm-project/vllm",
    "vllm/model_executor/models/adapters.py",
    "'{cls}' object has no attribute 'pooler'",
    pattern="'(.+?)' object has no attribute 'pooler'",
    tags=("errcat:generated", "errcat:in:__getattr__"),
)
CATALOG = Catalog([TORCH, ENGINE_COPY])

MODULE_SUFFIXES = (
    "ForCausalLM",
    "ForConditionalGeneration",
    "ForSequenceClassification",
    "Model",
    "SparseMoeBlock",
    "DecoderLayer",
    "Attention",
    "MLP",
    "MoE",
    "ParallelLinear",
    "RMSNorm",
)
NOT_MODULES = (
    "NoneType",
    "str",
    "dict",
    "EagleProposer",
    "LLMEngine",
    "ServerArgs",
    "MHATokenToKVPoolHost",
    "JSONDecoder",
    "ModelRunner",
)

camel = st.text(string.ascii_uppercase, min_size=1, max_size=1).flatmap(
    lambda head: st.text(string.ascii_letters + string.digits, max_size=12).map(
        lambda rest: head + rest
    )
)
attributes = st.from_regex(r"_?[a-z][a-z0-9_]{0,20}", fullmatch=True)


@given(camel, st.sampled_from(MODULE_SUFFIXES), attributes)
def test_a_module_class_and_its_attribute_are_read_from_the_shape(
    stem: str, suffix: str, attribute: str
) -> None:
    cls = stem + suffix
    found = module_attribute(f"'{cls}' object has no attribute '{attribute}'")
    assert found is not None and (found.cls, found.attribute, found.whole) == (cls, attribute, True)


@given(
    camel,
    st.sampled_from(MODULE_SUFFIXES),
    attributes,
    st.sampled_from(["**", "`", "_", ""]),
    st.sampled_from([".", "", "!"]),
)
def test_markdown_emphasis_and_a_final_period_leave_the_message_whole(
    stem: str, suffix: str, attribute: str, mark: str, end: str
) -> None:
    found = module_attribute(
        f"{mark}'{stem}{suffix}' object has no attribute '{attribute}'{end}{mark}"
    )
    assert found is not None and found.whole and found.attribute == attribute


@given(camel, st.sampled_from(MODULE_SUFFIXES), attributes, st.sampled_from(["--", "error: ", "("]))
def test_a_lead_in_or_a_lost_opening_quote_reads_as_inside_other_text(
    stem: str, suffix: str, attribute: str, lead: str
) -> None:
    found = module_attribute(
        f"crashed with {lead}{stem}{suffix}' object has no attribute '{attribute}'"
    )
    assert found is not None and not found.whole and found.cls == stem + suffix


@given(st.sampled_from(NOT_MODULES), attributes)
def test_other_classes_are_not_modules(cls: str, attribute: str) -> None:
    assert module_attribute(f"'{cls}' object has no attribute '{attribute}'") is None


@given(camel, st.sampled_from(MODULE_SUFFIXES), attributes)
def test_a_name_glued_to_a_word_is_not_a_class(stem: str, suffix: str, attribute: str) -> None:
    assert module_attribute(f"x'{stem}{suffix}' object has no attribute '{attribute}'") is None
    assert module_attribute(f"x{stem}{suffix}' object has no attribute '{attribute}'") is None


@pytest.mark.parametrize(
    "text",
    [
        "AttributeError: 'Glm4MoeSparseMoeBlock' object has no attribute '_enable_a2a_moe'",
        "**AttributeError: 'Glm4vMoeForConditionalGeneration' object has no attribute 'capture'**",
        "[Bug] AttributeError: 'Qwen2Model' object has no attribute 'embed_tokens'.",
        "reranker failed with error --Qwen3ForCausalLM' object has no attribute 'pooler'",
    ],
)
def test_a_frameless_module_attribute_error_is_torchs(text: str) -> None:
    found = match_error(text, catalog=CATALOG)
    assert found is not None and found.record.id == TORCH.id
    assert found.confidence == MODULE_CONFIDENCE and found.params["name"]
    assert match_all(text, catalog=CATALOG)[0].record.id == TORCH.id


def test_another_class_stays_unanswered_without_frames() -> None:
    assert (
        match_error("AttributeError: 'EagleProposer' object has no attribute 'x'", catalog=CATALOG)
        is None
    )


def test_a_record_raising_that_attribute_by_name_leaves_it_to_scoring() -> None:
    text = "AttributeError: 'Qwen3ForCausalLM' object has no attribute 'pooler'"
    found = match_error(text, catalog=Catalog([TORCH, ENGINE_COPY, ENGINE_OWN]))
    assert found is None or found.record.id != TORCH.id


def test_without_torchs_record_nothing_answers() -> None:
    text = "AttributeError: 'Qwen3ForCausalLM' object has no attribute 'tp_size'"
    assert match_error(text, catalog=Catalog([ENGINE_COPY])) is None


def test_a_traceback_is_left_to_its_frames() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 3, in <module>\n'
        "    model.tp_size\n"
        "AttributeError: 'Qwen3ForCausalLM' object has no attribute 'tp_size'\n"
    )
    found = match_error(text, catalog=CATALOG)
    assert found is None or found.confidence != MODULE_CONFIDENCE
