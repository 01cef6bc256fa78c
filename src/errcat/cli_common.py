"""What every ``errcat`` command shares: the catalog options, usage errors, a progress line.

Each command module (``errcat.scan``, ``errcat.server``, ``errcat.release``,
``errcat.mine``, ``errcat.mine.history_cli``) has ``add_arguments(parser)`` and
one :class:`Command` signature, ``run(args, *, stdin, stdout, stderr) -> int``;
the dispatcher in :mod:`errcat.cli` calls them all alike. This module sits
below them all, so none of them imports the dispatcher.

>>> parser = argparse.ArgumentParser(parents=[catalog_options()])
>>> args = parser.parse_args(["--catalog", "a.jsonl", "--no-bundled"])
>>> catalog_sources(args)
(['a.jsonl'], True)
>>> parse_date("2026-01-02").isoformat()
'2026-01-02T00:00:00+00:00'
"""

from __future__ import annotations

import argparse
import collections
import io
import os
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol, TextIO

from errcat.errors import ErrcatError

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = [
    "MAX_LINE_CHARS",
    "MAX_TEXT_BYTES",
    "PROG",
    "Command",
    "StatusLine",
    "UsageError",
    "binary_stream",
    "catalog_from_args",
    "catalog_options",
    "catalog_sources",
    "check_output",
    "line_heads",
    "parse_date",
    "read_tail",
    "tolerant_output",
]

#: The most of one pasted text ``errcat match`` reads (its end: where a traceback ends).
MAX_TEXT_BYTES = 256 << 10
#: The most of one line ``errcat match --lines`` reads (its start: the class and message).
MAX_LINE_CHARS = 64 << 10

#: The name the commands print before their messages.
PROG = "errcat"


class UsageError(ErrcatError, ValueError):
    """Bad usage of the command line: the command prints it and exits with status 2."""


class Command(Protocol):
    """What every command module's ``run`` is: parsed arguments and three streams in, a status out.

    ``stdin`` may be a text stream (with a ``buffer`` for bytes) or a binary one.
    """

    def __call__(
        self,
        args: argparse.Namespace,
        *,
        stdin: IO[Any],
        stdout: TextIO,
        stderr: TextIO,
    ) -> int:
        """Run the command; the exit status (0 success, 1 nothing found, 2 bad usage)."""
        ...


def catalog_options(dest_prefix: str = "") -> argparse.ArgumentParser:
    """A parent parser holding ``--catalog PATH`` (repeatable) and ``--no-bundled``.

    The main parser takes them before the command under ``dest_prefix``
    ``"global_"``: argparse lets a subparser's defaults overwrite the main
    parser's, so the two places need separate names.
    """
    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group("catalog")
    group.add_argument(
        "--catalog",
        action="append",
        dest=f"{dest_prefix}catalog",
        default=[],
        metavar="PATH",
        help="also load records from PATH (file or directory); repeatable, later wins",
    )
    group.add_argument(
        "--no-bundled",
        action="store_true",
        dest=f"{dest_prefix}no_bundled",
        help="do not load the bundled catalog (use only --catalog sources)",
    )
    return common


def catalog_sources(args: argparse.Namespace) -> tuple[list[str], bool]:
    """The ``--catalog`` paths (before and after the command) and whether ``--no-bundled`` is on."""
    sources = [*getattr(args, "global_catalog", []), *getattr(args, "catalog", [])]
    no_bundled = getattr(args, "global_no_bundled", False) or getattr(args, "no_bundled", False)
    return sources, bool(no_bundled)


def catalog_from_args(args: argparse.Namespace, stderr: TextIO, *, prog: str = PROG) -> Catalog:
    """The catalog that ``--catalog`` / ``--no-bundled`` (before or after the command) name.

    Load problems are printed to ``stderr`` as warnings; ``--no-bundled``
    without a ``--catalog`` is a :class:`UsageError`. An unreadable source
    raises :class:`~errcat.errors.CatalogSourceError`.
    """
    from errcat.catalog import Catalog

    sources, no_bundled = catalog_sources(args)
    if no_bundled and not sources:
        raise UsageError("--no-bundled needs at least one --catalog PATH")
    catalog = Catalog.from_sources(sources, bundled=not no_bundled)
    for problem in catalog.problems:
        print(f"{prog}: warning: skipped {problem}", file=stderr)
    return catalog


def parse_date(text: str) -> datetime:
    """An ISO-8601 date or time; one without a zone is UTC. ``ValueError`` when it is none.

    >>> parse_date("2026-03-04T05:06:07Z").isoformat()
    '2026-03-04T05:06:07+00:00'
    >>> parse_date("March")
    Traceback (most recent call last):
    ...
    ValueError: invalid date 'March' (expected ISO-8601, e.g. 2026-01-02)
    """
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"invalid date {text!r} (expected ISO-8601, e.g. 2026-01-02)") from None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


