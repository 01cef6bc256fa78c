"""A frameless family error in a paste that names the engine (errcat.matcher.family_named).

Only family records tagged errcat:answer:engine-named (the weight-name KeyErrors)
answer without frames, and only when the paste names their engine on enough
evidence (errcat.engine.detect) and their pattern prints the message whole.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import one_frame_traceback
from errcat.catalog import Catalog
from errcat.matcher import match_error
from errcat.matcher.engine_class import ENGINE_CLASS_CONFIDENCE
from errcat.matcher.family_named import NAMED_CONFIDENCE
from errcat.tags import ENGINE_NAMED_TAG, FAMILY_TAG

ROOT = Path(__file__).resolve().parents[1]
SGLANG_RUN = "Run command: `python -m sglang.launch_server --model-path my/model --tp 2`\n"
VLLM_RUN = "Run command: `vllm serve my/model --tensor-parallel-size 2`\n"


@cache
def _families() -> Catalog:
    return Catalog.from_path(*sorted((ROOT / "curated").glob("*.families.jsonl")))


def test_only_the_weight_name_families_carry_the_tag() -> None:
    tagged = [r for r in _families() if ENGINE_NAMED_TAG in r.tags]
    assert {r.repo for r in tagged} == {"sgl-project/sglang", "vllm-project/vllm"}
    assert all(FAMILY_TAG in r.tags and r.error_class == "KeyError" for r in tagged)
    assert all("weight" in r.message_pattern for r in tagged)


@pytest.mark.parametrize(
    ("run", "repo"), [(SGLANG_RUN, "sgl-project/sglang"), (VLLM_RUN, "vllm-project/vllm")]
)
def test_a_weight_name_keyerror_in_a_paste_naming_the_engine_is_its_family(
    run: str, repo: str
) -> None:
    paste = run + "Error message: `KeyError: 'model.layers.0.mlp.experts.w2_weight_scale_inv'`"
    found = match_error(paste, catalog=_families())
    assert found is not None and found.record.repo == repo
    assert ENGINE_NAMED_TAG in found.record.tags and found.confidence == NAMED_CONFIDENCE


def test_without_the_engine_named_it_stays_unanswered() -> None:
    paste = "Error message: `KeyError: 'model.layers.0.mlp.experts.w2_weight_scale_inv'`"
    assert match_error(paste, catalog=_families()) is None


def test_an_untagged_family_needs_its_frames_even_with_the_engine_named() -> None:
    paste = VLLM_RUN + "NameError: name 'vllm_ops' is not defined"
    found = match_error(paste, catalog=_families())
    assert found is None or FAMILY_TAG not in found.record.tags


@pytest.mark.parametrize(
    ("run", "frame", "error", "confidence"),
    [
        (
            VLLM_RUN,
            ("/srv/app/convert.py", "convert", "tensor = state[name]"),
            "KeyError: 'model.layers.0.self_attn.q_proj.weight'",
            NAMED_CONFIDENCE,
        ),
        (  # the module-class rule (errcat.matcher.engine_class) reads frameless reports only
            SGLANG_RUN,
            ("/srv/app/run.py", "<module>", "block._enable_a2a_moe"),
            "AttributeError: 'Glm4MoeSparseMoeBlock' object has no attribute '_enable_a2a_moe'",
            ENGINE_CLASS_CONFIDENCE,
        ),
    ],
)
def test_a_traceback_is_left_to_its_frames(
    run: str, frame: tuple[str, str, str], error: str, confidence: float
) -> None:
    found = match_error(run + one_frame_traceback(*frame, error), catalog=_families())
    assert found is None or found.confidence != confidence


@given(key=st.from_regex(r"zq[a-z_]{0,12}", fullmatch=True))
def test_a_word_key_is_not_a_weight_name(key: str) -> None:
    found = match_error(f"{SGLANG_RUN}KeyError: '{key}'", catalog=_families())
    assert found is None or ENGINE_NAMED_TAG not in found.record.tags
