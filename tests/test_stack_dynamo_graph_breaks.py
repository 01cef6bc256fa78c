"""torch.compile's graph-break types in errcat-data-torch (stack_curated.dynamo_graph_breaks).

The records are read from ``torch/_dynamo/graph_break_registry.json`` of the torch wheel
the stack pins. These tests drive the reader on small registries and sources, check that
every record's pattern reads the text torch's ``format_graph_break_message`` prints (a
property test over drawn names, explanations, hints and contexts), and that the committed
package answers a study-set paste (sglang#10062, even) with the type's record.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import stack_package_catalog, study_stack_texts
from errcat.patterns import compile_pattern

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from stack_curated import dynamo_graph_breaks as gb


def printed(gb_type: str, context: str, explanation: str, hints: list[str], gb_id: str) -> str:
    """The text torch 2.14's ``format_graph_break_message`` lays out (its code, restated)."""
    explanation = textwrap.indent(explanation, "    ").lstrip()
    hints_str = "\n".join("  Hint: " + textwrap.indent(h, "    ").lstrip() for h in hints)
    context = textwrap.indent(context, "    ").lstrip()
    msg = (
        f"{gb_type}\n  Explanation: {explanation}\n{hints_str}\n\n"
        f"  Developer debug context: {context}"
    )
    digits = gb_id.removeprefix("GB")
    return msg + (
        "\n\n For more details about this graph break, please visit:"
        f" https://meta-pytorch.github.io/compile-graph-break-site/gb/gb{digits}.html"
    )


def registry(*entries: tuple[str, list[dict[str, object]]]) -> str:
    return json.dumps(dict(entries), indent=2)


def entry(name: str, context: str = "", explanation: str = "", *hints: str) -> dict[str, object]:
    return {"Gb_type": name, "Context": context, "Explanation": explanation, "Hints": list(hints)}


def test_the_registry_gives_current_names_first_then_the_names_older_releases_printed() -> None:
    text = registry(
        ("GB0001", [entry("zqalpha type")]),
        ("GB0039", [entry("zqrecompile limit exceeded"), entry("zqcache limit exceeded")]),
        ("GB0170", [entry("zqbranching"), entry("_gb_type"), entry("zqalpha type")]),
    )
    breaks = gb.read_registry(text)
    assert [(b.gb_id, b.gb_type, b.renamed_to) for b in breaks] == [
        ("GB0001", "zqalpha type", None),
        ("GB0039", "zqrecompile limit exceeded", None),
        ("GB0170", "zqbranching", None),
        ("GB0039", "zqcache limit exceeded", "zqrecompile limit exceeded"),
    ]
    assert [b.registry_line for b in breaks] == [2, 10, 24, 10]


def test_the_raise_site_is_the_first_call_naming_the_type_literally() -> None:
    late = b'unimplemented(gb_type="zqname", context="", explanation="", hints=[])\n'
    early = b'x = 1\n\nunimplemented(\n    gb_type="zqname",\n)\nunimplemented(gb_type=name)\n'
    sites = gb.raise_sites([("torch/_dynamo/b.py", late), ("torch/_dynamo/a.py", early)])
    assert sites == {"zqname": ("torch/_dynamo/a.py", 3)}
    assert gb.raise_sites([("torch/x.py", b"def (:\n gb_type")]) == {}


def test_a_config_option_a_hint_names_becomes_the_environment_setting_that_turns_it_on() -> None:
    env = gb.config_env(
        "import os\n"
        'capture_scalar_outputs = os.environ.get("TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS") == "1"\n'
        'verbose: bool = os.environ.get("TORCHDYNAMO_VERBOSE", "0") == "1"\n'
        "other = 3\n"
    )
    assert env == {
        "capture_scalar_outputs": "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1",
        "verbose": "TORCHDYNAMO_VERBOSE=1",
    }
    brk = gb.read_registry(
        registry(
            (
                "GB0002",
                [
                    entry(
                        "Unsupported Tensor.item() call with capture_scalar_outputs=False",
                        "",
                        "",
                        "Use `torch._dynamo.config.capture_scalar_outputs = True`",
                        "Set USE_DISTRIBUTED=1 to build torch with it.",
                    )
                ],
            )
        )
    )[0]
    spec = gb.graph_break_record(brk, None, "v2.14.1", env)
    advice = " ".join(spec.solutions)
    assert "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1 vllm serve" in advice
    assert "USE_DISTRIBUTED" not in advice
    assert spec.example_fix.endswith("TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1 vllm serve <model>")


