"""Ranking between sglang's and vllm's records of one message by the engine a paste shows.

sglang and vllm raise many messages from code one copied from the other (model
loaders, quantization configs, tokenizer and processor utilities). The message
cannot tell the two records apart; the paste's log lines, command line, flags and
issue title can (:func:`errcat.engine.lean`), and the matcher weighs them.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from conftest import site_envelope
from errcat.advice import Advice
from errcat.catalog import Catalog
from errcat.engine import lean
from errcat.matcher import match_all, match_error
from errcat.models import RecordEnvelope

#: Messages both engines' bundled records raise, as each writes it: (class, template,
#: sglang's file, vllm's file). From data/records (identical messagePattern in both).
SHARED = (
    (
        "AttributeError",
        "Model {type(model).__name__} does not support BitsAndBytes quantization yet.",
        "python/sglang/srt/model_loader/loader.py",
        "vllm/model_executor/model_loader/loader.py",
    ),
    (
        "ValueError",
        "Unknown quantization method: {self.quantization}. Must be one of {supported}.",
        "python/sglang/srt/configs/model_config.py",
        "vllm/config/model.py",
    ),
    (
        "RuntimeError",
        "Cannot find any model weights with `{model_name_or_path}`",
        "python/sglang/srt/model_loader/loader.py",
        "vllm/model_executor/model_loader/default_loader.py",
    ),
    (
        "ValueError",
        "Cannot find any of {keys} in the model's quantization config.",
        "python/sglang/srt/layers/quantization/base_config.py",
        "vllm/model_executor/layers/quantization/base_config.py",
    ),
    (
        "ValueError",
        "Model loader extra config is not supported for load format {load_format}",
        "python/sglang/srt/model_loader/loader.py",
        "vllm/model_executor/model_loader/dummy_loader.py",
    ),
    (
        "AssertionError",
        "hybrid_override_pattern must have same length as num_hidden_layers",
        "python/sglang/srt/configs/nemotron_h.py",
        "vllm/transformers_utils/configs/nemotron_h.py",
    ),
)

REPOS = {"sglang": "sgl-project/sglang", "vllm": "vllm-project/vllm"}

_VALUE = st.from_regex(r"[A-Z][a-z]{2,8}[0-9]?(ForCausalLM)?", fullmatch=True)


def _record(n: int, repo: str, path: str, error_class: str, template: str) -> RecordEnvelope:
    return site_envelope(n, repo, path, error_class, template)


def _pair(shared: tuple[str, str, str, str]) -> tuple[Catalog, dict[str, str]]:
    """A catalog of sglang's and vllm's records of one message, and each engine's record id."""
    error_class, template, sglang_path, vllm_path = shared
    records = [
        _record(1, REPOS["sglang"], sglang_path, error_class, template),
        _record(2, REPOS["vllm"], vllm_path, error_class, template),
    ]
    return Catalog(records), {"sglang": f"{1:016x}", "vllm": f"{2:016x}"}


def _message(template: str, value: str) -> str:
    """The template with every placeholder filled by ``value``."""
    out, depth = [], 0
    for char in template:
        if char == "{":
            if depth == 0:
                out.append(value)
            depth += 1
        elif char == "}":
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)


#: Paste forms that carry one engine's evidence, by engine: each turns the exception's
#: ``Class: message`` line (and the bare message, for a title) into a paste.
Form = Callable[[str, str], str]
FORMS: dict[str, tuple[Form, ...]] = {
    "sglang": (
        lambda line, _: f"[2025-01-02 03:04:05 TP0] {line}",
        lambda line, _: f"[2025-01-02 03:04:05 DP1 TP3] Scheduler hit an exception: {line}",
        lambda line, _: "$ python -m sglang.launch_server --model-path m --tp 2\n" + line,
        lambda line, _: f"{line}\nlaunched with --mem-fraction-static 0.85 --context-length 8192",
        lambda _, message: f"[Bug] {message}",
        # sglang's log prefix beside a mention of the vllm it has installed: still sglang
        lambda line, _: (
            "vllm==0.6.3.post1\n[2025-01-02 03:04:05 TP0] Scheduler hit an exception:\n" + line
        ),
    ),
    "vllm": (
        lambda line, _: f"(EngineCore_DP0 pid=123) ERROR 05-12 10:00:00 [core.py:123] {line}",
        lambda line, _: f"ERROR 05-12 10:00:00 [core.py:123] {line}",
        lambda line, _: f"(APIServer pid=4567) {line}",
        lambda line, _: f"$ vllm serve m --max-model-len 4096\n{line}",
        lambda line, _: f"{line}\nwith --gpu-memory-utilization 0.9 --enforce-eager",
        lambda _, message: f"[Bug]: {message}",
        lambda line, _: "sglang 0.4.1 works, but\n(EngineCore_DP0 pid=9) " + line,
    ),
}

