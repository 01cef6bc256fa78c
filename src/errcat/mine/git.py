r"""Read revisions of a git repository straight from its objects (no checkout needed).

Everything goes through ``git`` subprocesses, so a bare mirror works as well
as a working copy: ``rev-parse`` names a commit, ``ls-tree`` lists its files,
one ``cat-file --batch`` process streams the blobs.

>>> import subprocess, tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as tmp:
...     run = lambda *a: subprocess.run(["git", "-C", tmp, *a], check=True, capture_output=True)
...     _ = run("init", "-q")
...     _ = (pathlib.Path(tmp) / "a.py").write_text("x = 1\n")
...     _ = run("add", "a.py")
...     _ = run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
...     repo = GitRepo(tmp)
...     commit = repo.commit("HEAD")
...     files = repo.tree(commit.sha)
...     blobs = dict(repo.blobs([f.blob for f in files]))
>>> [f.path for f in files], blobs[files[0].blob]
(['a.py'], b'x = 1\n')
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from errcat.errors import CatalogSourceError, ErrcatError
from errcat.history import Revision
from errcat.mine.history import Snapshot, keep_path

__all__ = [
    "Commit",
    "GitError",
    "GitRepo",
    "NotAGitRepositoryError",
    "TreeFile",
    "UnknownRevisionError",
    "git_snapshots",
    "mined_folders",
    "parse_every",
]

#: The git executable, found on PATH as a user runs it (S607: a full path would not be portable).
_GIT = shutil.which("git") or "git"
_SHA = re.compile(r"^[0-9a-f]{40}$")
_EVERY = re.compile(r"^\s*(\d+)\s*([dwh]?)\s*$")


class GitError(ErrcatError, OSError):
    """``git`` failed on a repository (missing ``git``, unreadable objects)."""


class NotAGitRepositoryError(CatalogSourceError):
    """The path given is not a git repository (bare or not)."""


class UnknownRevisionError(ErrcatError, LookupError):
    """A revision does not name a commit of the repository."""

    def __init__(self, revision: str, repo: str) -> None:
        self.revision = revision
        self.repo = repo
        super().__init__(f"{repo}: unknown revision {revision!r}")

    def __str__(self) -> str:
        # LookupError subclasses such as KeyError repr their argument; keep it readable.
        return f"{self.repo}: unknown revision {self.revision!r}"


@dataclass(frozen=True, slots=True)
class Commit:
    """A commit: its full sha and its committer date (timezone-aware)."""

    sha: str
    date: datetime


@dataclass(frozen=True, slots=True)
class TreeFile:
    """A file of a tree: its repo-relative path and its blob sha."""

    path: str
    blob: str


def parse_every(text: str) -> timedelta:
    """A step like ``90d``, ``2w`` or ``12h`` (a bare number is days).

    >>> parse_every("90d"), parse_every("2w").days
    (datetime.timedelta(days=90), 14)
    >>> parse_every("soon")
    Traceback (most recent call last):
    ...
    ValueError: Invalid step: 'soon' (expected a number of days like '90d', or '2w', '12h')
    """
    m = _EVERY.match(text)
    if m is None or int(m.group(1)) == 0:
        raise ValueError(
            f"Invalid step: {text!r} (expected a number of days like '90d', or '2w', '12h')"
        )
    n, unit = int(m.group(1)), m.group(2) or "d"
    return {"d": timedelta(days=n), "w": timedelta(weeks=n), "h": timedelta(hours=n)}[unit]


class GitRepo:
    """A git repository (bare or with a work tree) read through ``git`` subprocesses."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open ``path``; raise :class:`NotAGitRepositoryError` unless git recognises it."""
        self.path = str(path)
        if not Path(self.path).is_dir():
            raise NotAGitRepositoryError(f"Not a git repository: {self.path!r} (no such directory)")
        self.git_dir = ""
        # Look for the repository at PATH itself, not in the folders above it.
        ceiling = str(Path(self.path).resolve().parent)
        self._env = {**os.environ, "GIT_CEILING_DIRECTORIES": ceiling, "LC_ALL": "C"}
        try:
            self.git_dir = self._git("rev-parse", "--absolute-git-dir").strip()
        except GitError:
            raise NotAGitRepositoryError(f"Not a git repository: {self.path!r}") from None

    def _git(self, *args: str) -> str:
        where = ["--git-dir", self.git_dir] if self.git_dir else ["-C", self.path]
        try:
            done = subprocess.run(  # noqa: S603 - fixed argv, no shell
                [_GIT, *where, *args], capture_output=True, check=False, env=self._env
            )
        except FileNotFoundError:
            raise GitError("git is not installed (needed to read revisions)") from None
        if done.returncode != 0:
            message = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise GitError(f"{self.path}: git {args[0]}: {message[-1] if message else 'failed'}")
        return done.stdout.decode("utf-8", "replace")

    def commit(self, revision: str) -> Commit:
        """The commit a revision names (branch, tag, sha, ``HEAD~3``...), with its date."""
        if not revision or revision.startswith("-"):
            raise UnknownRevisionError(revision, self.path)
        try:
            sha = self._git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}").strip()
        except GitError:
            raise UnknownRevisionError(revision, self.path) from None
        if not _SHA.match(sha):
            raise UnknownRevisionError(revision, self.path)
        out = self._git("log", "-1", "--format=%H%x00%cI", sha).strip()
        full, _, when = out.partition("\0")
        return Commit(full, datetime.fromisoformat(when.replace("Z", "+00:00")))

    def shallow_boundary(self) -> Commit | None:
        """The oldest commit a shallow clone has (its history stops there); None when complete.

        A shallow clone (``git clone --depth``, or a CI checkout) lists where its
        history was cut in ``shallow``; older revisions are not there to mine.
        """
        listed = Path(self.git_dir) / "shallow"
        try:
            shas = [line.strip() for line in listed.read_text("ascii").splitlines()]
        except (OSError, UnicodeDecodeError):
            return None
        commits = [self.commit(sha) for sha in shas if _SHA.match(sha)]
        return min(commits, key=lambda c: c.date) if commits else None

    def has_path(self, sha: str, path: str) -> bool:
        """True when ``path`` (a folder or file) exists in the commit's tree."""
        path = path.strip("/")
        if not path:
            return True
        out = self._git("ls-tree", "-z", sha, "--", path)
        return bool(out)

    def tree(self, sha: str, under: str = "", suffix: str = ".py") -> list[TreeFile]:
        """The files of a commit's tree (under a folder, ending in ``suffix``), sorted by path."""
        args = ["ls-tree", "-r", "-z", sha]
        under = under.strip("/")
        if under:
            args += ["--", under + "/"]
        files = []
        for entry in self._git(*args).split("\0"):
            if not entry:
                continue
            meta, _, path = entry.partition("\t")
            mode, kind, blob = meta.split(" ")
            if kind == "blob" and mode != "120000" and path.endswith(suffix):
                files.append(TreeFile(path, blob))
        files.sort(key=lambda f: f.path)
        return files

    def blobs(self, shas: Iterable[str]) -> Iterator[tuple[str, bytes]]:
        """Stream ``(sha, content)`` for each blob, through one ``git cat-file --batch``."""
        wanted = list(dict.fromkeys(shas))
        if not wanted:
            return
        try:
            proc = subprocess.Popen(  # noqa: S603 - fixed argv, no shell
                [_GIT, "--git-dir", self.git_dir, "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=self._env,
            )
        except FileNotFoundError:
            raise GitError("git is not installed (needed to read revisions)") from None
        assert proc.stdin is not None
        assert proc.stdout is not None
        try:
            for sha in wanted:
                proc.stdin.write(sha.encode("ascii") + b"\n")
                proc.stdin.flush()
                header = proc.stdout.readline().decode("ascii", "replace").split()
                if len(header) != 3:
                    raise GitError(f"{self.path}: cannot read blob {sha} ({' '.join(header)})")
                size = int(header[2])
                data = proc.stdout.read(size)
                proc.stdout.read(1)  # the newline after each object
                yield sha, data
        finally:
            proc.stdin.close()
            proc.stdout.close()
            proc.wait()

    def first_parent_since(
        self, since: datetime, every: timedelta, revision: str = "HEAD"
    ) -> list[Commit]:
        """Commits on ``revision``'s first-parent line: the first at or after each step.

        Steps are ``since``, ``since + every``, ... up to the newest commit, which
        always ends the list. Commits are returned oldest first, without repeats.
        """
        head = self.commit(revision)
        if since.tzinfo is None:
            since = since.replace(tzinfo=timezone.utc)
        out = self._git(
            "log",
            "--first-parent",
            "--format=%H%x00%cI",
            f"--since={since.isoformat()}",
            head.sha,
        )
        line: list[Commit] = []
        for row in out.splitlines():
            sha, _, when = row.partition("\0")
            if _SHA.match(sha):
                line.append(Commit(sha, datetime.fromisoformat(when.replace("Z", "+00:00"))))
        line.reverse()  # oldest first
        picked: list[Commit] = []
        step = since
        for commit in line:
            if commit.date >= step:
                picked.append(commit)
                while step <= commit.date:
                    step += every
        if not picked or picked[-1].sha != head.sha:
            picked.append(head)
        return picked


def mined_folders(under: str | Sequence[str]) -> tuple[str, ...]:
    """The folders to mine, without slashes at their ends or repeats; ``()`` for the whole tree.

    >>> mined_folders("python/"), mined_folders(["python", "/sgl-kernel/python", "python"])
    (('python',), ('python', 'sgl-kernel/python'))
    >>> mined_folders("")
    ()
    """
    names = [under] if isinstance(under, str) else list(under)
    return tuple(dict.fromkeys(n.strip("/") for n in names if n.strip("/")))


def git_snapshots(
    repo: GitRepo,
    commits: Sequence[tuple[str, Commit]],
    *,
    under: str | Sequence[str] = "",
    include_tests: bool = False,
) -> Iterator[Snapshot]:
    """One snapshot per ``(label, commit)``, its files read from git objects.

    ``under`` names the folder to mine, or several (a project whose packages
    sit side by side, as sglang's ``python/`` and ``sgl-kernel/python/``);
    paths stay repo-relative, and each folder's test and hidden folders are left
    out as :func:`~errcat.mine.history.keep_path` says. A folder that does not
    exist at a revision adds nothing there; a revision where none exists gives
    an empty snapshot whose ``missing`` says so.
    """
    folders = mined_folders(under)
    for label, commit in commits:
        revision = Revision(label, commit.sha, commit.date)
        present = [f for f in folders if repo.has_path(commit.sha, f)]
        if folders and not present:
            gone = ", ".join(f"{f}/" for f in folders)
            verb = "does" if len(folders) == 1 else "do"
            yield Snapshot(revision, [], repo.blobs, missing=f"{gone} {verb} not exist here")
            continue
        files: dict[str, str] = {}
        for folder in present or [""]:
            for f in repo.tree(commit.sha, folder):
                rel = f.path[len(folder) + 1 :] if folder else f.path
                if keep_path(rel, include_tests):
                    files.setdefault(f.path, f.blob)
        yield Snapshot(revision, sorted(files.items()), repo.blobs)
