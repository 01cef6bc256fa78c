"""Mine the newest sglang and vllm releases on PyPI into catalogs for the paste benchmark.

Run with ``python benchmarks/mine_wheels.py [--cache DIR] [--workers N]``. It
downloads each project's newest wheel with ``pip download --no-deps
--only-binary :all:`` (once: a wheel already in the cache is re-used), unpacks
its package folder and mines it with :func:`errcat.mine.mine_paths`, file paths
prefixed as in the project's repository (``python/sglang/...``, ``vllm/...``).
The commit is the one the wheel records in ``_version.py`` when it is a full
40-digit sha; otherwise 40 zeros, and the script says so. It writes
``catalog-sglang.jsonl``, ``catalog-vllm.jsonl`` and their union
``catalog-sglang-vllm.jsonl`` into the cache and prints counts and timings.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from errcat.loaders import write_jsonl
from errcat.mine import MineResult, mine_paths

DEFAULT_CACHE = Path("/root/.cache/errcat-bench/wheels")
ZERO_SHA = "0" * 40


@dataclass(frozen=True)
class Project:
    """A PyPI distribution, its package folder in the wheel and where that folder sits in its repo."""

    dist: str
    package: str
    repo: str
    path_prefix: str


PROJECTS = (
    Project("sglang", "sglang", "sgl-project/sglang", "python/sglang"),
    Project("vllm", "vllm", "vllm-project/vllm", "vllm"),
)


def newest_version(dist: str) -> str:
    """The newest release of ``dist`` on PyPI, asked through pip (``pip index versions``)."""
    out = subprocess.run(
        [sys.executable, "-m", "pip", "index", "versions", dist],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    match = re.search(rf"^{re.escape(dist)} \(([^)]+)\)", out, re.MULTILINE)
    if match is None:
        # Older pips lack `index`; fall back to PyPI's JSON API (the same registry).
        with urllib.request.urlopen(f"https://pypi.org/pypi/{dist}/json", timeout=60) as resp:
            return str(json.load(resp)["info"]["version"])
    return match.group(1)


def download(dist: str, version: str, cache: Path) -> Path:
    """The wheel of ``dist==version`` in ``cache``, downloaded unless already there.

    A wheel's file name spells the distribution with underscores (``sglang-kernel``
    is saved as ``sglang_kernel-0.4.10-...whl``): both spellings are looked for.
    """
    stem = re.sub(r"[-_.]+", "_", dist)
    pattern = f"{stem}-{version}-*.whl"

    def cached() -> list[Path]:
        named = {*cache.glob(f"{dist}-{version}-*.whl"), *cache.glob(pattern)}
        return sorted(named)

    found = cached()
    if not found:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary",
                ":all:",
                "--dest",
                str(cache),
                f"{dist}=={version}",
            ],
            check=True,
        )
        found = cached()
    if not found:
        raise SystemExit(f"pip download left no {pattern} in {cache}")
    return found[-1]


def unpack(wheel: Path, package: str, dest: Path) -> Path:
    """Extract the ``.py`` files of ``package`` from ``wheel`` into ``dest``; the package folder."""
    target = dest / package
    if target.is_dir():
        return target
    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    with zipfile.ZipFile(wheel) as zf:
        members = [n for n in zf.namelist() if n.startswith(f"{package}/") and n.endswith(".py")]
        zf.extractall(tmp, members)
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return target


def recorded_commit(wheel: Path, package: str) -> str | None:
    """The commit id the wheel's ``_version.py`` records (``__commit_id__``), if any."""
    with zipfile.ZipFile(wheel) as zf:
        try:
            text = zf.read(f"{package}/_version.py").decode()
        except KeyError:
            return None
    match = re.search(r"__commit_id__\s*=\s*commit_id\s*=\s*'([^']*)'", text)
    return match.group(1) if match else None


def built_at(wheel: Path) -> datetime:
    """The timestamp of the wheel's METADATA entry (a stable ``analyzedAt`` for the run)."""
    with zipfile.ZipFile(wheel) as zf:
        info = next(i for i in zf.infolist() if i.filename.endswith(".dist-info/METADATA"))
    return datetime(*info.date_time, tzinfo=timezone.utc)


def wheel_commit(wheel: Path, package: str) -> tuple[str, str]:
    """The commit to record for a wheel's records, and a note on where it came from."""
    commit = recorded_commit(wheel, package)
    if commit and re.fullmatch(r"[0-9a-f]{40}", commit):
        return commit, "recorded in the wheel"
    if commit:
        return ZERO_SHA, f"wheel records {commit!r}, not a full sha: 40 zeros used"
    return ZERO_SHA, "wheel records no commit: 40 zeros used"


def mine_folder(
    wheel: Path, folder: Path, *, repo: str, path_prefix: str, sha: str, workers: int
) -> MineResult:
    """Mine a wheel's unpacked package folder, stamped with the wheel's build time."""
    return mine_paths(
        [folder],
        repo=repo,
        sha=sha,
        path_prefix=path_prefix,
        analyzed_at=built_at(wheel),
        workers=workers,
    )


def mine_project(project: Project, cache: Path, workers: int) -> tuple[MineResult, dict[str, str]]:
    """Download, unpack and mine one project; the result and a row of facts for the table."""
    started = time.perf_counter()
    version = newest_version(project.dist)
    wheel = download(project.dist, version, cache)
    fetched = time.perf_counter() - started
    folder = unpack(wheel, project.package, cache / f"{project.dist}-{version}")
    sha, sha_note = wheel_commit(wheel, project.package)
    mined_at = time.perf_counter()
    result = mine_folder(
        wheel, folder, repo=project.repo, path_prefix=project.path_prefix, sha=sha, workers=workers
    )
    mined = time.perf_counter() - mined_at
    out = cache / f"catalog-{project.dist}.jsonl"
    write_jsonl(out, result.envelopes)
    row = {
        "project": f"{project.dist}=={version}",
        "wheel MB": f"{wheel.stat().st_size / 1e6:.0f}",
        "files": str(result.stats.files),
        "sites": str(result.stats.sites),
        "records": str(result.stats.records),
        "skipped": str(result.stats.skipped_total),
        "parse errors": str(len(result.stats.parse_errors)),
        "fetch s": f"{fetched:.1f}",
        "mine s": f"{mined:.1f}",
        "sha": sha_note,
    }
    return result, row


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    cache: Path = args.cache
    cache.mkdir(parents=True, exist_ok=True)
    results = []
    rows = []
    for project in PROJECTS:
        result, row = mine_project(project, cache, args.workers)
        results.append(result)
        rows.append(row)
    union = cache / "catalog-sglang-vllm.jsonl"
    total = write_jsonl(union, [e for r in results for e in r.envelopes])
    header = list(rows[0])
    widths = [max(len(h), *(len(r[h]) for r in rows)) for h in header]
    print(" | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("-+-".join("-" * w for w in widths))
    for row in rows:
        print(" | ".join(row[h].ljust(w) for h, w in zip(header, widths, strict=True)))
    print(f"\nwrote {union} ({total} records)")
    for result in results:
        reasons = ", ".join(f"{n} {why}" for why, n in result.stats.skipped.items())
        print(f"{result.repo} skipped: {reasons or 'none'}")


if __name__ == "__main__":
    main()
