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
  module.X(...)``, ``raise exc`` where ``exc = X(...)`` earlier, ``raise
  helper(...)`` where ``helper`` is a function (or ``self.`` method) of the
  mined code that returns ``X(...)``, and ``assert cond, msg`` (an
  ``AssertionError``). A bare ``raise`` re-raises and is not a site.
* **Message forms.** A message is a string constant (implicit concatenation
  included), an f-string (conversions, format specs, nested quotes), ``"..." %
  (...)`` (positional, ``%(name)s``, ``%%``, widths), ``"...".format(...)``
  (``{}``, ``{0}``, ``{name}``, ``{0.attr}``), ``+`` concatenation,
  ``str()``/``repr()``, ``sep.join([...])``, gettext calls (``_("...")``), a
  conditional expression, or a local (or module-level) variable assigned any of
  these earlier, including ``msg += ...``. With several arguments the first is
  the message, except for ``OSError`` and its subclasses, whose ``[Errno N]
  strerror: 'filename'`` form is reproduced. ``%`` and ``.format`` messages are
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
  ``raise NoSectionError(section)`` gives ``No section: {section!r}``.
* **Class names** are written as the traceback prints them: builtins bare
  (``IOError`` becomes ``OSError``), classes defined in the mined code as
  ``module.Qualname`` (the module from the chain of ``__init__.py`` above the
  file), imported names resolved through the file's imports and the mined
  packages' re-exports, anything else as written (``self.`` dropped).
* **Ids** are the first 16 hex digits of sha256 over repo, filePath and template
  (NUL-separated, :func:`record_id`). When one file raises the same template
  at several sites, the enclosing function's qualname and then the ordinal of
  the site within it are added: all stable when lines move.
* **Defaults of a draft**: ``errorType`` is guessed from the nearest builtin
  base class (:func:`guess_error_type`), ``severity`` is ``"warning"`` for
  warning classes and ``"error"`` otherwise, ``handlingStrategy`` is ``""``
  (not yet curated), ``tags`` is ``[]``, ``documentation``,
  ``triggerScenarios``, ``commonSituations`` and ``exampleFix`` are ``""``,
  ``solutions`` and ``preventionTips`` are ``[]``, the nullable fields
  ``null``. ``analyzedAt`` is now (UTC, milliseconds) unless given, and
  ``datasetVersion`` equals it.
* **Skipped sites** are counted by reason, never guessed. A message without a
  word of two letters in its literal text (``raise ValueError(msg)`` with an
  unknown ``msg``, ``f"{a}: {b}"``) is ``no static text``: its pattern would
  match nearly anything.
* **Re-anchoring** (:func:`reanchor`) matches existing records by id, then by
  template, then by the nearest-template rule, and keeps their curation.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import hashlib
import json
import multiprocessing
import os
import re
import string
import sys
import time
import tokenize
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any, TextIO

from errcat.errors import CatalogSourceError, InvalidRecordError
from errcat.loaders import dump_envelope, iter_path, write_jsonl
from errcat.models import ErrorRecord, RecordEnvelope
from errcat.patterns import parse_template, template_to_pattern

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

#: Lines of context on each side of the raise in ``sourceCode`` (37 lines in all).
SNIPPET_RADIUS = 18

#: Similarity (difflib ratio of the two templates) from which a reworded message
#: is taken to be the same record (see :func:`reanchor`).
CHANGE_THRESHOLD = 0.6

_MAX_VARIANTS = 16
_SLUG_LENGTH = 50
_WORD = re.compile(r"[^\W\d_]{2}")
_SLUG_SEP = re.compile(r"[^a-z0-9]+")
_SHA = re.compile(r"^[0-9a-f]{40}$")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_PERCENT_SPEC = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?"
    r"(?:\.(?P<prec>\*|\d*))?[hlL]?(?P<type>[diouxXeEfFgGcrsa%])"
)
_FORMAT_HEAD = re.compile(r"[^.\[]*")

# Why a raise site gave no record, as the summary shows it (MineStats.skipped keys).
NO_MESSAGE = "no message"
NO_STATIC_TEXT = "no static text"
NON_STRING = "non-string message"
EXISTING_OBJECT = "raises an existing exception object"
DYNAMIC_CLASS = "exception class chosen at run time"
STARRED = "message from *args or **kwargs"
KEYWORD_ONLY = "message passed by keyword"
OWN_FORMAT = "class formats its own message"
CONTROL_FLOW = "control-flow exception"
TOO_MANY = "too many message variants"
NO_ROUND_TRIP = "template does not round-trip"

_GETTEXT = frozenset({"_", "gettext", "N_", "gettext_lazy", "ugettext", "lazy_gettext"})
_NGETTEXT = frozenset({"ngettext", "ungettext", "ngettext_lazy"})
_CONTROL_FLOW = frozenset(
    {"StopIteration", "StopAsyncIteration", "GeneratorExit", "KeyboardInterrupt"}
)
_UNICODE_ERRORS = frozenset({"UnicodeDecodeError", "UnicodeEncodeError", "UnicodeTranslateError"})
_CONVERSIONS = {-1: "", 115: "s", 114: "r", 97: "a"}


def _builtin_exceptions() -> dict[str, str]:
    names = {
        name: obj.__name__
        for name, obj in vars(builtins).items()
        if isinstance(obj, type) and issubclass(obj, BaseException)
    }
    # Names of newer Pythons, so that mining does not depend on the interpreter.
    for extra in ("ExceptionGroup", "BaseExceptionGroup", "EncodingWarning"):
        names.setdefault(extra, extra)
    names.setdefault("PythonFinalizationError", "PythonFinalizationError")
    return names


#: Builtin exception names mapped to the name the traceback prints (``IOError`` -> ``OSError``).
_BUILTINS = _builtin_exceptions()

#: Well-known aliases of builtin exceptions in the standard library.
_KNOWN_ALIASES = {
    "socket.error": "OSError",
    "os.error": "OSError",
    "select.error": "OSError",
    "socket.timeout": "TimeoutError",
}

_ERROR_TYPES: tuple[tuple[type[BaseException], str], ...] = (
    (AssertionError, "assertion"),
    (NotImplementedError, "unsupported"),
    (ImportError, "dependency"),
    (Warning, "warning"),
    (OSError, "io"),
    (LookupError, "lookup"),
    (ValueError, "validation"),
    (TypeError, "validation"),
)


def guess_error_type(builtin_base: str | None) -> str:
    """The draft ``errorType`` of a class whose nearest builtin base is ``builtin_base``.

    >>> [guess_error_type(n) for n in ("ValueError", "KeyError", "FileNotFoundError")]
    ['validation', 'lookup', 'io']
    >>> [guess_error_type(n) for n in ("NotImplementedError", "AssertionError", None)]
    ['unsupported', 'assertion', 'runtime']
    """
    cls = getattr(builtins, builtin_base, None) if builtin_base else None
    if isinstance(cls, type):
        for base, name in _ERROR_TYPES:
            if issubclass(cls, base):
                return name
    return "runtime"


def slugify(template: str) -> str:
    """The record slug of a message template: lowercase words joined by ``-``, at most 50 chars.

    >>> slugify("DeepEP v2 MoE is not validated for {architecture!r}; supported")
    'deepep-v2-moe-is-not-validated-for-architecture-r'
    """
    slug = _SLUG_SEP.sub("-", template.lower()).strip("-")
    return slug[:_SLUG_LENGTH].rstrip("-") or "error"


def record_id(repo: str, file_path: str, template: str, *disambiguators: str) -> str:
    """The 16-hex-digit record id: sha256 over repo, path, template (and disambiguators).

    >>> record_id("example/project", "src/a.py", "bad value {x!r}")
    'c3bcc2afed8d6cc1'
    """
    key = "\0".join((repo, file_path, template, *disambiguators))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def github_url(repo: str, sha: str, file_path: str, start: int, end: int) -> str:
    """The GitHub URL of a span of lines at a commit.

    >>> github_url("o/r", "0" * 40, "x/y.py", 3, 39)
    'https://github.com/o/r/blob/0000000000000000000000000000000000000000/x/y.py#L3-L39'
    """
    return f"https://github.com/{repo}/blob/{sha}/{file_path}#L{start}-L{end}"


# --------------------------------------------------------------------------
# Message templates as data
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Field:
    """A placeholder of a template being built.

    ``ref`` names what the placeholder reads directly, when that is a plain name
    not assigned in the function (a parameter or a global) or ``self.attr``;
    a class's message is specialised by substituting the call's arguments for it.
    """

    expr: str
    conversion: str = ""
    spec: str = ""
    ref: str | None = None


_Part = str | _Field
_Template = tuple[_Part, ...]
_Alts = tuple[_Template, ...]


class _TooManyVariantsError(Exception):
    """A message has more static variants than :data:`_MAX_VARIANTS`."""


def _concat(a: _Template, b: _Template) -> _Template:
    if not a:
        return b
    if not b:
        return a
    last, first = a[-1], b[0]
    if isinstance(last, str) and isinstance(first, str):
        return (*a[:-1], last + first, *b[1:])
    return a + b


def _normalise(template: _Template) -> _Template:
    out: _Template = ()
    for part in template:
        if part == "":
            continue
        out = _concat(out, (part,))
    return out


def _dedupe(alts: Iterable[_Template]) -> _Alts:
    result = tuple(dict.fromkeys(_normalise(t) for t in alts))
    if len(result) > _MAX_VARIANTS:
        raise _TooManyVariantsError
    return result


def _product(pieces: Sequence[_Alts]) -> _Alts:
    result: list[_Template] = [()]
    for alts in pieces:
        result = [_concat(r, a) for r in result for a in alts]
        if len(result) > _MAX_VARIANTS:
            result = list(_dedupe(result))
    return _dedupe(result)


def _literal_text(template: _Template) -> str | None:
    """The text of a template without placeholders, else ``None``."""
    if all(isinstance(p, str) for p in template):
        return "".join(p for p in template if isinstance(p, str))
    return None


def _escape_braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _render_field(f: _Field) -> str:
    expr = f.expr
    if expr.startswith("{"):
        expr = " " + expr
    out = "{" + expr
    if f.conversion:
        out += "!" + f.conversion
    if f.spec:
        out += ":" + f.spec
    return out + "}"


def _render(template: _Template) -> str:
    return "".join(_escape_braces(p) if isinstance(p, str) else _render_field(p) for p in template)


def _strip_edges(template: _Template) -> _Template:
    parts = list(template)
    if parts and isinstance(parts[0], str):
        parts[0] = parts[0].lstrip()
    if parts and isinstance(parts[-1], str):
        parts[-1] = parts[-1].rstrip()
    return _normalise(tuple(parts))


def _literals(template: _Template) -> list[str]:
    """The literal runs between the placeholders (one more than there are placeholders)."""
    out = [""]
    for part in template:
        if isinstance(part, str):
            out[-1] += part
        else:
            out.append("")
    return out


