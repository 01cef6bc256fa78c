"""Fit errcat's confidence model on a labelled corpus of real exceptions.

Run: .venv/bin/python benchmarks/calibrate.py [--corpus DIR] [--write] [--png FILE],
then ``--shipped --write`` (refits the maps on the matcher's own first answers)
and ``--shipped --png FILE`` (the reliability diagram of what ships).

The corpus is what ``benchmarks/harvest.py`` writes (real exceptions raised by
real code under its own test suites, with their true raise sites, and the
catalogs mined from the same sources). Every corpus exception is rendered in
the forms users paste (traceback, bare ``Class: message`` line, log line with a
prefix and colour, an issue title, a traceback from another version, a drifted
message and a cut-off one where the message allows, a traceback whose exception
line is cut off, and the message logged on a line of its own over its
traceback's first frames) and matched against the catalog mined from its
project (its true record is there), against the disjoint catalog (it is not)
and, when ``--unrelated`` names one (by default the sglang+vllm catalog that
``benchmarks/mine_wheels.py`` writes), against a large catalog of another
ecosystem, whose generic patterns teach the model how little generic text
proves, and against the project's catalog and that one written into one file
(``accuracy.merged_file``: a large catalog that holds the error, so that the
count of patterns sharing a message's rarest word is not read as a sign of a
wrong answer just because large catalogs were only ever wrong); exceptions
raised outside any mined source are matched against both mined catalogs (there,
a record of a C module's Python twin that matches the whole message is right:
see ``accuracy.c_twin_files``). Each candidate of
:func:`errcat.matcher.candidates` is a sample: its features and whether it is
the true raise site.

A logistic regression (L2, Newton's method, numpy) is fitted on the ``fit``
half of the corpus, with the signs of the weights constrained to the direction
their evidence points. Reports without traceback frames (bare and log lines)
have text weights of their own (``bare_*``): their text is all the evidence
there is. The logit goes through a monotone map (isotonic regression on the
fit half's top answers, one map for reports with frames and one for bare
ones; answers the matcher's cap on wordless patterns holds down are left out
of it, and get the share of them that is right: ``WORDLESS``). Its
reliability is printed on both halves: for each decile of confidence, how many
top answers fall there and how many are right. With ``--write`` the weights
and maps go to ``src/errcat/_calibration.py`` together with the threshold,
chosen on the fit half (the test half only reports): the lowest confidence
from which every band of answers is right at least half the time.

``--cache FILE`` keeps the gathered candidates (a pickle; minutes to gather on
two busy cores) so that refits start at once; ``--workers`` gathers in
parallel.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import pickle
import random
import re
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from accuracy import c_twin_files, merged_file, title
from errcat import Catalog
from errcat.confidence import FEATURES, THRESHOLD, fuzzy_probability
from errcat.evidence import same_file_depth
from errcat.matcher import Match, candidates, match_all

CORPUS = Path.home() / ".cache" / "errcat-corpus"
OUT = Path(__file__).resolve().parent.parent / "src" / "errcat" / "_calibration.py"
UNRELATED = Path.home() / ".cache" / "errcat-bench" / "wheels" / "catalog-sglang-vllm.jsonl"
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
    literal: int = 0
    #: The templates raised at the true site (a disjoint catalog's record with one
    #: of them is a copy of the same message, not a wrong answer).
    own_templates: frozenset[str] = frozenset()
    #: Installed path and line of each exception of the chain below the last one.
    causes: tuple[tuple[str, int], ...] = ()
    #: Raised by C code, matched against the standard-library catalog: a record of the
    #: C module's Python twin that matches the whole message counts right (see
    #: ``accuracy.c_twin_files``).
    twin_class: str = ""
    #: Whose catalog answers: ``own`` (the exception's project's), ``merged`` (the
    #: same records and sglang+vllm's in one file), ``other`` (the
    #: other mined side's), ``unrelated`` (sglang+vllm), ``outside-own`` (raised
    #: outside mined code, against the catalog of the side whose suite raised it) or
    #: ``outside-other``.
    role: str = ""


_FRAME_LINE = re.compile(r'  File "([^"]+)", line (\d+)')


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
    # The same error from another version: the raise line moved (code above it changed).
    tb = str(row["traceback"])
    last = list(_FRAME_LINE.finditer(tb))
    if last:
        m = last[-1]
        shifted = int(m.group(2)) + 40 + zlib.crc32(tb.encode()) % 200
        yield "version-traceback", f"{tb[: m.start(2)]}{shifted}{tb[m.end(2) :]}"
    yield "line", line
    prefix = PREFIXES[zlib.crc32(line.encode()) % 2]
    coloured = "\n".join(f"\x1b[31m{prefix}{part}\x1b[0m" for part in line.splitlines())
    yield "log", coloured
    message = str(row["message"])
    if len(message) >= 60 and "\n" not in message:
        yield "cut-line", f"{row['error_class']}: {cut_off(message)}"
        if tb.rstrip("\n").endswith(message):
            # A clipped log: the traceback's exception line stops partway through.
            clipped = tb.rstrip("\n")[: -len(message)] + cut_off(message)
            yield "cut-traceback", clipped + "\n"
    logged = logged_then_cut(tb, message)
    if logged is not None:
        yield "logged-traceback", f"{PREFIXES[1]}{logged}"
    yield "title", title(str(row["error_class"]), message)
    changed = drifted(message) if "\n" not in message else None
    if changed is not None:
        tb = str(row["traceback"]).rstrip("\n")
        cut = tb.rfind(message)
        if cut >= 0 and tb.endswith(message):
            yield "drift-traceback", tb[:cut] + changed + "\n"
        yield "drift-line", f"{row['error_class']}: {changed}"


def logged_then_cut(traceback: str, message: str) -> str | None:
    r"""The message as a log handler printed it, then its traceback cut before the exception line.

    A server logs the error's message on one line and the traceback under it; a
    paste often keeps the message and the first frames only. The frames kept
    are the outermost 1 to all of the last traceback's.

    >>> tb = (
    ...     "Traceback (most recent call last):\n"
    ...     '  File "/a.py", line 1, in f\n    g()\n'
    ...     '  File "/b.py", line 2, in g\n    raise ValueError("bad value")\n'
    ...     "ValueError: bad value\n"
    ... )
    >>> logged_then_cut(tb, "bad value").splitlines()[:2]
    ['bad value', 'Traceback (most recent call last):']
    """
    if "\n" in message or not message.strip():
        return None
    lines = traceback.rstrip("\n").split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent")]
    if not starts:
        return None
    section = lines[starts[-1] :]
    frames = [i for i, line in enumerate(section) if line.startswith('  File "')]
    if not frames:
        return None
    keep = 1 + zlib.crc32(traceback.encode()) % len(frames)
    end = frames[keep] if keep < len(frames) else len(section) - 1
    return "\n".join([message, *section[:end]]) + "\n"


def cut_off(message: str) -> str:
    """The message as a paste cut off partway shows it (an issue title, a clipped log).

    Real cuts fall anywhere from a third of the message on: half of these stop
    after its first sentence when it has one ("... are not supported for now."
    with the list of what is supported gone), the others at a word boundary
    or mid-word, keeping 35-90% of it.

    >>> cut_off("Model X is not supported for now. Supported models: a, b, c, d, e, f, g, h.")
    'Model X is not supported for now.'
    """
    seed = zlib.crc32(message.encode())
    sentence = message.find(". ")
    if seed % 2 == 0 and 0.3 * len(message) <= sentence < 0.9 * len(message):
        return message[: sentence + 1]
    keep = int(len(message) * (0.35 + 0.55 * (seed // 2 % 100) / 100))
    if seed // 200 % 2 and " " in message[:keep]:
        keep = message.rindex(" ", 0, keep)  # at a word boundary
    return message[:keep].rstrip()


def split_of(key: str) -> str:
    """A deterministic half for rows the harvest did not split."""
    return "fit" if zlib.crc32(key.encode()) % 2 == 0 else "test"


def right(match_file: str, match_line: int, query: Query) -> bool:
    """The record is at the true raise site, or (a chain) at one of its causes' sites."""
    if match_file == query.raise_path and abs(match_line - query.raise_line) <= 4:
        return True
    return any(
        abs(match_line - line) <= 4 and same_file_depth(path, match_file) > 0
        for path, line in query.causes
    )


