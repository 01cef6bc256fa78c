"""Confident answers for errors the stack's catalogs lack, with all of them loaded.

Run with ``python benchmarks/bench_stack_precision.py [--limit N] [--no-bundled]
[--half tune|check] [--show N]``.
The catalog is the bundled data plus every built stack package
(``stack/packages/*/src/*``). The queries are the messages of the third-party
packages installed beside errcat that no stack package holds (mined as
``bench_precision.py`` mines them; a message whose template is in the catalog
too, a copy, is left out), rendered with realistic values as a bare line and as
a traceback whose last frame is their own site. Any exact, confident answer is
wrong: none of them is in the catalog. Generic shapes (``{name} must be
positive``) that many packages of the stack raise are where such answers come
from; the table lists the most frequent answering templates.

``--half`` keeps one half of the query sample, split by a hash of the query
record's id (:func:`half_of`): tune a rule on ``tune`` and measure it on
``check`` too, which nobody looked at. ``--show N`` prints the first N
confident answers with their query and reasons.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from collections import Counter
from pathlib import Path

from bench_precision import mine_catalog, render, third_party, traceback_text
from errcat import Catalog, match_error

ROOT = Path(__file__).resolve().parents[1]


def stack_catalog(bundled: bool) -> tuple[Catalog, list[str]]:
    """The bundled catalog (unless not) merged with every built stack package's data."""
    dirs = sorted(p for p in (ROOT / "stack" / "packages").glob("*/src/*") if p.is_dir())
    parts = [Catalog.from_path(d) for d in dirs]
    base = Catalog.bundled() if bundled else parts.pop(0)
    return base.merge(*parts), [d.name for d in dirs]


def half_of(record_id: str) -> str:
    """The half of the query sample a query record is in: ``tune`` or ``check``.

    >>> sorted({half_of(f"zq{n}") for n in range(20)})
    ['check', 'tune']
    """
    return "tune" if hashlib.sha256(record_id.encode()).digest()[0] < 128 else "check"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--limit", type=int, default=3000)
    parser.add_argument("--no-bundled", action="store_true")
    parser.add_argument("--half", choices=("tune", "check"), help="one half of the sample")
    parser.add_argument("--show", type=int, default=0, help="print this many confident answers")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    catalog, names = stack_catalog(not args.no_bundled)
    held = {r.error_message for r in catalog}
    repos = {r.repo.split("/")[-1].lower() for r in catalog}
    paths = [p for p in third_party() if p.name.lower() not in repos]
    queries = [r for r in mine_catalog(paths) if r.error_message not in held]
    rng = random.Random(0)
    rng.shuffle(queries)
    queries = queries[: args.limit]
    print(
        f"catalog: bundled{'' if not args.no_bundled else ' (left out)'} + {', '.join(names)}: "
        f"{len(catalog):,} records; {len(queries)} queries from {len(paths)} packages "
        f"({time.perf_counter() - started:.0f} s)"
    )
    confident: Counter[tuple[str, str]] = Counter()
    sizes: Counter[str] = Counter()
    answers: Counter[str] = Counter()
    shown = 0
    for record in queries:
        message = render(record, rng)  # drawn for every query: a half renders as the whole
        half = half_of(record.id)
        if args.half not in (None, half):
            continue
        sizes[half] += 1
        bare = f"{record.error_class.rsplit('.', 1)[-1]}: {message}"
        for form, text in (("bare line", bare), ("traceback", traceback_text(record, message))):
            match = match_error(text, catalog=catalog)
            if match is not None and match.exact:
                confident[form, half] += 1
                answers[f"{match.record.repo}: {match.record.error_message[:70]}"] += 1
                if shown < args.show:
                    shown += 1
                    print(f"[{half} {form} {match.confidence:.3f}] {record.repo}: {bare[:150]}")
                    print(f"    -> {match.record.repo} {match.record.error_message[:100]}")
                    for reason in match.reasons:
                        print(f"       . {reason}")
    print("form | half | n | confident for absent")
    print("---|---|---|---")
    for form in ("bare line", "traceback"):
        for half in (*sorted(sizes), "both"):
            n = sizes[half] if half != "both" else sum(sizes.values())
            count = (
                confident[form, half] if half != "both" else sum(confident[form, h] for h in sizes)
            )
            print(f"{form} | {half} | {n} | {count} ({count / max(n, 1):.2%})")
    print("\nmost frequent answering records:")
    for what, count in answers.most_common(12):
        print(f"  {count:>4}  {what}")


if __name__ == "__main__":
    main()
