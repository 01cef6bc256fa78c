"""Tests of the levers the miner traces guards to, and of the solutions written from them."""

from __future__ import annotations

import ast
import re
import textwrap
from datetime import datetime, timezone
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.mine import mine_paths
from errcat.mine.advice import DOC_WORDS
from errcat.mine.levers import hardware_ref, model_key, package_ref
from errcat.models import ErrorRecord

WHEN = datetime(2026, 1, 2, tzinfo=timezone.utc)

ARGS = """
import argparse
from dataclasses import dataclass
from typing import Annotated, Literal, Optional
A = Annotated

class Arg:
    def __init__(self, **kw): ...

@dataclass
class ServerArgs:
    model_path: A[str, "The model to serve."] = ""
    allow_auto_truncate: A[bool, "Truncate requests longer than the context."] = False
    context_length: A[Optional[int], "The model's maximum context length."] = None
    tool_call_parser: A[Optional[str], "The parser of tool calls."] = None
    attention_backend: A[Literal["fa3", "triton", "flashinfer"], "Attention kernels."] = "triton"
    hicache_ratio: A[float, "Host to device cache size ratio."] = 2.0
"""


def _mine(tmp_path: Path, files: dict[str, str]) -> dict[str, ErrorRecord]:
    root = tmp_path / "sglang"
    for name, text in {"__init__.py": "", "launch_server.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    result = mine_paths([root], repo="sgl-project/sglang", sha="0" * 40, analyzed_at=WHEN)
    return {r.error_message: r for r in result.records}


def _only(records: dict[str, ErrorRecord], start: str) -> ErrorRecord:
    [record] = [r for m, r in records.items() if m.startswith(start)]
    return record


def test_an_instance_attribute_set_from_a_flag_names_the_flag(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "manager.py": """
                from sglang.server_args import ServerArgs
                def get_serving():
                    return CONTEXT.bag("serving")
                class Manager:
                    def __init__(self, server_args: ServerArgs):
                        self.server_args = server_args
                        self.allow_auto_truncate = get_serving().allow_auto_truncate
                    def _validate(self, n):
                        if n >= 100:
                            if self.allow_auto_truncate:
                                n = 99
                            else:
                                raise ValueError(f"The input ({n} tokens) is too long.")
            """,
        },
    )
    r = _only(records, "The input")
    assert r.solutions[0] == (
        "Pass --allow-auto-truncate. --allow-auto-truncate: Truncate requests longer than the "
        "context"
    )
    assert r.example_fix == (
        "# before\npython -m sglang.launch_server --model-path <model>\n"
        "# after\npython -m sglang.launch_server --model-path <model> --allow-auto-truncate"
    )
    assert "--allow-auto-truncate is not set" in r.documentation
    assert "self." not in " ".join(r.solutions)


def test_an_attribute_of_another_class_is_traced_to_the_flag_its_callers_pass(
    tmp_path: Path,
) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "pool.py": """
                class HostPool:
                    def __init__(self, device_size, ratio):
                        self.size = int(device_size * ratio)
                    def allocate(self, available):
                        if self.size > available:
                            raise ValueError("Not enough host memory available.")
            """,
            "engine.py": """
                from sglang.pool import HostPool
                from sglang.server_args import ServerArgs
                def start(server_args: ServerArgs, device_size):
                    return HostPool(device_size, server_args.hicache_ratio)
            """,
        },
    )
    r = _only(records, "Not enough host memory")
    assert r.solutions[0].startswith("Lower --hicache-ratio if you can (it decides `size`)")


def test_a_lookup_in_a_class_table_gives_its_keys_as_the_flag_values(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "parser.py": """
                class FunctionCallParser:
                    ToolCallParserEnum = {"deepseekv3": 1, "qwen25": 2, "llama3": 3}
                    def __init__(self, tools, tool_call_parser: str):
                        detector_class = self.ToolCallParserEnum.get(tool_call_parser)
                        if detector_class:
                            self.detector = detector_class
                        else:
                            raise ValueError(f"Unsupported tool_call_parser: {tool_call_parser}")
            """,
            "serving.py": """
                from sglang.parser import FunctionCallParser
                def handle(request, server_args):
                    return FunctionCallParser(request.tools, server_args.tool_call_parser)
            """,
        },
    )
    r = _only(records, "Unsupported tool_call_parser")
    assert r.solutions[0].startswith(
        "Set --tool-call-parser to one of deepseekv3, qwen25, llama3. --tool-call-parser:"
    )
    assert "# after\npython -m sglang.launch_server --model-path <model> --tool-call-parser " in (
        r.example_fix
    )
    assert "ToolCallParserEnum" not in r.documentation