TEMPLATES: dict[tuple[str, int], set[str]] = {}
_PLACEHOLDER = re.compile(r"""(['"`]?)\{[^{}]*\}\1""")


def copy_key(error_class: str, template: str) -> str:
    """What a bare line shows of a record: its class's last name and its words.

    Records whose keys are equal print the same messages (placeholder names and
    the quotes around a placeholder do not show: ``{name!r}`` prints ``'x'``),
    so a bare line cannot tell them apart (``accuracy.py`` counts them alike).

    >>> copy_key("re.error", "bad name {name!r}") == copy_key("s.error", "bad name '{cond}'")
    True
    """
    return f"{error_class.rsplit('.', 1)[-1]}: {_PLACEHOLDER.sub('{}', template)}"


def sites(path: Path) -> dict[tuple[str, int], int]:
    """(file, line) of every record of a catalog file, with its template's literal characters.

    The templates raised at each site are kept in :data:`TEMPLATES` (by
    :func:`copy_key`), to tell a copy (the same message raised elsewhere, or by
    another project) from a wrong answer.
    """
    from errcat.patterns import literal_fragments

    out: dict[tuple[str, int], int] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)["record"]
            literal = sum(map(len, literal_fragments(record["messagePattern"])))
            for near in range(-4, 5):
                key = (record["filePath"], record["lineNumber"] + near)
                out[key] = max(out.get(key, 0), literal)
                TEMPLATES.setdefault(key, set()).add(
                    copy_key(record["errorClass"], record["errorMessage"])
                )
    return out


