"""The user cache: where stored indexes and decompressed copies of data files go.

>>> import os
>>> os.environ["ERRCAT_CACHE_DIR"] = "/tmp/errcat-doc-cache"
>>> str(cache_dir())
'/tmp/errcat-doc-cache'
>>> del os.environ["ERRCAT_CACHE_DIR"]
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from errcat.errors import CatalogSourceError
from errcat.loaders.limits import inflate_limit, too_large

__all__ = [
    "CACHE_ENV",
    "cache_dir",
    "copy_is_intact",
    "index_path_for",
    "inflated_copy",
    "inflated_target",
]

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
    time. A stamp beside the copy (its size, time and a checksum of its ends)
    is checked on every use: a copy truncated, emptied or overwritten since is
    made again, never trusted. The copy may be at most
    :func:`~errcat.loaders.limits.inflate_limit` bytes. Raises
    :class:`~errcat.errors.CatalogSourceError` when the file is damaged, does
    not match ``sha256`` or decompresses to more, and ``OSError`` when the
    cache is not writable.
    """
    target = inflated_target(path, sha256, cache)
    if copy_is_intact(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    digest = hashlib.sha256()
    limit = inflate_limit(path.stat().st_size)
    written = 0

    def blocks() -> Iterator[bytes]:
        for block in iter(lambda: raw.read(1 << 20), b""):
            digest.update(block)
            yield block

    try:
        with path.open("rb") as raw, tmp.open("wb") as out:
            for chunk in _inflated(blocks(), path):
                written += len(chunk)
                if written > limit:
                    raise too_large(str(path), limit)
                out.write(chunk)
        if sha256 is not None and digest.hexdigest() != sha256:
            raise CatalogSourceError(
                f"{path}: sha256 does not match the manifest (expected {sha256}); "
                "the file was altered or truncated"
            )
        stamp = _stamp_of(tmp)
        tmp.replace(target)
        _stamp_path(target).parent.mkdir(exist_ok=True)
        _stamp_path(target).write_text(json.dumps(stamp), encoding="utf-8")
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _inflated(blocks: Iterable[bytes], path: Path) -> Iterator[bytes]:
    """The decompressed bytes of gzip ``blocks`` (every member), a MiB at most at a time."""
    inflater = zlib.decompressobj(wbits=31)  # gzip framing
    fed = members = 0
    try:
        for block in blocks:
            pending = block
            while pending:
                fed += 1
                yield inflater.decompress(pending, 1 << 20)
                if inflater.eof:  # another member may follow
                    members += 1
                    pending = inflater.unused_data
                    inflater = zlib.decompressobj(wbits=31)
                    fed = 0
                else:
                    pending = inflater.unconsumed_tail
        while fed and not inflater.eof:  # what the last block left inside the inflater
            chunk = inflater.decompress(b"", 1 << 20)
            if not chunk:
                break
            yield chunk
        if inflater.eof:
            members, fed = members + 1, 0
    except zlib.error as exc:
        raise CatalogSourceError(f"{path}: cannot decompress: {exc}") from None
    if fed or not members:
        raise CatalogSourceError(f"{path}: cannot decompress: the compressed data is cut short")


_ENDS = 64 << 10  # bytes at each end of a copy that its stamp checksums


def _stamp_path(copy: Path) -> Path:
    """Where a copy's stamp is kept: ``<cache>/stamps/<copy name>.json``."""
    return copy.parent.parent / "stamps" / f"{copy.name}.json"


def _stamp_of(copy: Path) -> dict[str, object]:
    """What a decompressed copy's stamp records: size, modification time, its ends' sha256."""
    stat = copy.stat()
    ends = hashlib.sha256()
    with copy.open("rb") as fh:
        ends.update(fh.read(_ENDS))
        if stat.st_size > _ENDS:
            fh.seek(max(_ENDS, stat.st_size - _ENDS))
            ends.update(fh.read(_ENDS))
    return {"size": stat.st_size, "mtimeNs": stat.st_mtime_ns, "ends": ends.hexdigest()}


def copy_is_intact(copy: Path) -> bool:
    """True when a decompressed copy is as it was made (its stamp agrees): safe to use."""
    try:
        stamp = json.loads(_stamp_path(copy).read_text(encoding="utf-8"))
        return bool(copy.is_file() and _stamp_of(copy) == stamp)
    except (OSError, ValueError):
        return False
