"""Mine C and C++ sources for torch's check macros (TORCH_CHECK and kin) into draft records.

:func:`mine_cpp_sources` reads ``(path, text)`` pairs; :func:`mine_cpp_git`
reads a folder of a git revision (a bare mirror is enough). Records whose
message has no word of its own (``{a}{b}``) are left out: with no Python
frame at a C++ site, only text can find them. A template seen at several
sites of one file is kept at its first; ids are stable under line moves.

>>> envs, stats = mine_cpp_sources(
...     [("csrc/a.cu", 'TORCH_CHECK(n > 0, "n must be positive, got ", n);')],
...     repo="vllm-project/vllm",
...     sha="0" * 40,
... )
>>> [e["record"]["errorMessage"] for e in envs], stats.sites, stats.files
(['n must be positive, got {n}'], 1, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from errcat.mine.cpp.checks import MACROS, CheckSite, find_checks
from errcat.mine.cpp.records import site_envelope
from errcat.mine.records import SNIPPET_RADIUS
from errcat.patterns import is_wordless, template_to_pattern

__all__ = [
    "CPP_SUFFIXES",
    "MACROS",
    "CheckSite",
    "CppStats",
    "find_checks",
    "mine_cpp_git",
    "mine_cpp_sources",
]

#: File endings read as C/C++/CUDA/HIP source.
CPP_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".cu", ".cuh", ".h", ".hh", ".hpp", ".hip", ".inl")

#: The analyzedAt of a run unless one is given.
DEFAULT_ANALYZED_AT = "2026-11-20T00:00:00Z"


@dataclass
class CppStats:
    """What a run read and kept."""

    files: int = 0
    sites: int = 0
    records: int = 0
    wordless: int = 0
    duplicates: int = 0
    by_macro: Counter[str] = field(default_factory=Counter)


def mine_cpp_sources(
    sources: Iterable[tuple[str, str]],
    *,
    repo: str,
    sha: str,
    analyzed_at: str = DEFAULT_ANALYZED_AT,
    radius: int = SNIPPET_RADIUS,
) -> tuple[list[dict[str, Any]], CppStats]:
    """Envelopes for the check sites of ``(repo-relative path, text)`` pairs, sorted by id.

    A site's call and ``radius`` lines each side make its record's ``sourceCode``.
    """
    stats = CppStats()
    out: dict[str, dict[str, Any]] = {}
    for path, text in sources:
        stats.files += 1
        lines = text.split("\n")
        seen: set[str] = set()
        for site in find_checks(text):
            stats.sites += 1
            stats.by_macro[site.macro] += 1
            if is_wordless(template_to_pattern(site.template)):
                stats.wordless += 1
                continue
            if site.template in seen:
                stats.duplicates += 1
                continue
            seen.add(site.template)
            envelope = site_envelope(
                site, repo, path, sha, lines=lines, analyzed_at=analyzed_at, radius=radius
            )
            out.setdefault(envelope["record"]["id"], envelope)
    stats.records = len(out)
    return [out[k] for k in sorted(out)], stats


def mine_cpp_git(
    git_dir: str | Path,
    revision: str,
    *,
    repo: str,
    under: str = "",
    analyzed_at: str = DEFAULT_ANALYZED_AT,
    radius: int = SNIPPET_RADIUS,
) -> tuple[list[dict[str, Any]], CppStats]:
    """Mine the C/C++ files under ``under`` at ``revision`` of a git repository."""
    from errcat.mine.git import GitRepo

    git = GitRepo(git_dir)
    commit = git.commit(revision)
    files = [f for f in git.tree(commit.sha, under, suffix="") if f.path.endswith(CPP_SUFFIXES)]
    paths = {f.blob: f.path for f in files}
    texts = ((paths[blob], data.decode("utf-8", "replace")) for blob, data in git.blobs(paths))
    return mine_cpp_sources(
        texts, repo=repo, sha=commit.sha, analyzed_at=analyzed_at, radius=radius
    )
