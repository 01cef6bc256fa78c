"""errcat.mine.cpp on the kernel libraries' check macros: templates, location-free patterns."""

from __future__ import annotations

import string

import regex
from hypothesis import given
from hypothesis import strategies as st

from errcat.mine.cpp import find_checks, mine_cpp_sources
from errcat.mine.cpp.kernels import printf_template
from errcat.mine.cpp.lexer import split_arguments, split_operands
from errcat.mine.cpp.records import site_pattern
from errcat.models import validate_envelope

FLASHINFER = r"""
#define FLASHINFER_ERROR(message) throw flashinfer::Error(__FUNCTION__, __FILE__, __LINE__, message)
#define FLASHINFER_CHECK(condition, ...) \
  do { if (!(condition)) { FLASHINFER_ERROR(msg); } } while (0)
#define CHECK_HEAD(h) FLASHINFER_CHECK(h % 16 == 0, #h " must be a multiple of 16")

struct Runner {
  explicit Runner(int sm) {
    FLASHINFER_CHECK(sm == 100 || sm == 103,
                     "Unsupported architecture");
    FLASHINFER_CHECK(n <= cap, "got", n, "tokens, at most", cap);
    FLASHINFER_CHECK(page_size > 0);
    FLASHINFER_CHECK(dtype == kBF16, "Unsupported dtype: " + std::string(toStr(dtype)));
  }
  void* alloc(size_t size, std::string name) {
    std::ostringstream oss;
    oss << "Buffer overflow when allocating memory for " << name << " with size "
        << size;
    oss << " bytes";
    FLASHINFER_ERROR(oss.str());
  }
  void plan(int n) {
    if (n > 8) throw std::runtime_error("split count " + std::to_string(n) + " too large");
    auto e = std::runtime_error("made, not thrown here");
  }
};
"""

DEEPEP = r"""
class EPException: public std::exception {
public:
    explicit EPException(const char *name, const char* file, const int line,
                         const std::string& error) {}
};
#define EP_HOST_ASSERT(cond) \
do { if (not (cond)) { throw EPException("Assertion", __FILE__, __LINE__, #cond); } } while (0)

void Buffer::dispatch(int n) {
    EP_HOST_ASSERT(x.size(0) == topk_idx.size(0) and
                   x.size(0) <= num_max_dispatch_tokens_per_rank);
    EP_STATIC_ASSERT(kNumRanks <= 8, "Too many ranks for one NVLink domain");
    throw EPException("DeepEP", __FILE__, __LINE__, "invalid buffer layout");
}
"""


def test_flashinfer_sites_print_what_its_error_class_prints() -> None:
    found = {s.template: s for s in find_checks(FLASHINFER)}
    prefix = "Error in function '{__FUNCTION__}' at {__FILE__}:{__LINE__}: "
    assert set(found) == {
        "{h} must be a multiple of 16".join((prefix, "")),
        prefix + "Unsupported architecture",
        prefix + "got {n} tokens, at most {cap}",  # arguments streamed space-separated
        prefix + "Check failed: page_size > 0",
        prefix + "Unsupported dtype: {toStr(dtype)}",
        prefix + "Buffer overflow when allocating memory for {name} with size {size} bytes",
        "split count {n} too large",
    }  # FLASHINFER_ERROR(msg) of the helper says nothing of its own: no site
    assert found[prefix + "Unsupported architecture"].line == 9
    assert found[prefix + "Unsupported architecture"].end_line == 10  # the call's last line
    assert found[prefix + "Unsupported architecture"].condition == "sm == 100 || sm == 103"
    assert found["{h} must be a multiple of 16".join((prefix, ""))].defined_in == "CHECK_HEAD"


def test_deepep_sites() -> None:
    found = {s.template: s for s in find_checks(DEEPEP)}
    assert set(found) == {
        "Failed: Assertion error {__FILE__}:{__LINE__} 'x.size(0) == topk_idx.size(0) and"
        " x.size(0) <= num_max_dispatch_tokens_per_rank'",
        'static assertion failed with "Too many ranks for one NVLink domain"',
        "Failed: DeepEP error {__FILE__}:{__LINE__} 'invalid buffer layout'",
    }  # the class's own constructor and the macro's #cond throw are no sites
    static = found['static assertion failed with "Too many ranks for one NVLink domain"']
    assert static.error_class == "nvcc"