def _has_static_text(template: _Template) -> bool:
    """Whether some literal run of a template holds a word (two letters in a row)."""
    return any(_WORD.search(literal) for literal in _literals(template))


def _round_trips(template: _Template, text: str) -> bool:
    literals, fields = parse_template(text)
    return list(literals) == _literals(template) and len(fields) == sum(
        isinstance(p, _Field) for p in template
    )


# --------------------------------------------------------------------------
# What the scan of one file produces (plain, picklable data)
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Arg:
    """One argument of an exception constructor call."""

    alts: _Alts | None  # its static string value(s), when it has one
    source: str  # the argument as written (``ast.unparse``)
    as_str: str | None = None  # str() of a constant argument
    as_repr: str | None = None  # repr() of a constant argument
    non_string: bool = False  # a constant that is not a string
    ref: str | None = None


@dataclass(frozen=True, slots=True)
class _Call:
    """The arguments an exception class (or a function) is called with."""

    args: tuple[_Arg, ...] = ()
    kwargs: tuple[tuple[str, _Arg], ...] = ()
    starred: bool = False


@dataclass(frozen=True, slots=True)
class _ClassRef:
    """The class raised at a site: ``kind`` is builtin, local, imported or written.

    ``kind`` is ``factory`` when the site raises what a function returns
    (``raise make_error(...)``); ``name`` is then the function's qualified name.
    """

    name: str
    kind: str


@dataclass(frozen=True, slots=True)
class _RawSite:
    line: int
    qualname: str
    cls: _ClassRef
    args: tuple[_Arg, ...] = ()
    kwargs: tuple[tuple[str, _Arg], ...] = ()
    starred: bool = False
    is_assert: bool = False
    skip: str | None = None


@dataclass(frozen=True, slots=True)
class _ClassInfo:
    """What the miner knows of a class defined in the mined code.

    ``init`` is ``"none"`` (no ``__init__``), ``"nosuper"`` (an ``__init__``
    that does not call the base's, or passes its ``*args`` through: the call's
    own arguments are the exception's args), ``"super"`` (it calls the base's
    ``__init__`` with ``super_calls``: the explicit base, or ``None`` for
    ``super()``, and the arguments) or ``"opaque"``. ``str_message`` is what
    ``__str__`` returns, when the class defines it; ``self_attrs`` what
    ``__init__`` stores in ``self.<attr>``.
    """

    name: str  # module.qualname
    bases: tuple[str, ...]
    params: tuple[str, ...] = ()
    defaults: tuple[tuple[str, _Arg], ...] = ()
    varargs: bool = False
    init: str = "none"
    super_calls: tuple[tuple[str | None, _Call], ...] = ()
    str_message: _Alts | None = None
    self_attrs: tuple[tuple[str, _Alts], ...] = ()


@dataclass(frozen=True, slots=True)
class _FuncInfo:
    """A function of the mined code that returns exceptions (``return ValueError(...)``)."""

    name: str  # module.qualname
    params: tuple[str, ...]
    defaults: tuple[tuple[str, _Arg], ...]
    varargs: bool
    returns: tuple[tuple[_ClassRef, _Call], ...]


