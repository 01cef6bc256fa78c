"""Mine the C++/CUDA sources of a stack package's kernel libraries (``build_stack.py``).

Two kinds of source, both named in ``stack/SOURCES.json``:

* a project's ``native`` folders: the C/C++/CUDA files its newest wheel ships
  (flashinfer's ``flashinfer/data/include`` and ``flashinfer/data/csrc``, the
  sources its JIT compiles), read with :mod:`errcat.mine.cpp` as the repository's
  ``include/...`` and ``csrc/...``, linked at the release tag;
* a package's ``gitSources``: a project with no wheel on PyPI (DeepEP), read at a
  named commit from its git mirror (``<mirrors>/<owner>+<name>/repo``, made by
  ``fetch github:<owner>/<name>``), linked at that commit; with ``dropRepeated``,
  a later folder's records of a message an earlier folder holds are left out.

Both give draft records (their snippet the call and :data:`RADIUS` line about it) with generated advice (``errcat:generated``), whose
patterns take any directory before the file's name and any line
(:func:`errcat.mine.cpp.records.site_pattern`).
"""

from __future__ import annotations

import time
import zipfile
from pathlib import Path
from typing import Any

from errcat.mine.cpp import CPP_SUFFIXES, CppStats, mine_cpp_git, mine_cpp_sources
from errcat.mine.git import GitRepo
from errcat.models import RecordEnvelope
from mine_wheels import ZERO_SHA, built_at
from stack_closure import fetch
from stack_mine import MinedProject, Project

__all__ = ["RADIUS", "mine_git_source", "mine_wheel_native"]

#: Source lines each side of a site's call in its record: a kernel library's package
#: carries a thousand C++ sites, and the call with a line about it says what it checks.
RADIUS = 1


def _report(what: str, stats: CppStats) -> None:
    print(
        f"  {what}: {stats.files} C++ files, {stats.sites} check sites, {stats.records} records"
        f" ({stats.wordless} without words, {stats.duplicates} repeated in a file);"
        f" {dict(stats.by_macro.most_common())}",
        flush=True,
    )


def _linked(envelopes: list[dict[str, Any]], sha: str, ref: str) -> list[RecordEnvelope]:
    """Envelopes validated, their links pointing at ``ref`` (a tag or the commit)."""
    out = []
    for env in envelopes:
        record = env["record"]
        record["githubUrl"] = record["githubUrl"].replace(f"/blob/{sha}/", f"/blob/{ref}/")
        out.append(RecordEnvelope.model_validate(env))
    return out


def mine_wheel_native(data: dict[str, Any], cache: Path) -> list[RecordEnvelope]:
    """The C++ check sites of a project's newest wheel, under its ``native`` folders.

    ``data`` is the project's ``SOURCES.json`` entry: ``native`` maps each
    wheel folder (``flashinfer/data/include``) to its repository folder
    (``include``); ``nativeExclude`` lists repository folders left out.
    """
    project = Project.of(data)
    version = project.versions[-1]
    wheel = fetch(cache, project.dist, f"=={version}")
    folders: dict[str, str] = data["native"]
    excluded = tuple(f"{x.rstrip('/')}/" for x in data.get("nativeExclude", []))
    when = built_at(wheel).strftime("%Y-%m-%dT%H:%M:%SZ")

    def sources() -> Any:
        with zipfile.ZipFile(wheel) as zf:
            for name in sorted(zf.namelist()):
                if not name.endswith(CPP_SUFFIXES):
                    continue
                for inside, repo_folder in folders.items():
                    if name.startswith(inside.rstrip("/") + "/"):
                        path = repo_folder.rstrip("/") + name[len(inside.rstrip("/")) :]
                        if not path.startswith(excluded):
                            yield path, zf.read(name).decode("utf-8", "replace")

    envelopes, stats = mine_cpp_sources(
        sources(), repo=project.repo, sha=ZERO_SHA, analyzed_at=when, radius=RADIUS
    )
    _report(f"{project.repo} {version} (wheel)", stats)
    return _linked(envelopes, ZERO_SHA, project.tag_of(version))


def _unrepeated(found: list[RecordEnvelope], earlier: list[RecordEnvelope]) -> list[RecordEnvelope]:
    """The records of ``found`` whose message no ``earlier`` record holds.

    A source whose folders carry copies of one extension's checks (flash-attention's
    ``hopper/``, FlashAttention-3, repeats most of ``csrc/flash_attn``'s) sets
    ``dropRepeated``: a message two folders raise would otherwise get two records of
    one repository, and a paste of it two answers that tie.
    """
    held = {env.record.error_message for env in earlier}
    kept = [env for env in found if env.record.error_message not in held]
    print(f"    {len(found) - len(kept)} records dropped: an earlier folder holds their message")
    return kept


def mine_git_source(source: dict[str, Any], mirrors: Path) -> MinedProject:
    """A ``gitSources`` entry: the C++ check sites under its folders at its commit."""
    started = time.perf_counter()
    repo, commit = str(source["repo"]), str(source["commit"])
    mirror = mirrors / repo.replace("/", "+") / "repo"
    if not mirror.is_dir():
        raise SystemExit(f"{repo}: no git mirror at {mirror} (fetch github:{repo} first)")
    date = GitRepo(mirror).commit(commit).date
    when = date.strftime("%Y-%m-%dT%H:%M:%SZ")
    envelopes: list[RecordEnvelope] = []
    for under in source["under"]:
        found, stats = mine_cpp_git(
            mirror, commit, repo=repo, under=under, analyzed_at=when, radius=RADIUS
        )
        _report(f"{repo} {under}/ at {commit[:12]}", stats)
        linked = _linked(found, commit, commit)
        if source.get("dropRepeated"):
            linked = _unrepeated(linked, envelopes)
        envelopes += linked
    project = Project(repo, str(source.get("dist", repo.split("/")[1])), (), "", (commit,), commit)
    return MinedProject(project, envelopes, None, time.perf_counter() - started, when)
