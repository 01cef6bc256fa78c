"""Mine draft catalog records from Python source.

The miner walks ``.py`` files with :mod:`ast` and turns every raise site whose
message can be determined statically into a draft record: the message template
(placeholders written as in the source f-string), its ``messagePattern``, the
exception class as the traceback prints it, the file, line, snippet and URL,
and a stable id. The free-text fields are left empty for curation.

>>> import pathlib, tempfile
>>> from datetime import datetime, timezone
>>> src = '''
... def check(mode):
...     if mode not in ("r", "w"):
...         raise ValueError(f"unknown mode {mode!r}; expected 'r' or 'w'")
... '''
>>> with tempfile.TemporaryDirectory() as tmp:
...     _ = (pathlib.Path(tmp) / "io_utils.py").write_text(src)
...     result = mine_paths(
...         [tmp],
...         repo="example/project",
...         sha="0" * 40,
...         path_prefix="src/project",
...         analyzed_at=datetime(2026, 1, 2, tzinfo=timezone.utc),
...     )
>>> record = result.records[0]
>>> record.error_class, record.file_path, record.line_number
('ValueError', 'src/project/io_utils.py', 4)
>>> record.error_message
"unknown mode {mode!r}; expected 'r' or 'w'"
>>> record.message_pattern
"unknown mode (.+?); expected 'r' or 'w'"
>>> record.slug, record.id
('unknown-mode-mode-r-expected-r-or-w', 'd7b9e0861480df1f')
>>> result.stats.files, result.stats.sites, result.stats.records
(1, 1, 1)

Design decisions:

* **Raise sites** are ``raise X(...)`` (with or without ``from``), ``raise
  module.X(...)``, ``raise exc`` where ``exc = X(...)`` earlier (attributes set
  on it meanwhile, ``exc.__cause__ = cause``, keep it), ``raise
  helper(...)`` where ``helper`` is a function (or ``self.`` method, its own or
  a base class's) of the mined code that returns ``X(...)``, ``raise
  self.error(...)`` where ``error`` is a class the owner defines or names in its
  body (``failureException = AssertionError``), and ``assert cond[, msg]`` (an
  ``AssertionError``). A bare ``raise`` re-raises and is not a site. A call
  statement ``raise_(X(...))`` of a function (or ``self.`` method) of the same
  module whose body raises the parameter it is given (``raise err``,
  :mod:`~errcat.mine.raisers`) is a site too, at the call's line: triton's
  ``CompiledKernel`` raises ``OutOfResources`` that way. A log call at WARNING or
  above (``logger.warning(fmt, *args)``, ``logger.error``, ``logger.exception``,
  ``warning_once``; :mod:`~errcat.mine.logged`) is a site whose class is the
  level and whose message is ``fmt % args``; its record is tagged
  ``errcat:logged``.
* **Message forms.** A message is a string constant (implicit concatenation
  included), an f-string (conversions, format specs, nested quotes), ``"..." %
  (...)`` (positional, ``%(name)s``, ``%%``, widths), ``"...".format(...)``
  (``{}``, ``{0}``, ``{name}``, ``{0.attr}``), ``+`` concatenation,
  ``str()``/``repr()``, ``sep.join([...])``, gettext calls (``_("...")``), a
  conditional expression, or a local (or module-level) variable assigned any of
  these earlier, including ``msg += ...``. With several arguments a builtin
  class (and a mined class that passes them on) prints the repr of their tuple,
  ``('bad dtype', torch.float16)``, which is reproduced; so is the ``[Errno N]
  strerror: 'filename'`` form of ``OSError`` and its subclasses. For a class
  from elsewhere, whose ``__str__`` is unknown, the first argument is the
  message. ``%`` and ``.format`` messages are
  rewritten to the f-string ``{expr}`` form; literal braces are doubled so that
  :func:`errcat.patterns.parse_template` reads them back; whitespace at both
  ends is dropped (the traceback does not show it either).
* **Several messages at one site.** A variable built differently on different
  branches (or a conditional expression) gives one record *per distinct
  message*, all at the same line: ``messagePattern`` must equal
  ``template_to_pattern(errorMessage)``, which has no optional parts, and an
  exact pattern per variant matches better than one with optional groups. More
  than 16 variants at one site are skipped as ``too many message variants``.
* **Exception classes of the mined code.** When the raised class is defined in
  the mined files and its ``__init__`` passes a message on to the base
  ``__init__`` (or its ``__str__`` returns one), the message the traceback
  shows is rebuilt, with the call's arguments put in for the parameters:
  ``raise NoSectionError(section)`` gives ``No section: {section!r}``, and a
  literal argument is put in as its text (``OutOfResources(n, limit, "shared
  memory")`` gives ``out of resource: shared memory, Required: {n}, ...``).
  What ``__init__`` stores on ``self`` is followed into ``__str__`` and into
  the base call (``self.message = f"..."; super().__init__(self.message)``).
* **Class names** are written as the traceback prints them: builtins bare
  (``IOError`` becomes ``OSError``), classes defined in the mined code as
  ``module.Qualname`` (the module from the chain of ``__init__.py`` above the
  file), imported names resolved through the file's imports and the mined
  packages' re-exports, anything else as written (``self.`` dropped).
* **Ids** are the first 16 hex digits of sha256 over repo, filePath and template
  (NUL-separated, :func:`record_id`). When one file raises the same template
  at several sites, the enclosing function's qualname and then the ordinal of
  the site within it are added: all stable when lines move.
* **Defaults of a draft** (with ``advice=False``): ``errorType`` is guessed from the nearest builtin
  base class (:func:`guess_error_type`), ``severity`` is ``"warning"`` for
  warning classes and ``"error"`` otherwise, ``handlingStrategy`` is ``""``
  (not yet curated), ``tags`` is ``[]``, ``documentation``,
  ``triggerScenarios``, ``commonSituations`` and ``exampleFix`` are ``""``,
  ``solutions`` and ``preventionTips`` are ``[]``, the nullable fields
  ``null``. ``analyzedAt`` is now (UTC, milliseconds) unless given, and
  ``datasetVersion`` equals it.
* **Messages of values only.** A message without a word of two letters in its
  literal text (``raise ValueError(msg)`` with an unknown ``msg``,
  ``f"{a}: {b}"``) is still a record (``{msg}``) when its class is known (a
  builtin, or a mined class deriving from one): its pattern matches nearly
  anything, so the matcher answers with it only for a traceback with a frame
  at its raise line and a class that agrees (:func:`errcat.patterns.is_wordless`).
* **Raises without a message** (``assert x is not None``, ``raise
  NotImplementedError``, ``raise ValueError``) are records with the empty
  template (``bare_raises=True``, the default): the traceback prints the class
  alone, and its innermost frame, at the record's line or showing the record's
  statement, is the evidence. Their slug is the statement
  (``assert-x-is-not-none``), their id hashes it (so it stays when lines move),
  and their advice is written from the code as for any other site. Raises
  that end a loop or a program (``StopIteration``, ``SystemExit``) are not
  errors and stay skipped. With no text to follow across revisions, a history
  follows their statement in its function instead (:func:`errcat.mine.pairing.pair_statements`).
* **Skipped sites** are counted by reason, never guessed: a message with
  nothing to show at all (``raise ValueError("")``, a tuple or ``OSError`` of
  values only, or values only under a class nobody resolved) is ``no static
  text``.
* **Re-anchoring** (:func:`reanchor`) matches existing records by id, then by
  template, then by the nearest-template rule, and keeps their curation.

The package, in the order mining runs: :mod:`~errcat.mine.files` (which files,
their module names), :mod:`~errcat.mine.scan` (one visitor per file:
:mod:`~errcat.mine.walk` walks the statements with the names of
:mod:`~errcat.mine.names`, the string evaluator of :mod:`~errcat.mine.evaluate`,
the guards of :mod:`~errcat.mine.guards` and the class facts of
:mod:`~errcat.mine.captures`; :mod:`~errcat.mine.options` reads the file's
flags and environment variables; :func:`errcat.mine.scan.scan_source` turns
one file's text into a picklable :class:`~errcat.mine.facts._FileScan`),
:mod:`~errcat.mine.resolve` and :mod:`~errcat.mine.messages` (across files:
class names, messages), :mod:`~errcat.mine.bindings` (across files: what
callers pass for parameters, what helpers read), :mod:`~errcat.mine.conditions`
and :mod:`~errcat.mine.advice` (advice written from each site's guard),
:mod:`~errcat.mine.records` (ids, drafts), :mod:`~errcat.mine.core`
(:func:`mine_paths`; :func:`errcat.mine.core.records_from_scans` is the
cross-file step), :mod:`~errcat.mine.reanchor` and :mod:`~errcat.mine.cli`.
Templates are built with the algebra of :mod:`~errcat.mine.templates`.

* **Advice** (:mod:`errcat.mine.advice`): every record gets documentation,
  trigger scenarios, solutions, an example fix, tips, a validation snippet and
  a type guard written from the code at its raise site, and the tag
  ``errcat:generated``; ``advice=False`` (``errcat mine --no-advice``) leaves
  them empty as before. A guard reads what a method returns when the returns
  are computed from levers alone (:mod:`~errcat.mine.returns`), and a log call's
  advice speaks of log lines, not of a traceback (:mod:`~errcat.mine.logwords`).
"""

