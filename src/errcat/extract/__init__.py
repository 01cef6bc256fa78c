r"""Find the Python exceptions in raw pasted error text.

Users paste tracebacks, server logs, CI output and chat messages. This module
turns such text into :class:`ExceptionReport` values (class, message, frames,
position), the input of the matcher. Everything here is a pure function of the
text: no I/O and no state kept between calls.

The pipeline:

1. **Clean lines.** The text is split into lines, each remembering where it
   came from in the original text. On each line, ``\r`` progress output is
   resolved (what a terminal would show), ANSI escapes and control characters
   are removed, Kubernetes/docker JSON lines are decoded, and log prefixes are
   stripped repeatedly (timestamps, levels, ``[rank0]:``, ``(Worker pid=1)``,
   ``vllm-1  |``, pytest's ``E`` gutter, Markdown quotes). A prefix may carry a
   *stream identity* (rank, pid, TP rank, container) and/or start a new *log
   record*; both are remembered. Exception-group gutters are removed and
   Markdown fences become boundaries.
2. **Demultiplex streams.** Lines are grouped by stream identity (a line
   without one belongs to the stream of the line before it), so that ranks
   printing the same traceback line by line are parsed one at a time.
3. **Find tracebacks and exception lines.** Each stream is scanned for
   ``Traceback (most recent call last):`` headers (whose frames are collected
   up to the exception line), bare ``Class: message`` lines, reprs such as
   ``ValueError('x')``, pydantic ``Value error, ...`` lines and HTTP error
   bodies.
4. **Build reports.** A message continues over the following lines until a
   blank line, a chain phrase, a new traceback, a frame, a new exception line
   or a new log record. The paragraphs after that blank line, up to one of
   the others, are kept apart as the report's ``tail``: tips that belong to
   the message, or unrelated text (the matcher tries both).
5. **Find embedded reports.** The message of every report is scanned again
   for exceptions inside it (``RuntimeError: failed: ValueError: bad x``, a
   repr or a JSON body whose decoded text holds a whole traceback, ...).
6. **Dedupe.** Reports are ordered as they appear in the text and identical
   ones (same class, message and frames) are kept once.

>>> reports = extract_reports(
...     "[rank0]: Traceback (most recent call last):\n"
...     '[rank0]:   File "train.py", line 3, in <module>\n'
...     "[rank0]: ValueError: bad x\n"
... )
>>> [(r.kind, r.error_class, r.message, r.frames[0].line) for r in reports]
[('traceback', 'ValueError', 'bad x', 3)]
"""

from __future__ import annotations

from errcat.extract.lines import clean_text
from errcat.extract.pipeline import extract_reports
from errcat.extract.reports import ExceptionReport, Frame, ReportKind

__all__ = ["ExceptionReport", "Frame", "ReportKind", "clean_text", "extract_reports"]
