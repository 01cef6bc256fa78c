"""Catalogs that other distributions plug into the default catalog (entry points).

A distribution adds its records to :meth:`errcat.Catalog.default` (and so to
``match_error``, ``errcat match`` and ``errcat serve`` when no catalog is
named) by declaring an entry point in the group ``errcat.catalogs``. Its value
names one of:

* a **package** (``mycat = "mycat_data"``): its resource directory is a data
  directory (a ``manifest.json`` with ``records/*.jsonl[.gz]``, or data files),
  read with :meth:`errcat.Catalog.from_path`;
* a **callable** taking no argument (``mycat = "mycat_data:catalog"``) that
  returns a :class:`~errcat.Catalog`, a path (``str``, ``os.PathLike`` or an
  ``importlib.resources`` traversable) or a list of paths.

In ``pyproject.toml``::

    [project.entry-points."errcat.catalogs"]
    mycat = "mycat_data"

Plug-ins are loaded in the order of their distribution and entry point names,
after the bundled catalog: a plug-in record with the id of a bundled one
overrides it. A plug-in that fails to load (an import error, a wrong return
value, an unreadable file) is skipped with a :class:`PluginWarning` naming the
distribution and the entry point; it never stops errcat.

>>> from importlib.metadata import EntryPoint
>>> ep = EntryPoint("demo", "errcat.models:EXAMPLE_ENVELOPE_JSON", GROUP)
>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     catalogs_from([ep])
[]
>>> print(caught[0].message)  # doctest: +ELLIPSIS
errcat: skipped the catalog plug-in 'demo' (...) of an unknown distribution: TypeError: ...
"""

from __future__ import annotations

import os
import sys
import types
import warnings
from collections.abc import Iterable
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from errcat._compat import Traversable
from errcat.catalog import Catalog

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = ["GROUP", "PluginWarning", "catalogs_from", "installed_entry_points", "plugin_catalogs"]

#: The entry point group a distribution declares its catalog in.
GROUP = "errcat.catalogs"


class PluginWarning(UserWarning):
    """A catalog plug-in was skipped (it names the distribution and entry point)."""


def installed_entry_points() -> list[EntryPoint]:
    """The entry points of the group ``errcat.catalogs``, sorted by distribution and name."""
    if not _may_declare_plugins():
        return []
    from importlib.metadata import entry_points

    found = list(entry_points(group=GROUP))
    return sorted(found, key=lambda ep: (_dist_name(ep), ep.name, ep.value))


def _may_declare_plugins() -> bool:
    """False only when surely no installed distribution declares the group.

    ``importlib.metadata`` costs a one-shot ``errcat match`` a fifth of its time
    to import; a look at the ``entry_points.txt`` files of the distributions on
    ``sys.path`` tells, for a few milliseconds, whether it is needed at all.
    Finders that provide distributions from elsewhere are asked the full way.
    """
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        if hasattr(finder, "find_distributions") and finder is not PathFinder:
            return True
    for entry in sys.path:
        try:
            names = [p.name for p in Path(entry or ".").iterdir()]
        except OSError:
            continue  # a zip or a missing folder: nothing installed there as a dist-info
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                text = Path(entry or ".", name, "entry_points.txt").read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if GROUP in text:
                return True
    return False


def _dist_name(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return ""
    # Not dist.name: for a dist-info without METADATA, Python 3.12+ warns there that
    # the missing name will raise KeyError; .get() gives None, and the order stays.
    return str(dist.metadata.get("Name") or "")


def _as_path(value: object) -> Path | Traversable | None:
    if isinstance(value, Path | Traversable):
        return value
    if isinstance(value, str | os.PathLike):
        path = Path(value)
        return path if path.exists() else None
    return None


def _catalog_of(value: object) -> Catalog:
    """The catalog an entry point's object stands for (see the module docstring)."""
    if isinstance(value, types.ModuleType):
        return Catalog.from_path(files(value))
    if isinstance(value, Catalog):
        return value
    if callable(value):
        value = value()
        if isinstance(value, Catalog):
            return value
    single = _as_path(value)
    if single is not None:
        return Catalog.from_path(single)
    if isinstance(value, Iterable) and not isinstance(value, str | bytes):
        paths = list(value)
        resolved = [_as_path(p) for p in paths]
        if paths and all(p is not None for p in resolved):
            return Catalog.from_path(*(p for p in resolved if p is not None))
    what = type(value).__name__
    if isinstance(value, str):
        raise TypeError(f"it gave a {what} that names no file or directory")
    raise TypeError(f"it gave a {what}, not a Catalog, a path or a list of paths")


def catalogs_from(points: Iterable[EntryPoint]) -> list[Catalog]:
    """Load the catalog of each entry point; skip a broken one with a :class:`PluginWarning`."""
    out: list[Catalog] = []
    for ep in points:
        try:
            out.append(_catalog_of(ep.load()))
        except Exception as exc:  # a broken plug-in, whatever its fault, must never stop errcat
            dist = _dist_name(ep)
            owner = f"distribution {dist!r}" if dist else "an unknown distribution"
            warnings.warn(
                f"errcat: skipped the catalog plug-in {ep.name!r} ({ep.value}) of {owner}: "
                f"{type(exc).__name__}: {exc}",
                PluginWarning,
                stacklevel=2,
            )
    return out


def plugin_catalogs() -> list[Catalog]:
    """The catalogs of every installed distribution's ``errcat.catalogs`` entry point."""
    return catalogs_from(installed_entry_points())