def test_request_fields_model_config_and_packages_are_levers(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "protocol.py": """
                from typing import Optional
                class BaseModel: ...
                class SamplingParams(BaseModel):
                    max_tokens: Optional[int] = 16
                    def _verify_args(self):
                        if self.max_tokens is not None and self.max_tokens < 1:
                            raise ValueError(f"max_tokens must be at least 1: {self.max_tokens}")
            """,
            "config.py": """
                import flashinfer
                from transformers import PretrainedConfig
                SUPPORTED = ("LlamaForCausalLM", "Qwen2ForCausalLM")
                def check(hf_config, server_args):
                    arch = hf_config.architectures[0]
                    if arch not in SUPPORTED:
                        raise ValueError(f"Model architecture {arch} is not supported.")
                def load(config: PretrainedConfig):
                    if config.num_experts > 64:
                        raise ValueError("Too many experts.")
                def kernel():
                    if not is_flashinfer_available():
                        raise ImportError("flashinfer is required for this backend.")
            """,
        },
    )
    tokens = _only(records, "max_tokens must be at least 1")
    assert tokens.solutions[0] == "Send a value at least 1 as `max_tokens` in the request"
    assert "the request's `max_tokens` is less than 1" in tokens.documentation
    arch = _only(records, "Model architecture")
    assert (
        arch.solutions[0]
        == (
            "Use a model whose config.json `architectures[0]` is one of LlamaForCausalLM, "
            "Qwen2ForCausalLM"
        )
        or "config.json" in arch.solutions[0]
    )
    experts = _only(records, "Too many experts")
    assert experts.solutions[0] == (
        "Use a model whose config.json `num_experts` is a value at most 64"
    )
    package = _only(records, "flashinfer is required")
    assert package.solutions[0] == "Install flashinfer (pip install flashinfer)"


def test_hardware_scopes_but_is_no_fix_unless_the_message_says_so(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "pool.py": """
                _is_xpu = is_xpu()
                def budget(requested, available):
                    if not _is_xpu and requested > available:
                        raise ValueError("Not enough host memory available.")
                def allocate(n):
                    return budget(n * 2, free())
                def backend(server_args):
                    if server_args.attention_backend == "fa3" and is_blackwell():
                        raise ValueError("The fa3 backend is not supported on Blackwell GPUs")
            """,
        },
    )
    memory = _only(records, "Not enough host memory")
    assert not any("XPU" in s or "xpu" in s for s in memory.solutions)
    assert "internal check" in memory.solutions[0]
    fa3 = _only(records, "The fa3 backend")
    assert fa3.solutions[0].startswith(
        "Set --attention-backend to a value other than fa3 (one of triton, flashinfer)"
    )
    assert any(s.startswith("Run on another device than Blackwell GPUs") for s in fa3.solutions)


def test_no_way_out_leads_into_an_earlier_check_on_the_same_path(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "stage.py": """
                class Stage:
                    def forward(self, batch, server_args):
                        height, width = int(batch.height), int(batch.width)
                        if height % 16 or width % 16:
                            raise ValueError(f"canvas must be a multiple of 16: {width}x{height}")
                        if server_args.attention_backend == "fa3":
                            raise ValueError("fa3 cannot draw this canvas")
            """,
        },
    )
    later = _only(records, "fa3 cannot draw")
    text = " ".join(later.solutions) + later.documentation
    assert "% 16" not in text
    assert later.solutions[0].startswith("Set --attention-backend to a value other than fa3")


