"""The process-wide default catalog: the bundled data, then every ``errcat.catalogs`` plug-in.

Built on first use, never at import, once per process and safe to share
between threads. :meth:`errcat.Catalog.bundled`, :meth:`errcat.Catalog.default`
and :meth:`errcat.Catalog.from_sources` are these functions; the policy lives
here, above the catalog type, the bundled data and the plug-ins it combines
(none of them imports it).

>>> default_catalog() is default_catalog()
True
>>> catalog_from_sources([], bundled=False)
Traceback (most recent call last):
...
ValueError: no catalog to load: no paths given and the bundled catalog left out
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

from errcat.bundled import load_bundled
from errcat.catalog import Catalog
from errcat.plugins import plugin_catalogs

__all__ = ["bundled_catalog", "catalog_from_sources", "default_catalog"]

_bundled: Catalog | None = None
_default: Catalog | None = None
_lock = threading.RLock()  # re-entrant: a plug-in may ask for the bundled catalog


def bundled_catalog() -> Catalog:
    """The catalog shipped with errcat, loaded once on first use (thread-safe)."""
    global _bundled  # noqa: PLW0603 - the process-wide cache of the bundled catalog
    if _bundled is None:
        with _lock:
            if _bundled is None:
                _bundled = load_bundled()
    return _bundled


def default_catalog() -> Catalog:
    """The bundled catalog plus every ``errcat.catalogs`` plug-in, loaded once (thread-safe).

    Plug-ins come after the bundled records and override those with the same
    id; a broken one is skipped with a warning (:mod:`errcat.plugins`).
    """
    global _default  # noqa: PLW0603 - the process-wide cache of the default catalog
    if _default is None:
        base = bundled_catalog()
        with _lock:
            if _default is None:
                extra = plugin_catalogs()
                catalog = base.merge(*extra) if extra else base
                catalog.data_version = base.data_version
                _default = catalog
    return _default


def catalog_from_sources(
    paths: Sequence[str | os.PathLike[str]] = (), *, bundled: bool = True
) -> Catalog:
    """The default catalog (unless ``bundled=False``) with the records of ``paths`` on top."""
    if not bundled and not paths:
        raise ValueError("no catalog to load: no paths given and the bundled catalog left out")
    extra = Catalog.from_path(*paths) if paths else None
    if not bundled:
        assert extra is not None
        return extra
    base = default_catalog()
    if extra is None:
        return base
    merged = base.merge(extra)
    merged.data_version = base.data_version
    return merged
