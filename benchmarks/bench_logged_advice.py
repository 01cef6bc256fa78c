"""How much of the advice of logged errors names a lever, and whether it asks for a traceback.

Run: .venv/bin/python benchmarks/bench_logged_advice.py [--mirrors DIR] [--out FILE]

Mines a few folders of sglang and vllm revisions from the git mirrors
(``/work/.mirror/<owner>+<name>/repo``, read with ``git show``; nothing is
checked out): vllm's V0 scheduler with its config and engine arguments (at
``a738dbb2a``, before V0 was removed), vllm's V1 core, engine and config, and
sglang's managers, memory cache, server arguments and environment at the
mirror's head. For the records of log calls (tag ``errcat:logged``) it prints,
per mine:

* flag: records whose solutions name a command-line flag (``--x``);
* flag/env: ... or an environment variable;
* internal: records whose solutions say the check is internal;
* tb words: records whose advice asks for what a log line does not have ("the
  whole traceback", "shown above this error in the traceback", "the cause is
  shown above it"; goal 0);
* warning note: WARNING records whose advice says they may be acted on or left
  alone (goal: all of them).

``--out`` writes each logged record's message, documentation and solutions
(JSON lines), to compare two runs.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from errcat.mine import mine_paths
from errcat.models import ErrorRecord
from errcat.tags import LOGGED_TAG

MIRRORS = Path("/work/.mirror")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
ENV = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]{2,}\b")
TRACEBACK_WORDS = ("whole traceback", "above this error in the traceback", "shown above it")


@dataclass(frozen=True)
class Mine:
    """Folders of one revision of a mirror, and the package folder to mine among them."""

    label: str
    mirror: str  # owner+name
    revision: str
    paths: tuple[str, ...]
    package: str  # the folder holding the package's top-level __init__.py


MINES = (
    Mine(
        "vllm@a738dbb (V0)",
        "local-inference-lab+vllm",
        "a738dbb2a",
        ("vllm/core", "vllm/engine", "vllm/config.py", "vllm/envs.py", "vllm/sequence.py"),
        "vllm",
    ),
    Mine(
        "vllm@HEAD (V1)",
        "local-inference-lab+vllm",
        "HEAD",
        ("vllm/v1/core", "vllm/v1/engine", "vllm/config", "vllm/engine", "vllm/envs.py"),
        "vllm",
    ),
    Mine(
        "sglang@HEAD",
        "modal-projects+sglang",
        "HEAD",
        (
            "python/sglang/srt/managers",
            "python/sglang/srt/mem_cache",
            "python/sglang/srt/server_args.py",
            "python/sglang/srt/arg_groups",
            "python/sglang/srt/environ.py",
        ),
        "python/sglang",
    ),
)


def export(repo: Path, revision: str, paths: Sequence[str], target: Path) -> int:
    """Write the ``.py`` files under some paths of a revision into ``target``; how many."""
    listed = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "-r", "--name-only", revision, "--", *paths],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    names = [n for n in listed if n.endswith(".py")]
    for name in names:
        blob = subprocess.run(
            ["git", "-C", str(repo), "show", f"{revision}:{name}"], capture_output=True, check=True
        ).stdout
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(blob)
    return len(names)


def figures(records: Sequence[ErrorRecord]) -> dict[str, int]:
    """The counts of the table for the logged records of one mine."""
    logged = [r for r in records if LOGGED_TAG in r.tags]
    warnings = [r for r in logged if r.error_class == "WARNING"]

    def says(r: ErrorRecord, words: Sequence[str]) -> bool:
        return any(w in text for text in (r.documentation, *r.solutions) for w in words)

    return {
        "records": len(records),
        "logged": len(logged),
        "flag": sum(1 for r in logged if any(FLAG.search(s) for s in r.solutions)),
        "flag/env": sum(
            1 for r in logged if any(FLAG.search(s) or ENV.search(s) for s in r.solutions)
        ),
        "internal": sum(1 for r in logged if any("internal check" in s for s in r.solutions)),
        "tb words": sum(1 for r in logged if says(r, TRACEBACK_WORDS)),
        "warnings": len(warnings),
        "warning note": sum(1 for r in warnings if says(r, ("goes on running",))),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, default=MIRRORS)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    rows: list[tuple[str, dict[str, int], float]] = []
    kept: list[dict[str, object]] = []
    for mine in MINES:
        repo = args.mirrors / mine.mirror / "repo"
        with tempfile.TemporaryDirectory() as tmp:
            export(repo, mine.revision, mine.paths, Path(tmp))
            started = time.perf_counter()
            result = mine_paths(
                [Path(tmp) / mine.package],
                repo=mine.mirror.split("+")[1] + "/" + mine.mirror.split("+")[1],
                sha="0" * 40,
                path_prefix=mine.package,
            )
            rows.append((mine.label, figures(result.records), time.perf_counter() - started))
        kept.extend(
            {
                "mine": mine.label,
                "file": r.file_path,
                "line": r.line_number,
                "level": r.error_class,
                "message": r.error_message,
                "documentation": r.documentation,
                "solutions": list(r.solutions),
            }
            for r in result.records
            if LOGGED_TAG in r.tags
        )
    columns = list(rows[0][1]) if rows else []
    print(f"{'mine':<20} " + " ".join(f"{c:>12}" for c in columns) + f" {'seconds':>8}")
    for label, row, seconds in rows:
        print(f"{label:<20} " + " ".join(f"{row[c]:>12}" for c in columns) + f" {seconds:>8.1f}")
    totals = {c: sum(row[c] for _, row, _ in rows) for c in columns}
    print(f"{'total':<20} " + " ".join(f"{totals[c]:>12}" for c in columns))
    if args.out is not None:
        with args.out.open("w", encoding="utf-8") as fh:
            for item in kept:
                fh.write(json.dumps(item, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
