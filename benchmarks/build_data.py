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
import dataclasses
import functools
import gzip
import hashlib
import itertools
import json
import pickle
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import errcat.mine
from errcat.history import Revision, sidecar_path
from errcat.loaders import MANIFEST_NAME, SOURCES_NAME, iter_path, read_manifest
from errcat.mine import reanchor
from errcat.mine.curated import old_wordings
from errcat.mine.dists import dist_snapshot, join_snapshots
from errcat.mine.git import GitRepo, git_snapshots, mined_folders
from errcat.mine.history import HistoryResult, Snapshot, build_history, with_curated
from errcat.models import GENERATED_TAG, RecordEnvelope
from errcat.release import build, canonical_files, check, records_file_name
from mine_wheels import (
    DEFAULT_CACHE,
    ZERO_SHA,
    built_at,
    download,
    mine_folder,
    unpack,
    wheel_commit,
)
from stack_closure import wheel_metadata

ROOT = Path(__file__).resolve().parents[1]
README_BEGIN = "<!-- bundled-knowledge:begin (written by benchmarks/build_data.py) -->"
README_END = "<!-- bundled-knowledge:end -->"


@dataclass(frozen=True)
class Pinned:
    """A wheel the release pins (``Requires-Dist: dist==version``) built from the same repo.

    sglang's wheel pins ``sglang-kernel``, whose Python package lives in sglang's
    repository at ``sgl-kernel/python/sgl_kernel``: its files join the newest
    revision of the history, at ``path_prefix`` (the package folder in the repo).
    """

    dist: str
    version: str
    package: str
    path_prefix: str

    @classmethod
    def of(cls, data: dict[str, Any]) -> Pinned:
        """Read an entry of a source's ``pinnedWheels`` (camelCase keys)."""
        return cls(
            dist=str(data["dist"]),
            version=str(data["version"]),
            package=str(data["package"]),
            path_prefix=str(data["pathPrefix"]).strip("/"),
        )


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
    #: kind "history": the git repository the revisions come from, the folders mined
    #: (one or several), and which revisions.
    git: str = ""
    under: tuple[str, ...] = ()
    revisions: tuple[tuple[str, str], ...] = ()
    tag: str = ""
    #: kind "history": wheels the release pins, mined with it as the newest revision.
    pinned: tuple[Pinned, ...] = ()

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
            git=str(data.get("git", "")),
            under=mined_folders(data.get("under", ())),
            revisions=tuple((str(r["label"]), str(r["sha"])) for r in data.get("revisions", ())),
            tag=str(data.get("tag", "")),
            pinned=tuple(Pinned.of(p) for p in data.get("pinnedWheels", ())),
        )

    def under_json(self) -> str | list[str]:
        """``under`` as ``SOURCES.json`` and the manifest write it: one folder, or a list."""
        return self.under[0] if len(self.under) == 1 else list(self.under)


@dataclass
class Mined:
    """What mining one source gave: its records and the facts the manifest and README show."""

    source: Source
    envelopes: list[RecordEnvelope]
    sha: str
    sha_note: str
    seconds: float
    history: HistoryResult | None = None


def mine_wheel(source: Source, cache: Path, workers: int) -> Mined:
    """Mine the wheel of ``dist==version`` (downloaded into ``cache`` unless already there)."""
    started = time.perf_counter()
    wheel = download(source.dist, source.version, cache)
    folder = unpack(wheel, source.package, cache / f"{source.dist}-{source.version}")
    if source.sha:
        sha, note = source.sha, "named in SOURCES.json"
    else:
        sha, note = wheel_commit(wheel, source.package)
    result = mine_folder(
        wheel, folder, repo=source.repo, path_prefix=source.path_prefix, sha=sha, workers=workers
    )
    return Mined(source, list(result.envelopes), sha, note, time.perf_counter() - started)


def git_dir_of(source: Source, mirrors: Path) -> Path:
    """The local clone of ``source.git`` under ``mirrors``: ``OWNER+NAME/repo``, ``.git`` or bare."""
    owner_name = source.git.rstrip("/").removesuffix(".git").split("github.com/")[-1]
    key = owner_name.replace("/", "+")
    for candidate in (mirrors / key / "repo", mirrors / f"{key}.git", mirrors / key):
        if (candidate / "HEAD").is_file() or (candidate / ".git").exists():
            return candidate
    raise SystemExit(
        f"{source.repo}: no clone of {source.git} under {mirrors} "
        f"(git clone --bare {source.git} {mirrors / key / 'repo'})"
    )