class StatusLine:
    r"""One self-overwriting progress line on a terminal, redrawn at most every ``interval`` s.

    It writes nothing when ``stream`` is not a terminal (unless ``enabled`` says
    otherwise), so commands can call it unconditionally.

    >>> import io
    >>> out = io.StringIO()
    >>> line = StatusLine(out, enabled=True, interval=0)
    >>> line.show("mining 1/2 a.py")
    >>> line.clear()
    >>> out.getvalue()
    '\r\x1b[Kmining 1/2 a.py\r\x1b[K'
    """

    def __init__(
        self,
        stream: TextIO,
        *,
        enabled: bool | None = None,
        interval: float = 0.2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.enabled = _is_terminal(stream) if enabled is None else enabled
        self.interval = interval
        self._clock = clock
        self._last = float("-inf")
        self._shown = False

    def due(self) -> bool:
        """True when a redraw would be shown now (so a caller may skip building its text)."""
        return self.enabled and self._clock() - self._last >= self.interval

    def show(self, text: str, *, force: bool = False) -> None:
        """Replace the line with ``text`` (unless the last redraw was under ``interval`` ago)."""
        if not self.enabled or (not force and not self.due()):
            return
        self._last = self._clock()
        self.stream.write(f"\r\x1b[K{text}")
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        """Erase the line, so that other output starts on a clean line."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed stream
        return False


def tolerant_output(*streams: TextIO) -> None:
    r"""Let the process's own stdout and stderr write any text (``\udcff``-escaped if need be).

    Text from argv, file names and stdin may hold bytes that are not UTF-8
    (Python keeps them as lone surrogates); a strict stream would raise
    ``UnicodeEncodeError`` on printing them. Only ``sys.stdout`` and
    ``sys.stderr`` are changed, and only when they are strict.
    """
    for stream in streams:
        if stream in (sys.stdout, sys.stderr) and getattr(stream, "errors", None) == "strict":
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(errors="backslashreplace")


def binary_stream(stream: IO[Any]) -> IO[bytes]:
    """The bytes under a text stream (``sys.stdin.buffer``), or a stream that is binary already.

    A text stream without a buffer (a ``StringIO``) is read whole and encoded.
    """
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        return buffer  # type: ignore[no-any-return]
    probe: object = stream
    if isinstance(probe, io.TextIOBase):
        data = probe.read()
        return io.BytesIO(data.encode("utf-8", "surrogateescape"))
    return stream


def read_tail(stream: IO[bytes], limit: int = MAX_TEXT_BYTES) -> tuple[str, int]:
    r"""The last ``limit`` bytes of a stream as text (not UTF-8: U+FFFD), and how many it held.

    Memory stays about ``limit`` whatever the stream holds. When the text is
    cut, it starts at a line start when the kept part has one.

    >>> read_tail(io.BytesIO(b"noise\nValueError: x\n"), limit=16)
    ('ValueError: x\n', 20)
    """
    kept: collections.deque[bytes] = collections.deque()
    size = total = 0
    while block := stream.read(1 << 20):
        kept.append(block)
        size += len(block)
        total += len(block)
        while size - len(kept[0]) >= limit:
            size -= len(kept.popleft())
    data = b"".join(kept)[-limit:] if total > limit else b"".join(kept)
    if total > limit and b"\n" in data[:-1]:
        data = data[data.index(b"\n") + 1 :]
    return data.decode("utf-8", "replace"), total


def line_heads(stream: IO[bytes], limit: int = MAX_LINE_CHARS) -> Iterator[tuple[str, int]]:
    r"""Each line of a stream (without its line end) cut to its first ``limit`` bytes, and its size.

    A longer line is read past in blocks, never held whole.

    >>> list(line_heads(io.BytesIO(b"a\r\n" + b"b" * 10 + b"\nc"), limit=4))
    [('a', 3), ('bbbb', 11), ('c', 1)]
    """
    while line := stream.readline(limit + 1):
        size = len(line)
        if len(line) > limit and not line.endswith(b"\n"):
            line = line[:limit]
            while rest := stream.readline(1 << 20):
                size += len(rest)
                if rest.endswith(b"\n"):
                    break
        yield line.rstrip(b"\r\n").decode("utf-8", "replace"), size


def check_output(path: str | None, option: str) -> None:
    """Refuse, before any work is done, an output path that cannot be written.

    Raises :class:`UsageError` naming ``option`` when ``path`` is a folder,
    its folder does not exist, or cannot be written to.

    >>> check_output("/no/such/folder/out.jsonl", "-o")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    errcat.cli_common.UsageError: -o /no/such/folder/out.jsonl: the folder ... does not exist
    """
    if path is None or path == "-":
        return
    target = Path(path).absolute()
    if target.is_dir():
        raise UsageError(f"{option} {path}: is a folder, not a file")
    if not target.parent.is_dir():
        raise UsageError(f"{option} {path}: the folder {target.parent} does not exist")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {path}: cannot write in {target.parent}")
