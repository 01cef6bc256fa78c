"""The miner survives real code: installed packages mine with no file failing (issue 28).

The whole site-packages of the test environment is mined by
``benchmarks/bench_mine.py --site-packages``; this test mines a part of it
(the packages below that are installed), each as ``errcat mine`` would.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from errcat.mine import mine_paths

PACKAGES = (
    "annotated_types",
    "anyio",
    "certifi",
    "h11",
    "httpcore",
    "httpx",
    "idna",
    "iniconfig",
    "jsonlines",
    "pluggy",
)


def _installed(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


@pytest.mark.parametrize("name", PACKAGES)
def test_an_installed_package_mines_without_a_failed_file(name: str) -> None:
    folder = _installed(name)
    if folder is None:
        pytest.skip(f"{name} is not installed here")
    result = mine_paths([folder], repo=f"site/{name}", sha="0" * 40, include_tests=True)
    failed = [(f, e) for f, e in result.stats.parse_errors if not e.startswith("SyntaxError")]
    assert failed == []
    assert result.stats.files > 0 and result.stats.records > 0
