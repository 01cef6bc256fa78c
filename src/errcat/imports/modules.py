"""Which importable modules a wheel installs, read from its file list.

A wheel's files are its ``RECORD`` (every installed path); the module a path
installs follows from it: ``pkg/sub/mod.py`` is ``pkg.sub.mod``,
``pkg/__init__.py`` is ``pkg``, and a compiled extension
``vllm/_C.abi3.so`` is ``vllm._C`` (its ABI tag dropped). Folders that hold
modules are packages too (namespace packages such as ``nvidia`` included).
Data under ``*.dist-info``, ``*.data`` and ``__pycache__`` installs no module.

>>> mods = modules_of_paths(
...     ["vllm/__init__.py", "vllm/_C.abi3.so", "vllm/v1/core.py", "vllm-0.1.dist-info/RECORD"]
... )
>>> sorted(mods)
['vllm', 'vllm._C', 'vllm.v1', 'vllm.v1.core']
>>> mods["vllm._C"]
'extension'
>>> top_level(mods)
['vllm']
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable
from email.parser import HeaderParser
from pathlib import Path
from typing import Literal

from errcat.errors import CatalogSourceError

__all__ = ["ModuleKind", "WheelModules", "modules_of_paths", "read_wheel", "top_level"]

#: What a module is: Python source, a compiled extension, or a folder (package).
ModuleKind = Literal["source", "extension", "package"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: ``_C.abi3.so``, ``_C.cpython-311-x86_64-linux-gnu.so``, ``_C.pyd``: the module is ``_C``.
_EXTENSION = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z0-9_-]+)*\.(?:so|pyd)$")


def _module_path(path: str) -> tuple[list[str], ModuleKind] | None:
    """The dotted parts a path installs and their kind, or None for a non-module file."""
    *dirs, name = path.split("/")
    if not dirs and name.endswith(".pth"):
        return None
    if any(not _IDENT.match(d) for d in dirs):
        return None  # *.dist-info, *.data, foo-1.0 and other non-package folders
    if name.endswith(".py"):
        stem = name[:-3]
        if stem == "__init__":
            return (dirs, "package") if dirs else None
        return ([*dirs, stem], "source") if _IDENT.match(stem) else None
    match = _EXTENSION.match(name)
    if match:
        return [*dirs, match.group(1)], "extension"
    return None


def modules_of_paths(paths: Iterable[str]) -> dict[str, ModuleKind]:
    """Every module the installed ``paths`` provide, with its kind, by dotted name."""
    out: dict[str, ModuleKind] = {}
    for path in paths:
        found = _module_path(path.replace("\\", "/"))
        if found is None or not found[0]:
            continue
        parts, kind = found
        for i in range(1, len(parts)):
            out[".".join(parts[:i])] = "package"  # a folder wins over a same-named file
        name = ".".join(parts)
        if out.get(name) != "package":
            out[name] = kind
    return out


def top_level(modules: Iterable[str]) -> list[str]:
    """The top-level names of ``modules``, sorted (what ``top_level.txt`` would list)."""
    return sorted({m.split(".", 1)[0] for m in modules})


class WheelModules:
    """A wheel's distribution name, version, modules and ``Requires-Dist`` lines."""

    __slots__ = ("metadata", "modules", "name", "version")

    def __init__(
        self,
        name: str,
        version: str,
        modules: dict[str, ModuleKind],
        metadata: dict[str, list[str]],
    ) -> None:
        self.name = name
        self.version = version
        self.modules = modules
        self.metadata = metadata

    @property
    def requires(self) -> list[str]:
        """The ``Requires-Dist`` lines of its METADATA."""
        return self.metadata.get("Requires-Dist", [])

    def __repr__(self) -> str:
        return f"WheelModules({self.name!r}, {self.version!r}, {len(self.modules)} modules)"


def read_wheel(path: str | Path) -> WheelModules:
    """The modules and metadata of the wheel at ``path`` (its file list; nothing is run)."""
    wheel = Path(path)
    try:
        with zipfile.ZipFile(wheel) as zf:
            names = zf.namelist()
            meta_name = next((n for n in names if n.endswith(".dist-info/METADATA")), None)
            if meta_name is None:
                raise CatalogSourceError(f"{str(wheel)!r}: no .dist-info/METADATA in the wheel")
            text = zf.read(meta_name).decode("utf-8", "replace")
    except (OSError, zipfile.BadZipFile) as exc:
        raise CatalogSourceError(f"Cannot read wheel {str(wheel)!r}: {exc}") from None
    message = HeaderParser().parsestr(text)
    metadata: dict[str, list[str]] = {}
    for key, value in message.items():
        metadata.setdefault(key, []).append(str(value))
    name = metadata.get("Name", [""])[0]
    version = metadata.get("Version", [""])[0]
    if not name or not version:
        raise CatalogSourceError(f"{str(wheel)!r}: METADATA has no Name or Version")
    return WheelModules(name, version, modules_of_paths(names), metadata)
