"""The Rust-source reader of compiled extensions' texts (benchmarks/rust_messages.py).

A format string written in any of the shapes the reader knows must come back as
the same format, and its template's pattern must match every text Rust prints
from it, whatever the values; a text with other literal words must not match.
"""

from __future__ import annotations

import sys
from pathlib import Path

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from errcat.patterns import template_to_pattern  # noqa: E402
from rust_messages import messages_in, python_class, rust_template  # noqa: E402
from stack_extensions import c_template, pieces_of  # noqa: E402

words = st.from_regex(r"zq[a-z]{1,6}", fullmatch=True)
#: A placeholder as Rust writes it, and whether it takes a positional argument.
fields = st.sampled_from(["{}", "{:?}", "{name}", "{name:?}", "{0}", "{:>8}"])
values = st.from_regex(r"[A-Za-z0-9_./:' -]{1,12}", fullmatch=True)


@st.composite
def formats(draw: st.DrawFn) -> list[str]:
    """A format as its pieces: words, placeholders and literal braces, in turn."""
    pieces: list[str] = [draw(words)]
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        pieces.append(draw(st.sampled_from(["{}", "{:?}", "{name}", "{0}", "{{", "}}"])))
        pieces.append(" " + draw(words))
    return pieces


def _printed(pieces: list[str], filler: list[str]) -> str:
    """What Rust prints: each placeholder a value, ``{{`` and ``}}`` one brace."""
    out = []
    it = iter(filler)
    for piece in pieces:
        if piece in ("{{", "}}"):
            out.append(piece[0])
        elif piece.startswith("{"):
            out.append(next(it))
        else:
            out.append(piece)
    return "".join(out)


@settings(max_examples=60, deadline=None)
@given(formats(), st.lists(values, min_size=5, max_size=5))
def test_a_template_s_pattern_matches_every_text_its_format_prints(
    pieces: list[str], filler: list[str]
) -> None:
    fmt = "".join(pieces)
    template = rust_template(fmt, ["self.zqarg", "other"])
    pattern = template_to_pattern(template)
    assert regex.fullmatch(pattern, _printed(pieces, filler)) is not None
    # Another literal word is another message.
    assert regex.fullmatch(pattern, "zzunrelated " + _printed(pieces, filler)) is None


@settings(max_examples=60, deadline=None)
@given(formats(), st.sampled_from(["new_err", "pyerr", "attr", "anyhow", "display"]))
def test_a_format_written_in_any_known_call_is_read_back_as_written(
    pieces: list[str], shape: str
) -> None:
    fmt = "".join(pieces)
    literal = '"' + fmt.replace("\\", "\\\\").replace('"', '\\"') + '"'
    source = {
        "new_err": f"return Err(SafetensorError::new_err(format!({literal}, a, b)));",
        "pyerr": f"PyErr::new::<pyo3::exceptions::PyValueError, _>(format!({literal}, a))",
        "attr": f"pub enum E {{\n    /// doc\n    #[error({literal})]\n    ZqVariant(String),\n}}",
        "anyhow": f"anyhow::bail!({literal}, a);",
        "display": f"ZqVariant(x) => write!(f, {literal}),",
    }[shape]
    found = messages_in("// a comment\n" + source)
    assert [m.fmt for m in found] == [fmt]
    assert found[0].line == (4 if shape == "attr" else 2)
    if shape in {"attr", "display"}:
        assert found[0].variant == "ZqVariant"


def test_placeholders_are_named_after_their_arguments() -> None:
    assert rust_template("{} at {:?}", ["&self.filename.display()", "x + 1"]) == (
        "{filename} at {value}"
    )
    assert rust_template("{n} and {{literal}}", ["n = 3"]) == "{n} and {{literal}}"


def test_a_multi_line_literal_joins_its_continuation_lines() -> None:
    source = (
        'SafetensorError::new_err(format!(\n    "Unknown dtype {other:?}. Supported: bool, \\\n'
        '     int8",\n))'
    )
    expected = ["Unknown dtype {other}. Supported: bool, int8"]
    assert [m.template for m in messages_in(source)] == expected


def test_ensure_takes_the_literal_after_its_condition() -> None:
    source = 'anyhow::ensure!(parts.is_empty(), "zq remaining: {:?}", parts);'
    assert [m.template for m in messages_in(source)] == ["zq remaining: {parts}"]


def test_a_call_without_a_literal_is_no_text() -> None:
    assert messages_in(".map_err(|e| PyErr::new::<HarmonyError, _>(e.to_string()))") == []


def test_python_classes_of_pyo3_types_and_a_binding_s_own() -> None:
    assert python_class("pyo3::exceptions::PyRuntimeError", {}) == "RuntimeError"
    assert python_class("HarmonyError", {"HarmonyError": "openai_harmony.HarmonyError"}) == (
        "openai_harmony.HarmonyError"
    )
    assert python_class("Error", {}) is None


@settings(max_examples=40, deadline=None)
@given(st.lists(words, min_size=1, max_size=4), st.sampled_from(["%U", "%R", "%zd", "%.200s"]))
def test_a_c_format_s_template_matches_what_it_prints_with_or_without_a_path(
    parts: list[str], conversion: str
) -> None:
    template, pattern = c_template(" ".join(parts) + f" `{conversion}`%U", suffix=True)
    assert template == " ".join(parts) + " `{value}`"
    printed = " ".join(parts) + (" `17`" if conversion == "%zd" else " `zq value`")
    assert regex.fullmatch(pattern, printed) is not None
    assert regex.fullmatch(pattern, printed + " - at `$.zqfield`") is not None
    assert pieces_of(" ".join(parts) + f" {conversion} end", "c")[-1] == " end"
