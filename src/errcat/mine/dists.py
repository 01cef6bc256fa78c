r"""Snapshots of released distributions (wheels, sdists) for ``errcat history --dist``.

A blob key is git's blob sha, for distributions too (computed from the file's
bytes), so the same file met in a wheel and in git is scanned once.

>>> git_blob_sha(b"x = 1\n")
'7d4290a117a4ddcc11daae7ea675841033830c8f'
"""

from __future__ import annotations

import hashlib
import os
import tarfile
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path

from errcat.errors import CatalogSourceError
from errcat.history import Revision
from errcat.mine.history import Snapshot, keep_path

__all__ = ["dist_snapshot", "git_blob_sha", "join_snapshots"]


def git_blob_sha(data: bytes) -> str:
    """The sha git gives a blob with these bytes."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _members(path: Path) -> tuple[list[tuple[str, bytes]], datetime]:
    """The ``.py`` members of a wheel or sdist (name, bytes) and the newest member time."""
    name = path.name.lower()
    out: list[tuple[str, bytes]] = []
    newest = datetime(1980, 1, 1, tzinfo=timezone.utc)
    try:
        if name.endswith((".whl", ".zip")):
            with zipfile.ZipFile(path) as zf:
                for info in zf.infolist():
                    if info.is_dir() or not info.filename.endswith(".py"):
                        continue
                    out.append((info.filename, zf.read(info)))
                    stamp = datetime(*info.date_time, tzinfo=timezone.utc)
                    newest = max(newest, stamp)
        elif name.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar")):
            with tarfile.open(path) as tf:
                for member in tf.getmembers():
                    if not member.isfile() or not member.name.endswith(".py"):
                        continue
                    fh = tf.extractfile(member)
                    if fh is None:  # pragma: no cover - isfile() members always have data
                        continue
                    out.append((member.name, fh.read()))
                    newest = max(newest, datetime.fromtimestamp(member.mtime, timezone.utc))
        else:
            raise CatalogSourceError(
                f"Not a distribution: {str(path)!r} (expected a .whl, .zip or .tar.gz)"
            )
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError) as exc:
        raise CatalogSourceError(f"Cannot read distribution {str(path)!r}: {exc}") from None
    return out, newest


def _sdist_root(names: Iterable[str]) -> str:
    """The single top folder of an sdist (``pkg-1.0/``), or ``""`` for a wheel."""
    tops = {n.split("/", 1)[0] for n in names if "/" in n}
    roots = {n for n in names if "/" not in n}
    if len(tops) == 1 and not roots:
        top = next(iter(tops))
        if "-" in top:
            return top + "/"
    return ""


def _installed_path(rel: str) -> str:
    """Where pip installs a wheel member (``<dist>.data/purelib/`` is the site folder).

    ``platlib/`` is too; openrlhf's wheel keeps all its modules there.

    >>> _installed_path("openrlhf-0.11.0.data/purelib/openrlhf/cli/train_ppo.py")
    'openrlhf/cli/train_ppo.py'
    >>> _installed_path("pkg-1.0.data/scripts/run.py"), _installed_path("pkg/a.py")
    ('pkg-1.0.data/scripts/run.py', 'pkg/a.py')
    """
    top, _, rest = rel.partition("/")
    kind, _, inner = rest.partition("/")
    if top.endswith(".data") and kind in ("purelib", "platlib") and inner:
        return inner
    return rel


def dist_snapshot(
    label: str,
    path: str | os.PathLike[str],
    *,
    path_prefix: str = "",
    include_tests: bool = False,
) -> Snapshot:
    """A snapshot of a released distribution's ``.py`` files, labelled (``0.4.0``).

    Paths are the archive's (an sdist's top folder dropped, a wheel's
    ``.data/purelib/`` read as where pip installs it) with ``path_prefix`` put
    in front, so that they match the repository (``python/`` for sglang). The
    revision's sha is the sha1 of the archive file, its date the newest member's
    time.
    """
    archive = Path(path)
    if not archive.is_file():
        raise CatalogSourceError(f"No such distribution: {str(archive)!r}")
    members, newest = _members(archive)
    members = [(_installed_path(name), data) for name, data in members]
    root = _sdist_root([n for n, _ in members])
    prefix = "/".join(p for p in path_prefix.split("/") if p not in ("", "."))
    blobs: dict[str, bytes] = {}
    files: list[tuple[str, str]] = []
    for name, data in members:
        rel = name[len(root) :] if root and name.startswith(root) else name
        if rel.split("/", 1)[0].endswith(".dist-info") or not keep_path(rel, include_tests):
            continue
        blob = git_blob_sha(data)
        blobs[blob] = data
        files.append((f"{prefix}/{rel}" if prefix else rel, blob))
    files.sort()
    digest = hashlib.sha1(archive.read_bytes(), usedforsecurity=False).hexdigest()

    def read(keys: Sequence[str]) -> Iterator[tuple[str, bytes]]:
        for key in keys:
            if key in blobs:
                yield key, blobs[key]

    return Snapshot(Revision(label, digest, newest), files, read)


def join_snapshots(first: Snapshot, *more: Snapshot) -> Snapshot:
    r"""One revision made of several snapshots' files: ``first``'s revision, all their paths.

    A release can span distributions built from one repository (sglang's wheel
    and the ``sglang-kernel`` wheel it pins, both from sgl-project/sglang): as
    the newest revision of that repository's history they are one snapshot. A
    path two of them hold is taken from the first that has it; each blob is read
    from the snapshot that lists it.

    >>> from datetime import datetime, timezone
    >>> def snap(label, files):
    ...     blobs = {git_blob_sha(b): b for _, b in files}
    ...     read = lambda keys: ((k, blobs[k]) for k in keys if k in blobs)
    ...     when = datetime(2026, 1, 1, tzinfo=timezone.utc)
    ...     listed = [(p, git_blob_sha(b)) for p, b in files]
    ...     return Snapshot(Revision(label, "0" * 40, when), listed, read)
    >>> both = join_snapshots(
    ...     snap("1.0", [("a/x.py", b"x = 1\n")]), snap("k", [("k/y.py", b"y\n")])
    ... )
    >>> both.revision.label, [p for p, _ in both.files]
    ('1.0', ['a/x.py', 'k/y.py'])
    >>> sorted(dict(both.read([key for _, key in both.files])).values())
    [b'x = 1\n', b'y\n']
    """
    parts = (first, *more)
    files: dict[str, str] = {}
    owner: dict[str, Snapshot] = {}
    for part in parts:
        for path, key in part.files:
            if path not in files:
                files[path] = key
                owner.setdefault(key, part)

    def read(keys: Sequence[str]) -> Iterator[tuple[str, bytes]]:
        by_part: dict[int, list[str]] = {}
        for key in dict.fromkeys(keys):
            part = owner.get(key)
            if part is not None:
                by_part.setdefault(id(part), []).append(key)
        for part in parts:
            yield from part.read(by_part.get(id(part), []))

    return Snapshot(first.revision, sorted(files.items()), read)
