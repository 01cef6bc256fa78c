"""Build the import-error records of the stack from its wheels (used by ``build_stack.py``).

* The module map: every module each wheel of the closure (``stack/SOURCES.json``
  ``closure``) installs, read from its file list; a top-level module gets a
  ``No module named 'x'`` record naming the distribution that installs it,
  with the requirement the engines (or the package that needs it) state.
* Compiled extensions of packages built against torch (``vllm._C``,
  ``sgl_kernel.common_ops``): ``No module named`` and ``undefined symbol``
  records saying the build does not fit the installed torch.
* The API history: for the projects named under ``apiHistory``, the public names
  of each module the engines import from, in each release listed; a name that
  some releases lack gets a ``cannot import name`` record saying which have it.
"""

from __future__ import annotations

import ast
import re
import sysconfig
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from errcat.imports.api import PackageSource
from errcat.imports.history import NameHistory
from errcat.imports.modules import WheelModules, read_wheel
from errcat.imports.records import (
    Provider,
    Site,
    cannot_import,
    missing_extension,
    missing_module,
    undefined_symbol,
)
from errcat.models import RecordEnvelope
from stack_closure import ENVIRONMENT, fetch

#: Where CPython raises ``No module named`` (3.11: ``_find_and_load_unlocked``).
BOOTSTRAP = "Lib/importlib/_bootstrap.py"
_NO_MODULE = re.compile(r"raise ModuleNotFoundError\(_ERR_MSG\.format\(name\), name=name\)")


@dataclass(frozen=True)
class Engine:
    """A root of the closure: ``sglang==0.5.23``, its repo and where its package sits."""

    dist: str
    version: str
    repo: str
    repo_folder: str
    tag: str

    @property
    def label(self) -> str:
        """``sglang 0.5.23``."""
        return f"{self.dist} {self.version}"


def bootstrap_site(python_tag: str) -> Site:
    """CPython's ``No module named`` raise in this interpreter's stdlib, at ``python_tag``."""
    path = Path(sysconfig.get_paths()["stdlib"]) / "importlib" / "_bootstrap.py"
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    line = next(i for i, t in enumerate(lines, 1) if _NO_MODULE.search(t))
    return Site("python/cpython", python_tag, BOOTSTRAP, line, text)


def _applies(req: Requirement, extras: Iterable[str] = ()) -> bool:
    if req.marker is None:
        return True
    return any(req.marker.evaluate({**ENVIRONMENT, "extra": e}) for e in ("", *extras))


def _requirers(wheels: Sequence[WheelModules]) -> dict[str, list[tuple[WheelModules, str]]]:
    """For each canonical dist name: the wheels requiring it and their requirement text."""
    out: dict[str, list[tuple[WheelModules, str]]] = defaultdict(list)
    for wheel in wheels:
        for line in wheel.requires:
            req = Requirement(line)
            if _applies(req):
                spec = f"{req.name}{req.specifier}" if req.specifier else req.name
                out[canonicalize_name(req.name)].append((wheel, spec))
    return out


def _provider(
    wheel: WheelModules,
    requirers: dict[str, list[tuple[WheelModules, str]]],
    roots: Sequence[str],
) -> Provider:
    """The provider line of a wheel: who requires it, and what to install."""
    key = canonicalize_name(wheel.name)
    wanted = requirers.get(key, [])
    by_root = [(w, s) for w, s in wanted if canonicalize_name(w.name) in roots]
    chosen = by_root or wanted
    lines = tuple(sorted({f"{w.name} {w.version} requires {s}" for w, s in chosen}))[:3]
    pinned = [s for _, s in chosen if "==" in s]
    requirement = pinned[0] if pinned else f"{wheel.name}=={wheel.version}"
    return Provider(wheel.name, wheel.version, lines, requirement)


def module_records(
    wheels: Sequence[WheelModules],
    roots: Sequence[str],
    site: Site,
    when: datetime,
) -> list[RecordEnvelope]:
    """``No module named 'x'`` for every top-level module the closure's wheels install."""
    requirers = _requirers(wheels)
    providers: dict[str, list[Provider]] = defaultdict(list)
    for wheel in sorted(wheels, key=lambda w: canonicalize_name(w.name)):
        tops = {m for m in wheel.modules if "." not in m}
        for top in sorted(tops):
            if top.startswith("_") and wheel.modules.get(top) == "extension":
                continue  # a private extension at the top (_cffi_backend): nobody imports it
            providers[top].append(_provider(wheel, requirers, roots))
    out = []
    for module, found in sorted(providers.items()):
        # A distribution named after the module first (sgl_kernel: sglang-kernel before
        # packages that vendor a copy), then by how many requirers name it.
        found.sort(
            key=lambda p: (
                canonicalize_name(p.dist).replace("-", "_") != module.lower(),
                -len(p.required_by),
                p.dist,
            )
        )
        out.append(missing_module(module, found, site, when=when))
    return out


def _importing_line(text: str, module: str) -> int | None:
    """The first line of ``text`` importing ``module`` (``import m``, ``from p import x``)."""
    parent, _, leaf = module.rpartition(".")
    patterns = [
        rf"^\s*import {re.escape(module)}\b",
        rf"^\s*from {re.escape(module)} import\b",
        rf"^\s*from {re.escape(parent)} import [^\n]*\b{re.escape(leaf)}\b" if parent else "",
    ]
    for i, line in enumerate(text.splitlines(), 1):
        if any(p and re.search(p, line) for p in patterns):
            return i
    return None