def read_rows(path: Path) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def samples(
    corpus: Path,
    limit: int | None,
    seed: int,
    workers: int = 1,
    *,
    unrelated: Path | None = None,
    gather: Callable[[int], Any] | None = None,
) -> tuple[list[tuple[Query, Any]], dict[str, int]]:
    """Every query of the corpus with what ``gather`` (default: :func:`_gather`) found."""
    files = {
        "stdlib": corpus / "catalog-stdlib.jsonl",
        "third-party": corpus / "catalog-thirdparty.jsonl",
    }
    catalogs = {side: Catalog.from_path(path) for side, path in files.items()}
    if unrelated is not None:
        # A large catalog of another ecosystem: its generic patterns ("{name} must be
        # {kind}") meet every corpus message, which the two mined sides alone seldom show.
        catalogs["unrelated"] = Catalog.from_path(unrelated)
        # Each side's catalog and that one in one file: a large catalog that holds the
        # error. Without it, every large catalog the model saw lacked the error, and it
        # learned that many patterns sharing a message's rarest word means a wrong answer.
        for side, path in files.items():
            catalogs[f"{side}+unrelated"] = Catalog.from_path(merged_file(path, unrelated))
    held = {side: sites(path) for side, path in files.items()}
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
        negatives = [other, "unrelated"] if "unrelated" in catalogs else [other]
        holders = [own, f"{own}+unrelated"] if "unrelated" in catalogs else [own]
        roles = {own: "own", f"{own}+unrelated": "merged", other: "other", "unrelated": "unrelated"}
        for form, text in forms(row):
            # Answerable only when the miner made a record at the raise site.
            site = (str(row["raise_path"]), int(row["raise_line"]))  # type: ignore[call-overload]
            for name, answerable in (
                *((h, site in held[own]) for h in holders),
                *((n, False) for n in negatives),
            ):
                role = roles[name]
                q = Query(
                    text,
                    form,
                    str(row["split"]),
                    answerable,
                    str(row["raise_path"]),
                    int(row["raise_line"]),  # type: ignore[call-overload]
                    f"{row['project']}:{row['raise_path']}:{row['raise_line']}",
                    held[own].get(site, 0),
                    frozenset(TEMPLATES.get(site, ())),
                    tuple(
                        (str(c["file"]), int(c["line"]))
                        for c in row.get("chain") or ()  # type: ignore[attr-defined]
                        if c.get("file")
                    ),
                    role=role,
                )
                jobs.append((q, catalogs[name]))
    TWINS.update(c_twin_files())
    for row in outside:
        own = "stdlib" if row.get("suite") == "stdlib" else "third-party"
        for form, text in forms(row):
            for name in ("stdlib", "third-party"):
                q = Query(
                    text,
                    form,
                    split_of(str(row["message"])),
                    False,
                    "",
                    0,
                    "outside",
                    twin_class=str(row["error_class"]).rsplit(".", 1)[-1]
                    if name == "stdlib"
                    else "",
                    role="outside-own" if name == own else "outside-other",
                )
                jobs.append((q, catalogs[name]))
    out = []
    began = time.perf_counter()
    _JOBS[:] = jobs
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for n, found in enumerate(pool.imap(gather or _gather, range(len(jobs)), chunksize=32), 1):
            out.append((jobs[n - 1][0], found))
            if sys.stderr.isatty() and n % 200 == 0:
                print(
                    f"\r  matched {n}/{len(jobs)} ({time.perf_counter() - began:.0f} s)",
                    end="",
                    file=sys.stderr,
                )
    counts = {"queries": len(jobs), "rows": len(rows), "outside": len(outside)}
    return out, counts


#: Filled before the workers fork: (query, catalog) per job.
_JOBS: list[tuple[Query, Catalog]] = []
#: Standard-library files whose C twin raises their messages (``accuracy.c_twin_files``).
TWINS: set[str] = set()


def is_right(query: Query, m: Match) -> bool:
    """Whether a candidate is a right answer for the query.

    Without frames, a record raising the same template as a record at the true
    site is right too: the text cannot tell such copies apart (as
    ``accuracy.py`` counts them). For exceptions raised by C code, a record of
    the C module's Python twin that matches the whole message is right.
    """
    bare = query.form not in FRAMED
    found = (m.summary, *m.alternatives)
    if (query.answerable or query.causes) and any(
        right(r.file_path, r.line_number, query)
        or (
            bare
            and query.answerable
            and copy_key(r.error_class, r.error_message) in query.own_templates
        )
        for r in found
    ):
        return True
    return (
        bool(query.twin_class)
        and m.mode == "full"
        and any(
            r.file_path in TWINS and r.error_class.rsplit(".", 1)[-1] == query.twin_class
            for r in found
        )
    )


def _is_copy(query: Query, m: Match) -> bool:
    """A record of the true site's message in a catalog that does not hold the site."""
    return not query.answerable and (
        copy_key(m.summary.error_class, m.summary.error_message) in query.own_templates
    )