@dataclass(frozen=True, slots=True)
class _FileScan:
    source: str  # the file as found on disk
    file_path: str  # the record's filePath
    module: str
    sites: tuple[_RawSite, ...] = ()
    snippets: tuple[tuple[int, int, int, str], ...] = ()  # line, start, end, code
    classes: tuple[_ClassInfo, ...] = ()
    functions: tuple[_FuncInfo, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()
    reraises: int = 0
    error: str | None = None


# --------------------------------------------------------------------------
# Scanning one module
# --------------------------------------------------------------------------

_ABSENT: Any = object()


class _Env:
    """What a function knows at one point: string values of names, exception objects."""

    __slots__ = ("excs", "strs")

    def __init__(
        self,
        strs: dict[str, _Alts | None] | None = None,
        excs: dict[str, ast.Call | None] | None = None,
    ) -> None:
        self.strs: dict[str, _Alts | None] = strs if strs is not None else {}
        self.excs: dict[str, ast.Call | None] = excs if excs is not None else {}

    def copy(self) -> _Env:
        return _Env(dict(self.strs), dict(self.excs))

    def forget(self, name: str) -> None:
        self.strs[name] = None
        self.excs[name] = None


def _merge(envs: Sequence[_Env]) -> _Env:
    if len(envs) == 1:
        return envs[0]
    out = _Env()
    for name in dict.fromkeys(k for e in envs for k in e.strs):
        values = [e.strs.get(name, _ABSENT) for e in envs]
        present = [v for v in values if v is not _ABSENT]
        if any(v is None for v in present):
            out.strs[name] = None
        elif any(v == () for v in present):
            out.strs[name] = ()
        else:
            try:
                out.strs[name] = _dedupe(t for v in present for t in v)
            except _TooManyVariantsError:
                out.strs[name] = ()
    for name in dict.fromkeys(k for e in envs for k in e.excs):
        calls = {id(c): c for c in (e.excs[name] for e in envs if name in e.excs)}
        out.excs[name] = next(iter(calls.values())) if len(calls) == 1 else None
    return out


_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(body: Sequence[ast.AST]) -> Iterator[ast.AST]:
    """Every statement in ``body`` and in the bodies nested in it (expressions are not walked)."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        for name in _BODIES:
            inner = getattr(node, name, None)
            if inner:
                stack.extend(reversed(inner))


def _names_in_target(target: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _is_exception_name(name: str) -> bool:
    """Whether a callee name reads as an exception class rather than a helper function."""
    bare = name.lstrip("_")
    if not bare:
        return False
    if bare[0].isupper():
        return True
    low = bare.lower()
    return low == "error" or low.endswith(("error", "exception", "warning"))


@dataclass(slots=True)
class _Capture:
    """What the ``__init__`` (or ``__str__``) of a class being scanned does with its message."""

    kind: str  # "init" or "str"
    vararg: str | None = None
    calls: list[tuple[str | None, _Call]] = field(default_factory=list)
    messages: list[_Template] = field(default_factory=list)
    opaque: bool = False
    passthrough: bool = False
    attrs: dict[str, _Alts] = field(default_factory=dict)


class _Scanner:
    """Walk one module's statements in order, tracking string variables, and collect sites."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.imports: dict[str, str] = {}
        self.local_classes: dict[str, str] = {}  # simple name -> qualname
        self.local_functions: set[str] = set()  # qualnames of functions and methods
        self.module_aliases: dict[str, ast.expr] = {}
        self.top_imports: set[str] = set()
        self.consts = _Env()
        self.sites: list[_RawSite] = []
        self.classes: list[_ClassInfo] = []
        self.functions: list[_FuncInfo] = []
        self.reraises = 0
        self._scope: list[str] = []
        self._func_qual = ""
        self._in_function = False
        self._closure: _Env | None = None
        self._capture: _Capture | None = None
        self._returns: list[tuple[_ClassRef, _Call]] | None = None
        self._class_body: str | None = None  # the class whose body is being scanned
        self._owner: str | None = None  # the class of the method being scanned

    # -- names -----------------------------------------------------------

    def _absolute(self, module: str | None, level: int) -> str:
        if level == 0:
            return module or ""
        base = self.package.split(".") if self.package else []
        if level > 1:
            base = base[: len(base) - (level - 1)]
        return ".".join([*base, module] if module else base)

    def _collect_imports(self, tree: ast.Module) -> None:
        top = set(map(id, tree.body))
        for node in _statements(tree.body):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        bound, target = alias.asname, alias.name
                    else:
                        bound = target = alias.name.partition(".")[0]
                    if id(node) in top or bound not in self.imports:
                        self.imports[bound] = target
                    if id(node) in top:
                        self.top_imports.add(bound)
            elif isinstance(node, ast.ImportFrom):
                base = self._absolute(node.module, node.level)
                for alias in node.names:
                    if alias.name == "*":
                        continue
                    bound = alias.asname or alias.name
                    target = f"{base}.{alias.name}" if base else alias.name
                    if id(node) in top or bound not in self.imports:
                        self.imports[bound] = target
                    if id(node) in top:
                        self.top_imports.add(bound)

    def _collect_classes(self, body: Sequence[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.local_functions.add(f"{prefix}{node.name}")
            elif isinstance(node, ast.ClassDef):
                qual = f"{prefix}{node.name}"
                if not prefix:
                    self.local_classes[node.name] = qual
                else:
                    self.local_classes.setdefault(node.name, qual)
                self._collect_classes(node.body, qual + ".")
            elif isinstance(node, (ast.If, ast.Try)):
                self._collect_classes(node.body, prefix)
                self._collect_classes(node.orelse, prefix)

    def _collect_consts(self, tree: ast.Module) -> None:
        counts: Counter[str] = Counter()
        values: dict[str, ast.expr] = {}
        for node in _statements(tree.body):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    for name in _names_in_target(target):
                        counts[name] += 1
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                for name in _names_in_target(node.target):
                    counts[name] += 1
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                values[node.targets[0].id] = node.value
        for name, value in values.items():
            if counts[name] != 1:
                continue
            if isinstance(value, (ast.Name, ast.Attribute)):
                self.module_aliases[name] = value
                continue
            try:
                alts = self._eval(value, _Env())
            except _TooManyVariantsError:
                continue
            if alts is not None and all(_literal_text(t) is not None for t in alts):
                self.consts.strs[name] = alts

    def resolve(self, node: ast.expr) -> _ClassRef:
        """The class a name or attribute chain designates, as far as this file tells."""
        if isinstance(node, ast.Name):
            return self._resolve_name(node.id, set())
        if isinstance(node, ast.Attribute):
            parts: list[str] = []
            cur: ast.expr = node
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name):
                parts.reverse()
                if cur.id in ("self", "cls"):
                    return _ClassRef(".".join(parts), "written")
                if cur.id in self.local_classes:
                    qual = ".".join([self.local_classes[cur.id], *parts])
                    return _ClassRef(self._qualify(qual), "local")
                if cur.id in self.imports:
                    dotted = ".".join([self.imports[cur.id], *parts])
                    return _ClassRef(dotted, "imported")
                written = ".".join([cur.id, *parts])
                if written in _KNOWN_ALIASES:
                    return _ClassRef(_KNOWN_ALIASES[written], "builtin")
                return _ClassRef(written, "written")
        return _ClassRef(ast.unparse(node), "written")

    def _resolve_name(self, name: str, visiting: set[str]) -> _ClassRef:
        if name in self.local_classes:
            return _ClassRef(self._qualify(self.local_classes[name]), "local")
        alias = self.module_aliases.get(name)
        if alias is not None and name not in visiting:
            visiting.add(name)
            if isinstance(alias, ast.Name):
                ref = self._resolve_name(alias.id, visiting)
            else:
                ref = self.resolve(alias)
            if ref.kind != "written":
                return ref
        if name in self.imports:
            target = self.imports[name]
            if target in _KNOWN_ALIASES:
                return _ClassRef(_KNOWN_ALIASES[target], "builtin")
            return _ClassRef(target, "imported")
        if name in _BUILTINS:
            return _ClassRef(_BUILTINS[name], "builtin")
        return _ClassRef(name, "written")

    def _qualify(self, qualname: str) -> str:
        return f"{self.module}.{qualname}" if self.module else qualname

    # -- expressions -----------------------------------------------------

    def _field(self, node: ast.expr, env: _Env, conversion: str = "", spec: str = "") -> _Field:
        ref = None
        if isinstance(node, ast.Name) and node.id not in env.strs:
            ref = node.id
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            ref = f"self.{node.attr}"
        return _Field(ast.unparse(node), conversion, spec, ref)

    def _eval_or_field(self, node: ast.expr, env: _Env) -> _Alts:
        alts = self._eval(node, env)
        return alts if alts is not None else ((self._field(node, env),),)

    def _value(self, node: ast.expr, env: _Env, conversion: str, spec: str) -> _Alts:
        """A value formatted with a conversion and spec (f-string, ``%`` or ``.format``)."""
        if not spec:
            alts = self._eval(node, env)
            if alts is not None:
                if conversion in ("", "s"):
                    return alts
                texts = [_literal_text(t) for t in alts]
                if all(t is not None for t in texts):
                    show = repr if conversion == "r" else ascii
                    return tuple((show(t),) for t in texts)
            elif (
                conversion in ("", "s")
                and isinstance(node, ast.Constant)
                and isinstance(node.value, (int, float))
                and not isinstance(node.value, bool)
            ):
                return ((str(node.value),),)
        return ((self._field(node, env, conversion, spec),),)

    def _spec(self, spec: ast.expr | None, env: _Env) -> str:
        if spec is None:
            return ""
        if isinstance(spec, ast.JoinedStr):
            out = []
            for value in spec.values:
                if isinstance(value, ast.Constant):
                    out.append(str(value.value))
                elif isinstance(value, ast.FormattedValue):
                    conv = _CONVERSIONS.get(value.conversion, "")
                    out.append(_render_field(_Field(ast.unparse(value.value), conv)))
            return "".join(out)
        return ""

    def _eval(self, node: ast.expr, env: _Env) -> _Alts | None:
        """The static string value(s) of an expression, or ``None`` when it has none."""
        if isinstance(node, ast.Constant):
            return ((node.value,),) if isinstance(node.value, str) else None
        if isinstance(node, ast.JoinedStr):
            pieces: list[_Alts] = []
            for value in node.values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    pieces.append(((value.value,),))
                elif isinstance(value, ast.FormattedValue):
                    conv = _CONVERSIONS.get(value.conversion, "")
                    spec = self._spec(value.format_spec, env)
                    pieces.append(self._value(value.value, env, conv, spec))
                else:  # pragma: no cover - not produced by the parser
                    return None
            return _product(pieces)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add):
                return self._add(node, env)
            if isinstance(node.op, ast.Mod):
                return self._percent(node, env)
            return None
        if isinstance(node, ast.IfExp):
            body = self._eval(node.body, env)
            orelse = self._eval(node.orelse, env)
            if body is None and orelse is None:
                return None
            return _dedupe(
                (*self._or_field(body, node.body, env), *self._or_field(orelse, node.orelse, env))
            )
        if isinstance(node, ast.Name):
            known = env.strs.get(node.id)
            if known == ():
                raise _TooManyVariantsError
            return known
        if isinstance(node, ast.Call):
            return self._call(node, env)
        return None

    def _or_field(self, alts: _Alts | None, node: ast.expr, env: _Env) -> _Alts:
        return alts if alts is not None else ((self._field(node, env),),)

    def _add(self, node: ast.BinOp, env: _Env) -> _Alts | None:
        operands: list[ast.expr] = []
        cur: ast.expr = node
        while isinstance(cur, ast.BinOp) and isinstance(cur.op, ast.Add):
            operands.append(cur.right)
            cur = cur.left
        operands.append(cur)
        operands.reverse()
        values = [self._eval(op, env) for op in operands]
        if all(v is None for v in values):
            return None
        return _product(
            [self._or_field(v, op, env) for v, op in zip(values, operands, strict=True)]
        )

    def _percent(self, node: ast.BinOp, env: _Env) -> _Alts | None:
        formats = self._eval(node.left, env)
        if formats is None:
            return None
        right = node.right
        positional: list[ast.expr] | None = None
        mapping: dict[str, ast.expr] | None = None
        if isinstance(right, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in right.elts):
            positional = list(right.elts)
        elif isinstance(right, ast.Dict) and all(
            isinstance(k, ast.Constant) and isinstance(k.value, str) for k in right.keys
        ):
            mapping = {
                str(k.value): v
                for k, v in zip(right.keys, right.values, strict=True)
                if isinstance(k, ast.Constant)
            }
        elif (
            isinstance(right, ast.Call)
            and isinstance(right.func, ast.Name)
            and right.func.id == "dict"
            and not right.args
            and all(k.arg for k in right.keywords)
        ):
            mapping = {k.arg: k.value for k in right.keywords if k.arg}
        out: list[_Template] = []
        for fmt in formats:
            text = _literal_text(fmt)
            if text is None:
                return None
            converted = self._convert_percent(text, right, positional, mapping, env)
            if converted is None:
                return None
            out.extend(converted)
        return _dedupe(out)

    def _convert_percent(
        self,
        text: str,
        right: ast.expr,
        positional: list[ast.expr] | None,
        mapping: dict[str, ast.expr] | None,
        env: _Env,
    ) -> _Alts | None:
        pieces: list[_Alts] = []
        pos = 0
        index = 0
        specs: list[tuple[str, re.Match[str]]] = []
        i = 0
        while True:
            j = text.find("%", i)
            if j < 0:
                specs.append((text[i:], _NO_MATCH))
                break
            m = _PERCENT_SPEC.match(text, j)
            if m is None:
                return None
            specs.append((text[i:j], m))
            i = m.end()
        wanted = sum(
            1 + (m["width"] == "*") + (m["prec"] == "*")
            for _, m in specs
            if m is not _NO_MATCH and m["type"] != "%" and not m["key"]
        )
        keyed = any(m is not _NO_MATCH and m["key"] is not None for _, m in specs)
        if not keyed and positional is not None and len(positional) != wanted:
            return None
        for literal, m in specs:
            pieces.append(((literal,),))
            if m is _NO_MATCH:
                continue
            kind = m["type"]
            if kind == "%":
                pieces.append((("%",),))
                continue
            pos += (m["width"] == "*") + (m["prec"] == "*")
            conversion, spec = _percent_to_format(m)
            value: ast.expr | None = None
            expr: str
            if m["key"] is not None:
                expr = m["key"]
                value = mapping.get(expr) if mapping is not None else None
            elif positional is not None:
                value = positional[pos] if pos < len(positional) else None
                expr = f"{ast.unparse(right)}[{pos}]"
                pos += 1
            elif wanted == 1:
                value = right
                expr = ast.unparse(right)
            else:
                expr = f"{_paren(ast.unparse(right))}[{index}]"
                index += 1
            if value is None:
                pieces.append(((_Field(expr, conversion, spec),),))
            else:
                pieces.append(self._value(value, env, conversion, spec))
        return _product(pieces)

    def _call(self, node: ast.Call, env: _Env) -> _Alts | None:
        func = node.func
        args = node.args
        if any(isinstance(a, ast.Starred) for a in args):
            return None
        name = func.id if isinstance(func, ast.Name) else None
        attr = func.attr if isinstance(func, ast.Attribute) else None
        if (name in _GETTEXT or attr in _GETTEXT) and len(args) == 1:
            return self._eval(args[0], env)
        if (name in _NGETTEXT or attr in _NGETTEXT) and len(args) >= 2:
            one, many = self._eval(args[0], env), self._eval(args[1], env)
            if one is None or many is None:
                return None
            return _dedupe((*one, *many))
        if name == "str" and len(args) == 1 and not node.keywords:
            return self._value(args[0], env, "", "")
        if name == "repr" and len(args) == 1 and not node.keywords:
            return self._value(args[0], env, "r", "")
        if isinstance(func, ast.Attribute) and attr in ("format", "format_map", "join"):
            receiver = self._eval(func.value, env)
            if receiver is None:
                return None
            texts = [_literal_text(t) for t in receiver]
            if any(t is None for t in texts):
                return None
            out: list[_Template] = []
            for text in texts:
                assert text is not None
                if attr == "join":
                    joined = self._join(text, node, env)
                else:
                    joined = self._brace_format(text, node, env, mapped=attr == "format_map")
                if joined is None:
                    return None
                out.extend(joined)
            return _dedupe(out)
        return None

    def _join(self, sep: str, node: ast.Call, env: _Env) -> _Alts | None:
        if len(node.args) != 1 or node.keywords:
            return None
        seq = node.args[0]
        if not isinstance(seq, (ast.List, ast.Tuple)) or any(
            isinstance(e, ast.Starred) for e in seq.elts
        ):
            return None
        pieces: list[_Alts] = []
        for index, element in enumerate(seq.elts):
            if index:
                pieces.append(((sep,),))
            pieces.append(self._eval_or_field(element, env))
        return _product(pieces)

    def _brace_format(self, text: str, node: ast.Call, env: _Env, *, mapped: bool) -> _Alts | None:
        try:
            parsed = list(string.Formatter().parse(text))
        except ValueError:
            return None
        args = [] if mapped else list(node.args)
        keywords = {} if mapped else {k.arg: k.value for k in node.keywords if k.arg}
        pieces: list[_Alts] = []
        auto = 0
        for literal, name, spec, conversion in parsed:
            pieces.append(((literal,),))
            if name is None:
                continue
            head = _FORMAT_HEAD.match(name)
            first = head.group() if head else name
            rest = name[len(first) :]
            value: ast.expr | None
            if first == "":
                value = args[auto] if auto < len(args) else None
                first = str(auto)
                auto += 1
            elif first.isdigit():
                value = args[int(first)] if int(first) < len(args) else None
            else:
                value = keywords.get(first)
            conv = conversion or ""
            shown_spec = spec if spec and "{" not in spec else ""
            if value is None:
                pieces.append(((_Field(first + rest, conv, shown_spec),),))
            elif rest:
                expr = _paren(ast.unparse(value)) + _format_rest(rest)
                pieces.append(((_Field(expr, conv, shown_spec),),))
            else:
                pieces.append(self._value(value, env, conv, shown_spec))
        return _product(pieces)

    def _arg(self, node: ast.expr, env: _Env) -> _Arg:
        try:
            alts = self._eval(node, env)
        except _TooManyVariantsError:
            alts = ()
        as_str = as_repr = None
        non_string = False
        if isinstance(node, ast.Constant):
            as_repr = repr(node.value)
            as_str = str(node.value)
            non_string = not isinstance(node.value, str)
        ref = node.id if isinstance(node, ast.Name) and node.id not in env.strs else None
        return _Arg(alts, ast.unparse(node), as_str, as_repr, non_string, ref)

    # -- statements ------------------------------------------------------

    def scan(self, tree: ast.Module) -> None:
        self._collect_imports(tree)
        self._collect_classes(tree.body, "")
        self._collect_consts(tree)
        self._block(tree.body, _Env())

    def _block(self, body: Sequence[ast.stmt], env: _Env) -> tuple[_Env, bool]:
        terminated = False
        for stmt in body:
            env, done = self._stmt(stmt, env)
            terminated = terminated or done
        return env, terminated

    @staticmethod
    def _join_paths(outs: Sequence[tuple[_Env, bool]], fallback: _Env) -> tuple[_Env, bool]:
        live = [e for e, done in outs if not done]
        if not live:
            return fallback, True
        return _merge(live), False

    def _stmt(self, node: ast.stmt, env: _Env) -> tuple[_Env, bool]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._function(node, env)
            env.forget(node.name)
            return env, False
        if isinstance(node, ast.ClassDef):
            self._class(node, env)
            env.forget(node.name)
            return env, False
        if isinstance(node, ast.Assign):
            self._assign(node.targets, node.value, env)
            return env, False
        if isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self._assign([node.target], node.value, env)
            return env, False
        if isinstance(node, ast.AugAssign):
            self._augassign(node, env)
            return env, False
        if isinstance(node, ast.Raise):
            self._raise(node, env)
            return env, True
        if isinstance(node, ast.Assert):
            self._assert(node, env)
            return env, False
        if isinstance(node, ast.Return):
            if self._capture is not None and self._capture.kind == "str" and node.value:
                self._capture_return(node.value, env)
            if self._returns is not None and node.value is not None:
                self._factory_return(node.value, env)
            return env, True
        if isinstance(node, (ast.Break, ast.Continue)):
            return env, True
        if isinstance(node, ast.Expr):
            if self._capture is not None and self._capture.kind == "init":
                self._capture_super_init(node.value, env)
            return env, False
        if isinstance(node, ast.If):
            outs = [self._block(node.body, env.copy()), self._block(node.orelse, env.copy())]
            return self._join_paths(outs, env)
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            inner = env.copy()
            if not isinstance(node, ast.While):
                for name in _names_in_target(node.target):
                    inner.forget(name)
            body_env, _ = self._block(node.body, inner)
            after = _merge([env, body_env])
            return self._block(node.orelse, after)
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    for name in _names_in_target(item.optional_vars):
                        env.forget(name)
            return self._block(node.body, env)
        if isinstance(node, (ast.Try, *_TRY_STAR)):
            return self._try(node, env)
        if isinstance(node, ast.Match):
            outs = [self._block(case.body, env.copy()) for case in node.cases]
            outs.append((env, False))
            return self._join_paths(outs, env)
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                env.forget(name)
            return env, False
        if isinstance(node, ast.Delete):
            for target in node.targets:
                for name in _names_in_target(target):
                    env.forget(name)
            return env, False
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                env.forget((alias.asname or alias.name).partition(".")[0])
            return env, False
        return env, False

    def _try(self, node: Any, env: _Env) -> tuple[_Env, bool]:
        body_env, body_done = self._block(node.body, env.copy())
        handler_start = _merge([env, body_env])
        outs = []
        else_env, else_done = self._block(node.orelse, body_env.copy())
        outs.append((else_env, body_done or else_done))
        for handler in node.handlers:
            start = handler_start.copy()
            if handler.name:
                start.forget(handler.name)
            outs.append(self._block(handler.body, start))
        joined, done = self._join_paths(outs, env)
        final_env, final_done = self._block(node.finalbody, joined.copy())
        return final_env, done or final_done

    def _assign(self, targets: Sequence[ast.expr], value: ast.expr, env: _Env) -> None:
        try:
            alts = self._eval(value, env)
        except _TooManyVariantsError:
            alts = ()
        is_exc = (
            isinstance(value, ast.Call)
            and isinstance(value.func, (ast.Name, ast.Attribute))
            and _is_exception_name(
                value.func.id if isinstance(value.func, ast.Name) else value.func.attr
            )
        )
        for target in targets:
            if isinstance(target, ast.Name):
                env.strs[target.id] = alts
                env.excs[target.id] = value if is_exc and isinstance(value, ast.Call) else None
            elif (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
                and self._capture is not None
                and self._capture.kind == "init"
            ):
                self._capture.attrs[target.attr] = self._or_field(alts, value, env)
            else:
                for name in _names_in_target(target):
                    env.forget(name)

    def _augassign(self, node: ast.AugAssign, env: _Env) -> None:
        if not isinstance(node.target, ast.Name):
            return
        name = node.target.id
        current = env.strs.get(name)
        if not isinstance(node.op, ast.Add) or current is None:
            env.forget(name)
            return
        if current == ():
            return
        try:
            env.strs[name] = _product([current, self._eval_or_field(node.value, env)])
        except _TooManyVariantsError:
            env.strs[name] = ()

    def _function(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        env: _Env,
        capture: _Capture | None = None,
    ) -> None:
        """Scan a function body in a new scope (``capture`` collects a class's message)."""
        inner = (env if self._in_function else (self._closure or self.consts)).copy()
        args = node.args
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            if a is not None:
                inner.strs.pop(a.arg, None)
                inner.excs.pop(a.arg, None)
        method_of = self._class_body
        saved = (
            self._scope,
            self._func_qual,
            self._in_function,
            self._closure,
            self._capture,
            self._returns,
            self._class_body,
            self._owner,
        )
        qual = ".".join([*self._scope, node.name])
        self._func_qual = qual
        self._scope = [*self._scope, node.name, "<locals>"]
        self._in_function = True
        self._closure = inner
        self._capture = capture
        returns: list[tuple[_ClassRef, _Call]] = []
        self._returns = returns
        self._class_body = None
        self._owner = method_of or self._owner
        try:
            self._block(node.body, inner)
        finally:
            (
                self._scope,
                self._func_qual,
                self._in_function,
                self._closure,
                self._capture,
                self._returns,
                self._class_body,
                self._owner,
            ) = saved
        if returns:
            self.functions.append(self._func_info(node, qual, method_of is not None, returns))

    def _func_info(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        qual: str,
        is_method: bool,
        returns: list[tuple[_ClassRef, _Call]],
    ) -> _FuncInfo:
        a = node.args
        positional = [p.arg for p in (*a.posonlyargs, *a.args)]
        static = any(
            isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list
        )
        if is_method and not static:
            positional = positional[1:]
        defaults: list[tuple[str, _Arg]] = []
        with_default = positional[len(positional) - len(a.defaults) :] if a.defaults else []
        for name, default in zip(with_default, a.defaults[-len(with_default) :], strict=False):
            defaults.append((name, self._arg(default, _Env())))
        for kw, kw_default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
            if kw_default is not None:
                defaults.append((kw.arg, self._arg(kw_default, _Env())))
        return _FuncInfo(
            name=self._qualify(qual),
            params=(*positional, *(p.arg for p in a.kwonlyargs)),
            defaults=tuple(defaults),
            varargs=a.vararg is not None or a.kwarg is not None,
            returns=tuple(returns),
        )

    def _class(self, node: ast.ClassDef, env: _Env) -> None:
        qual = ".".join([*self._scope, node.name])
        bases = tuple(self.resolve(b).name for b in node.bases)
        saved_scope, saved_in, saved_body = self._scope, self._in_function, self._class_body
        self._scope = [*self._scope, node.name]
        self._in_function = False
        self._class_body = qual
        captures: dict[str, _Capture] = {}
        init_node: ast.FunctionDef | ast.AsyncFunctionDef | None = None
        class_env = (self._closure or self.consts).copy()
        try:
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name in (
                    "__init__",
                    "__str__",
                    "__repr__",
                ):
                    vararg = stmt.args.vararg.arg if stmt.args.vararg else None
                    capture = _Capture("init" if stmt.name == "__init__" else "str", vararg)
                    self._function(stmt, class_env, capture)
                    captures[stmt.name] = capture
                    if stmt.name == "__init__":
                        init_node = stmt
                    class_env.forget(stmt.name)
                    continue
                if (
                    isinstance(stmt, ast.Assign)
                    and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name)
                    and stmt.targets[0].id == "__str__"
                    and isinstance(stmt.value, ast.Name)
                    and stmt.value.id in captures
                ):
                    captures["__str__"] = captures[stmt.value.id]  # __str__ = __repr__
                    continue
                class_env, _ = self._stmt(stmt, class_env)
        finally:
            self._scope, self._in_function, self._class_body = saved_scope, saved_in, saved_body
        del env
        self.classes.append(
            self._class_info(qual, bases, captures.get("__init__"), init_node, captures)
        )

    def _class_info(
        self,
        qual: str,
        bases: tuple[str, ...],
        init: _Capture | None,
        init_node: ast.FunctionDef | ast.AsyncFunctionDef | None,
        captures: Mapping[str, _Capture],
    ) -> _ClassInfo:
        params: tuple[str, ...] = ()
        defaults: list[tuple[str, _Arg]] = []
        varargs = False
        state = "none"
        attrs: tuple[tuple[str, _Alts], ...] = ()
        if init is not None and init_node is not None:
            a = init_node.args
            positional = [p.arg for p in (*a.posonlyargs, *a.args)][1:]
            params = (*positional, *(p.arg for p in a.kwonlyargs))
            with_default = positional[len(positional) - len(a.defaults) :]
            for name, default in zip(with_default, a.defaults, strict=True):
                defaults.append((name, self._arg(default, _Env())))
            for kw, kw_default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
                if kw_default is not None:
                    defaults.append((kw.arg, self._arg(kw_default, _Env())))
            varargs = a.vararg is not None or a.kwarg is not None
            attrs = tuple(init.attrs.items())
            if init.opaque:
                state = "opaque"
            elif init.calls:
                state = "super"
            else:
                state = "nosuper"
        str_message: _Alts | None = None
        shown = captures.get("__str__")
        if shown is not None:
            try:
                str_message = _dedupe(shown.messages) if shown.messages else None
            except _TooManyVariantsError:
                str_message = None
            if str_message is None:
                str_message = ((_Field("str(self)"),),)
        return _ClassInfo(
            name=self._qualify(qual),
            bases=bases,
            params=params,
            defaults=tuple(defaults),
            varargs=varargs,
            init=state,
            super_calls=tuple(init.calls) if init is not None else (),
            str_message=str_message,
            self_attrs=attrs,
        )

    def _capture_return(self, value: ast.expr, env: _Env) -> None:
        capture = self._capture
        assert capture is not None
        try:
            capture.messages.extend(self._eval_or_field(value, env))
        except _TooManyVariantsError:
            capture.messages.append((_Field("str(self)"),))

    def _capture_super_init(self, value: ast.expr, env: _Env) -> None:
        capture = self._capture
        assert capture is not None
        if not (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "__init__"
        ):
            return
        receiver = value.func.value
        args = list(value.args)
        target: str | None
        if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name):
            if receiver.func.id != "super":
                return
            target = None
        elif args and isinstance(args[0], ast.Name) and args[0].id == "self":
            args = args[1:]
            target = self.resolve(receiver).name
        else:
            return
        starred = [a for a in args if isinstance(a, ast.Starred)]
        if starred or any(k.arg is None for k in value.keywords):
            passes = (
                len(args) == 1
                and len(starred) == 1
                and isinstance(starred[0].value, ast.Name)
                and starred[0].value.id == capture.vararg
            )
            if passes and all(k.arg is None for k in value.keywords):
                capture.passthrough = True  # super().__init__(*args[, **kwargs])
            else:
                capture.opaque = True
            return
        kwargs = tuple((k.arg, self._arg(k.value, env)) for k in value.keywords if k.arg)
        capture.calls.append((target, _Call(tuple(self._arg(a, env) for a in args), kwargs)))

    def _call_args(self, call: ast.Call, env: _Env) -> _Call:
        starred = any(isinstance(a, ast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords
        )
        args: tuple[_Arg, ...] = ()
        for a in call.args:
            if isinstance(a, ast.Starred):
                break  # arguments after a *args have unknown positions
            args = (*args, self._arg(a, env))
        kwargs = tuple((k.arg, self._arg(k.value, env)) for k in call.keywords if k.arg)
        return _Call(args, kwargs, starred)

    def _exception_call(self, node: ast.expr, env: _Env) -> tuple[_ClassRef, ast.Call] | None:
        """The class and call of ``node`` when it constructs an exception (by its name)."""
        if isinstance(node, ast.Name) and env.excs.get(node.id) is not None:
            node = env.excs[node.id]  # type: ignore[assignment]
        if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Name, ast.Attribute)):
            return None
        func = node.func
        if isinstance(func, ast.Name):
            if func.id in self.local_functions and func.id not in self.local_classes:
                return None  # a helper function of this module
        elif (
            isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
            and not func.attr[:1].isupper()
        ):
            return None  # a method, not a class attribute
        cls = self.resolve(func)
        callee = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        if cls.kind in ("builtin", "local") or _is_exception_name(callee):
            return cls, node
        return None

    def _factory_return(self, value: ast.expr, env: _Env) -> None:
        found = self._exception_call(value, env)
        if found is not None and self._returns is not None:
            cls, call = found
            self._returns.append((cls, self._call_args(call, env)))

    def _site(self, node: ast.stmt, cls: _ClassRef, **kwargs: Any) -> None:
        self.sites.append(_RawSite(node.lineno, self._func_qual, cls, **kwargs))

    def _raise(self, node: ast.Raise, env: _Env) -> None:
        exc = node.exc
        if exc is None:
            self.reraises += 1
            return
        found = self._exception_call(exc, env)
        if found is not None:
            cls, call = found
            c = self._call_args(call, env)
            self._site(node, cls, args=c.args, kwargs=c.kwargs, starred=c.starred)
            return
        if isinstance(exc, ast.Call):
            func = exc.func
            factory = None
            if isinstance(func, ast.Name):
                name = func.id
                factory = self.imports.get(name) or self._qualify(name)
            elif (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id in ("self", "cls")
                and self._owner is not None
            ):
                factory = self._qualify(f"{self._owner}.{func.attr}")
            if factory is None:
                attr = func.attr if isinstance(func, ast.Attribute) else ""
                reason = EXISTING_OBJECT if attr == "with_traceback" else DYNAMIC_CLASS
                self._site(node, _ClassRef(ast.unparse(func), "written"), skip=reason)
                return
            c = self._call_args(exc, env)
            cls = _ClassRef(factory, "factory")
            self._site(node, cls, args=c.args, kwargs=c.kwargs, starred=c.starred)
            return
        if isinstance(exc, (ast.Name, ast.Attribute)):
            cls = self.resolve(exc)
            callee = exc.id if isinstance(exc, ast.Name) else exc.attr
            if cls.kind in ("builtin", "local") or (
                _is_exception_name(callee) and callee[:1].isupper()
            ):
                self._site(node, cls, skip=NO_MESSAGE)
            else:
                self._site(node, cls, skip=EXISTING_OBJECT)
            return
        self._site(node, _ClassRef(ast.unparse(exc), "written"), skip=EXISTING_OBJECT)

    def _assert(self, node: ast.Assert, env: _Env) -> None:
        cls = _ClassRef("AssertionError", "builtin")
        if node.msg is None:
            self._site(node, cls, is_assert=True, skip=NO_MESSAGE)
            return
        self._site(node, cls, args=(self._arg(node.msg, env),), is_assert=True)


