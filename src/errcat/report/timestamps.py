r"""When each event of a log happened, read from the timestamps of its lines.

Scan events carry the lines they span, not a time. :func:`event_times` reads
the logs again and takes the time of an event's first line, or, when that
line has none (a traceback printed without its log prefix), of the nearest
line before it that has one. These forms are read (the first found in a
line's first 120 characters):

* ``2026-01-02 03:04:05`` and ISO 8601 (``2026-01-02T03:04:05.123Z``,
  ``...+02:00``; times with an offset are turned into UTC), also with a
  ``,123`` fraction as Python's logging prints it;
* vLLM's ``INFO 01-02 03:04:05`` and syslog's ``Jan  2 03:04:05``, which have
  no year: it is taken from the last full date of the same file, else from the
  file's modification time.

>>> timestamp_of("[2026-01-02 03:04:05 TP0] Decode batch.", 2000)
datetime.datetime(2026, 1, 2, 3, 4, 5)
>>> timestamp_of("(Worker_TP1 pid=88) ERROR 03-06 10:05:08 [core.py:1] boom", 2026)
datetime.datetime(2026, 3, 6, 10, 5, 8)
>>> timestamp_of("no time here", 2026) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Final

from errcat.scan import LogSourceError, read_log

__all__ = ["event_times", "timestamp_of"]

_FULL: Final = re.compile(
    r"(?<!\d)(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})"
    r"(?:[.,](\d{1,9}))?(?:\s?(Z|[+-]\d{2}:?\d{2})(?!\d))?"
)
_LEVEL_MD: Final = re.compile(
    r"\b(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\s+(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\b"
)
_SYSLOG: Final = re.compile(
    r"\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2})\b"
)
_MONTHS: Final = {
    name: number
    for number, name in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}
#: How far into a line a timestamp is looked for.
_HEAD: Final = 120
#: Lines looked back for a timestamp when an event's first line has none.
LOOKBACK: Final = 16


def _full(match: re.Match[str]) -> datetime | None:
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    micro = int((fraction or "0")[:6].ljust(6, "0"))
    try:
        when = datetime(int(year), int(month), int(day), int(hour), int(minute), int(second), micro)
    except ValueError:
        return None
    if zone:
        offset = (
            timedelta(0)
            if zone == "Z"
            else (1 if zone[0] == "+" else -1)
            * timedelta(hours=int(zone[1:3]), minutes=int(zone[-2:]))
        )
        when = (when - offset).replace(tzinfo=None)
    return when


def timestamp_of(line: str, year: int) -> datetime | None:
    """The time a log line names (naive; UTC when the line gave an offset), else ``None``.

    ``year`` is used for forms that print none (vLLM's, syslog's).

    >>> timestamp_of('{"time":"2026-01-02T03:04:05.5+01:00","log":"x"}', 2000)
    datetime.datetime(2026, 1, 2, 2, 4, 5, 500000)
    >>> timestamp_of("Jan  2 03:04:05 host vllm[12]: ValueError: x", 2025)
    datetime.datetime(2025, 1, 2, 3, 4, 5)
    """
    head = line[:_HEAD]
    found = _FULL.search(head)
    if found is not None:
        return _full(found)
    short = _LEVEL_MD.search(head)
    if short is not None:
        month, day, hour, minute, second = (int(x) for x in short.groups())
    else:
        short = _SYSLOG.search(head)
        if short is None:
            return None
        month = _MONTHS[short.group(1)]
        day, hour, minute, second = (int(x) for x in short.groups()[1:])
    try:
        return datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None


def _year_of(path: str) -> int:
    try:
        return datetime.fromtimestamp(Path(path).stat().st_mtime, tz=timezone.utc).year
    except OSError:
        return datetime.now(tz=timezone.utc).year


def _file_times(path: str, wanted: list[int]) -> dict[int, datetime]:
    """The time of each wanted line (1-based, sorted) of one log file."""
    found: dict[int, datetime] = {}
    year = _year_of(path)
    recent: list[str] = []  # the last lines before this block (at most LOOKBACK)
    number = 0  # lines before this block
    carry = ""
    at = 0
    blocks = read_log(path)
    done = False
    while not done:
        block = next(blocks, None)
        if block is None:
            done = True
            text = carry
            if not text:
                break
        else:
            text = carry + block
            cut = text.rfind("\n") + 1
            text, carry = text[:cut], text[cut:]
            if not text:
                continue
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        while at < len(wanted) and wanted[at] <= number + len(lines):
            index = wanted[at] - number - 1
            for back in range(LOOKBACK + 1):
                i = index - back
                line = lines[i] if i >= 0 else (recent[i] if -i <= len(recent) else None)
                if line is None:
                    break
                when = timestamp_of(line, year)
                if when is not None:
                    found[wanted[at]] = when
                    full = _FULL.search(line[:_HEAD])
                    if full is not None:
                        year = when.year
                    break
            at += 1
        number += len(lines)
        recent = (recent + lines)[-LOOKBACK:]
        if at >= len(wanted):
            break
    return found


def event_times(
    places: Mapping[str, Iterable[int]], *, errors: list[tuple[str, str]] | None = None
) -> dict[tuple[str, int], datetime]:
    r"""The time of each ``(path, line)``, reading each file once; lines with no time are left out.

    ``places`` maps a log file to the line numbers wanted in it (an event's
    ``start_line``). ``<stdin>`` cannot be read again and gets no times. A file
    that can no longer be read is skipped and noted in ``errors``.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     log = pathlib.Path(tmp) / "a.log"
    ...     _ = log.write_text("[2026-01-02 03:04:05] start\nTraceback (most recent call last):\n")
    ...     event_times({str(log): [2]})[(str(log), 2)]
    datetime.datetime(2026, 1, 2, 3, 4, 5)
    """
    times: dict[tuple[str, int], datetime] = {}
    for path, lines in places.items():
        if path in ("<stdin>", "-") or not Path(path).exists():
            continue
        try:
            found = _file_times(path, sorted(set(lines)))
        except LogSourceError as exc:
            if errors is not None:
                errors.append((exc.path, exc.reason))
            continue
        times.update(((path, line), when) for line, when in found.items())
    return times
