r"""Reading log files as text: plain, gzip, zstd or stdin, in blocks.

>>> import gzip, io
>>> list(iter_log_bytes(io.BytesIO(gzip.compress(b"a\nb\n")), "x.gz"))
['a\nb\n']
"""

from __future__ import annotations

import codecs
import io
import os
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Final

from errcat.scan.events import LogSourceError

__all__ = ["iter_log_bytes", "read_log"]

_GZIP_MAGIC: Final = b"\x1f\x8b"
_ZSTD_MAGIC: Final = b"\x28\xb5\x2f\xfd"
_READ: Final = 1 << 20  # bytes read, and the most decompressed, at a time
# Compressed zstd bytes fed at a time. Four bytes can be a block of 128 KiB (zeros), so 64
# give at most ~2 MiB; on an ordinary log, 31 MiB of text take 41 ms to decompress so (16 ms
# in 4 KiB steps).
_ZSTD_STEP: Final = 64
_ZSTD_HINT: Final = (
    "is zstd-compressed; install the 'zstd' extra to read it (pip install 'errcat[zstd]')"
)


class _DamageError(Exception):
    """Compressed data that stops decoding: what was decoded before is kept."""


def _gunzip(raw: IO[bytes]) -> Iterator[bytes]:
    """The decompressed bytes of a gzip stream (every member), a MiB at most at a time.

    Damage (a bad block, a member cut short, bytes after the last member that
    are not another) raises :class:`_DamageError` after everything before it was given.
    """
    inflater = zlib.decompressobj(wbits=31)
    fed = False  # the current member has been given data
    while block := raw.read(_READ):
        pending = block
        while pending:
            if not fed and not pending.lstrip(b"\0"):
                pending = b""  # zeros after a member: padding, as gzip(1) allows
                break
            if not fed and not pending.startswith(_GZIP_MAGIC[: len(pending)]):
                raise _DamageError(f"{len(pending)}+ bytes after the gzip data are not gzip")
            fed = True
            try:
                out = inflater.decompress(pending, _READ)
            except zlib.error as exc:
                raise _DamageError(str(exc)) from None
            if out:
                yield out
            if inflater.eof:  # another member may follow
                pending = inflater.unused_data
                inflater, fed = zlib.decompressobj(wbits=31), False
            else:
                pending = inflater.unconsumed_tail
    while fed and not inflater.eof:  # what the last block left inside the inflater
        try:
            out = inflater.decompress(b"", _READ)
        except zlib.error as exc:
            raise _DamageError(str(exc)) from None
        if not out:
            break
        yield out
    if fed and not inflater.eof:
        raise _DamageError("the gzip data is cut short")


def _unzstd(raw: IO[bytes], path: str) -> Iterator[bytes]:
    """The decompressed bytes of a zstd stream (every frame); damage raises _DamageError."""
    try:
        import zstandard  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        yield from _unzstd_stdlib(raw, path)
        return
    decompressor = zstandard.ZstdDecompressor()
    frame = decompressor.decompressobj()
    fed = False
    while block := raw.read(_READ):
        for start in range(0, len(block), _ZSTD_STEP):  # small steps bound what each gives
            pending = block[start : start + _ZSTD_STEP]
            while pending:
                fed = True
                try:
                    out = frame.decompress(pending)
                except zstandard.ZstdError as exc:
                    raise _DamageError(str(exc)) from None
                if out:
                    yield out
                pending = b""
                if frame.eof:  # another frame may follow
                    pending = frame.unused_data
                    frame, fed = decompressor.decompressobj(), False
    if fed:
        raise _DamageError("the zstd data is cut short")


def _unzstd_stdlib(raw: IO[bytes], path: str) -> Iterator[bytes]:
    """Zstd through Python 3.14's own module (a damaged block loses the read it fell in)."""
    try:
        from compression import zstd  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise LogSourceError(path, _ZSTD_HINT) from None
    reader: Any = zstd.ZstdFile(raw)
    try:
        while data := reader.read(_READ):
            yield data
    except (OSError, EOFError, ValueError) as exc:
        raise _DamageError(str(exc)) from None


def iter_log_bytes(raw: IO[bytes], path: str) -> Iterator[str]:
    r"""Decode a binary log stream into text blocks, decompressing gzip and zstd by their magic.

    Bytes that are not UTF-8 become U+FFFD; line ends are kept as they are
    (``\r\n`` stays, a lone ``\r`` is not a line end). Compressed data is
    decompressed a MiB at most at a time. Damage (a truncated or corrupt
    stream, trailing bytes that are not more of it) raises
    :class:`LogSourceError` naming ``path``, after every whole line decoded
    before it was given: nothing readable is lost. The unfinished line the
    damage cut is not given (its length is in the error): the start of a
    record cut short (``[2026-01-02 03:04``) would be read as more of the
    message before it.

    >>> import gzip, io
    >>> list(iter_log_bytes(io.BytesIO(gzip.compress(b"a\nb\xff\n")), "x.gz"))
    ['a\nb\ufffd\n']
    >>> text = []
    >>> try:
    ...     text.extend(iter_log_bytes(io.BytesIO(gzip.compress(b"a\nb\n" * 9)[:-8]), "y.gz"))
    ... except LogSourceError as exc:
    ...     print(exc)
    y.gz: damaged after 36 bytes of text: the gzip data is cut short
    >>> "".join(text).count("a")
    9
    """
    buffered: Any = raw if hasattr(raw, "peek") else io.BufferedReader(raw)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    done = 0
    tail = ""  # text after the last line end given: held until its line ends
    try:
        head = buffered.peek(4)[:4]
        if head.startswith(_GZIP_MAGIC):
            blocks: Iterator[bytes] = _gunzip(buffered)
        elif head.startswith(_ZSTD_MAGIC):
            blocks = _unzstd(buffered, path)
        else:
            blocks = iter(lambda: buffered.read(_READ), b"")
        for data in blocks:
            done += len(data)
            text, tail = _whole_lines(tail + decoder.decode(data))
            if text:
                yield text
    except _DamageError as exc:
        text, tail = _whole_lines(tail + decoder.decode(b"", final=True))
        if text:
            yield text
        cut = f"; its unfinished last line ({len(tail)} characters) is not read" if tail else ""
        raise LogSourceError(path, f"damaged after {done} bytes of text: {exc}{cut}") from None
    except LogSourceError:
        raise
    except (OSError, EOFError, ValueError) as exc:
        text = tail + decoder.decode(b"", final=True)
        if text:
            yield text
        raise LogSourceError(path, f"cannot read: {exc}") from None
    text = tail + decoder.decode(b"", final=True)
    if text:
        yield text


#: A line longer than this is given without waiting for its end.
_LONGEST_HELD = 1 << 20


def _whole_lines(text: str) -> tuple[str, str]:
    r"""``text`` split after its last line end: the whole lines, and the rest.

    >>> _whole_lines("a\nb\nc"), _whole_lines("a\n"), _whole_lines("abc")
    (('a\nb\n', 'c'), ('a\n', ''), ('', 'abc'))
    """
    end = text.rfind("\n") + 1
    if end == 0 and len(text) > _LONGEST_HELD:
        return text, ""
    return text[:end], text[end:]


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