def _gather(index: int) -> list[tuple[dict[str, float], bool, float]]:
    """The scored candidates of one job: (features, right, confidence)."""
    query, catalog = _JOBS[index]
    return [
        (dict(m.features or {}), is_right(query, m), m.confidence)
        for m in candidates(query.text, catalog, limit=10)
        if m.features is not None and not _is_copy(query, m)
    ]


def _shipped(index: int) -> Shipped | None:
    """What the shipped model answers for one job: ``match_all``'s first answer.

    None when there is no candidate, or the first is a copy of the true site's message.
    """
    query, catalog = _JOBS[index]
    found = match_all(query.text, catalog, limit=1)
    if not found or _is_copy(query, found[0]):
        return None
    first = found[0]
    features: dict[str, float] | None = None
    if first.mode != "fuzzy":
        scored = candidates(query.text, catalog, limit=3)
        features = next(
            (dict(m.features or {}) for m in scored if m.summary.id == first.summary.id), None
        )
    share = (first.features or {}).get("fuzzy_share") if first.mode == "fuzzy" else None
    return Shipped(first.confidence, is_right(query, first), first.mode, share, features)


@dataclass
class Shipped:
    """``match_all``'s first answer to one query (see :func:`_shipped`)."""

    confidence: float
    right: bool
    mode: str
    #: A fuzzy hint's share of shared words.
    share: float | None
    #: The model's inputs for it (None for fuzzy hints).
    features: dict[str, float] | None


#: Signs the weights must have: evidence that can only make an answer more (+1) or
#: less (-1) likely. A weight that fits the wrong sign is held at 0 (active set).
SIGNS: dict[str, int] = {
    "log_literal": 1,
    "explained": 1,
    "information": 1,
    "class_agree": 1,
    "frame_site": 1,
    "frame_raise_file": 1,
    "repo_named": 1,
    "class_custom": 1,
    "mode_prefix": -1,
    "mode_inner": -1,
    "mode_truncated": -1,
    "mode_drift": -1,
    "outside_match": -1,
    "background_common": -1,
    "present_share": -1,
    "builtin_wording": -1,
    "class_disagree": -1,
    "frame_elsewhere": -1,
}
# A bare report's own text weights keep the same signs.
SIGNS.update(
    {f"bare_{name}": sign for name, sign in list(SIGNS.items()) if f"bare_{name}" in FEATURES}
)


