"""Harvest a labelled corpus of real exceptions from real test suites.

Run: ``.venv/bin/python benchmarks/harvest.py`` (about 40 minutes on two busy
cores: the standard library's suite 12, the projects' suites 25 with some
stopped by ``--timeout``, labelling and mining 2). ``--only NAME``,
``--skip-stdlib``, ``--skip-projects`` and ``--run-only`` split the work (runs
can go in parallel: each suite writes its own file); ``--skip-run`` labels and
mines what was harvested.

Method
======

1. A dedicated venv (``<out>/venv``, from the interpreter running this
   script) gets pytest, the test helpers the suites need, and the pinned
   third-party projects of :data:`PROJECTS` (pure Python, quick offline
   tests, of many kinds). Each project's sdist is downloaded
   (``pip download --no-deps --no-binary :all:``) and unpacked for its tests;
   the package source inside the sdist is deleted so that the tests import
   the *installed* package (tracebacks show ``.../site-packages/...`` paths,
   as a user's do), and its place in the sdist gives the project's
   repo-relative prefix (``src/attr``, ``jinja2``...).
2. The test suites run with :mod:`harvest_hook` loaded (a ``sitecustomize``
   for the standard library's ``python -m test``, ``-p harvest_hook`` for
   pytest), which writes every exception the tests expect
   (``assertRaises``, ``pytest.raises``) with its traceback object's
   innermost frame, the ``traceback.format_exception`` text and the chain.
3. Each exception is labelled by its raise site: the innermost frame's file,
   mapped back to the repo (``Lib/argparse.py`` for the standard library,
   ``<prefix>/<module path>`` for a project; a raise in a dependency belongs
   to that dependency's project, when it is one of ours). It is kept in
   ``corpus.jsonl`` when that line is a ``raise`` statement of the project's
   own source (not its tests), and in ``corpus-outside.jsonl`` otherwise
   (raised from C, from test code, or from a package that is not mined):
   errors no mined catalog holds. Duplicates (same site and message) are
   dropped. ``split`` is ``fit`` or ``test``, from a hash of the project and
   raise site, so that a site is never on both sides.
4. Catalogs of the same sources are mined with :func:`errcat.mine.mine_paths`
   (``python/cpython`` with prefix ``Lib``; ``pypi/<name>`` with the project's
   prefix) and written beside the corpus: ``catalog-stdlib.jsonl`` and
   ``catalog-thirdparty.jsonl``.

Everything goes to ``/root/.cache/errcat-corpus`` (``--out``); nothing is
written in the repository.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = Path("/root/.cache/errcat-corpus")
SHA = "0" * 40

#: Test helpers some suites import (installed, never harvested).
TEST_DEPS = [
    "pytest==9.2.0",
    "hypothesis",
    "freezegun",
    "pytest-mock",
    "pytz",
    "tzdata",
    "six",
    "time-machine",
    "simplejson",
    "typing-extensions",
]


@dataclass(frozen=True)
class Project:
    """A third-party project: its distribution, the modules it installs, how to test it."""

    dist: str
    version: str
    kind: str
    modules: tuple[str, ...]  # top-level packages or single modules (``parse.py``)
    tests: tuple[str, ...] = ("tests",)
    pytest_args: tuple[str, ...] = ()
    extra: tuple[str, ...] = field(default=())  # more test dependencies


PROJECTS: tuple[Project, ...] = (
    Project("attrs", "26.1.0", "data classes", ("attr", "attrs")),
    Project(
        "packaging",
        "26.4",
        "versions, markers",
        ("packaging",),
        pytest_args=("--ignore=tests/property",),  # slow hypothesis searches
    ),
    Project("Jinja2", "3.1.6", "templating", ("jinja2",), pytest_args=("-p", "no:warnings")),
    Project("MarkupSafe", "3.0.4", "escaping", ("markupsafe",)),
    Project("click", "8.5.1", "CLI", ("click",)),
    Project("pyparsing", "3.3.3", "parsers", ("pyparsing",)),
    Project("python-dateutil", "4.0.0", "dates", ("dateutil",)),
    Project("tomlkit", "0.15.2", "TOML", ("tomlkit",)),
    Project(
        "jsonschema",
        "4.26.0",
        "validation",
        ("jsonschema",),
        tests=("jsonschema/tests",),
        extra=("jsonpath-ng", "rfc3339-validator", "webcolors", "uri-template", "fqdn"),
    ),
    Project("marshmallow", "4.4.0", "serialization", ("marshmallow",), extra=("simplejson",)),
    Project("sqlparse", "0.6.1", "SQL parser", ("sqlparse",)),
    Project("semver", "3.1.2", "versions", ("semver",)),
    Project("more-itertools", "11.2.1", "iterators", ("more_itertools",)),
    Project("parse", "1.22.4", "parsers", ("parse",)),
    Project("humanize", "4.17.0", "formatting", ("humanize",)),
    Project(
        "voluptuous", "0.16.0", "validation", ("voluptuous",), tests=("voluptuous/tests/tests.py",)
    ),
    Project("h11", "0.16.0", "HTTP protocol", ("h11",), tests=("h11/tests",)),
    Project("idna", "3.20", "networking utils", ("idna",)),
    Project("jmespath", "1.1.0", "query language", ("jmespath",)),
    Project("mpmath", "1.4.1", "math", ("mpmath",), tests=("mpmath/tests",)),
    Project("lark", "1.3.1", "parsers", ("lark",)),
    Project("isodate", "0.7.2", "dates", ("isodate",)),
    Project("croniter", "7.0.0", "scheduling", ("croniter",), tests=("src/croniter/tests",)),
    Project("tabulate", "0.10.0", "formatting", ("tabulate",), tests=("test",)),
    Project("Markdown", "3.11.3", "markup", ("markdown",)),
    Project("itsdangerous", "2.2.0", "signing", ("itsdangerous",)),
    Project("Mako", "1.4.3", "templating", ("mako",), tests=("test",)),
    Project("rfc3986", "2.0.0", "URIs", ("rfc3986",)),
    Project("natsort", "8.4.0", "sorting", ("natsort",)),
)

#: Projects no fit of errcat's confidence model has seen (``--holdout``): harvested
#: into a corpus of their own, they measure how the model carries to code it was
#: not fitted on. Never add them to :data:`PROJECTS`.
HOLDOUT: tuple[Project, ...] = (
    Project("arrow", "1.4.0", "dates", ("arrow",), extra=("dateparser",)),
    Project("boltons", "26.2.0", "utilities", ("boltons",)),
    Project("cachetools", "8.0.2", "caching", ("cachetools",)),
    Project("pycparser", "3.12", "C parser", ("pycparser",)),
    Project("toolz", "1.2.0", "functional", ("toolz", "tlz"), tests=("toolz/tests",)),
    Project("schema", "0.7.8", "validation", ("schema",), tests=("test_schema.py",)),
    Project("jsonpointer", "3.12", "JSON pointers", ("jsonpointer.py",), tests=("tests.py",)),
    Project("jsonpatch", "1.48", "JSON patches", ("jsonpatch.py",), tests=("tests.py",)),
    Project("xmltodict", "1.0.4", "XML", ("xmltodict.py",)),
    Project("asteval", "1.0.10", "expressions", ("asteval",)),
    Project("glom", "25.12.0", "nested data", ("glom",), tests=("glom/test",)),
    Project("dacite", "1.9.2", "data classes", ("dacite",)),
    Project("tinydb", "4.9.0", "database", ("tinydb",)),
    Project("pydash", "8.1.0", "functional", ("pydash",)),
    Project("configobj", "5.0.9", "config files", ("configobj", "validate"), tests=("src/tests",)),
    Project("inflect", "7.6.0", "text", ("inflect",)),
)
#: Where ``--holdout`` writes by default.
HOLDOUT_OUT = DEFAULT_OUT.with_name("errcat-holdout")

#: Standard-library test modules left out: slow, resource-hungry, or testing the
#: interpreter's own machinery rather than library code.
STDLIB_EXCLUDE = (
    "test_asyncio",
    "test_capi",
    "test_compileall",
    "test_concurrent_futures",
    "test_embed",
    "test_gdb",
    "test_idle",
    "test_io",
    "test_largefile",
    "test_lib2to3",
    "test_multiprocessing_fork",
    "test_multiprocessing_forkserver",
    "test_multiprocessing_main_handling",
    "test_multiprocessing_spawn",
    "test_peg_generator",
    "test_regrtest",
    "test_signal",
    "test_socket",
    "test_ssl",
    "test_subprocess",
    "test_sys_settrace",
    "test_threading",
    "test_tkinter",
    "test_tools",
    "test_tracemalloc",
    "test_ttk",
    "test_venv",
    "test_zipfile64",
    "test_bigmem",
    "test_bigaddrspace",
    "test_faulthandler",
    "test_httpservers",
    "test_unparse",
    "test_tokenize",
    "test_pickle",
    "test_pickletools",
    "test_zipfile",
)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, check=True, text=True, **kwargs)


# -- environment -----------------------------------------------------------------


def venv_python(out: Path) -> Path:
    return out / "venv" / "bin" / "python"


def ensure_venv(out: Path, projects: tuple[Project, ...]) -> Path:
    python = venv_python(out)
    if not python.exists():
        run([sys._base_executable, "-m", "venv", str(out / "venv")])  # type: ignore[attr-defined]
    specs = [f"{p.dist}=={p.version}" for p in projects]
    extra = sorted({e for p in projects for e in p.extra})
    stamp = out / "venv" / ".harvest-installed"
    wanted = "\n".join([*TEST_DEPS, *extra, *specs])
    if not stamp.exists() or stamp.read_text() != wanted:
        run([str(python), "-m", "pip", "install", "-q", *TEST_DEPS, *extra, *specs])
        stamp.write_text(wanted)
    return python


def venv_paths(python: Path) -> tuple[Path, Path]:
    """The venv's stdlib and site-packages folders (resolved)."""
    code = "import sysconfig, json; p = sysconfig.get_paths(); print(json.dumps([p['stdlib'], p['purelib']]))"
    stdlib, purelib = json.loads(
        subprocess.run([str(python), "-c", code], check=True, text=True, capture_output=True).stdout
    )
    return Path(stdlib).resolve(), Path(purelib).resolve()


