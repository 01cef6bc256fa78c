"""Who builds on whom: the dependency facts a stack package's manifest records per project.

Run with ``python benchmarks/stack_requires.py [--cache DIR] DATA_DIR ...`` to print
(or, with ``--write``, put into each directory's ``manifest.json``) the fields
:func:`dependency_fields` gives each ``builtFrom`` entry; ``build_stack.py`` writes
them when it builds a package. ``errcat.matcher.site_origin`` reads them: a message
an engine and one of its dependencies both raise is the dependency's.

* ``requires``: the distributions the project's newest mined wheel requires
  (``Requires-Dist`` whose marker holds on the closure's platform with no extra
  asked for: an optional extra is not what the project builds on), canonical
  names, sorted, read from the wheel the build left in the cache; left out for
  a project read from git or the standard library (no wheel metadata);
* ``requiredBy``: the roots of ``stack/SOURCES.json``'s closure (the engines,
  ``sglang``, ``vllm``) whose dependency closure holds the project's
  distribution, at any version.

>>> roots = {"vllm==0.33.0": ["torch==2.14.0", "Transformers==5.20.2"]}
>>> required_by("transformers", roots)
['vllm']
>>> required_by("ray", roots)
[]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier
from packaging.utils import canonicalize_name

from stack_closure import DEFAULT_CACHE, ENVIRONMENT, _cached, wheel_metadata

ROOT = Path(__file__).resolve().parents[1]
STACK = ROOT / "stack"


def required_by(dist: str, roots: Mapping[str, Sequence[str]]) -> list[str]:
    """The closure roots whose closure holds ``dist`` (their canonical names, sorted)."""
    name = canonicalize_name(dist)
    return sorted(
        canonicalize_name(root.split("==")[0])
        for root, closure in roots.items()
        if any(canonicalize_name(pin.split("==")[0]) == name for pin in closure)
    )


def requirements(lines: Sequence[str]) -> list[str]:
    """The distributions ``Requires-Dist`` lines require on the closure's platform, no extra.

    >>> requirements(["torch>=2", "vllm; extra == 'serve'", "pywin32; sys_platform == 'win32'"])
    ['torch']
    """
    out: set[str] = set()
    for line in lines:
        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        if req.marker is None or req.marker.evaluate({**ENVIRONMENT, "extra": ""}):
            out.add(canonicalize_name(req.name))
    return sorted(out)


def dependency_fields(
    entry: Mapping[str, Any], roots: Mapping[str, Sequence[str]], cache: Path
) -> dict[str, list[str]]:
    """``requires`` and ``requiredBy`` of a ``builtFrom`` entry (``dist``, ``versions``)."""
    dist = str(entry["dist"])
    fields: dict[str, list[str]] = {"requiredBy": required_by(dist, roots)}
    versions = entry.get("versions") or []
    try:
        wheel = _cached(cache, dist, f"=={versions[-1]}") if versions else None
    except InvalidSpecifier:  # a commit, not a release: read from git, no wheel
        wheel = None
    if entry.get("source") != "git" and wheel is not None:
        fields = {"requires": requirements(wheel_metadata(wheel)[2]), **fields}
    return fields


def closure_roots() -> dict[str, list[str]]:
    """The closure of each root of ``stack/SOURCES.json`` (``name==version`` pins)."""
    sources = json.loads((STACK / "SOURCES.json").read_text(encoding="utf-8"))
    return {str(k): list(v) for k, v in sources["closure"]["roots"].items()}


def stamp(manifest: dict[str, Any], roots: Mapping[str, Sequence[str]], cache: Path) -> None:
    """Add the dependency fields to each project entry of a manifest's ``builtFrom``."""
    manifest["builtFrom"] = [
        {**e, **dependency_fields(e, roots, cache)} if "repo" in e and "dist" in e else e
        for e in manifest.get("builtFrom") or []
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--write", action="store_true", help="write the manifests")
    parser.add_argument("dirs", type=Path, nargs="+", help="data directories (manifest.json)")
    args = parser.parse_args(argv)
    roots = closure_roots()
    for directory in args.dirs:
        path = directory / "manifest.json"
        manifest = json.loads(path.read_text(encoding="utf-8"))
        stamp(manifest, roots, args.cache)
        if args.write:
            path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", "utf-8")
        for e in manifest["builtFrom"]:
            if "repo" in e:
                print(directory.name, e["repo"], e.get("requires"), e.get("requiredBy"))


if __name__ == "__main__":
    main()
