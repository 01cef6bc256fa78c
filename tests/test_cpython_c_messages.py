"""The C-source reader of the background model (benchmarks/cpython_c_messages.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from cpython_c_messages import c_messages, example_of, messages_in, wording_of  # noqa: E402
from errcat.background import builtin_wording  # noqa: E402

words = st.lists(st.from_regex(r"zq[a-z]{1,6}", fullmatch=True), min_size=2, max_size=6)
conversions = st.sampled_from(["%d", "%zd", "'%.200s'", "'%U'", "%ld", "'%R'"])


@given(words, conversions, st.integers(min_value=0, max_value=5))
def test_a_format_s_wording_is_the_wording_of_what_it_prints(
    parts: list[str], conversion: str, at: int
) -> None:
    at = min(at, len(parts))
    fmt = " ".join([*parts[:at], conversion, *parts[at:]])
    # What C prints for the format: a number, or a quoted value with words of its own.
    printed = fmt.replace("%d", "17").replace("%zd", "3").replace("%ld", "9")
    printed = printed.replace("%.200s", "Some Name").replace("%U", "x y").replace("%R", "<obj>")
    assert wording_of(fmt) == builtin_wording(printed) == " ".join(parts)
    example = example_of(fmt)
    assert example is not None and builtin_wording(example) == wording_of(fmt)


def test_an_unquoted_value_gives_no_example() -> None:
    # Its words would be the printed message's, not the format's.
    assert example_of("%.200s() takes no arguments") is None
    assert example_of("division by zero") == "division by zero"


def test_calls_are_read_across_lines_and_joined_literals() -> None:
    source = """
        if (b == 0) {
            PyErr_SetString(PyExc_ZeroDivisionError,
                            "integer division "
                            "or modulo by zero");
        }
        _PyErr_Format(tstate, PyExc_TypeError, "'%.200s' object is not iterable", name);
        PyErr_SetString(state->error, "not a built-in class");
        PyErr_Format(PyExc_ValueError, buffer, x);
    """
    assert messages_in(source) == [
        ("ZeroDivisionError", "integer division or modulo by zero"),
        ("TypeError", "'%.200s' object is not iterable"),
    ]


def test_a_source_tree_s_folders_are_read(tmp_path: Path) -> None:
    (tmp_path / "Objects").mkdir()
    (tmp_path / "Python").mkdir()
    (tmp_path / "Objects" / "a.c").write_text('PyErr_SetString(PyExc_KeyError, "gone away");')
    (tmp_path / "Python" / "b.c").write_text('PyErr_Format(PyExc_OSError, "bad fd %d", fd);')
    (tmp_path / "Lib").mkdir()  # not C's: Python code
    (tmp_path / "Lib" / "c.c").write_text('PyErr_SetString(PyExc_KeyError, "not read");')
    assert sorted(c_messages(tmp_path)) == [("KeyError", "gone away"), ("OSError", "bad fd %d")]
