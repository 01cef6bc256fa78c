"""Right answers on real exceptions: errcat against the harvested corpus.

Run: ``.venv/bin/python benchmarks/bench_accuracy.py`` after ``harvest.py``
(``pip install -e '.[bench]'`` for the diagram). Options: ``--split fit|test``,
``--sample N`` (cases per catalog, seeded), ``--workers``, ``--png``,
``--no-diagram``, ``--dump-candidates OUT.jsonl``.

Every corpus exception (see ``harvest.py`` and ``accuracy.py``) is rendered as
the full traceback, the bare ``Class: message`` line, a log line (server
prefix and ANSI colour) and an issue title (a tag, the first line of the
message cut to 70-119 characters: ``accuracy.title``), and matched:

* against the mined catalog of its own side (standard-library exceptions
  against ``catalog-stdlib.jsonl``, third-party ones against
  ``catalog-thirdparty.jsonl``): per form, *answered* (``match_error`` gave an
  answer), *right* and *wrong* answers, *top-1* (``match_all``'s first
  candidate is right, whatever its confidence) and *in top-10*;
* against the disjoint catalog (the other side), and the sglang+vllm catalog
  when ``/root/.cache/errcat-bench/wheels/catalog-sglang-vllm.jsonl`` exists:
  *false-confident* is the share that gets any answer from a catalog that does
  not hold the error; the ``no copies or causes`` column leaves out answers whose record
  has the same class and pattern as a record at the true site (the same
  message copied into another project, such as dateutil's TZ-string errors
  and ``zoneinfo``'s) and answers for a cause of the traceback's chain that
  this catalog does hold (jsonschema's ``SchemaError`` from a ``re.error``:
  the matcher answers the nearest cause it can explain, see
  ``accuracy.explains_a_cause``);
* against its own side's records and the sglang+vllm catalog's written into one
  file (``accuracy.merged_file``): the same counts as in the own catalog, for a
  user whose one large catalog holds the error, where more patterns share each
  word than in a project's own catalog;
* the exceptions raised outside any mined source (C code, tests, unmined
  packages) against both mined catalogs together: the share answered, and the
  share answered by a C twin's record: a standard-library file whose
  definitions its own C module replaces (``datetime.py`` and ``_datetime``,
  see ``accuracy.c_twin_files``) raises the same message as the C code users
  run, so its record explains the error; those count right.

Rows ``held`` keep the cases whose raise site has a record matching their
message (the answerable ones); ``held, literal>=12`` those whose record's
template has at least 12 literal characters.

The reliability diagram (printed, and written as a PNG; ``--no-diagram`` skips
it) is that of the shipped model over calibrate.py's population: every corpus
exception in each of its rendered forms against its own catalog, the same in
one file with sglang+vllm's, the other side's and the sglang+vllm catalog, and
every exception raised outside mined code against both mined catalogs. Each
query's ``match_all`` first answer (or none) is binned by confidence (deciles)
with whether it is right; answers in catalogs that do not hold the error are
never right (a C twin's record and a held cause excepted, as above). A second
table bins the same answers for a narrower population: each suite's exceptions
against its own side's catalog only (those raised outside mined code included),
as a test of one mined project sees them; there, the errors raised outside
mined code that a record explains word for word (C code's, mostly) are answered
more confidently than they are right.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from accuracy import (
    FORMS,
    Bin,
    Case,
    Outcome,
    Row,
    Sites,
    c_twin_files,
    confident_rate,
    evaluate_one,
    load_cases,
    merged_file,
    summarize,
)
from errcat import Catalog

DEFAULT_DIR = Path("/root/.cache/errcat-corpus")
SGLANG_VLLM = Path("/root/.cache/errcat-bench/wheels/catalog-sglang-vllm.jsonl")

# Filled before the workers fork: (catalog, sites) by name, and the jobs.
_CATALOGS: dict[str, tuple[Catalog, Sites | None]] = {}
_JOBS: list[tuple[str, str, Case]] = []  # (role, catalog name, case)
_LIMIT = 10  # candidates kept per query (own and outside catalogs)


def _run(index: int) -> list[Outcome]:
    role, name, case = _JOBS[index]
    catalog, sites = _CATALOGS[name]
    if role.startswith("disjoint:"):
        own = _CATALOGS["stdlib" if case.project == "cpython" else "third-party"][1]
        return evaluate_one(case, catalog, None, role=role, limit=3, reference=own)
    if role == "outside":
        return evaluate_one(case, catalog, None, role=role, limit=_LIMIT, twins=c_twin_files())
    return evaluate_one(case, catalog, sites, role=role, limit=_LIMIT)


def _sample(cases: list[Case], n: int | None, seed: int) -> list[Case]:
    if n is None or len(cases) <= n:
        return cases
    return sorted(random.Random(seed).sample(cases, n), key=lambda c: c.id)


def pct(part: int, whole: int) -> str:
    return f"{part / whole:6.1%}" if whole else "     -"


def print_table(rows: list[Row], disjoint: dict[str, dict[str, tuple[int, int]]]) -> None:
    names = sorted(disjoint)
    head = (
        f"{'form':<10} {'subset':<20} {'n':>6} {'answered':>9} {'right':>7} {'wrong':>7}"
        f" {'top-1':>7} {'in top10':>8}"
    )
    for name in names:
        head += f" {'conf. vs ' + name:>28}"
    print(head)
    for row in rows:
        line = (
            f"{row.form:<10} {row.subset:<20} {row.n:>6} {pct(row.answered, row.n):>9}"
            f" {pct(row.right, row.n):>7} {pct(row.wrong, row.n):>7} {pct(row.top1, row.n):>7}"
            f" {pct(row.in_candidates, row.n):>8}"
        )
        if row.subset == "all":
            for name in names:
                a, n = disjoint[name].get(row.form, (0, 0))
                line += f" {pct(a, n) + f' of {n}':>28}"
        print(line)


def diagram(folder: Path, split: str, workers: int, png: Path) -> None:
    """The reliability diagram of the shipped model, printed and drawn.

    Confidence is a probability over a population: here calibrate.py's, every
    corpus exception in each rendered form against its own catalog, the same in
    one file with sglang+vllm's, the other side's and the sglang+vllm one, and
    every exception raised outside mined code against both mined catalogs; each
    query's ``match_all`` first answer (or none) is one point. The tables above
    count answers per form and role; their own-catalog rows alone hold no errors
    the catalog lacks, so they cannot say whether a confidence is a probability.
    The second table is the narrower population of the module docstring.
    """
    import calibrate  # numpy, with the bench extra

    began = time.perf_counter()
    data, _ = calibrate.shipped_answers(folder, workers)
    splits = ("fit", "test") if split == "all" else (split,)
    series = calibrate.shipped_series(data, splits)
    for label, answers in series:
        calibrate.print_reliability(
            f"## Reliability of the shipped model, {label} ({len(answers)} queries)", answers
        )
    # A probability holds for the population it was fitted on. The same answers, for
    # a narrower one: each suite's exceptions against the catalog of the code that ran
    # (no other project's catalog), as a test of one mined project would see them.
    for label, answers in series:
        own = [a for a in answers if a[0].role in ("own", "outside-own")]
        calibrate.print_reliability(
            f"## The same, {label}, own catalog only ({len(own)} queries: each suite's"
            " exceptions, those raised outside mined code included)",
            own,
        )
    print(f"(matched in {time.perf_counter() - began:.0f} s)")
    calibrate.write_png(png, series)


def plot(png: Path, series: Sequence[tuple[str, list[Bin]]]) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (pip install -e '.[bench]'): no PNG", file=sys.stderr)
        return False
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(7, 8), sharex=True, gridspec_kw={"height_ratios": [3, 1]}
    )
    top.plot([0, 1], [0, 1], color="grey", linestyle=":", label="perfect calibration")
    width = 0.1 / (len(series) + 1)
    for k, (label, bins) in enumerate(series):
        xs = [b.mean_confidence for b in bins if b.n]
        ys = [b.accuracy for b in bins if b.n]
        top.plot(xs, ys, marker="o", label=label)
        for b in bins:
            if b.n:
                top.annotate(str(b.n), (b.mean_confidence or 0, b.accuracy or 0), fontsize=7)
        bottom.bar(
            [b.low + (k + 0.5) * width for b in bins], [b.n for b in bins], width=width, label=label
        )
    top.set_ylabel("share right (top candidate)")
    top.set_xlim(0, 1)
    top.set_ylim(0, 1.02)
    top.legend(loc="lower right", fontsize=8)
    top.set_title("errcat on real exceptions: reliability by confidence decile")
    bottom.set_yscale("log")
    bottom.set_xlabel("confidence of match_all's first candidate")
    bottom.set_ylabel("candidates")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="harvest.py's output")
    parser.add_argument("--split", choices=("all", "fit", "test"), default="all")
    parser.add_argument("--sample", type=int, help="at most this many cases per catalog")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--png", type=Path, help="default: <dir>/reliability.png")
    parser.add_argument("--dump-candidates", type=Path, metavar="OUT.jsonl")
    parser.add_argument("--no-sglang", action="store_true", help="skip the sglang+vllm catalog")
    parser.add_argument(
        "--no-diagram", action="store_true", help="skip the reliability diagram (about a minute)"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    folder: Path = args.dir
    files = {
        "stdlib": folder / "catalog-stdlib.jsonl",
        "third-party": folder / "catalog-thirdparty.jsonl",
    }
    stdlib = Catalog.from_path(files["stdlib"])
    third = Catalog.from_path(files["third-party"])
    _CATALOGS["stdlib"] = (stdlib, Sites(stdlib))
    _CATALOGS["third-party"] = (third, Sites(third))
    _CATALOGS["both"] = (stdlib.merge(third), None)
    if SGLANG_VLLM.exists() and not args.no_sglang:
        # A copy of our own: loading builds a stored index beside the file, and
        # the original belongs to another benchmark's cache.
        copy = folder / SGLANG_VLLM.name
        if not copy.exists() or copy.stat().st_mtime < SGLANG_VLLM.stat().st_mtime:
            shutil.copy2(SGLANG_VLLM, copy)
        _CATALOGS["sglang+vllm"] = (Catalog.from_path(copy), None)
        # Each side's records and sglang+vllm's in one file: one large catalog part
        # that holds the error (its word counts are the large catalog's).
        for side, path in files.items():
            merged = Catalog.from_path(merged_file(path, copy))
            _CATALOGS[f"{side}+sglang+vllm"] = (merged, Sites(merged))
    for catalog, _ in _CATALOGS.values():
        catalog.index  # noqa: B018 - build the index before the workers fork
    cases = load_cases(folder / "corpus.jsonl", args.split)
    own_std = _sample([c for c in cases if c.project == "cpython"], args.sample, args.seed)
    own_third = _sample([c for c in cases if c.project != "cpython"], args.sample, args.seed)
    outside = _sample(
        load_cases(folder / "corpus-outside.jsonl", args.split), args.sample, args.seed
    )
    _JOBS.extend(("own", "stdlib", c) for c in own_std)
    _JOBS.extend(("own", "third-party", c) for c in own_third)
    _JOBS.extend(("disjoint:other side", "third-party", c) for c in own_std)
    _JOBS.extend(("disjoint:other side", "stdlib", c) for c in own_third)
    if "sglang+vllm" in _CATALOGS:
        _JOBS.extend(("disjoint:sglang+vllm", "sglang+vllm", c) for c in [*own_std, *own_third])
        _JOBS.extend(("merged", "stdlib+sglang+vllm", c) for c in own_std)
        _JOBS.extend(("merged", "third-party+sglang+vllm", c) for c in own_third)
    _JOBS.extend(("outside", "both", c) for c in outside)
    print(
        f"catalogs: stdlib {len(stdlib)}, third-party {len(third)} records"
        + (
            f", sglang+vllm {len(_CATALOGS['sglang+vllm'][0])}"
            if "sglang+vllm" in _CATALOGS
            else ""
        )
        + f"; cases: stdlib {len(own_std)}, third-party {len(own_third)}, outside {len(outside)}"
        + f" ({args.split}); {len(_JOBS) * len(FORMS)} queries"
        + f"; loaded in {time.perf_counter() - started:.0f} s",
        file=sys.stderr,
    )
    matched = time.perf_counter()
    outcomes: list[Outcome] = []
    tty = sys.stderr.isatty()
    if args.workers > 1:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            for i, result in enumerate(pool.imap(_run, range(len(_JOBS)), chunksize=16)):
                outcomes.extend(result)
                if tty and i % 200 == 0:
                    print(f"\r{i}/{len(_JOBS)}", end="", file=sys.stderr)
    else:
        for i in range(len(_JOBS)):
            outcomes.extend(_run(i))
            if tty and i % 200 == 0:
                print(f"\r{i}/{len(_JOBS)}", end="", file=sys.stderr)
    seconds = time.perf_counter() - matched
    if tty:
        print(file=sys.stderr)

    disjoint: dict[str, dict[str, tuple[int, int]]] = {}
    for role in sorted({o.role for o in outcomes if o.role.startswith("disjoint:")}):
        name = role.removeprefix("disjoint:")
        disjoint[name] = confident_rate(outcomes, role)
        disjoint[f"{name}, no copies or causes"] = confident_rate(
            outcomes, role, count_copies=False
        )
    print(f"\n## Own catalog ({args.split} split)")
    print_table(summarize(outcomes), disjoint)
    for side, is_stdlib in (("stdlib", True), ("third-party", False)):
        print(f"\n### {side} only")
        subset = [o for o in outcomes if (o.project == "cpython") == is_stdlib]
        print_table(summarize(subset), {})
    one_file = summarize(outcomes, role="merged")
    if one_file:
        print(f"\n## Own catalog and sglang+vllm's in one file ({args.split} split)")
        print_table(one_file, {})
    print("\n## Raised outside any mined source, against both mined catalogs")
    for form, (a, n) in sorted(confident_rate(outcomes, "outside").items()):
        twins = sum(o.answer_right for o in outcomes if o.role == "outside" and o.form == form)
        print(f"{form:<10} n={n:>6} answered {pct(a, n)}, by the C twin's record {pct(twins, n)}")
    if not args.no_diagram:
        diagram(folder, args.split, args.workers, args.png or folder / "reliability.png")
    if args.dump_candidates:
        with args.dump_candidates.open("w", encoding="utf-8") as fh:
            for outcome in outcomes:
                fh.write(json.dumps(outcome.to_dict()) + "\n")
        print(f"candidates: {args.dump_candidates}")
    per_query = seconds / max(1, len(_JOBS) * len(FORMS)) * 1000 * max(1, args.workers)
    print(
        f"\n{len(outcomes)} queries matched in {seconds:.0f} s with {args.workers} workers"
        f" ({per_query:.1f} ms per query per worker); total {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
