"""What the data says of the projects whose copies of one message tie: who builds on whom, and when.

:mod:`errcat.matcher.site_prior` settles a message several projects raise.
When the paste shows nothing of whose code printed it, two facts the data
records can still name the original:

* **dependency direction**: a project whose wheel requires another (vllm
  requires transformers, torch, flashinfer) builds on it, so a text both raise
  is the dependency's; the manifests of the data directories say it
  (``builtFrom`` entries: ``dist`` and ``repo``, ``requires``: the distributions
  its newest wheel requires, ``requiredBy``: the engines whose dependency
  closure holds it; written by ``benchmarks/build_stack.py``);
* **history windows**: each history sidecar (``records/*.history.json.gz``)
  names its project and the revisions mined, with their dates. A message first
  seen at a project's first mined revision may be older than that window (its
  first date is only an upper bound), so "first seen" of two projects compares
  only where the later one's window shows the message *absent* at a revision no
  older than the other's first sighting. A window whose dates are not real (two
  revisions of one date: a build's fixed timestamp; a first revision not the
  oldest) is not used.

The facts are read once per process from the bundled data and the installed
``errcat.catalogs`` plug-ins that are data packages (:func:`default_provenance`).

>>> p = Provenance.of(
...     [
...         {
...             "builtFrom": [
...                 {"repo": "o/eng", "dist": "eng"},
...                 {"repo": "o/lib", "dist": "lib", "requiredBy": ["eng"]},
...             ]
...         }
...     ],
...     {"o/eng": (1.0, 2.0, 3.0)},
... )
>>> p.depends_on("o/eng", "o/lib"), p.depends_on("o/lib", "o/eng")
(True, False)
>>> p.absent_before("o/eng", 3.0), p.absent_before("o/eng", 1.0), p.absent_before("o/lib", 3.0)
(2.0, None, None)
"""

from __future__ import annotations

import functools
import gzip
import json
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from importlib.metadata import entry_points
from importlib.resources import files
from typing import Any

from errcat._compat import Traversable
from errcat.errors import CatalogSourceError
from errcat.loaders import MANIFEST_NAME, bundled_data_dir, read_manifest

__all__ = ["Provenance", "default_provenance", "read_provenance", "trusted_dates"]

logger = logging.getLogger("errcat")

#: The entry point group data packages declare (as :mod:`errcat.plugins` reads it).
_GROUP = "errcat.catalogs"
#: A sidecar's header line ends here (the layout :meth:`errcat.history.History.dump` writes).
_LINEAGES_OPEN = b', "lineages": ['
#: At most this much of a sidecar is read for its header.
_HEADER_BYTES = 1 << 20
#: A distribution name as PEP 503 compares it.
_SEPARATORS = re.compile(r"[-_.]+")


def _dist(name: str) -> str:
    """A distribution's canonical name (``Flash_Attn`` and ``flash-attn`` are one).

    >>> _dist("Mistral_Common")
    'mistral-common'
    """
    return _SEPARATORS.sub("-", name).lower()


def trusted_dates(dates: Sequence[datetime]) -> tuple[float, ...] | None:
    """A window's revision dates (mined order) as sorted timestamps, or None when not real.

    Two revisions of one date are a build's fixed timestamp, and a first revision
    that is not the oldest is one too (a release dated years before the one mined
    before it): first-seen dates read from such a window mean nothing.

    >>> from datetime import datetime as d
    >>> trusted_dates([d(2024, 1, 2), d(2026, 11, 20), d(2026, 11, 1)]) is not None
    True
    >>> trusted_dates([d(2020, 2, 2), d(2020, 2, 2)]), trusted_dates([d(2025, 6, 1), d(2020, 2, 2)])
    (None, None)
    """
    stamps = [when.timestamp() for when in dates]
    if len(stamps) < 2 or len(set(stamps)) < len(stamps) or stamps[0] != min(stamps):
        return None
    return tuple(sorted(stamps))