def mine_history(source: Source, cache: Path, workers: int, mirrors: Path) -> Mined:
    """Mine the git revisions ``source.revisions`` then the wheel, as one history of lineages.

    The wheel is the newest revision: its records carry 40 zeros as their
    commit (a wheel records none) and link to the release tag instead.
    """
    started = time.perf_counter()
    repo = GitRepo(git_dir_of(source, mirrors))
    commits = [(label, repo.commit(sha)) for label, sha in source.revisions]
    for (label, sha), (_, commit) in zip(source.revisions, commits, strict=True):
        if commit.sha != sha:
            raise SystemExit(f"{source.repo}: revision {label} is {commit.sha}, not {sha}")
    wheel = download(source.dist, source.version, cache)
    when = built_at(wheel)
    released = join_snapshots(
        wheel_snapshot(source.version, wheel, source.path_prefix),
        *(pinned_snapshot(source, wheel, pin, cache) for pin in source.pinned),
    )
    released = dataclasses.replace(
        released, revision=dataclasses.replace(released.revision, sha=ZERO_SHA, date=when)
    )
    snapshots = itertools.chain(git_snapshots(repo, commits, under=source.under), [released])
    store = load_scans(cache, source.repo)
    total = len(commits) + 1

    def progress(index: int, revision: Revision) -> None:  # a long step: say where it is
        elapsed = time.perf_counter() - started
        print(f"  revision {index + 1}/{total} {revision.label} ({elapsed:.0f} s)", flush=True)

    result = build_history(
        snapshots,
        repo=source.repo,
        analyzed_at=when,
        workers=workers,
        scans=store,
        progress=progress,
    )
    save_scans(cache, source.repo, store)
    for stats in result.revisions:
        print(
            f"  {source.repo} {stats.revision.label}: {stats.records} records "
            f"({stats.new} new, {stats.reworded} reworded, {stats.removed} removed)",
            flush=True,
        )
    envelopes = [_tag_link(e, source) for e in result.envelopes]
    return Mined(
        source,
        envelopes,
        ZERO_SHA,
        f"{len(commits)} git revisions + wheel {source.version} (no commit: tag link)",
        time.perf_counter() - started,
        result,
    )


def wheel_snapshot(label: str, wheel: Path, path_prefix: str) -> Snapshot:
    """The files of a wheel's package at their repo paths (``path_prefix``: its folder there).

    Only the package folder is kept: a wheel may carry other top-level packages
    (sglang-kernel's ships a copy of triton's ``triton_kernels``).
    """
    prefix = path_prefix.rsplit("/", 1)[0] if "/" in path_prefix else ""
    snapshot = dist_snapshot(label, wheel, path_prefix=prefix)
    kept = [f for f in snapshot.files if f[0].startswith(path_prefix + "/")]
    return dataclasses.replace(snapshot, files=kept)


def pinned_version(wheel: Path, dist: str) -> str | None:
    """The version ``wheel``'s metadata pins ``dist`` to (``Requires-Dist: dist==V``), if any.

    A requirement with a marker or an extra only is not a pin of the release.
    """
    wanted = canonicalize_name(dist)
    for line in wheel_metadata(wheel)[2]:
        req = Requirement(line)
        if canonicalize_name(req.name) != wanted or req.marker is not None:
            continue
        pins = [s.version for s in req.specifier if s.operator in ("==", "===")]
        if len(pins) == 1 and "*" not in pins[0]:
            return pins[0]
    return None


def pinned_snapshot(source: Source, wheel: Path, pin: Pinned, cache: Path) -> Snapshot:
    """The pinned wheel's package as part of the newest revision (the pin is checked first)."""
    pinned = pinned_version(wheel, pin.dist)
    if pinned != pin.version:
        raise SystemExit(
            f"{SOURCES_NAME}: {source.repo}'s pinnedWheels names {pin.dist}=={pin.version}, "
            f"but {wheel.name} requires {pin.dist}=={pinned or '(no exact pin)'}"
        )
    return wheel_snapshot(pin.version, download(pin.dist, pin.version, cache), pin.path_prefix)


