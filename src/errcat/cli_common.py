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
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import IO, TYPE_CHECKING, Any, Protocol, TextIO

from errcat.errors import ErrcatError

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = [
    "PROG",
    "Command",
    "StatusLine",
    "UsageError",
    "catalog_from_args",
    "catalog_options",
    "catalog_sources",
    "parse_date",
]

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
