r"""Benchmark corpora: realistic errcat catalogs of any size, mined from real Python source.

Method
======

1. **Mining (the base set).** :func:`errcat.mine.mine_paths` mines the running
   interpreter's standard library (repo ``python/cpython``, paths ``Lib/...``)
   and every distribution installed in the interpreter's site-packages
   (repo ``pypi/<name>``, paths ``<top-level package>/...``; errcat itself is
   left out). The result, a few thousand draft records with real message
   templates, classes and source snippets, is the *base* (8,834 records from
   43 repositories on Python 3.11 here; 40% of them share their message with
   another record: vendored and copied code). Mining takes 8 to 25 seconds
   here, so the base is cached (see *Caches* below).

2. **Scaling.** A catalog of ``n`` records is the base (a seeded sample of it
   when ``n`` is smaller) plus ``n - len(base)`` generated records that look
   like the same code raised in other projects ``org<k>/proj<k>``. Projects
   have a log-normal number of records (median about 30), drawn file by file
   from one anchor package (and now and then from another): each base file
   gets the project's path (``[src/]proj<k>/...``, the stem sometimes renamed)
   and a line shift; dotted exception classes get the project's package. Each
   base message a project raises is perturbed, once per project, so that its
   pattern is new; the project's other sites of that message raise the same
   new template (in the mined catalogs 26-43% of records share their message
   with another record, 11-37% in the same file; perturbing each site apart
   left 4% sharing in a file at 100k records, and counted each base message's
   words once per site):

   * one to three literal words are replaced by words of the same shape
     (lowercase, Capitalised, snake_case, CamelCase, UPPER) drawn, weighted by
     frequency, from a vocabulary of the base templates' words and the
     identifiers of the base source snippets;
   * sometimes a project prefix (``[proj42] ``, ``proj42: ``) is added, a
     clause mined from another template (``; expected {x!r}``) appended, or
     the last clause dropped.

   Placeholders are never touched. A perturbed template whose pattern is
   already in the catalog is perturbed again. About 2% of the generated
   messages copy another record's template exactly (vendored code: identical
   messages at several sites), and 0.25% are *generic* (``{a}: {b}``,
   ``{a} ({b})``: little or no literal text), the same few templates raised
   all over. ``messagePattern`` is built from the template's parts exactly as
   :func:`errcat.patterns.template_to_pattern` builds it (literal text escaped
   the same way, one ``(.+?)`` per placeholder), which is checked on a sample
   of every catalog written (on every record for catalogs up to 20,000). The
   snippet keeps the base lines around the raise site, the raise statement
   itself is rewritten to raise the new template (``raise ValueError(f"...")``),
   and ``sourceCodeStart/End``, ``lineNumber`` and ``githubUrl`` agree with it.
   Ids are the first 16 hex digits of a sha256 (unique in a catalog),
   slugs come from :func:`errcat.mine.slugify`. Generation is deterministic
   for a seed, and the generated records of a smaller catalog are a prefix of
   those of a larger one.

3. **Writing.** :func:`write_catalog` writes JSON Lines, one envelope per line,
   in the same bytes as :func:`errcat.loaders.dump_envelope` (checked on the
   sample: each sampled line is validated with
   :func:`errcat.models.validate_envelope` and dumped again). Lines are
   assembled as strings (the JSON of a base snippet's context is escaped once);
   everything random is decided in order in this process, and for large
   catalogs the lines are built meanwhile by a forked worker (the bytes do
   not depend on it). A million records (2.5 GB) take about 30 seconds here.

4. **Queries.** :func:`make_queries` returns, per kind, ``(text, expected
   id or None)``:

   ``hit line``
       ``Class: message``, the template of a non-generic record rendered with
       values that suit each placeholder (quoted names, numbers, lists, paths,
       URLs, type names, one element for ``{names[-1]}``, a real CPython error
       message for a caught exception's ``{e}``; KeyError messages as Python
       prints them, quoted);
   ``hit traceback``
       the same inside a traceback of 24 frames (about 50 lines) whose last
       frame is the record's file (as installed: ``/usr/lib/python3.X/...`` or
       ``.../site-packages/...``), line and source line;
   ``miss line`` / ``miss traceback``
       real messages of CPython itself, raised and caught here (``int('x')``,
       ``None.attr``, ``open()`` of a missing file, ``1 / 0`` ... with random
       inputs); frames only through application files that no record shares;
   ``generic``
       ``Class: context: <a CPython message>``, rendered from a generic record:
       only generic patterns match it, so the expected answer is ``None``
       (their literal text explains nothing; :func:`errcat.match_all` may still
       list them).

   *Expected ids.* A hit's expected id is the record it was rendered from.
   Several records may hold the same message (the same ``messagePattern``):
   any of them is correct; :func:`make_query_set` returns them as
   ``QuerySet.accepted`` and ``QuerySet.is_correct`` applies the rule.
   Every query is screened against the whole catalog with errcat's own
   regexes (:func:`errcat.patterns.compile_pattern`, the ``full``, ``prefix``
   and ``inner`` modes, and ``partial`` for a cut-off message): a hit is
   dropped when a record with another pattern and at least as much literal
   text also matches it; a miss or generic text is kept only when no
   non-generic pattern matches it (one whose literal text, whitespace folded,
   is at least :data:`GENERIC_LITERAL` characters; the screen finds the
   candidates through the first fragment's longest word, so a truncated
   match that stops before that word is not screened). A miss message that
   some pattern matches has a word of the matched text replaced by a made-up
   word and is screened again.

Caches
======

The mined base is cached in ``$ERRCAT_BENCH_CACHE`` (default
``$XDG_CACHE_HOME/errcat-bench``, else ``~/.cache/errcat-bench``), in a folder
``base-py<X.Y.Z>-<key>`` whose key hashes the Python version, the mined
distributions and their versions, the miner's source and this module's
:data:`CORPUS_VERSION`; it is outside the repository and never committed.
Catalogs are cached where they are written: :func:`write_catalog` reuses
``catalog-<n>-seed<seed>-<key>.jsonl`` when it exists (a sidecar
``.meta`` holds the counts; files are written atomically). Query sets made
from a catalog file are cached beside it (``.queries-k<k>-s<seed>``, dropped
when the catalog changes). Sidecars do not end in ``.json``/``.jsonl``/``.txt``
so that errcat's directory loader ignores them.

Usage
=====

From a benchmark script in ``benchmarks/`` (mining uses worker processes:
keep the ``if __name__ == "__main__":`` guard)::

    from corpus import make_query_set, write_catalog

    path = write_catalog(100_000, "/tmp/errcat-bench")
    queries = make_query_set(path, k=200, seed=1)
    for text, expected in queries.queries["hit line"]:
        ...

or from the shell::

    .venv/bin/python benchmarks/corpus.py --size 100000 --out /tmp/errcat-bench
"""

from __future__ import annotations

import argparse
import ast
import base64
import builtins
import contextlib
import datetime as dt
import hashlib
import importlib.metadata
import importlib.util
import itertools
import json
import keyword
import math
import multiprocessing
import os
import random
import re
import struct
import sys
import sysconfig
import textwrap
import time
import traceback
import uuid
import warnings
from bisect import bisect_left
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from decimal import Decimal
from json.encoder import encode_basestring
from multiprocessing.pool import AsyncResult
from pathlib import Path
from typing import Any, NamedTuple

from errcat.catalog import Catalog
from errcat.mine import (
    MineResult,
    github_url,
    guess_error_type,
    mine_paths,
    record_id,
    slugify,
)
from errcat.models import format_timestamp, validate_envelope
from errcat.patterns import (
    GROUP,
    Placeholder,
    compile_pattern,
    literal_fragments,
    parse_template,
    template_to_pattern,
)
from errcat.store import open_file_store

__all__ = [
    "CORPUS_VERSION",
    "GENERIC_LITERAL",
    "KINDS",
    "SIZES",
    "MinedBase",
    "QuerySet",
    "Source",
    "Vocabulary",
    "base_sources",
    "build_vocabulary",
    "cache_root",
    "iter_catalog_chunks",
    "iter_catalog_lines",
    "load_base",
    "main",
    "make_queries",
    "make_query_set",
    "mine_base",
    "printed_class",
    "write_catalog",
]

#: Bumped when generated catalogs or queries change: part of every cache key.
CORPUS_VERSION = 2

#: Bumped when query sets change but catalogs do not: part of the query cache's key.
QUERY_VERSION = 5

#: The catalog sizes the benchmarks use.
SIZES = (1_000, 10_000, 100_000, 1_000_000)

#: The kinds of query :func:`make_queries` returns, in order.
KINDS = ("hit line", "hit traceback", "miss line", "miss traceback", "generic")

#: A pattern with fewer literal characters than this (whitespace folded) is generic.
GENERIC_LITERAL = 6

#: Timestamp of the mined base and of ``datasetVersion`` (fixed: reproducible files).
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
DATASET_VERSION = format_timestamp(EPOCH)

_GENERIC_SHARE = 0.0025
_DUPLICATE_SHARE = 0.02
_TRACEBACK_FRAMES = 24
_VERIFY_SAMPLE = 2000
_VERIFY_ALL_UP_TO = 20_000
_CHUNK = 4000
_PARALLEL_FROM = 200_000
_PY = f"{sys.version_info.major}.{sys.version_info.minor}"

_Record = dict[str, Any]


# --------------------------------------------------------------------------
# Mining the base
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """One repository to mine: ``paths`` are ``(file or folder, path prefix)`` pairs."""

    repo: str
    version: str
    paths: tuple[tuple[Path, str], ...]

    @property
    def sha(self) -> str:
        """A stable stand-in commit: sha1 of ``repo@version``."""
        return hashlib.sha1(f"{self.repo}@{self.version}".encode()).hexdigest()


@dataclass(frozen=True)
class MinedBase:
    """The mined records (envelope dicts as errcat writes them) and how they were made."""

    key: str
    envelopes: tuple[_Record, ...]
    meta: dict[str, Any]
    path: Path | None = None

    @property
    def records(self) -> list[_Record]:
        """The record dicts (camelCase, as in the JSON)."""
        return [e["record"] for e in self.envelopes]