def fetch_sdist(out: Path, python: Path, project: Project) -> Path:
    """The unpacked sdist of a project (downloaded once)."""
    sdists = out / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    unpacked = out / "src" / f"{project.dist}-{project.version}"
    if unpacked.exists():
        return unpacked
    found = _find_archive(sdists, project)
    if found is None:
        run(
            [
                str(python),
                *("-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:"),
                *("-d", str(sdists), f"{project.dist}=={project.version}"),
            ]
        )
        found = _find_archive(sdists, project)
    if found is None:
        raise FileNotFoundError(f"no sdist for {project.dist} {project.version} in {sdists}")
    tmp = out / "src" / ".unpack"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    if found.name.endswith(".zip"):
        with zipfile.ZipFile(found) as zf:
            zf.extractall(tmp)
    else:
        with tarfile.open(found) as tf:
            tf.extractall(tmp, filter="data")
    (top,) = list(tmp.iterdir())
    top.rename(unpacked)
    tmp.rmdir()
    return unpacked


def _find_archive(folder: Path, project: Project) -> Path | None:
    norm = project.dist.lower().replace("-", "_").replace(".", "_")
    for path in sorted(folder.iterdir()):
        name = path.name.lower().replace("-", "_")
        if name.startswith(f"{norm}_{project.version.lower()}.") and (
            name.endswith((".tar.gz", ".zip", ".tgz"))
        ):
            return path
    return None


