"""Write the curated native catalog (CUDA, HIP, NCCL, Gloo, crashes) into ``curated/``.

Run with ``python benchmarks/build_native.py [--out DIR]``. The records are
specs in ``benchmarks/native_catalog/`` (one module per family: memory, cuda,
comms, crash); this script renders them as schemaVersion 2 envelopes, one JSON
Lines file per repository (``curated/pytorch__pytorch.jsonl``, ...), sorted by
id, so that running it twice gives the same bytes. ``--check`` only compares.

Every record is tagged ``errcat:native:<kind>`` (see ``native_catalog.spec.KINDS``)
and carries its sources at the end of its documentation. ``data/SOURCES.json``
lists these files under ``curated``, so ``build_data.py`` lays them into the
bundled catalog.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from native_catalog import comms, crash, cuda, memory
from native_catalog.spec import Spec

ROOT = Path(__file__).resolve().parents[1]

#: Every curated native record, by family.
SPECS: tuple[Spec, ...] = (*memory.RECORDS, *cuda.RECORDS, *comms.RECORDS, *crash.RECORDS)


def native_file_name(repo: str) -> str:
    """``pytorch/pytorch`` -> ``pytorch__pytorch.native.jsonl``."""
    return repo.replace("/", "__") + ".native.jsonl"


def render(specs: tuple[Spec, ...] = SPECS) -> dict[str, str]:
    """The catalog's files (name -> JSON Lines text), one per repository, sorted by id."""
    by_repo: dict[str, list[dict[str, Any]]] = defaultdict(list)
    seen: set[str] = set()
    for spec in specs:
        envelope = spec.envelope()
        rid = envelope["record"]["id"]
        if rid in seen:
            raise SystemExit(f"two native specs share the id {rid} ({spec.template!r})")
        seen.add(rid)
        by_repo[spec.repo].append(envelope)
    return {
        native_file_name(repo): "".join(
            json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n"
            for e in sorted(envelopes, key=lambda e: e["record"]["id"])
        )
        for repo, envelopes in sorted(by_repo.items())
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "curated")
    parser.add_argument("--check", action="store_true", help="fail when a file would change")
    args = parser.parse_args(argv)
    stale = []
    for name, text in render().items():
        path = args.out / name
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
            continue
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {text.count(chr(10))} records")
    if stale:
        raise SystemExit(f"out of date: {', '.join(stale)} (run benchmarks/build_native.py)")


if __name__ == "__main__":
    main()