def test_records_take_any_directory_and_line_but_only_their_file() -> None:
    envelopes, stats = mine_cpp_sources(
        [("csrc/deep_ep.cpp", DEEPEP)], repo="deepseek-ai/DeepEP", sha="b" * 40
    )
    assert stats.records == 3
    for envelope in envelopes:
        validate_envelope(envelope, strict=True)
    (record,) = [e["record"] for e in envelopes if "Assertion" in e["record"]["errorMessage"]]
    assert "errcat:native:kernel-check" in record["tags"]
    pattern = regex.compile(record["messagePattern"])
    condition = "'x.size(0) == topk_idx.size(0) and x.size(0) <= num_max_dispatch_tokens_per_rank'"
    for where in ("/sgl-workspace/DeepEP/csrc/deep_ep.cpp:1025", "deep_ep.cpp:7"):
        assert pattern.fullmatch(f"Failed: Assertion error {where} {condition}")
    assert not pattern.fullmatch(f"Failed: Assertion error /x/csrc/other.cpp:1025 {condition}")


DEEPGEMM = r"""
#define DG_HOST_ASSERT(cond) \
do { if (not (cond)) { throw DGException("Assertion", __FILE__, __LINE__, #cond); } } while (0)
#define DG_HOST_UNREACHABLE(reason) (throw DGException("Assertion", __FILE__, __LINE__, reason))

static void fp8_gemm_nt(const int& arch_major, const int& mn) {
    DG_HOST_ASSERT(mn % 4 == 0 and num_groups == 1);
    if (arch_major == 9) {
        sm90_fp8_gemm_1d2d(mn);
    } else {
        DG_HOST_UNREACHABLE("Unsupported architecture");
    }
    DG_HOST_UNREACHABLE(reason);
}
"""


def test_deepgemm_sites_print_dgexception_text_and_advise_turning_deepgemm_off() -> None:
    envelopes, stats = mine_cpp_sources(
        [("csrc/apis/gemm.hpp", DEEPGEMM)], repo="deepseek-ai/DeepGEMM", sha="c" * 40
    )
    assert stats.records == 2  # the unreachable branch with no literal reason says nothing
    records = {e["record"]["errorMessage"]: e["record"] for e in envelopes}
    assert set(records) == {
        "Assertion error ({__DIR__}gemm.hpp:{__LINE__}): mn % 4 == 0 and num_groups == 1",
        "Assertion error ({__DIR__}gemm.hpp:{__LINE__}): Unsupported architecture",
    }
    for envelope in envelopes:
        validate_envelope(envelope, strict=True)
    branch = records["Assertion error ({__DIR__}gemm.hpp:{__LINE__}): Unsupported architecture"]
    assert "errcat:native:kernel-check" in branch["tags"]
    assert any("SGLANG_ENABLE_JIT_DEEPGEMM=0" in s for s in branch["solutions"])
    pasted = (
        "Assertion error (/sgl-kernel/build/_deps/repo-deepgemm-src/csrc/apis/../jit_kernels/"
        "impls/../../apis/gemm.hpp:56): Unsupported architecture"
    )
    assert regex.fullmatch(branch["messagePattern"], pasted)
    other_file = pasted.replace("gemm.hpp", "attention.hpp")
    assert not regex.fullmatch(branch["messagePattern"], other_file)


_DIR = st.lists(st.from_regex(r"[A-Za-z0-9_.-]{1,12}", fullmatch=True), max_size=5)


@given(_DIR, st.integers(min_value=1, max_value=10**6), st.sampled_from(["", "/"]))
def test_location_pattern_is_prefix_and_line_agnostic(
    parts: list[str], line: int, root: str
) -> None:
    site = find_checks('FLASHINFER_CHECK(sm >= 100, "Unsupported architecture");')[0]
    pattern = regex.compile(site_pattern(site, "include/flashinfer/trtllm/fmha/fmhaRunner.cuh"))
    path = root + "/".join([*parts, "fmhaRunner.cuh"])
    printed = f"Error in function 'Runner' at {path}:{line}: Unsupported architecture"
    match = pattern.fullmatch(printed)
    assert match is not None
    assert match.group(2) + "fmhaRunner.cuh" == path and match.group(3) == str(line)
    assert not pattern.fullmatch(printed.replace("fmhaRunner.cuh", "fmhaKernels.cuh"))


_IDENT = st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True)
_LITERAL = st.text(alphabet=string.ascii_letters + " ,()+<:'", max_size=12).map(
    lambda t: '"' + t + '"'
)


