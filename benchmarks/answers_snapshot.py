"""Every answer of the matcher on a fixed, large query set, to prove a refactor changes none.

Run::

    .venv/bin/python benchmarks/answers_snapshot.py --out /tmp/before.jsonl
    .venv/bin/python benchmarks/answers_snapshot.py --out /tmp/after.jsonl --compare /tmp/before.jsonl

The first run *freezes* the inputs into ``--inputs`` (default
``$ERRCAT_SNAPSHOT_DIR``, else ``~/.cache/errcat-snapshot``): every catalog is
copied there as a file (or folder) and every query written to
``queries.jsonl``, so that later runs match the very same texts against the
very same records even after ``main`` changes the miner, the bundled data or
the corpus generator. Delete the folder to freeze anew. The groups:

``corpus``
    ``corpus.make_query_set`` on the 10,000-record benchmark catalog (seed 1,
    200 per kind: hit and miss lines and tracebacks, generic texts), plus each
    hit line rendered as an issue title (``accuracy.title``) and as a log line;
``pastes-wheels`` / ``pastes-bundled``
    the 285 pastes of ``benchmarks/data/real_pastes.jsonl`` against the union
    catalog ``mine_wheels.py`` writes, and against the bundled data (with its
    history sidecars) as a frozen copy;
``real``
    ``tests/data/real_exceptions.jsonl`` as traceback, line, log line and
    title, against its own side's catalog, and the line form against the
    other side's (which does not hold it);
``precision``
    a seeded sample of records mined from the standard library and the
    packages installed beside errcat (messages only, as ``bench_precision.py``
    mines them), rendered as a bare line and as a traceback, against their own
    catalog and the other one.

Each query gets one output line: ``match_all``'s top three (record id, mode,
exact, confidence rounded to 4 places, params) and ``match_error``'s answer
(id, mode, confidence). ``--compare OLD`` prints every query whose line
differs, with both, and a count per group; its exit status is 1 when any
differs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import sysconfig
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

ROOT = HERE.parent
WHEELS = Path("/root/.cache/errcat-bench/wheels/catalog-sglang-vllm.jsonl")
#: Queries per kind of the benchmark corpus, and the precision sample per side.
CORPUS_SIZE = 10_000
CORPUS_K = 200
PRECISION_SAMPLE = 1500


def default_inputs() -> Path:
    """Where the frozen inputs live (``$ERRCAT_SNAPSHOT_DIR``, else the user cache)."""
    given = os.environ.get("ERRCAT_SNAPSHOT_DIR")
    return Path(given) if given else Path.home() / ".cache" / "errcat-snapshot"


def _query(group: str, key: str, text: str, catalog: str) -> dict[str, str]:
    return {"group": group, "key": key, "text": text, "catalog": catalog}


def _split_line(line: str) -> tuple[str, str]:
    """``Class: message`` as its class and message (the message alone when no class)."""
    head, sep, rest = line.partition(": ")
    if sep and head and " " not in head:
        return head, rest
    return "", line


def _corpus_queries(inputs: Path) -> Iterator[dict[str, str]]:
    import corpus
    from accuracy import LOG_PREFIXES, title

    path = corpus.write_catalog(CORPUS_SIZE, corpus.cache_root() / "catalogs")
    frozen = inputs / "corpus-10k.jsonl"
    shutil.copyfile(path, frozen)
    queries = corpus.make_query_set(path, CORPUS_K, seed=1, cache=False).queries
    for kind, items in queries.items():
        for n, (text, _expected) in enumerate(items):
            yield _query("corpus", f"{kind}/{n}", text, frozen.name)
            if kind == "hit line":
                cls, message = _split_line(text)
                yield _query("corpus", f"title/{n}", title(cls, message), frozen.name)
                prefix, _every = LOG_PREFIXES[n % len(LOG_PREFIXES)]
                yield _query("corpus", f"log/{n}", f"{prefix}{text}", frozen.name)


def _paste_queries(inputs: Path, wheels: Path) -> Iterator[dict[str, str]]:
    from errcat.loaders import bundled_data_dir

    if not wheels.is_file():
        raise SystemExit(f"{wheels} is missing: run benchmarks/mine_wheels.py first")
    shutil.copyfile(wheels, inputs / "wheels.jsonl")
    bundled = inputs / "bundled"
    shutil.copytree(Path(str(bundled_data_dir())), bundled, dirs_exist_ok=True)
    lines = (ROOT / "benchmarks" / "data" / "real_pastes.jsonl").read_text(encoding="utf-8")
    for line in lines.splitlines():
        if not line.strip():
            continue
        paste = json.loads(line)
        yield _query("pastes-wheels", paste["id"], paste["text"], "wheels.jsonl")
        yield _query("pastes-bundled", paste["id"], paste["text"], "bundled")


def _real_queries(inputs: Path) -> Iterator[dict[str, str]]:
    from accuracy import title

    data = ROOT / "tests" / "data"
    for side in ("stdlib", "thirdparty"):
        shutil.copyfile(data / f"real_exceptions_{side}.jsonl", inputs / f"real-{side}.jsonl")
    for line in (data / "real_exceptions.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        own = "real-stdlib.jsonl" if case["catalog"] == "stdlib" else "real-thirdparty.jsonl"
        other = "real-thirdparty.jsonl" if own == "real-stdlib.jsonl" else "real-stdlib.jsonl"
        for form, text in case["texts"].items():
            yield _query("real", f"{case['id']}/{form}", text, own)
        cls, message = _split_line(case["texts"]["line"])
        yield _query("real", f"{case['id']}/title", title(cls, message), own)
        yield _query("real", f"{case['id']}/line-other", case["texts"]["line"], other)


def _precision_queries(inputs: Path) -> Iterator[dict[str, str]]:
    from bench_precision import mine_catalog, render, third_party, traceback_text
    from errcat.loaders import write_jsonl

    sides = {
        "stdlib": mine_catalog([Path(sysconfig.get_paths()["stdlib"])], repo_of="python/cpython"),
        "thirdparty": mine_catalog(third_party()),
    }
    for side, catalog in sides.items():
        write_jsonl(inputs / f"precision-{side}.jsonl", catalog.envelopes())
    rng = random.Random(0)
    for side, catalog in sides.items():
        other = "thirdparty" if side == "stdlib" else "stdlib"
        records = list(catalog)
        rng.shuffle(records)
        for record in records[:PRECISION_SAMPLE]:
            message = render(record, rng)
            line = f"{record.error_class.rsplit('.', 1)[-1]}: {message}"
            tb = traceback_text(record, message)
            for name, text in (("line", line), ("traceback", tb)):
                for target in (side, other):
                    key = f"{side}/{record.id}/{name}/{target}"
                    yield _query("precision", key, text, f"precision-{target}.jsonl")


def freeze(inputs: Path, wheels: Path = WHEELS) -> None:
    """Write the catalogs and ``queries.jsonl`` into ``inputs`` (see the module docstring)."""
    inputs.mkdir(parents=True, exist_ok=True)
    tmp = inputs / "queries.jsonl.tmp"
    count = 0
    with tmp.open("w", encoding="utf-8") as out:
        makers: tuple[Callable[[], Iterator[dict[str, str]]], ...] = (
            lambda: _corpus_queries(inputs),
            lambda: _paste_queries(inputs, wheels),
            lambda: _real_queries(inputs),
            lambda: _precision_queries(inputs),
        )
        for name, make in zip(("corpus", "pastes", "real", "precision"), makers, strict=True):
            started = time.perf_counter()
            made = 0
            for query in make():
                out.write(json.dumps(query, ensure_ascii=False) + "\n")
                made += 1
            count += made
            print(f"froze {made} queries ({name}, {time.perf_counter() - started:.0f} s)")
    tmp.replace(inputs / "queries.jsonl")
    print(f"{count} queries frozen in {inputs}")


def _answers(text: str, catalog: Any) -> dict[str, Any]:
    from errcat import match_all, match_error

    top = [
        [m.summary.id, m.mode, m.exact, round(m.confidence, 4), dict(m.params)]
        for m in match_all(text, catalog, limit=3)
    ]
    answer = match_error(text, catalog)
    found = None if answer is None else [answer.summary.id, answer.mode, answer.confidence]
    return {"all": top, "error": found}


def run(inputs: Path, out: Path, groups: set[str] | None) -> None:
    """Match every frozen query and write one line per query to ``out``."""
    from errcat import Catalog

    catalogs: dict[str, Any] = {}
    timings: defaultdict[str, float] = defaultdict(float)
    counts: Counter[str] = Counter()
    with (
        (inputs / "queries.jsonl").open(encoding="utf-8") as fh,
        out.open("w", encoding="utf-8") as dump,
    ):
        for line in fh:
            query = json.loads(line)
            group = query["group"]
            if groups is not None and group not in groups:
                continue
            name = query["catalog"]
            catalog = catalogs.get(name)
            if catalog is None:
                catalog = catalogs[name] = Catalog.from_path(inputs / name)
            started = time.perf_counter()
            row = {"group": group, "key": query["key"], **_answers(query["text"], catalog)}
            timings[group] += time.perf_counter() - started
            counts[group] += 1
            dump.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    for group, n in counts.items():
        print(f"{group:<16} {n:6d} queries  {timings[group]:7.1f} s")


def _load(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        rows[row["group"], row["key"]] = row
    return rows


def compare(old: Path, new: Path) -> int:
    """Print every query whose answers differ between two dumps; the number that do."""
    before, after = _load(old), _load(new)
    differ: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for key in sorted(before.keys() | after.keys()):
        total[key[0]] += 1
        a, b = before.get(key), after.get(key)
        if a == b:
            continue
        differ[key[0]] += 1
        print(f"== {key[0]} {key[1]}")
        for label, row in (("old", a), ("new", b)):
            if row is None:
                print(f"  {label}: (absent)")
                continue
            print(f"  {label} error: {row['error']}")
            for m in row["all"]:
                print(f"  {label}   all: {m}")
    for group in sorted(total):
        print(f"{group:<16} {differ[group]:6d} of {total[group]:6d} differ")
    return sum(differ.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=Path, default=default_inputs())
    parser.add_argument("--out", type=Path, required=True, help="where to write the answers")
    parser.add_argument("--compare", type=Path, help="an earlier dump to compare with")
    parser.add_argument("--wheels", type=Path, default=WHEELS, help="mine_wheels.py's union")
    parser.add_argument("--groups", help="comma-separated groups to run (default: all)")
    parser.add_argument("--freeze-only", action="store_true", help="freeze inputs and stop")
    args = parser.parse_args(argv)
    if not (args.inputs / "queries.jsonl").is_file():
        freeze(args.inputs, args.wheels)
    if args.freeze_only:
        return 0
    groups = set(args.groups.split(",")) if args.groups else None
    run(args.inputs, args.out, groups)
    if args.compare is not None:
        return 1 if compare(args.compare, args.out) else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
