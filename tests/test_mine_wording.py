"""The wording of mined advice as a user who cannot read the code meets it.

Three rules, each found on bundled records: the alternatives of one "or" the
code needs are one way ("Run on CUDA or on Intel XPUs", not "...; and run on
..."); a lever whose effect only a name in the code tells is said by what to
do with the lever, without that name; a solution quoted from the message shows
no raw placeholder.
"""

from __future__ import annotations

import re
import textwrap
from datetime import datetime, timezone
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from errcat.advice import _with_values
from errcat.mine import mine_paths
from errcat.mine.advice import message_advice
from errcat.mine.conditions import Reader, parse_test
from errcat.mine.facts import _Def, _Option
from errcat.mine.options import OptionIndex
from errcat.mine.ways import Way, alternatives, ways_out
from errcat.models import ErrorRecord
from errcat.slots import reword, slot

WHEN = datetime(2026, 1, 2, tzinfo=timezone.utc)
OPTIONS = """
import argparse
p = argparse.ArgumentParser()
p.add_argument("--dataset-path")
p.add_argument("--pcp-size", type=int, default=1)
p.add_argument("--mode", choices=["fast", "safe"])
p.add_argument("--use-a", action="store_true")
p.add_argument("--use-b", action="store_true")
"""
#: A name in backticks that is no flag, variable or value: a name only the code knows.
CODE_NAME = re.compile(r"`[a-z_][a-z0-9_.\[\]()]*`")


def _mine(tmp_path: Path, files: dict[str, str]) -> dict[str, ErrorRecord]:
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": "", "options.py": OPTIONS, **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    result = mine_paths([root], repo="o/r", sha="0" * 40, analyzed_at=WHEN)
    return {r.error_message: r for r in result.records}


def _reader(**defs: str) -> Reader:
    options = [
        _Option("dataset_path", "--dataset-path"),
        _Option("pcp_size", "--pcp-size", default="1"),
        _Option("mode", "--mode", choices=("fast", "safe")),
        _Option("use_a", "--use-a", is_bool=True),
        _Option("use_b", "--use-b", is_bool=True),
    ]
    found = {name: [_Def(name, expr)] for name, expr in defs.items()}
    return Reader(OptionIndex(options, []), defs=found)


# -- 1. the alternatives of one "or" -----------------------------------------------


def test_a_check_that_needs_one_of_two_platforms_offers_both_in_one_way(tmp_path: Path) -> None:
    """vllm's grouped_topk: "only available on CUDA and XPU platforms".

    Its first solution said "Run on CUDA (NVIDIA GPUs); and run on Intel XPUs"
    (both, which no machine is), then only "Run on CUDA", after the internal note.
    """
    records = _mine(
        tmp_path,
        {
            "ops.py": """
                from pkg.platforms import current_platform
                def grouped_topk(scores):
                    if not (current_platform.is_cuda() or current_platform.is_xpu()):
                        raise NotImplementedError(
                            "The fused kernel is only available on CUDA and XPU platforms"
                        )
            """,
        },
    )
    r = records["The fused kernel is only available on CUDA and XPU platforms"]
    assert r.solutions[0] == "Run on CUDA (NVIDIA GPUs) or on Intel XPUs"
    assert not any("; and" in s for s in r.solutions)


def test_flags_either_of_which_the_code_needs_are_one_way() -> None:
    reader = _reader()
    test = parse_test("not (cfg.use_a or cfg.use_b)")
    assert [w.text for w in ways_out(reader, test)] == ["Pass --use-a or --use-b"]
    # Written the other way round ("not a and not b") the two are separate ways, as before.
    test = parse_test("not cfg.use_a and not cfg.use_b")
    assert [w.text for w in ways_out(reader, test)] == ["Pass --use-a", "Pass --use-b"]


_TEXTS = st.lists(
    st.sampled_from(["Run on CUDA", "Run on ROCm", "Pass --a", "Set --b to 2", "Set X"]),
    min_size=1,
    max_size=5,
)