@dataclass(frozen=True)
class Provenance:
    """Which projects build on which, and the dated windows of the projects' histories."""

    #: Each project (``owner/name``) and the projects it builds on, transitively.
    depends: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: Each project's mined revisions as sorted timestamps (trusted windows only).
    windows: Mapping[str, tuple[float, ...]] = field(default_factory=dict)

    @classmethod
    def of(
        cls, manifests: Iterable[Mapping[str, Any]], windows: Mapping[str, tuple[float, ...]]
    ) -> Provenance:
        """The facts of these manifests' ``builtFrom`` entries, with the windows given."""
        entries = [
            e
            for m in manifests
            for e in m.get("builtFrom") or ()
            if isinstance(e, Mapping) and isinstance(e.get("repo"), str) and e.get("dist")
        ]
        repo_of = {_dist(str(e["dist"])): str(e["repo"]) for e in entries}
        edges: dict[str, set[str]] = {}
        for e in entries:
            repo = str(e["repo"])
            for name in e.get("requires") or ():
                if _dist(str(name)) in repo_of:
                    edges.setdefault(repo, set()).add(repo_of[_dist(str(name))])
            for name in e.get("requiredBy") or ():
                if _dist(str(name)) in repo_of:
                    edges.setdefault(repo_of[_dist(str(name))], set()).add(repo)
        return cls({repo: _reach(repo, edges) for repo in edges}, dict(windows))

    def depends_on(self, project: str, other: str) -> bool:
        """Whether ``project`` builds on ``other`` (requires it, directly or through others)."""
        return project != other and other in self.depends.get(project, frozenset())

    def absent_before(self, project: str, when: float) -> float | None:
        """The latest revision of ``project``'s window before ``when`` (None: none, or no window).

        A message first seen at ``when`` was absent at that revision.
        """
        earlier = [stamp for stamp in self.windows.get(project, ()) if stamp < when]
        return max(earlier) if earlier else None

    def dated(self, project: str, when: float) -> bool:
        """Whether ``when`` is a revision of ``project``'s trusted window (a real date of it)."""
        return when in self.windows.get(project, ())


def _reach(start: str, edges: Mapping[str, set[str]]) -> frozenset[str]:
    """The projects ``start`` reaches through ``edges`` (itself only through a cycle)."""
    seen: set[str] = set()
    todo = list(edges.get(start, ()))
    while todo:
        repo = todo.pop()
        if repo not in seen:
            seen.add(repo)
            todo.extend(edges.get(repo, ()))
    return frozenset(seen)


def _sidecar_window(path: Traversable) -> tuple[str, tuple[float, ...]] | None:
    """A history sidecar's project and trusted window, from its header line alone."""
    try:
        with path.open("rb") as raw:
            stream = gzip.GzipFile(fileobj=raw) if path.name.endswith(".gz") else raw
            head = stream.readline(_HEADER_BYTES).rstrip(b"\r\n")
        if not head.endswith(_LINEAGES_OPEN):
            return None
        doc = json.loads(head[: -len(_LINEAGES_OPEN)] + b"}")
        dates = [datetime.fromisoformat(str(r["date"])) for r in doc["revisions"]]
    except (OSError, EOFError, ValueError, KeyError, TypeError):
        return None
    stamps = trusted_dates(dates)
    return (str(doc.get("repo", "")), stamps) if stamps is not None else None


def read_provenance(directories: Iterable[Traversable]) -> Provenance:
    """The facts recorded in these data directories (their manifests and history sidecars).

    A directory without a readable manifest adds nothing.
    """
    manifests: list[dict[str, Any]] = []
    windows: dict[str, tuple[float, ...]] = {}
    for directory in directories:
        try:
            manifest = read_manifest(directory)
        except CatalogSourceError:
            continue
        manifests.append(manifest)
        for name in manifest.get("history") or ():
            found = _sidecar_window(directory.joinpath(*str(name).split("/")))
            if found is not None and found[0]:
                windows[found[0]] = found[1]
    return Provenance.of(manifests, windows)


def _plugin_directories() -> list[Traversable]:
    """The data directories of installed plug-ins that name a package (not a callable)."""
    found: list[Traversable] = []
    for point in sorted(entry_points(group=_GROUP), key=lambda p: (p.name, p.value)):
        if ":" in point.value:
            continue
        try:
            directory = files(point.value)
        except (ImportError, TypeError, ValueError) as exc:
            logger.debug("provenance of %s skipped: %s", point.value, exc)
            continue
        if directory.joinpath(MANIFEST_NAME).is_file():
            found.append(directory)
    return found


@functools.cache
def default_provenance() -> Provenance:
    """The facts of the bundled data and the installed data packages, read once."""
    return read_provenance([bundled_data_dir(), *_plugin_directories()])