@st.composite
def _argument(draw: st.DrawFn) -> str:
    """A C++ argument: a name, a literal (commas and operators inside), a call, a concatenation."""
    kind = draw(st.sampled_from(["name", "literal", "call", "concat"]))
    if kind == "name":
        return str(draw(_IDENT))
    if kind == "literal":
        return str(draw(_LITERAL))
    if kind == "call":
        inner = draw(st.lists(st.one_of(_IDENT, _LITERAL), max_size=3))
        return f"{draw(_IDENT)}({', '.join(inner)})"
    return " + ".join(draw(st.lists(st.one_of(_IDENT, _LITERAL), min_size=2, max_size=4)))


@given(st.lists(_argument(), min_size=1, max_size=6))
def test_split_arguments_recovers_each_argument(arguments: list[str]) -> None:
    assert split_arguments(", ".join(arguments)) == arguments
    assert split_arguments(",\n  ".join(arguments)) == arguments


@given(st.lists(st.one_of(_IDENT, _LITERAL), min_size=1, max_size=6))
def test_split_operands_recovers_each_operand(operands: list[str]) -> None:
    assert split_operands(" + ".join(operands), "+") == operands
    assert split_operands(" << ".join(operands), "<<") == operands


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["lit", "expr"]),
            st.text(alphabet=string.ascii_letters + " ", min_size=1, max_size=10),
        ),
        min_size=1,
        max_size=5,
    ),
    st.integers(0, 10**6),
)
def test_flashinfer_check_template_matches_its_space_joined_message(
    parts: list[tuple[str, str]], value: int
) -> None:
    """FLASHINFER_CHECK streams its arguments with one space between: the template agrees."""
    if not any(kind == "lit" and sum(c.isalpha() for c in text) >= 3 for kind, text in parts):
        return
    args = ['"' + t + '"' if k == "lit" else "v" + str(i) for i, (k, t) in enumerate(parts)]
    (site,) = find_checks(f"FLASHINFER_CHECK(ok, {', '.join(args)});")
    printed = " ".join(t if k == "lit" else str(value) for k, t in parts)
    message = f"Error in function 'f' at /a/b/k.cu:{value}: {printed}"
    pattern = regex.compile(site_pattern(site, "csrc/k.cu"), regex.DOTALL)
    assert pattern.fullmatch(message) is not None, (site.template, message)


TLLM = r"""
#define TLLM_CHECK(val) \
  do { \
    TLLM_LIKELY(static_cast<bool>(val)) ? ((void)0) : throwRuntimeError(__FILE__, __LINE__, #val); \
  } while (0)
void run(int n, int64_t experts) {
  TLLM_CHECK(workspace != nullptr);
  TLLM_CHECK_WITH_INFO(n <= 256, "Only up to %d experts per node, got %ld.", 256, experts);
  TLLM_CHECK_WITH_INFO(ok, msg);
}
"""


def test_tensorrt_llm_checks_print_the_exceptions_sentence_and_printfs_values() -> None:
    """flashinfer's csrc/nv_internal: TllmException's text, the info filled as printf fills it."""
    templates = [s.template for s in find_checks(TLLM)]
    assert templates == [
        "[TensorRT-LLM][ERROR] Assertion failed: workspace != nullptr ({__FILE__}:{__LINE__})",
        "[TensorRT-LLM][ERROR] Assertion failed: Only up to {256} experts per node, got"
        " {experts}. ({__FILE__}:{__LINE__})",
    ]  # TLLM_CHECK_WITH_INFO(ok, msg): a message built elsewhere is no site
    envelopes, _ = mine_cpp_sources([("csrc/moe/runner.cu", TLLM)], repo="o/r", sha="0" * 40)
    printed = (
        "[TensorRT-LLM][ERROR] Assertion failed: Only up to 256 experts per node, got 384."
        " (/workspace/csrc/moe/runner.cu:8)"
    )
    assert any(regex.fullmatch(e["record"]["messagePattern"], printed) for e in envelopes)


@given(
    st.lists(st.text(alphabet=string.ascii_lowercase, min_size=2, max_size=6), min_size=1),
    st.sampled_from(["%d", "%ld", "%zu", "%s", "%5.2f", "%u", "%x"]),
)
def test_printf_template_fills_each_conversion_with_its_argument(
    words: list[str], conversion: str
) -> None:
    fmt = " ".join(f"zq{w} {conversion}" for w in words) + " 100%%"
    names = [f"zqarg{i}" for i in range(len(words))]
    expected = " ".join(f"zq{w} {{{n}}}" for w, n in zip(words, names, strict=True)) + " 100%"
    assert printf_template(fmt, names) == expected