def test_every_record_turns_the_compiler_off_in_the_engines_own_flags() -> None:
    brk = gb.read_registry(registry(("GB0208", [entry("torch.* op returned non-Tensor")])))[0]
    spec = gb.graph_break_record(brk, ("torch/_dynamo/variables/builder.py", 4268), "v2.14.1", {})
    assert "--enforce-eager" in spec.solutions[0]
    assert "--enable-torch-compile" in spec.solutions[0]
    assert spec.path == "torch/_dynamo/variables/builder.py" and spec.line == 4268
    env = spec.envelope()
    url = env.record.github_url
    assert url.endswith("/blob/v2.14.1/torch/_dynamo/variables/builder.py#L4268-L4268")
    assert "gb0208.html" in env.record.documentation


def test_a_type_without_a_call_site_links_to_its_registry_entry() -> None:
    brk = gb.read_registry(registry(("GB0007", [entry("zqgone type name here")])))[0]
    spec = gb.graph_break_record(brk, None, "v2.14.1", {})
    assert (spec.path, spec.line) == (gb.REGISTRY_PATH, 2)


def test_a_vague_name_needs_the_explanation_and_context_lines() -> None:
    brk = gb.read_registry(registry(("GB0100", [entry("Import failure")])))[0]
    pattern = gb.graph_break_record(brk, None, "v2.14.1", {}).pattern or ""
    assert compile_pattern(pattern).full.fullmatch("Import failure") is None
    full = printed("Import failure", "zqmod", "zqwhy", [], "GB0100")
    assert compile_pattern(pattern).full.fullmatch(full) is not None


_WORD = st.from_regex(r"zq[a-z]{2,8}", fullmatch=True)
_PHRASE = st.lists(_WORD, min_size=1, max_size=5).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(
    name=st.lists(_WORD, min_size=3, max_size=6).map(" ".join),
    explanation=_PHRASE,
    hints=st.lists(_PHRASE, max_size=3),
    context=_PHRASE,
    cut=st.sampled_from(["whole", "name", "explanation"]),
)
def test_the_pattern_reads_what_torch_prints_and_captures_the_context(
    name: str, explanation: str, hints: list[str], context: str, cut: str
) -> None:
    brk = gb.read_registry(registry(("GB0123", [entry(name, context, explanation, *hints)])))[0]
    spec = gb.graph_break_record(brk, None, "v2.14.1", {})
    text = printed(name, context, explanation, hints, "GB0123")
    if cut == "name":
        text = name
    elif cut == "explanation":
        text = f"{name}\n  Explanation: {explanation}"
    full = compile_pattern(spec.pattern or "").full
    m = full.fullmatch(text)
    assert m is not None
    if cut == "whole":
        assert m.group(2).startswith(context)
    assert full.fullmatch("zqother " + name) is None


def test_a_pasted_graph_break_gets_its_type_s_record() -> None:
    match = errcat.match_error(
        study_stack_texts()["sglang-10062"], catalog=stack_package_catalog("torch")
    )
    assert match is not None
    assert match.record.error_message.startswith("torch.* op returned non-Tensor\n")
    assert match.record.error_class == "torch._dynamo.exc.Unsupported"
    assert "--enforce-eager" in match.record.solutions[0]


def test_the_name_inside_prose_is_not_the_record() -> None:
    match = errcat.match_error(
        "We saw that torch.* op returned non-Tensor values in our notes yesterday.",
        catalog=stack_package_catalog("torch"),
    )
    assert match is None or "graph-break" not in match.record.tags
