"""The real-exception benchmark's own parts: the harvest hook, labelling, forms and metrics.

``benchmarks/harvest_hook.py`` runs inside a test suite in a subprocess here
(never in this process: it patches unittest and pytest), and
``benchmarks/accuracy.py`` is checked on a tiny catalog mined from a file
written here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from errcat import Catalog
from errcat.mine import mine_paths

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import accuracy  # noqa: E402
import harvest  # noqa: E402

MODULE = textwrap.dedent(
    """\
    class ShapeError(ValueError):
        pass


    def check(n):
        if n < 0:
            raise ValueError(f"n must be a non-negative integer, got {n!r}")
        if n > 10:
            raise ShapeError(f"shape {n} exceeds the maximum of 10")
        return int("x" * n)


    def wrap(n):
        try:
            check(n)
        except ShapeError as exc:
            raise RuntimeError(f"could not build the grid for {n}") from exc
    """
)

TESTS = textwrap.dedent(
    """\
    import unittest

    import pytest

    import shapes


    class T(unittest.TestCase):
        def test_negative(self):
            with self.assertRaises(ValueError):
                shapes.check(-1)

        def test_callable_form(self):
            self.assertRaisesRegex(ValueError, "exceeds", shapes.check, 11)


    def test_pytest_raises():
        with pytest.raises(RuntimeError):
            shapes.wrap(12)


    def test_pytest_callable():
        pytest.raises(ValueError, shapes.check, 2)
    """
)


@pytest.fixture(scope="module")
def harvested(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, object]]]:
    root = tmp_path_factory.mktemp("harvest")
    (root / "shapes.py").write_text(MODULE)
    (root / "test_shapes.py").write_text(TESTS)
    hooks = root / "hooks"
    hooks.mkdir()
    shutil.copy(BENCH / "harvest_hook.py", hooks / "harvest_hook.py")
    (hooks / "sitecustomize.py").write_text("import harvest_hook\nharvest_hook.install()\n")
    out = root / "raw.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(ERRCAT_HARVEST_OUT=str(out), PYTHONPATH=f"{hooks}{os.pathsep}{root}")
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # only the hook: a faster start
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"),
            *("-p", "harvest_hook", "-o", "addopts=", "test_shapes.py"),
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    return root, rows


def test_hook_records_every_expected_exception_at_its_raise_site(
    harvested: tuple[Path, list[dict[str, object]]],
) -> None:
    root, rows = harvested
    source = (root / "shapes.py").read_text().splitlines()
    by_message = {str(row["message"]): row for row in rows}
    assert set(by_message) == {
        "n must be a non-negative integer, got -1",
        "shape 11 exceeds the maximum of 10",
        "could not build the grid for 12",
        "invalid literal for int() with base 10: 'xx'",
    }
    for row in rows:
        assert Path(str(row["file"])).name == "shapes.py"
        line = source[int(str(row["line"])) - 1]
        traceback = str(row["traceback"])
        assert traceback.startswith("Traceback (most recent call last):")
        assert traceback.rstrip().endswith(f"{row['error_class']}: {row['message']}")
        if str(row["message"]).startswith("invalid literal"):
            assert "raise" not in line  # raised in C, from this line
        else:
            assert line.strip().startswith("raise")
    shape = by_message["shape 11 exceeds the maximum of 10"]
    assert shape["error_class"] == "shapes.ShapeError"  # as a traceback prints it
    assert shape["how"] == "unittest"
    wrapped = by_message["could not build the grid for 12"]
    assert wrapped["chain"] == [
        {
            "link": "cause",
            "error_class": "shapes.ShapeError",
            "message": "shape 12 exceeds the maximum of 10",
            "file": str(root / "shapes.py"),
            "line": 9,
        }
    ]
    assert "The above exception was the direct cause" in str(wrapped["traceback"])


def test_raise_lines_and_test_paths(harvested: tuple[Path, list[dict[str, object]]]) -> None:
    root, _ = harvested
    lines = harvest.raise_lines(str(root / "shapes.py"))
    assert lines == frozenset({7, 9, 17})
    assert harvest.is_test_path("pkg/tests/helpers.py")
    assert harvest.is_test_path("Lib/test/test_argparse.py")
    assert not harvest.is_test_path("src/attr/_make.py")


def test_frozen_frames_belong_to_their_stdlib_file() -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    assert harvest.frozen_source("<frozen os>", stdlib) == stdlib / "os.py"
    found = harvest.frozen_source("<frozen importlib._bootstrap>", stdlib)
    assert found == stdlib / "importlib" / "_bootstrap.py"
    assert harvest.frozen_source("<frozen no_such_module>", stdlib) is None
    assert harvest.frozen_source(str(stdlib / "os.py"), stdlib) is None


def test_split_is_stable_and_balanced() -> None:
    splits = [harvest.split_of("p", f"src/p/m{i}.py", i) for i in range(400)]
    assert splits == [harvest.split_of("p", f"src/p/m{i}.py", i) for i in range(400)]
    assert 150 < splits.count("fit") < 250


def _case(row: dict[str, object], path: str) -> accuracy.Case:
    return accuracy.Case.from_row(
        {
            "project": "shapes",
            "repo": "pypi/shapes",
            "raise_path": path,
            "raise_line": row["line"],
            "error_class": row["error_class"],
            "message": row["message"],
            "traceback": row["traceback"],
        }
    )


def test_sites_decide_held_and_right(harvested: tuple[Path, list[dict[str, object]]]) -> None:
    root, rows = harvested
    mined = mine_paths([root / "shapes.py"], repo="pypi/shapes", sha="0" * 40, path_prefix="src")
    catalog = Catalog(mined.envelopes)
    sites = accuracy.Sites(catalog)
    cases = {str(r["message"]): _case(r, "src/shapes.py") for r in rows}
    negative = cases["n must be a non-negative integer, got -1"]
    held = sites.held(negative)
    assert held is not None and held.line == 7
    assert accuracy.literal_chars(held.template) == len("n must be a non-negative integer, got ")
    assert sites.held(cases["invalid literal for int() with base 10: 'xx'"]) is None
    right = sites.right_ids(negative, frames=True)
    assert right == {held.id}
    outcomes = list(accuracy.evaluate(cases.values(), catalog, sites, role="own"))
    assert len(outcomes) == len(cases) * len(accuracy.FORMS)
    rows_ = {(r.form, r.subset): r for r in accuracy.summarize(outcomes)}
    for form in accuracy.FORMS:
        assert rows_[(form, "all")].n == 4
        held_row = rows_[(form, "held")]
        assert held_row.n == 3
        assert held_row.in_candidates == 3
        assert held_row.wrong == held_row.answered - held_row.right
    # Bare lines of three distinct, specific messages: each finds its own record.
    assert rows_[("line", "held")].right == rows_[("line", "held")].top1 == 3
    bins = accuracy.reliability(outcomes)
    assert sum(b.n for b in bins) == sum(1 for o in outcomes if o.candidates)
    assert sum(b.right for b in bins) == sum(o.top_right for o in outcomes)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@given(
    message=st.text(st.characters(exclude_categories=["Cs"]), max_size=80),
    seed=st.text("0123456789abcdef", min_size=16, max_size=16),
)
@example(message="\x1b[0m", seed="0" * 16)  # a message that is itself a colour code
def test_log_form_is_the_line_behind_a_prefix_and_colour(message: str, seed: str) -> None:
    case = accuracy.Case(
        id=seed,
        project="p",
        repo="pypi/p",
        error_class="ValueError",
        message=message,
        raise_path="p.py",
        raise_line=1,
        traceback="",
        split="fit",
    )
    line = accuracy.render(case, "line")
    assert line == (f"ValueError: {message}" if message else "ValueError")
    log = accuracy.render(case, "log")
    plain = _ANSI.sub("", log)
    prefixes = [p for p, _ in accuracy.LOG_PREFIXES]
    stripped = [
        next((part[len(p) :] for p in prefixes if part.startswith(p)), None)
        for part in plain.split("\n")
    ]
    assert None not in stripped[:1]
    assert (
        "\n".join(
            s if s is not None else part
            for s, part in zip(stripped, plain.split("\n"), strict=True)
        )
        == _ANSI.sub("", line)  # the colour codes the log adds, and any the message held
    )


def _site(line: int, template: str, cls: str = "ValueError") -> object:
    from types import SimpleNamespace

    from errcat.patterns import template_to_pattern

    return SimpleNamespace(
        id=f"{line:016x}",
        file_path="Lib/m.py",
        line_number=line,
        error_class=cls,
        error_message=template,
        message_pattern=template_to_pattern(template),
    )


def _at(line: int, message: str, cls: str = "ValueError") -> accuracy.Case:
    return accuracy.Case(
        "c", "cpython", "python/cpython", cls, message, "Lib/m.py", line, "", "fit"
    )


def test_held_reads_empty_values_whitespace_values_and_tuple_arguments() -> None:
    sites = accuracy.Sites(
        [
            _site(3, "expected atext but found '{value}'"),
            _site(5, "Non-Ascii85 digit found: {c}"),
            _site(7, "data argument must be byte-ish (%r)", cls="TypeError"),
        ]
    )
    assert sites.held(_at(3, "expected atext but found ''")) is not None
    assert sites.held(_at(5, "Non-Ascii85 digit found: \x0c")) is not None
    tuple_args = "('data argument must be byte-ish (%r)', <class 'int'>)"
    assert sites.held(_at(7, tuple_args, cls="TypeError")) is not None
    assert sites.held(_at(3, "expected a word but found ''")) is None


def test_a_repr_placeholder_and_a_quoted_one_are_copies_on_bare_lines() -> None:
    sites = accuracy.Sites(
        [
            _site(653, "Mock object has no attribute {name!r}", cls="AttributeError"),
            _site(769, "Mock object has no attribute '{name}'", cls="AttributeError"),
        ]
    )
    case = _at(653, "Mock object has no attribute 'x'", cls="AttributeError")
    assert sites.right_ids(case, frames=False) == {f"{653:016x}", f"{769:016x}"}
    assert sites.right_ids(case, frames=True) == {f"{653:016x}"}


@given(st.text("abcdefghij xyz", min_size=1, max_size=12), st.sampled_from(["'", '"']))
def test_unquoted_patterns_match_what_the_quoted_ones_match(value: str, quote: str) -> None:
    from errcat.patterns import compile_pattern

    quoted = f"no attribute {quote}(.+?){quote} here"
    unquoted = accuracy._unquoted(quoted)
    assert quote not in unquoted
    message = f"no attribute {quote}{value}{quote} here"
    assert compile_pattern(quoted).full.fullmatch(message)
    assert compile_pattern(unquoted).full.fullmatch(message)


def test_c_twins_are_the_modules_their_own_c_module_overrides() -> None:
    twins = accuracy.c_twin_files()
    assert {"Lib/_pydecimal.py", "Lib/json/decoder.py", "Lib/operator.py", "Lib/heapq.py"} <= twins
    assert any(p in twins for p in ("Lib/datetime.py", "Lib/_pydatetime.py"))
    # Modules that only use a C helper, or have no C half, are not twins.
    assert not {"Lib/argparse.py", "Lib/enum.py", "Lib/typing.py", "Lib/shutil.py"} & twins


def test_an_answer_for_a_held_cause_is_not_counted_false_confident(
    harvested: tuple[Path, list[dict[str, object]]],
) -> None:
    root, rows = harvested
    mined = mine_paths([root / "shapes.py"], repo="pypi/shapes", sha="0" * 40, path_prefix="src")
    everything = Catalog(mined.envelopes)
    cause_only = Catalog(
        [e for e, r in zip(mined.envelopes, everything, strict=True) if "shape" in r.error_message]
    )
    row = next(r for r in rows if str(r["message"]).startswith("could not build the grid"))
    case = accuracy.Case.from_row(
        {
            **row,
            "project": "shapes",
            "repo": "pypi/shapes",
            "raise_path": "src/shapes.py",
            "raise_line": row["line"],
        }
    )
    assert [c[0].rsplit(".", 1)[-1] for c in case.causes] == ["ShapeError"]
    [outcome] = accuracy.evaluate_one(
        case, cause_only, None, role="disjoint:x", forms=("traceback",)
    )
    assert outcome.answer_id is not None and outcome.answer_cause
    assert accuracy.confident_rate([outcome], "disjoint:x")["traceback"] == (1, 1)
    assert accuracy.confident_rate([outcome], "disjoint:x", count_copies=False)["traceback"] == (
        0,
        1,
    )
    # Without the chain, the same answer is a confident answer the catalog does not hold.
    alone = accuracy.Case(**{**case.__dict__, "causes": ()})
    [bare] = accuracy.evaluate_one(alone, cause_only, None, role="disjoint:x", forms=("traceback",))
    assert not bare.answer_cause


def test_merged_file_is_one_catalog_part_holding_every_record(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text(MODULE)
    mined = mine_paths([tmp_path / "shapes.py"], repo="pypi/shapes", sha="0" * 40)
    lines = [e.model_dump_json() for e in mined.envelopes]
    assert len(lines) >= 3
    side, large = tmp_path / "catalog-mine.jsonl", tmp_path / "catalog-big.jsonl"
    side.write_text("\n".join(lines[:1]))  # no newline at the end: the next file's first
    large.write_text("".join(line + "\n" for line in lines[1:]))  # record must not join it
    merged = accuracy.merged_file(side, large)
    assert merged == tmp_path / "catalog-mine+big.jsonl"
    one = Catalog.from_path(merged)
    apart = Catalog.from_path(side, large)
    assert len(one.parts) == 1
    assert (
        sorted(r.id for r in one)
        == sorted(r.id for r in apart)
        == sorted(r.id for r in Catalog(mined.envelopes))
    )
    # Made again when a file it was made from is newer; kept otherwise.
    made = merged.stat().st_mtime_ns
    assert accuracy.merged_file(side, large).stat().st_mtime_ns == made
    large.write_text(lines[1] + "\n")
    os.utime(large, ns=(made + 10**9, made + 10**9))
    assert len(Catalog.from_path(accuracy.merged_file(side, large))) == 2