def test_internal_state_is_never_a_solution(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "sched.py": """
                class Scheduler:
                    def step(self):
                        if self._errors >= self._max_errors:
                            raise RuntimeError("Scheduler terminated after too many errors.")
                        assert self.pool is not None, "pool must exist"
            """,
        },
    )
    for start in ("Scheduler terminated", "pool must exist"):
        r = _only(records, start)
        assert len(r.solutions) == 1 and "internal check of sglang" in r.solutions[0]
        assert "sgl-project/sglang/issues" in r.solutions[0]
        assert not re.search(r"`self\.|`_", " ".join(r.solutions))


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "server_args.attention_backend == 'fa3'",
                "server_args.context_length > 4096",
                "self.pool is None",
                "len(self.queue) > self.limit",
                "server_args.tool_call_parser is None",
                "_is_hip",
                "x.shape[0] != y.shape[0] * self.world_size",
            ]
        ),
        min_size=1,
        max_size=7,
    )
)
def test_documentation_stays_short(tests: list[str]) -> None:
    from errcat.mine.advice import write_advice
    from errcat.mine.facts import _Guard, _Option
    from errcat.mine.options import OptionIndex

    options = OptionIndex(
        [
            _Option("attention_backend", "--attention-backend"),
            _Option("context_length", "--context-length"),
            _Option("tool_call_parser", "--tool-call-parser"),
        ],
        [],
    )
    guard = _Guard("pkg.m.Engine.check", None, ("self", "server_args", "x", "y"))
    guard = _Guard(guard.function, None, guard.params, tuple((t, True) for t in tests))
    advice = write_advice(
        guard=guard,
        template="bad",
        error_class="ValueError",
        options=options,
        file_path="m.py",
        line=1,
    )
    assert len(advice.documentation.split()) <= DOC_WORDS
    assert advice.solutions  # a lever, or the internal check said so


def test_classifiers() -> None:
    def node(source: str) -> ast.expr:
        return ast.parse(source, mode="eval").body

    assert hardware_ref(node("current_platform.is_rocm()")) is not None
    assert hardware_ref(node("torch.cuda.get_device_capability()")) is not None
    assert hardware_ref(node("self.pool")) is None
    assert package_ref(node("has_deep_gemm()"), {"deep_gemm"}) is not None
    assert package_ref(node("is_port_available()"), {"torch"}) is None
    assert model_key(node("self.hf_text_config.num_attention_heads")) == "num_attention_heads"
    assert model_key(node("model_config.hf_config.quantization_config.get('quant_method')")) == (
        "quantization_config.quant_method"
    )


def test_a_property_reads_as_the_config_key_it_returns(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "model_config.py": """
                class ModelConfig:
                    def __init__(self, hf_config):
                        self.hf_config = hf_config
                    @property
                    def architectures(self):
                        return getattr(self.hf_config, "architectures", [])
            """,
            "registry.py": """
                from sglang.model_config import ModelConfig
                SUPPORTED = ("LlamaForCausalLM", "Qwen2ForCausalLM")
                def resolve(model_config: ModelConfig):
                    if not any(arch in SUPPORTED for arch in model_config.architectures):
                        raise ValueError("Model architectures are not supported for now.")
            """,
        },
    )
    r = _only(records, "Model architectures are not supported")
    assert r.solutions[0] == (
        "Use a model whose config.json `architectures` is one of LlamaForCausalLM, Qwen2ForCausalLM"
    )
    assert "no item of the model's `architectures` (config.json) is one of" in r.documentation


def test_a_flag_no_parser_defines_is_never_named(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "loader.py": '''
                def load(path, server_args):
                    """Read --vae-config.load-encoder style keys."""
                    if not path.endswith(".yaml"):
                        raise ValueError("Config file must be a yaml file.")
            ''',
        },
    )
    r = _only(records, "Config file must be")
    generated = " ".join([r.documentation, *r.solutions, r.example_fix, *r.prevention_tips])
    assert "--vae-config" not in generated


def test_a_limit_set_from_a_flag_or_the_model_names_both(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "model_config.py": """
                class ModelConfig:
                    def __init__(self, hf_text_config, context_length=None):
                        self.hf_text_config = hf_text_config
                        self._set_limit(context_length)
                    @classmethod
                    def from_server_args(cls, server_args):
                        return cls(None, context_length=server_args.context_length)
                    def _set_limit(self, context_length):
                        derived = read_limit(self.hf_text_config)
                        if context_length is not None:
                            self.context_len = context_length
                        else:
                            self.context_len = derived
            """,
            "manager.py": """
                from sglang.model_config import ModelConfig
                class Manager:
                    def __init__(self, server_args):
                        self.server_args = server_args
                        self.allow_auto_truncate = server_args.allow_auto_truncate
                        cls = getattr(self, "model_config_class", ModelConfig)
                        self.model_config = cls.from_server_args(server_args)
                        self.context_len = self.model_config.context_len
                    def _validate(self, tokens):
                        n = len(tokens)
                        if n >= self.context_len:
                            if self.allow_auto_truncate:
                                del tokens[self.context_len:]
                            else:
                                raise ValueError(
                                    f"The input ({n} tokens) is longer than the model's "
                                    f"context length ({self.context_len} tokens)."
                                )
            """,
        },
    )
    r = _only(records, "The input")
    assert r.solutions[0].startswith("Pass --allow-auto-truncate.")
    assert "Raise --context-length if you can (it decides `context_len`)." in " ".join(r.solutions)
    # The whole model decides it (no key to name): another model, no code name.
    assert "Use another model" in r.solutions
    assert "self." not in " ".join(r.solutions)