def fit_unconstrained(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    """Logistic regression by Newton's method (the bias, column 0, is not penalised)."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def fit(x: np.ndarray, y: np.ndarray, weights: np.ndarray, l2: float = 1.0) -> np.ndarray:
    """Logistic regression with the sign constraints of :data:`SIGNS` (active set)."""
    del weights  # every sample weighs the same
    held: set[int] = set()
    while True:
        free = [i for i in range(x.shape[1]) if i not in held]
        w = np.zeros(x.shape[1])
        w[free] = fit_unconstrained(x[:, free], y, l2)
        wrong = [
            i
            for i, name in enumerate(FEATURES)
            if i not in held and name in SIGNS and w[i] * SIGNS[name] < 0
        ]
        if not wrong:
            return w
        held.add(max(wrong, key=lambda i: abs(w[i])))


def isotonic(points: list[tuple[float, bool]], min_count: int = 150) -> list[tuple[float, float]]:
    """A monotone map from logit to the share right (pool adjacent violators), as knots.

    Adjacent pooled blocks are merged until each holds ``min_count`` points, and
    each gives two knots (its first and last logit, at its share right), so the
    map ships as a short table that :func:`errcat.confidence.probability`
    interpolates, with knots where the points are (not only where most of them
    are: near zero), and each block's answers are right as often as it says.
    """
    points = sorted(points)
    blocks: list[list[float]] = []  # [sum_y, count, first x, last x]
    for x, y in points:
        if blocks and blocks[-1][3] == x:
            # Equal logits get one confidence: they start as one block.
            blocks[-1][0] += float(y)
            blocks[-1][1] += 1.0
        else:
            blocks.append([float(y), 1.0, x, x])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            last = blocks.pop()
            blocks[-1] = [blocks[-1][0] + last[0], blocks[-1][1] + last[1], blocks[-1][2], last[3]]
    merged: list[list[float]] = []
    for block in blocks:
        if merged and merged[-1][1] < min_count:
            last = merged[-1]
            merged[-1] = [last[0] + block[0], last[1] + block[1], last[2], block[3]]
        else:
            merged.append(list(block))
    if len(merged) > 1 and merged[-1][1] < min_count:
        last = merged.pop()
        merged[-1] = [merged[-1][0] + last[0], merged[-1][1] + last[1], merged[-1][2], last[3]]
    # A knot at each end of each block: the map is all but flat across a block (every
    # logit in it gets about the block's share right, rising by _RISE so that a higher
    # logit still ranks higher) and steep between blocks.
    out: list[tuple[float, float]] = []
    for sum_y, count, first, last_x in merged:
        share = min(max(sum_y / count, 0.0005), 0.9995)
        floor = out[-1][1] if out else 0.0
        ends = ((first, max(floor, share - _RISE)), (last_x, max(floor, share + _RISE)))
        for edge, value in ends if first < last_x else ((first, max(floor, share)),):
            at, level = round(edge, 6), round(min(value, 0.9995), 4)
            if out and at <= out[-1][0]:
                if level == out[-1][1]:
                    continue
                at = round(out[-1][0] + 1e-6, 6)  # a block one logit wide: a steep step
            out.append((at, level))
    return out


#: How much the map rises across one block of the isotonic fit (keeps the logit's order).
_RISE = 0.002


#: The matcher's cap on hints (``matcher._FUZZY_CAP``): just below the threshold.
HINT_CAP = round(THRESHOLD - 0.01, 2)


def capped(features: dict[str, float], confidence: float, cap: float = HINT_CAP) -> float:
    """The matcher's cap on wordless text: under 6 bits and no frame at the site."""
    bits = max(features["information"], features.get("bare_information", 0.0)) * 10.0
    if bits < 6.0 and not features["frame_site"]:
        return min(confidence, cap)
    return confidence


def top_answers(
    data: list[tuple[Query, list[tuple[dict[str, float], bool, float]]]],
    w: np.ndarray,
    split: str,
    knots: dict[bool, list[tuple[float, float]]] | None = None,
    bare: bool | None = None,
) -> list[tuple[Query, float, bool]]:
    """The top answer of each query of a half: (query, confidence, right).

    Without ``knots`` the confidence is the raw logit (for fitting the map, so
    answers the wordless-text cap holds down are left out); with ``bare`` only the queries with (False) or without (True) traceback frames.
    """
    out = []
    for query, cands in data:
        if query.split != split:
            continue
        best: tuple[float, bool, dict[str, float]] | None = None
        for features, ok, _ in cands:
            logit = sum(w[i] * features.get(f, 0.0) for i, f in enumerate(FEATURES))
            if best is None or logit > best[0]:
                best = (logit, ok, features)
        if best is None:
            if bare is None or bare == (query.form not in FRAMED):
                out.append((query, 0.0 if knots is not None else -50.0, False))
            continue
        is_bare = bool(best[2]["bare"])
        if bare is not None and is_bare != bare:
            continue
        if knots is None:
            if capped(best[2], 1.0) == 1.0:
                # Capped answers get the cap, not the map: the map is fitted without them.
                out.append((query, best[0], best[1]))
        else:
            confidence = capped(best[2], interpolate(knots[is_bare], best[0]))
            out.append((query, confidence, best[1]))
    return out


#: The forms whose text carries traceback frames.
FRAMED = (
    "traceback",
    "version-traceback",
    "drift-traceback",
    "cut-traceback",
    "logged-traceback",
)


def interpolate(knots: list[tuple[float, float]], logit: float) -> float:
    from errcat.confidence import interpolate as shipped

    return shipped(tuple(knots), logit)


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


def write_png(png: Path, series: list[tuple[str, list[tuple[Query, float, bool]]]]) -> None:
    """The reliability diagram of each half, drawn by ``bench_accuracy.plot``."""
    from accuracy import Bin
    from bench_accuracy import plot

    drawn = [
        (
            label,
            [
                Bin(lo, lo + 0.1, n, round(right * n), mean * n)
                for lo, n, mean, right in reliability(answers)
            ],
        )
        for label, answers in series
    ]
    if plot(png, drawn):
        print(f"reliability diagram: {png}")


def shipped_answers(
    corpus: Path,
    workers: int,
    unrelated: Path | None = UNRELATED,
    *,
    limit: int | None = None,
    seed: int = 1,
) -> tuple[list[tuple[Query, Shipped | None]], dict[str, int]]:
    """``match_all``'s first answer to every query of the corpus (see :func:`samples`)."""
    other = unrelated if unrelated is not None and unrelated.exists() else None
    return samples(corpus, limit, seed, workers, unrelated=other, gather=_shipped)


def shipped_series(
    data: list[tuple[Query, Shipped | None]],
    splits: tuple[str, ...] = ("fit", "test"),
    confidence: Callable[[Shipped], float] = lambda f: f.confidence,
) -> list[tuple[str, list[tuple[Query, float, bool]]]]:
    """Per half, (query, confidence, right) of the shipped answers (0 and wrong: none)."""
    return [
        (
            f"{split} half",
            [
                (q, confidence(f), f.right) if f else (q, 0.0, False)
                for q, f in data
                if q.split == split
            ],
        )
        for split in splits
    ]


def check_shipped(args: argparse.Namespace) -> int:
    """The reliability of the model in ``_calibration.py`` as the matcher applies it.

    The fit ranks candidates by its own logit; the matcher also ranks a match
    that explains more of the message above one it contains, and caps wordless
    patterns. This reads ``match_all``'s first answer for every query instead.
    With ``--write``, the maps from logit to confidence are refitted on these
    answers (fit half), fuzzy hints (no pattern matched, never answers), which
    the model does not score, get a map from their share of shared words to
    the share right, the maps are written (the weights stay), and the diagram
    shows what they give. Without it, the diagram is of the confidences the
    matcher gave: run it again after ``--write`` to see what ships.
    """

    began = time.perf_counter()
    if args.cache is not None and args.cache.exists():
        with args.cache.open("rb") as fh:
            data, counts = pickle.load(fh)  # our own cache file
    else:
        data, counts = shipped_answers(
            args.corpus, args.workers, args.unrelated, limit=args.limit or None, seed=args.seed
        )
        if args.cache is not None:
            with args.cache.open("wb") as fh:
                pickle.dump((data, counts), fh)
    print(f"corpus: {counts}, matched in {time.perf_counter() - began:.0f} s")
    # The maps from logit to confidence are fitted again on the answers the matcher
    # gives first (it lifts a match that explains more above a likelier one it
    # contains), and fuzzy hints, which the model does not score, get a map of their
    # share of shared words: both on the fit half.
    from errcat._calibration import WEIGHTS

    def logit(f: Shipped) -> float:
        features = f.features or {}
        return sum(w * features.get(name, 0.0) for w, name in zip(WEIGHTS, FEATURES, strict=True))

    fit = [f for q, f in data if q.split == "fit" and f] if args.write else []
    knots_fuzzy = isotonic(
        [(f.share, f.right) for f in fit if f.share is not None], min_count=args.block
    )
    knots = {
        bare: isotonic(
            [
                (logit(f), f.right)
                for f in fit
                if f.features is not None
                and bool(f.features.get("bare")) == bare
                and capped(f.features, 1.0) == 1.0
                and not f.features.get("wordless")
            ],
            min_count=args.block,
        )
        for bare in (False, True)
    }
    if args.shares_only:  # the maps stay as shipped; only the shares are fitted
        from errcat._calibration import KNOTS, KNOTS_BARE, KNOTS_FUZZY

        knots = {False: list(KNOTS), True: list(KNOTS_BARE)}
        knots_fuzzy = list(KNOTS_FUZZY)
    # Answers held down by the cap on wordless text are left out of the maps; their
    # confidence is the share of them that is right.
    held = [f.right for f in fit if f.features is not None and capped(f.features, 1.0) != 1.0]
    wordless = round(min(max(sum(held) / max(1, len(held)), 0.0005), HINT_CAP), 4)
    # Patterns without a word, answered by a frame at their raise line: the frame is
    # all the evidence, and they get the share of them that is right.
    at_site = [f.right for f in fit if f.features is not None and f.features.get("wordless")]
    from errcat._calibration import WORDLESS_SITE

    wordless_site = (
        round(sum(at_site) / len(at_site), 4) if at_site and args.write else WORDLESS_SITE
    )
    if args.write:
        print(f"fuzzy hints map (share -> right): {knots_fuzzy}")
        print(f"wordless answers: {len(held)}, right {wordless:.2%}")
        print(f"wordless patterns at their raise line: {len(at_site)}, right {wordless_site:.2%}")

    def refitted(f: Shipped) -> float:
        if f.share is not None:
            return fuzzy_probability(f.share, HINT_CAP, tuple(knots_fuzzy))
        if f.features is None:
            return f.confidence
        if f.features.get("wordless"):
            return wordless_site
        return capped(
            f.features, interpolate(knots[bool(f.features.get("bare"))], logit(f)), wordless
        )

    # Without --write: the confidences the shipped maps gave, the diagram users get.
    confidence: Callable[[Shipped], float] = refitted if args.write else lambda f: f.confidence
    series = shipped_series(data, confidence=confidence)
    for (label, answers), split in zip(series, ("fit", "test"), strict=True):
        print_reliability(f"shipped model, {label} (match_all's first answer)", answers)
        modes: dict[str, list[tuple[float, bool]]] = {}
        for q, f in data:
            if q.split == split and f:
                modes.setdefault(f.mode, []).append((confidence(f), f.right))
        print(
            "  by mode: "
            + ", ".join(
                f"{mode} {len(v)} at {sum(c for c, _ in v) / len(v):.2f}, right {sum(ok for _, ok in v) / len(v):.2f}"
                for mode, v in sorted(modes.items())
            )
        )
        print(f"\n  {'form':<20} {'answerable':>10} {'right':>7} {'negatives':>9} {'false':>6}")
        for form in sorted({q.form for q, _, _ in answers}):
            rows = [(q, c, ok) for q, c, ok in answers if q.form == form]
            pos = [ok and c >= THRESHOLD for q, c, ok in rows if q.answerable and q.literal >= 12]
            neg = [c >= THRESHOLD for q, c, ok in rows if not q.answerable and not ok]
            print(
                f"  {form + ' >=12':<20} {len(pos):>10} {sum(pos) / max(1, len(pos)):>7.1%}"
                f" {len(neg):>9} {sum(neg) / max(1, len(neg)):>6.2%}"
            )
    if args.write:
        text = OUT.read_text(encoding="utf-8")
        maps = (
            ()
            if args.shares_only
            else (
                ("KNOTS", knots[False]),
                ("KNOTS_BARE", knots[True]),
                ("KNOTS_FUZZY", knots_fuzzy),
            )
        )
        for name, values in maps:
            block = re.compile(
                rf"^{name}: tuple\[tuple\[float, float\], \.\.\.\] = \(\n(?:    .*\n)*\)\n",
                re.M,
            )
            body = "".join(f"    ({x}, {y}),\n" for x, y in values)
            text, n = block.subn(f"{name}: tuple[tuple[float, float], ...] = (\n{body})\n", text)
            if n != 1:
                raise SystemExit(f"{OUT}: no {name} block to replace")
        for name, value in (("WORDLESS", wordless), ("WORDLESS_SITE", wordless_site)):
            text, n = re.subn(rf"^{name} = .*$", f"{name} = {value}", text, flags=re.M)
            if n != 1:
                raise SystemExit(f"{OUT}: no {name} line to replace")
        OUT.write_text(text, encoding="utf-8")
        what = "" if args.shares_only else "the maps (KNOTS, KNOTS_BARE, KNOTS_FUZZY), "
        print(f"wrote {what}WORDLESS and WORDLESS_SITE to {OUT}")
    if args.png is not None:
        write_png(args.png, series)
    return 0


def print_reliability(title: str, answers: list[tuple[Query, float, bool]]) -> None:
    """The diagram as a table: per decile, answers, mean confidence, share right, gap."""
    print(f"\n{title}")
    print(f"  {'decile':<8} {'answers':>8} {'mean conf':>10} {'right':>8}  gap")
    for lo, n, mean, acc in reliability(answers):
        flag = "" if n < 50 or abs(mean - acc) <= 0.05 else "  <-- off by more than 5 points"
        print(f"  {lo:<8.1f} {n:>8} {mean:>10.3f} {acc:>8.3f}  {acc - mean:+.3f}{flag}")


def choose_threshold(answers: list[tuple[Query, float, bool]]) -> float:
    """The lowest confidence from which every band of answers is right at least half the time.

    With a calibrated model that is about 0.5: an answer given is more likely
    right than wrong. Bands of 0.1 with fewer than 50 answers are skipped.
    """
    for t in [x / 100 for x in range(50, 96)]:
        bands = [[ok for _, c, ok in answers if lo <= c < lo + 0.1] for lo in (t, t + 0.1, t + 0.2)]
        if all(sum(band) >= 0.5 * len(band) for band in bands if len(band) >= 50):
            return t
    return 0.95


def _fuzzy_block() -> list[str]:
    """The fuzzy hints' map as written now (``--shipped --write`` fits it)."""
    from errcat._calibration import KNOTS_FUZZY

    return [
        "#: (share of words, share right) knots of fuzzy hints (no pattern matched), fitted on",
        "#: match_all's first answers (``calibrate.py --shipped``); empty: the cap x share.",
        "KNOTS_FUZZY: tuple[tuple[float, float], ...] = (",
        *(f"    ({x}, {y})," for x, y in KNOTS_FUZZY),
        ")",
    ]


def _wordless_block() -> list[str]:
    """The wordless shares as written now (``--shipped --write`` fits them; a fit keeps them)."""
    from errcat._calibration import WORDLESS, WORDLESS_SITE

    return [
        "#: The share of answers right among those whose pattern's literal words carry under 6",
        "#: bits of evidence and no frame sits at the raise line (``{label}: {err!r}``): their",
        "#: confidence, fitted on match_all's first answers (``calibrate.py --shipped``).",
        f"WORDLESS = {WORDLESS}",
        "#: The share of answers right among those whose pattern has no word at all (``{msg}``)",
        "#: and a frame at their raise line: the frame is all the evidence"
        " (``calibrate.py --shipped``).",
        f"WORDLESS_SITE = {WORDLESS_SITE}",
    ]


def write(
    w: np.ndarray, knots: dict[bool, list[tuple[float, float]]], threshold: float, note: str
) -> None:
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
        "#: (logit, share right) knots of the monotone map from the model's logit to the",
        "#: confidence, fitted on the top answers (isotonic regression) of reports with",
        "#: traceback frames ...",
        "KNOTS: tuple[tuple[float, float], ...] = (",
        *(f"    ({x}, {y})," for x, y in knots[False]),
        ")",
        "#: ... and of reports without (bare lines, log lines).",
        "KNOTS_BARE: tuple[tuple[float, float], ...] = (",
        *(f"    ({x}, {y})," for x, y in knots[True]),
        ")",
        *_fuzzy_block(),
        *_wordless_block(),
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
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--png", type=Path, help="write the reliability diagram of both halves")
    parser.add_argument(
        "--block",
        type=int,
        default=1200,
        help="fewest answers in a block of the maps (--shipped; smaller blocks follow one"
        " test suite's loops over a message: with each error also asked of a large catalog"
        " that holds it, maps of 450-answer blocks were 7-12 points off on the test half)",
    )
    parser.add_argument(
        "--shipped",
        action="store_true",
        help="fit nothing: the shipped model's reliability, from match_all's first answer",
    )
    parser.add_argument(
        "--shares-only",
        action="store_true",
        help="with --shipped --write: write only WORDLESS and WORDLESS_SITE, keep the maps"
        " (when the answers the maps were fitted on have not changed)",
    )
    parser.add_argument(
        "--unrelated",
        type=Path,
        default=UNRELATED,
        help="a large catalog that holds none of the corpus (negatives); skipped when absent",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        help="keep the gathered candidates (with --shipped: answers) in this pickle;"
        " read it when it exists",
    )
    args = parser.parse_args()
    began = time.perf_counter()
    if args.shipped:
        return check_shipped(args)
    if args.cache is not None and args.cache.exists():
        with args.cache.open("rb") as fh:
            data, counts = pickle.load(fh)  # our own cache file
    else:
        unrelated = args.unrelated if args.unrelated and args.unrelated.exists() else None
        data, counts = samples(
            args.corpus, args.limit or None, args.seed, args.workers, unrelated=unrelated
        )
        if args.cache is not None:
            with args.cache.open("wb") as fh:
                pickle.dump((data, counts), fh)
    print(f"corpus: {counts}, candidates gathered in {time.perf_counter() - began:.0f} s")
    fit_rows = [(f, ok) for q, cands in data if q.split == "fit" for f, ok, _ in cands]
    x = np.array([[f.get(name, 0.0) for name in FEATURES] for f, _ in fit_rows])
    y = np.array([float(ok) for _, ok in fit_rows])
    w = fit(x, y, np.ones(len(fit_rows)), args.l2)
    # The confidence that matters is the top answer's: refit on the candidates that
    # rank first under the current weights, until the choice of top answers settles.
    for _ in range(args.rounds):
        tops = [
            max(cands, key=lambda c: float(np.dot(w, [c[0].get(n, 0.0) for n in FEATURES])))
            for q, cands in data
            if q.split == "fit" and cands
        ]
        x = np.array([[f.get(name, 0.0) for name in FEATURES] for f, _, _ in tops])
        y = np.array([float(ok) for _, ok, _ in tops])
        w = fit(x, y, np.ones(len(tops)), args.l2)
    knots = {
        bare: isotonic([(logit, ok) for _, logit, ok in top_answers(data, w, "fit", bare=bare)])
        for bare in (False, True)
    }
    print("\nweights")
    for name, value in zip(FEATURES, w, strict=True):
        print(f"  {name:<20} {value:+.3f}")
    series = []
    for split in ("fit", "test"):
        answers = top_answers(data, w, split, knots)
        print_reliability(f"reliability on the {split} half (top answers)", answers)
        series.append((f"{split} half", answers))
    if args.png is not None:
        write_png(args.png, series)
    test = top_answers(data, w, "test", knots)
    print("\nthreshold   traceback right/false   line right/false   (test half)")
    for t in (0.5, 0.6, 0.7, 0.8):
        cells = []
        for form in ("traceback", "line"):
            hits = [ok and c >= t for q, c, ok in test if q.form == form and q.answerable]
            slips = [c >= t for q, c, ok in test if q.form == form and not q.answerable and not ok]
            cells.append(
                f"{sum(hits) / max(1, len(hits)):6.1%} / {sum(slips) / max(1, len(slips)):5.2%}"
            )
        print(f"  {t:<9} {cells[0]:>22} {cells[1]:>18}")
    # The threshold comes from the fit half too: the test half only reports.
    threshold = choose_threshold(top_answers(data, w, "fit", knots))
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
        for label, keep in ((form, 0), (f"{form} >=12", 12)):
            rows_f = [(q, c, ok) for q, c, ok in test if q.form == form]
            pos = [(c, ok) for q, c, ok in rows_f if q.answerable and q.literal >= keep]
            negs = [c for q, c, ok in rows_f if not q.answerable and not ok]
            right_n = sum(c >= threshold and ok for c, ok in pos)
            wrong_n = sum(c >= threshold and not ok for c, ok in pos)
            print(
                f"{label:<20} {len(pos):>10} {right_n / max(1, len(pos)):>7.1%} {wrong_n:>6}"
                f" {len(pos) - right_n - wrong_n:>7} {len(negs):>9}"
                f" {sum(c >= threshold for c in negs) / max(1, len(negs)):>6.2%}"
            )
    if args.write:
        write(
            w,
            knots,
            threshold,
            f"Fitted on {counts['rows']} corpus exceptions ({counts['queries']} queries).",
        )
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