def module_prefixes(sdist: Path, project: Project) -> dict[str, str]:
    """Each module's folder in the project's repo (``src`` or ``""``), found in the sdist."""
    out: dict[str, str] = {}
    for module in project.modules:
        target = module if module.endswith(".py") else f"{module}/__init__.py"
        candidates = sorted(
            (p for p in sdist.rglob(Path(target).name) if p.as_posix().endswith("/" + target)),
            key=lambda p: len(p.parts),
        )
        candidates = [p for p in candidates if "tests" not in p.relative_to(sdist).parts[:-2]]
        if not candidates:
            raise FileNotFoundError(f"{target} not found in {sdist}")
        anchor = candidates[0] if module.endswith(".py") else candidates[0].parent
        out[module.removesuffix(".py")] = anchor.parent.relative_to(sdist).as_posix().strip(".")
    return out


def hide_sources(sdist: Path, prefixes: dict[str, str], modules: tuple[str, ...]) -> None:
    """Move the package source out of the sdist so that tests import the installed one."""
    for module in modules:
        name = module.removesuffix(".py")
        rel = Path(prefixes[name] or ".") / module
        source = sdist / rel
        if source.exists():
            hidden = sdist / ".hidden-source" / rel
            hidden.parent.mkdir(parents=True, exist_ok=True)
            source.rename(hidden)


# -- running the suites ---------------------------------------------------------------


def hook_dir(out: Path) -> Path:
    folder = out / "hook"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "harvest_hook.py", folder / "harvest_hook.py")
    (folder / "sitecustomize.py").write_text("import harvest_hook\n\nharvest_hook.install()\n")
    return folder


