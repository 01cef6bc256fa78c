"""Fit errcat's confidence model on a labelled corpus of real exceptions.

Run: .venv/bin/python benchmarks/calibrate.py [--corpus DIR] [--write]

The corpus is what ``benchmarks/harvest.py`` writes (real exceptions raised by
real code under its own test suites, with their true raise sites, and the
catalogs mined from the same sources). Every corpus exception is rendered in
three forms (traceback, bare ``Class: message`` line, log line with a prefix
and colour) and matched against the catalog mined from its project (its true
record is there) and against the disjoint catalog (it is not); exceptions
raised outside any mined source are matched against both. Each candidate of
:func:`errcat.matcher.candidates` is a sample: its features and whether it is
the true raise site.

A logistic regression (L2, Newton's method, numpy) is fitted on the ``fit``
half of the corpus, and its reliability is printed on the ``test`` half: for
each decile of confidence, how many top answers fall there and how many are
right. With ``--write`` the weights go to ``src/errcat/_calibration.py``
together with the threshold: the lowest confidence at which answers on the
test half are right at least 90% of the time, and at which at most 0.3% of
queries whose record is not in the catalog get a confident answer.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from errcat import Catalog
from errcat.confidence import FEATURES
from errcat.matcher import candidates

CORPUS = Path.home() / ".cache" / "errcat-corpus"
OUT = Path(__file__).resolve().parent.parent / "src" / "errcat" / "_calibration.py"
PREFIXES = ("[2026-03-02 10:11:12 TP0] ", "ERROR 03-06 10:05:08 engine.py:190] ")


@dataclass
class Query:
    text: str
    form: str
    split: str
    answerable: bool
    raise_path: str
    raise_line: int
    key: str


def drifted(message: str) -> str | None:
    """The message as another version might word it: quotes changed and a word inserted."""
    words = message.split(" ")
    if len(words) < 6:
        return None
    at = 2 + zlib.crc32(message.encode()) % (len(words) - 3)
    words.insert(at, "now")
    out = " ".join(words)
    return out.replace("'", "`") if zlib.crc32(out.encode()) % 2 else out


def forms(row: dict[str, object]) -> Iterator[tuple[str, str]]:
    line = str(row.get("exception_only") or f"{row['error_class']}: {row['message']}").rstrip("\n")
    yield "traceback", str(row["traceback"])
    yield "line", line
    prefix = PREFIXES[zlib.crc32(line.encode()) % 2]
    coloured = "\n".join(f"\x1b[31m{prefix}{part}\x1b[0m" for part in line.splitlines())
    yield "log", coloured
    message = str(row["message"])
    changed = drifted(message) if "\n" not in message else None
    if changed is not None:
        tb = str(row["traceback"]).rstrip("\n")
        cut = tb.rfind(message)
        if cut >= 0 and tb.endswith(message):
            yield "drift-traceback", tb[:cut] + changed + "\n"
        yield "drift-line", f"{row['error_class']}: {changed}"


def split_of(key: str) -> str:
    """A deterministic half for rows the harvest did not split."""
    return "fit" if zlib.crc32(key.encode()) % 2 == 0 else "test"


def right(match_file: str, match_line: int, query: Query) -> bool:
    return match_file == query.raise_path and abs(match_line - query.raise_line) <= 1


def read_rows(path: Path) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def samples(
    corpus: Path, limit: int | None, seed: int
) -> tuple[list[tuple[Query, list[tuple[dict[str, float], bool, float]]]], dict[str, int]]:
    catalogs = {
        "stdlib": Catalog.from_path(corpus / "catalog-stdlib.jsonl"),
        "third-party": Catalog.from_path(corpus / "catalog-thirdparty.jsonl"),
    }
    rows = read_rows(corpus / "corpus.jsonl")
    outside = (
        read_rows(corpus / "corpus-outside.jsonl")
        if (corpus / "corpus-outside.jsonl").exists()
        else []
    )
    rng = random.Random(seed)
    if limit:
        rows = rng.sample(rows, min(limit, len(rows)))
        outside = rng.sample(outside, min(limit // 2, len(outside)))
    jobs: list[tuple[Query, Catalog]] = []
    for row in rows:
        own = (
            "stdlib"
            if row["project"] == "stdlib" or row["repo"] == "python/cpython"
            else "third-party"
        )
        other = "third-party" if own == "stdlib" else "stdlib"
        for form, text in forms(row):
            for name, answerable in ((own, True), (other, False)):
                q = Query(
                    text,
                    form,
                    str(row["split"]),
                    answerable,
                    str(row["raise_path"]),
                    int(row["raise_line"]),  # type: ignore[call-overload]
                    f"{row['project']}:{row['raise_path']}:{row['raise_line']}",
                )
                jobs.append((q, catalogs[name]))
    for row in outside:
        for form, text in forms(row):
            for catalog in catalogs.values():
                q = Query(text, form, split_of(str(row["message"])), False, "", 0, "outside")
                jobs.append((q, catalog))
    out = []
    began = time.perf_counter()
    for n, (query, catalog) in enumerate(jobs, 1):
        found = candidates(query.text, catalog, limit=10)
        out.append(
            (
                query,
                [
                    (
                        dict(m.features or {}),
                        query.answerable
                        and right(m.summary.file_path, m.summary.line_number, query),
                        m.confidence,
                    )
                    for m in found
                    if m.features is not None
                ],
            )
        )
        if sys.stderr.isatty() and n % 200 == 0:
            print(
                f"\r  matched {n}/{len(jobs)} ({time.perf_counter() - began:.0f} s)",
                end="",
                file=sys.stderr,
            )
    counts = {"queries": len(jobs), "rows": len(rows), "outside": len(outside)}
    return out, counts


def fit(x: np.ndarray, y: np.ndarray, weights: np.ndarray, l2: float = 1.0) -> np.ndarray:
    """Weighted logistic regression by Newton's method (the bias is not penalised)."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (weights * (p - y)) + penalty * w
        hess = (x * (weights * p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def top_answers(
    data: list[tuple[Query, list[tuple[dict[str, float], bool, float]]]], w: np.ndarray, split: str
) -> list[tuple[Query, float, bool]]:
    out = []
    for query, cands in data:
        if query.split != split:
            continue
        best: tuple[float, bool] | None = None
        for features, ok, _ in cands:
            conf = 1.0 / (1.0 + math.exp(-sum(w[i] * features[f] for i, f in enumerate(FEATURES))))
            if best is None or conf > best[0]:
                best = (conf, ok)
        out.append((query, *(best or (0.0, False))))
    return out


def reliability(answers: list[tuple[Query, float, bool]]) -> list[tuple[float, int, float, float]]:
    rows = []
    for decile in range(10):
        lo, hi = decile / 10, (decile + 1) / 10
        inside = [(c, ok) for _, c, ok in answers if lo <= c < hi or (decile == 9 and c == 1.0)]
        if inside:
            rows.append(
                (
                    lo,
                    len(inside),
                    sum(c for c, _ in inside) / len(inside),
                    sum(ok for _, ok in inside) / len(inside),
                )
            )
    return rows


def choose_threshold(answers: list[tuple[Query, float, bool]]) -> float:
    negatives = [c for q, c, _ in answers if not q.answerable]
    for t in [x / 100 for x in range(30, 91)]:
        given = [(c, ok) for _, c, ok in answers if c >= t]
        precision = sum(ok for _, ok in given) / max(1, len(given))
        false = sum(c >= t for c in negatives) / max(1, len(negatives))
        if precision >= 0.9 and false <= 0.003:
            return t
    return 0.9


def write(w: np.ndarray, threshold: float, note: str) -> None:
    lines = [
        '"""Fitted weights of errcat\'s confidence model (see :mod:`errcat.confidence`).',
        "",
        "Written by ``benchmarks/calibrate.py``; do not edit by hand.",
        note,
        '"""',
        "",
        "#: One weight per name in :data:`errcat.confidence.FEATURES`, in that order.",
        "WEIGHTS: tuple[float, ...] = (",
    ]
    lines += [f"    {value:.4f},  # {name}" for name, value in zip(FEATURES, w, strict=True)]
    lines += [
        ")",
        "#: match_error answers when the confidence is at least this.",
        f"THRESHOLD = {threshold}",
        "",
    ]
    OUT.write_text("\n".join(lines), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--limit", type=int, default=0, help="sample this many corpus rows")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3, help="refits on the top answers")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    began = time.perf_counter()
    data, counts = samples(args.corpus, args.limit or None, args.seed)
    print(f"corpus: {counts}, candidates gathered in {time.perf_counter() - began:.0f} s")
    fit_rows = [(f, ok) for q, cands in data if q.split == "fit" for f, ok, _ in cands]
    x = np.array([[f[name] for name in FEATURES] for f, _ in fit_rows])
    y = np.array([float(ok) for _, ok in fit_rows])
    w = fit(x, y, np.ones(len(fit_rows)), args.l2)
    # The confidence that matters is the top answer's: refit on the candidates that
    # rank first under the current weights, until the choice of top answers settles.
    for _ in range(args.rounds):
        tops = [
            max(cands, key=lambda c: float(np.dot(w, [c[0][n] for n in FEATURES])))
            for q, cands in data
            if q.split == "fit" and cands
        ]
        x = np.array([[f[name] for name in FEATURES] for f, _, _ in tops])
        y = np.array([float(ok) for _, ok, _ in tops])
        w = fit(x, y, np.ones(len(tops)), args.l2)
    print("\nweights")
    for name, value in zip(FEATURES, w, strict=True):
        print(f"  {name:<20} {value:+.3f}")
    for split in ("fit", "test"):
        answers = top_answers(data, w, split)
        print(f"\nreliability on the {split} half (top answers)")
        print(f"  {'decile':<8} {'answers':>8} {'mean conf':>10} {'right':>8}  gap")
        for lo, n, mean, acc in reliability(answers):
            flag = "" if n < 50 or abs(mean - acc) <= 0.05 else "  <-- off by more than 5 points"
            print(f"  {lo:<8.1f} {n:>8} {mean:>10.3f} {acc:>8.3f}  {acc - mean:+.3f}{flag}")
    test = top_answers(data, w, "test")
    threshold = choose_threshold(test)
    given = [(q, c, ok) for q, c, ok in test if c >= threshold]
    neg = [c for q, c, _ in test if not q.answerable]
    print(
        f"\nthreshold {threshold}: answered {len(given)}, right {sum(ok for *_, ok in given)}, "
        f"false-confident {sum(c >= threshold for c in neg)}/{len(neg)}"
    )
    print(
        f"\n{'form':<16} {'answerable':>10} {'right':>7} {'wrong':>6} {'silent':>7} {'negatives':>9} {'false':>6}"
    )
    for form in sorted({q.form for q, _, _ in test}):
        rows_f = [(q, c, ok) for q, c, ok in test if q.form == form]
        pos = [(c, ok) for q, c, ok in rows_f if q.answerable]
        negs = [c for q, c, _ in rows_f if not q.answerable]
        right_n = sum(c >= threshold and ok for c, ok in pos)
        wrong_n = sum(c >= threshold and not ok for c, ok in pos)
        print(
            f"{form:<16} {len(pos):>10} {right_n / max(1, len(pos)):>7.1%} {wrong_n:>6}"
            f" {len(pos) - right_n - wrong_n:>7} {len(negs):>9}"
            f" {sum(c >= threshold for c in negs) / max(1, len(negs)):>6.2%}"
        )
    if args.write:
        write(
            w,
            threshold,
            f"Fitted on {counts['rows']} corpus exceptions ({counts['queries']} queries).",
        )
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
