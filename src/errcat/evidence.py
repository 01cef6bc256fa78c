"""Where a traceback's frames meet a record's raise site.

A record names its file as a path in its repository (``Lib/argparse.py``,
``python/sglang/srt/server_args.py``); a traceback names the file where it was
installed or checked out (``/usr/lib/python3.12/argparse.py``,
``/opt/venv/lib/python3.11/site-packages/sglang/srt/server_args.py``). The two
meet at the import root: their longest common suffix of path components must
be the whole module path on at least one side.

>>> same_file_depth("/usr/lib/python3.12/argparse.py", "Lib/argparse.py")
1
>>> same_file_depth(
...     "/opt/venv/lib/python3.11/site-packages/sglang/srt/server_args.py",
...     "python/sglang/srt/server_args.py",
... )
3
>>> same_file_depth("/opt/venv/lib/python3.11/site-packages/torch/utils.py", "vllm/utils.py")
0

In a checkout, the record's package among the frame's directories starts the
module path, so a copy of a file under another subpackage is another file:

>>> same_file_depth("/w/sglang/python/sglang/srt/comm/nccl.py", "python/sglang/mm/comm/nccl.py")
0
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from errcat.extract import Frame

__all__ = ["FrameEvidence", "FrameView", "package_of", "path_parts", "same_file_depth"]

#: Directories below which installed paths start at the import root.
_SITE_DIRS = frozenset({"site-packages", "dist-packages", "lib-dynload"})
#: A standard library directory: python3.12, python311, Python313t.
_STDLIB_DIR = re.compile(r"python\d+(?:\.\d+)?t?", re.IGNORECASE)
#: Leading directories a repository puts above its import root.
_REPO_ROOTS = frozenset({"lib", "src", "python", "lib64", "pysrc", "source"})
#: Lines within this distance of lineNumber count as the raise site (versions drift).
NEAR_LINES = 3
FAR = 1 << 30


def package_of(repo: str) -> str:
    """The package name a repository's code is imported as, as a lowercase word.

    >>> package_of("sgl-project/sglang"), package_of("python/cpython")
    ('sglang', 'cpython')
    """
    return repo.rsplit("/", 1)[-1].replace("-", "_").lower()


@functools.lru_cache(maxsize=4096)
def path_parts(path: str) -> tuple[str, ...]:
    r"""The components of a path, with either separator.

    Kept for the last few thousand paths: every record a traceback's text proposes
    asks for its own file's and the frames' (a traceback asks about two dozen times),
    and the same files come back query after query.

    >>> path_parts("C:\\Python311\\Lib\\json\\decoder.py")
    ('C:', 'Python311', 'Lib', 'json', 'decoder.py')
    """
    return tuple(filter(None, path.replace("\\", "/").split("/")))


def _import_root_depth(parts: Sequence[str]) -> int | None:
    """How many trailing components of an installed path are its module path, if it shows."""
    for index in range(len(parts) - 2, -1, -1):
        name = parts[index].lower()
        if name in _SITE_DIRS or _STDLIB_DIR.fullmatch(name):
            return len(parts) - index - 1
    return None


def _common_suffix(a: Sequence[str], b: Sequence[str]) -> int:
    depth = 0
    for x, y in zip(reversed(a), reversed(b), strict=False):
        if x != y:
            break
        depth += 1
    return depth


def _package_depth(frame: Sequence[str], record: Sequence[str]) -> int | None:
    """How many trailing components of a checkout path are its module path, seen by package.

    The record's top-level package (its first component below a repository
    root) found among the frame's directories starts the frame's module path:
    ``/src/sglang/python/sglang/srt/x/y.py`` is the module ``sglang/srt/x/y.py``,
    so it is not ``python/sglang/other/x/y.py`` though both end in ``x/y.py``.
    """
    top = 1 if len(record) > 2 and record[0].lower() in _REPO_ROOTS else 0
    if len(record) - top < 2:
        return None  # a top-level module: no package directory to look for
    package = record[top]
    for index in range(len(frame) - 2, -1, -1):
        if frame[index] == package:
            return len(frame) - index
    return None


def same_file_depth(frame_path: str | Sequence[str], record_path: str | Sequence[str]) -> int:
    """How many trailing path components show that a frame is in a record's file (0: it is not).

    The common suffix counts when it covers the record's path entirely, or
    covers the installed path's whole module path (below ``site-packages`` or
    ``pythonX.Y``, when the frame shows one) and is either two components or
    more, or one component right below a repository root (``Lib/``, ``src/``,
    ``python/``).
    """
    frame = path_parts(frame_path) if isinstance(frame_path, str) else frame_path
    record = path_parts(record_path) if isinstance(record_path, str) else record_path
    depth = _common_suffix(frame, record)
    if depth == 0:
        return 0
    if depth == len(record):
        return depth  # the whole repository path is in the frame's (a checkout)
    module = _import_root_depth(frame)
    if module is None:
        module = _package_depth(frame, record)
    if module is not None and depth < module:
        return 0  # the installed module path goes on where the record's stops
    # One shared component (a top-level module) counts only below a repository root:
    # Lib/argparse.py is the stdlib's argparse, pkg/argparse.py is not.
    rooted = record[len(record) - depth - 1].lower() in _REPO_ROOTS
    return depth if depth >= 2 or rooted else 0


@dataclass(frozen=True, slots=True)
class FrameEvidence:
    """What the frames say about one record.

    ``kind`` is ``"site"`` (a frame is at the raise line, within
    :data:`NEAR_LINES`), ``"raise_file"`` (the innermost frame, where the
    error was raised, is in the record's file at another line: the user runs
    another version), ``"file"`` (another frame is in the record's file),
    ``"package"`` (a frame passes through the record's package), ``"elsewhere"``
    (the traceback never passes through the record's file or package) or
    ``"none"`` (the report has no frames). ``distance`` is the line distance of
    the nearest frame in the file; ``depth`` the path components that matched.
    """

    kind: str
    distance: int
    depth: int
    reason: str | None


_NO_FRAMES = FrameEvidence("none", FAR, 0, None)


class FrameView:
    """A report's frames, indexed by file name for one lookup per record."""

    __slots__ = ("_packages", "by_name", "frames")

    def __init__(self, frames: Sequence[Frame]) -> None:
        self.frames = tuple(frames)
        self.by_name: dict[str, list[tuple[Frame, tuple[str, ...]]]] = {}
        self._packages: set[str] | None = None
        for frame in frames:
            parts = path_parts(frame.path)
            if not parts:
                continue
            self.by_name.setdefault(parts[-1], []).append((frame, parts))

    @property
    def packages(self) -> set[str]:
        """The directories the frames pass through, lowercased (read when first asked).

        Only a record raised in no frame's file asks (a traceback of fifty frames
        spends more on this than on indexing them by file name).
        """
        if self._packages is None:
            self._packages = {
                directory.lower()
                for parts in self.by_name.values()
                for _, path in parts
                for directory in path[:-1]
            }
        return self._packages

    def evidence(self, file_path: str, line_number: int, repo: str) -> FrameEvidence:
        """The frame evidence for a record raised at ``file_path:line_number`` in ``repo``."""
        if not self.frames:
            return _NO_FRAMES
        record = path_parts(file_path)
        # Which frame in the record's file is the stronger: at the raise line (2), else
        # the innermost frame (1: the raise, in another version), else any (0); nearest
        # first. Only the strongest one's evidence is written out.
        best: tuple[tuple[int, int], Frame, int] | None = None
        for frame, parts in self.by_name.get(record[-1] if record else "", ()):
            depth = same_file_depth(parts, record)
            if not depth:
                continue
            gap = abs(frame.line - line_number)
            kind = 2 if gap <= NEAR_LINES else 1 if frame is self.frames[-1] else 0
            if best is None or (kind, -gap) > best[0]:
                best = ((kind, -gap), frame, depth)
        if best is not None:
            (kind, _), frame, depth = best
            gap = abs(frame.line - line_number)
            if kind == 2:
                reason = (
                    f"traceback frame {frame.path}:{frame.line} is the raise site "
                    f"{file_path}:{line_number}"
                )
                return FrameEvidence("site", gap, depth, reason)
            if kind == 1:
                # The error was raised in this file, at another line: another version.
                reason = (
                    f"the error was raised in {file_path} ({frame.path}:{frame.line}; "
                    f"the record is at line {line_number}: another version?)"
                )
                return FrameEvidence("raise_file", gap, depth, reason)
            reason = f"traceback passes through {file_path} ({frame.path}:{frame.line})"
            return FrameEvidence("file", gap, depth, reason)
        package = package_of(repo)
        if package in self.packages:
            return FrameEvidence(
                "package", FAR, 0, f"traceback passes through the {package} package"
            )
        return FrameEvidence("elsewhere", FAR, 0, f"the traceback never passes through {file_path}")
