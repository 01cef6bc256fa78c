"""Tests of the names the miner resolves: __name__, imported constants, dotted class names."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.mine import mine_paths, mine_source
from errcat.patterns import compile_pattern, template_to_pattern


def _mine(root: Path, files: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Write files under root, mine root; map each record's message to (class, file)."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    result = mine_paths([root], repo="o/r", sha="0" * 40)
    return {r.error_message: (r.error_class, r.file_path) for r in result.records}


def test_dunder_name_in_module_getattr_is_the_dotted_module(tmp_path: Path) -> None:
    got = _mine(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "sub/__init__.py": "",
            "sub/lazy.py": """
                def __getattr__(name):
                    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
            """,
        },
    )
    assert "module 'pkg.sub.lazy' has no attribute {name!r}" in got


def test_dunder_name_reassigned_is_left_a_placeholder() -> None:
    source = """
__name__ = compute()
def f():
    raise ValueError(f"bad module {__name__}")
"""
    assert mine_source(source, module="a.b") == [(4, "ValueError", "bad module {__name__}")]


def test_dunder_name_of_a_package_init_is_the_package(tmp_path: Path) -> None:
    got = _mine(
        tmp_path / "pkg",
        {"__init__.py": "def f():\n    raise ImportError(f'{__name__} needs numpy')\n"},
    )
    assert "pkg needs numpy" in got


def test_imported_multiline_constant_is_followed(tmp_path: Path) -> None:
    got = _mine(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "tips.py": 'TIPS = (\n    "Try:\\n"\n    "1. set --foo\\n"\n    "2. unset BAR"\n)\n',
            "run.py": """
                from pkg.tips import TIPS
                from .tips import TIPS as T2
                def f(x):
                    raise RuntimeError(f"capture failed for {x}.\\n{TIPS}")
                def g():
                    raise RuntimeError(f"again: {T2!r}")
            """,
        },
    )
    assert "capture failed for {x}.\nTry:\n1. set --foo\n2. unset BAR" in got
    assert "again: 'Try:\\n1. set --foo\\n2. unset BAR'" in got


def test_imported_constant_through_a_reexport(tmp_path: Path) -> None:
    got = _mine(
        tmp_path / "pkg",
        {
            "__init__.py": "from pkg._consts import HINT\n",
            "_consts.py": 'HINT = "see the docs"\n',
            "use.py": "from pkg import HINT\ndef f():\n    raise OSError(f'no device; {HINT}')\n",
        },
    )
    assert "no device; see the docs" in got


def test_a_parameter_that_shadows_an_import_stays_a_placeholder(tmp_path: Path) -> None:
    got = _mine(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "tips.py": 'TIPS = "read the manual"\n',
            "run.py": """
                from pkg.tips import TIPS
                def f(TIPS):
                    raise RuntimeError(f"capture failed: {TIPS}")
            """,
        },
    )
    assert "capture failed: {TIPS}" in got


def test_a_non_constant_import_stays_a_placeholder(tmp_path: Path) -> None:
    got = _mine(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "tips.py": "import os\nTIPS = os.getcwd()\n",
            "run.py": (
                "from pkg.tips import TIPS\n"
                "def f():\n"
                "    raise RuntimeError(f'in {TIPS}: failed')\n"
            ),
        },
    )
    assert "in {TIPS}: failed" in got


def test_class_names_are_dotted_through_namespace_subpackages(tmp_path: Path) -> None:
    got = _mine(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "sub/__init__.py": "",
            "sub/mod.py": (
                "class MyError(ValueError):\n"
                "    pass\n"
                "def f():\n"
                "    raise MyError('it broke badly')\n"
            ),
            "sub/ns/deep.py": (
                "class DeepError(Exception):\n"
                "    pass\n"
                "def g():\n"
                "    raise DeepError('deep trouble')\n"
            ),
        },
    )
    assert got["it broke badly"] == ("pkg.sub.mod.MyError", "sub/mod.py")
    assert got["deep trouble"] == ("pkg.sub.ns.deep.DeepError", "sub/ns/deep.py")


def test_a_folder_outside_any_package_is_not_part_of_the_name(tmp_path: Path) -> None:
    got = _mine(
        tmp_path / "repo",
        {
            "src/pkg/__init__.py": "",
            "src/pkg/mod.py": (
                "class E(Exception):\n    pass\ndef f():\n    raise E('went wrong')\n"
            ),
            "scripts/tool.py": (
                "class T(Exception):\n    pass\ndef f():\n    raise T('tool failed')\n"
            ),
        },
    )
    assert got["went wrong"][0] == "pkg.mod.E"
    assert got["tool failed"][0] == "tool.T"


_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=40
).filter(lambda s: s.strip() == s)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(tip=_TEXT)
def test_any_imported_constant_text_is_put_in_and_matched(
    tmp_path_factory: pytest.TempPathFactory, tip: str
) -> None:
    root = tmp_path_factory.mktemp("p") / "pkg"
    got = _mine(
        root,
        {
            "__init__.py": "",
            "tips.py": f"TIP = {tip!r}\n",
            "run.py": (
                "from .tips import TIP\ndef f(n):\n    raise ValueError(f'bad count {n}; {TIP}')\n"
            ),
        },
    )
    (message,) = got
    assert message.startswith("bad count {n}; ")
    assert compile_pattern(template_to_pattern(message)).full.fullmatch(f"bad count 3; {tip}")
