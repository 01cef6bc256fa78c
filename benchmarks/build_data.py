"""Rebuild the bundled catalog (``data/``) from the sources ``data/SOURCES.json`` names.

Run with ``python benchmarks/build_data.py [--cache DIR] [--workers N] [--data DIR]``.
For each source it mines the project at the version named (today: the wheel of
a PyPI release, downloaded once into the cache with ``pip download`` and
unpacked), overlays the curated records (``curated/*.jsonl``: a curated record
replaces its mined counterpart and keeps its id, re-anchored to where its check
is now; one whose message is not in the source is kept as it is), and writes
``data/`` canonically: one ``records/<owner>__<name>.jsonl.gz`` per project
(gzip level 9, no name, mtime 0) and ``manifest.json``, through
:func:`errcat.release.build` (which checks every record first). Running it twice
on the same sources gives byte-identical files. It prints a table of counts and
rewrites the README's "Bundled knowledge" section from the manifest.

``SOURCES.json``::

    {
        "sources": [
            {
                "repo": "sgl-project/sglang",
                "kind": "wheel",
                "dist": "sglang",
                "version": "0.5.23",
                "package": "sglang",
                "pathPrefix": "python/sglang",
                "sha": null,
            },
            ...,
        ],
        "curated": ["curated/sgl-project__sglang.jsonl"],
    }

``sha`` is the commit the version was built from, when known (a wheel rarely
records it: then the wheel's ``__commit_id__`` if it is a full sha, else 40
zeros). A source ``kind`` is one of :data:`MINERS`; to mine a project's history
or to generate advice, add a kind (``history``) or a step in :func:`mine_all`
and :func:`overlay`; nothing else changes.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errcat.loaders import MANIFEST_NAME, SOURCES_NAME, iter_path, read_manifest
from errcat.mine import mine_paths, reanchor
from errcat.models import RecordEnvelope
from errcat.release import build, canonical_files
from mine_wheels import DEFAULT_CACHE, ZERO_SHA, built_at, download, recorded_commit, unpack

ROOT = Path(__file__).resolve().parents[1]
README_BEGIN = "<!-- bundled-knowledge:begin (written by benchmarks/build_data.py) -->"
README_END = "<!-- bundled-knowledge:end -->"


@dataclass(frozen=True)
class Source:
    """One entry of ``SOURCES.json``: a project at one version, and how to mine it."""

    repo: str
    kind: str
    dist: str
    version: str
    package: str
    path_prefix: str
    sha: str | None

    @classmethod
    def of(cls, data: dict[str, Any]) -> Source:
        """Read an entry (camelCase keys)."""
        return cls(
            repo=str(data["repo"]),
            kind=str(data.get("kind", "wheel")),
            dist=str(data.get("dist", data["repo"].split("/")[-1])),
            version=str(data["version"]),
            package=str(data.get("package", data.get("dist", data["repo"].split("/")[-1]))),
            path_prefix=str(data.get("pathPrefix", "")),
            sha=data.get("sha"),
        )


@dataclass
class Mined:
    """What mining one source gave: its records and the facts the manifest and README show."""

    source: Source
    envelopes: list[RecordEnvelope]
    sha: str
    sha_note: str
    seconds: float


def mine_wheel(source: Source, cache: Path, workers: int) -> Mined:
    """Mine the wheel of ``dist==version`` (downloaded into ``cache`` unless already there)."""
    started = time.perf_counter()
    wheel = download(source.dist, source.version, cache)
    folder = unpack(wheel, source.package, cache / f"{source.dist}-{source.version}")
    recorded = recorded_commit(wheel, source.package)
    if source.sha:
        sha, note = source.sha, "named in SOURCES.json"
    elif recorded and re.fullmatch(r"[0-9a-f]{40}", recorded):
        sha, note = recorded, "recorded in the wheel"
    else:
        sha, note = ZERO_SHA, "unknown (the wheel records none): 40 zeros"
    result = mine_paths(
        [folder],
        repo=source.repo,
        sha=sha,
        path_prefix=source.path_prefix,
        analyzed_at=built_at(wheel),
        workers=workers,
    )
    return Mined(source, list(result.envelopes), sha, note, time.perf_counter() - started)


#: How each ``kind`` of source is mined. The history of the history issue plugs in here
#: (``"history": mine_history``, reading a git repository's revisions).
MINERS: dict[str, Callable[[Source, Path, int], Mined]] = {"wheel": mine_wheel}


def mine_all(sources: Sequence[Source], cache: Path, workers: int) -> list[Mined]:
    """Mine every source. Generated advice, once it exists, is one more step here."""
    out = []
    for source in sources:
        miner = MINERS.get(source.kind)
        if miner is None:
            raise SystemExit(f"{SOURCES_NAME}: unknown source kind {source.kind!r}")
        out.append(miner(source, cache, workers))
    return out


def read_curated(paths: Sequence[Path]) -> list[RecordEnvelope]:
    """The curated records, strictly read (a bad line stops the build)."""
    out = []
    for path in paths:
        for item in iter_path(path, strict=True):
            assert item.envelope is not None
            out.append(item.envelope)
    return out


def overlay(mined: list[Mined], curated: list[RecordEnvelope]) -> tuple[list[RecordEnvelope], str]:
    """Mined records with the curated ones on top (re-anchored, ids kept); and a report."""
    out: list[RecordEnvelope] = []
    notes: list[str] = []
    for part in mined:
        ours = [e for e in curated if e.record.repo == part.source.repo]
        if not ours:
            out.extend(part.envelopes)
            continue
        result = reanchor(ours, part.envelopes)
        out.extend(result.envelopes)  # the curated records, moved to their raise sites now
        out.extend(result.new_envelopes)  # mined records no curated record stands for
        out.extend(result.removed)  # curated checks not in this source: kept as they were
        notes.append(f"{part.source.repo}: {result.summary()}")
        for env in result.removed:
            notes.append(
                f"  kept {env.record.id} at {env.record.analyzed_sha[:12]} "
                "(its message is not in this source)"
            )
    repos = {m.source.repo for m in mined}
    out.extend(e for e in curated if e.record.repo not in repos)
    return out, "\n".join(notes)


def write_records(data: Path, envelopes: list[RecordEnvelope]) -> None:
    """Replace the records of ``data`` by ``envelopes``, compressed, one file per repo."""
    records = data / "records"
    records.mkdir(parents=True, exist_ok=True)
    files = canonical_files(envelopes, compress=True)
    for stale in records.iterdir():
        if f"records/{stale.name}" not in files:
            stale.unlink()
    for name, blob in files.items():
        (data / name).write_bytes(blob)


def readme_section(manifest: dict[str, Any]) -> str:
    """The README's "Bundled knowledge" section, written from a manifest."""
    built = manifest.get("builtFrom") or []
    lines = [
        README_BEGIN,
        "",
        f"Data version `{manifest['dataVersion']}`: {manifest['count']:,} records "
        f"({manifest.get('curated', 0)} curated, {manifest['count'] - manifest.get('curated', 0):,} "
        "generated by the miner).",
        "",
        "| project | source | commit | records | curated |",
        "|---|---|---|---|---|",
    ]
    for entry in built:
        sha = entry["sha"]
        commit = "unknown" if set(sha) == {"0"} else f"`{sha[:12]}`"
        lines.append(
            f"| {entry['repo']} | {entry['kind']} {entry['dist']}=={entry['version']} "
            f"(built {entry['builtAt'][:10]}) | {commit} | {entry['records']:,} | "
            f"{entry['curated']} |"
        )
    lines += [
        "",
        "Generated records are drafts: message, pattern, class, file, line, snippet and",
        "link, without solutions yet. Curated records carry documentation, solutions and",
        "an example fix.",
        "",
        README_END,
    ]
    return "\n".join(lines)


