"""Which files to mine, their paths in the repository and their dotted module names.

>>> _join_prefix("src/pkg/", "sub/mod.py")
'src/pkg/sub/mod.py'
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from pathlib import Path

from errcat.errors import CatalogSourceError

_PRUNED_DIRS = frozenset({"__pycache__", "site-packages", "dist-packages", "node_modules"})


def _is_test_dir(name: str) -> bool:
    return name in ("test", "tests") or name.endswith(("_test", "_tests"))


def _is_test_file(name: str) -> bool:
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def _discover(
    paths: Iterable[str | os.PathLike[str]], include_tests: bool
) -> list[tuple[Path, str]]:
    """The ``.py`` files to mine with their paths relative to the SRC they were found under."""
    found: list[tuple[Path, str]] = []
    seen: set[Path] = set()
    for given in paths:
        root = Path(given)
        if not root.exists():
            raise CatalogSourceError(f"No such file or directory: {str(root)!r}")
        if root.is_file():
            candidates = [(root, root.name)]
        else:
            candidates = []
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = sorted(
                    d
                    for d in dirnames
                    if not d.startswith(".")
                    and d not in _PRUNED_DIRS
                    and (include_tests or not _is_test_dir(d))
                )
                base = Path(dirpath)
                for name in sorted(filenames):
                    if not name.endswith(".py") or name.startswith("."):
                        continue
                    if not include_tests and _is_test_file(name):
                        continue
                    path = base / name
                    candidates.append((path, path.relative_to(root).as_posix()))
        for path, rel in candidates:
            key = path.resolve()
            if key not in seen:
                seen.add(key)
                found.append((path, rel))
    return found


def _module_name(path: Path) -> tuple[str, bool]:
    """The dotted module of a file, from the chain of packages above it.

    A folder with an ``__init__.py`` is a package; a folder without one
    counts too (a namespace subpackage) when a folder above it is a package,
    so that ``pkg/sub/mod.py`` is ``pkg.sub.mod`` even if ``sub`` has no
    ``__init__.py``.
    """
    is_package = path.name == "__init__.py"
    parts = [] if is_package else [path.stem]
    directory = path.parent
    for _ in range(64):
        if not (_is_package(directory) or _in_package(directory)):
            break
        parts.insert(0, directory.name)
        if directory.parent == directory:
            break
        directory = directory.parent
    if is_package and not parts:
        parts = [path.parent.name]
    return ".".join(parts), is_package


@functools.lru_cache(maxsize=4096)
def _is_package(directory: Path) -> bool:
    return (directory / "__init__.py").is_file()


@functools.lru_cache(maxsize=4096)
def _in_package(directory: Path) -> bool:
    """Whether a folder is a namespace subpackage: a package is above it, names all identifiers."""
    if not directory.name.isidentifier():
        return False
    parent = directory.parent
    for _ in range(64):
        if parent == parent.parent:
            return False
        if _is_package(parent):
            return True
        if not parent.name.isidentifier():
            return False
        parent = parent.parent
    return False


def _join_prefix(prefix: str, rel: str) -> str:
    parts = [p for p in prefix.replace("\\", "/").split("/") if p not in ("", ".")]
    return "/".join([*parts, rel])