_TRY_STAR: tuple[type[ast.stmt], ...] = (
    (ast.TryStar,) if hasattr(ast, "TryStar") else ()  # type: ignore[attr-defined,unused-ignore]
)
_NO_MATCH: Any = object()


def _paren(expr: str) -> str:
    return expr if expr.isidentifier() or expr.replace(".", "").isidentifier() else f"({expr})"


def _format_rest(rest: str) -> str:
    """``.attr[key]`` of a ``str.format`` field name, with string keys quoted."""
    return re.sub(
        r"\[([^\]]*)\]",
        lambda m: f"[{m.group(1)}]" if m.group(1).isdigit() else f"[{m.group(1)!r}]",
        rest,
    )


def _percent_to_format(m: re.Match[str]) -> tuple[str, str]:
    """The conversion and format spec of a ``%`` directive."""
    kind = m["type"]
    flags = m["flags"].replace("-", "<")
    width = m["width"] if m["width"] and m["width"] != "*" else ""
    prec = f".{m['prec']}" if m["prec"] and m["prec"] != "*" else ""
    if kind in "rsa":
        conversion = "" if kind == "s" else kind
        return conversion, f"{flags}{width}{prec}" if (width or prec) else ""
    if kind in "diu":
        kind = "d" if (flags or width or prec) else ""
    spec = f"{flags}{width}{prec}{kind}"
    return "", spec