def update_readme(readme: Path, manifest: dict[str, Any]) -> None:
    """Rewrite the section between the README markers (it must already have them)."""
    text = readme.read_text(encoding="utf-8")
    start, end = text.find(README_BEGIN), text.find(README_END)
    if start < 0 or end < 0:
        raise SystemExit(f"{readme}: no {README_BEGIN!r} ... {README_END!r} section")
    new = text[:start] + readme_section(manifest) + text[end + len(README_END) :]
    readme.write_text(new, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--cache", type=Path, default=DEFAULT_CACHE, help="wheels and unpacked trees"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    args = parser.parse_args(argv)
    data: Path = args.data
    spec = json.loads((data / SOURCES_NAME).read_text(encoding="utf-8"))
    sources = [Source.of(s) for s in spec["sources"]]
    curated = read_curated([ROOT / p for p in spec.get("curated", [])])
    args.cache.mkdir(parents=True, exist_ok=True)
    mined = mine_all(sources, args.cache, args.workers)
    envelopes, notes = overlay(mined, curated)
    write_records(data, envelopes)
    # A fresh manifest each time: the release's facts come from the records and sources only.
    (data / MANIFEST_NAME).write_text(
        json.dumps({"allowDrafts": True, "files": {}}) + "\n", encoding="utf-8"
    )
    started = time.perf_counter()
    result = build(data, dist=args.cache / "dist", allow_drafts=True)
    checked = time.perf_counter() - started
    curated_ids = {e.record.id for e in curated}
    manifest = result.manifest
    manifest["curated"] = sum(1 for i in manifest["ids"] if i in curated_ids)
    manifest["builtFrom"] = [
        {
            "repo": m.source.repo,
            "kind": m.source.kind,
            "dist": m.source.dist,
            "version": m.source.version,
            "pathPrefix": m.source.path_prefix,
            "sha": m.sha,
            "builtAt": m.envelopes[0].record.analyzed_at.strftime("%Y-%m-%dT%H:%M:%SZ")
            if m.envelopes
            else "",
            "records": manifest["counts"]["byRepo"].get(m.source.repo, 0),
            "curated": sum(1 for e in curated if e.record.repo == m.source.repo),
        }
        for m in mined
    ]
    (data / MANIFEST_NAME).write_text(
        json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    update_readme(args.readme, read_manifest(data))
    print("repo | version | commit | records | mine s")
    for m in mined:
        print(
            f"{m.source.repo} | {m.source.version} | {m.sha_note} | "
            f"{manifest['counts']['byRepo'].get(m.source.repo, 0)} | {m.seconds:.0f}"
        )
    print(notes)
    sizes = {name: (data / name).stat().st_size for name in manifest["files"]}
    for name, size in sizes.items():
        print(f"{name}: {size / 1e6:.1f} MB compressed")
    print(f"release check {checked:.0f} s; data version {manifest['dataVersion']}")


if __name__ == "__main__":
    main()