#: The modules of errcat.mine whose code decides what a file's scan holds.
SCAN_MODULES = (
    "captures",
    "evaluate",
    "facts",
    "files",
    "guards",
    "logged",
    "names",
    "options",
    "raisers",
    "scan",
    "templates",
    "values",
    "walk",
)


def _scans_file(cache: Path, repo: str) -> Path:
    """Where the file scans of a repo's history are kept, for this code of the miner.

    The name holds a digest of the source of the miner's per-file scan
    (:data:`SCAN_MODULES`): a change there starts a new file. Advice and
    history are worked out again on every build, from the scans.
    """
    return cache / "scans" / f"{repo.replace('/', '__')}.{_scan_code_digest()}.pickle"


@functools.cache
def _scan_code_digest() -> str:
    """A digest of the scan code, read once per run (the scans are made by that code)."""
    mine_dir = Path(errcat.mine.__file__).parent
    digest = hashlib.sha256()
    for name in SCAN_MODULES:
        path = mine_dir / f"{name}.py"
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def load_scans(cache: Path, repo: str) -> dict[tuple[str, str, bool], Any]:
    """The file scans kept from an earlier build with the same miner (empty if none)."""
    path = _scans_file(cache, repo)
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as fh:
            found = pickle.load(fh)  # our own cache, written by save_scans
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, TypeError):
        return {}
    return found if isinstance(found, dict) else {}


def save_scans(cache: Path, repo: str, scans: dict[tuple[str, str, bool], Any]) -> None:
    """Keep the file scans for the next build (one file per repo and miner code)."""
    path = _scans_file(cache, repo)
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.glob(f"{repo.replace('/', '__')}.*.pickle"):
        stale.unlink()
    partial = path.with_suffix(".partial")
    with partial.open("wb") as fh:
        pickle.dump(scans, fh, protocol=pickle.HIGHEST_PROTOCOL)
    partial.replace(path)


def _tag_link(envelope: RecordEnvelope, source: Source) -> RecordEnvelope:
    """A record of the wheel (40-zero commit) links to the release tag, which GitHub resolves."""
    record = envelope.record
    if record.analyzed_sha != ZERO_SHA or not source.tag:
        return envelope
    url = record.github_url.replace(f"/blob/{ZERO_SHA}/", f"/blob/{source.tag}/")
    return envelope.model_copy(update={"record": record.model_copy(update={"github_url": url})})


#: How each ``kind`` of source is mined: a PyPI wheel alone, or git revisions then the wheel.
MINERS: dict[str, Callable[[Source, Path, int, Path], Mined]] = {
    "wheel": lambda source, cache, workers, _mirrors: mine_wheel(source, cache, workers),
    "history": mine_history,
}


def mine_all(sources: Sequence[Source], cache: Path, workers: int, mirrors: Path) -> list[Mined]:
    """Mine every source (the miner writes each record's advice as it goes)."""
    out = []
    for source in sources:
        miner = MINERS.get(source.kind)
        if miner is None:
            raise SystemExit(f"{SOURCES_NAME}: unknown source kind {source.kind!r}")
        print(f"mining {source.repo} ({source.kind})", flush=True)
        out.append(miner(source, cache, workers, mirrors))
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
        if part.history is not None:
            lineages = dataclasses.replace(part.history, envelopes=tuple(part.envelopes))
            part.history = with_curated(lineages, ours)
            # Re-anchored curated records too link to the release tag, not 40 zeros.
            out.extend(_tag_link(e, part.source) for e in part.history.envelopes)
            notes.append(
                f"{part.source.repo}: {len(ours)} curated records on their lineages, "
                f"{part.history.unmatched_curated} matching no lineage (kept as they were)"
            )
            continue
        result = reanchor(ours, part.envelopes)
        out.extend(result.envelopes)  # the curated records, moved to their raise sites now
        # A curated record that took a new wording keeps answering its old one.
        out.extend(old_wordings({e.record.id: e for e in ours}, result.envelopes))
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


def _lineage_counts(result: HistoryResult) -> dict[str, Any]:
    """What a history source adds to its ``builtFrom`` entry: revisions and lineage counts."""
    history = result.history
    status = Counter(lin.status for lin in history)
    return {
        "revisions": len(history.revisions),
        "from": history.revisions[0].date.strftime("%Y-%m-%d"),
        "to": history.revisions[-1].date.strftime("%Y-%m-%d"),
        "lineages": len(history),
        "reworded": status["reworded"],
        "removed": status["removed"],
    }


