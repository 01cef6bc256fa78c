"""Resolve the dependency closure of the engines' wheels into named versions.

Run with ``python benchmarks/stack_closure.py [--cache DIR] [--write]``. Starting
from the roots in ``stack/SOURCES.json`` (``sglang==0.5.23``, ``vllm==0.33.0``),
it reads each wheel's ``Requires-Dist`` (markers evaluated for CPython 3.11 on
Linux x86_64, with the extras the requirer names; run it on such a machine, since
pip picks the wheels that this interpreter can install), downloads the wheel of each
requirement with ``pip download --no-deps --only-binary :all:`` (pip picks the
newest release that fits; a wheel already in the cache is re-used) and goes on
until nothing new is required. Each root gets its own closure (the engines pin
different torch releases); the union is what ``build_stack.py`` maps modules
from. ``--write`` stores it in ``stack/SOURCES.json`` under ``closure``, so that
a build reads named versions only and never resolves again.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.parser import HeaderParser
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
STACK = ROOT / "stack"
DEFAULT_CACHE = Path.home() / ".cache" / "errcat-stack" / "wheels"

#: The platform the closure is resolved for (the engines' own wheels are Linux x86_64).
ENVIRONMENT = {
    "implementation_name": "cpython",
    "implementation_version": "3.11.7",
    "os_name": "posix",
    "platform_machine": "x86_64",
    "platform_python_implementation": "CPython",
    "platform_release": "",
    "platform_system": "Linux",
    "platform_version": "",
    "python_full_version": "3.11.7",
    "python_version": "3.11",
    "sys_platform": "linux",
}


@dataclass(frozen=True)
class Wheel:
    """A downloaded wheel: its distribution name, version, file and requirements."""

    name: str
    version: str
    path: Path
    requires: tuple[str, ...]

    @property
    def key(self) -> str:
        """``name==version`` with the canonical name."""
        return f"{canonicalize_name(self.name)}=={self.version}"


def wheel_metadata(path: Path) -> tuple[str, str, tuple[str, ...]]:
    """The name, version and ``Requires-Dist`` lines of a wheel's METADATA."""
    with zipfile.ZipFile(path) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        meta = HeaderParser().parsestr(zf.read(name).decode("utf-8", "replace"))
    return str(meta["Name"]), str(meta["Version"]), tuple(meta.get_all("Requires-Dist") or ())


def _cached(cache: Path, name: str, spec: str) -> Path | None:
    """The newest wheel of ``name`` in ``cache`` whose version fits ``spec`` (PEP 440)."""
    wanted = SpecifierSet(spec)
    best: tuple[Version, Path] | None = None
    stem = re.sub(r"[-_.]+", "_", canonicalize_name(name))
    for path in cache.glob("*.whl"):
        parts = path.name.split("-")
        if re.sub(r"[-_.]+", "_", parts[0].lower()) != stem:
            continue
        try:
            version = Version(parts[1])
        except ValueError:
            continue
        if wanted.contains(version, prereleases=True) and (best is None or version > best[0]):
            best = (version, path)
    return best[1] if best else None