def run_suite(
    cmd: list[str], cwd: Path, raw: Path, hooks: Path, timeout: float
) -> tuple[float, str]:
    """Run one test command with the hook; ``(seconds, outcome)``."""
    env = dict(os.environ)
    env["ERRCAT_HARVEST_OUT"] = str(raw)
    env["PYTHONPATH"] = str(hooks)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("PYTHONSTARTUP", None)
    started = time.perf_counter()
    log(f"$ (cd {cwd} && {' '.join(cmd)})")
    with (raw.parent / (raw.stem + ".log")).open("w") as out:
        proc = subprocess.Popen(
            ["nice", "-n", "10", *cmd],
            cwd=cwd,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            code = proc.wait(timeout=timeout)
            outcome = f"exit {code}"
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 15)
            proc.wait()
            outcome = "timed out"
    return time.perf_counter() - started, outcome


def harvest_stdlib(python: Path, out: Path, hooks: Path, timeout: float) -> tuple[float, str]:
    raw = out / "raw" / "stdlib.jsonl"
    raw.parent.mkdir(parents=True, exist_ok=True)
    raw.unlink(missing_ok=True)
    cmd = [
        str(python),
        *("-m", "test", "-j2", "--timeout", "120", "-q", "-x", *STDLIB_EXCLUDE),
    ]
    return run_suite(cmd, out, raw, hooks, timeout)


def harvest_project(
    python: Path, out: Path, hooks: Path, project: Project, timeout: float
) -> tuple[float, str]:
    sdist = fetch_sdist(out, python, project)
    prefixes = module_prefixes_cached(out, sdist, project)
    hide_sources(sdist, prefixes, project.modules)
    raw = out / "raw" / f"{project.dist}.jsonl"
    raw.parent.mkdir(parents=True, exist_ok=True)
    raw.unlink(missing_ok=True)
    tests = test_paths(sdist, purelib_of(python), project, prefixes)
    if not tests:
        return 0.0, "no tests found"
    cmd = [
        str(python),
        *("-m", "pytest", "-q", "-x", "--maxfail=100000", "-p", "no:cacheprovider"),
        *("-p", "harvest_hook", "-o", "addopts=", "-o", "filterwarnings="),
        *("--continue-on-collection-errors", "-W", "ignore"),
        *project.pytest_args,
        *tests,
    ]
    return run_suite(cmd, sdist, raw, hooks, timeout)


def purelib_of(python: Path) -> Path:
    return venv_paths(python)[1]


def test_paths(sdist: Path, purelib: Path, project: Project, prefixes: dict[str, str]) -> list[str]:
    """The test files and folders to run: in the sdist, or inside the installed package.

    Tests that live inside the package (``jsonschema/tests``) run from the
    installed copy (copied there from the sdist when the wheel leaves them
    out), since the sdist's package source is hidden.
    """
    out = []
    for test in project.tests:
        for module in project.modules:
            prefix = prefixes[module.removesuffix(".py")]
            in_repo = f"{prefix}/{module}" if prefix else module
            if test == in_repo or test.startswith(in_repo + "/"):
                inner = test[len(in_repo) :].lstrip("/")
                installed = purelib / module / inner
                if not installed.exists():
                    hidden = sdist / ".hidden-source" / in_repo / inner
                    if hidden.is_dir():
                        shutil.copytree(hidden, installed)
                    elif hidden.is_file():
                        shutil.copytree(hidden.parent, installed.parent, dirs_exist_ok=True)
                if installed.exists():
                    out.append(str(installed))
                break
        else:
            if (sdist / test).exists():
                out.append(test)
    return out


def module_prefixes_cached(out: Path, sdist: Path, project: Project) -> dict[str, str]:
    """Module prefixes, remembered before the sources are hidden."""
    stamp = out / "src" / f"{project.dist}-{project.version}.prefixes.json"
    if stamp.exists():
        data: dict[str, str] = json.loads(stamp.read_text())
        return data
    prefixes = module_prefixes(sdist, project)
    stamp.write_text(json.dumps(prefixes))
    return prefixes


# -- labelling ----------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """Where a project's code is installed and where it lives in its repo."""

    project: str
    repo: str
    installed: Path  # a package folder, or a single module file
    repo_path: str  # the same, relative to the repo root