# --------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------

_PRUNED_DIRS = frozenset({"__pycache__", "site-packages", "dist-packages", "node_modules"})


def _is_test_dir(name: str) -> bool:
    return name in ("test", "tests") or name.endswith(("_test", "_tests"))


def _is_test_file(name: str) -> bool:
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def _discover(
    paths: Iterable[str | os.PathLike[str]], include_tests: bool
) -> list[tuple[Path, str]]:
    """The ``.py`` files to mine with their paths relative to the SRC they were found under."""
    found: list[tuple[Path, str]] = []
    seen: set[Path] = set()
    for given in paths:
        root = Path(given)
        if not root.exists():
            raise CatalogSourceError(f"No such file or directory: {str(root)!r}")
        if root.is_file():
            candidates = [(root, root.name)]
        else:
            candidates = []
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = sorted(
                    d
                    for d in dirnames
                    if not d.startswith(".")
                    and d not in _PRUNED_DIRS
                    and (include_tests or not _is_test_dir(d))
                )
                base = Path(dirpath)
                for name in sorted(filenames):
                    if not name.endswith(".py") or name.startswith("."):
                        continue
                    if not include_tests and _is_test_file(name):
                        continue
                    path = base / name
                    candidates.append((path, path.relative_to(root).as_posix()))
        for path, rel in candidates:
            key = path.resolve()
            if key not in seen:
                seen.add(key)
                found.append((path, rel))
    return found


def _module_name(path: Path) -> tuple[str, bool]:
    """The dotted module of a file, from the chain of ``__init__.py`` above it."""
    is_package = path.name == "__init__.py"
    parts = [] if is_package else [path.stem]
    directory = path.parent
    for _ in range(64):
        if not (directory / "__init__.py").is_file():
            break
        parts.insert(0, directory.name)
        if directory.parent == directory:
            break
        directory = directory.parent
    if is_package and not parts:
        parts = [path.parent.name]
    return ".".join(parts), is_package


def _join_prefix(prefix: str, rel: str) -> str:
    parts = [p for p in prefix.replace("\\", "/").split("/") if p not in ("", ".")]
    return "/".join([*parts, rel])


def _scan_file(task: tuple[str, str]) -> _FileScan:
    """Scan one file (runs in a worker process): its sites, classes and aliases."""
    source, file_path = task
    path = Path(source)
    try:
        module, is_package = _module_name(path)
    except OSError:  # pragma: no cover - a directory that vanished
        module, is_package = path.stem, False
    try:
        with tokenize.open(path) as fh:
            text = fh.read()
        tree = ast.parse(text, filename=source)
    except (SyntaxError, ValueError, UnicodeDecodeError, OSError, RecursionError) as exc:
        return _FileScan(source, file_path, module, error=_describe(exc))
    scanner = _Scanner(module, is_package)
    try:
        scanner.scan(tree)
    except RecursionError as exc:
        return _FileScan(source, file_path, module, error=f"too deeply nested: {exc}")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    snippets = []
    for line in sorted({s.line for s in scanner.sites if s.skip is None}):
        start = max(1, line - SNIPPET_RADIUS)
        end = max(line, min(len(lines), line + SNIPPET_RADIUS))
        snippets.append((line, start, end, "\n".join(lines[start - 1 : end])))
    aliases = [
        (f"{module}.{name}", scanner.imports[name])
        for name in sorted(scanner.top_imports)
        if module and scanner.imports[name] != f"{module}.{name}"
    ]
    for name in scanner.module_aliases:
        ref = scanner.resolve(ast.Name(name))
        if ref.kind != "written" and module and ref.name != f"{module}.{name}":
            aliases.append((f"{module}.{name}", ref.name))
    return _FileScan(
        source,
        file_path,
        module,
        sites=tuple(scanner.sites),
        snippets=tuple(snippets),
        classes=tuple(scanner.classes),
        functions=tuple(scanner.functions),
        aliases=tuple(aliases),
        reraises=scanner.reraises,
    )


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg} (line {exc.lineno})"
    return f"{type(exc).__name__}: {exc}"


# --------------------------------------------------------------------------
# From raw sites to templates (needs every file's classes)
# --------------------------------------------------------------------------