def cache_root() -> Path:
    """Where mined bases are cached (see the module docstring)."""
    env = os.environ.get("ERRCAT_BENCH_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "errcat-bench"


def catalogs_dir() -> Path:
    """Where the benchmark catalogs are written: ``$ERRCAT_BENCH_DIR``, else under :func:`cache_root`."""
    return Path(os.environ.get("ERRCAT_BENCH_DIR") or cache_root() / "catalogs")


def stored_catalog(path: Path) -> Catalog:
    """The catalog ``path`` holds, read through its stored index (as bench_match reads it)."""
    store = open_file_store(path, progress=False)
    if store is None:
        raise SystemExit(f"{path}: no stored index could be opened")
    return Catalog.of_stores([store])


def _repo_name(name: str) -> str:
    return "pypi/" + re.sub(r"[^A-Za-z0-9_.-]+", "-", name).lower()


def base_sources() -> list[Source]:
    """The interpreter's standard library and each distribution in its site-packages."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    version = ".".join(map(str, sys.version_info[:3]))
    sources = [Source("python/cpython", version, ((stdlib, "Lib"),))]
    purelib = Path(sysconfig.get_paths()["purelib"])
    by_name: dict[str, Source] = {}
    for dist in importlib.metadata.distributions(path=[str(purelib)]):
        name = dist.metadata["Name"]
        if not name or name.lower() == "errcat":
            continue
        tops: set[str] = set()
        for file in dist.files or ():
            parts = file.parts
            if not parts or parts[0] in {"..", "__pycache__"}:
                continue
            if parts[0].endswith((".dist-info", ".data", ".egg-info")):
                continue
            if not parts[-1].endswith(".py"):
                continue
            tops.add(parts[0])
        paths: list[tuple[Path, str]] = []
        for top in sorted(tops):
            path = purelib / top
            if path.is_dir():
                paths.append((path, top))
            elif path.is_file():
                paths.append((path, ""))
        if paths:
            repo = _repo_name(name)
            by_name[repo] = Source(repo, dist.version, tuple(paths))
    sources.extend(by_name[repo] for repo in sorted(by_name))
    return sources


def _base_key(sources: Sequence[Source]) -> str:
    miner = importlib.util.find_spec("errcat.mine")
    origin = miner.origin if miner is not None else None
    digest = hashlib.sha256()
    if origin:  # the miner is a package: every module of it counts
        for module in sorted(Path(origin).parent.glob("*.py")):
            digest.update(module.name.encode() + b"\0" + module.read_bytes())
    miner_hash = digest.hexdigest() if origin else ""
    blob = json.dumps(
        {
            "corpus": CORPUS_VERSION,
            "python": sys.version,
            "sources": [[s.repo, s.version, [[str(p), x] for p, x in s.paths]] for s in sources],
            "miner": miner_hash,
        },
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def _count_py(path: Path) -> int:
    if path.is_file():
        return 1
    return sum(1 for _ in path.rglob("*.py"))


def _mine_one(source: Source, path: Path, prefix: str, workers: int) -> MineResult:
    """One mining run; a pool that broke (a worker died) is retried in this process."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return mine_paths(
                [path],
                repo=source.repo,
                sha=source.sha,
                path_prefix=prefix,
                analyzed_at=EPOCH,
                workers=workers,
                bare_raises=False,  # the generator varies messages; these have none
            )
        except BrokenProcessPool:
            if workers == 1:
                raise
            return mine_paths(
                [path],
                repo=source.repo,
                sha=source.sha,
                path_prefix=prefix,
                analyzed_at=EPOCH,
                workers=1,
                bare_raises=False,
            )


def mine_base(
    sources: Sequence[Source],
    *,
    workers: int | None = None,
    log: Callable[[str], None] | None = None,
) -> tuple[list[_Record], dict[str, Any]]:
    """Mine ``sources``; return the envelope dicts (ids unique) and per-repo counts and times."""
    workers = workers or min(2, os.cpu_count() or 1)
    started = time.perf_counter()
    envelopes: list[_Record] = []
    seen: set[str] = set()
    repos: list[dict[str, Any]] = []
    for source in sources:
        t0 = time.perf_counter()
        count = files = 0
        for path, prefix in source.paths:
            pool = workers if _count_py(path) > 150 else 1
            result = _mine_one(source, path, prefix, pool)
            files += result.stats.files
            for envelope in result.envelopes:
                if envelope.record.id in seen:
                    continue
                seen.add(envelope.record.id)
                envelopes.append(envelope.model_dump(mode="json"))
                count += 1
        seconds = time.perf_counter() - t0
        repos.append(
            {
                "repo": source.repo,
                "version": source.version,
                "files": files,
                "records": count,
                "seconds": round(seconds, 2),
            }
        )
        if log is not None and count:
            log(f"mined {source.repo} {source.version}: {count} records in {seconds:.1f} s")
    meta = {
        "records": len(envelopes),
        "seconds": round(time.perf_counter() - started, 2),
        "python": sys.version,
        "repos": repos,
    }
    return envelopes, meta


def load_base(
    *,
    refresh: bool = False,
    sources: Sequence[Source] | None = None,
    root: Path | None = None,
    workers: int | None = None,
    log: Callable[[str], None] | None = None,
) -> MinedBase:
    """The mined base: read from the cache, or mined (and cached) when missing or ``refresh``."""
    sources = list(sources) if sources is not None else base_sources()
    key = _base_key(sources)
    version = ".".join(map(str, sys.version_info[:3]))
    folder = (root or cache_root()) / f"base-py{version}-{key}"
    data, meta_file = folder / "base.jsonl", folder / "meta"
    if not refresh and data.is_file() and meta_file.is_file():
        with data.open(encoding="utf-8") as fh:
            envelopes = tuple(json.loads(line) for line in fh if line.strip())
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        return MinedBase(key, envelopes, {**meta, "cached": True}, data)
    mined, meta = mine_base(sources, workers=workers, log=log)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / ".base.jsonl.tmp"
    with tmp.open("w", encoding="utf-8", newline="\n") as fh:
        for envelope in mined:
            fh.write(json.dumps(envelope, ensure_ascii=False, separators=(",", ":")) + "\n")
    tmp.replace(data)
    meta = {**meta, "key": key}
    meta_file.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return MinedBase(key, tuple(mined), {**meta, "cached": False}, data)


# --------------------------------------------------------------------------
# Templates as parts
# --------------------------------------------------------------------------

_ESCAPE = str.maketrans({c: "\\" + c for c in ".^$*+?{}[]\\|()"})
_WS = re.compile(r"\s+")


def _fold(text: str) -> str:
    return _WS.sub(" ", text).strip()


def _placeholder_source(f: Placeholder) -> str:
    # A debug field ({x=}) left "x=" in the literal before it, so it is written {x}.
    conversion = f"!{f.conversion}" if f.conversion else ""
    spec = f":{f.spec}" if f.spec else ""
    return "{" + f.expr + conversion + spec + "}"


def _segments(template: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A template as its literal texts (one more than fields) and its fields' source."""
    literals, fields = parse_template(template)
    return literals, tuple(_placeholder_source(f) for f in fields)


_BRACES = str.maketrans({"{": "{{", "}": "}}"})


def _braces(text: str) -> str:
    return text.translate(_BRACES)


def _template(lits: Sequence[str], phs: Sequence[str]) -> str:
    out = [_braces(lits[0])]
    for ph, lit in zip(phs, lits[1:], strict=True):
        out.append(ph)
        out.append(_braces(lit))
    return "".join(out)


def _pattern(lits: Sequence[str]) -> str:
    """``template_to_pattern`` of the template with these literals (one GROUP between each)."""
    return GROUP.join(lit.translate(_ESCAPE) for lit in lits)


_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)


_PLAIN_PATTERN = re.compile(r"(?:\(\.\+\?\)|\\[.^$*+?{}\[\]\\|()]|[^.^$*+?{}\[\]\\|()])*")
_ODD_SPACE = re.compile(r"\s\s|[^\S ]")


def _fragments(pattern: str) -> tuple[str, ...]:
    """:func:`errcat.patterns.literal_fragments`, fast for patterns made of literals and GROUPs."""
    if not _PLAIN_PATTERN.fullmatch(pattern):
        return literal_fragments(pattern)
    texts = pattern.split(GROUP)
    for i in range(len(texts)):
        if "\\" in texts[i]:
            texts[i] = _UNESCAPE.sub(r"\1", texts[i])
        if _ODD_SPACE.search(texts[i]):
            texts[i] = _WS.sub(" ", texts[i])
    texts[0] = texts[0].lstrip()
    texts[-1] = texts[-1].rstrip()
    return tuple(t for t in texts if t.strip())


# --------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------

_STOPWORDS_TEXT = """
    a an the and or not no nor is are was were be been being to of in on at by for with from
    as into onto than then that this these those it its has have had got get gets can cannot
    could should would must may might will shall do does did done use used using if else
    when while where which who whom what whose why how only also but so such any all each
    every some one two more most less least very too again out up down over under after
    before between both either neither expected instead via per none true false self cls
"""
_STOPWORDS = frozenset(_STOPWORDS_TEXT.split())
_BUILTIN_NAMES = frozenset(dir(builtins))
_EXCLUDED = _STOPWORDS | frozenset(keyword.kwlist) | frozenset(keyword.softkwlist)
_LOWER_WORD = re.compile(r"\b[a-z]{3,14}\b")
_IDENT = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]{2,30}\b")
_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
_CAMEL = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+")
_SUBST_WORD = re.compile(r"\b[A-Za-z][A-Za-z_]*[A-Za-z]\b")


@dataclass(frozen=True)
class _Weighted:
    items: tuple[str, ...]
    cum: tuple[float, ...]

    @classmethod
    def of(cls, counts: Counter[str], limit: int) -> _Weighted:
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
        if not ranked:
            ranked = [("value", 1)]
        items = tuple(w for w, _ in ranked)
        cum: list[float] = []
        total = 0.0
        for _, c in ranked:
            total += math.sqrt(c)  # flatten the head a little: more distinct perturbations
            cum.append(total)
        return cls(items, tuple(cum))

    def pick(self, rng: random.Random) -> str:
        x = rng.random() * self.cum[-1]
        return self.items[min(bisect_left(self.cum, x), len(self.items) - 1)]


@dataclass(frozen=True)
class Vocabulary:
    """Words of the base templates and identifiers of the base snippets, by shape."""

    words: _Weighted
    snake: _Weighted
    camel: _Weighted

    def like(self, word: str, rng: random.Random) -> str:
        """A different word of the same shape as ``word``."""
        for _ in range(4):
            if "_" in word:
                new = self.snake.pick(rng)
            elif word.isupper():
                new = self.words.pick(rng).upper()
            elif word[0].isupper() and any(c.isupper() for c in word[1:]):
                new = self.camel.pick(rng)
            elif word[0].isupper():
                new = self.words.pick(rng).capitalize()
            else:
                new = self.words.pick(rng)
            if new != word:
                return new
        return word + "s"

    def ident(self, rng: random.Random) -> str:
        """An identifier (snake_case or a plain word)."""
        return self.snake.pick(rng) if rng.random() < 0.6 else self.words.pick(rng)