def sidecar_name(repo: str) -> str:
    """The history sidecar of a repo in ``data/``: ``records/OWNER__NAME.history.json.gz``."""
    return sidecar_path(records_file_name(repo)).as_posix() + ".gz"


def history_files(mined: Sequence[Mined]) -> dict[str, bytes]:
    """Each history source's sidecar, gzip-compressed canonically, by its name in ``data/``."""
    out: dict[str, bytes] = {}
    for part in mined:
        if part.history is None:
            continue
        name = sidecar_name(part.source.repo)
        with tempfile.TemporaryDirectory() as tmp:
            plain = Path(tmp) / "h.json"
            part.history.history.dump(plain)
            out[name] = gzip.compress(plain.read_bytes(), compresslevel=9, mtime=0)
    return out


def write_records(data: Path, envelopes: list[RecordEnvelope], sidecars: dict[str, bytes]) -> None:
    """Replace the records of ``data`` by ``envelopes``, compressed, one file per repo, and
    the history sidecars by ``sidecars``."""
    records = data / "records"
    records.mkdir(parents=True, exist_ok=True)
    files = {**canonical_files(envelopes, compress=True), **sidecars}
    for stale in records.iterdir():
        if f"records/{stale.name}" not in files:
            stale.unlink()
    for name, blob in files.items():
        (data / name).write_bytes(blob)