def sources(
    out: Path, stdlib: Path, purelib: Path, projects: tuple[Project, ...] = PROJECTS
) -> list[Source]:
    found = [Source("cpython", "python/cpython", stdlib, "Lib")]
    for project in projects:
        stamp = out / "src" / f"{project.dist}-{project.version}.prefixes.json"
        if not stamp.exists():
            continue
        prefixes = json.loads(stamp.read_text())
        for module in project.modules:
            name = module.removesuffix(".py")
            prefix = prefixes[name]
            repo_path = f"{prefix}/{module}" if prefix else module
            found.append(
                Source(
                    project.dist, f"pypi/{project.dist}", (purelib / module).resolve(), repo_path
                )
            )
    return found


def is_test_path(rel: str) -> bool:
    parts = rel.split("/")
    name = parts[-1]
    return (
        any(p in ("test", "tests", "idle_test") or p.endswith("_tests") for p in parts[:-1])
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
    )


def frozen_source(path: str, stdlib: Path) -> Path | None:
    """The stdlib file of a frozen module's frame (``<frozen os>``: ``.../os.py``)."""
    if not (path.startswith("<frozen ") and path.endswith(">")):
        return None
    module = path[len("<frozen ") : -1].replace(".", "/")
    for candidate in (stdlib / f"{module}.py", stdlib / module / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def locate(path: str, srcs: list[Source], purelib: Path) -> tuple[Source, str] | None:
    """The source and repo-relative path of an installed file, when it is mined source.

    Frames of frozen standard-library modules (``<frozen os>``, as Python 3.11+
    prints them) belong to the module's file.
    """
    frozen = frozen_source(path, srcs[0].installed)
    if frozen is not None:
        path = str(frozen)
    try:
        resolved = Path(path).resolve()
    except OSError:
        return None
    for src in srcs[1:]:
        if resolved == src.installed:
            return src, src.repo_path
        if src.installed.is_dir() and resolved.is_relative_to(src.installed):
            rel = resolved.relative_to(src.installed).as_posix()
            return None if is_test_path(rel) else (src, f"{src.repo_path}/{rel}")
    stdlib = srcs[0]
    if resolved.is_relative_to(stdlib.installed) and not resolved.is_relative_to(purelib.parent):
        rel = resolved.relative_to(stdlib.installed).as_posix()
        if rel.startswith("site-packages/") or is_test_path(rel):
            return None
        return stdlib, f"Lib/{rel}"
    return None


@cache
def raise_lines(path: str) -> frozenset[int]:
    """Lines of a file that fall inside a ``raise`` statement."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return frozenset()
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return frozenset(lines)


def split_of(project: str, raise_path: str, line: int) -> str:
    digest = hashlib.sha256(f"{project}:{raise_path}:{line}".encode()).digest()
    return "fit" if digest[0] % 2 == 0 else "test"


def read_raw(folder: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    for path in sorted(folder.glob("*.jsonl")):
        with path.open(encoding="utf-8", errors="replace") as fh:
            for line in fh:
                try:
                    yield path.stem, json.loads(line)
                except json.JSONDecodeError:
                    continue


def label(
    out: Path, stdlib: Path, purelib: Path, projects: tuple[Project, ...] = PROJECTS
) -> dict[str, int]:
    srcs = sources(out, stdlib, purelib, projects)
    kept: dict[tuple[str, str, int, str], dict[str, Any]] = {}
    outside: dict[tuple[str, int, str], dict[str, Any]] = {}
    counts: Counter[str] = Counter()
    for suite, item in read_raw(out / "raw"):
        counts["seen"] += 1
        message = item.get("message")
        if message is None:
            counts["unprintable message"] += 1
            continue
        where = locate(item["file"], srcs, purelib)
        source_file = str(frozen_source(item["file"], stdlib) or item["file"])
        on_raise = where is not None and item["line"] in raise_lines(source_file)
        base = {
            "suite": suite,
            "error_class": item["error_class"],
            "message": message,
            "exception_only": item["exception_only"],
            "function": item["function"],
            "qualname": item["qualname"],
            "installed_path": item["file"],
            "traceback": item["traceback"],
            "chain": item["chain"],
            "how": item["how"],
            "test": item.get("test"),
        }
        if where is None or not on_raise:
            origin = "c" if where is not None else "elsewhere"
            key = (item["file"], item["line"], message)
            if key not in outside:
                outside[key] = {
                    "origin": origin,
                    "raise_line": item["line"],
                    **base,
                }
            counts[f"outside ({origin})"] += 1
            continue
        src, rel = where
        key2 = (src.project, rel, item["line"], message)
        if key2 in kept:
            counts["duplicate"] += 1
            continue
        kept[key2] = {
            "project": src.project,
            "repo": src.repo,
            "raise_path": rel,
            "raise_line": item["line"],
            "split": split_of(src.project, rel, item["line"]),
            **base,
        }
    rows = sorted(
        kept.values(), key=lambda r: (r["project"], r["raise_path"], r["raise_line"], r["message"])
    )
    for row in rows:
        row["id"] = hashlib.sha256(
            f"{row['project']}:{row['raise_path']}:{row['raise_line']}:{row['message']}".encode()
        ).hexdigest()[:16]
    write_jsonl(out / "corpus.jsonl", rows)
    others = sorted(
        outside.values(), key=lambda r: (r["installed_path"], r["raise_line"], r["message"])
    )
    write_jsonl(out / "corpus-outside.jsonl", others)
    counts["kept"] = len(rows)
    counts["outside kept"] = len(others)
    per_project = Counter(r["project"] for r in rows)
    for name, n in sorted(per_project.items()):
        counts[f"kept: {name}"] = n
    return dict(counts)


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    tmp.replace(path)


# -- catalogs -------------------------------------------------------------------------


def mine_catalogs(
    out: Path, stdlib: Path, purelib: Path, projects: tuple[Project, ...] = PROJECTS
) -> dict[str, int]:
    from errcat.loaders import write_jsonl as write_envelopes
    from errcat.mine import mine_paths
    from errcat.models import RecordEnvelope

    srcs = sources(out, stdlib, purelib, projects)
    counts: dict[str, int] = {}
    started = time.perf_counter()
    result = mine_paths([stdlib], repo="python/cpython", sha=SHA, path_prefix="Lib", workers=2)
    counts["stdlib"] = write_envelopes(out / "catalog-stdlib.jsonl", result.envelopes)
    envelopes: list[RecordEnvelope] = []
    for src in srcs[1:]:
        prefix = src.repo_path if src.installed.is_dir() else src.repo_path.rpartition("/")[0]
        result = mine_paths([src.installed], repo=src.repo, sha=SHA, path_prefix=prefix)
        envelopes.extend(result.envelopes)
    counts["third-party"] = write_envelopes(out / "catalog-thirdparty.jsonl", envelopes)
    log(f"mined {counts} in {time.perf_counter() - started:.0f} s")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, help=f"default: {DEFAULT_OUT} ({HOLDOUT_OUT} with --holdout)"
    )
    parser.add_argument(
        "--holdout",
        action="store_true",
        help="harvest the HOLDOUT projects instead of PROJECTS (a corpus the model never saw)",
    )
    parser.add_argument("--only", action="append", help="harvest only these projects (dist names)")
    parser.add_argument("--skip-stdlib", action="store_true")
    parser.add_argument("--skip-projects", action="store_true")
    parser.add_argument("--skip-run", action="store_true", help="only label and mine")
    parser.add_argument("--run-only", action="store_true", help="run suites, do not label or mine")
    parser.add_argument("--skip-mine", action="store_true", help="keep the mined catalogs")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per project suite")
    parser.add_argument("--stdlib-timeout", type=float, default=1500)
    args = parser.parse_args(argv)
    out: Path = args.out or (HOLDOUT_OUT if args.holdout else DEFAULT_OUT)
    out.mkdir(parents=True, exist_ok=True)
    every = HOLDOUT if args.holdout else PROJECTS
    projects = tuple(
        p for p in every if not args.skip_projects and (not args.only or p.dist in args.only)
    )
    python = ensure_venv(out, every)
    stdlib, purelib = venv_paths(python)
    timings: dict[str, tuple[float, str]] = {}
    if not args.skip_run:
        hooks = hook_dir(out)
        for project in projects:
            try:
                timings[project.dist] = harvest_project(python, out, hooks, project, args.timeout)
            except (subprocess.CalledProcessError, FileNotFoundError) as exc:
                timings[project.dist] = (0.0, f"failed: {exc}")
            log(f"{project.dist}: {timings[project.dist]}")
        if not args.skip_stdlib:
            timings["cpython"] = harvest_stdlib(python, out, hooks, args.stdlib_timeout)
    for name, (seconds, outcome) in timings.items():
        print(f"{name:<20} {seconds:7.1f} s  {outcome}")
    if args.run_only:
        return 0
    counts = label(out, stdlib, purelib, every)
    for name, n in counts.items():
        print(f"{name:<30} {n:>7}")
    if args.skip_mine:
        return 0
    mined = mine_catalogs(out, stdlib, purelib, every)
    for name, n in mined.items():
        print(f"catalog {name:<22} {n:>7} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