#: Paste forms without evidence of either engine.
NEUTRAL: tuple[Form, ...] = (
    lambda line, _: line,
    lambda line, _: f"error message:\n`{line}`",
    lambda _, message: message,
    lambda line, _: f"2025-01-02 03:04:05,123 ERROR {line}",
)


@given(
    shared=st.sampled_from(SHARED),
    value=_VALUE,
    engine=st.sampled_from(sorted(FORMS)),
    form=st.integers(min_value=0, max_value=6),
)
def test_a_paste_with_one_engine_s_evidence_answers_that_engine_s_record(
    shared: tuple[str, str, str, str], value: str, engine: str, form: int
) -> None:
    catalog, ids = _pair(shared)
    message = _message(shared[1], value)
    forms = FORMS[engine]
    paste = forms[form % len(forms)](f"{shared[0]}: {message}", message)
    assert lean(paste)[0] == engine
    answer = match_error(paste, catalog=catalog)
    assert answer is not None and answer.summary.id == ids[engine], paste
    assert any(f"the paste comes from {engine}" in r for r in answer.reasons)
    # The other engine's record is still listed, below it, not folded into its answer.
    ranked = match_all(paste, catalog=catalog)
    assert [m.summary.id for m in ranked] == [ids[engine], ids[_other(engine)]]
    assert ranked[1].confidence <= answer.confidence


@given(
    shared=st.sampled_from(SHARED),
    value=_VALUE,
    form=st.sampled_from(NEUTRAL),
)
def test_a_paste_without_evidence_is_no_confident_answer_for_either_engine(
    shared: tuple[str, str, str, str], value: str, form: Form
) -> None:
    # Nothing tells whose code printed it: the two records are listed, neither answers
    # (errcat.matcher.site_prior); each alone would.
    catalog, ids = _pair(shared)
    message = _message(shared[1], value)
    paste = form(f"{shared[0]}: {message}", message)
    assert lean(paste)[0] is None
    assert match_error(paste, catalog=catalog) is None
    (top, *_) = match_all(paste, catalog=catalog)
    assert {top.summary.id, *(a.id for a in top.alternatives)} == set(ids.values())
    assert not top.confident
    assert any("2 projects raise this message" in r for r in top.reasons)
    for engine, record_id in ids.items():
        alone = Catalog([r for r in catalog if r.id == record_id])
        single = match_error(paste, catalog=alone)
        assert single is not None and top.confidence <= single.confidence, engine


def test_advice_on_a_tie_between_the_engines_says_what_would_tell_them_apart() -> None:
    catalog, ids = _pair(SHARED[0])
    paste = "AttributeError: Model Qwen2ForCausalLM does not support BitsAndBytes quantization yet."
    assert match_error(paste, catalog=catalog) is None
    (hint, *_) = match_all(paste, catalog=catalog)
    assert hint.alternatives
    (note,) = [n for n in Advice.from_match(hint, text=paste).notes if "also raised" in n]
    assert "sglang and vllm both raise it" in note and "launch command" in note
    # With the engine shown, the answer is that engine's and nothing is folded into it.
    shown = match_error(f"$ vllm serve m\n{paste}", catalog=catalog)
    assert shown is not None and shown.summary.id == ids["vllm"] and not shown.alternatives


def test_a_frame_at_the_other_engine_s_raise_site_outweighs_the_log_prefix() -> None:
    # sglang up to 0.3 imported vllm's model loader: its log prefix above a vllm frame.
    catalog, ids = _pair(SHARED[0])
    paste = (
        "[2025-01-02 03:04:05 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/vllm/model_executor/model_loader/loader.py",'
        " line 120, in load_model\n"
        "    raise AttributeError(\n"
        "AttributeError: Model Qwen2ForCausalLM does not support BitsAndBytes quantization yet.\n"
    )
    assert lean(paste)[0] == "sglang"
    answer = match_error(paste, catalog=catalog)
    assert answer is not None and answer.summary.id == ids["vllm"]


def _other(engine: str) -> str:
    return "vllm" if engine == "sglang" else "sglang"