def build_vocabulary(records: Iterable[Mapping[str, Any]]) -> Vocabulary:
    """The vocabulary of a set of records (see :class:`Vocabulary`)."""
    words: Counter[str] = Counter()
    snake: Counter[str] = Counter()
    camel: Counter[str] = Counter()
    for rec in records:
        for lit in parse_template(str(rec["errorMessage"]))[0]:
            words.update(w for w in _LOWER_WORD.findall(lit) if w not in _EXCLUDED)
        for ident in _IDENT.findall(str(rec["sourceCode"])):
            if ident in _BUILTIN_NAMES or ident.lower() in _EXCLUDED or ident.startswith("_"):
                continue
            if _SNAKE.fullmatch(ident):
                snake[ident] += 1
            elif _CAMEL.fullmatch(ident):
                camel[ident] += 1
    return Vocabulary(
        _Weighted.of(words, 6000), _Weighted.of(snake, 6000), _Weighted.of(camel, 3000)
    )


# --------------------------------------------------------------------------
# Scaling
# --------------------------------------------------------------------------

_CLAUSE_SEPS = ("; ", ". ", ", ", " (", " - ", ": ")
_GENERIC_SHAPES = (
    ("{}: {}", 5),
    ("{}: {!r}", 2),
    ("{!r}: {}", 1),
    ("{} ({})", 2),
    ("{} - {}", 1),
    ("{}, {}", 1),
    ("{} {}", 1),
    ("{}={!r}", 1),
    ("{}: {}: {}", 1),
    ("{} [{}]", 1),
)
_GENERIC_NAMES = (
    ("prefix", "msg", "detail"),
    ("name", "reason", "extra"),
    ("context", "error", "hint"),
    ("key", "value", "where"),
    ("path", "exc", "info"),
    ("op", "detail", "note"),
    ("self.name", "message", "cause"),
    ("type(exc).__name__", "exc", "tb"),
    ("label", "err", "more"),
)
_GENERIC_CLASSES = ("ValueError", "RuntimeError", "TypeError", "Exception", "OSError")


@dataclass(slots=True)
class _Prep:
    """A base record ready to be varied: its parts and the JSON of its snippet's context."""

    rec: _Record
    lits: tuple[str, ...]
    phs: tuple[str, ...]
    indent: str
    offset: int  # lines before the raise statement in the snippet
    head_json: str  # JSON-escaped lines before the raise statement (with the newline)
    tail_json: str  # JSON-escaped lines after it (with the newline before them)
    tail_lines: int
    spots: tuple[tuple[int, int, int], ...] = ()  # (literal, start, end) of replaceable words


def _spots(lits: Sequence[str]) -> tuple[tuple[int, int, int], ...]:
    return tuple(
        (i, m.start(), m.end())
        for i, lit in enumerate(lits)
        for m in _SUBST_WORD.finditer(lit)
        if m.group().lower() not in _EXCLUDED and len(m.group()) >= 3
    )


def _statement_length(lines: Sequence[str], first: int) -> int:
    """How many lines the raise statement starting at ``lines[first]`` spans (1 if unsure)."""
    if not lines[first].lstrip().startswith("raise"):
        return 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for end in range(first + 1, min(len(lines), first + 30) + 1):
            try:
                ast.parse(textwrap.dedent("\n".join(lines[first:end])))
            except (SyntaxError, ValueError):
                continue
            return end - first
    return 1


def _esc(text: str) -> str:
    return encode_basestring(text)[1:-1]


def _prepare(rec: _Record) -> _Prep:
    lits, phs = _segments(rec["errorMessage"])
    lines = str(rec["sourceCode"]).split("\n")
    offset = int(rec["lineNumber"]) - int(rec["sourceCodeStart"])
    while len(lines) <= offset:
        lines.append("")
    first = lines[offset]
    indent = first[: len(first) - len(first.lstrip())]
    length = _statement_length(lines, offset)
    head, tail = lines[:offset], lines[offset + length :]
    return _Prep(
        rec,
        lits,
        phs,
        indent,
        offset,
        _esc("\n".join(head) + "\n") if head else "",
        _esc("\n" + "\n".join(tail)) if tail else "",
        len(tail),
        _spots(lits),
    )


def _literal_table(quote: str, fstring: bool) -> dict[int, str]:
    table = {
        ord("\\"): "\\\\",
        ord(quote): "\\" + quote,
        ord("\n"): "\\n",
        ord("\r"): "\\r",
        ord("\t"): "\\t",
    }
    if fstring:
        table[ord("{")] = "{{"
        table[ord("}")] = "}}"
    return table


#: str.translate tables that write literal text inside a string literal: (quote, f-string).
_LITERAL_TABLES = {(q, f): _literal_table(q, f) for q in "\"'" for f in (False, True)}


def _raise_lines(
    indent: str, cls: str, lits: Sequence[str], phs: Sequence[str], template: str
) -> list[str]:
    """Source of ``raise cls(f"...")`` for a template, wrapped like black would at 88 columns."""
    joined = "".join(lits)
    quote = "'" if '"' in joined and "'" not in joined else '"'
    head = f"{indent}raise {cls}("
    if phs:
        # The template is the f-string's text already (braces doubled): escape the rest.
        one = f"{head}f{quote}{template.translate(_LITERAL_TABLES[quote, False])}{quote})"
    else:
        one = f"{head}{quote}{joined.translate(_LITERAL_TABLES[quote, False])}{quote})"
    if len(one) <= 88:
        return [one]
    # Too long: one string per line inside the parentheses, split at spaces.
    tokens: list[tuple[str, bool]] = []  # (raw literal text or placeholder source, is placeholder)
    for i, lit in enumerate(lits):
        words = lit.split(" ")
        tokens.extend((w + " ", False) for w in words[:-1])
        if words[-1]:
            tokens.append((words[-1], False))
        if i < len(phs):
            tokens.append((phs[i], True))
    width = max(40, 80 - len(indent))
    out = [head]
    current: list[tuple[str, bool]] = []
    size = 0
    for token in (*tokens, ("", True)):
        if current and (not token[0] or size + len(token[0]) > width):
            fstring = any(is_ph for _, is_ph in current)
            table = _LITERAL_TABLES[quote, fstring]
            body = "".join(t if is_ph else t.translate(table) for t, is_ph in current)
            out.append(f"{indent}    {'f' if fstring else ''}{quote}{body}{quote}")
            current, size = [], 0
        if token[0]:
            current.append(token)
            size += len(token[0])
    out.append(f"{indent})")
    return out


