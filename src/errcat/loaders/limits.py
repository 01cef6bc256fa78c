r"""Bounds on what reading a data file may cost: line length, JSON depth, decompressed size.

A catalog is data from elsewhere. Whatever it holds, reading it takes memory
in proportion to a record, not to the file: a line longer than
:data:`MAX_LINE_BYTES` is a bad line (skipped and reported, never held
whole), JSON nested deeper than the parser can follow is a bad line, and a
compressed file may decompress to at most :func:`inflate_limit` bytes (64
times its size, and never less than 64 MiB are allowed), so that a small
file cannot fill the disk or the memory.

>>> parse_json(b'{"a": [1, 2]}')
{'a': [1, 2]}
>>> parse_json("[" * 100_000)
Traceback (most recent call last):
...
errcat.loaders.limits.JSONTooDeepError: JSON nested too deeply to read
>>> parse_json(r'{"a": "\ud83d\ude00 ok"}')  # a surrogate pair is one character
{'a': '😀 ok'}
>>> parse_json(r'{"a": "\ud800"}')
Traceback (most recent call last):
...
errcat.loaders.limits.LoneSurrogateError: JSON holds a lone surrogate (half of a pair)
>>> import io
>>> list(bounded_lines(io.BytesIO(b"a\n" + b"x" * 20 + b"\nb"), max_line=8))
[b'a\n', OverlongLine(size=21), b'b']
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from errcat.errors import CatalogSourceError

__all__ = [
    "MAX_INFLATE_RATIO",
    "MAX_LINE_BYTES",
    "MIN_INFLATE_BYTES",
    "JSONTooDeepError",
    "OverlongLine",
    "bounded_lines",
    "inflate",
    "inflate_limit",
    "parse_json",
    "too_large",
]

#: The longest line of a data file read as a record (a record is a few KiB).
MAX_LINE_BYTES = 8 << 20
#: A compressed data file may decompress to at most this many times its size...
MAX_INFLATE_RATIO = 64
#: ...and a small one always to this many bytes.
MIN_INFLATE_BYTES = 64 << 20

_BLOCK = 1 << 20


class JSONTooDeepError(ValueError):
    """JSON nested deeper than the parser can follow (a bad line, not a crash)."""


class LoneSurrogateError(ValueError):
    r"""JSON text escaping half a surrogate pair (``\ud800``): a bad line, not text to keep.

    Python reads it into a string that cannot be written back as UTF-8, so a
    record holding one would fail later, far from its line (in ``release build``).
    """


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE_ESCAPE_BYTES = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def parse_json(data: str | bytes | bytearray) -> Any:
    """``json.loads``, with JSON nested too deeply raising :class:`JSONTooDeepError`.

    A string holding a lone surrogate raises :class:`LoneSurrogateError`.
    """
    try:
        value = json.loads(data)
    except RecursionError:
        raise JSONTooDeepError("JSON nested too deeply to read") from None
    escaped = (
        _SURROGATE_ESCAPE.search(data)
        if isinstance(data, str)
        else _SURROGATE_ESCAPE_BYTES.search(data)
    )
    if escaped is not None and _holds_surrogate(value):
        raise LoneSurrogateError("JSON holds a lone surrogate (half of a pair)")
    return value


def _holds_surrogate(value: Any) -> bool:
    """True when a string anywhere in a parsed JSON value holds a lone surrogate."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


@dataclass(frozen=True, slots=True)
class OverlongLine:
    """Stands for a line longer than the bound: its ``size`` in bytes (with its line end)."""

    size: int


def bounded_lines(
    stream: IO[bytes] | Iterable[bytes], *, max_line: int = MAX_LINE_BYTES
) -> Iterator[bytes | OverlongLine]:
    """The lines of a binary stream (or an iterable of lines), with their line ends.

    A line longer than ``max_line`` bytes is read past in blocks, never held
    whole, and yields an :class:`OverlongLine`.
    """
    readline = getattr(stream, "readline", None)
    if readline is None:
        for line in stream:
            yield OverlongLine(len(line)) if len(line) > max_line + 1 else line
        return
    while True:
        line = readline(max_line + 1)
        if not line:
            return
        if len(line) <= max_line or line.endswith(b"\n"):
            yield line
            continue
        size = len(line)
        while True:  # the rest of the overlong line
            rest = readline(_BLOCK)
            size += len(rest)
            if not rest or rest.endswith(b"\n"):
                break
        yield OverlongLine(size)


def inflate_limit(compressed_size: int) -> int:
    """How many bytes a compressed file of ``compressed_size`` bytes may decompress to.

    >>> inflate_limit(1 << 20) == 64 << 20, inflate_limit(10 << 20) == 640 << 20
    (True, True)
    """
    return max(MIN_INFLATE_BYTES, MAX_INFLATE_RATIO * compressed_size)


def too_large(source: str, limit: int) -> CatalogSourceError:
    """The error of a compressed file that decompresses to more than its bound."""
    return CatalogSourceError(
        f"{source}: decompresses to more than {limit} bytes ({MAX_INFLATE_RATIO} times its "
        "size): not a catalog (a compression bomb?)"
    )


def inflate(data: bytes, source: str, *, limit: int | None = None) -> bytes:
    r"""Decompress gzip ``data`` (all its members), to at most ``limit`` bytes.

    ``limit`` defaults to :func:`inflate_limit` of the data's size. Raises
    :class:`~errcat.errors.CatalogSourceError` naming ``source`` when the data
    is damaged, cut short or decompresses to more.

    >>> import gzip
    >>> inflate(gzip.compress(b"ab") + gzip.compress(b"c"), "x.gz")
    b'abc'
    >>> inflate(gzip.compress(b"\0" * 100), "x.gz", limit=10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    errcat.errors.CatalogSourceError: x.gz: decompresses to more than 10 bytes ...
    """
    bound = inflate_limit(len(data)) if limit is None else limit
    out = bytearray()
    rest = data
    try:
        while rest:
            inflater = zlib.decompressobj(wbits=31)
            pending = rest
            while pending:
                out += inflater.decompress(pending, bound + 1 - len(out))
                if len(out) > bound:
                    raise too_large(source, bound)
                pending = inflater.unconsumed_tail
            if not inflater.eof:
                raise CatalogSourceError(
                    f"{source}: cannot decompress: the compressed data is cut short"
                )
            rest = inflater.unused_data
    except zlib.error as exc:
        raise CatalogSourceError(f"{source}: cannot decompress: {exc}") from None
    return bytes(out)
