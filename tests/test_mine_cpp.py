"""errcat.mine.cpp: torch's C++ check macros read as message templates and records."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from conftest import ZQ_WORD
from errcat.catalog import Catalog
from errcat.matcher import match_error
from errcat.mine.cpp import find_checks, mine_cpp_sources
from errcat.mine.cpp.checks import DEFAULT_CHECK
from errcat.mine.cpp.lexer import blank_comments, read_string, split_arguments
from errcat.mine.cpp.records import site_pattern
from errcat.models import validate_envelope
from errcat.patterns import compile_pattern, template_to_pattern

KERNEL = r"""
#include <torch/all.h>
// TORCH_CHECK(false, "in a comment: not a site");
#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_DIM(d, x) \
  TORCH_CHECK(x.dim() == d, #x " must be a " #d "D tensor")

void rms_norm(torch::Tensor& out, torch::Tensor& input, int64_t block_size) {
  CHECK_CUDA(input);
  TORCH_CHECK(
      block_size == 16 || block_size == 32,
      "Unsupported block size: ", block_size,
      ". Supported: 16, 32");
  TORCH_CHECK_NOT_IMPLEMENTED(false, "No kernel for SM ", sm);
  TORCH_CHECK(out.is_contiguous());
  /* TORCH_CHECK(false, "also a comment"); */
  STD_TORCH_CHECK(input.dim() == 2, "input must be 2D");
}
"""


def test_sites_lines_and_templates() -> None:
    sites = {s.template: s for s in find_checks(KERNEL)}
    assert set(sites) == {
        "{x} must be a CUDA tensor",
        "{x} must be a {d}D tensor",
        "Unsupported block size: {block_size}. Supported: 16, 32",
        "No kernel for SM {sm}",
        DEFAULT_CHECK.replace("{cond}", "out.is_contiguous()"),
        "{__func__}, {__FILE__}:{__LINE__}, input must be 2D",
    }
    assert sites["Unsupported block size: {block_size}. Supported: 16, 32"].line == 10
    assert sites["{x} must be a {d}D tensor"].line == 6  # the TORCH_CHECK, on the continuation
    assert sites["{x} must be a {d}D tensor"].defined_in == "CHECK_DIM"
    assert sites["No kernel for SM {sm}"].error_class == "NotImplementedError"


def test_records_validate_and_answer_what_torch_prints() -> None:
    envelopes, stats = mine_cpp_sources(
        [("csrc/layernorm.cu", KERNEL)], repo="vllm-project/vllm", sha="a" * 40
    )
    assert stats.records == len(envelopes) == 6
    for envelope in envelopes:
        validate_envelope(envelope, strict=True)
    catalog = Catalog.from_path(*_write(envelopes))
    printed = (
        "Traceback (most recent call last):\n"
        '  File "/x/vllm/_custom_ops.py", line 300, in rms_norm\n'
        "    torch.ops._C.rms_norm(out, input, weight, epsilon)\n"
        "RuntimeError: Unsupported block size: 64. Supported: 16, 32\n"
    )
    match = match_error(printed, catalog=catalog)
    assert match is not None
    assert match.record.file_path == "csrc/layernorm.cu"
    assert match.record.line_number == 10
    assert match.params["block_size"] == "64"
    assert "errcat:native:torch-check" in match.record.tags


def _write(envelopes: list[dict[str, object]]) -> list[str]:
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "c.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in envelopes), encoding="utf-8")
    return [str(path)]


_TEXT = st.text(alphabet=string.printable.replace("\x0b", "").replace("\x0c", ""), max_size=40)


def _c_literal(value: str) -> str:
    out = []
    for c in value:
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


@given(_TEXT)
def test_read_string_inverts_escaping(value: str) -> None:
    literal = _c_literal(value)
    assert read_string(literal + " tail", 0) == (value, len(literal))


@given(st.lists(_TEXT, min_size=1, max_size=4))
def test_split_arguments_keeps_literals_whole(values: list[str]) -> None:
    literals = [_c_literal(v) for v in values]
    assert split_arguments(", ".join(literals)) == literals


@given(_TEXT)
def test_blank_comments_keeps_length_lines_and_strings(value: str) -> None:
    literal = _c_literal(value)
    source = f"a = {literal}; // x\n/* y\n z */ b"
    blanked = blank_comments(source)
    assert len(blanked) == len(source)
    assert blanked.count("\n") == source.count("\n")
    assert literal in blanked
    assert "x" not in blanked.split(literal, 1)[1]


_WORDS = st.text(alphabet=string.ascii_letters + " ,.:()", min_size=3, max_size=30).filter(
    lambda t: sum(c.isalpha() for c in t) >= 2
)
_EXPR = st.from_regex(r"[a-z_][a-z0-9_]{0,8}(\.size\([0-9]\))?", fullmatch=True)
_PART = st.one_of(_WORDS.map(lambda w: ("lit", w)), _EXPR.map(lambda e: ("expr", e)))


@given(st.lists(_PART, min_size=1, max_size=5), st.lists(st.integers(0, 9999), min_size=5))
def test_template_matches_the_message_torch_prints(
    parts: list[tuple[str, str]], values: list[int]
) -> None:
    """c10::str of the arguments, with any value for each expression, fits the template."""
    args = [_c_literal(p) if kind == "lit" else p for kind, p in parts]
    site = find_checks(f"TORCH_CHECK(cond, {', '.join(args)});")[0]
    printed = "".join(p if kind == "lit" else str(values[i]) for i, (kind, p) in enumerate(parts))
    if not any(kind == "lit" and p.strip() for kind, p in parts):
        return
    compiled = compile_pattern(template_to_pattern(site.template))
    assert compiled.full.fullmatch(printed.strip()) is not None, (site.template, printed)


# --- a message-less check's default sentence, cut anywhere (issue 26) ---------------------

_ZQ = st.text(alphabet="abcdefghij", min_size=1, max_size=6).map(lambda w: "zq" + w)


@given(words=st.lists(_ZQ, min_size=1, max_size=4), cut=st.integers(min_value=0, max_value=30))
def test_a_default_check_matches_its_sentence_cut_between_any_two_words(
    words: list[str], cut: int
) -> None:
    """``Expected <cond> to be true, but got false.`` matches with torch's sentence after it
    whole, absent, or cut after any of its words (pastes stop anywhere in it)."""
    cond = " && ".join(words)
    site = find_checks(f"TORCH_CHECK({cond});")[0]
    pattern = site_pattern(site, "csrc/zq.cu")
    head, _, tail = site.template.partition("but got false.")
    pieces = tail.split(" ")
    shown = head + "but got false." + " ".join(pieces[: min(cut, len(pieces))])
    assert re.fullmatch(pattern, shown.rstrip()) is not None
    assert re.fullmatch(pattern, site.template) is not None
    assert re.fullmatch(pattern, head + "but got false.  (Could th") is None


def test_sgl_kernels_cutlass_check_cut_inside_torchs_sentence_is_answered() -> None:
    """sglang-7482 (study set, even thread): the paste stops at '(Could this error message be
    improved'; sgl-kernel's record in native/ takes the cut sentence as its own text."""
    from conftest import study_stack_texts

    native = Path(__file__).resolve().parents[1] / "native" / "sgl-project__sglang.cpp.jsonl"
    catalog = Catalog.bundled().merge(Catalog.from_path(native))
    match = match_error(study_stack_texts()["sglang-7482"], catalog=catalog)
    assert match is not None
    assert match.record.file_path.startswith("sgl-kernel/csrc/")
    assert match.record.error_message.startswith("Expected status == cutlass::Status::kSuccess")


_OPS = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])


@given(ZQ_WORD, ZQ_WORD, _OPS, ZQ_WORD)
def test_a_macros_bare_comparison_of_its_parameters_is_no_site(
    a: str, b: str, op: str, word: str
) -> None:
    """torch's default sentence around the caller's condition belongs to no one macro."""
    bare = f"#define ZQ_CHECK({a}x, {b}y) TORCH_CHECK(({a}x) {op} ({b}y))\n"
    assert find_checks(bare) == []
    worded = f'#define ZQ_CHECK({a}x, {b}y) TORCH_CHECK(({a}x) {op} ({b}y), "{word} " #{a}x)\n'
    assert [s.template for s in find_checks(worded)] == [f"{word} {{{a}x}}"]
    called = f"TORCH_CHECK({a}x {op} {b}y);"
    (site,) = find_checks(called)
    assert site.template == DEFAULT_CHECK.replace("{cond}", f"{a}x {op} {b}y")