def _clauses(
    preps: Sequence[tuple[tuple[str, ...], tuple[str, ...]]],
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Trailing clauses of the base templates (``; expected {x!r}``), to append elsewhere."""
    found: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for lits, phs in preps:
        for i, lit in enumerate(lits):
            cut = -1
            for sep in ("; ", ". ", " ("):
                pos = lit.find(sep)
                if pos > 0 and (cut < 0 or pos < cut):
                    cut = pos
            if cut < 0:
                continue
            head_literal = "".join(lits[:i]) + lit[:cut]
            clause_lits = (lit[cut:], *lits[i + 1 :])
            clause_phs = phs[i:]
            literal = "".join(clause_lits)
            if len(_SUBST_WORD.findall(head_literal)) < 2 or not 8 <= len(literal) <= 70:
                break
            if "\n" in literal:
                break
            found.setdefault(_template(clause_lits, clause_phs), (clause_lits, clause_phs))
            break
    return [found[k] for k in sorted(found)]


#: A message as a project raises it: literal parts, placeholders, class, error type,
#: severity, pattern.
_Kept = tuple[tuple[str, ...], tuple[str, ...], str, str, str, str]


@dataclass
class _Project:
    index: int
    repo: str
    pkg: str
    sha: str
    when: str
    src_layout: bool
    files: dict[str, tuple[str, int]] = field(default_factory=dict)  # base path -> (path, shift)
    classes: dict[str, str] = field(default_factory=dict)  # base class -> the project's
    paths: set[str] = field(default_factory=set)
    # base pattern -> (lits, phs, class, error type, severity, pattern) the project raises it as
    messages: dict[str, _Kept] = field(default_factory=dict)


@dataclass
class _Counts:
    base: int = 0
    perturbed: int = 0
    duplicate: int = 0
    generic: int = 0
    shared: int = 0  # further sites of a message the project raises already
    retries: int = 0


class _Item(NamedTuple):
    """Everything random about a generated record, decided in order; the rest is built."""

    host: int  # the base record whose site (snippet, line) the record takes
    repo: str
    sha: str
    when: str
    path: str
    shift: int
    lits: tuple[str, ...]
    phs: tuple[str, ...]
    cls: str
    error_type: str
    severity: str
    pattern: str
    serial: int


class _Builder:
    """Turns planned records (:class:`_Item`) into JSON lines; runs in worker processes too."""

    def __init__(self, records: Sequence[_Record]) -> None:
        self.records = records
        self.preps: list[_Prep | None] = [None] * len(records)

    def prep(self, index: int) -> _Prep:
        p = self.preps[index]
        if p is None:
            p = self.preps[index] = _prepare(self.records[index])
        return p

    def build(self, item: _Item) -> str:
        prep = self.prep(item.host)
        template = _template(item.lits, item.phs)
        stmt = _raise_lines(prep.indent, item.cls.rsplit(".", 1)[-1], item.lits, item.phs, template)
        line = max(prep.offset + 1, int(prep.rec["lineNumber"]) + item.shift)
        start = line - prep.offset
        end = line + len(stmt) - 1 + prep.tail_lines
        rid = record_id(item.repo, item.path, template, str(item.serial))
        source = '"' + prep.head_json + _esc("\n".join(stmt)) + prep.tail_json + '"'
        q = encode_basestring
        return (
            f'{{"record":{{"id":"{rid}","repo":{q(item.repo)},"slug":{q(slugify(template))},'
            f'"errorCode":null,"errorMessage":{q(template)},"messagePattern":{q(item.pattern)},'
            f'"errorType":{q(item.error_type)},"errorClass":{q(item.cls)},"httpStatus":null,'
            f'"severity":{q(item.severity)},"filePath":{q(item.path)},"lineNumber":{line},'
            f'"sourceCode":{source},"sourceCodeStart":{start},"sourceCodeEnd":{end},'
            f'"githubUrl":{q(github_url(item.repo, item.sha, item.path, start, end))},'
            '"documentation":"","triggerScenarios":"","commonSituations":"","solutions":[],'
            '"exampleFix":"","handlingStrategy":"","validationCode":null,"typeGuard":null,'
            '"tryCatchPattern":null,"preventionTips":[],"tags":[],"backgroundTag":null,'
            f'"analyzedSha":"{item.sha}","analyzedAt":"{item.when}","schemaVersion":2}},'
            f'"datasetVersion":"{DATASET_VERSION}"}}'
        )


_WORKER_BUILDER: _Builder | None = None


def _init_worker(records: Sequence[_Record]) -> None:
    global _WORKER_BUILDER  # noqa: PLW0603 - one builder per worker process
    _WORKER_BUILDER = _Builder(records)


def _build_chunk(items: Sequence[_Item]) -> list[str]:
    assert _WORKER_BUILDER is not None
    return [_WORKER_BUILDER.build(item) for item in items]


class _Scaler:
    """Generates the records beyond the base (see the module docstring), as JSON lines."""

    def __init__(self, base: MinedBase, seed: int) -> None:
        self.records = base.records
        self.rng = random.Random(f"errcat-corpus:{CORPUS_VERSION}:{seed}")
        self.vocab = build_vocabulary(self.records)
        self.builder = _Builder(self.records)
        self.clauses = _clauses([_segments(r["errorMessage"]) for r in self.records])
        self.seen_patterns: set[str] = {r["messagePattern"] for r in self.records}
        by_repo: defaultdict[str, defaultdict[str, list[int]]] = defaultdict(
            lambda: defaultdict(list)
        )
        for i, rec in enumerate(self.records):
            by_repo[rec["repo"]][rec["filePath"]].append(i)
        self.repos = sorted(by_repo)
        self.files = {
            repo: [by_repo[repo][f] for f in sorted(by_repo[repo])] for repo in self.repos
        }
        weights = [math.sqrt(sum(len(f) for f in self.files[r])) for r in self.repos]
        self.repo_cum: list[float] = []
        total = 0.0
        for w in weights:
            total += w
            self.repo_cum.append(total)
        self.recent: list[tuple[tuple[str, ...], tuple[str, ...], str, str, str]] = []
        self.counts = _Counts()
        self.serial = 0

    def prep(self, index: int) -> _Prep:
        return self.builder.prep(index)

    def _pick_repo(self) -> str:
        x = self.rng.random() * self.repo_cum[-1]
        return self.repos[min(bisect_left(self.repo_cum, x), len(self.repos) - 1)]

    def _project(self, k: int) -> _Project:
        pkg = f"proj{k}"
        sha = hashlib.sha1(f"{self.rng.random()}:{k}".encode()).hexdigest()
        when = format_timestamp(EPOCH + dt.timedelta(minutes=k))
        return _Project(k, f"org{k}/{pkg}", pkg, sha, when, self.rng.random() < 0.4)

    def _file(self, project: _Project, base_path: str) -> tuple[str, int]:
        got = project.files.get(base_path)
        if got is not None:
            return got
        parts = base_path.split("/")
        if parts[0] == "Lib" and len(parts) > 1:
            parts = parts[1:]
        moved = [project.pkg, parts[0]] if len(parts) == 1 else [project.pkg, *parts[1:]]
        if "/".join(moved) in project.paths:  # two base files would land on one path
            moved = [project.pkg, *parts]
        parts = moved
        name = parts[-1]
        if name != "__init__.py" and self.rng.random() < 0.25:
            word = self.vocab.words.pick(self.rng)
            stem = name.removesuffix(".py")
            parts[-1] = f"{stem}_{word}.py" if self.rng.random() < 0.5 else f"{word}.py"
        if project.src_layout:
            parts.insert(0, "src")
        shift = self.rng.randint(-60, 400)
        path = "/".join(parts)
        project.paths.add(path)
        got = project.files[base_path] = (path, shift)
        return got

    def _class(self, project: _Project, cls: str) -> str:
        """The class as the project raises it (decided once per project and class)."""
        got = project.classes.get(cls)
        if got is None:
            if self.rng.random() < 0.04:
                got = f"{project.pkg}.errors.{project.pkg.capitalize()}Error"
            elif "." in cls:
                got = project.pkg + cls[cls.index(".") :]
            else:
                got = cls
            project.classes[cls] = got
        return got

    # -- perturbations -------------------------------------------------

    def _substitute(
        self, lits: list[str], spots: Sequence[tuple[int, int, int]], count: int
    ) -> bool:
        """Replace up to ``count`` of the words at ``spots`` (positions in ``lits``) with others."""
        if not spots:
            return False
        rng = self.rng
        picked = {rng.randrange(len(spots)) for _ in range(min(count, len(spots)))}
        for i, start, end in sorted((spots[p] for p in picked), reverse=True):
            lit = lits[i]
            lits[i] = lit[:start] + self.vocab.like(lit[start:end], rng) + lit[end:]
        return True

    def _prefix(self, lits: list[str], project: _Project) -> None:
        style = self.rng.random()
        if style < 0.5:
            lits[0] = f"[{project.pkg}] " + lits[0]
        elif style < 0.8:
            lits[0] = f"{project.pkg}: " + lits[0]
        else:
            lits[0] = f"[{project.pkg}.{self.vocab.words.pick(self.rng)}] " + lits[0]

    def _append(self, lits: list[str], phs: list[str]) -> bool:
        if not self.clauses:
            return False
        c_lits, c_phs = self.clauses[self.rng.randrange(len(self.clauses))]
        lits[-1] = lits[-1].rstrip().rstrip(".;:,") + c_lits[0]
        lits.extend(c_lits[1:])
        phs.extend(c_phs)
        return True

    def _drop(self, lits: list[str], phs: list[str]) -> bool:
        for i in range(len(lits) - 1, -1, -1):
            lit = lits[i]
            cut = max(lit.rfind(sep) for sep in _CLAUSE_SEPS)
            if cut <= 0:
                continue
            head = "".join(lits[:i]) + lit[:cut]
            if len(_SUBST_WORD.findall(head)) < 2 or len(head.strip()) < 12:
                return False
            del lits[i + 1 :]
            del phs[i:]
            lits[i] = lit[:cut]
            return True
        return False

    def _perturb(self, prep: _Prep, project: _Project) -> tuple[list[str], list[str]]:
        rng = self.rng
        lits, phs = list(prep.lits), list(prep.phs)
        changed = False
        if rng.random() < 0.85:
            changed = self._substitute(lits, prep.spots, rng.choice((1, 1, 1, 2, 2, 3)))
        if rng.random() < 0.15:
            changed = self._drop(lits, phs) or changed
        if rng.random() < 0.1:
            changed = self._append(lits, phs) or changed
        if rng.random() < 0.2 or not changed:
            self._prefix(lits, project)
        return lits, phs

    # -- records --------------------------------------------------------

    def _item(self, project: _Project, host: int, kept: _Kept) -> _Item:
        """The record raising message ``kept`` at base record ``host``'s site in ``project``."""
        path, shift = self._file(project, self.records[host]["filePath"])
        self.serial += 1
        return _Item(host, project.repo, project.sha, project.when, path, shift, *kept, self.serial)

    def generic(self, project: _Project, host: int) -> _Item:
        """A record with a generic template, raised at a base site moved into ``project``."""
        rng = self.rng
        shapes = [s for s, _ in _GENERIC_SHAPES]
        shape = rng.choices(shapes, weights=[w for _, w in _GENERIC_SHAPES])[0]
        names = rng.choice(_GENERIC_NAMES)
        parts = re.split(r"\{(![rsa])?\}", shape)
        lits = parts[0::2]
        convs = parts[1::2]
        phs = ["{" + names[i] + (c or "") + "}" for i, c in enumerate(convs)]
        cls = rng.choice(_GENERIC_CLASSES)
        if rng.random() < 0.3:
            cls = f"{project.pkg}.errors.{project.pkg.capitalize()}Error"
        base = cls if "." not in cls else "Exception"
        self.counts.generic += 1
        kept = (tuple(lits), tuple(phs), cls, guess_error_type(base), "error", _pattern(lits))
        return self._item(project, host, kept)

    def variant(self, project: _Project, index: int) -> _Item:
        """A record made from base record ``index`` for ``project``.

        The first site of a base message in a project decides how the project
        raises it (perturbed, or now and then another record's template); the
        project's other sites of that message raise the same, as copied code
        does (in the mined catalogs 26-43% of records share their message with
        another record, most of them in the same file).
        """
        prep = self.prep(index)
        rec = prep.rec
        shared = project.messages.get(rec["messagePattern"])
        if shared is not None:
            self.counts.shared += 1
            return self._item(project, index, shared)
        kept = self._message(project, prep)
        project.messages[rec["messagePattern"]] = kept
        return self._item(project, index, kept)

    def _message(self, project: _Project, prep: _Prep) -> _Kept:
        """How ``project`` raises the base message of ``prep``: a new template, or a copy."""
        rng = self.rng
        rec = prep.rec
        error_type, severity = rec["errorType"], rec["severity"]
        if rng.random() < _DUPLICATE_SHARE:
            # Vendored code: the very template of another record, raised here.
            if self.recent and rng.random() < 0.4:
                lits_t, phs_t, cls, error_type, severity = self.recent[
                    rng.randrange(len(self.recent))
                ]
            else:
                other = self.prep(rng.randrange(len(self.records)))
                lits_t, phs_t, cls = other.lits, other.phs, other.rec["errorClass"]
                error_type, severity = other.rec["errorType"], other.rec["severity"]
            self.counts.duplicate += 1
            cls = self._class(project, cls)
            return (tuple(lits_t), tuple(phs_t), cls, error_type, severity, _pattern(lits_t))
        cls = self._class(project, rec["errorClass"])
        for attempt in range(8):
            lits, phs = self._perturb(prep, project)
            if attempt == 7:  # serial numbers are unique: so is this prefix
                lits[0] = f"[{project.pkg}:{self.serial}] " + lits[0]
            pattern = _pattern(lits)
            if pattern not in self.seen_patterns:
                break
            self.counts.retries += 1
        self.seen_patterns.add(pattern)
        self.counts.perturbed += 1
        recent = (tuple(lits), tuple(phs), cls, error_type, severity)
        if len(self.recent) < 20_000:
            self.recent.append(recent)
        elif rng.random() < 0.05:
            self.recent[rng.randrange(len(self.recent))] = recent
        return (*recent, pattern)

    def items(self, count: int) -> Iterator[_Item]:
        """``count`` generated records, project by project."""
        rng = self.rng
        made = 0
        k = 0
        while made < count:
            k += 1
            project = self._project(k)
            size = max(3, min(1500, round(rng.lognormvariate(3.4, 1.0))))
            anchor = self._pick_repo()
            picked: list[int] = []
            while len(picked) < size:
                repo = anchor if rng.random() < 0.8 else self._pick_repo()
                files = self.files[repo]
                picked.extend(files[rng.randrange(len(files))])
            for index in picked[:size]:
                if made >= count:
                    return
                made += 1
                if rng.random() < _GENERIC_SHARE:
                    yield self.generic(project, index)
                else:
                    yield self.variant(project, index)

    def generics(self, count: int) -> Iterator[_Item]:
        """``count`` generic records, in projects of their own."""
        for k in range(count):
            project = self._project(k + 1)
            yield self.generic(project, self.rng.randrange(len(self.records)))


def _batched(items: Iterable[_Item], size: int) -> Iterator[list[_Item]]:
    batch: list[_Item] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _built(scaler: _Scaler, items: Iterator[_Item], workers: int) -> Iterator[list[str]]:
    """The lines of planned records, in order, built here (0) or by ``workers`` forked processes."""
    chunks = _batched(items, _CHUNK)
    if workers < 1 or "fork" not in multiprocessing.get_all_start_methods():
        for chunk in chunks:
            yield [scaler.builder.build(item) for item in chunk]
        return
    context = multiprocessing.get_context("fork")
    with context.Pool(workers, initializer=_init_worker, initargs=(scaler.records,)) as pool:
        pending: deque[AsyncResult[list[str]]] = deque()
        for chunk in chunks:  # planning here overlaps with building there
            pending.append(pool.apply_async(_build_chunk, (chunk,)))
            if len(pending) > 2 * workers + 1:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def iter_catalog_chunks(
    n: int,
    seed: int = 0,
    *,
    base: MinedBase | None = None,
    counts: dict[str, int] | None = None,
    workers: int | None = None,
) -> Iterator[list[str]]:
    """The JSON lines (without newlines) of the catalog of ``n`` records, in chunks.

    ``counts``, when given, is filled with how many records of each kind were
    made. The records beyond the base are planned here (everything random
    is decided in order) and built into lines by ``workers`` forked processes
    (0: here; default: one per core but one when there are 200,000 generated
    records or more, else 0); the lines do not depend on it.
    """
    base = base or load_base()
    records = base.envelopes
    scaler = _Scaler(base, seed)
    generated = max(0, n - len(records))
    if workers is None:
        parallel = generated >= _PARALLEL_FROM and (os.cpu_count() or 1) > 1
        workers = max(1, (os.cpu_count() or 1) - 1) if parallel else 0
    if n <= len(records):
        generic = max(3, round(n * _GENERIC_SHARE)) if n >= 100 else 0
        order = list(range(len(records)))
        random.Random(f"errcat-corpus-sample:{seed}").shuffle(order)
        chosen = sorted(order[: n - generic])
        items = scaler.generics(generic)
    else:
        chosen = list(range(len(records)))
        items = scaler.items(generated)
    scaler.counts.base = len(chosen)
    seen: set[str] = set()
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    chunks = itertools.chain(
        (
            [dumps(records[i]) for i in chosen[j : j + _CHUNK]]
            for j in range(0, len(chosen), _CHUNK)
        ),
        _built(scaler, items, workers),
    )
    for chunk in chunks:
        for line in chunk:
            rid = line[17:33]  # '{"record":{"id":"' is 17 characters
            if rid in seen:
                raise RuntimeError(f"two records have the id {rid}")
            seen.add(rid)
        yield chunk
    if counts is not None:
        counts.update(vars(scaler.counts))


def iter_catalog_lines(
    n: int, seed: int = 0, *, base: MinedBase | None = None, counts: dict[str, int] | None = None
) -> Iterator[str]:
    """The JSON lines (without newlines) of the catalog of ``n`` records (see the docstring)."""
    for chunk in iter_catalog_chunks(n, seed, base=base, counts=counts):
        yield from chunk


def _check_line(line: str, number: int) -> None:
    from errcat.loaders import dump_envelope

    data = json.loads(line)
    envelope = validate_envelope(data, strict=True, path="<generated>", line=number)
    record = envelope.record
    if template_to_pattern(record.error_message) != record.message_pattern:
        raise RuntimeError(f"line {number}: messagePattern is not template_to_pattern(template)")
    if dump_envelope(envelope) != line:
        raise RuntimeError(f"line {number}: not in the form errcat writes:\n{line[:300]}")
    lines = record.source_code.split("\n")
    if len(lines) != record.source_code_end - record.source_code_start + 1:
        raise RuntimeError(f"line {number}: sourceCode does not span sourceCodeStart..End")
    expected_url = github_url(
        record.repo,
        record.analyzed_sha,
        record.file_path,
        record.source_code_start,
        record.source_code_end,
    )
    if record.github_url != expected_url:
        raise RuntimeError(f"line {number}: githubUrl does not match the span")


def write_catalog(
    n: int,
    directory: str | os.PathLike[str],
    seed: int = 0,
    *,
    base: MinedBase | None = None,
    verify: bool = True,
    workers: int | None = None,
) -> Path:
    """Write (or reuse) the catalog of ``n`` records in ``directory``; return its path.

    The file is ``catalog-<n>-seed<seed>-<base key>.jsonl`` with a ``.meta``
    sidecar (counts, seconds, bytes). A sample of lines (all up to 20,000) is
    validated as it is written; an invalid line raises ``RuntimeError``.
    ``workers``: see :func:`iter_catalog_chunks`.
    """
    base = base or load_base()
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"catalog-{n}-seed{seed}-{base.key}.jsonl"
    meta_path = path.with_name(path.name + ".meta")
    if path.is_file() and meta_path.is_file():
        return path
    stride = 1 if n <= _VERIFY_ALL_UP_TO else max(1, n // _VERIFY_SAMPLE)
    started = time.perf_counter()
    counts: dict[str, int] = {}
    tmp = path.with_name(f".{path.name}.tmp")
    written = 0
    with tmp.open("w", encoding="utf-8", newline="\n", buffering=1 << 20) as fh:
        chunks = iter_catalog_chunks(n, seed, base=base, counts=counts, workers=workers)
        for chunk in chunks:
            if verify:
                first = written + 1
                for number in range(first, first + len(chunk)):
                    if number % stride == 0 or number == 1:
                        _check_line(chunk[number - first], number)
            fh.write("\n".join(chunk))
            fh.write("\n")
            written += len(chunk)
    if written != n:
        tmp.unlink()
        raise RuntimeError(f"generated {written} records, expected {n}")
    tmp.replace(path)
    meta = {
        "n": n,
        "seed": seed,
        "base": base.key,
        "counts": counts,
        "seconds": round(time.perf_counter() - started, 2),
        "bytes": path.stat().st_size,
        "corpus_version": CORPUS_VERSION,
    }
    meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class QuerySet:
    """Queries per kind and, per expected id, every id that holds the same message."""

    queries: dict[str, list[tuple[str, str | None]]]
    accepted: dict[str, frozenset[str]]

    def is_correct(self, expected: str | None, found: str | None) -> bool:
        """Whether ``found`` (a record id, or None for no answer) answers a query correctly."""
        if expected is None:
            return found is None
        return found is not None and found in self.accepted.get(expected, frozenset({expected}))


_NUMBER_WORDS_TEXT = """
    len count size num n i j k idx index line lineno col column pos offset port timeout
    limit length width height depth level errno code status nbytes start end stop step total
    expected got maxsize minsize max min number ndim dim rank version_info argcount nargs
"""
_NUMBER_WORDS = frozenset(_NUMBER_WORDS_TEXT.split())
_PATH_WORDS_TEXT = """
    path file filename fname dir directory folder root dest src fn
"""
_PATH_WORDS = frozenset(_PATH_WORDS_TEXT.split())
_LIST_WORDS_TEXT = """
    names keys items choices options values args fields attrs supported allowed valid known
    available candidates extras missing unknown parts
"""
_LIST_WORDS = frozenset(_LIST_WORDS_TEXT.split())
_TYPE_NAMES = ("NoneType", "str", "int", "dict", "list", "float", "bytes", "tuple", "set", "bool")
_NUMERIC_SPEC = re.compile(r".*[bcdeEfFgGnoxX%]$")
#: A placeholder that holds a caught exception (``{e}``, ``{str(err)}``, ``{exc.args[0]}``):
#: real code prints another error's message there.
_EXCEPTION_VALUE = re.compile(
    r"(?:str\()?(?:e|ex|exc|err|error|exception|cause|original|inner)\)?"
    r"(?:\.args\[0\]|\.msg|\.message)?",
    re.IGNORECASE,
)
#: One element of a sequence (``filters[-1]``, ``args[0]``), not a slice of it.
_ELEMENT = re.compile(r".*\[[^\]:]*\]")
#: A placeholder that prints a class (``{type(x)}``, ``{type(x)!r}``): Python prints
#: ``<class 'int'>`` or ``<class 'pkg.mod.Name'>`` there, never a bare word.
_TYPE_OF = re.compile(r"type\([^()]*\)")


class _Renderer:
    """Realistic values for a template's placeholders."""

    def __init__(self, vocab: Vocabulary, rng: random.Random) -> None:
        self.vocab = vocab
        self.rng = rng

    def number(self) -> int:
        return self.rng.choice((0, 1, 2, 3, 4, 7, 8, 12, 16, 32, 64, 100, 128, 255, 404, 1024))

    def path(self) -> str:
        rng, v = self.rng, self.vocab
        ext = rng.choice(("json", "yaml", "toml", "py", "txt", "csv", "cfg", "db"))
        if rng.random() < 0.5:
            return f"/home/dev/{v.words.pick(rng)}/{v.ident(rng)}.{ext}"
        return f"{v.words.pick(rng)}/{v.ident(rng)}.{ext}"

    def formatted(self, number: int, spec: str) -> str:
        for candidate in (number, float(number) + 0.5):
            try:
                return format(candidate, spec)
            except (ValueError, TypeError):
                continue
        return str(number)

    def value(self, ph: Placeholder) -> str:
        """A value such as the placeholder's expression would hold, formatted as it asks."""
        rng, v = self.rng, self.vocab
        expr = ph.expr.lower()
        tokens = re.findall(r"[a-z_]+", expr) or ["value"]
        last = tokens[-1].strip("_") or "value"
        tail = last.rsplit("_", 1)[-1]  # file_path -> path, dev_docs_url -> url
        constant = ph.expr.rsplit(".", 1)[-1]
        spec = ph.spec
        text: str | None = None
        value: object
        if (
            expr.startswith("len(")
            or last in _NUMBER_WORDS
            or tail in _NUMBER_WORDS
            or _NUMERIC_SPEC.match(spec or "-")
        ):
            return self.formatted(self.number(), spec)
        if _TYPE_OF.fullmatch(ph.expr.strip()):
            if rng.random() < 0.5:
                name = rng.choice(_TYPE_NAMES)
            else:
                name = f"{v.words.pick(rng)}.{v.ident(rng)}.{v.camel.pick(rng)}"
            return f"<class '{name}'>"
        if _EXCEPTION_VALUE.fullmatch(ph.expr.strip()):
            cls, message, _ = _builtin_error(rng, self)
            out = f"{cls}({message!r})" if ph.conversion in {"r", "a"} else message
            return out or "x"
        if ("type" in tokens and last == "name") or last in {"__class__", "typ", "klass"}:
            value = rng.choice(_TYPE_NAMES)
        elif tail in {"url", "uri", "endpoint", "href", "link"}:
            value = f"https://{v.words.pick(rng)}.example.com/api/{v.ident(rng)}"
        elif last in _PATH_WORDS or tail in _PATH_WORDS:
            value = self.path()
        elif tail in {"host", "hostname", "netloc", "address"}:
            value = f"{v.words.pick(rng)}.internal"
        elif tail in {"version", "ver"}:
            value = f"{rng.randint(0, 4)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"
        elif tail in {"encoding", "codec"}:
            value = rng.choice(("utf-8", "latin-1", "ascii", "utf-16"))
        elif tail == "mode":
            value = rng.choice(("rb", "w+", "x", "rt", "ab"))
        elif constant.isupper() and constant.isidentifier():  # errno.EAGAIN, MAX_DEPTH
            return self.formatted(self.number(), spec)
        elif "join" in tokens:
            text = ", ".join(v.ident(rng) for _ in range(rng.randint(2, 4)))
            value = text
        elif _ELEMENT.fullmatch(ph.expr.strip()):  # one element, whatever the sequence's name
            value = v.ident(rng)
        elif (
            tokens[0] in {"sorted", "list", "set", "tuple"}
            or last in _LIST_WORDS
            or (len(last) > 3 and last.endswith("s") and not last.endswith("ss"))
        ):
            value = [v.ident(rng) for _ in range(rng.randint(1, 4))]
        elif last in {"obj", "value", "val", "x", "arg", "item", "other", "data"}:
            choice = rng.random()
            if choice < 0.3:
                value = self.number()
            elif choice < 0.5:
                value = None
            else:
                value = v.ident(rng)
        else:
            value = v.ident(rng) if rng.random() < 0.7 else v.camel.pick(rng)
        if ph.conversion in {"r", "a"}:
            out = repr(value)
        elif text is not None:
            out = text
        else:
            out = str(value)
        if spec:
            with contextlib.suppress(ValueError, TypeError):
                out = format(out, spec)
        return out or "x"

    def render(self, template: str) -> str:
        literals, fields = parse_template(template)
        out = [literals[0]]
        for f, lit in zip(fields, literals[1:], strict=True):
            out.append(self.value(f))
            out.append(lit)
        return "".join(out)


_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"


def _nonce(rng: random.Random) -> str:
    """A made-up word (``zabomil``): no catalog text holds it, and the screen checks."""
    return "".join(rng.choice(_CONSONANTS) + rng.choice(_VOWELS) for _ in range(3)) + rng.choice(
        ("l", "n", "r", "x", "")
    )


def _exception_line(exc: BaseException) -> tuple[str, str]:
    line = traceback.format_exception_only(type(exc), exc)[-1].rstrip("\n")
    cls, _, message = line.partition(": ")
    return cls, message


def _builtin_error(rng: random.Random, renderer: _Renderer) -> tuple[str, str, str]:
    """A real CPython error with random inputs: ``(class, message, the line that raised)``."""
    v = renderer.vocab
    name = v.ident(rng)
    other = v.ident(rng)
    word = v.words.pick(rng)
    attr = v.ident(rng)
    n = rng.randint(2, 999)
    func = v.ident(rng)
    obj: Any = rng.choice((None, n, word, [n], {word: n}))
    num: Any = n
    text: Any = word
    missing = f"/srv/{_nonce(rng)}/{v.words.pick(rng)}.json"

    def named(fname: str) -> Callable[..., Any]:
        def fn(arg: Any) -> Any:
            return arg

        fn.__name__ = fn.__qualname__ = fname
        return fn

    cases: list[tuple[str, Callable[[], object]]] = [
        (f"value = int({name})", lambda: int(word)),
        (f"ratio = float({name})", lambda: float(word + "%")),
        (f"return {name}.{attr}", lambda: getattr(obj, attr)),
        (f"item = {name}[{n + 3}]", lambda: [1, 2, 3][n + 3]),
        (f"total = {name} + {other}", lambda: num + text),
        (f"size = len({name})", lambda: len(num)),
        (f"{func}({attr}={name})", lambda: named(func)(**{attr: 1})),
        (f"{func}()", named(func)),
        (f"pos = {name}.index({word!r})", lambda: "".join(_CONSONANTS).index(word + "!")),
        (f"{name}.remove({word!r})", lambda: [num].remove(text)),
        (f"with open({name}) as fh:", lambda: Path(missing).open()),  # noqa: SIM115
        (f"root = math.sqrt({name})", lambda: math.sqrt(-n)),
        (f"share = {name} / {other}", lambda: n / (num - n)),
        (f"text = {name}.decode()", lambda: bytes([0xFF, n % 128]).decode()),
        (f"data = json.loads({name})", lambda: json.loads(word + "{")),
        (f"day = date({2000 + n % 30}, {13 + n % 80}, 1)", lambda: dt.date(2020, 13 + n % 80, 1)),
        (f"out = {name} * {other}", lambda: text * text),
        (f"for item in {name}:", lambda: iter(num)),
        (f"result = {name}()", obj),
        (f"{name}, {other} = {func}()", lambda: _unpack([n, n + 1, n + 2])),
        (f"packed = struct.pack('>I', {name})", lambda: struct.pack(">I", text)),
        (f"buf = bytes({name})", lambda: bytes(-num)),
        (f"for i in range({name}):", lambda: range(num + 0.5)),
        (f"line = ', '.join({name})", lambda: ", ".join([num, num + 1])),
        (f"code = ord({name})", lambda: ord(word)),
        (f"ch = chr({name})", lambda: chr(-num)),
        (f"seen = {{{name}}}", lambda: hash([num])),
        (f"value = int({name}, base={n + 37})", lambda: int("10", n + 37)),
        (f"stamp = datetime.fromisoformat({name})", lambda: dt.datetime.fromisoformat(word)),
        (f"amount = Decimal({name})", lambda: Decimal(word)),
        (f"raw = base64.b64decode({name})", lambda: base64.b64decode((word * 2)[:5])),
        (f"key = uuid.UUID({name})", lambda: uuid.UUID(word)),
        (f"{name}.real = {n}", lambda: setattr(num, "real", 2)),
        (f"{name}[0] = {other}", lambda: _set_item((num,), n)),
        (f"step = {name}[::0]", lambda: [num][::0]),
    ]
    for _ in range(100):
        code, thunk = cases[rng.randrange(len(cases))]
        try:
            thunk()
        except Exception as exc:
            cls, message = _exception_line(exc)
            return cls, message, code
    raise RuntimeError("no CPython error could be raised")  # pragma: no cover


def _unpack(values: list[int]) -> tuple[int, int]:
    a, b = values  # raises: too many values to unpack
    return a, b


def _set_item(target: Any, value: int) -> None:
    target[0] = value


def _perturb_message(message: str, fragment: str, rng: random.Random) -> str:
    """Replace a word of ``fragment`` (where it occurs in ``message``) with a made-up word."""
    pos = message.find(fragment)
    if pos < 0:
        words = list(re.finditer(r"[A-Za-z]{3,}", message))
    else:
        words = [
            m
            for m in re.finditer(r"[A-Za-z]{3,}", message)
            if m.start() < pos + len(fragment) and m.end() > pos
        ]
    if not words:
        return message + " " + _nonce(rng)
    m = rng.choice(words)
    return message[: m.start()] + _nonce(rng) + message[m.end() :]


# -- the catalog as the screen sees it ---------------------------------------

_WORD_RUN = re.compile(r"\w{3,}")
_TOKEN = re.compile(r"\w+")
_DEF = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)")
#: A line a traceback would show for a frame: a statement that calls something.
_CALL_LINE = re.compile(
    r"^[ \t]*(?![ \t]|(?:def|class|elif|else|try|except|finally|if|while|for|with|async|raise"
    r"|assert)\b"
    r"|[@#\"')])"
    r"[^\n]*\w\("
)


@dataclass
class _View:
    """What query making needs of a catalog, gathered in one pass."""

    ids: list[str] = field(default_factory=list)
    patterns: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)  # "" for generic patterns
    # 0 whole word, 1 word end, 2 word start, 3 no key (any text), 4 generic (not screened)
    kinds: bytearray = field(default_factory=bytearray)
    generic: list[tuple[str, str]] = field(default_factory=list)  # (template, class)
    sample: dict[int, _Record] = field(default_factory=dict)
    tails: set[tuple[str, ...]] = field(default_factory=set)  # last two path parts of records
    packages: set[str] = field(default_factory=set)

    def add(self, rec: Mapping[str, Any], keep: bool) -> None:
        index = len(self.ids)
        pattern = str(rec["messagePattern"])
        self.ids.append(str(rec["id"]))
        self.patterns.append(pattern)
        frags = _fragments(pattern)
        if sum(len(f) for f in frags) < GENERIC_LITERAL:
            self.keys.append("")
            self.kinds.append(4)
            self.generic.append((str(rec["errorMessage"]), str(rec["errorClass"])))
        else:
            key, kind = _key(frags)
            self.keys.append(key)
            self.kinds.append(kind)
        parts = str(rec["filePath"]).replace("\\", "/").split("/")
        self.tails.add(tuple(parts[-2:]))
        self.packages.add(str(rec["repo"]).split("/", 1)[-1].replace("-", "_").lower())
        if keep:
            self.sample[index] = dict(rec)


