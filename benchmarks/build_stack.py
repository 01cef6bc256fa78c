"""Build the stack's data packages (``stack/packages/errcat-data-*``) from ``stack/SOURCES.json``.

Run with ``python benchmarks/build_stack.py [--only NAME ...] [--cache DIR] [--workers N]``.
Each package of ``SOURCES.json`` holds catalogs of one part of the stack:

* ``projects``: a PyPI project mined from its wheels, at the versions named
  (several: a history, with its sidecar), records linked at the release tags;
* ``stdlib``: modules of this interpreter's standard library (``argparse.py``,
  ``json/``), linked at CPython's tag of the same version;
* ``imports``: the import-error records (``stack_imports.py``), from the
  closure's wheels and the ``apiHistory`` releases.

Each package is a directory with ``pyproject.toml`` (hatchling; the entry point
``errcat.catalogs`` names the package), and its data under
``src/errcat_data_<name>/``: ``manifest.json`` and ``records/*.jsonl.gz``
written by :func:`errcat.release.build` (the same checks as the bundled data).
Everything is read from named versions, so a build is reproducible; wheels are
downloaded once into the cache. ``--verify`` checks each package's files against
its manifest without re-mining. ``pip install stack/packages/*/`` installs them.

Two steps follow the mining, in :func:`finish`. Mined records whose literal text
carries too little evidence to tell them from other projects' messages
(:func:`too_vague`: under :data:`MIN_BITS` bits or fewer than two words, such as
torch's ``bad`` or ``{expr} already exists``) are dropped, with a count printed:
another package's message of the same words would get them as a confident
answer. Then the hand-written records of the groups the package names under
``curated`` (:mod:`stack_curated`) are added. ``--refinish`` runs these two
steps again on the committed records (the mined part kept, the hand-written part
replaced), without mining: the result is the same as a full build's.

A project may name ``native`` folders of its wheel (C/C++/CUDA sources) and a
package ``gitSources`` (a project read from a git mirror at a named commit): their
check macros are mined too (:mod:`stack_native`). A project with no wheel names
``"source": "git"``: its Python is read at each version's tag from its git mirror
(:mod:`stack_mine`). A package's ``extensionSources`` name projects whose errors are
written in Rust or C (safetensors, tokenizers, openai-harmony, msgspec): their texts
are read from a git mirror at a named commit and kept when the pinned wheel's compiled
files hold them (:mod:`stack_extensions`). A hand-written record replaces the mined records of its own
message, and those whose message its pattern prints (:func:`covered`).

A package that sets ``dropCopies`` (the frameworks built on the engines, the
engines' platform plug-ins) also loses its mined records whose message the
bundled catalog or another stack package already holds (:func:`held_messages`):
ms-swift and verl carry copies of transformers', peft's, sglang's and vllm's
checks in their patched models and layers, vllm-omni ports vllm's and sglang's,
and a copy would answer the upstream's own error as the framework's. A message
that prints the same text with other placeholder expressions
(``{input_size_per_partition}`` for ``{self.block_size}``) is a copy too: the two
records have one pattern (:func:`copy_keys`).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import shutil
import sys
import sysconfig
import tempfile
import textwrap
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from typing import Any

import regex

from errcat import Catalog
from errcat.history import sidecar_path
from errcat.imports.records import IMPORTS_TAG
from errcat.loaders import MANIFEST_NAME, read_manifest
from errcat.mine import mine_paths
from errcat.models import GENERATED_TAG, RecordEnvelope
from errcat.patterns import literal_fragments
from errcat.release import build, canonical_files, check, records_file_name
from stack_closure import DEFAULT_CACHE
from stack_curated import CURATED_TAG, MIRRORS, curated
from stack_extensions import mine_extension_source
from stack_mine import MinedProject, Project, mine_projects
from stack_native import mine_git_source, mine_wheel_native
from stack_requires import closure_roots, stamp
from stack_vague import MIN_BITS, vague_pattern

ROOT = Path(__file__).resolve().parents[1]
STACK = ROOT / "stack"
ZERO_SHA = "0" * 40

PYPROJECT = """\
[build-system]
requires = ["hatchling>=1.24"]
build-backend = "hatchling.build"