def test_a_scripts_flags_are_not_the_servers(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "search.py": """
                import argparse
                def main():
                    p = argparse.ArgumentParser()
                    p.add_argument("--mode", choices=["fwd", "bwd"])
                    return p.parse_args()
                if __name__ == "__main__":
                    main()
            """,
            "compilation.py": """
                from typing import Literal, get_args
                Methods = Literal["fp8", "awq", "gptq"]
                METHODS = list(get_args(Methods))
                class CompilationConfig:
                    def check(self):
                        if self.mode == "eager":
                            raise ValueError("eager mode cannot capture graphs")
                        if self.quantization not in METHODS:
                            raise ValueError(f"Unknown quantization method: {self.quantization}")
            """,
        },
    )
    eager = _only(records, "eager mode cannot")
    assert "--mode" not in " ".join([eager.documentation, *eager.solutions])
    unknown = _only(records, "Unknown quantization method")
    assert "one of fp8, awq, gptq" in unknown.documentation


def test_capability_config_keys_and_the_messages_you_can(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "platform.py": """
                class Platform:
                    @classmethod
                    def check_dtype(cls, dtype):
                        if dtype == "bfloat16" and not cls.has_device_capability(80):
                            raise ValueError(
                                "Bfloat16 is only supported on GPUs with compute capability 8.0. "
                                "You can use float16 instead: --dtype=half."
                            )
                def load(config):
                    return Platform.check_dtype(config.dtype)
            """,
            "registry.py": """
                SUPPORTED = ("LlamaForCausalLM",)
                def _raise_for_unsupported(architectures):
                    if not any(a in SUPPORTED for a in architectures):
                        raise ValueError(f"Model architectures {architectures} are not supported")
                def inspect(config):
                    return _raise_for_unsupported(config.names)
            """,
        },
    )
    bf16 = _only(records, "Bfloat16 is only supported")
    assert bf16.solutions[0] == "Use float16 instead: --dtype=half."
    assert "Run on a GPU whose compute capability is at least 80" in bf16.solutions
    assert "the GPU compute capability is below 80" in bf16.trigger_scenarios
    arch = _only(records, "Model architectures")
    assert (
        arch.solutions[0]
        == "Use a model whose config.json `architectures` is one of LlamaForCausalLM"
    )


def test_a_test_computed_from_the_model_asks_for_another_model() -> None:
    from errcat.mine.conditions import Reader, parse_test
    from errcat.mine.options import OptionIndex
    from errcat.mine.ways import ways_out

    reader = Reader(OptionIndex([], []))
    test = parse_test("not supports_v2(self.model_config.hf_config)")
    # The test is the code's own: the way names no code, only the lever (the model).
    assert [w.text for w in ways_out(reader, test)] == ["Use another model"]