def _key(frags: Sequence[str]) -> tuple[str, int]:
    """The word a message must hold for a pattern to match it, and how it must hold it.

    The longest word of the first fragment that has one (a cut-off message
    holds the first fragment), whole words preferred: kind 0 when whole
    (non-word characters on both sides inside the fragment), 1 when it may be
    the end of a longer word of the message, 2 the start of one; ``("", 3)``
    when no fragment has a word that is closed on one side at least.
    """
    for frag in frags:
        best: tuple[int, int, str] | None = None
        for m in _WORD_RUN.finditer(frag):
            left_open = m.start() == 0
            right_open = m.end() == len(frag)
            if left_open and right_open:
                continue
            kind = 1 if left_open else 2 if right_open else 0
            rank = (int(kind == 0), len(m.group()), m.group())
            if best is None or rank > best:
                best = rank
        if best is not None:
            word = best[2]
            for m in _WORD_RUN.finditer(frag):
                if m.group() == word and not (m.start() == 0 and m.end() == len(frag)):
                    left_open = m.start() == 0
                    right_open = m.end() == len(frag)
                    return word, 1 if left_open else 2 if right_open else 0
    return "", 3


def _load_view(
    source: str | os.PathLike[str] | Iterable[Any], rng: random.Random, want: int
) -> _View:
    view = _View()
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        total = 0
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 24), b""):
                total += block.count(b"\n")
        keep = set(rng.sample(range(total), min(total, want)))
        with path.open("rb") as fh:
            for number, raw in enumerate(fh):
                if not raw.strip():
                    continue
                data = json.loads(raw)
                view.add(data.get("record", data), number in keep)
        return view
    items = [_as_record(item) for item in source]
    keep = set(rng.sample(range(len(items)), min(len(items), want)))
    for number, rec in enumerate(items):
        view.add(rec, number in keep)
    return view