@given(_TEXTS)
def test_alternatives_keep_every_lever_once_per_kind(texts: list[str]) -> None:
    kinds = {"Run": "hardware", "Pass": "flag", "Set": "flag"}
    ways = [Way(t, "env" if t == "Set X" else kinds[t.split()[0]]) for t in texts]
    joined = alternatives(ways)
    assert len(joined) == len({w.kind for w in ways})
    shown = " ".join(w.text for w in joined)
    for text in texts:
        assert text.split(" ", 1)[1] in shown  # each alternative is said
    assert all(" and " not in w.text for w in joined)


# -- 2. a lever whose effect only a code name tells ------------------------------------


def test_a_value_the_code_computes_from_a_flag_is_not_named() -> None:
    """vllm said "Change --prefill-context-parallel-size: it decides `dcp_manager`, which must
    be set": a name the user cannot touch."""
    # A part of a flag's value (the reader takes a local assigned a flag for the flag).
    reader = _reader(data="cfg.dataset_path", size="cfg.pcp_size")
    assert [w.text for w in ways_out(reader, parse_test("data[0] is None"))] == [
        "Set --dataset-path"
    ]
    assert [w.text for w in ways_out(reader, parse_test("data[0] is not None"))] == [
        "Leave --dataset-path unset"
    ]
    # A flag that always has a value: another value, the default said (the code gives it).
    assert [w.text for w in ways_out(reader, parse_test("size[0] is None"))] == [
        "Set --pcp-size to a value other than yours (the default is 1)"
    ]


def test_the_value_a_code_name_must_take_is_kept_without_the_name() -> None:
    reader = _reader(kind="cfg.mode", both="pick(cfg.mode, cfg.dataset_path)")
    [way] = ways_out(reader, parse_test("kind[0] != 'tse'"))
    assert way.text == (
        "Set --mode to another of its values (one of fast, safe; the check needs a value it "
        "gives to be tse)"
    )
    [way] = ways_out(reader, parse_test("both not in ('x', 'y')"))
    assert way.text == (
        "Change --mode or --dataset-path (the check needs a value they give to be one of x, y)"
    )


def test_a_test_computed_from_a_switch_says_to_turn_it_the_other_way() -> None:
    reader = _reader()
    assert [w.text for w in ways_out(reader, parse_test("not supports(cfg.use_a)"))] == [
        "Pass --use-a, or leave it out if you pass it"
    ]


@given(st.sampled_from(["is None", "is not None", "== 'a'", "!= 3", "in ('a', 'b')"]))
def test_no_way_out_of_a_computed_value_names_it(comparison: str) -> None:
    reader = _reader(
        dcp_manager="cfg.pcp_size",
        data="load(cfg.dataset_path, cfg.use_a)",
        kind="cfg.mode",
    )
    for name in ("dcp_manager", "data", "kind"):
        found = ways_out(reader, parse_test(f"{name}[0] {comparison}"))
        assert found  # the lever is still named: the way is said without the code's name
        for way in found:
            assert not CODE_NAME.search(way.text), way.text
            assert not re.search(rf"\b{name}\b", way.text), way.text


# -- 3. placeholders ---------------------------------------------------------------


def test_a_solution_quoted_from_the_message_shows_no_raw_placeholder() -> None:
    """vllm's ray_utils: "Make sure you have at least 1 GPU available in a node
    current_node_id={current_node_id!r} current_ip={current_ip!r}." as a solution."""
    template = (
        "Current node has no GPU available. current_node_resource={current_node_resource!r}. "
        "vLLM engine cannot start without GPU. Make sure you have at least 1 GPU available in "
        "a node current_node_id={current_node_id!r} current_ip={current_ip!r}."
    )
    assert message_advice(template) == ["Make sure you have at least 1 GPU available in a node."]
    assert message_advice("Too long. Lower --max-len to at most {self.max_len}.") == [
        "Lower --max-len to at most <max len>."
    ]