def readme_section(manifest: dict[str, Any]) -> str:
    """The README's "Bundled knowledge" section, written from a manifest."""
    built = manifest.get("builtFrom") or []
    count = manifest["count"]
    curated = manifest.get("curated", 0)
    advice = sum(int(e.get("generatedAdvice", 0)) for e in built)
    lines = [
        README_BEGIN,
        "",
        f"Data version `{manifest['dataVersion']}`: {count:,} records. {curated} are curated",
        f"by hand; the other {count - curated:,} were mined from the projects' code, and",
        f"{advice:,} of them ({advice / max(count, 1):.0%} of all) carry documentation and",
        "solutions generated from the code at their raise site (tagged `errcat:generated`).",
        "",
        "| project | newest source | history (git revisions) | records | reworded / removed | curated |",
        "|---|---|---|---|---|---|",
    ]
    for entry in built:
        sha = entry["sha"]
        commit = f"tag `{entry['tag']}`" if entry.get("tag") else "commit unknown"
        if set(sha) != {"0"}:
            commit = f"`{sha[:12]}`"
        newest = (
            f"{entry['dist']}=={entry['version']} wheel (built {entry['builtAt'][:10]}, {commit})"
        )
        pinned = [f"{p['dist']}=={p['version']}" for p in entry.get("pinnedWheels", ())]
        if pinned:
            newest += f" with the {', '.join(pinned)} wheel it pins"
        if entry.get("revisions"):
            fork = str(entry.get("git", "")).removeprefix("https://github.com/")
            history = f"{entry['revisions'] - 1} from {entry['from']} to the wheel ({fork})"
            changed = f"{entry['reworded']:,} / {entry['removed']:,}"
        else:
            history, changed = "none", "-"
        lines.append(
            f"| {entry['repo']} | {newest} | {history} | {entry['records']:,} | {changed} | "
            f"{entry['curated']} |"
        )
    lines += [
        "",
        "Each record is one message as the newest source raises it; a message that was",
        "reworded or removed since an older revision keeps its own record, linked to its",
        "successor (`errcat match` says so), so errors pasted from older versions answer too.",
        "A raise without a message (`assert x is not None`) has no text to follow: its lineage",
        "follows its statement in its function (wherever its line), so one an older version",
        "had keeps its record too, answered by the statement or line its traceback shows.",
        "The exact commits are listed in `data/SOURCES.json` and the manifest's `builtFrom`.",
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


def verify(data: Path, readme: Path) -> list[str]:
    """What is wrong with a committed ``data/`` (empty when nothing), without re-mining it.

    Every file the manifest lists (records and history sidecars) must have its
    sha256, no other data file may sit beside them, the sources the manifest says
    it was built from must be those ``SOURCES.json`` names, the README's section
    must be the one the manifest gives, and ``errcat release check`` must pass.
    """
    problems: list[str] = []
    manifest = read_manifest(data)
    listed = {**manifest.get("files", {}), **manifest.get("history", {})}
    for name, meta in sorted(listed.items()):
        path = data / name
        if not path.is_file():
            problems.append(f"{name}: listed in the manifest but missing")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != meta.get("sha256"):
            problems.append(f"{name}: sha256 differs from the manifest's")
    for path in sorted((data / "records").iterdir()):
        if f"records/{path.name}" not in listed:
            problems.append(f"records/{path.name}: not listed in the manifest")
    spec = json.loads((data / SOURCES_NAME).read_text(encoding="utf-8"))
    wanted = [(s["repo"], s.get("version")) for s in spec["sources"]]
    built = [(b["repo"], b.get("version")) for b in manifest.get("builtFrom", [])]
    if wanted != built:
        problems.append(f"manifest built from {built}, SOURCES.json names {wanted}")
    for source in spec["sources"]:
        name = sidecar_name(source["repo"])
        if source.get("revisions"):
            have = [
                r["sha"] for r in manifest.get("history", {}).get(name, {}).get("revisions", [])
            ]
            if have[: len(source["revisions"])] != [r["sha"] for r in source["revisions"]]:
                problems.append(f"{name}: revisions differ from those SOURCES.json names")
    text = readme.read_text(encoding="utf-8")
    if readme_section(manifest) not in text:
        problems.append(f"{readme}: the bundled-knowledge section is not the manifest's")
    report = check([data])
    problems.extend(str(f) for f in report.findings if f.level == "error")
    print(
        f"release check: {report.records:,} records, {report.count('error')} errors, "
        f"{report.count('warning')} warnings in {report.seconds:.0f} s"
    )
    return problems


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--cache", type=Path, default=DEFAULT_CACHE, help="wheels and unpacked trees"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--mirrors",
        type=Path,
        default=Path("/work/.mirror"),
        help="where the git clones of history sources are (OWNER+NAME/repo or OWNER+NAME.git)",
    )
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    parser.add_argument(
        "--verify",
        action="store_true",
        help="check the committed data against its manifest and sources (what CI runs)",
    )
    args = parser.parse_args(argv)
    data: Path = args.data
    if args.verify:
        problems = verify(data, args.readme)
        for problem in problems:
            print(problem)
        if problems:
            raise SystemExit(f"{data}: {len(problems)} problem(s)")
        print(f"{data}: verified against its manifest and {SOURCES_NAME}")
        return
    spec = json.loads((data / SOURCES_NAME).read_text(encoding="utf-8"))
    sources = [Source.of(s) for s in spec["sources"]]
    curated = read_curated([ROOT / p for p in spec.get("curated", [])])
    args.cache.mkdir(parents=True, exist_ok=True)
    mined = mine_all(sources, args.cache, args.workers, args.mirrors)
    envelopes, notes = overlay(mined, curated)
    # The engines' C++ checks (benchmarks/build_native.py --cpp), mined apart: added as they are.
    envelopes.extend(read_curated([ROOT / p for p in spec.get("native", [])]))
    sidecars = history_files(mined)
    write_records(data, envelopes, sidecars)
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
            # Generated advice that says something: documentation and at least one solution.
            "generatedAdvice": sum(
                1
                for e in envelopes
                if e.record.repo == m.source.repo
                and GENERATED_TAG in e.record.tags
                and e.record.documentation
                and e.record.solutions
            ),
            **({"tag": m.source.tag} if m.source.tag else {}),
            **({"git": m.source.git, "under": m.source.under_json()} if m.source.git else {}),
            **(
                {"pinnedWheels": [{"dist": p.dist, "version": p.version} for p in m.source.pinned]}
                if m.source.pinned
                else {}
            ),
            **(_lineage_counts(m.history) if m.history is not None else {}),
        }
        for m in mined
    ]
    manifest["history"] = {}
    for part in mined:
        if part.history is not None:
            history = part.history.history
            name = sidecar_name(part.source.repo)
            manifest["history"][name] = {
                "sha256": hashlib.sha256(sidecars[name]).hexdigest(),
                "lineages": len(history),
                "revisions": [
                    {"label": r.label, "sha": r.sha, "date": r.date.strftime("%Y-%m-%d")}
                    for r in history.revisions
                ],
            }
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