def _as_record(item: Any) -> Mapping[str, Any]:
    if hasattr(item, "model_dump"):
        item = item.model_dump(mode="json", by_alias=True)
    if not isinstance(item, Mapping):
        raise TypeError(f"expected a record or an envelope, got {type(item).__name__}")
    inner = item.get("record")
    return inner if isinstance(inner, Mapping) else item


@dataclass
class _Candidate:
    kind: str
    cls: str
    message: str
    expected: str | None = None
    pattern: str = ""
    literal: int = 0
    code: str = ""
    record: _Record | None = None
    tries: int = 0


def _screen(view: _View, cands: Sequence[_Candidate]) -> list[list[tuple[int, str, str]]]:
    """Per candidate: (pattern index, mode, longest fragment) of each non-generic match."""
    texts = [_fold(c.message) for c in cands]
    whole: defaultdict[str, set[int]] = defaultdict(set)
    suffix: defaultdict[str, set[int]] = defaultdict(set)
    prefix: defaultdict[str, set[int]] = defaultdict(set)
    for i, text in enumerate(texts):
        for token in _TOKEN.findall(text):
            whole[token].add(i)
            if len(token) > 40:
                continue
            for j in range(len(token) - 2):
                suffix[token[j:]].add(i)
            for j in range(3, len(token) + 1):
                prefix[token[:j]].add(i)
    haystack = "\n".join(texts)
    tables = (whole, suffix, prefix)
    out: list[list[tuple[int, str, str]]] = [[] for _ in cands]
    everyone = set(range(len(cands)))
    for index, key in enumerate(view.keys):
        kind = view.kinds[index]
        if kind == 4:
            continue
        if kind < 3:
            hit = tables[kind].get(key)
            if not hit:
                continue
            who: set[int] = hit
        else:
            frags = _fragments(view.patterns[index])
            if not frags or max(frags, key=len) not in haystack:
                continue
            who = everyone
        pattern = view.patterns[index]
        frags = _fragments(pattern)
        threshold = max(GENERIC_LITERAL, sum(len(f) for f in frags) / 2)
        for i in who:
            complete, present = _walk(texts[i], frags, threshold)
            if not complete and present < threshold:
                continue
            mode = _regex_mode(pattern, texts[i], whole=complete)
            if mode is not None:
                out[i].append((index, mode, max(frags, key=len) if frags else ""))
    return out


