"""The user cache: where stored indexes and decompressed copies of data files go.

>>> import os
>>> os.environ["ERRCAT_CACHE_DIR"] = "/tmp/errcat-doc-cache"
>>> str(cache_dir())
'/tmp/errcat-doc-cache'
>>> del os.environ["ERRCAT_CACHE_DIR"]
"""

from __future__ import annotations

import hashlib
import os
import zlib
from pathlib import Path

from errcat.errors import CatalogSourceError

__all__ = ["CACHE_ENV", "cache_dir", "index_path_for", "inflated_copy", "inflated_target"]

#: Environment variable naming errcat's cache directory (``ERRCAT_INDEX_DIR``, its
#: older name, is still read).
CACHE_ENV = "ERRCAT_CACHE_DIR"


def cache_dir() -> Path:
    """The user cache: ``$ERRCAT_CACHE_DIR``, else ``$XDG_CACHE_HOME/errcat``, ``~/.cache/errcat``.

    It holds the stored indexes of data that cannot have one beside it (the
    bundled catalog among them) and the decompressed copies of ``.jsonl.gz``
    files. It is created when first written, not here.

    >>> import os
    >>> os.environ["ERRCAT_CACHE_DIR"] = "/tmp/errcat-doc-cache"
    >>> str(cache_dir())
    '/tmp/errcat-doc-cache'
    >>> del os.environ["ERRCAT_CACHE_DIR"]
    """
    override = os.environ.get(CACHE_ENV) or os.environ.get("ERRCAT_INDEX_DIR")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "errcat"


def index_path_for(source: Path, *, cached: bool = False) -> Path:
    """Where the stored index of a data file or directory lives.

    Next to the data (``<file>.errcat-index``, ``<dir>/.errcat-index``) when that
    place is writable, no cache directory is set and ``cached`` is false, else in
    :func:`cache_dir` (compressed data goes there: its decompressed copy does).
    """
    source = source.resolve()
    beside = (
        source / ".errcat-index"
        if source.is_dir()
        else source.with_name(source.name + ".errcat-index")
    )
    override = os.environ.get(CACHE_ENV) or os.environ.get("ERRCAT_INDEX_DIR")
    if not override and not cached and os.access(beside.parent, os.W_OK):
        return beside
    digest = hashlib.sha256(str(source).encode()).hexdigest()[:20]
    return cache_dir() / f"{digest}.errcat-index"


def inflated_target(path: Path, sha256: str | None, cache: Path | None) -> Path:
    """Where :func:`inflated_copy` puts the decompressed copy of ``path``."""
    from errcat.loaders import COMPRESSED_SUFFIX

    base = cache if cache is not None else cache_dir()
    if sha256 is None:
        stat = path.stat()
        key = f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}"
        name = hashlib.sha256(key.encode()).hexdigest()[:20]
    else:
        name = sha256[:20]
    return base / "inflated" / f"{name}-{path.name.removesuffix(COMPRESSED_SUFFIX)}"


def inflated_copy(path: Path, *, sha256: str | None = None, cache: Path | None = None) -> Path:
    """A decompressed copy of a ``.gz`` data file in the cache, made once.

    The stored index reads record bodies at byte offsets, which a gzip stream
    cannot give; its decompressed copy can. The copy is named after ``sha256``
    (the compressed file's, as a manifest lists it), which is then checked
    while decompressing, or else after the file's path, size and modification
    time. Raises :class:`~errcat.errors.CatalogSourceError` when the file is
    damaged or does not match ``sha256``, and ``OSError`` when the cache is not
    writable.
    """
    target = inflated_target(path, sha256, cache)
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    digest = hashlib.sha256()
    try:
        with path.open("rb") as raw, tmp.open("wb") as out:
            inflater = zlib.decompressobj(wbits=31)  # gzip framing
            for block in iter(lambda: raw.read(1 << 20), b""):
                digest.update(block)
                out.write(inflater.decompress(block))
            out.write(inflater.flush())
            complete = inflater.eof
        if not complete:
            raise CatalogSourceError(f"{path}: cannot decompress: the compressed data is cut short")
        if sha256 is not None and digest.hexdigest() != sha256:
            raise CatalogSourceError(
                f"{path}: sha256 does not match the manifest (expected {sha256}); "
                "the file was altered or truncated"
            )
        tmp.replace(target)
    except zlib.error as exc:
        raise CatalogSourceError(f"{path}: cannot decompress: {exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
    return target
