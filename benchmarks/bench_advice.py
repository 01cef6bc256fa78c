"""How much of the mined advice says something, and whether it names only what exists.

Run: .venv/bin/python benchmarks/bench_advice.py [WHEEL ...] [--jobs N] [--out DIR]

Each wheel (default: the newest sglang and vllm wheels in
``/root/.cache/errcat-mine``, fetched with ``pip download --no-deps
--only-binary :all: sglang vllm -d /root/.cache/errcat-mine``) has its
``.py`` files extracted once next to it, and its package folder is mined with
advice. Printed per package (issue 10's figures):

* records: how many; with advice: the share whose generated documentation is
  not empty and that have at least one solution (goal >= 90%);
* option sites: raise sites in sglang's ``srt/server_args.py`` and
  ``srt/arg_groups/``, and the share whose documentation (which renders the
  guard) names at least one flag the project defines (goal >= 90%);
* unknown names: flags (``--x``) and environment variables named in the
  generated text that occur nowhere in the mined source (goal 0).

The mined records are written to ``--out`` (one JSONL per package) for
``errcat show --catalog``.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import zipfile
from collections.abc import Iterable
from pathlib import Path

from errcat.loaders import write_jsonl
from errcat.mine import mine_paths
from errcat.models import GENERATED_TAG, ErrorRecord

CACHE = Path("/root/.cache/errcat-mine")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
ENV = re.compile(r"environment variables?(?: involved:)? ((?:[A-Z][A-Z0-9_]+(?:, )?)+)")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
OPTION_FILES = ("srt/server_args.py", "srt/arg_groups/")


def extract(wheel: Path) -> tuple[str, str, Path]:
    """Extract a wheel's .py files once; its project name, version and package folder."""
    name, version = wheel.name.split("-")[:2]
    target = wheel.parent / f"{name}-{version}"
    package = target / name
    if not package.is_dir():
        with zipfile.ZipFile(wheel) as z:
            z.extractall(target, [n for n in z.namelist() if n.endswith(".py")])
    return name, version, package


def newest(pattern: str) -> Path | None:
    found = sorted(CACHE.glob(pattern), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def generated_text(record: ErrorRecord) -> str:
    """The fields the miner wrote (not the message, which is the project's own)."""
    parts = [
        record.documentation,
        record.trigger_scenarios,
        record.example_fix,
        *record.solutions,
        *record.prevention_tips,
    ]
    return "\n".join(parts)


def named(text: str) -> tuple[set[str], set[str]]:
    flags = set(FLAG.findall(text))
    envs = {name for m in ENV.finditer(text) for name in m.group(1).split(", ") if name}
    return flags, envs


def source_text(package: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in package.rglob("*.py"))


def figures(name: str, records: Iterable[ErrorRecord], text: str) -> dict[str, object]:
    records = [r for r in records if GENERATED_TAG in r.tags]
    source = set(FLAG.findall(text)) | set(WORD.findall(text))  # the names the source holds
    total = len(records)
    useful = sum(1 for r in records if r.documentation.strip() and r.solutions)
    sites: dict[tuple[str, int], bool] = {}
    unknown: set[str] = set()
    for r in records:
        flags, envs = named(generated_text(r))
        # A flag exists when it is written in the source, or its field is (a generated flag).
        unknown |= {f for f in flags if f not in source and f[2:].replace("-", "_") not in source}
        unknown |= {e for e in envs if e not in source}
        if name == "sglang" and any(k in r.file_path for k in OPTION_FILES):
            doc_flags = {f for f in FLAG.findall(r.documentation) if f in source}
            key = (r.file_path, r.line_number)
            sites[key] = sites.get(key, False) or bool(doc_flags)
    return {
        "records": total,
        "with advice": useful / total if total else 0.0,
        "option sites": len(sites),
        "naming a flag": (sum(sites.values()) / len(sites)) if sites else None,
        "unknown names": len(unknown),
        "unknown": sorted(unknown)[:10],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheels", nargs="*", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=CACHE / "advice")
    args = parser.parse_args(argv)
    wheels = args.wheels or [w for w in (newest("sglang-*.whl"), newest("vllm-*.whl")) if w]
    if not wheels:
        sys.exit(f"no wheels given and none in {CACHE}")
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for wheel in wheels:
        name, version, package = extract(wheel)
        started = time.perf_counter()
        result = mine_paths(
            [package], repo=f"{name}/{name}", sha="0" * 40, path_prefix=name, workers=args.jobs
        )
        seconds = time.perf_counter() - started
        write_jsonl(args.out / f"{name}.jsonl", result.envelopes)
        row = figures(name, result.records, source_text(package))
        rows.append((f"{name} {version}", row, seconds, result.stats.files))
    print(
        f"{'package':<16} {'files':>6} {'records':>8} {'with advice':>12} "
        f"{'option sites':>13} {'naming a flag':>14} {'unknown names':>14} {'seconds':>8}"
    )
    for label, row, seconds, files in rows:
        share = row["naming a flag"]
        flag_share = f"{share:.1%}" if isinstance(share, float) else "-"
        print(
            f"{label:<16} {files:>6} {row['records']:>8} {row['with advice']:>12.1%} "
            f"{row['option sites']:>13} {flag_share:>14} {row['unknown names']:>14} "
            f"{seconds:>8.1f}"
        )
    for label, row, _, _ in rows:
        if row["unknown"]:
            print(f"{label}: unknown names: {', '.join(row['unknown'])}")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
