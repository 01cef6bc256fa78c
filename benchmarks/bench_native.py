"""Native errors in real pastes: answered with a record of the right kind, wrongly, or not.

Run with ``python benchmarks/bench_native.py [--sample FILE]``. Each line of the
sample (``benchmarks/data/native_sample.jsonl``: real paste fragments from public
issue threads, even-numbered ones only, each labelled with the native kind
that raised it) is matched twice: against the bundled catalog alone, and with
the native catalog laid over it (the files ``data/SOURCES.json`` lists under
``curated`` and ``native``, until ``data/`` is rebuilt with them). Right means a
confident answer whose record is tagged ``errcat:native:<kind>``; wrong, a
confident answer of another record; none, no confident answer. The labels were
written from the threads before any pattern was checked against them; the
patterns come from the C++ sources that print the messages, not from these texts.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from errcat.catalog import Catalog
from errcat.matcher import match_error

ROOT = Path(__file__).resolve().parents[1]


def native_files() -> list[Path]:
    """The native catalog's files as SOURCES.json lists them (curated native, wrappers, C++)."""
    spec = json.loads((ROOT / "data" / "SOURCES.json").read_text(encoding="utf-8"))
    listed = [*spec.get("curated", []), *spec.get("native", [])]
    return [ROOT / p for p in listed if ".native." in p or ".wrappers." in p or ".cpp." in p]


def verdict(text: str, kind: str, catalog: Catalog) -> tuple[str, str]:
    """("right" | "wrong" | "none", what answered)."""
    match = match_error(text, catalog=catalog)
    if match is None:
        return "none", "-"
    shown = f"{match.summary.repo}:{match.summary.file_path}"
    if f"errcat:native:{kind}" in match.summary.tags:
        return "right", shown
    return "wrong", shown


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sample", type=Path, default=ROOT / "benchmarks/data/native_sample.jsonl")
    parser.add_argument("--verbose", action="store_true", help="print each paste's answer")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in args.sample.read_text(encoding="utf-8").splitlines()]
    catalogs = {
        "bundled": Catalog.bundled(),
        "bundled + native": Catalog.from_sources([str(p) for p in native_files()], bundled=True),
    }
    tables: dict[str, dict[str, Counter[str]]] = {}
    for name, catalog in catalogs.items():
        table: dict[str, Counter[str]] = defaultdict(Counter)
        for row in rows:
            outcome, shown = verdict(row["text"], row["kind"], catalog)
            table[row["kind"]][outcome] += 1
            table["all"][outcome] += 1
            if args.verbose:
                print(f"{name:16} {row['id']:22} {row['kind']:24} {outcome:5} {shown}")
        tables[name] = table
    kinds = [*sorted(k for k in tables["bundled"] if k != "all"), "all"]
    print("| kind | pastes | bundled: right / wrong / none | + native: right / wrong / none |")
    print("|---|---|---|---|")
    for kind in kinds:
        cells = []
        for name in catalogs:
            c = tables[name][kind]
            cells.append(f"{c['right']} / {c['wrong']} / {c['none']}")
        n = sum(tables["bundled"][kind].values())
        print(f"| {kind} | {n} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