def test_a_match_fills_the_slot_a_placeholder_became() -> None:
    [solution] = message_advice("Too long. Lower --max-len to at most {self.max_len}.")
    assert _with_values(solution, {"self.max_len": "8192"}) == "Lower --max-len to at most 8192."


def test_the_miner_writes_no_raw_placeholder_into_a_solution(tmp_path: Path) -> None:
    records = _mine(
        tmp_path,
        {
            "ray.py": """
                def start(resources, node_id, ip, needed):
                    if resources.get("GPU", 0) < 1:
                        raise ValueError(
                            f"No GPU here. Make sure you have at least 1 GPU in a node "
                            f"{node_id=} {ip=}. Use at least {needed} GPUs."
                        )
            """,
        },
    )
    [record] = [r for m, r in records.items() if m.startswith("No GPU here")]
    assert record.solutions[:2] == (
        "Make sure you have at least 1 GPU in a node.",
        "Use at least <needed> GPUs.",
    )


_NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)


@given(_NAMES, _NAMES, st.sampled_from(["", "!r", ":>4", "!s"]))
def test_reword_leaves_no_placeholder(name: str, other: str, spec: str) -> None:
    text = f"Use {{{name}{spec}}} and {{self.{other}}}; see {other}={{{other}{spec}}} ({{{{x}}}})."
    out = reword(text)
    assert re.search(r"(?<!\{)\{[a-z_][^{}]*\}(?!\})", out.replace("{x}", "")) is None, out
    assert slot(name) in out and "{x}" in out
    assert "=" not in out


def test_slot_names_a_value_by_its_last_name() -> None:
    assert slot("self.sampling_rate") == "<sampling rate>"
    assert slot("', '.join(sorted(backends))") == "<backends>"
    assert slot("a + b") == "<value>"


def test_the_other_side_of_a_comparison_is_named_by_its_levers() -> None:
    """sglang's io_struct: "... which must be `self.batch_size` (from the request's `text`)"."""
    reader = _reader(hashes="cfg.mode", size="cfg.dataset_path")
    [way] = ways_out(reader, parse_test("len(hashes[0]) != size[1]"))
    assert way.text == (
        "Set --mode to another of its values (one of fast, safe; the check needs a value it "
        "gives to match what --dataset-path gives)"
    )


def test_a_value_that_must_not_take_a_value_reads_not_to_be() -> None:
    reader = _reader(both="pick(cfg.mode, cfg.dataset_path)")
    [way] = ways_out(reader, parse_test("both == 'x'"))
    assert (
        way.text
        == "Change --mode or --dataset-path (the check needs a value they give not to be x)"
    )


def test_a_model_key_is_said_bigger_or_smaller_and_a_named_test_in_words() -> None:
    """vllm's kda: "Use a model whose `linear_attn_config` in its config.json gives a smaller
    `q_ns.shape[1]`"; sglang's "one for which `is_deepseek_model` does not hold"."""
    reader = _reader()
    [way] = ways_out(reader, parse_test("q.shape[hf_config.num_heads] > 3"))
    assert way.text == "Use a model whose config.json `num_heads` is smaller"
    # A bound the code computes: named by the levers it comes from, else a direction.
    [way] = ways_out(reader, parse_test("hf_config.heads < q.shape[1] * hf_config.size"))
    assert way.text == (
        "Use a model whose config.json `heads` is a value at least what the model's `size` gives"
    )
    [way] = ways_out(reader, parse_test("cfg.pcp_size > self.total_heads"))
    assert way.text == "Lower --pcp-size"
    [way] = ways_out(reader, parse_test("is_deepseek_model(hf_config.architectures)"))
    assert way.text == "Use a model that is not a deepseek model"
    reader = _reader(is_deepseek_model="check(hf_config.architectures, hf_config.model_type)")
    [way] = ways_out(reader, parse_test("not is_deepseek_model"))
    assert way.text == "Use a model that is a deepseek model"
