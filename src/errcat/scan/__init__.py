r"""Find every exception event in whole log files, at close to read speed.

A fleet's logs are mostly noise. :func:`scan_chunks` reads a log as an
iterator of text chunks (lines as ``for line in f`` gives them, or blocks of
any size) and yields one :class:`ScanEvent` per exception event:

* a traceback, reassembled across lines, also when it starts in the middle of
  a log message (``[... TP3] Scheduler hit an exception: Traceback ...``);
* a chain of tracebacks ("The above exception was the direct cause ...") is one
  event, reported with the exception that ended it;
* a bare ``Class: message`` line (or a repr, a pydantic line, an HTTP error
  body) whose class name ends in ``Error``, ``Exception`` or ``Warning``.

Lines are keyed by the stream their log prefix names (``TP3``,
``(Worker_TP1 pid=88)``, ``(VllmWorker rank=0 pid=410)``, ``[rank0]:``, a
compose service), so ranks printing
the same traceback line by line are put back together one by one; a line
without such a prefix belongs to the stream of the line before it. The text of
each event goes to :func:`errcat.extract.extract_reports` (which strips the
prefixes) and to :func:`errcat.match_error`.

Speed: a block of lines is searched for the few words that every event holds
(``Traceback``, ``Error``, ``Exception``, ``Warning``) with ``str.find``, and
the lines between are never looked at one by one. Only while an event is open
are lines read one at a time.

The function is plain Python over an iterator, so any engine can call it on
its own batches (``errcat.spark`` does; so can Dask or Ray):

>>> from errcat.scan import scan_chunks
>>> log = [
...     "[2026-01-02 03:04:05 TP0] Decode batch. #running-req: 1\n",
...     "[2026-01-02 03:04:05 TP3] Scheduler hit an exception: "
...     "Traceback (most recent call last):\n",
...     '  File "/srv/sglang/srt/managers/scheduler.py", line 12, in run\n',
...     "    raise ValueError('bad x')\n",
...     "ValueError: bad x\n",
...     "[2026-01-02 03:04:06 TP0] Decode batch. #running-req: 1\n",
... ]
>>> [(e.start_line, e.end_line, e.error_class, e.message) for e in scan_chunks(log, "x.log")]
[(2, 5, 'ValueError', 'bad x')]

The package's modules: :mod:`~errcat.scan.events` (what a scan reports),
:mod:`~errcat.scan.logs` (reading files), :mod:`~errcat.scan.scanner` and
:mod:`~errcat.scan.command` (``errcat scan``).
"""

from errcat.scan.command import add_arguments, run
from errcat.scan.events import EVENT_FIELDS, LogSourceError, ScanEvent, ScanStats, summarize
from errcat.scan.lines import final_report
from errcat.scan.logs import iter_log_bytes, read_log
from errcat.scan.scanner import scan_chunks, scan_paths, scan_text

__all__ = [
    "EVENT_FIELDS",
    "LogSourceError",
    "ScanEvent",
    "ScanStats",
    "add_arguments",
    "final_report",
    "iter_log_bytes",
    "read_log",
    "run",
    "scan_chunks",
    "scan_paths",
    "scan_text",
    "summarize",
]