def extension_records(
    engines: Sequence[Engine],
    wheels_by_dist: dict[str, tuple[WheelModules, Path]],
    requirers: dict[str, list[tuple[WheelModules, str]]],
    when: datetime,
) -> list[RecordEnvelope]:
    """``No module named`` and ``undefined symbol`` records of the engines' compiled parts."""
    out = []
    for engine in engines:
        found = wheels_by_dist.get(canonicalize_name(engine.dist))
        if found is None:
            continue
        wheel, path = found
        torch = next((s for w, s in requirers.get("torch", []) if w.name == wheel.name), "torch")
        owner = Provider(wheel.name, wheel.version, (), f"{wheel.name}=={wheel.version}")
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            sources = {n: zf.read(n).decode("utf-8", "replace") for n in names if n.endswith(".py")}
        for module, kind in sorted(wheel.modules.items()):
            if kind != "extension" or not module.startswith(engine.dist.replace("-", "_") + "."):
                continue
            importer = next(
                (
                    (p, line)
                    for p, text in sorted(sources.items())
                    if (line := _importing_line(text, module)) is not None
                ),
                None,
            )
            if importer is None:
                continue
            file_path, line = importer
            repo_path = f"{engine.repo_folder}/{file_path}" if engine.repo_folder else file_path
            site = Site(engine.repo, engine.tag, repo_path, line, sources[file_path])
            library = next(n for n in names if _is_library_of(n, module))
            out.append(missing_extension(module, owner, torch, site, when=when))
            out.append(undefined_symbol(library, owner, torch, site, when=when))
    return out


def _is_library_of(name: str, module: str) -> bool:
    base = module.replace(".", "/")
    return name.startswith(base + ".") and name.endswith((".so", ".pyd"))


# -- API history ---------------------------------------------------------------------


def engine_imports(path: Path, packages: Iterable[str]) -> dict[tuple[str, str], list[str]]:
    """``(module, name)`` pairs an engine wheel imports from ``packages``, with the files."""
    wanted = tuple(packages)
    out: dict[tuple[str, str], list[str]] = defaultdict(list)
    with zipfile.ZipFile(path) as zf:
        for member in sorted(zf.namelist()):
            if not member.endswith(".py"):
                continue
            try:
                tree = ast.parse(zf.read(member))
            except (SyntaxError, ValueError):
                continue
            for node in ast.walk(tree):
                if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                    continue
                if node.module.split(".")[0] not in wanted:
                    continue
                for alias in node.names:
                    if alias.name != "*":
                        out[(node.module, alias.name)].append(member)
    return out


def release_source(wheel: Path, package: str) -> PackageSource:
    """The ``.py`` files of ``package`` in a wheel, as a :class:`PackageSource`."""
    with zipfile.ZipFile(wheel) as zf:
        files = {
            n: zf.read(n).decode("utf-8", "replace")
            for n in zf.namelist()
            if n.startswith(f"{package}/") and n.endswith(".py")
        }
    return PackageSource(files)


def api_records(
    spec: dict[str, Any],
    *,
    engines: Sequence[Engine],
    engine_wheels: dict[str, Path],
    requirers: dict[str, list[tuple[WheelModules, str]]],
    cache: Path,
    when: datetime,
) -> list[RecordEnvelope]:
    """``cannot import name`` records of one project (an ``apiHistory`` entry)."""
    dist, package = str(spec["dist"]), str(spec["package"])
    releases = [str(v) for v in spec["versions"]]
    sources = [release_source(fetch(cache, dist, f"=={v}"), package) for v in releases]
    imported: dict[tuple[str, str], list[str]] = defaultdict(list)
    for engine in engines:
        path = engine_wheels.get(engine.dist)
        if path is None:
            continue
        for pair, files in engine_imports(path, [package]).items():
            more = " and others" if len(files) > 1 else ""
            imported[pair].append(f"{engine.label} ({files[0]}{more})")
    modules = sorted({m for m, _ in imported} | {package})
    required = sorted(
        {
            f"{w.name} {w.version} requires {s}"
            for w, s in requirers.get(canonicalize_name(dist), [])
            if canonicalize_name(w.name) in {canonicalize_name(e.dist) for e in engines}
        }
    )
    out: list[RecordEnvelope] = []
    for module in modules:
        tables = [src.names(module) if src.has_module(module) else {} for src in sources]
        names = set().union(*tables)
        if module == package:
            candidates = names | {n for m, n in imported if m == module}
        else:
            candidates = {n for m, n in imported if m == module}
        for name in sorted(candidates):
            if name.startswith("_") and (module, name) not in imported:
                continue
            present = tuple(name in t for t in tables)
            history = NameHistory(dist, name, tuple(releases), present)
            if history.status in ("always", "never"):
                continue
            anchor_at = history.releases.index(history.last or releases[-1])
            file_path, line = tables[anchor_at][name]
            site = Site(
                str(spec["repo"]),
                str(spec.get("tag", "v{version}")).format(version=releases[anchor_at]),
                f"{spec.get('repoFolder', '')}/{file_path}".lstrip("/"),
                line,
                sources[anchor_at].text(file_path),
            )
            out.append(
                cannot_import(
                    module,
                    history,
                    site,
                    importers=imported.get((module, name), []),
                    required=required,
                    when=when,
                )
            )
    return out


def read_closure(spec: dict[str, Any], cache: Path) -> list[tuple[WheelModules, Path]]:
    """The wheels the closure names (each downloaded once into ``cache``)."""
    out = []
    seen: set[str] = set()
    for pins in spec["closure"]["roots"].values():
        for pin in pins:
            if pin in seen:
                continue
            seen.add(pin)
            name, version = pin.split("==")
            path = fetch(cache, name, f"=={version}")
            out.append((read_wheel(path), path))
    return out
