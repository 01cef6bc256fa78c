"""Mine one stack project from its released wheels (one or several versions) into records.

Used by ``build_stack.py``. A project named with one version is mined as that
wheel; with several, as a history over them (oldest first, one record per
message lineage, a ``.history.json`` sidecar beside the records). Records of
a wheel carry 40 zeros as their commit (a wheel records none) and link to the
release's tag, which GitHub resolves: ``blob/v5.19.0/src/transformers/...``.

A project with no wheel on PyPI (slime) names ``"source": "git"``: each version
is read at its tag from the project's git mirror (``<mirrors>/<owner>+<name>/repo``,
made by ``fetch github:<owner>/<name>``); its records link at the tag, as a
wheel's do (the tag names the commit).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errcat.mine.dists import dist_snapshot
from errcat.mine.git import GitRepo, git_snapshots
from errcat.mine.history import HistoryResult, Snapshot, build_history
from errcat.models import RecordEnvelope
from mine_wheels import ZERO_SHA, built_at
from stack_closure import fetch


@dataclass(frozen=True)
class Project:
    """A project of the stack: its PyPI distribution, repository and where its package sits."""

    repo: str
    dist: str
    #: The package folders of the wheel to mine (``transformers``), and the repo
    #: folder they sit in (``src``: ``src/transformers/...``).
    packages: tuple[str, ...]
    repo_folder: str
    #: Releases to mine, oldest first; the last is the newest source.
    versions: tuple[str, ...]
    #: The release tag GitHub resolves, ``{version}`` put in (``v{version}``).
    tag: str = "v{version}"
    #: Folders or files under a package left out (``ray``: ``rllib``, ``tune``...;
    #: ``vllm_omni``: a single module vendored from another project).
    exclude: tuple[str, ...] = ()
    #: Read from the git mirror at each version's tag, not from PyPI's wheel.
    git: bool = False

    @classmethod
    def of(cls, data: dict[str, Any]) -> Project:
        """Read an entry of ``stack/SOURCES.json`` (camelCase keys)."""
        return cls(
            repo=str(data["repo"]),
            dist=str(data["dist"]),
            packages=tuple(data.get("packages", [data["dist"].replace("-", "_")])),
            repo_folder=str(data.get("repoFolder", "")),
            versions=tuple(str(v) for v in data["versions"]),
            tag=str(data.get("tag", "v{version}")),
            exclude=tuple(data.get("exclude", ())),
            git=data.get("source", "wheel") == "git",
        )

    def tag_of(self, version: str) -> str:
        """The release tag of ``version``."""
        return self.tag.format(version=version)


@dataclass
class MinedProject:
    """The records of one project and what the manifest tells of it."""

    project: Project
    envelopes: list[RecordEnvelope]
    history: HistoryResult | None
    seconds: float
    built_at: str


def _keep(project: Project, path: str) -> bool:
    """Whether ``path`` (repository-relative) is in one of the project's packages and not
    in a folder, nor the very file, its ``exclude`` names.

    >>> p = Project("o/r", "r", ("r",), "src", ("1",), exclude=("vendor", "copied.py"))
    >>> [_keep(p, f) for f in ("src/r/a.py", "src/r/vendor/b.py", "src/r/copied.py", "r/a.py")]
    [True, False, False, False]
    """
    prefix = f"{project.repo_folder}/" if project.repo_folder else ""
    for package in project.packages:
        root = f"{prefix}{package}/"
        if path.startswith(root):
            rest = path[len(root) :]
            return not any(rest == x or rest.startswith(f"{x}/") for x in project.exclude)
    return False


def mirror_of(repo: str, mirrors: Path) -> Path:
    """The git mirror of ``owner/name`` under ``mirrors`` (``owner+name/repo``).

    >>> mirror_of("THUDM/slime", Path("/m")).as_posix()
    '/m/THUDM+slime/repo'
    """
    return mirrors / repo.replace("/", "+") / "repo"


def git_snapshot(project: Project, version: str, mirrors: Path) -> Snapshot:
    """``project``'s package folders at ``version``'s tag, read from its git mirror."""
    mirror = mirror_of(project.repo, mirrors)
    if not mirror.is_dir():
        raise SystemExit(f"{project.repo}: no git mirror at {mirror} (fetch github:{project.repo})")
    repo = GitRepo(mirror)
    prefix = f"{project.repo_folder}/" if project.repo_folder else ""
    under = [f"{prefix}{package}" for package in project.packages]
    commit = repo.commit(project.tag_of(version))
    (snap,) = git_snapshots(repo, [(version, commit)], under=under)
    return dataclasses.replace(snap, files=[f for f in snap.files if _keep(project, f[0])])


def snapshot(project: Project, version: str, cache: Path, mirrors: Path) -> Snapshot:
    """The wheel (or tag) of ``project`` at ``version`` as a history snapshot of its files."""
    if project.git:
        return git_snapshot(project, version, mirrors)
    wheel = fetch(cache, project.dist, f"=={version}")
    snap = dist_snapshot(version, wheel, path_prefix=project.repo_folder)
    return dataclasses.replace(
        snap,
        revision=dataclasses.replace(snap.revision, date=built_at(wheel)),
        files=[f for f in snap.files if _keep(project, f[0])],
    )


def _tagged(envelope: RecordEnvelope, tag: str) -> RecordEnvelope:
    """A record of a wheel (or of a tag read from git): 40 zeros for the commit, linked at
    the release tag, as the release check wants of a record that names no commit."""
    record = envelope.record
    url = record.github_url.replace(f"/blob/{record.analyzed_sha}/", f"/blob/{tag}/")
    update = {"analyzed_sha": ZERO_SHA, "github_url": url}
    return envelope.model_copy(update={"record": record.model_copy(update=update)})


def mine_project(project: Project, cache: Path, workers: int, mirrors: Path) -> MinedProject:
    """Mine the project's releases (a history when there are several)."""
    started = time.perf_counter()
    snapshots = [snapshot(project, v, cache, mirrors) for v in project.versions]
    newest = snapshots[-1].revision.date
    result = build_history(snapshots, repo=project.repo, analyzed_at=newest, workers=workers)
    tags = {s.revision.sha: project.tag_of(s.revision.label) for s in snapshots}
    envelopes = [_tagged(e, tags[e.record.analyzed_sha]) for e in result.envelopes]
    for stats in result.revisions:
        print(
            f"  {project.repo} {stats.revision.label}: {stats.files} files, "
            f"{stats.records} records ({stats.new} new, {stats.reworded} reworded, "
            f"{stats.removed} removed)",
            flush=True,
        )
    return MinedProject(
        project,
        envelopes,
        result if len(snapshots) > 1 else None,
        time.perf_counter() - started,
        newest.strftime("%Y-%m-%dT%H:%M:%SZ"),
    )


def mine_projects(
    projects: Sequence[Project], cache: Path, workers: int, mirrors: Path
) -> list[MinedProject]:
    """Mine each project in turn (a ``git`` project from its mirror under ``mirrors``)."""
    out = []
    for project in projects:
        print(f"mining {project.repo} {', '.join(project.versions)}", flush=True)
        out.append(mine_project(project, cache, workers, mirrors))
    return out
