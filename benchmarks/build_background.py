"""Rebuild errcat's background model of Python error messages (src/errcat/_background.json.gz).

Run: .venv/bin/python benchmarks/build_background.py [--site DIR ...] [--wheel WHL ...]

errcat's own miner runs over the standard library of the running interpreter,
every top-level package in the given site-packages folders (default: the
running interpreter's), and the ``.py`` files of any wheels given (for example
a torch wheel). Each top-level package is one project; the standard library is
one project too. The model keeps:

* ``words``: for each word, the number of distinct templates holding it (kept
  when at least 3);
* ``shapes``: for each message shape (:func:`errcat.background.shape_key`), the
  number of distinct files raising it, each project counting at most 5 files
  (kept when at least 2);
* ``builtin``, ``builtin_classes`` and ``builtin_examples``: the wording of
  each message in the fit half of ``--builtin`` (exceptions raised outside
  Python code), alone, with its class (:func:`errcat.background.class_key`),
  and three of its messages as printed;
* ``call_wordings``: C's call errors whatever callable they name
  (:func:`errcat.background.call_wordings`), worked out from those examples
  here, so that no process that matches a message works them out.

``--keep-tables`` keeps the words and shapes of the current model and rebuilds
only the builtin wordings, without mining; without ``--builtin`` it keeps the
current builtin wordings too.

``--c-source DIR`` adds every wording CPython's C sources raise (an unpacked
CPython tree: ``cpython_c_messages.py`` reads its ``PyErr_SetString`` and
``PyErr_Format`` calls) as ``c_source`` (class keys; :func:`errcat.background.load`
joins them to ``builtin`` and ``builtin_classes``), with C's printed form of a
wording no harvested message showed, where the format quotes its values
(``c_source_examples``). The learned table holds only what the
fit half of a test-suite harvest raised, which left out ``division by zero`` and
``tuple index out of range``. The model names the tree it read (``cSource``);
``--keep-tables`` without ``--c-source`` keeps both.

The output is written with sorted keys and a fixed gzip mtime, so the same
sources give the same bytes. It prints a summary table.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import sysconfig
import tempfile
import time
import zipfile
import zlib
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from cpython_c_messages import c_messages, example_of, wording_of
from errcat import background
from errcat.background import builtin_wording, class_key, shape_key, shape_words
from errcat.mine import mine_paths
from errcat.patterns import literal_fragments

CACHE = Path.home() / ".cache" / "errcat-background"
OUT = Path(__file__).resolve().parent.parent / "src" / "errcat" / "_background.json.gz"
SKIP = {"pip", "setuptools", "_distutils_hack", "pkg_resources", "wheel", "errcat", "test", "tests"}
PER_PROJECT_FILES = 5
MIN_WORD_TEMPLATES = 3
MIN_SHAPE_FILES = 2


def split_of(key: str) -> str:
    """The half of benchmarks/calibrate.py that a row belongs to (the same function)."""
    return "fit" if zlib.crc32(key.encode()) % 2 == 0 else "test"


def projects_in(site: Path) -> list[tuple[str, Path]]:
    out = []
    for path in sorted(site.iterdir()):
        if path.name in SKIP or path.name.startswith(("_", ".")) or path.name.endswith("-info"):
            continue
        if path.is_dir() and (path / "__init__.py").exists():
            out.append((path.name, path))
    return out


def _shortest(examples: dict[str, set[str]]) -> dict[str, list[str]]:
    """Each wording's three shortest messages (then by text), wordings in order."""
    return {
        w: sorted(found, key=lambda m: (len(m), m))[:3] for w, found in sorted(examples.items())
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", action="append", type=Path, default=[])
    parser.add_argument("--wheel", action="append", type=Path, default=[])
    parser.add_argument(
        "--builtin",
        type=Path,
        action="append",
        default=[],
        help="JSON Lines of exceptions raised outside Python code (benchmarks/harvest.py's "
        "corpus-outside.jsonl); only rows whose split is 'fit' are used",
    )
    parser.add_argument(
        "--keep-tables",
        action="store_true",
        help="keep the words and shapes of the current model (no mining); rebuild only the "
        "builtin wordings from --builtin",
    )
    parser.add_argument(
        "--c-source",
        type=Path,
        help="an unpacked CPython source tree whose C files' messages are C's wordings too",
    )
    parser.add_argument("-o", "--output", type=Path, default=OUT)
    args = parser.parse_args()
    sites = args.site or [Path(sysconfig.get_paths()["purelib"])]
    stdlib = Path(sysconfig.get_paths()["stdlib"])

    templates_words: dict[str, set[str]] = {}
    shape_files: dict[str, Counter[str]] = defaultdict(Counter)
    rows: list[tuple[str, int, float]] = []

    def mined(project: str, path: Path, origin: Path) -> list[tuple[str, str, str]]:
        """(template, pattern, file) of every record mined from ``path``, cached by origin mtime."""
        stamp = f"{origin.resolve()}:{origin.stat().st_mtime_ns}:{path.name}"
        cache = CACHE / f"{project}.json"
        if cache.exists():
            cached = json.loads(cache.read_text(encoding="utf-8"))
            if cached["stamp"] == stamp:
                return [(str(a), str(b), str(c)) for a, b, c in cached["rows"]]
        result = mine_paths([path], repo=f"background/{project}", sha="0" * 40)
        rows = [(r.error_message, r.message_pattern, r.file_path) for r in result.records]
        CACHE.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({"stamp": stamp, "rows": rows}), encoding="utf-8")
        return rows

    def take(project: str, path: Path, origin: Path | None = None) -> None:
        began = time.perf_counter()
        rows_mined = mined(project, path, origin or path)
        for template, pattern, file_path in rows_mined:
            fragments = literal_fragments(pattern)
            key = shape_key(fragments)
            if not key:
                continue
            templates_words.setdefault(f"{project}\0{template}", set()).update(
                w for f in fragments for w in shape_words(f)
            )
            files = shape_files[key]
            if sum(1 for name in files if name.startswith(project + "\0")) < PER_PROJECT_FILES:
                files[f"{project}\0{file_path}"] += 1
        rows.append((project, len(rows_mined), time.perf_counter() - began))
        print(f"  {project:<32} {len(rows_mined):>7} records", file=sys.stderr)

    if args.c_source is not None and not (args.c_source / "Objects").is_dir():
        parser.error(f"--c-source {args.c_source}: not a CPython source tree (no Objects/ folder)")
    kept: dict[str, Any] = {}
    if args.keep_tables:
        kept = json.loads(gzip.decompress(args.output.read_bytes()))
        words, shapes = dict(kept["words"]), dict(kept["shapes"])
        templates, projects = int(kept["templates"]), int(kept["projects"])
    else:
        with tempfile.TemporaryDirectory() as tmp:
            take("cpython", stdlib)
            for site in sites:
                for name, path in projects_in(site):
                    take(name, path)
            for wheel in args.wheel:
                target = Path(tmp) / wheel.stem
                with zipfile.ZipFile(wheel) as archive:
                    members = [n for n in archive.namelist() if n.endswith(".py")]
                    archive.extractall(target, members)
                for name, path in projects_in(target):
                    take(name, path, wheel)

        word_counts: Counter[str] = Counter()
        for found in templates_words.values():
            word_counts.update(found)
        words = {w: n for w, n in sorted(word_counts.items()) if n >= MIN_WORD_TEMPLATES}
        shapes = {
            key: len(files)
            for key, files in sorted(shape_files.items())
            if len(files) >= MIN_SHAPE_FILES
        }
        templates, projects = len(templates_words), len(rows)
    builtin: set[str] = set()
    classes: set[str] = set()
    examples: dict[str, set[str]] = defaultdict(set)
    if kept and not args.builtin:
        builtin.update(kept.get("builtin", []))
        classes.update(kept.get("builtin_classes", []))
        for wording, found in kept.get("builtin_examples", {}).items():
            examples[wording].update(found)
    for path in args.builtin:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            message = str(row["message"])
            if split_of(message) == "fit" and len(message) < 300:
                wording = builtin_wording(message)
                if len(wording.split()) >= 2:
                    builtin.add(wording)
                    classes.add(class_key(str(row["error_class"]), wording))
                    examples[wording].add(message)
    c_source, source_classes = "", set()
    source_examples: dict[str, set[str]] = defaultdict(set)
    if args.c_source is not None:
        for cls, fmt in c_messages(args.c_source):
            wording = wording_of(fmt)
            if len(wording.split()) < 2:
                continue
            source_classes.add(class_key(cls, wording))
            example = example_of(fmt)
            if (
                example is not None
                and wording not in examples
                and builtin_wording(example) == wording
            ):
                source_examples[wording].add(example)
        c_source = f"{args.c_source.resolve().name}: {len(source_classes)} (class, wording) pairs"
    elif kept:
        c_source, source_classes = str(kept.get("cSource", "")), set(kept.get("c_source", []))
        for wording, found in kept.get("c_source_examples", {}).items():
            source_examples[wording].update(found)
    source_shortest, shortest = _shortest(source_examples), _shortest(examples)
    model = {
        "builtin": sorted(builtin),
        "builtin_classes": sorted(classes),
        # What the C source raises, apart from what a harvest saw raised (load() joins them).
        "c_source": sorted(source_classes),
        # C's own form of a source wording no harvested message showed (the three shortest).
        "c_source_examples": source_shortest,
        "cSource": c_source,
        # The three shortest of each wording (then by text): enough to tell its form.
        "builtin_examples": shortest,
        "version": time.strftime("%Y-%m-%d"),
        "templates": templates,
        "projects": projects,
        "words": words,
        "shapes": shapes,
        # C's call errors whatever callable they name, worked out here, not in each
        # process that matches a message (from the examples as load() joins them).
        "call_wordings": background.call_wordings({**source_shortest, **shortest}),
    }
    raw = json.dumps(model, sort_keys=True, separators=(",", ":")).encode()
    args.output.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
    print(f"projects                  {projects:>8}")
    print(f"records mined             {sum(r[1] for r in rows):>8}")
    print(f"distinct templates        {templates:>8}")
    print(f"words kept (>= {MIN_WORD_TEMPLATES} templates) {len(words):>8}")
    print(f"shapes kept (>= {MIN_SHAPE_FILES} files)    {len(shapes):>8}")
    print(f"builtin wordings          {len(builtin):>8}   with their class {len(classes):>6}")
    print(f"C source wordings         {len(source_classes):>8}   {c_source or '(none)'}")
    print(f"mining time               {sum(r[2] for r in rows):>8.1f} s")
    print(f"model file                {args.output.stat().st_size / 1024:>8.0f} KiB  {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
