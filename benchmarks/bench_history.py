"""Benchmark ``errcat history`` on git mirrors at quarterly revisions.

Run with ``python benchmarks/bench_history.py [--since 2024-01-01] [--every 90d]
[NAME=GIT_DIR:OWNER/REPO:SUBDIR ...]``; the defaults are the sglang and vllm
mirrors under ``/work/.mirror``. For each project it mines the newest tree once
(the baseline) and then the whole history, each in a fresh process so that the
peak memory (max RSS) is its own, and prints two tables: build time (CPU
seconds, which a shared machine disturbs less than wall time, shown in
brackets) against the baseline with the lineage counts, and records per
revision.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from datetime import datetime, timezone

DEFAULT = [
    "sglang=/work/.mirror/modal-projects+sglang/repo:sgl-project/sglang:python",
    "vllm=/work/.mirror/local-inference-lab+vllm/repo:vllm-project/vllm:vllm",
]


def child(spec: str, since: str, every: str, newest_only: bool) -> None:
    """Measure one build in this process and print its figures as JSON."""
    from errcat.mine.git import GitRepo, git_snapshots, parse_every
    from errcat.mine.history import build_history

    _name, _, rest = spec.partition("=")
    git_dir, repo_name, under = rest.split(":")
    repo = GitRepo(git_dir)
    start = datetime.fromisoformat(since).replace(tzinfo=timezone.utc)
    commits = repo.first_parent_since(start, parse_every(every))
    if newest_only:
        commits = commits[-1:]
    labelled = [(f"{c.date:%Y-%m-%d}", c) for c in commits]
    started = time.perf_counter()
    cpu = time.process_time()
    result = build_history(git_snapshots(repo, labelled, under=under), repo=repo_name)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu
    status = [lin.status for lin in result.history]
    history = result.history
    across = 0
    for lin in history:
        before = history.lineage(lin.predecessor) if lin.predecessor else None
        if before is not None and before.current.file_path != lin.sites[0].file_path:
            across += 1
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu": cpu,
                "across": across,
                "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "lineages": len(result.envelopes),
                "current": status.count("current"),
                "reworded": status.count("reworded"),
                "removed": status.count("removed"),
                "revisions": [s.as_dict() for s in result.revisions],
            }
        )
    )


def measure(spec: str, since: str, every: str, newest_only: bool) -> dict[str, object]:
    """Run :func:`child` in a fresh interpreter and read its figures."""
    argv = [sys.executable, __file__, "--child", spec, "--since", since, "--every", every]
    if newest_only:
        argv.append("--newest-only")
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    figures: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main(argv: list[str] | None = None) -> None:
    """Print the tables for each project."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="*", default=DEFAULT)
    parser.add_argument("--since", default="2024-01-01")
    parser.add_argument("--every", default="90d")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--newest-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.since, args.every, args.newest_only)
        return
    rows = []
    per_revision: list[tuple[str, list[dict[str, object]]]] = []
    for spec in args.projects:
        name = spec.partition("=")[0]
        one = measure(spec, args.since, args.every, newest_only=True)
        full = measure(spec, args.since, args.every, newest_only=False)
        revisions = full["revisions"]
        assert isinstance(revisions, list)
        parsed = sum(int(r["parsed"]) for r in revisions)
        newest_files = int(revisions[-1]["files"])
        rows.append(
            (
                name,
                len(revisions),
                f"{one['cpu']:.0f} ({one['seconds']:.0f})",
                f"{full['cpu']:.0f} ({full['seconds']:.0f})",
                f"{float(full['cpu']) / float(one['cpu']):.1f}x",  # type: ignore[arg-type]
                f"{parsed}/{newest_files}",
                full["lineages"],
                full["current"],
                f"{full['reworded']} ({full['across']})",
                full["removed"],
                f"{one['peak_mb']:.0f}",
                f"{full['peak_mb']:.0f}",
            )
        )
        per_revision.append((name, revisions))
    head = (
        "project",
        "revs",
        "newest CPU s (wall)",
        "history CPU s (wall)",
        "CPU ratio",
        "files parsed/newest",
        "lineages",
        "current",
        "reworded (to another file)",
        "removed",
        "newest MB",
        "history MB",
    )
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")
    print()
    print(
        "| project | revision | date | files | parsed | records | new | moved | reworded | removed |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, revisions in per_revision:
        for r in revisions:
            print(
                f"| {name} | {str(r['sha'])[:7]} | {str(r['date'])[:10]} | {r['files']} | "
                f"{r['parsed']} | {r['records']} | {r['new']} | {r['moved']} | "
                f"{r['reworded']} | {r['removed']} |"
            )


if __name__ == "__main__":
    main()