def _walk(text: str, frags: Sequence[str], threshold: float) -> tuple[bool, int]:
    """Whether ``text`` holds all ``frags`` in order, and how much of them it holds.

    When a fragment is missing, a text that ends with the start of it (a
    cut-off paste) holds that much of it too; that is only looked for when it
    could bring the count to ``threshold``.
    """
    position = present = 0
    for fragment in frags:
        found = text.find(fragment, position)
        if found >= 0:
            present += len(fragment)
            position = found + len(fragment)
            continue
        if present + len(fragment) - 1 >= threshold:
            # The longest end of the text that starts the fragment.
            at = text.find(fragment[0], max(position, len(text) - len(fragment) + 1))
            while at >= 0:
                if fragment.startswith(text[at:]):
                    return False, present + len(text) - at
                at = text.find(fragment[0], at + 1)
        return False, present
    return True, present


def _regex_mode(pattern: str, text: str, *, whole: bool) -> str | None:
    """How errcat's regexes for ``pattern`` match ``text`` (``whole``: all fragments are there).

    ``truncated`` (a partial match) counts only for texts that hold at least
    half of the pattern's literal text, see :func:`_screen`.
    """
    try:
        compiled = compile_pattern(pattern)
        if whole:
            if compiled.full.fullmatch(text, timeout=0.05):
                return "full"
            if compiled.full.match(text, timeout=0.05):
                return "prefix"
            if compiled.inner.search(text, timeout=0.05):
                return "inner"
        m = compiled.full.fullmatch(text, partial=True, timeout=0.05)
        if m is not None and m.partial:
            return "truncated"
    except TimeoutError:
        return "timeout"
    return None


def _installed(repo: str, path: str) -> str:
    if repo == "python/cpython" and path.startswith("Lib/"):
        return f"/usr/lib/python{_PY}/{path[4:]}"
    rel = path[4:] if path.startswith("src/") else path
    return f"/home/dev/.venv/lib/python{_PY}/site-packages/{rel}"


def _site_frame(
    rec: Mapping[str, Any], rng: random.Random, vocab: Vocabulary, *, at_raise: bool
) -> tuple[str, int, str, str]:
    """A frame in a record's file: at its raise line, or at a call in its snippet.

    The function is the nearest ``def`` above the line in the snippet (or, when
    the snippet starts inside a function, a name from the vocabulary).
    """
    lines = str(rec["sourceCode"]).split("\n")
    start = int(rec["sourceCodeStart"])
    offset = int(rec["lineNumber"]) - start
    if not at_raise:
        calls = [i for i, line in enumerate(lines) if _CALL_LINE.match(line)]
        if calls:
            offset = rng.choice(calls)
    offset = min(offset, len(lines) - 1)
    func = "<module>" if not lines[offset][:1].isspace() else vocab.ident(rng)
    for line in reversed(lines[: offset + 1]):
        m = _DEF.match(line)
        if m:
            func = m.group(1)
            break
    return (
        _installed(str(rec["repo"]), str(rec["filePath"])),
        start + offset,
        func,
        lines[offset].strip(),
    )


_APP_CODE = (
    "return self.{a}({b})",
    "result = {a}(**kwargs)",
    "response = await self.{a}(request)",
    "return func(*args, **kwargs)",
    "self.{a}.{b}()",
    "value = {a}[{b}]",
    "for {b} in self.{a}({b}):",
    "{b} = self._{a}({b}, strict=True)",
    "return await {a}(scope, receive, send)",
    "items = list(self.{a}())",
)


def _app_frames(
    rng: random.Random, vocab: Vocabulary, count: int, view: _View | None
) -> list[tuple[str, int, str, str]]:
    """Frames of an application (``/srv/<app>/...``) whose files no record of ``view`` shares."""
    frames: list[tuple[str, int, str, str]] = []
    app = vocab.words.pick(rng)
    while len(frames) < count:
        module = vocab.ident(rng)
        folder = vocab.words.pick(rng)
        path = f"/srv/{app}/{app}/{folder}/{module}.py"
        parts = path.split("/")
        if view is not None and (
            tuple(parts[-2:]) in view.tails or any(p.lower() in view.packages for p in parts)
        ):
            app = _nonce(rng)
            continue
        code = rng.choice(_APP_CODE).format(a=vocab.ident(rng), b=vocab.ident(rng))
        frames.append((path, rng.randint(12, 900), vocab.ident(rng), code))
    return frames


def _traceback(frames: Sequence[tuple[str, int, str, str]], exc_line: str) -> str:
    out = ["Traceback (most recent call last):"]
    for path, line, func, code in frames:
        out.append(f'  File "{path}", line {line}, in {func}')
        if code:
            out.append(f"    {code}")
    out.append(exc_line)
    return "\n".join(out) + "\n"


def _exc_line(cls: str, message: str) -> str:
    if cls.rsplit(".", 1)[-1] == "KeyError":
        return f"{cls}: {message!r}"
    return f"{cls}: {message}" if message else cls


def make_query_set(
    source: str | os.PathLike[str] | Iterable[Any],
    k: int = 200,
    seed: int = 0,
    *,
    cache: bool = True,
) -> QuerySet:
    """``k`` queries of each kind for a catalog (a JSONL path, or records/envelopes).

    See the module docstring for the kinds and the screen. Made from a file,
    the set is cached beside it. Fewer than ``k`` are returned for a kind only
    when the catalog cannot give more (a catalog of ``m`` non-generic records
    gives at most ``m`` hits of each kind).
    """
    cache_path: Path | None = None
    stamp: list[int] = []
    if cache and isinstance(source, (str, os.PathLike)):
        path = Path(source)
        stat = path.stat()
        stamp = [stat.st_size, stat.st_mtime_ns]
        cache_path = path.with_name(f"{path.name}.queries-k{k}-s{seed}")
        if cache_path.is_file():
            data = json.loads(cache_path.read_text(encoding="utf-8"))
            if data.get("stamp") == stamp and data.get("version") == [
                CORPUS_VERSION,
                QUERY_VERSION,
            ]:
                return QuerySet(
                    {kind: [(t, e) for t, e in data["queries"][kind]] for kind in KINDS},
                    {key: frozenset(ids) for key, ids in data["accepted"].items()},
                )
    result = _make_query_set(source, k, seed)
    if cache_path is not None:
        data = {
            "version": [CORPUS_VERSION, QUERY_VERSION],
            "stamp": stamp,
            "queries": result.queries,
            "accepted": {key: sorted(ids) for key, ids in result.accepted.items()},
        }
        tmp = cache_path.with_name(f".{cache_path.name}.tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")
        tmp.replace(cache_path)
    return result


