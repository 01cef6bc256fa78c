"""A frameless ``'X' object has no attribute 'y'`` on a module only an engine defines.

errcat.matcher.engine_class answers it with that engine's family record (the
curated ``*.families.jsonl``), ahead of torch's ``Module.__getattr__`` record,
when the paste names that engine too; a paste naming no engine (remote code may
define a class of the same name), a class transformers defines too, an unknown
class, or a paste with frames (tests/test_family_named.py), is left as before.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.matcher import match_error
from errcat.matcher.engine_class import ENGINE_CLASS_CONFIDENCE, engines_of
from errcat.matcher.module_attr import MODULE_CLASS, MODULE_CONFIDENCE
from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
from errcat.tags import FAMILY_TAG

ROOT = Path(__file__).resolve().parents[1]
SGLANG, VLLM = "sgl-project/sglang", "vllm-project/vllm"
SGLANG_RUN = "$ python -m sglang.launch_server --model-path zai-org/GLM-4.5 --tp 8\n"
VLLM_RUN = "$ vllm serve my/model --tensor-parallel-size 2\n"

TORCH = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record.model_copy(
    update={
        "id": "70c0000000000001",
        "slug": "torch-getattr",
        "repo": "pytorch/pytorch",
        "file_path": "torch/nn/modules/module.py",
        "error_class": "AttributeError",
        "error_message": "'{type(self).__name__}' object has no attribute '{name}'",
        "message_pattern": "'(.+?)' object has no attribute '(.+?)'",
        "tags": ("errcat:generated", "errcat:in:__getattr__"),
    }
)


@cache
def _catalog() -> Catalog:
    families = sorted((ROOT / "curated").glob("*.families.jsonl"))
    return Catalog([TORCH]).merge(Catalog.from_path(*families))


@cache
def _table() -> dict[str, list[str]]:
    raw = resources.files("errcat").joinpath("_engine_classes.json.gz").read_bytes()
    engines: dict[str, list[str]] = json.loads(gzip.decompress(raw))["engines"]
    return engines


def _shared() -> str:
    """A model class both engines define (and transformers does not)."""
    both = set(_table()[SGLANG]) & set(_table()[VLLM])
    return min(n for n in both if n.endswith("ForCausalLM"))


def test_the_table_lists_module_classes_of_both_engines_sorted() -> None:
    table = _table()
    assert set(table) == {SGLANG, VLLM}
    for names in table.values():
        assert names == sorted(set(names)) and len(names) > 100
        assert all(MODULE_CLASS.fullmatch(n) for n in names)
    assert "Glm4MoeSparseMoeBlock" in table[SGLANG]
    assert "Qwen3ForCausalLM" not in table[VLLM]  # transformers defines it too


def test_engines_of_a_class() -> None:
    assert engines_of("Glm4MoeSparseMoeBlock") == (SGLANG,)
    assert engines_of(_shared()) == (SGLANG, VLLM)
    assert engines_of("Qwen3ForCausalLM") == ()


@pytest.mark.parametrize(
    "message",
    [
        "AttributeError: 'Glm4MoeSparseMoeBlock' object has no attribute '_enable_a2a_moe'.",
        "'Glm4MoeSparseMoeBlock' object has no attribute '_enable_a2a_moe'",
    ],
)
def test_a_class_only_sglang_defines_in_an_sglang_paste_is_sglangs_family(message: str) -> None:
    found = match_error(SGLANG_RUN + message, catalog=_catalog())
    assert found is not None and found.record.repo == SGLANG
    assert FAMILY_TAG in found.record.tags and found.record.error_class == "AttributeError"
    assert found.confidence == ENGINE_CLASS_CONFIDENCE


@pytest.mark.parametrize(
    "text",
    [
        "[Bug] AttributeError: 'Glm4MoeSparseMoeBlock' object has no attribute '_enable_a2a_moe'.",
        VLLM_RUN + "AttributeError: 'Glm4MoeSparseMoeBlock' object has no attribute 'x'",
    ],
)
def test_without_its_engine_named_the_class_stays_torchs(text: str) -> None:
    found = match_error(text, catalog=_catalog())
    assert found is not None and found.record.id == TORCH.id
    assert found.confidence == MODULE_CONFIDENCE


def test_a_class_transformers_defines_stays_torchs() -> None:
    text = VLLM_RUN + "AttributeError: 'Qwen3ForCausalLM' object has no attribute 'pooler'"
    found = match_error(text, catalog=_catalog())
    assert found is not None and found.record.id == TORCH.id
    assert found.confidence == MODULE_CONFIDENCE


def test_a_class_both_engines_define_is_the_named_engines() -> None:
    message = f"AttributeError: '{_shared()}' object has no attribute 'zqhook'"
    unnamed = match_error(message, catalog=_catalog())
    assert unnamed is not None and unnamed.record.id == TORCH.id
    for run, repo in ((VLLM_RUN, VLLM), (SGLANG_RUN, SGLANG)):
        found = match_error(run + message, catalog=_catalog())
        assert found is not None and found.record.repo == repo, run


def test_without_the_engines_family_torch_answers() -> None:
    text = SGLANG_RUN + "AttributeError: 'Glm4MoeSparseMoeBlock' object has no attribute 'x'"
    found = match_error(text, catalog=Catalog([TORCH]))
    assert found is not None and found.record.id == TORCH.id


@given(
    stem=st.from_regex(r"Zq[a-z]{1,8}", fullmatch=True),
    suffix=st.sampled_from(["ForCausalLM", "SparseMoeBlock", "DecoderLayer", "Attention"]),
    attribute=st.from_regex(r"zq[a-z_]{0,10}", fullmatch=True),
)
def test_an_unlisted_module_class_is_never_an_engines(
    stem: str, suffix: str, attribute: str
) -> None:
    text = f"{SGLANG_RUN}AttributeError: '{stem}{suffix}' object has no attribute '{attribute}'"
    found = match_error(text, catalog=_catalog())
    assert found is not None and found.record.id == TORCH.id
