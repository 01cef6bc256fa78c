"""errcat.engine: which engine and phase a paste shows."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from errcat.engine import _ENGINE_SIGNALS, PHASES, detect, lean

SGLANG_CAPTURE = """\
[2026-01-02 03:04:05 TP0] Load weight end. type=LlamaForCausalLM, avail mem=60.10 GB
[2026-01-02 03:04:09 TP0] Capture cuda graph begin. This can take up to several minutes.
[2026-01-02 03:04:10 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/x/sglang/srt/model_executor/cuda_graph_runner.py", line 380, in capture
    self.capture_one_batch_size(bs, forward)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.
"""

VLLM_PROFILE = """\
(EngineCore_DP0 pid=88) INFO 03-06 10:05:08 [gpu_model_runner.py:1990] Model loading took 14.99 GiB
(EngineCore_DP0 pid=88) Traceback (most recent call last):
(EngineCore_DP0 pid=88)   File "/vllm/v1/worker/w.py", line 2, in determine_available_memory
(EngineCore_DP0 pid=88)     self.model_runner.profile_run()
(EngineCore_DP0 pid=88) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.
"""

VLLM_V0_PROFILE = """\
Traceback (most recent call last):
  File "/x/vllm/worker/worker.py", line 190, in determine_num_available_blocks
    self.model_runner.profile_run()
  File "/x/vllm/worker/model_runner.py", line 1200, in profile_run
    self.execute_model(model_input, kv_caches, intermediate_tensors)
  File "/x/vllm/worker/model_runner.py", line 1600, in execute_model
    hidden_or_intermediate_states = model_executable(
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.
"""


def test_sglang_capture_from_frames() -> None:
    context = detect(SGLANG_CAPTURE)
    assert (context.engine, context.phase) == ("sglang", "cuda-graph-capture")
    assert context.phase_evidence == "cuda_graph_runner.py"


def test_torch_s_graph_module_on_the_stack_is_capture() -> None:
    # Any engine's traceback through torch.cuda.graphs fails while a graph is captured.
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/x/sglang/srt/model_executor/model_runner.py", line 312, in initialize\n'
        "    self.init_cuda_graphs()\n"
        '  File "/x/torch/cuda/graphs.py", line 186, in capture_end\n'
        "    self.cuda_graph.capture_end()\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB.\n"
    )
    context = detect(paste)
    assert (context.engine, context.phase) == ("sglang", "cuda-graph-capture")


def test_vllm_profile_run_is_kv_cache_allocation() -> None:
    context = detect(VLLM_PROFILE)
    assert (context.engine, context.phase) == ("vllm", "kv-cache-allocation")


def test_an_init_frame_outweighs_a_serving_frame_inside_it() -> None:
    # V0's profile run calls execute_model: still KV cache sizing, not serving.
    assert detect(VLLM_V0_PROFILE).phase == "kv-cache-allocation"


def test_log_line_tells_the_phase_without_frames() -> None:
    text = (
        "[2026-01-02 03:04:05 TP0] Decode batch. #running-req: 12\nSegmentation fault (core dumped)"
    )
    context = detect(text)
    assert (context.engine, context.phase) == ("sglang", "serving")


def test_weak_evidence_names_no_engine() -> None:
    assert detect("vllm").engine is None  # one word is not enough
    assert detect("torch.OutOfMemoryError: CUDA out of memory.").engine is None


def test_equal_evidence_names_no_engine() -> None:
    assert detect("python -m sglang.launch_server\nvllm serve M").engine is None


_NEUTRAL = st.text(alphabet=string.ascii_lowercase + " \n0123456789", max_size=200).filter(
    lambda t: "vllm" not in t and "sglang" not in t and "sgl" not in t
)


@given(_NEUTRAL, _NEUTRAL)
def test_neutral_text_around_a_paste_changes_nothing(before: str, after: str) -> None:
    for paste in (SGLANG_CAPTURE, VLLM_PROFILE):
        want = detect(paste)
        got = detect(f"{before}\n{paste}\n")
        assert (got.engine, got.phase) == (want.engine, want.phase)
        assert detect(f"{before}\n{after}").engine is None


@given(st.text(max_size=400))
def test_any_text_gives_a_known_engine_and_phase(text: str) -> None:
    context = detect(text)
    assert context.engine in {None, "sglang", "vllm"}
    assert context.phase is None or context.phase in PHASES
    assert isinstance(context.describe(), str)


def test_issue_titles_lean_to_the_engine_whose_template_writes_them() -> None:
    # sglang's templates title "[Bug] ...", vllm's "[Bug]: ..." (.github/ISSUE_TEMPLATE)
    assert lean("[Bug] Model architectures ['X'] are not supported for now.")[0] == "sglang"
    assert lean("[Feature]: support X")[0] == "vllm"
    assert lean("[New Model]: X")[0] == "vllm"
    # a title alone is not enough to pick an engine's advice
    assert detect("[Bug] something").engine is None
    assert lean("a [Bug] in the middle")[0] is None


def test_flags_only_one_engine_defines_lean_to_it() -> None:
    assert lean("python x.py --max-model-len 4096")[0] == "vllm"
    assert lean("run.sh --context-length 4096 --tp-size 2")[0] == "sglang"
    # a flag both define tells nothing
    assert lean("--tensor-parallel-size 2 --trust-remote-code")[0] is None


def test_lean_names_an_engine_on_any_net_evidence_detect_on_enough() -> None:
    assert lean("vllm")[0] == "vllm" and detect("vllm").engine is None
    assert lean("python -m sglang.launch_server\nvllm serve M")[0] is None


@given(_NEUTRAL)
def test_neutral_text_leans_to_no_engine(text: str) -> None:
    assert lean(text) == (None, ())
    for paste, engine in ((SGLANG_CAPTURE, "sglang"), (VLLM_PROFILE, "vllm")):
        assert lean(f"{text}\n{paste}")[0] == engine


@given(st.data())
def test_every_text_a_signal_finds_holds_its_gate(data: st.DataObject) -> None:
    # A paste holding none of a signal's gate strings is not searched for it: that is
    # right only if no text the pattern finds lacks them all. (No gate: always searched.)
    for _, _, label, pattern, gate in _ENGINE_SIGNALS:
        text = data.draw(st.from_regex(pattern), label=label)
        assert pattern.search(text)
        assert not gate or any(part in text for part in gate), (label, text)


def test_the_gates_leave_the_signals_of_real_pastes_as_they_were() -> None:
    for paste in (SGLANG_CAPTURE, VLLM_PROFILE, VLLM_V0_PROFILE):
        for text in (paste, paste.replace("TP0", "DP1 TP0"), f"[Bug]: {paste}"):
            for _, _, label, pattern, gate in _ENGINE_SIGNALS:
                if pattern.search(text) and gate:
                    assert any(part in text for part in gate), label