def _pip_download(cache: Path, requirements: list[str]) -> str:
    """Run ``pip download --no-deps`` for several requirements at once; its stdout."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary",
            ":all:",
            "--dest",
            str(cache),
            *requirements,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    return out.stdout + out.stderr


def fetch(cache: Path, name: str, spec: str) -> Path:
    """The wheel of ``name`` fitting ``spec``: from the cache, else ``pip download``."""
    exact = spec.startswith("==") and "*" not in spec
    found = _cached(cache, name, spec) if exact else None
    if found is not None:
        return found
    return fetch_many(cache, {name: spec})[canonicalize_name(name)]


def fetch_many(cache: Path, wanted: dict[str, str]) -> dict[str, Path]:
    """The wheels of several ``name: spec`` requirements, downloaded by one pip process.

    pip starts once for all of them (its start costs more than a small wheel's
    download). A requirement pip finds no wheel for raises :class:`LookupError`
    only when it is the only one; otherwise it is left out of the result.
    """
    out: dict[str, Path] = {}
    todo: dict[str, str] = {}
    for name, spec in wanted.items():
        exact = spec.startswith("==") and "*" not in spec
        found = _cached(cache, name, spec) if exact else None
        if found is not None:
            out[canonicalize_name(name)] = found
        else:
            todo[name] = spec
    if todo:
        log = _pip_download(cache, [f"{n}{s}" for n, s in todo.items()])
        if "ERROR" in log and len(todo) > 1:
            for name, spec in todo.items():  # one bad requirement stops the batch: one by one
                try:
                    out[canonicalize_name(name)] = fetch_many(cache, {name: spec})[
                        canonicalize_name(name)
                    ]
                except LookupError as exc:
                    print(f"  no wheel for {name}{spec}: {exc}", flush=True)
            return out
        for name, spec in todo.items():
            found = _cached(cache, name, spec or ">=0")
            if found is None:
                errors = [line for line in log.splitlines() if "ERROR" in line]
                raise LookupError(f"pip download {name}{spec}: {errors[-1:]}")
            out[canonicalize_name(name)] = found
    return out


@dataclass
class Closure:
    """The wheels one root requires, directly or not, by canonical name."""

    root: str
    wheels: dict[str, Wheel] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)


def requirements(wheel: Wheel, extras: Iterable[str]) -> list[Requirement]:
    """The requirements of ``wheel`` that apply on the target platform with ``extras``."""
    out = []
    for line in wheel.requires:
        req = Requirement(line)
        marker: Marker | None = req.marker
        if marker is None:
            out.append(req)
            continue
        for extra in ("", *extras):
            if marker.evaluate({**ENVIRONMENT, "extra": extra}):
                out.append(req)
                break
    return out


def resolve(root: str, cache: Path, pins: dict[str, str]) -> Closure:
    """The closure of ``root`` (``name==version``); ``pins`` fixes versions chosen before.

    Level by level: each level's new requirements are downloaded by one pip run.
    """
    closure = Closure(root)
    top = Requirement(root)
    level: list[tuple[str, str, frozenset[str]]] = [
        (top.name, str(top.specifier), frozenset(top.extras))
    ]
    seen: dict[str, frozenset[str]] = {}
    while level:
        fresh: dict[str, tuple[str, str]] = {}
        grown: list[str] = []
        key: str
        for name, spec, extras in level:
            key = canonicalize_name(name)
            if key in seen and extras <= seen[key]:
                continue
            seen[key] = seen.get(key, frozenset()) | extras
            grown.append(key)
            if key in closure.wheels or key in closure.missing or key in fresh:
                continue
            chosen = pins.get(key)
            if chosen and not SpecifierSet(spec).contains(Version(chosen), prereleases=True):
                chosen = None  # the other root's release does not fit this requirement
            fresh[key] = (name, f"=={chosen}" if chosen else spec)
        got = fetch_many(cache, dict(fresh.values())) if fresh else {}
        for key, (name, spec) in fresh.items():
            path = got.get(key)
            if path is None:
                closure.missing[key] = f"{name}{spec}"
                continue
            got_name, version, requires = wheel_metadata(path)
            closure.wheels[key] = Wheel(got_name, version, path, requires)
            pins.setdefault(key, version)
            print(f"  {root}: {got_name}=={version} ({path.stat().st_size / 1e6:.0f} MB)")
        level = []
        for key in grown:
            wheel = closure.wheels.get(key)
            if wheel is None:
                continue
            for req in requirements(wheel, seen[key]):
                level.append((req.name, str(req.specifier), frozenset(req.extras)))
    return closure


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--sources", type=Path, default=STACK / "SOURCES.json")
    parser.add_argument("--write", action="store_true", help="store the closure in SOURCES.json")
    args = parser.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    spec = json.loads(args.sources.read_text(encoding="utf-8"))
    pins: dict[str, str] = {}
    closures = [resolve(root, args.cache, pins) for root in spec["roots"]]
    union: dict[str, set[str]] = {}
    for closure in closures:
        for key, wheel in closure.wheels.items():
            union.setdefault(key, set()).add(wheel.version)
    rows = sorted((k, sorted(v, key=Version)) for k, v in union.items())
    total = sum(
        w.path.stat().st_size for c in closures for w in c.wheels.values() if w.path.exists()
    )
    print(f"{len(rows)} distributions, {total / 1e9:.1f} GB of wheels")
    for closure in closures:
        if closure.missing:
            print(f"{closure.root}: no wheel for {', '.join(sorted(closure.missing))}")
    if args.write:
        spec = json.loads(args.sources.read_text(encoding="utf-8"))  # as it is now
        spec["closure"] = {
            "platform": "CPython 3.11, Linux x86_64",
            "roots": {
                c.root: sorted(f"{w.name}=={w.version}" for w in c.wheels.values())
                for c in closures
            },
            "noWheel": sorted({k for c in closures for k in c.missing}),
        }
        args.sources.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
        print(f"wrote the closure into {args.sources}")


if __name__ == "__main__":
    main()
