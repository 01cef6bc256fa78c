"""Confident answers for real exceptions of projects the default catalog does not hold.

Run with ``python benchmarks/bench_foreign.py [--harvest FILE ...] [--show N]``
(under the interpreter that has the stack packages installed, to load the
whole default catalog: bundled data plus every ``errcat.catalogs`` plug-in).

The queries are real exceptions raised by test suites, not rendered templates:

* the checked-in sample ``tests/data/real_exceptions.jsonl`` (see
  ``sample_real_exceptions.py``), each case as its traceback, its bare
  ``Class: message`` line and its log line, keeping only the projects of which
  the catalog holds no record (by repo name);
* any ``--harvest`` file, as :mod:`harvest_hook` writes it (one exception a line
  with its ``traceback.format_exception`` text): the traceback and its last
  line, keeping only exceptions whose innermost frame is in a file of a project
  the catalog lacks (``site-packages/<name>/``, ``<name>`` not a catalog repo's
  name).

A harvest of projects the catalog lacks, as measured in this branch (networkx
3.6.1's whole suite and sympy 1.14.0's core, sets, matrices, functions, logic,
tensor and combinatorics suites)::

    python -m venv /tmp/h && /tmp/h/bin/pip install pytest hypothesis networkx sympy
    PYTHONPATH=benchmarks ERRCAT_HARVEST_OUT=/tmp/harvest.jsonl \\
        /tmp/h/bin/python -m pytest -q -p harvest_hook /tmp/h/lib/python3.11/site-packages/networkx

None of them is in the catalog: every exact, confident answer is wrong, but
one of the interpreter's own records (CPython's C code or import system: a
record of ``python/cpython`` whose file is C, or tagged as the import system's)
for an error the interpreter raised inside the project's code (``cannot import
name 'x' from 'networkx'``), counted apart. The table gives the share per form
and the records that answered most.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from errcat import Catalog, Match, match_error
from errcat.tags import IMPORT_SYSTEM_TAGS

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "data" / "real_exceptions.jsonl"
_SITE = re.compile(r"site-packages/([A-Za-z0-9_]+)/")


def _short(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def catalog_projects(catalog: Catalog) -> set[str]:
    """The short names (lowercase, letters and digits) of every repo the catalog holds."""
    out: set[str] = set()
    for part in catalog.parts:
        for position in range(len(part)):
            out.add(_short(part.summary(position).repo.rsplit("/", 1)[-1]))
    return out


def sample_queries(held: set[str]) -> Iterator[tuple[str, str, str]]:
    """(project, form, text) of the checked-in sample's projects the catalog lacks."""
    with SAMPLE.open(encoding="utf-8") as fh:
        for line in fh:
            case = json.loads(line)
            project = str(case["project"])
            short = _short(project).removeprefix("python").rstrip("0123456789")
            if project == "cpython" or short in held or _short(project) in held:
                continue
            for form, text in case["texts"].items():
                yield project, form, text


def harvest_queries(path: Path, held: set[str]) -> Iterator[tuple[str, str, str]]:
    """(project, form, text) of a harvest file's exceptions raised outside the catalog."""
    seen: set[str] = set()
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            text = str(row.get("traceback") or "")
            site = _SITE.search(str(row.get("file") or ""))
            if site is None or _short(site.group(1)) in held or not text or text in seen:
                continue
            seen.add(text)
            last = text.rstrip("\n").rsplit("\n", 1)[-1]
            yield site.group(1), "traceback", text
            yield site.group(1), "line", last


def interpreter_s(match: Match) -> bool:
    """Whether the answer is one of the interpreter's own records (C code, import system)."""
    record = match.summary
    own = record.repo == "python/cpython" and record.file_path.endswith((".c", ".h"))
    return own or not IMPORT_SYSTEM_TAGS.isdisjoint(record.tags)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--harvest", type=Path, action="append", default=[])
    parser.add_argument("--show", type=int, default=0, help="print this many wrong answers")
    args = parser.parse_args(argv)
    catalog = Catalog.default()
    held = catalog_projects(catalog)
    queries = list(sample_queries(held))
    for path in args.harvest:
        queries.extend(harvest_queries(path, held))
    totals: Counter[str] = Counter()
    confident: Counter[str] = Counter()
    interpreter: Counter[str] = Counter()
    answers: Counter[str] = Counter()
    shown = 0
    for project, form, text in queries:
        totals[form] += 1
        match = match_error(text, catalog=catalog)
        if match is None or not match.exact:
            continue
        if interpreter_s(match):
            interpreter[form] += 1
            continue
        confident[form] += 1
        record = match.summary
        answers[f"{record.repo}: {record.error_message[:70]}"] += 1
        if shown < args.show:
            shown += 1
            print(f"[{project} {form} {match.confidence}] {text.strip().splitlines()[-1][:160]}")
            print(f"    -> {record.repo} {record.file_path}: {record.error_message[:100]}")
    print(f"catalog: {len(catalog):,} records; foreign projects: {len({q[0] for q in queries})}")
    print("form | n | confident (all wrong) | the interpreter's own record")
    print("---|---|---|---")
    for form in [*sorted(totals), "all"]:
        n = totals[form] if form != "all" else sum(totals.values())
        wrong = confident[form] if form != "all" else sum(confident.values())
        own = interpreter[form] if form != "all" else sum(interpreter.values())
        print(f"{form} | {n} | {wrong} ({wrong / max(n, 1):.2%}) | {own}")
    print("\nmost frequent answering records:")
    for what, count in answers.most_common(12):
        print(f"  {count:>4}  {what}")


if __name__ == "__main__":
    main()