class _Resolver:
    """Resolve class names across the mined files and compute each site's templates."""

    def __init__(self, scans: Sequence[_FileScan]) -> None:
        self.classes: dict[str, _ClassInfo] = {}
        self.functions: dict[str, _FuncInfo] = {}
        self.aliases: dict[str, str] = {}
        for scan in scans:
            for info in scan.classes:
                self.classes.setdefault(info.name, info)
            for func in scan.functions:
                self.functions.setdefault(func.name, func)
            for name, target in scan.aliases:
                self.aliases.setdefault(name, target)

    def canonical(self, name: str) -> str:
        """The defining name of a class or function re-exported under ``name``."""
        for _ in range(10):
            if name in self.classes or name in self.functions or name not in self.aliases:
                break
            name = self.aliases[name]
        return _KNOWN_ALIASES.get(name, name)

    def class_name(self, ref: _ClassRef) -> str:
        """The class as the traceback prints it."""
        if ref.kind == "builtin":
            return ref.name
        if ref.kind in ("local", "imported"):
            name = self.canonical(ref.name)
            if name.startswith("builtins."):
                return _BUILTINS.get(name[9:], name[9:])
            return name
        return ref.name

    def chain(self, name: str) -> list[_ClassInfo]:
        """The mined classes of ``name``'s method resolution order (first bases only)."""
        out: list[_ClassInfo] = []
        seen: set[str] = set()
        while name in self.classes and name not in seen and len(out) < 20:
            seen.add(name)
            info = self.classes[name]
            out.append(info)
            name = self._parent(info)
        return out

    def _parent(self, info: _ClassInfo) -> str:
        for base in info.bases:
            name = self.canonical(base)
            if name in self.classes or name in _BUILTINS.values():
                return name
        return "Exception"

    def builtin_base(self, name: str) -> str | None:
        """The nearest builtin exception class ``name`` derives from, if known."""
        if name in _BUILTINS.values():
            return name
        todo = [name]
        seen: set[str] = set()
        while todo:
            current = todo.pop(0)
            if current in seen or len(seen) > 50:
                continue
            seen.add(current)
            if current in _BUILTINS:
                return _BUILTINS[current]
            info = self.classes.get(current)
            if info is not None:
                todo.extend(self.canonical(b) for b in info.bases)
        return None

    def messages(self, site: _RawSite) -> tuple[list[tuple[str, _Alts]], str | None]:
        """The ``(errorClass, templates)`` a site raises, or the reason it is skipped."""
        if site.skip is not None:
            return [], site.skip
        call = _Call(site.args, site.kwargs, site.starred)
        if site.is_assert:
            alts, reason = _arg_message(site.args[0])
            return ([("AssertionError", alts)] if reason is None else []), reason
        if site.cls.kind != "factory":
            name = self.class_name(site.cls)
            alts, reason = self._class_message(site.cls.kind, name, call)
            return ([(name, alts)] if reason is None else []), reason
        func = self.functions.get(self.canonical(site.cls.name))
        if func is None:
            return [], DYNAMIC_CLASS
        bindings = _bind(func, call)
        if bindings is None:
            return [], STARRED if call.starred else DYNAMIC_CLASS
        out: list[tuple[str, _Alts]] = []
        why: str | None = None
        for ref, returned in func.returns:
            inner = _Call(
                tuple(_bind_arg(a, bindings) for a in returned.args),
                tuple((k, _bind_arg(a, bindings)) for k, a in returned.kwargs),
                returned.starred,
            )
            name = self.class_name(ref)
            alts, reason = self._class_message(ref.kind, name, inner)
            if reason is None:
                out.append((name, alts))
            else:
                why = why or reason
        return out, None if out else why

    def _class_message(self, kind: str, name: str, call: _Call) -> tuple[_Alts, str | None]:
        if kind == "written" or name not in self.classes:
            return _builtin_message(name if name in _BUILTINS.values() else "Exception", call)
        return self._message(name, call)

    def _message(self, name: str, call: _Call) -> tuple[_Alts, str | None]:
        """The message of ``name(*call)``, through the mined classes' ``__init__``, ``__str__``."""
        chain = self.chain(name)
        base = self.builtin_base(name) or "Exception"
        if base in _CONTROL_FLOW:
            return (), CONTROL_FLOW
        str_owner = next((c for c in chain if c.str_message is not None), None)
        found: list[_Template] = []
        reason: str | None = None
        for attrs, base_call, unknown in self._states(name, call, call, 0):
            if str_owner is not None and str_owner.str_message is not None:
                found.extend(_substitute(str_owner.str_message, {}, attrs))
                continue
            why = unknown
            if why is None and "args" in attrs:
                why = OWN_FORMAT  # self.args was replaced: str() shows that
            if why is None:
                alts, why = _builtin_message(base, base_call)
                found.extend(alts)
            reason = reason or why
        if not found:
            return (), reason or NO_MESSAGE
        return _dedupe(found), None

    def _states(
        self, name: str, call: _Call, outer: _Call, depth: int
    ) -> list[tuple[dict[str, _Alts], _Call, str | None]]:
        """What constructing ``name(*call)`` leaves, one item per path through ``__init__``.

        Each item holds the ``self`` attributes set, the arguments
        ``BaseException.__init__`` received, and why they are unknown (or ``None``).
        """
        chain = self.chain(name)
        owner = next((c for c in chain if c.init != "none"), None)
        if owner is None:
            return [({}, call, None)]
        bindings = _bind(owner, call)
        if bindings is None:
            return [({}, call, STARRED if call.starred else OWN_FORMAT)]
        attrs = {attr: _substitute(alts, bindings, {}) for attr, alts in owner.self_attrs}
        if owner.init == "nosuper":
            return [(attrs, outer, None)]
        if owner.init == "opaque" or depth > 8:
            return [(attrs, call, OWN_FORMAT)]
        out: list[tuple[dict[str, _Alts], _Call, str | None]] = []
        for target, passed in owner.super_calls:
            parent = self.canonical(target) if target else self._parent(owner)
            inner = _Call(
                tuple(_bind_arg(a, bindings) for a in passed.args),
                tuple((k, _bind_arg(a, bindings)) for k, a in passed.kwargs),
            )
            for parent_attrs, base_call, why in self._states(parent, inner, outer, depth + 1):
                out.append(({**parent_attrs, **attrs}, base_call, why))
        return out


def _builtin_message(name: str, call: _Call) -> tuple[_Alts, str | None]:
    """The message of a builtin exception class (or of a class left unknown) called so."""
    if name in _CONTROL_FLOW:
        return (), CONTROL_FLOW
    args = call.args
    if not args:
        if call.starred:
            return (), STARRED
        return (), KEYWORD_ONLY if call.kwargs else NO_MESSAGE
    if name in _UNICODE_ERRORS and len(args) > 1:
        return (), OWN_FORMAT
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, OSError) and len(args) >= 2:
        if call.starred:
            return (), STARRED
        strerror, reason = _arg_message(args[1])
        if reason is not None:
            return (), reason
        if not any(_has_static_text(t) for t in strerror):
            return (), NO_STATIC_TEXT
        errno = args[0].as_str or _Field(args[0].source)
        head: _Template = ("[Errno ", errno, "] ")
        tail: _Template = ()
        if len(args) >= 3:
            tail = (": ", _filename(args[2]))
            if len(args) >= 5:
                tail = (*tail, " -> ", _filename(args[4]))
        return tuple(_normalise((*head, *t, *tail)) for t in strerror), None
    return _arg_message(args[0])


def _filename(arg: _Arg) -> _Part:
    return arg.as_repr if arg.as_repr is not None else _Field(arg.source, "r")


def _arg_message(arg: _Arg) -> tuple[_Alts, str | None]:
    if arg.non_string:
        return (), NON_STRING
    if arg.alts == ():
        return (), TOO_MANY
    if arg.alts is None:
        return ((_Field(arg.source, ref=arg.ref),),), None
    return arg.alts, None


def _bind(info: _ClassInfo | _FuncInfo, call: _Call) -> dict[str, _Arg] | None:
    """Map ``__init__`` (or function) parameters to a call's arguments (``None`` if unsure)."""
    if call.starred:
        return None
    bindings = dict(info.defaults)
    if len(call.args) > len(info.params) and not info.varargs:
        return None
    for name, arg in zip(info.params, call.args, strict=False):
        bindings[name] = arg
    for name, arg in call.kwargs:
        if name in info.params:
            bindings[name] = arg
    return bindings


def _bind_arg(arg: _Arg, bindings: Mapping[str, _Arg]) -> _Arg:
    """An argument of a ``super().__init__`` call, with the outer call's arguments put in."""
    if arg.ref is not None and arg.ref in bindings:
        return bindings[arg.ref]
    if not arg.alts:
        return arg
    alts = _substitute(arg.alts, bindings, {})
    return _Arg(alts, arg.source, arg.as_str, arg.as_repr, arg.non_string, None)


def _as_template(arg: _Arg, conversion: str, spec: str) -> _Alts:
    if not spec:
        if conversion in ("", "s"):
            if arg.alts:
                return arg.alts
            if arg.as_str is not None:
                return ((arg.as_str,),)
        if conversion == "r" and arg.as_repr is not None:
            return ((arg.as_repr,),)
        if conversion == "r" and arg.alts:
            texts = [_literal_text(t) for t in arg.alts]
            if all(t is not None for t in texts):
                return tuple((repr(t),) for t in texts)
    return ((_Field(arg.source, conversion, spec),),)


def _substitute(alts: _Alts, bindings: Mapping[str, _Arg], attrs: Mapping[str, _Alts]) -> _Alts:
    """Specialise a class's message to one call: parameters become the call's arguments."""
    out: list[_Template] = []
    for template in alts:
        pieces: list[_Alts] = []
        for part in template:
            if isinstance(part, str) or part.ref is None:
                pieces.append(((part,),))
                continue
            ref = part.ref
            if ref.startswith("self."):
                attr = attrs.get(ref[5:])
                if attr is None:
                    pieces.append(((part,),))
                    continue
                inner = _substitute(attr, bindings, {})
                if part.conversion in ("", "s") and not part.spec:
                    pieces.append(inner)
                else:
                    texts = [_literal_text(t) for t in inner]
                    if (
                        part.conversion == "r"
                        and not part.spec
                        and all(t is not None for t in texts)
                    ):
                        pieces.append(tuple((repr(t),) for t in texts))
                    else:
                        pieces.append(((part,),))
                continue
            arg = bindings.get(ref)
            if arg is None:
                pieces.append(((part,),))
            else:
                pieces.append(_as_template(arg, part.conversion, part.spec))
        out.extend(_product(pieces))
    return _dedupe(out)


# --------------------------------------------------------------------------
# Public API: mining
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class MineStats:
    """Counts of a mining run: files, raise sites, records, skipped sites by reason.

    ``sites`` counts every ``raise`` of an exception and every ``assert``;
    ``reraises`` counts bare ``raise`` statements, which are not sites.
    ``skipped`` maps each reason to its count, most frequent first;
    ``parse_errors`` holds ``(file, error)`` for files that could not be read.
    """

    files: int
    sites: int
    records: int
    skipped: Mapping[str, int]
    parse_errors: tuple[tuple[str, str], ...] = ()
    reraises: int = 0
    seconds: float = 0.0

    @property
    def skipped_total(self) -> int:
        """Number of raise sites that gave no record."""
        return sum(self.skipped.values())

    def as_dict(self) -> dict[str, Any]:
        """The counts as a JSON-ready dict."""
        return {
            "files": self.files,
            "sites": self.sites,
            "records": self.records,
            "skipped": dict(self.skipped),
            "parseErrors": [{"file": f, "error": e} for f, e in self.parse_errors],
            "reraises": self.reraises,
            "seconds": round(self.seconds, 3),
        }

    def summary(self) -> str:
        """A short human-readable summary.

        >>> stats = MineStats(
        ...     files=2,
        ...     sites=5,
        ...     records=4,
        ...     skipped={"no message": 2},
        ...     parse_errors=(("a.py", "SyntaxError: x (line 1)"),),
        ...     seconds=0.5,
        ... )
        >>> print(stats.summary())
        mined 2 files in 0.5 s: 5 raise sites, 4 records, 2 sites skipped
          skipped, no message: 2
          1 file could not be parsed:
            a.py: SyntaxError: x (line 1)
        """
        lines = [
            f"mined {self.files} file{'s' * (self.files != 1)} in {self.seconds:.1f} s: "
            f"{self.sites} raise sites, {self.records} records, "
            f"{self.skipped_total} sites skipped"
        ]
        for reason, count in self.skipped.items():
            lines.append(f"  skipped, {reason}: {count}")
        if self.parse_errors:
            n = len(self.parse_errors)
            lines.append(f"  {n} file{'s' * (n != 1)} could not be parsed:")
            lines.extend(f"    {f}: {e}" for f, e in self.parse_errors)
        return "\n".join(lines)


