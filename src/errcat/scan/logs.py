r"""Reading log files as text: plain, gzip, zstd or stdin, in blocks.

>>> import gzip, io
>>> list(iter_log_bytes(io.BytesIO(gzip.compress(b"a\nb\n")), "x.gz"))
['a\nb\n']
"""

from __future__ import annotations

import codecs
import gzip
import io
import os
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final

from errcat.scan.events import LogSourceError

if TYPE_CHECKING:
    pass

__all__ = ["iter_log_bytes", "read_log"]


_GZIP_MAGIC: Final = b"\x1f\x8b"


_ZSTD_MAGIC: Final = b"\x28\xb5\x2f\xfd"


_READ: Final = 1 << 20


_ZSTD_HINT: Final = (
    "is zstd-compressed; install the 'zstd' extra to read it (pip install 'errcat[zstd]')"
)


def _zstd_reader(raw: IO[bytes], path: str) -> IO[bytes]:
    try:  # Python 3.14+
        from compression import zstd  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        pass
    else:
        reader: IO[bytes] = zstd.ZstdFile(raw)
        return reader
    try:
        import zstandard  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise LogSourceError(path, _ZSTD_HINT) from None
    stream: IO[bytes] = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
    return stream


def iter_log_bytes(raw: IO[bytes], path: str) -> Iterator[str]:
    r"""Decode a binary log stream into text blocks, decompressing gzip and zstd by their magic.

    Bytes that are not UTF-8 become U+FFFD; line ends are kept as they are
    (``\r\n`` stays, a lone ``\r`` is not a line end). Read errors raise
    :class:`LogSourceError` naming ``path``.

    >>> import gzip, io
    >>> list(iter_log_bytes(io.BytesIO(gzip.compress(b"a\nb\xff\n")), "x.gz"))
    ['a\nb\ufffd\n']
    """
    buffered: Any = raw if hasattr(raw, "peek") else io.BufferedReader(raw)
    try:
        head = buffered.peek(4)[:4]
        stream: IO[bytes] = buffered
        if head.startswith(_GZIP_MAGIC):
            stream = gzip.GzipFile(fileobj=buffered, mode="rb")  # type: ignore[assignment]
        elif head.startswith(_ZSTD_MAGIC):
            stream = _zstd_reader(buffered, path)
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        while data := stream.read(_READ):
            text = decoder.decode(data)
            if text:
                yield text
        text = decoder.decode(b"", final=True)
        if text:
            yield text
    except LogSourceError:
        raise
    except (OSError, EOFError, zlib.error, ValueError) as exc:
        raise LogSourceError(path, f"cannot read: {exc}") from None
    except Exception as exc:  # zstandard.ZstdError and other decompressor errors
        if type(exc).__name__ != "ZstdError":
            raise
        raise LogSourceError(path, f"cannot read: {exc}") from None


def read_log(path: str | os.PathLike[str], *, stdin: IO[bytes] | None = None) -> Iterator[str]:
    r"""Yield the text of a log file in blocks (``"-"`` reads ``stdin``, default standard input).

    gzip and zstd files are decompressed (zstd needs the ``zstd`` extra or
    Python 3.14). Raises :class:`LogSourceError` when the file cannot be read.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     log = pathlib.Path(tmp) / "a.log"
    ...     _ = log.write_text("x\nValueError: y\n")
    ...     "".join(read_log(log))
    'x\nValueError: y\n'
    """
    name = os.fspath(path)
    if name == "-":
        yield from iter_log_bytes(stdin if stdin is not None else sys.stdin.buffer, "<stdin>")
        return
    try:
        raw = Path(name).open("rb")  # noqa: SIM115 - closed below, once read
    except OSError as exc:
        raise LogSourceError(name, f"cannot open: {exc.strerror or exc}") from None
    with raw:
        yield from iter_log_bytes(raw, name)
