"""What an API that takes a catalog accepts: what the command line takes, or a ``Catalog``.

``catalog=`` may be a :class:`~errcat.catalog.Catalog`, a path (a JSON Lines
or JSON file, a data directory, a release artifact), several paths (later ones
override earlier ones, as repeated ``--catalog`` do), or ``None`` for the
default catalog. Paths are read with the bundled catalog left out, as
``--no-bundled --catalog PATH`` reads them.

>>> from errcat.catalog import Catalog
>>> empty = Catalog([])
>>> as_catalog(empty) is empty, as_catalog(None) is None
(True, True)
>>> as_catalog(42)
Traceback (most recent call last):
...
TypeError: catalog must be a Catalog, a path or several paths, not int
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = ["CatalogArg", "as_catalog"]

#: A catalog as an API takes it.
CatalogArg: TypeAlias = "Catalog | str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None"


def as_catalog(value: CatalogArg) -> Catalog | None:
    """The :class:`~errcat.catalog.Catalog` that ``value`` names (None stays None: the default).

    Raises :class:`~errcat.errors.CatalogSourceError` when a path cannot be
    read, and ``TypeError`` for anything else.
    """
    from errcat.catalog import Catalog

    if value is None or isinstance(value, Catalog):
        return value
    if isinstance(value, (str, os.PathLike)):
        return Catalog.from_path(value)
    if (
        isinstance(value, Sequence)
        and value
        and all(isinstance(p, (str, os.PathLike)) for p in value)
    ):
        return Catalog.from_path(*value)
    raise TypeError(
        f"catalog must be a Catalog, a path or several paths, not {type(value).__name__}"
    )