def test_a_value_measured_by_a_call_that_takes_a_flag_is_not_that_flag(tmp_path: Path) -> None:
    """``free = measure(self.device)`` < x: no "Set --device to a value at least x".

    sglang's "The memory capacity is unbalanced" compared the GPU memory a call measured
    (given the device) with another rank's; the advice said to set --device to a number.
    A switch or a choice of names is never set to a number, raised or lowered; a number
    flag still is.
    """
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS.replace(
                '    hicache_ratio: A[float, "Host to device cache size ratio."] = 2.0\n',
                '    hicache_ratio: A[float, "Host to device cache size ratio."] = 2.0\n'
                '    device: A[Literal["cuda", "xpu"], "The device type."] = "cuda"\n',
            ),
            "runner.py": """
                from sglang.server_args import ServerArgs
                def measure(device, gpu_id):
                    return 1.0
                class Runner:
                    def __init__(self, server_args: ServerArgs, gpu_id):
                        self.device = server_args.device
                        self.ratio = server_args.hicache_ratio
                        self.gpu_id = gpu_id
                    def check(self):
                        lowest = measure(self.device, self.gpu_id)
                        local = measure(self.device, self.gpu_id)
                        if lowest < local * 0.9:
                            raise ValueError("The memory capacity is unbalanced.")
                    def check_ratio(self):
                        ratio = self.ratio or 2.0
                        if ratio < 1:
                            raise ValueError("The host cache ratio is too small.")
            """,
        },
    )
    unbalanced = _only(records, "The memory capacity")
    assert "--device" not in " ".join(unbalanced.solutions)
    ratio = _only(records, "The host cache ratio")
    assert any("--hicache-ratio" in s for s in ratio.solutions)


def test_two_flags_that_must_agree_are_named_without_code(tmp_path: Path) -> None:
    args = ARGS + (
        '    speculative_num_draft_tokens: A[Optional[int], "Draft tokens per step."] = None\n'
        '    speculative_block_size: A[Optional[int], "Block size of the verify window."] = None\n'
    )
    records = _mine(
        tmp_path,
        {
            "server_args.py": args,
            "spec.py": """
                def handle(server_args):
                    a = server_args.speculative_num_draft_tokens
                    b = server_args.speculative_block_size
                    if a is not None and b is not None and int(a) != int(b):
                        raise ValueError("Both draft tokens and block size are set but they differ")
                def sized(server_args, items):
                    if server_args.context_length * 2 != len(items):
                        raise ValueError("The doubled context does not fit the items")
            """,
        },
    )
    both = " ".join(_only(records, "Both draft tokens").solutions)
    assert (
        "Change --speculative-num-draft-tokens: it must be the same as --speculative-block-size"
        in both
    )
    assert "int(" not in both
    # a value the code computes (len(items)) is nothing a user can set the flag to
    assert "len(items)" not in " ".join(_only(records, "The doubled context").solutions)


def test_a_processors_attributes_are_not_config_keys(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "processor.py": """
                from transformers import ProcessorMixin, PretrainedConfig
                class AudioProcessor(ProcessorMixin):
                    def __call__(self, text, audios):
                        n = text.count(self.audio_token)
                        if n != len(audios):
                            raise ValueError(f"Found {n} audio tokens but {len(audios)} audios")
                def load(config: PretrainedConfig):
                    if config._experimental:
                        raise ValueError("Experimental configs are not loaded")
            """,
        },
    )
    audio = _only(records, "Found")
    assert "config.json" not in " ".join([audio.documentation, *audio.solutions])
    private = _only(records, "Experimental configs")
    assert "`_experimental`" not in " ".join(private.solutions)


def test_a_flag_that_must_be_an_enum_member_names_it(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "server_args.py": ARGS,
            "policy.py": """
                from enum import Enum
                class Mode(Enum):
                    FAST = "fast"
                    SLOW = "slow"
                def run(server_args):
                    if server_args.tool_call_parser != Mode.FAST:
                        raise ValueError("Only the fast parser runs here")
            """,
        },
    )
    first = _only(records, "Only the fast parser").solutions[0]
    assert first.startswith("Change --tool-call-parser: it must be ")
    assert "FAST" in first or "fast" in first


def test_an_or_of_ands_sharing_a_part_is_said_once(tmp_path: Path) -> None:
    # "(x set and not a float) or (x set and at most 1.0)": leaving x unset makes both
    # parts false; each part of an "and" is a way out on its own, never all of them.
    records = _mine(
        tmp_path,
        {
            "jais.py": """
                from transformers import PretrainedConfig
                class JaisConfig(PretrainedConfig):
                    def validate(self):
                        factor = self.alibi_scaling
                        if (factor is not None and not isinstance(factor, float)
                                or (factor is not None and factor <= 1.0)):
                            raise ValueError(f"alibi factor must be a float > 1.0, got {factor}")
            """,
        },
    )
    record = _only(records, "alibi factor")
    assert record.solutions, record.documentation
    for solution in record.solutions:
        clauses = [c.strip().lower() for c in solution.split("; and ")]
        assert len(clauses) == len(set(clauses)), solution