def make_queries(
    source: str | os.PathLike[str] | Iterable[Any], k: int = 200, seed: int = 0
) -> dict[str, list[tuple[str, str | None]]]:
    """``k`` ``(text, expected id or None)`` per kind (see :func:`make_query_set`)."""
    return make_query_set(source, k, seed).queries


def printed_class(cls: str, file_path: str) -> str:
    """The class as a traceback prints it: ``module.Name`` unless it is a builtin one.

    Python prints ``type.__module__ + "." + type.__qualname__`` for every class
    outside :mod:`builtins`; a record whose class the miner could not qualify
    (``error``, imported through ``from ._constants import *``) is printed with
    the module of its file, as the nearest guess (the import path: a
    repository's ``Lib/`` or ``src/`` folder is not part of it).

    >>> printed_class("ValueError", "pkg/mod.py")
    'ValueError'
    >>> printed_class("error", "proj/re/_compiler.py")
    'proj.re._compiler.error'
    >>> printed_class("error", "Lib/re/_parser.py")
    're._parser.error'
    >>> printed_class("Bad", "src/pkg/__init__.py")
    'pkg.Bad'
    >>> printed_class("pkg.errors.Bad", "pkg/mod.py")
    'pkg.errors.Bad'
    """
    if "." in cls or isinstance(getattr(builtins, cls, None), type):
        return cls
    path = file_path.removeprefix("Lib/").removeprefix("src/")
    module = path.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
    return f"{module}.{cls}" if module else cls


def _make_query_set(source: str | os.PathLike[str] | Iterable[Any], k: int, seed: int) -> QuerySet:
    rng = random.Random(f"errcat-queries:{CORPUS_VERSION}:{seed}")
    view = _load_view(source, rng, 4 * k + 400)
    sampled = [view.sample[i] for i in sorted(view.sample)]
    vocab = build_vocabulary(sampled)
    renderer = _Renderer(vocab, rng)
    literal_of: dict[str, int] = {}
    hit_pool = [(i, rec) for i, rec in sorted(view.sample.items()) if view.kinds[i] != 4]
    rng.shuffle(hit_pool)
    frame_pool = [rec for _, rec in hit_pool[:400]] or sampled

    def hit(kind: str) -> _Candidate | None:
        while hit_pool:
            _, rec = hit_pool.pop()
            template = str(rec["errorMessage"])
            pattern = str(rec["messagePattern"])
            message = renderer.render(template)
            text = _fold(message)
            if not text or compile_pattern(pattern).full.fullmatch(text) is None:
                continue
            if pattern not in literal_of:
                literal_of[pattern] = sum(len(f) for f in _fragments(pattern))
            return _Candidate(
                kind,
                printed_class(str(rec["errorClass"]), str(rec["filePath"])),
                message,
                str(rec["id"]),
                pattern,
                literal_of[pattern],
                record=rec,
            )
        return None

    def miss(kind: str) -> _Candidate:
        cls, message, code = _builtin_error(rng, renderer)
        return _Candidate(kind, cls, message, code=code)

    generic_templates = [(t, c) for t, c in view.generic if parse_template(t)[1]] or [
        ("{prefix}: {msg}", "RuntimeError"),
        ("{name} ({reason})", "ValueError"),
    ]

    def generic() -> _Candidate:
        template, cls = generic_templates[rng.randrange(len(generic_templates))]
        literals, fields = parse_template(template)
        values: list[str] = []
        for index, f in enumerate(fields):
            if index == len(fields) - 1:
                _, message, _ = _builtin_error(rng, renderer)
                values.append(message)
            else:
                values.append(renderer.value(f))
        out = [literals[0]]
        for value, lit in zip(values, literals[1:], strict=True):
            out.append(value)
            out.append(lit)
        return _Candidate("generic", cls, "".join(out))

    makers: dict[str, Callable[[], _Candidate | None]] = {
        "hit line": lambda: hit("hit line"),
        "hit traceback": lambda: hit("hit traceback"),
        "miss line": lambda: miss("miss line"),
        "miss traceback": lambda: miss("miss traceback"),
        "generic": generic,
    }
    done: dict[str, list[_Candidate]] = {kind: [] for kind in KINDS}
    pending: list[_Candidate] = []
    for _round in range(6):
        for kind in KINDS:
            short = k - len(done[kind]) - sum(1 for c in pending if c.kind == kind)
            for _ in range(max(0, short) + (max(0, short) // 4 if _round == 0 else 0)):
                cand = makers[kind]()
                if cand is not None:
                    pending.append(cand)
        if not pending:
            break
        results = _screen(view, pending)
        retry: list[_Candidate] = []
        for cand, matches in zip(pending, results, strict=True):
            if cand.expected is not None:
                bad = [
                    m
                    for m in matches
                    if view.patterns[m[0]] != cand.pattern
                    and m[1] in {"full", "prefix", "inner"}
                    and _literal(view, m[0], literal_of) >= cand.literal + (m[1] != "full")
                ]
                if not bad and len(done[cand.kind]) < k:
                    done[cand.kind].append(cand)
                continue
            if not matches:
                if len(done[cand.kind]) < k:
                    done[cand.kind].append(cand)
                continue
            cand.tries += 1
            if cand.tries > 3:
                continue
            message = cand.message
            for _, _, fragment in matches[:8]:
                message = _perturb_message(message, fragment, rng)
            cand.message = message
            retry.append(cand)
        pending = retry
        if all(len(done[kind]) >= k for kind in KINDS) and not pending:
            break
        if not hit_pool and all(len(done[kind]) >= k for kind in KINDS[2:]) and not pending:
            break

    queries: dict[str, list[tuple[str, str | None]]] = {}
    for kind in KINDS:
        out: list[tuple[str, str | None]] = []
        for cand in done[kind][:k]:
            exc = _exc_line(cand.cls, cand.message)
            if kind == "hit traceback":
                assert cand.record is not None
                frames = _app_frames(rng, vocab, 4, None)
                while len(frames) < _TRACEBACK_FRAMES - 3:
                    rec = frame_pool[rng.randrange(len(frame_pool))]
                    frames.append(_site_frame(rec, rng, vocab, at_raise=False))
                frames.append(_site_frame(cand.record, rng, vocab, at_raise=False))
                frames.append(_site_frame(cand.record, rng, vocab, at_raise=False))
                frames.append(_site_frame(cand.record, rng, vocab, at_raise=True))
                out.append((_traceback(frames, exc), cand.expected))
            elif kind == "miss traceback":
                frames = _app_frames(rng, vocab, _TRACEBACK_FRAMES, view)
                last = frames[-1]
                frames[-1] = (last[0], last[1], last[2], cand.code)
                out.append((_traceback(frames, exc), None))
            else:
                out.append((exc, cand.expected))
        queries[kind] = out
    wanted = {cand.pattern for kind in KINDS[:2] for cand in done[kind][:k]}
    by_pattern: defaultdict[str, set[str]] = defaultdict(set)
    for rid, pattern in zip(view.ids, view.patterns, strict=True):
        if pattern in wanted:
            by_pattern[pattern].add(rid)
    accepted = {
        cand.expected: frozenset(by_pattern[cand.pattern])
        for kind in KINDS[:2]
        for cand in done[kind][:k]
        if cand.expected is not None
    }
    return QuerySet(queries, accepted)


def _literal(view: _View, index: int, cache: dict[str, int]) -> int:
    pattern = view.patterns[index]
    if pattern not in cache:
        cache[pattern] = sum(len(f) for f in _fragments(pattern))
    return cache[pattern]


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def _sizes(text: str) -> list[int]:
    return [int(s.replace("_", "")) for s in text.split(",") if s.strip()]


def _sample_records(path: Path, count: int, seed: int) -> list[_Record]:
    """About ``count`` records of a catalog file at random places (without reading it all)."""
    size = path.stat().st_size
    rng = random.Random(seed)
    out: list[_Record] = []
    with path.open("rb") as fh:
        for offset in sorted(rng.randrange(size) for _ in range(count)):
            fh.seek(offset)
            fh.readline()  # the rest of the line the offset fell in
            line = fh.readline()
            if not line:  # the offset fell in the last line
                fh.seek(0)
                line = fh.readline()
            out.append(json.loads(line)["record"])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Write catalogs (and optionally queries); print counts and timings."""
    parser = argparse.ArgumentParser(description="Write errcat benchmark catalogs.")
    parser.add_argument("--size", type=_sizes, default=[10_000], help="records (comma list)")
    parser.add_argument("--out", required=True, help="folder for the catalogs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--queries", type=int, default=0, metavar="K", help="also make K queries per kind"
    )
    parser.add_argument("--refresh-base", action="store_true", help="mine the base again")
    parser.add_argument(
        "--show", type=int, default=0, metavar="N", help="print N generated templates"
    )
    args = parser.parse_args(argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    started = time.perf_counter()
    base = load_base(refresh=args.refresh_base, log=log)
    how = "read from cache" if base.meta.get("cached") else "mined"
    print(
        f"base {base.key}: {len(base.envelopes)} records from {len(base.meta.get('repos', []))} "
        f"repos ({how} in {time.perf_counter() - started:.1f} s; mining took "
        f"{base.meta.get('seconds', 0):.1f} s); cache {base.path}"
    )
    for n in args.size:
        t0 = time.perf_counter()
        path = write_catalog(n, args.out, args.seed, base=base)
        seconds = time.perf_counter() - t0
        meta = json.loads(path.with_name(path.name + ".meta").read_text(encoding="utf-8"))
        counts = ", ".join(f"{key} {value}" for key, value in meta["counts"].items())
        reused = " (reused)" if seconds < meta["seconds"] / 2 else ""
        print(
            f"{n:>9} records: {meta['bytes'] / 1e6:8.1f} MB in {meta['seconds']:6.1f} s{reused}  "
            f"[{counts}]  {path}"
        )
        if args.show:
            for rec in _sample_records(path, args.show, args.seed):
                print(
                    f"    {rec['repo']}:{rec['filePath']}:{rec['lineNumber']}  "
                    f"{rec['errorClass']}: {rec['errorMessage']}"
                )
        if args.queries:
            t0 = time.perf_counter()
            qs = make_query_set(path, args.queries, args.seed)
            sizes = ", ".join(f"{kind} {len(q)}" for kind, q in qs.queries.items())
            print(f"    queries in {time.perf_counter() - t0:.1f} s: {sizes}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