from __future__ import annotations

from errcat.mine.cli import add_arguments, run
from errcat.mine.core import MineResult, MineStats, mine_paths, mine_source
from errcat.mine.facts import (
    CONTROL_FLOW,
    DYNAMIC_CLASS,
    EXISTING_OBJECT,
    KEYWORD_ONLY,
    NO_MESSAGE,
    NO_ROUND_TRIP,
    NO_STATIC_TEXT,
    NON_STRING,
    OWN_FORMAT,
    STARRED,
    TOO_MANY,
)
from errcat.mine.reanchor import CHANGE_THRESHOLD, ReanchorResult, reanchor
from errcat.mine.records import SNIPPET_RADIUS, github_url, guess_error_type, record_id
from errcat.slugs import slugify

__all__ = [
    "CHANGE_THRESHOLD",
    "CONTROL_FLOW",
    "DYNAMIC_CLASS",
    "EXISTING_OBJECT",
    "KEYWORD_ONLY",
    "NON_STRING",
    "NO_MESSAGE",
    "NO_ROUND_TRIP",
    "NO_STATIC_TEXT",
    "OWN_FORMAT",
    "SNIPPET_RADIUS",
    "STARRED",
    "TOO_MANY",
    "MineResult",
    "MineStats",
    "ReanchorResult",
    "add_arguments",
    "github_url",
    "guess_error_type",
    "mine_paths",
    "mine_source",
    "reanchor",
    "record_id",
    "run",
    "slugify",
]
