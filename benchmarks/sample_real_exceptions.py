"""Write the checked-in sample of the real-exception corpus (tests/data/real_exceptions*.jsonl).

Run: ``.venv/bin/python benchmarks/sample_real_exceptions.py`` after ``harvest.py``.

Picks 260 *held* cases of the corpus (see ``accuracy.py``), spread over
the projects (at most ``--per-project`` of each third-party project, the rest
from the standard library), seeded. For each it writes the three rendered
forms and the ids of the records that count as right (with frames, for the
traceback; without, for the bare and log lines), and the literal characters
of its record. Beside them goes the slice of the mined catalogs the sample
needs: the records at each case's raise site and every record that
``match_all`` lists among its first 5 candidates for any form, so that the
test meets the same competitors as the benchmark. Each record's source
snippet is cut to its raise line, and the harvest's long folders in the
tracebacks become the usual install paths (``/usr/lib/python3.11/...``), to
keep the files small.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

import errcat
from accuracy import FORMS, Case, Sites, literal_chars, load_cases, render
from errcat import Catalog
from errcat.loaders import dump_envelope
from errcat.models import RecordEnvelope

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = Path("/root/.cache/errcat-corpus")


def shorter_paths(text: str) -> str:
    """The traceback with the harvest's long folders replaced by the usual install paths."""
    text = re.sub(r"/root/\.cache/errcat-corpus/venv/lib/(python3\.\d+)/", r"/usr/lib/\1/", text)
    text = re.sub(r"/root/\.pyenv/versions/[\d.]+/lib/(python3\.\d+)/", r"/usr/lib/\1/", text)
    return re.sub(r"/root/\.cache/errcat-corpus/src/([^/]+)-[^-/]+/", r"/home/dev/\1/", text)


def trimmed(envelope: RecordEnvelope) -> RecordEnvelope:
    """The envelope with its snippet cut to the raise line (URL to match)."""
    record = envelope.record
    lines = record.source_code.split("\n")
    line = lines[record.line_number - record.source_code_start]
    url = record.github_url.rsplit("#", 1)[0] + f"#L{record.line_number}-L{record.line_number}"
    short = record.model_copy(
        update={
            "source_code": line,
            "source_code_start": record.line_number,
            "source_code_end": record.line_number,
            "github_url": url,
        }
    )
    return envelope.model_copy(update={"record": short})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--total", type=int, default=260)
    parser.add_argument("--per-project", type=int, default=7)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--candidates", type=int, default=5, help="competitors kept per form")
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data")
    args = parser.parse_args(argv)
    catalogs = {
        "stdlib": Catalog.from_path(args.dir / "catalog-stdlib.jsonl"),
        "third-party": Catalog.from_path(args.dir / "catalog-thirdparty.jsonl"),
    }
    sites = {name: Sites(cat) for name, cat in catalogs.items()}
    rng = random.Random(args.seed)
    by_project: dict[str, list[Case]] = defaultdict(list)
    for case in load_cases(args.dir / "corpus.jsonl"):
        by_project[case.project].append(case)
    picked: list[tuple[str, Case]] = []
    for project in sorted(p for p in by_project if p != "cpython"):
        cases = by_project[project]
        rng.shuffle(cases)
        held = [c for c in cases if sites["third-party"].held(c) is not None]
        picked.extend(("third-party", c) for c in held[: args.per_project])
    stdlib = by_project["cpython"]
    rng.shuffle(stdlib)
    for case in stdlib:
        if len(picked) >= args.total:
            break
        if sites["stdlib"].held(case) is not None:
            picked.append(("stdlib", case))
    needed: dict[str, set[str]] = defaultdict(set)
    rows = []
    for side, case in sorted(picked, key=lambda p: p[1].id):
        site = sites[side]
        record = site.held(case)
        assert record is not None
        short = dataclasses.replace(case, traceback=shorter_paths(case.traceback))
        texts = {form: render(short, form) for form in FORMS}
        right_frames = site.right_ids(case, frames=True)
        right_text = site.right_ids(case, frames=False)
        needed[side].update(right_text)
        for text in texts.values():
            for m in errcat.match_all(text, catalogs[side], limit=args.candidates):
                needed[side].add(m.summary.id)
        rows.append(
            {
                "id": case.id,
                "project": case.project,
                "catalog": side,
                "raise_path": case.raise_path,
                "raise_line": case.raise_line,
                "literal": literal_chars(record.template),
                "right_with_frames": sorted(right_frames),
                "right_without_frames": sorted(right_text),
                "texts": texts,
            }
        )
    args.out.mkdir(parents=True, exist_ok=True)
    with (args.out / "real_exceptions.jsonl").open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    for side, catalog in catalogs.items():
        envelopes = [trimmed(e) for e in catalog.envelopes() if e.record.id in needed[side]]
        envelopes.sort(key=lambda e: (e.record.file_path, e.record.line_number, e.record.id))
        name = (
            "real_exceptions_stdlib.jsonl"
            if side == "stdlib"
            else "real_exceptions_thirdparty.jsonl"
        )
        with (args.out / name).open("w", encoding="utf-8") as fh:
            for envelope in envelopes:
                fh.write(dump_envelope(envelope) + "\n")
        print(f"{side}: {len(envelopes)} records")
    print(f"{len(rows)} cases ({sum(1 for s, _ in picked if s == 'stdlib')} stdlib)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
