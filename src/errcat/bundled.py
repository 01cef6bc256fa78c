"""The catalog shipped inside errcat: its version, and loading it through the user cache.

The bundled data (``errcat/_data``: ``manifest.json`` and one
``records/<owner>__<name>.jsonl.gz`` per project) is read on first use, never
at import. A large catalog is served through a stored index
(:mod:`errcat.store`) built once into :func:`errcat.store.cache_dir` and named
after the data's checksum, so that every later process memory-maps it instead
of reading the records; the compressed files are decompressed there once too,
checked against the sha256 the manifest lists. When the cache cannot be
written, the catalog is loaded into memory instead (slower, never an error).

>>> bundled_data_version() == read_manifest(bundled_data_dir())["dataVersion"]
True
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import os
import shutil
import sys
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from errcat._compat import Traversable
from errcat.catalog import Catalog
from errcat.errors import CatalogSourceError
from errcat.history import sidecars_in
from errcat.loaders import bundled_data_dir, read_manifest
from errcat.sources import LAZY_BYTES, bundled_data_version, data_size, history_loader
from errcat.store import FORMAT_VERSION

if TYPE_CHECKING:
    from errcat.store import Store

__all__ = [
    "build_prebuilt",
    "bundled_data_version",
    "bundled_index_path",
    "data_checksum",
    "load_bundled",
    "prebuilt_dir",
]

logger = logging.getLogger("errcat")


def data_checksum(manifest: dict[str, Any]) -> str:
    """One sha256 naming a release's records: its ``contentSha256``, else one over its files.

    >>> data_checksum({"contentSha256": "ab" * 32}) == "ab" * 32
    True
    >>> len(data_checksum({"files": {"records/x.jsonl": {"sha256": "00"}}}))
    64
    """
    given = manifest.get("contentSha256")
    if isinstance(given, str) and given:
        return given
    files = manifest.get("files")
    text = json.dumps(files if isinstance(files, dict) else {}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def bundled_index_path(cache: Path, manifest: dict[str, Any]) -> Path:
    """Where the stored index of the bundled data lives in ``cache``: named by checksum and format.

    Two installs of errcat that share the user cache and the data but write
    different index formats keep an index each (one name for both, and each
    would rebuild the other's on every load).

    >>> name = bundled_index_path(Path("/c"), {"contentSha256": "0123456789" * 6 + "abcd"}).name
    >>> name == f"bundled-01234567890123456789-v{FORMAT_VERSION}.errcat-index"
    True
    """
    return cache / f"bundled-{data_checksum(manifest)[:20]}-v{FORMAT_VERSION}.errcat-index"


def prebuilt_dir() -> Traversable:
    """Where a wheel carries the bundled data's stored index, built when the wheel was."""
    return files("errcat") / "_prebuilt"


def _unpack_prebuilt(index: Path) -> bool:
    """Put the wheel's prebuilt index (``NAME.gz``) at ``index``; False when there is none.

    It is used only if it was built from this very data (its name holds the data's
    checksum) by this format of index (its header says; a mismatch is rebuilt).
    """
    packed = prebuilt_dir() / f"{index.name}.gz"
    if not packed.is_file():
        return False
    index.parent.mkdir(parents=True, exist_ok=True)
    tmp = index.with_name(f".{index.name}.{os.getpid()}.tmp")
    try:
        with packed.open("rb") as raw, gzip.open(raw) as source, tmp.open("wb") as out:
            shutil.copyfileobj(source, out, 1 << 20)
        tmp.replace(index)
    except (OSError, EOFError) as exc:  # a damaged copy: the index is built instead
        logger.info("errcat: prebuilt index unusable (%s); building one", exc)
        return False
    finally:
        tmp.unlink(missing_ok=True)
    return True


def _cached_store(data: Path, manifest: dict[str, Any]) -> Store | None:
    """The bundled data through its stored index in the user cache, or None when not possible."""
    from errcat.store import cache_dir, open_file_store

    cache = cache_dir()
    index = bundled_index_path(cache, manifest)
    try:
        if not index.is_file():
            _unpack_prebuilt(index)
        return open_file_store(data, index_path=index, cache=cache)
    except OSError as exc:  # CatalogSourceError included: a cache that cannot be written
        if isinstance(exc, CatalogSourceError) and "Cannot write" not in str(exc):
            raise  # damaged data: say so, do not hide it behind a slower load
        logger.warning(
            "errcat: cannot use the cache %s (%s); loading the bundled catalog into memory",
            cache,
            exc,
        )
        return None


def load_bundled(*, lazy: bool | None = None) -> Catalog:
    """Load the bundled catalog (see the module docstring); ``lazy`` forces or forbids the index.

    By default the stored index is used when the records are
    :data:`errcat.sources.LAZY_BYTES` or more, decompressed.
    """
    data = bundled_data_dir()
    manifest = read_manifest(data)
    version = str(manifest["dataVersion"])
    store = None
    if isinstance(data, Path) and lazy is not False and (lazy or data_size(data) >= LAZY_BYTES):
        store = _cached_store(data, manifest)
    if store is not None:
        for problem in store.problems:
            logger.warning("skipped: %s", problem)
        sidecars = sidecars_in(data) if isinstance(data, Path) else []
        # The history is read when a match first asks for it, not on every load.
        catalog = Catalog.of_stores(
            [store], version, history=history_loader(sidecars) if sidecars else None
        )
    else:
        catalog = Catalog.from_path(data, lazy=False)
        catalog.data_version = version
    if sys.flags.dev_mode:  # pragma: no cover - a hint for whoever profiles a first run
        logger.debug("bundled catalog: %d records from %s", len(catalog), data)
    return catalog


def build_prebuilt(data: Path, out: Path) -> Path:
    """Build the stored index of the data directory ``data`` into ``out``, gzip-compressed.

    What a wheel ships in ``errcat/_prebuilt`` (see ``hatch_build.py``) so that
    the first answer after install does not index the data: the file is named as
    :func:`bundled_index_path` names it, plus ``.gz``. Returns its path.
    """
    import tempfile

    from errcat.store import open_file_store

    manifest = read_manifest(data)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        index = bundled_index_path(Path(tmp), manifest)
        store = open_file_store(data, index_path=index, cache=Path(tmp), progress=False)
        if store is None:
            raise CatalogSourceError(f"{data}: not JSON Lines data; nothing to prebuild")
        target = out / f"{index.name}.gz"
        with (
            index.open("rb") as source,
            target.open("wb") as raw,
            gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0) as packed,
        ):
            shutil.copyfileobj(source, packed, 1 << 20)
    return target
