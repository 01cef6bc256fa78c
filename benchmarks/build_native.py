"""Write the curated native catalog (CUDA, HIP, NCCL, Gloo, crashes, HTTP) into ``curated/``.

Run with ``python benchmarks/build_native.py [--out DIR]``. The records are
specs in ``benchmarks/native_catalog/`` (one module per family: memory, cuda,
comms, crash); this script renders them as schemaVersion 2 envelopes, one JSON
Lines file per repository (``curated/pytorch__pytorch.jsonl``, ...), sorted by
id, so that running it twice gives the same bytes. ``--check`` only compares.

The HTTP statuses of the engines' servers, as client libraries and the access
log print them (``native_catalog.http``), go to files of their own, one per
library that prints them (``curated/openai__openai-python.http.jsonl``, ...).

Every record is tagged ``errcat:native:<kind>`` (see ``native_catalog.spec.KINDS``)
and carries its sources at the end of its documentation. ``data/SOURCES.json``
lists these files under ``curated``, so ``build_data.py`` lays them into the
bundled catalog.

``--cpp`` also mines the C++ check macros (``TORCH_CHECK`` and kin, see
:mod:`errcat.mine.cpp`) of sglang's ``sgl-kernel`` and vllm's ``csrc`` at the
newest git revision ``data/SOURCES.json`` names for each, from the git mirrors
(``--mirrors``), into ``native/<owner>__<name>.cpp.jsonl`` (advice generated,
tagged ``errcat:generated``); ``SOURCES.json`` lists them under ``native``.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from errcat.mine.cpp import mine_cpp_git
from native_catalog import (
    allreduce,
    builds,
    cmake,
    comms,
    crash,
    cuda,
    http,
    http_hub,
    imports,
    memory,
    toolchain,
    tools,
    watchdog,
    wrappers,
)
from native_catalog.spec import ANALYZED_AT, Spec

ROOT = Path(__file__).resolve().parents[1]

#: Every curated native record, by family.
SPECS: tuple[Spec, ...] = (
    *memory.RECORDS,
    *cuda.RECORDS,
    *cuda.CUBLAS_CUDNN,
    cuda.HIP_FAULT,
    *comms.RECORDS,
    *crash.RECORDS,
    *imports.RECORDS,
    *tools.RECORDS,
    *toolchain.RECORDS,
    *builds.RECORDS,
    *cmake.RECORDS,
    *watchdog.RECORDS,
    *allreduce.RECORDS,
)


#: The HTTP statuses: the engines' servers' (as each client prints them) and the Hub's.
HTTP_SPECS: tuple[Spec, ...] = (*http.RECORDS, *http_hub.RECORDS)


def _dumps(envelopes: list[dict[str, Any]]) -> str:
    return "".join(
        json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in envelopes
    )


def native_file_name(repo: str, family: str = "native") -> str:
    """``pytorch/pytorch`` -> ``pytorch__pytorch.native.jsonl``."""
    return repo.replace("/", "__") + f".{family}.jsonl"


def render(specs: tuple[Spec, ...] = SPECS, family: str = "native") -> dict[str, str]:
    """The catalog's files (name -> JSON Lines text), one per repository, sorted by id.

    ``family`` names the files: ``<owner>__<name>.<family>.jsonl``.
    """
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
        native_file_name(repo, family): _dumps(sorted(envelopes, key=lambda e: e["record"]["id"]))
        for repo, envelopes in sorted(by_repo.items())
    }


#: The compiled code of each engine: (repo, folder in its git tree).
CPP_SOURCES = (("sgl-project/sglang", "sgl-kernel"), ("vllm-project/vllm", "csrc"))


def mine_cpp(mirrors: Path) -> dict[str, str]:
    """The engines' C++ checks, mined at the newest revision SOURCES.json names (file -> text)."""
    spec = json.loads((ROOT / "data" / "SOURCES.json").read_text(encoding="utf-8"))
    out = {}
    for repo, under in CPP_SOURCES:
        source = next(s for s in spec["sources"] if s["repo"] == repo)
        revision = source["revisions"][-1]
        key = source["git"].removeprefix("https://github.com/").replace("/", "+")
        envelopes, stats = mine_cpp_git(
            mirrors / key / "repo", revision["sha"], repo=repo, under=under, analyzed_at=ANALYZED_AT
        )
        print(
            f"{repo} {under}/ at {revision['label']} ({revision['sha'][:12]}): {stats.files} files,"
            f" {stats.sites} check sites, {stats.records} records ({stats.wordless} without"
            f" words, {stats.duplicates} repeated in a file); {dict(stats.by_macro)}"
        )
        out[repo.replace("/", "__") + ".cpp.jsonl"] = _dumps(envelopes)
    return out


def _hand_curated() -> dict[str, list[str]]:
    """Tags by id of the engines' hand-curated records (``curated/<owner>__<name>.jsonl``)."""
    spec = json.loads((ROOT / "data" / "SOURCES.json").read_text(encoding="utf-8"))
    tags: dict[str, list[str]] = {}
    for name in spec["curated"]:
        if name.count(".") > 1:  # *.native.jsonl, *.wrappers.jsonl: this script's own output
            continue
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)["record"]
            tags[record["id"]] = record.get("tags", [])
    return tags


def wrapper_files() -> dict[str, str]:
    """The engines' wrapper records, curated over their mined records in the bundled catalog."""
    from errcat.catalog import Catalog

    catalog = Catalog.bundled()
    curated = _hand_curated()
    for rid in wrappers.CURATED_WRAPPERS:  # curated by hand: their text wins, tagged
        if wrappers.WRAPPER_TAG not in curated.get(rid, []):
            raise SystemExit(f"curated record {rid} must carry the tag {wrappers.WRAPPER_TAG}")
    mined = {}
    for rid in wrappers.WRAPPERS:
        record = catalog.get(rid)
        if record is None:
            raise SystemExit(f"wrapper record {rid} is not in the bundled catalog")
        mined[rid] = json.loads(record.model_dump_json(by_alias=True))
    envelopes = wrappers.wrapper_envelopes(mined, ANALYZED_AT)
    by_repo: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for envelope in envelopes:
        by_repo[envelope["record"]["repo"]].append(envelope)
    return {repo.replace("/", "__") + ".wrappers.jsonl": _dumps(e) for repo, e in by_repo.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "curated")
    parser.add_argument("--check", action="store_true", help="fail when a file would change")
    parser.add_argument("--cpp", action="store_true", help="also mine the engines' C++ checks")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    args = parser.parse_args(argv)
    stale = []
    rendered = {**render(), **render(HTTP_SPECS, "http"), **wrapper_files()}
    files = {args.out / name: text for name, text in rendered.items()}
    if args.cpp:
        files.update({ROOT / "native" / n: t for n, t in mine_cpp(args.mirrors).items()})
    for path, text in files.items():
        name = path.name
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