@dataclass(frozen=True)
class MineResult:
    """The envelopes of a mining run (sorted by file, line), its counts, repo and commit."""

    envelopes: tuple[RecordEnvelope, ...]
    stats: MineStats
    repo: str
    sha: str

    @property
    def records(self) -> tuple[ErrorRecord, ...]:
        """The mined records, in the order of :attr:`envelopes`."""
        return tuple(e.record for e in self.envelopes)


@dataclass(frozen=True, slots=True)
class _Entry:
    file_path: str
    line: int
    qualname: str
    error_class: str
    template: str
    base: str | None
    snippet: tuple[int, int, str]


def _now() -> datetime:
    now = datetime.now(timezone.utc)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def _check_repo_sha(repo: str, sha: str) -> str:
    if not _REPO.match(repo):
        raise InvalidRecordError(f"Invalid repo: {repo!r} (expected OWNER/NAME)", field="repo")
    sha = sha.lower()
    if not _SHA.match(sha):
        raise InvalidRecordError(
            f"Invalid sha: {sha!r} (expected 40 hexadecimal digits)", field="analyzedSha"
        )
    return sha


def _scan_all(
    tasks: list[tuple[str, str]],
    workers: int,
    progress: Callable[[int, int, str], None] | None,
) -> list[_FileScan]:
    total = len(tasks)
    scans: list[_FileScan] = []
    if workers <= 1 or total < 2:
        for index, task in enumerate(tasks, start=1):
            scans.append(_scan_file(task))
            if progress is not None:
                progress(index, total, task[0])
        return scans
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    chunk = max(1, min(32, total // (workers * 8)))
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        for index, scan in enumerate(pool.map(_scan_file, tasks, chunksize=chunk), start=1):
            scans.append(scan)
            if progress is not None:
                progress(index, total, scan.source)
    return scans


def mine_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    repo: str,
    sha: str,
    path_prefix: str = "",
    include_tests: bool = False,
    analyzed_at: datetime | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    workers: int = 1,
) -> MineResult:
    """Mine draft records from ``.py`` files and folders (see the module docstring).

    ``filePath`` is each file's path relative to the folder it was found under
    (a file given directly: its name), with ``path_prefix`` prepended. Tests
    (``test``/``tests`` folders, ``test_*.py``, ``*_test.py``, ``conftest.py``)
    are skipped unless ``include_tests``; hidden folders, ``__pycache__`` and
    nested ``site-packages`` are never walked. ``progress(done, total, file)``
    is called after each file. With ``workers`` above 1, files are scanned by a
    pool of processes (started with forkserver or spawn, so a calling script
    needs the ``if __name__ == "__main__":`` guard); one process mines the
    whole standard library in a few seconds. A file that cannot be parsed is
    listed in ``stats.parse_errors``; it never stops the run.
    """
    started = time.perf_counter()
    sha = _check_repo_sha(repo, sha)
    when = analyzed_at or _now()
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    files = _discover(paths, include_tests)
    tasks = [(str(path), _join_prefix(path_prefix, rel)) for path, rel in files]
    scans = _scan_all(tasks, workers, progress)
    resolver = _Resolver(scans)
    skipped: Counter[str] = Counter()
    parse_errors: list[tuple[str, str]] = []
    entries: list[_Entry] = []
    sites = reraises = 0
    for scan in scans:
        if scan.error is not None:
            parse_errors.append((scan.source, scan.error))
            continue
        reraises += scan.reraises
        snippets = {line: (start, end, code) for line, start, end, code in scan.snippets}
        for site in scan.sites:
            sites += 1
            texts, reason = _site_texts(resolver, site)
            if reason is not None:
                skipped[reason] += 1
                continue
            for cls_name, text in texts:
                base = resolver.builtin_base(cls_name)
                entries.append(
                    _Entry(
                        scan.file_path,
                        site.line,
                        site.qualname,
                        cls_name,
                        text,
                        base,
                        snippets[site.line],
                    )
                )
    envelopes = _build_envelopes(entries, repo, sha, when)
    stats = MineStats(
        files=len(files),
        sites=sites,
        records=len(envelopes),
        skipped=dict(sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))),
        parse_errors=tuple(parse_errors),
        reraises=reraises,
        seconds=time.perf_counter() - started,
    )
    return MineResult(tuple(envelopes), stats, repo, sha)


def _site_texts(resolver: _Resolver, site: _RawSite) -> tuple[list[tuple[str, str]], str | None]:
    """The ``(errorClass, template)`` of a site (static text, round-trip checked), or why not."""
    try:
        messages, reason = resolver.messages(site)
    except _TooManyVariantsError:
        return [], TOO_MANY
    if reason is not None:
        return [], reason
    texts: list[tuple[str, str]] = []
    failed = None
    for cls_name, alts in messages:
        for raw in alts:
            template = _strip_edges(raw)
            if not _has_static_text(template):
                failed = failed or NO_STATIC_TEXT
                continue
            text = _render(template)
            if not _round_trips(template, text):
                failed = NO_ROUND_TRIP
                continue
            if (cls_name, text) not in texts:
                texts.append((cls_name, text))
    if not texts:
        return [], failed or NO_STATIC_TEXT
    return texts, None


def _build_envelopes(
    entries: list[_Entry], repo: str, sha: str, when: datetime
) -> list[RecordEnvelope]:
    entries.sort(key=lambda e: (e.file_path, e.line, e.template))
    groups: defaultdict[tuple[str, str], list[_Entry]] = defaultdict(list)
    for entry in entries:
        groups[(entry.file_path, entry.template)].append(entry)
    keys: dict[int, tuple[str, ...]] = {}
    for group in groups.values():
        if len(group) == 1:
            keys[id(group[0])] = ()
            continue
        by_qual: defaultdict[str, list[_Entry]] = defaultdict(list)
        for entry in group:
            by_qual[entry.qualname].append(entry)
        for qual, members in by_qual.items():
            for ordinal, entry in enumerate(members):
                keys[id(entry)] = (qual,) if len(members) == 1 else (qual, str(ordinal))
    envelopes: list[RecordEnvelope] = []
    seen: set[str] = set()
    for entry in entries:
        rid = record_id(repo, entry.file_path, entry.template, *keys[id(entry)])
        if rid in seen:  # the same template twice at one site
            continue
        seen.add(rid)
        envelopes.append(_draft(entry, rid, repo, sha, when))
    return envelopes


def _draft(entry: _Entry, rid: str, repo: str, sha: str, when: datetime) -> RecordEnvelope:
    start, end, code = entry.snippet
    is_warning = guess_error_type(entry.base) == "warning"
    record = ErrorRecord(
        id=rid,
        repo=repo,
        slug=slugify(entry.template),
        error_code=None,
        error_message=entry.template,
        message_pattern=template_to_pattern(entry.template),
        error_type=guess_error_type(entry.base),
        error_class=entry.error_class,
        http_status=None,
        severity="warning" if is_warning else "error",
        file_path=entry.file_path,
        line_number=entry.line,
        source_code=code,
        source_code_start=start,
        source_code_end=end,
        github_url=github_url(repo, sha, entry.file_path, start, end),
        documentation="",
        trigger_scenarios="",
        common_situations="",
        solutions=(),
        example_fix="",
        handling_strategy="",
        validation_code=None,
        type_guard=None,
        try_catch_pattern=None,
        prevention_tips=(),
        tags=(),
        background_tag=None,
        analyzed_sha=sha,
        analyzed_at=when,
        schema_version=2,
    )
    return RecordEnvelope(record=record, dataset_version=when)


def mine_source(source: str, *, module: str = "module") -> list[tuple[int, str, str]]:
    """The ``(line, errorClass, template)`` of every message mined from one module's source.

    >>> mine_source(
    ...     '''
    ... class ParseError(ValueError):
    ...     pass
    ... def parse(text, pos):
    ...     if not text:
    ...         raise ParseError("empty input at %d" % pos)
    ...     msg = "unexpected character"
    ...     if pos:
    ...         msg += f" at {pos}"
    ...     raise ValueError(msg)
    ... ''',
    ...     module="mypkg.parser",
    ... )
    [(6, 'mypkg.parser.ParseError', 'empty input at {pos}'), (10, 'ValueError', 'unexpected character'), (10, 'ValueError', 'unexpected character at {pos}')]
    """  # noqa: E501
    tree = ast.parse(source)
    scanner = _Scanner(module, is_package=False)
    scanner.scan(tree)
    scan = _FileScan(
        "<source>",
        "<source>",
        module,
        classes=tuple(scanner.classes),
        functions=tuple(scanner.functions),
    )
    resolver = _Resolver([scan])
    out: list[tuple[int, str, str]] = []
    for site in scanner.sites:
        texts, _reason = _site_texts(resolver, site)
        out.extend((site.line, cls_name, text) for cls_name, text in texts)
    return sorted(out)


