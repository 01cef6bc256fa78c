"""Texts several projects raise: which project answers a bare line of each, and is it the original.

Run with ``python benchmarks/bench_cross_sites.py [--packages DIR] [--out FILE] [--show N]``
(an interpreter with the stack's data packages installed, so the default provenance
sees them; ``--packages`` names the folder holding ``errcat-data-*`` package copies to
load instead of ``stack/packages``: put their ``src`` folders on ``PYTHONPATH`` too).
The catalog is the bundled data plus every stack package. Each text (a record's
template, placeholders aside) raised by records of two or more projects is matched
as a bare ``Class: message`` line (placeholders filled), and the answer is judged by
the evidence the data gives of the original:

* **dependency**: one project every other project of the text builds on (requires,
  directly or through others, as ``errcat.matcher.site_origin`` reads the manifests):
  the original is that project; the answer is *right* when it is that project's,
  *wrong* when it is another project's, *none* when nothing is confident;
* **vendored**: records of a ``third_party`` / ``_vendor`` / ``vendor`` folder are
  copies (counted apart);
* otherwise the original is unknown from the data, and the table counts confident
  answers only (a confident answer there rests on the history windows).

``--out`` writes each text's answer (project, confident) as JSON Lines, to compare
two runs. The texts are the catalog's own: no paste of ``benchmarks/data`` is read.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from bench_precision import render
from errcat import Catalog, match_error
from errcat.loaders import bundled_data_dir
from errcat.matcher.site_origin import Provenance, read_provenance
from errcat.matcher.site_prior import _template, _vendored
from errcat.store import RecordSummary

ROOT = Path(__file__).resolve().parents[1]


def _catalog(packages: Path) -> tuple[Catalog, list[Path]]:
    dirs = sorted(p for p in packages.glob("*/src/*") if p.is_dir() and p.name != "__pycache__")
    return Catalog.bundled().merge(*(Catalog.from_path(d) for d in dirs)), dirs


def _groups(catalog: Catalog) -> dict[str, list[RecordSummary]]:
    groups: dict[str, list[RecordSummary]] = defaultdict(list)
    for number, store in enumerate(catalog.parts):
        for position in range(len(store)):
            summary = store.summary(position)
            if not catalog.hidden(number, summary.id):
                groups[_template(summary)].append(summary)
    return {k: v for k, v in groups.items() if len({s.repo for s in v}) > 1 and k.strip("{} ")}


def _original(repos: set[str], facts: Provenance) -> str | None:
    """The project every other project of the text builds on, if one is."""
    found = [r for r in sorted(repos) if all(facts.depends_on(o, r) for o in repos if o != r)]
    return found[0] if found else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--packages", type=Path, default=ROOT / "stack" / "packages")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--show", type=int, default=0, help="print this many wrong answers")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    catalog, dirs = _catalog(args.packages)
    facts = read_provenance([bundled_data_dir(), *dirs])
    groups = _groups(catalog)
    print(f"{len(groups)} texts raised by 2+ projects ({time.perf_counter() - started:.0f} s)")
    rng = random.Random(0)
    table: Counter[tuple[str, str]] = Counter()
    wrong: list[str] = []
    rows: list[dict[str, object]] = []
    sets: Counter[str] = Counter()
    for key in sorted(groups):
        members = groups[key]
        repos = {s.repo for s in members}
        first = catalog[members[0].id]
        line = f"{first.error_class.rsplit('.', 1)[-1]}: {render(first, rng)}"
        match = match_error(line, catalog=catalog)
        answer = match.record.repo if match is not None else None
        original = _original(repos, facts)
        copies = any(_vendored(s) is not None for s in members)
        kind = "dependency" if original else ("vendored" if copies else "unknown")
        if answer is None:
            verdict = "none"
        elif original is None:
            verdict = "confident"
        else:
            verdict = "right" if answer == original else "wrong"
        table[(kind, verdict)] += 1
        if verdict == "wrong":
            wrong.append(f"{answer} (original {original}): {line[:110]}")
        rows.append({"text": key, "repos": sorted(repos), "answer": answer, "original": original})
        if len(repos) < 4:
            sets[" + ".join(sorted(r.split("/")[-1] for r in repos))] += 1
    print("\nevidence | right | wrong | none | confident")
    print("---|---:|---:|---:|---:")
    for kind in ("dependency", "vendored", "unknown"):
        cells = [table[(kind, v)] for v in ("right", "wrong", "none", "confident")]
        print(f"{kind} | " + " | ".join(map(str, cells)))
    print("\nmost frequent project sets:", ", ".join(f"{p} {n}" for p, n in sets.most_common(8)))
    for text in wrong[: args.show]:
        print("  wrong:", text)
    if args.out is not None:
        with args.out.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