[project]
name = "errcat-data-{name}"
version = "{version}"
description = "errcat catalog: {description}"
requires-python = ">=3.10"
license = "MIT"
dependencies = ["errcat"]

[project.entry-points."errcat.catalogs"]
{name} = "errcat_data_{module}"

[tool.hatch.build.targets.wheel]
packages = ["src/errcat_data_{module}"]
"""

INIT = '''"""errcat data package errcat-data-{name}.

{wrapped}.

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
'''


def package_dir(name: str) -> Path:
    """The source directory of the data package ``errcat-data-<name>``."""
    return STACK / "packages" / f"errcat-data-{name}"


def data_dir(name: str) -> Path:
    """The data directory inside a package (what the entry point loads)."""
    return package_dir(name) / "src" / f"errcat_data_{name.replace('-', '_')}"


def mine_stdlib(spec: dict[str, Any]) -> MinedProject:
    """The standard-library modules ``spec["modules"]`` of this interpreter, at its tag."""
    started = time.perf_counter()
    version = ".".join(map(str, sys.version_info[:3]))
    if version != spec["pythonVersion"]:
        wanted = spec["pythonVersion"]
        raise SystemExit(f"stdlib: this is Python {version}, SOURCES.json names {wanted}")
    lib = Path(sysconfig.get_paths()["stdlib"])
    when = datetime.strptime(spec["analyzedAt"], "%Y-%m-%d").replace(tzinfo=timezone.utc)
    envelopes: list[RecordEnvelope] = []
    for module in spec["modules"]:
        path = lib / module
        prefix = "Lib/" + (module if path.is_dir() else str(Path(module).parent)).strip(".")
        result = mine_paths(
            [path],
            repo="python/cpython",
            sha=ZERO_SHA,
            path_prefix=prefix.rstrip("/"),
            analyzed_at=when,
        )
        envelopes.extend(result.envelopes)
    tag = f"v{version}"
    out = []
    for env in envelopes:
        record = env.record
        url = record.github_url.replace(f"/blob/{ZERO_SHA}/", f"/blob/{tag}/")
        out.append(env.model_copy(update={"record": record.model_copy(update={"github_url": url})}))
    project = Project("python/cpython", "cpython", ("Lib",), "", (version,), "v{version}")
    return MinedProject(project, out, None, time.perf_counter() - started, spec["analyzedAt"])


def build_imports(spec: dict[str, Any], cache: Path) -> list[RecordEnvelope]:
    """The import-error records (module map, compiled extensions, API history)."""
    from stack_imports import (
        Engine,
        _requirers,
        api_records,
        bootstrap_site,
        extension_records,
        module_records,
        read_closure,
    )

    when = datetime.strptime(spec["analyzedAt"], "%Y-%m-%d").replace(tzinfo=timezone.utc)
    closure = read_closure(spec, cache)
    wheels = [w for w, _ in closure]
    by_dist = {w.name.lower().replace("_", "-"): (w, p) for w, p in closure}
    engines = [
        Engine(e["dist"], e["version"], e["repo"], e.get("repoFolder", ""), e["tag"])
        for e in spec["engines"]
    ]
    roots = [e.dist for e in engines]
    requirers = _requirers(wheels)
    site = bootstrap_site(spec["pythonTag"])
    out = module_records(wheels, roots, site, when)
    out += extension_records(engines, by_dist, requirers, when)
    engine_wheels = {e.dist: by_dist[e.dist][1] for e in engines if e.dist in by_dist}
    for api in spec.get("apiHistory", []):
        out += api_records(
            api,
            engines=engines,
            engine_wheels=engine_wheels,
            requirers=requirers,
            cache=cache,
            when=when,
        )
    # Several wheels may give a module one record each (same id): keep the first.
    unique: dict[str, RecordEnvelope] = {}
    for env in out:
        unique.setdefault(env.record.id, env)
    return list(unique.values())


def copy_keys(message: str, pattern: str) -> frozenset[str]:
    """What makes a record a copy of another catalog's record holding the same key.

    Its message, and its pattern when the pattern has literal text: the text a
    user sees is the same whatever the placeholders' expressions. A raise without
    a message, or whose message is all placeholders (``{msg}``, answered by its
    own frame only), has no pattern key.

    >>> sorted(copy_keys("x is {self.n}, not {m}", "x is (.+?), not (.+?)"))
    ['x is (.+?), not (.+?)', 'x is {self.n}, not {m}']
    >>> sorted(copy_keys("{msg}", "(.+?)")), sorted(copy_keys("", ""))
    (['{msg}'], [])
    """
    keys = {message} if message.strip() else set()
    if literal_fragments(pattern):
        keys.add(pattern)
    return frozenset(keys)


def held_messages(name: str) -> frozenset[str]:
    """The :func:`copy_keys` of the bundled catalog's and every other built stack package's
    records.

    For a package whose spec sets ``dropCopies``: its mined records with one of these
    keys are copies of another project's check (:func:`finish` drops them).
    """
    held: set[str] = set()
    for record in Catalog.bundled():
        held |= copy_keys(record.error_message, record.message_pattern)
    for path in sorted((STACK / "packages").glob("errcat-data-*/src/*/records/*.jsonl.gz")):
        if path.parents[3].name == f"errcat-data-{name}":
            continue
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    record = json.loads(line)["record"]
                    held |= copy_keys(record["errorMessage"], record["messagePattern"])
    return frozenset(held)


def is_copy(envelope: RecordEnvelope, held: frozenset[str]) -> bool:
    """Whether a mined record holds a :func:`copy_keys` key another catalog holds."""
    record = envelope.record
    return bool(copy_keys(record.error_message, record.message_pattern) & held)


def too_vague(envelope: RecordEnvelope) -> bool:
    """Whether a mined record's literal text is too little to be a confident answer.

    Its literal text (what every message of it must contain) carries under
    :data:`MIN_BITS` bits, or fewer than two words of three letters or more.
    Records with no literal text at all (``{msg}``, a bare ``assert``) stay:
    the matcher knows them as wordless and answers them only by a traceback
    frame at their raise line. Hand-written and import-error records stay.

    >>> [
    ...     vague_pattern(p)
    ...     for p in (
    ...         "bad",
    ...         "(.+?) already exists",
    ...         "(.+?)",
    ...         "checkpoint shard (.+?) is missing from (.+?)",
    ...     )
    ... ]
    [True, True, False, False]
    """
    record = envelope.record
    if GENERATED_TAG not in record.tags or IMPORTS_TAG in record.tags:
        return False
    return vague_pattern(record.message_pattern)


def covered(mined: RecordEnvelope, written: Sequence[RecordEnvelope]) -> bool:
    """Whether a hand-written record of the mined record's repository stands for its message.

    It does when it has the same template, or when its pattern matches the mined
    template whole (placeholders kept as written): torch's FakeTensor re-raises
    ATen's device check word for word (``... at least two devices, {common_device}
    and {t.device}!``), and the hand-written ATen record, whose pattern prints that
    message, must answer it: the two tie on a bare message, and the mined site is the
    rarer one, its advice generated.

    >>> from stack_curated.torch_native import DEVICE_OLD
    >>> aten = DEVICE_OLD.envelope()
    >>> fake = aten.model_copy(
    ...     update={
    ...         "record": aten.record.model_copy(
    ...             update={
    ...                 "errorMessage": "Expected all tensors to be on the same device, but found at"
    ...                 " least two devices, {common_device} and {t.device}!"
    ...             }
    ...         )
    ...     }
    ... )
    >>> covered(fake, [aten])
    True
    >>> other = fake.model_copy(
    ...     update={"record": fake.record.model_copy(update={"repo": "vllm-project/vllm"})}
    ... )
    >>> covered(other, [aten])
    False
    """
    record = mined.record
    folded = " ".join(record.error_message.split())
    for env in written:
        if env.record.repo != record.repo:
            continue
        if env.record.error_message == record.error_message:
            return True
        needed, compiled = _compiled(env.record.message_pattern)
        if compiled is None or not all(f in folded for f in needed):
            continue
        try:
            if compiled.fullmatch(record.error_message, timeout=1.0):
                return True
        except TimeoutError:
            continue
    return False


@cache
def _compiled(pattern: str) -> tuple[tuple[str, ...], regex.Pattern[str] | None]:
    """A hand-written record's pattern, compiled once for every mined record it is tried on,
    with the literal text (whitespace folded) any message it matches holds.

    ``regex``'s own cache holds 500 patterns: with torch's 566 graph-break records a
    package has more hand-written patterns than that, and :func:`covered` compiled each
    again for each of 20,000 mined records (1.7 ms a call: hours). The pattern is None
    when it does not compile; a pattern with inline flags needs no literal text.
    """
    needed = () if "(?" in pattern.replace("(?:", "") else literal_fragments(pattern)
    try:
        return needed, regex.compile(pattern)
    except regex.error:
        return needed, None


def finish(
    spec: dict[str, Any],
    mined: list[RecordEnvelope],
    mirrors: Path = MIRRORS,
    held: frozenset[str] = frozenset(),
    cache: Path = DEFAULT_CACHE,
) -> list[RecordEnvelope]:
    """The package's records: the mined ones that are not :func:`too_vague` nor copies of a
    message ``held`` by another catalog (:func:`is_copy`), and its curated (some read from
    a wheel in ``cache``)."""
    own = [e for e in mined if CURATED_TAG not in e.record.tags]
    kept = [e for e in own if not too_vague(e)]
    dropped = len(own) - len(kept)
    copies = [e for e in kept if is_copy(e, held)]
    kept = [e for e in kept if not is_copy(e, held)]
    added = curated(spec.get("curated", []), spec, mirrors, cache)
    # A hand-written record replaces the mined ones of its message in its repository.
    by_repo: dict[str, list[RecordEnvelope]] = {}
    for env in added:
        by_repo.setdefault(env.record.repo, []).append(env)
    gone = {id(e) for e in kept if covered(e, by_repo.get(e.record.repo, []))}
    replaced = [e for e in kept if id(e) in gone]
    kept = [e for e in kept if id(e) not in gone]
    print(
        f"errcat-data-{spec['name']}: {dropped:,} mined records dropped as too vague"
        f" (under {MIN_BITS:.0f} bits or one word), {len(copies):,} as copies of another"
        f" catalog's message, {len(added)} hand-written added ({len(replaced)} mined"
        " records of their messages replaced)",
        flush=True,
    )
    unique: dict[str, RecordEnvelope] = {}
    for env in [*kept, *added]:
        unique.setdefault(env.record.id, env)
    return list(unique.values())


def write_package(
    spec: dict[str, Any],
    envelopes: list[RecordEnvelope],
    mined: Sequence[MinedProject],
    kept: dict[str, Any] | None = None,
    cache: Path = DEFAULT_CACHE,
) -> dict[str, Any]:
    """Write one data package: pyproject, module, records, sidecars and manifest.

    ``kept`` (from :func:`refinish`) is the committed manifest, whose
    ``builtFrom`` and history sidecars stay as they are (nothing was mined).
    Each mined project's ``builtFrom`` entry records what it requires and which
    engines require it (:mod:`stack_requires`), from the wheels in ``cache``.
    """
    name = str(spec["name"])
    root, final = package_dir(name), data_dir(name)
    final.mkdir(parents=True, exist_ok=True)
    # Everything is written to a staged copy first and put in place only once the
    # release check passed: a refused package keeps its committed files.
    with tempfile.TemporaryDirectory(dir=root, prefix=".staging-") as staging:
        data = Path(staging) / final.name
        shutil.copytree(final, data)
        manifest = _write_staged(spec, envelopes, mined, kept, data=data, final=final, cache=cache)
        old = Path(staging) / "old"
        final.rename(old)
        data.rename(final)
    module = name.replace("-", "_")
    text = PYPROJECT.format(
        name=name, module=module, version=spec["version"], description=spec["description"]
    )
    (root / "pyproject.toml").write_text(text, encoding="utf-8")
    return manifest


def _write_staged(
    spec: dict[str, Any],
    envelopes: list[RecordEnvelope],
    mined: Sequence[MinedProject],
    kept: dict[str, Any] | None,
    *,
    data: Path,
    final: Path,
    cache: Path = DEFAULT_CACHE,
) -> dict[str, Any]:
    """Write a package's data directory at ``data`` (a staged copy of ``final``)."""
    name = str(spec["name"])
    (data / "records").mkdir(parents=True, exist_ok=True)
    wrapped = textwrap.fill(str(spec["description"]).capitalize(), width=88)
    (data / "__init__.py").write_text(INIT.format(name=name, wrapped=wrapped), "utf-8")
    files = canonical_files(envelopes, compress=True)
    sidecars: dict[str, bytes] = {}
    for part in mined:
        if part.history is None:
            continue
        sidecar = sidecar_path(records_file_name(part.project.repo)).as_posix() + ".gz"
        with tempfile.TemporaryDirectory() as tmp:
            plain = Path(tmp) / "h.json"
            part.history.history.dump(plain)
            sidecars[sidecar] = gzip.compress(plain.read_bytes(), compresslevel=9, mtime=0)
    if kept is not None:
        sidecars = {file: (final / file).read_bytes() for file in kept.get("history", {})}
    files.update(sidecars)
    for stale in (data / "records").iterdir():
        if f"records/{stale.name}" not in files:
            stale.unlink()
    for file, blob in files.items():
        (data / file).write_bytes(blob)
    (data / MANIFEST_NAME).write_text(
        json.dumps({"allowDrafts": True, "files": {}}) + "\n", encoding="utf-8"
    )
    with tempfile.TemporaryDirectory() as tmp:
        result = build(data, dist=tmp, allow_drafts=True)
    manifest = result.manifest
    manifest["builtFrom"] = [
        {
            "repo": m.project.repo,
            "dist": m.project.dist,
            **({"source": "git"} if m.project.git else {}),
            "versions": list(m.project.versions),
            "tags": [m.project.tag_of(v) for v in m.project.versions],
            "builtAt": m.built_at,
            "records": manifest["counts"]["byRepo"].get(m.project.repo, 0),
        }
        for m in mined
    ]
    if kept is None and spec.get("kind", "projects") == "projects":
        stamp(manifest, closure_roots(), cache)
    elif kept is not None:
        # What was mined stays as built; how many records each project keeps is counted anew.
        by_repo = manifest["counts"]["byRepo"]
        manifest["builtFrom"] = [
            {**part, "records": by_repo.get(part["repo"], 0)} if "records" in part else part
            for part in kept["builtFrom"]
        ]
    elif spec.get("kind") == "imports":
        manifest["builtFrom"] = [{"closure": sorted(spec["closure"]["roots"])}] + [
            {"dist": a["dist"], "versions": a["versions"]} for a in spec.get("apiHistory", [])
        ]
    manifest["history"] = {
        sidecar: {"sha256": hashlib.sha256(blob).hexdigest()} for sidecar, blob in sidecars.items()
    }
    (data / MANIFEST_NAME).write_text(
        json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return manifest


def verify(name: str) -> list[str]:
    """What is wrong with a committed data package (empty when nothing), without re-mining."""
    data = data_dir(name)
    problems = []
    manifest = read_manifest(data)
    listed = {**manifest.get("files", {}), **manifest.get("history", {})}
    for file, meta in sorted(listed.items()):
        path = data / file
        if not path.is_file():
            problems.append(f"{name}: {file} is listed in the manifest but missing")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != meta.get("sha256"):
            problems.append(f"{name}: {file}: sha256 differs from the manifest's")
    report = check([data])
    problems.extend(f"{name}: {f}" for f in report.findings if f.level == "error")
    return problems


def build_one(
    spec: dict[str, Any], sources: dict[str, Any], cache: Path, workers: int, mirrors: Path
) -> None:
    """Mine and write one package of ``SOURCES.json``."""
    started = time.perf_counter()
    kind = spec.get("kind", "projects")
    mined: list[MinedProject] = []
    if kind == "projects":
        mined = mine_projects([Project.of(p) for p in spec["projects"]], cache, workers, mirrors)
        envelopes = [e for m in mined for e in m.envelopes]
        for project in spec["projects"]:
            if project.get("native"):
                envelopes += mine_wheel_native(project, cache)
        for source in spec.get("gitSources", []):
            mined.append(mine_git_source(source, mirrors))
            envelopes += mined[-1].envelopes
        if spec.get("extensionSources"):
            # A compiled text another catalog holds (safetensors' header error, written
            # by hand in errcat-data-hf) stays that catalog's answer.
            others = held_messages(spec["name"])
            for source in spec["extensionSources"]:
                mined.append(mine_extension_source(source, mirrors, cache))
                envelopes += [e for e in mined[-1].envelopes if not is_copy(e, others)]
    elif kind == "stdlib":
        mined = [mine_stdlib(spec)]
        envelopes = mined[0].envelopes
    elif kind == "imports":
        spec = {**sources, **spec}
        envelopes = build_imports(spec, cache)
    else:
        raise SystemExit(f"{spec['name']}: unknown package kind {kind!r}")
    held = held_messages(spec["name"]) if spec.get("dropCopies") else frozenset()
    records = finish(spec, envelopes, mirrors, held, cache)
    manifest = write_package(spec, records, mined, cache=cache)
    size = sum((data_dir(spec["name"]) / f).stat().st_size for f in manifest["files"])
    print(
        f"errcat-data-{spec['name']}: {manifest['count']:,} records, {size / 1e6:.1f} MB "
        f"compressed, {time.perf_counter() - started:.0f} s",
        flush=True,
    )


def refinish(spec: dict[str, Any], mirrors: Path = MIRRORS) -> None:
    """Run :func:`finish` again on a package's committed records (no mining)."""
    data = data_dir(spec["name"])
    manifest = read_manifest(data)
    envelopes = [env for file in sorted(manifest["files"]) for env in read_envelopes(data / file)]
    held = held_messages(spec["name"]) if spec.get("dropCopies") else frozenset()
    new = write_package(spec, finish(spec, envelopes, mirrors, held), [], kept=manifest)
    print(f"errcat-data-{spec['name']}: {manifest['count']:,} -> {new['count']:,} records")


def read_envelopes(path: Path) -> list[RecordEnvelope]:
    """The envelopes of one committed records file (``.jsonl.gz``)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [RecordEnvelope.model_validate_json(line) for line in fh if line.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--mirrors", type=Path, default=MIRRORS, help="git mirrors: <dir>/<owner>+<name>/repo"
    )
    parser.add_argument("--only", action="append", default=[], metavar="NAME")
    parser.add_argument("--verify", action="store_true", help="check the committed packages")
    parser.add_argument(
        "--refinish",
        action="store_true",
        help="drop vague records and replace the hand-written ones in the committed packages",
    )
    args = parser.parse_args(argv)
    sources = json.loads((STACK / "SOURCES.json").read_text(encoding="utf-8"))
    packages = [p for p in sources["packages"] if not args.only or p["name"] in args.only]
    if args.verify:
        unbuilt = [spec["name"] for spec in packages if not data_dir(spec["name"]).is_dir()]
        for name in unbuilt:
            print(f"errcat-data-{name}: not built yet (named in SOURCES.json)")
        packages = [spec for spec in packages if spec["name"] not in unbuilt]
        problems = [p for spec in packages for p in verify(spec["name"])]
        for problem in problems:
            print(problem)
        if problems:
            raise SystemExit(f"{len(problems)} problem(s)")
        print(f"{len(packages)} data packages verified against their manifests")
        return
    if args.refinish:
        for spec in packages:
            refinish({**sources, **spec} if spec.get("kind") == "imports" else spec, args.mirrors)
        return
    args.cache.mkdir(parents=True, exist_ok=True)
    for spec in packages:
        build_one(spec, sources, args.cache, args.workers, args.mirrors)


if __name__ == "__main__":
    main()