# --------------------------------------------------------------------------
# Re-anchoring
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class ReanchorResult:
    """Existing records moved to a new commit, what became of the others, and the report.

    ``envelopes`` are the re-anchored records (and those of other repos, as
    they were); ``removed`` the records no raise site matched any more;
    ``new_envelopes`` the mined records that matched no existing record.
    ``report`` is ``{"moved": [ids], "changed": [{"id", "old", "new", "file",
    "line"}], "removed": [ids], "unchanged": [ids], "new": count}``.
    """

    envelopes: tuple[RecordEnvelope, ...]
    new_envelopes: tuple[RecordEnvelope, ...]
    removed: tuple[RecordEnvelope, ...]
    report: dict[str, Any]

    def summary(self) -> str:
        """The report as text, one line per moved, changed or removed record."""
        r = self.report
        lines = [
            f"re-anchored {len(r['unchanged']) + len(r['moved']) + len(r['changed'])} records: "
            f"{len(r['unchanged'])} unchanged, {len(r['moved'])} moved, "
            f"{len(r['changed'])} changed, {len(r['removed'])} removed; "
            f"{r['new']} new raise site messages"
        ]
        where = {e.record.id: e.record for e in self.envelopes}
        for rid in r["moved"]:
            rec = where[rid]
            lines.append(f"  moved    {rid} to {rec.file_path}:{rec.line_number}")
        for change in r["changed"]:
            lines.append(f"  changed  {change['id']} at {change['file']}:{change['line']}")
            lines.append(f"      old: {change['old']}")
            lines.append(f"      new: {change['new']}")
        for env in self.removed:
            rec = env.record
            lines.append(
                f"  removed  {rec.id} was at {rec.file_path}:{rec.line_number}: {rec.error_message}"
            )
        return "\n".join(lines)


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _reanchored(old: RecordEnvelope, new: RecordEnvelope, *, reworded: bool) -> RecordEnvelope:
    n = new.record
    update: dict[str, Any] = {
        "file_path": n.file_path,
        "line_number": n.line_number,
        "source_code": n.source_code,
        "source_code_start": n.source_code_start,
        "source_code_end": n.source_code_end,
        "analyzed_sha": n.analyzed_sha,
        "analyzed_at": n.analyzed_at,
        "github_url": github_url(
            old.record.repo, n.analyzed_sha, n.file_path, n.source_code_start, n.source_code_end
        ),
    }
    if reworded:
        update["error_message"] = n.error_message
        update["message_pattern"] = n.message_pattern
    record = old.record.model_copy(update=update)
    envelope = old.model_copy(update={"record": record, "dataset_version": new.dataset_version})
    # model_copy does not validate: check the result as a release would.
    return RecordEnvelope.model_validate(envelope.model_dump(mode="json"))


def _similarity(a: str, b: str) -> float:
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def reanchor(
    old_envelopes: Iterable[RecordEnvelope], mine_result: MineResult | Iterable[RecordEnvelope]
) -> ReanchorResult:
    """Move existing records to the raise sites of a new mining run, keeping their curation.

    Records are matched to mined records in three passes:

    1. by id (ids do not depend on line numbers);
    2. by identical template, preferring the same file, then the same class,
       then the nearest line;
    3. the *nearest-template rule*: a record still unmatched and a mined record
       still unmatched in the **same file**, raising the **same class** (last
       dotted component), whose templates have a difflib similarity of at least
       :data:`CHANGE_THRESHOLD` are paired, best similarity first (ties: nearest
       line).

    Passes 1-2 give ``unchanged`` (same file and line) or ``moved``; pass 3 gives
    ``changed``, and only then does the record take the new template and
    pattern. Every matched record keeps its id, slug, class and curated fields
    and gets the new file, line, snippet, span, URL, sha and ``analyzedAt``. A
    record that is not matched is ``removed``: it is left out of the re-anchored
    envelopes and returned in ``removed``. Mined records that no record matched
    are ``new`` (the count is of messages at raise sites). Records of other
    repos are kept as they are and not reported.
    """
    if isinstance(mine_result, MineResult):
        mined = list(mine_result.envelopes)
        repos = {mine_result.repo}
    else:
        mined = list(mine_result)
        repos = {e.record.repo for e in mined}
    olds = list(old_envelopes)
    ours = [e for e in olds if not repos or e.record.repo in repos]
    others = [e for e in olds if repos and e.record.repo not in repos]
    seen_ids: set[str] = set()
    for env in ours:
        if env.record.id in seen_ids:
            raise InvalidRecordError(
                "duplicate record id in the catalog", field="id", record_id=env.record.id
            )
        seen_ids.add(env.record.id)

    taken: set[int] = set()
    matched: dict[str, tuple[RecordEnvelope, RecordEnvelope, str]] = {}
    by_id = {e.record.id: i for i, e in enumerate(mined)}
    by_template: defaultdict[str, list[int]] = defaultdict(list)
    by_file: defaultdict[str, list[int]] = defaultdict(list)
    for index, env in enumerate(mined):
        by_template[env.record.error_message].append(index)
        by_file[env.record.file_path].append(index)
    for env in ours:
        found = by_id.get(env.record.id)
        if found is not None:
            taken.add(found)
            matched[env.record.id] = (env, mined[found], "same")

    def assign(kind: str, candidates: list[tuple[tuple[float, ...], int, int]]) -> None:
        candidates.sort()
        for _key, old_index, new_index in candidates:
            old = ours[old_index]
            if old.record.id in matched or new_index in taken:
                continue
            taken.add(new_index)
            matched[old.record.id] = (old, mined[new_index], kind)

    same: list[tuple[tuple[float, ...], int, int]] = []
    for old_index, env in enumerate(ours):
        o = env.record
        if o.id in matched:
            continue
        for new_index in by_template.get(o.error_message, ()):
            n = mined[new_index].record
            key = (
                float(o.file_path != n.file_path),
                float(_short(o.error_class) != _short(n.error_class)),
                float(abs(o.line_number - n.line_number)),
            )
            same.append((key, old_index, new_index))
    assign("same", same)

    near: list[tuple[tuple[float, ...], int, int]] = []
    for old_index, env in enumerate(ours):
        o = env.record
        if o.id in matched:
            continue
        for new_index in by_file.get(o.file_path, ()):
            n = mined[new_index].record
            if new_index in taken or _short(o.error_class) != _short(n.error_class):
                continue
            ratio = _similarity(o.error_message, n.error_message)
            if ratio >= CHANGE_THRESHOLD:
                near.append(
                    (((-ratio), float(abs(o.line_number - n.line_number))), old_index, new_index)
                )
    assign("changed", near)

    report: dict[str, Any] = {"moved": [], "changed": [], "removed": [], "unchanged": []}
    out: list[RecordEnvelope] = list(others)
    removed: list[RecordEnvelope] = []
    for env in ours:
        rid = env.record.id
        if rid not in matched:
            report["removed"].append(rid)
            removed.append(env)
            continue
        old, new, kind = matched[rid]
        o, n = old.record, new.record
        if kind == "changed":
            report["changed"].append(
                {
                    "id": rid,
                    "old": o.error_message,
                    "new": n.error_message,
                    "file": n.file_path,
                    "line": n.line_number,
                }
            )
        elif (o.file_path, o.line_number) == (n.file_path, n.line_number):
            report["unchanged"].append(rid)
        else:
            report["moved"].append(rid)
        out.append(_reanchored(old, new, reworded=kind == "changed"))
    for name in ("moved", "removed", "unchanged"):
        report[name].sort()
    report["changed"].sort(key=lambda c: c["id"])
    new_envs = tuple(e for i, e in enumerate(mined) if i not in taken)
    report["new"] = len(new_envs)
    out.sort(key=lambda e: (e.record.repo, e.record.file_path, e.record.line_number, e.record.id))
    return ReanchorResult(tuple(out), new_envs, tuple(removed), report)


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``errcat mine`` to a parser.

    >>> p = argparse.ArgumentParser(prog="errcat mine")
    >>> add_arguments(p)
    >>> args = p.parse_args(["pkg", "--repo", "o/r", "--sha", "a" * 40])
    >>> args.src, args.path_prefix, args.output
    (['pkg'], '', None)
    """
    parser.add_argument("src", nargs="+", metavar="SRC", help="a .py file or a folder to mine")
    parser.add_argument("--repo", required=True, metavar="OWNER/NAME", help="GitHub repository")
    parser.add_argument("--sha", required=True, help="the commit the source is at (40 hex)")
    parser.add_argument(
        "--path-prefix",
        default="",
        metavar="P",
        help="prepended to paths relative to SRC to give the path in the repo",
    )
    parser.add_argument("-o", "--output", metavar="OUT.jsonl", help="write records here")
    parser.add_argument(
        "--include-tests", action="store_true", help="also mine test folders and files"
    )
    parser.add_argument(
        "--update",
        metavar="CATALOG",
        help="re-anchor this catalog's records to the mined sites instead of writing drafts",
    )
    parser.add_argument(
        "--report", metavar="REPORT.json", help="with --update: write the report as JSON here"
    )
    parser.add_argument(
        "--add-new",
        action="store_true",
        help="with --update: also write draft records for new raise sites",
    )
    parser.add_argument(
        "--analyzed-at",
        metavar="ISO-8601",
        help="timestamp to record instead of now (reproducible output)",
    )
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)"
    )


def _parse_when(text: str | None) -> datetime | None:
    if text is None:
        return None
    when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


class _Progress:
    """One self-overwriting progress line on a terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.last = 0.0

    def __call__(self, done: int, total: int, path: str) -> None:
        now = time.monotonic()
        if done != total and now - self.last < 0.1:
            return
        self.last = now
        name = path if len(path) <= 50 else "..." + path[-47:]
        self.stream.write(f"\r\x1b[Kmining {done}/{total} {name}")
        if done == total:
            self.stream.write("\r\x1b[K")
        self.stream.flush()


def _load_catalog(path: str) -> list[RecordEnvelope]:
    envelopes = []
    for loaded in iter_path(path):
        if loaded.problem is not None:
            raise loaded.problem
        assert loaded.envelope is not None
        envelopes.append(loaded.envelope)
    return envelopes


def _write(envelopes: Sequence[RecordEnvelope], output: str | None) -> None:
    if output:
        write_jsonl(output, envelopes)
        return
    for envelope in envelopes:
        sys.stdout.write(dump_envelope(envelope) + "\n")
    sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    """Run ``errcat mine`` with parsed arguments; return the exit status (0 ok, 2 bad usage)."""
    err = sys.stderr
    if args.report and not args.update:
        err.write("errcat mine: --report needs --update\n")
        return 2
    if args.add_new and not args.update:
        err.write("errcat mine: --add-new needs --update\n")
        return 2
    if not _REPO.match(args.repo):
        err.write(f"errcat mine: invalid --repo {args.repo!r} (expected OWNER/NAME)\n")
        return 2
    if not _SHA.match(args.sha.lower()):
        err.write(f"errcat mine: invalid --sha {args.sha!r} (expected 40 hex digits)\n")
        return 2
    if args.jobs < 1:
        err.write("errcat mine: --jobs must be at least 1\n")
        return 2
    try:
        when = _parse_when(args.analyzed_at)
    except ValueError:
        err.write(f"errcat mine: invalid --analyzed-at {args.analyzed_at!r}\n")
        return 2
    old = _load_catalog(args.update) if args.update else None
    progress = _Progress(err) if err.isatty() else None
    result = mine_paths(
        args.src,
        repo=args.repo,
        sha=args.sha,
        path_prefix=args.path_prefix,
        include_tests=args.include_tests,
        analyzed_at=when,
        progress=progress,
        workers=args.jobs,
    )
    err.write(result.stats.summary() + "\n")
    if old is None:
        _write(result.envelopes, args.output)
        return 0
    anchored = reanchor(old, result)
    out = list(anchored.envelopes)
    if args.add_new:
        out.extend(anchored.new_envelopes)
    _write(out, args.output)
    if args.report:
        text = json.dumps(anchored.report, indent=2, ensure_ascii=False) + "\n"
        Path(args.report).write_text(text, encoding="utf-8")
    err.write(anchored.summary() + "\n")
    return 0
