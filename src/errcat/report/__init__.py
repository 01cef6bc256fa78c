r"""An HTML report of a log scan: what went wrong, how often, since when, where, and what to do.

``errcat scan --html REPORT LOG...`` writes it; from Python,
:func:`write_report` takes the events :func:`errcat.scan.scan_paths` found.
The page is one self-contained file (no external assets): the events grouped
by record with counts, a timeline chart, a table per file, and each group's
advice with its first and last line numbers. Its size grows with the number
of groups and files, not of events, so 100k events stay readable.

>>> import pathlib, tempfile
>>> from errcat.scan import scan_paths
>>> with tempfile.TemporaryDirectory() as tmp:
...     log = pathlib.Path(tmp) / "node-1.log"
...     _ = log.write_text("[2026-01-02 03:04:05] ValueError: unknown mode 3\n")
...     events = list(scan_paths([log]))
...     size = write_report(pathlib.Path(tmp) / "report.html", events, inputs=[str(log)])
>>> size > 1000
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from errcat.errors import ErrcatError
from errcat.report.groups import EventGroup, FileRow, Place, file_rows, group_events
from errcat.report.page import ReportInfo, render_page
from errcat.report.timestamps import event_times, timestamp_of

if TYPE_CHECKING:
    from errcat.catalog import Catalog
    from errcat.scan import ScanEvent, ScanStats

__all__ = [
    "EventGroup",
    "FileRow",
    "Place",
    "ReportInfo",
    "ReportWriteError",
    "event_times",
    "file_rows",
    "group_events",
    "render_page",
    "render_report",
    "timestamp_of",
    "write_report",
]


class ReportWriteError(ErrcatError, OSError):
    """The report file cannot be written."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: cannot write the report: {reason}")
        self.path = path
        self.reason = reason


def render_report(
    events: Sequence[ScanEvent],
    *,
    catalog: Catalog | None = None,
    stats: ScanStats | None = None,
    inputs: Sequence[str] = (),
    title: str = "errcat scan report",
) -> str:
    """The report's HTML: times read back from the events' log files, answers from ``catalog``."""
    from errcat.catalog import Catalog

    places: dict[str, list[int]] = {}
    for event in events:
        places.setdefault(event.path, []).append(event.start_line)
    errors: list[tuple[str, str]] = []
    times = event_times(places, errors=errors)
    return render_page(
        events,
        catalog=catalog if catalog is not None else Catalog.default(),
        times=times,
        info=ReportInfo(title=title, inputs=tuple(inputs), stats=stats),
    )


def write_report(
    path: str | os.PathLike[str],
    events: Sequence[ScanEvent],
    *,
    catalog: Catalog | None = None,
    stats: ScanStats | None = None,
    inputs: Sequence[str] = (),
    title: str = "errcat scan report",
) -> int:
    """Write the report of ``events`` to ``path`` (UTF-8); return its size in bytes.

    Raises :class:`ReportWriteError` (an ``OSError``) naming the path when it
    cannot be written.
    """
    page = render_report(events, catalog=catalog, stats=stats, inputs=inputs, title=title)
    data = page.encode("utf-8")
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise ReportWriteError(os.fspath(path), exc.strerror or str(exc)) from None
    return len(data)
