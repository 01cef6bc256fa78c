"""Accuracy of errcat on a labelled corpus of real exceptions: the reusable core.

A *case* is one harvested exception (a line of ``corpus.jsonl``, see
``harvest.py``): its traceback, class and message, and its true raise site
(``raise_path``, ``raise_line``) in the project's repo. :func:`render` turns it
into the forms users paste; :func:`evaluate` matches each form against a
catalog and records, per (case, form), what ``match_error`` answered and every
candidate of ``match_all``, each marked right or wrong by :class:`Sites`;
:func:`summarize` and :func:`reliability` turn those outcomes into the table
and the reliability diagram that ``bench_accuracy.py`` prints.

*Right* means the record is at the true raise site: its ``filePath`` ends with
the case's ``raise_path`` (or the reverse) and its ``lineNumber`` is the raise
line. For the bare-line and log-line forms, which carry no frames, a record
elsewhere with the same class (last dotted part) and ``messagePattern`` as a
record at the site is right too: the text cannot tell such copies apart
(``Invalid isoformat string: {date_string!r}`` and ``{time_string!r}`` in
two functions of one file, or vendored code). Patterns are compared with the
quotes around a placeholder dropped: ``{name!r}`` and ``'{name}'`` print a
string the same way (``Mock object has no attribute 'x'`` is either). A case is *held* when the catalog
has a record at its raise site whose pattern matches its message: only those
can be answered right; their *literal characters* are those of that record's
template (the issue's goals count messages with at least 12).

Usable from other scripts (``benchmarks`` on ``sys.path``)::

    from accuracy import Sites, evaluate, load_cases, summarize

    cases = load_cases("/root/.cache/errcat-corpus/corpus.jsonl")
    outcomes = evaluate(cases, catalog, Sites(catalog), role="own")
    rows = summarize(outcomes)
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import re
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errcat.catalog import Catalog
    from errcat.matcher import Match

FORMS = ("traceback", "line", "log", "title")
#: The issue's goals on bare and log lines count messages with this many literal characters.
LITERAL_GOAL = 12

#: Server-style prefixes for the log-line form (chosen per case by a hash of its id);
#: the ones marked True are repeated on every line (multi-process worker prefixes).
LOG_PREFIXES: tuple[tuple[str, bool], ...] = (
    ("[2026-03-02 10:11:12 TP0] ", False),
    ("ERROR 03-06 10:05:08 engine.py:190] ", False),
    ("2026-01-04 08:00:01,123 - ERROR - app - ", False),
    ("(APIServer pid=412231) ", True),
)
#: What issue titles open with (chosen per case by a hash).
TITLE_TAGS = ("[Bug]: ", "[Bug] ", "")
RED = "\x1b[1;31m"
RESET = "\x1b[0m"

MatchAll = Callable[..., "list[Match]"]
MatchError = Callable[..., "Match | None"]


@dataclass(frozen=True)
class Case:
    """One harvested exception and its true raise site."""

    id: str
    project: str
    repo: str
    error_class: str
    message: str
    raise_path: str
    raise_line: int
    traceback: str
    split: str
    installed_path: str = ""
    function: str = ""
    #: The chain below the exception that ended the traceback: (class, file, line) of
    #: each cause or context (its file is the last Python frame: a C caller's).
    causes: tuple[tuple[str, str, int], ...] = ()

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Case:
        """A case from a line of ``corpus.jsonl`` (or ``corpus-outside.jsonl``)."""
        key = f"{row.get('installed_path')}:{row['raise_line']}:{row['message']}"
        return cls(
            id=row.get("id") or hashlib.sha256(key.encode()).hexdigest()[:16],
            project=row.get("project", "outside"),
            repo=row.get("repo", ""),
            error_class=row["error_class"],
            message=row["message"],
            raise_path=row.get("raise_path", ""),
            raise_line=int(row["raise_line"]),
            traceback=row["traceback"],
            split=row.get("split") or _split(str(row["message"])),
            installed_path=row.get("installed_path", ""),
            function=row.get("function", ""),
            causes=tuple(
                (str(c.get("error_class", "")), str(c["file"]), int(c.get("line") or 0))
                for c in row.get("chain") or ()
                if c.get("file")
            ),
        )


def _split(message: str) -> str:
    """The half of a row the harvest did not split (outside ones): calibrate.py's rule."""
    return "fit" if zlib.crc32(message.encode()) % 2 == 0 else "test"


def load_cases(path: str | Path, split: str = "all") -> list[Case]:
    """The cases of a corpus file, those of one split (``fit``/``test``) or all."""
    out = []
    with Path(path).open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                case = Case.from_row(json.loads(line))
                if split in ("all", case.split):
                    out.append(case)
    return out


def bare_line(case: Case) -> str:
    """``Class: message`` as the last line of the traceback prints it."""
    return f"{case.error_class}: {case.message}" if case.message else case.error_class


def title(error_class: str, message: str) -> str:
    """The error as an issue title shows it: a tag, the first line, cut to fit.

    Titles hold the first line of the message, after the class (left out in a
    quarter of them), cut at 70-119 characters when longer: at a word boundary
    or mid-word. So a long message keeps only its opening, often a small share
    of the whole, which a cut at a share of the message (``calibrate.cut_off``)
    never shows.

    >>> title(
    ...     "ValueError",
    ...     "Model architectures ['LlamaForCausalLM'] are not supported "
    ...     "for now. Supported architectures: " + ", ".join(["A" * 20] * 9),
    ... )
    "ValueError: Model architectures ['LlamaForCausalLM'] are not supported"
    """
    line = message.strip().split("\n", 1)[0].rstrip()
    seed = zlib.crc32(f"{error_class}: {message}".encode())
    if seed % 4:
        line = f"{error_class}: {line}" if line else error_class
    budget = 70 + seed // 4 % 50
    if len(line) > budget:
        cut = line[:budget]
        if seed // 200 % 2 and " " in cut:
            cut = cut[: cut.rindex(" ")]
        line = cut.rstrip()
    return TITLE_TAGS[seed // 400 % len(TITLE_TAGS)] + line


def render(case: Case, form: str) -> str:
    """The case as users paste it: ``traceback``, bare ``line``, ``log`` line or issue ``title``."""
    if form == "traceback":
        return case.traceback
    line = bare_line(case)
    if form == "line":
        return line
    if form == "log":
        prefix, every_line = LOG_PREFIXES[int(case.id[:8], 16) % len(LOG_PREFIXES)]
        if every_line:
            return "\n".join(f"{prefix}{RED}{part}{RESET}" for part in line.split("\n"))
        return f"{prefix}{RED}{line}{RESET}"
    if form == "title":
        return title(case.error_class, case.message)
    raise ValueError(f"unknown form {form!r}")


def literal_chars(template: str) -> int:
    """Characters of literal text in an ``errorMessage`` template."""
    from errcat.patterns import parse_template

    literals, _ = parse_template(template)
    return sum(len(part) for part in literals)


def message_variants(error_class: str, message: str) -> list[str]:
    """The message as printed and as the ``raise`` statement wrote it (KeyError quotes...)."""
    out = [message]
    stripped = message.strip()
    if error_class.rsplit(".", 1)[-1].endswith("KeyError") and stripped[:1] in ("'", '"'):
        try:
            value = ast.literal_eval(stripped)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            value = None
        if isinstance(value, str):
            out.append(value)
    if stripped.startswith("(") and stripped.endswith(")"):
        try:
            args = ast.literal_eval(stripped)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            args = None
        if isinstance(args, tuple) and args and isinstance(args[0], str):
            out.append(args[0])
        elif args is None:
            # Arguments that are not all literals: ('bad (%r)', <class 'int'>).
            first = _FIRST_STRING_ARG.match(stripped)
            if first:
                try:
                    value = ast.literal_eval(first.group(1))
                except (ValueError, SyntaxError, MemoryError, RecursionError):
                    value = None
                if isinstance(value, str):
                    out.append(value)
    errno = re.match(r"^\[(?:Errno|WinError) -?\d+\] ", stripped)
    if errno:
        out.append(stripped[errno.end() :])
    return out


_FIRST_STRING_ARG = re.compile(r"""\(('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"),""")


def _same_path(a: str, b: str) -> bool:
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


@dataclass(frozen=True)
class SiteRecord:
    """What :class:`Sites` keeps of a record."""

    id: str
    file_path: str
    line: int
    error_class: str
    template: str
    pattern: str


def _is_c_module(name: str) -> bool:
    import importlib.util
    import sys

    if name in sys.builtin_module_names:
        return True
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    return spec is not None and bool(spec.origin) and str(spec.origin).endswith((".so", ".pyd"))


def _overridden_by_c(tree: ast.Module, name: str, package: str) -> bool:
    """The module takes definitions from its own C module (``_datetime`` for ``datetime``)."""
    mine = {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }
    mine.update(
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    )
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.module or node.level:
            continue
        base = node.module.split(".")[0]
        if not base.startswith("_") or base.lstrip("_") not in (name, package):
            continue
        star = any(alias.name == "*" for alias in node.names)
        # ``from _json import scanstring as c_scanstring`` then ``scanstring = ...``
        redefined = any({alias.name, alias.asname or alias.name} & mine for alias in node.names)
        if (star or redefined) and _is_c_module(base):
            return True
    return False


def c_twin_files(stdlib: str | Path | None = None) -> frozenset[str]:
    """Standard-library files (as ``Lib/...``) whose C twin raises their messages.

    CPython ships a C accelerator for some modules: ``datetime.py`` ends with
    ``from _datetime import *``, ``json.decoder`` takes ``scanstring`` from
    ``_json``, and ``_pyio``/``_pydecimal``/``_py_abc`` are the pure-Python
    twins of ``_io``/``_decimal``/``_abc``. What users run is the C half, which
    raises the same messages as the Python half the miner reads; a record in
    such a file explains the C half's error (the same check, the same fix). The
    benchmark counts it right for exceptions raised by C code (*twin* answers).

    >>> "Lib/datetime.py" in c_twin_files() and "Lib/argparse.py" not in c_twin_files()
    True
    """
    import sysconfig

    root = Path(stdlib or sysconfig.get_paths()["stdlib"])
    return _c_twin_files(root)


@functools.lru_cache(maxsize=4)
def _c_twin_files(root: Path) -> frozenset[str]:
    out = set()
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(("test/", "idlelib/idle_test/", "lib2to3/tests/", "site-packages/")):
            continue
        name = path.stem
        if name.startswith("_py") and _is_c_module("_" + name[3:].lstrip("_")):
            out.add(f"Lib/{rel}")
            continue
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        if _overridden_by_c(tree, name, path.parent.name):
            out.add(f"Lib/{rel}")
    return frozenset(out)


def twin_right(error_class: str, match: Match, twins: frozenset[str]) -> bool:
    """A C-raised ``error_class`` answered by its Python twin's record (:func:`c_twin_files`).

    The whole message must match (mode ``full``) and the classes agree.
    """
    summary = match.summary
    return (
        match.mode == "full"
        and summary.file_path in twins
        and _short(summary.error_class) == _short(error_class)
    )


def explains_a_cause(case: Case, match: Match) -> bool:
    """The match's record is where a cause of the case's chain was raised, or its C twin.

    A traceback that ends in an exception no record explains is answered by the
    nearest cause that has one: from a catalog that does not hold the last
    exception, that answer is right when the catalog holds the cause.
    """
    from errcat.evidence import same_file_depth

    summary = match.summary
    for error_class, path, line in case.causes:
        if abs(summary.line_number - line) <= 4 and same_file_depth(path, summary.file_path):
            return True
        if twin_right(error_class, match, c_twin_files()):
            return True
    return False


class Sites:
    """A catalog's records by file and line: decides *held* and *right* for cases."""

    def __init__(self, catalog: Catalog | Iterable[Any]) -> None:
        self.by_file: dict[str, dict[int, list[SiteRecord]]] = defaultdict(
            lambda: defaultdict(list)
        )
        self.by_name: dict[str, list[str]] = defaultdict(list)
        self.by_pattern: dict[tuple[str, str], set[str]] = defaultdict(set)
        for record in catalog:
            site = SiteRecord(
                record.id,
                record.file_path,
                record.line_number,
                record.error_class,
                record.error_message,
                record.message_pattern,
            )
            if record.file_path not in self.by_file:
                self.by_name[record.file_path.rsplit("/", 1)[-1]].append(record.file_path)
            self.by_file[record.file_path][record.line_number].append(site)
            self.by_pattern[(_short(record.error_class), _unquoted(record.message_pattern))].add(
                record.id
            )

    def files(self, raise_path: str) -> list[str]:
        """Catalog file paths that are the same file as ``raise_path``."""
        name = raise_path.rsplit("/", 1)[-1]
        return [p for p in self.by_name.get(name, ()) if _same_path(p, raise_path)]

    def at(self, raise_path: str, line: int) -> list[SiteRecord]:
        """The records at a raise site."""
        return [r for path in self.files(raise_path) for r in self.by_file[path].get(line, ())]

    def held(self, case: Case) -> SiteRecord | None:
        """The record at the case's raise site whose pattern matches its message, if any.

        A placeholder may stand for an empty value (``found ''``), and the
        message is tried as raised and with its ends stripped (a value may be
        whitespace, as in ``digit found: \\x0c``).
        """
        import regex

        from errcat.patterns import compile_pattern

        variants = message_variants(case.error_class, case.message)
        texts = list(dict.fromkeys(t for v in variants for t in (v, v.strip())))
        for record in self.at(case.raise_path, case.raise_line):
            try:
                strict = compile_pattern(record.pattern).full
                full = regex.compile(strict.pattern.replace("(.+?)", "(.*?)"), strict.flags)
            except (ValueError, regex.error):
                continue
            for text in texts:
                try:
                    if full.fullmatch(text, timeout=0.2):
                        return record
                except TimeoutError:
                    continue
        return None

    def messages_at(self, case: Case) -> frozenset[tuple[str, str]]:
        """``(class, messagePattern)`` of the records at the case's raise site and its causes'.

        Patterns are compared without the quotes around placeholders (:func:`_unquoted`).
        """
        from errcat.evidence import same_file_depth

        records = list(self.at(case.raise_path, case.raise_line))
        for _, path, line in case.causes:
            for repo_path in self.by_name.get(path.rsplit("/", 1)[-1], ()):
                if same_file_depth(path, repo_path):
                    records.extend(self.by_file[repo_path].get(line, ()))
        return frozenset((_short(r.error_class), _unquoted(r.pattern)) for r in records)

    def right_ids(self, case: Case, *, frames: bool) -> frozenset[str]:
        """Ids of the records that count as a right answer for the case."""
        at_site = self.at(case.raise_path, case.raise_line)
        ids = {r.id for r in at_site}
        if not frames:
            for r in at_site:
                ids.update(self.by_pattern.get((_short(r.error_class), _unquoted(r.pattern)), ()))
        return frozenset(ids)


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


_QUOTED_GROUP = re.compile(r"""(['"])(\(\.\+\?\))\1""")


def _unquoted(pattern: str) -> str:
    """A message pattern with the quotes around its placeholders dropped.

    A ``{name!r}`` placeholder prints a string with its quotes, so its pattern
    and that of ``'{name}'`` match the same messages of that kind.

    >>> _unquoted("Mock object has no attribute '(.+?)'")
    'Mock object has no attribute (.+?)'
    """
    return _QUOTED_GROUP.sub(r"\2", pattern)


@dataclass(frozen=True)
class Candidate:
    """One candidate of ``match_all``, as the candidates dump writes it."""

    rank: int
    record_id: str
    file_path: str
    line: int
    confidence: float
    mode: str
    exact: bool
    confident: bool
    right: bool
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """What errcat did with one form of one case against one catalog."""

    case_id: str
    project: str
    split: str
    form: str
    role: str  # "own", "disjoint:<name>" or "outside"
    held: bool
    literal: int  # literal characters of the held record's template (0 when not held)
    answer_id: str | None
    answer_confidence: float | None
    answer_right: bool
    candidates: tuple[Candidate, ...] = field(default=())
    #: The answer (from a catalog that does not hold the case) has the same class
    #: and pattern as a record at the case's site, or at a cause's: a copy of the
    #: same message.
    answer_copy: bool = False
    #: The answer explains an exception of the chain below the last one, raised where
    #: the record is (or by its C twin): the matcher's deferral to a held cause.
    answer_cause: bool = False

    @property
    def top_right(self) -> bool:
        """The first candidate of ``match_all`` is right."""
        return bool(self.candidates) and self.candidates[0].right

    @property
    def top_confidence(self) -> float | None:
        """The confidence of the first candidate, if any."""
        return self.candidates[0].confidence if self.candidates else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for the candidates dump."""
        return {
            "case": self.case_id,
            "project": self.project,
            "split": self.split,
            "form": self.form,
            "catalog": self.role,
            "held": self.held,
            "literal": self.literal,
            "answer": self.answer_id,
            "answer_confidence": self.answer_confidence,
            "answer_right": self.answer_right,
            "answer_copy": self.answer_copy,
            "answer_cause": self.answer_cause,
            "candidates": [c.__dict__ | {"reasons": list(c.reasons)} for c in self.candidates],
        }


def evaluate_one(
    case: Case,
    catalog: Catalog,
    sites: Sites | None,
    *,
    role: str,
    forms: Sequence[str] = FORMS,
    limit: int = 10,
    match_all: MatchAll | None = None,
    match_error: MatchError | None = None,
    reference: Sites | None = None,
    twins: frozenset[str] = frozenset(),
) -> list[Outcome]:
    """The outcomes of one case, one per form (``sites`` None: nothing counts as right).

    ``reference`` (the case's own catalog, when matching against one that does
    not hold it) marks answers that are copies of the case's message.
    ``twins`` (for exceptions raised outside any mined source): files whose
    records count right by :func:`twin_right`.
    """
    import errcat

    do_all = match_all or errcat.match_all
    do_error = match_error or errcat.match_error
    held = sites.held(case) if sites is not None else None
    literal = literal_chars(held.template) if held is not None else 0
    copies = reference.messages_at(case) if reference is not None else frozenset()
    out = []
    for form in forms:
        text = render(case, form)
        right = (
            sites.right_ids(case, frames=form == "traceback") if sites is not None else frozenset()
        )
        answer = do_error(text, catalog)
        candidates = tuple(
            Candidate(
                rank=i,
                record_id=m.summary.id,
                file_path=m.summary.file_path,
                line=m.summary.line_number,
                confidence=m.confidence,
                mode=m.mode,
                exact=m.exact,
                confident=m.confident,
                right=m.summary.id in right or twin_right(case.error_class, m, twins),
                reasons=tuple(m.reasons),
            )
            for i, m in enumerate(do_all(text, catalog, limit=limit))
        )
        out.append(
            Outcome(
                case_id=case.id,
                project=case.project,
                split=case.split,
                form=form,
                role=role,
                held=held is not None,
                literal=literal,
                answer_id=answer.summary.id if answer is not None else None,
                answer_confidence=answer.confidence if answer is not None else None,
                answer_right=answer is not None
                and (answer.summary.id in right or twin_right(case.error_class, answer, twins)),
                candidates=candidates,
                answer_cause=answer is not None and explains_a_cause(case, answer),
                answer_copy=answer is not None
                and bool(copies)
                and (
                    _short(answer.summary.error_class),
                    _unquoted(answer.record.message_pattern),
                )
                in copies,
            )
        )
    return out


def evaluate(
    cases: Iterable[Case],
    catalog: Catalog,
    sites: Sites | None,
    *,
    role: str = "own",
    forms: Sequence[str] = FORMS,
    limit: int = 10,
    match_all: MatchAll | None = None,
    match_error: MatchError | None = None,
) -> Iterator[Outcome]:
    """Match every form of every case against ``catalog`` (see :func:`evaluate_one`)."""
    for case in cases:
        yield from evaluate_one(
            case,
            catalog,
            sites,
            role=role,
            forms=forms,
            limit=limit,
            match_all=match_all,
            match_error=match_error,
        )


@dataclass
class Row:
    """One line of the accuracy table."""

    form: str
    subset: str
    n: int = 0
    answered: int = 0
    right: int = 0
    top1: int = 0
    in_candidates: int = 0

    @property
    def wrong(self) -> int:
        """Answers that are not at the true raise site."""
        return self.answered - self.right

    def add(self, outcome: Outcome) -> None:
        """Count one outcome."""
        self.n += 1
        self.answered += outcome.answer_id is not None
        self.right += outcome.answer_right
        self.top1 += outcome.top_right
        self.in_candidates += any(c.right for c in outcome.candidates)


SUBSETS: tuple[tuple[str, Callable[[Outcome], bool]], ...] = (
    ("all", lambda o: True),
    ("held", lambda o: o.held),
    (f"held, literal>={LITERAL_GOAL}", lambda o: o.held and o.literal >= LITERAL_GOAL),
)


def summarize(outcomes: Iterable[Outcome], role: str = "own") -> list[Row]:
    """Per form and subset (all, held, held with enough literal text): the counts."""
    rows = {(form, name): Row(form, name) for form in FORMS for name, _ in SUBSETS}
    for outcome in outcomes:
        if outcome.role != role:
            continue
        for name, keep in SUBSETS:
            if keep(outcome):
                rows[(outcome.form, name)].add(outcome)
    return [row for row in rows.values() if row.n]


def confident_rate(
    outcomes: Iterable[Outcome], role: str, *, count_copies: bool = True
) -> dict[str, tuple[int, int]]:
    """Per form, ``(confident answers, n)`` for outcomes of one role.

    With ``count_copies`` false, answers that are copies of the case's own
    message (see :attr:`Outcome.answer_copy`), and answers for a cause of the
    chain that the catalog holds (:attr:`Outcome.answer_cause`), are not counted.
    """
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for outcome in outcomes:
        if outcome.role == role:
            answered = outcome.answer_id is not None
            counts[outcome.form][0] += answered and (
                count_copies or not (outcome.answer_copy or outcome.answer_cause)
            )
            counts[outcome.form][1] += 1
    return {form: (a, n) for form, (a, n) in counts.items()}


@dataclass
class Bin:
    """One confidence decile of the reliability diagram."""

    low: float
    high: float
    n: int = 0
    right: int = 0
    confidence_sum: float = 0.0

    @property
    def accuracy(self) -> float | None:
        """Share of right top candidates in this bin."""
        return self.right / self.n if self.n else None

    @property
    def mean_confidence(self) -> float | None:
        """Mean confidence of the top candidates in this bin."""
        return self.confidence_sum / self.n if self.n else None


def reliability(
    outcomes: Iterable[Outcome], roles: Sequence[str] | None = None, bins: int = 10
) -> list[Bin]:
    """Top candidates binned by confidence: how often each decile is right.

    Every outcome with a candidate counts once, by its first candidate of
    ``match_all``; outcomes of ``roles`` only, when given (a disjoint catalog's
    are all wrong: the catalog does not hold the error).
    """
    table = [Bin(i / bins, (i + 1) / bins) for i in range(bins)]
    for outcome in outcomes:
        if roles is not None and outcome.role not in roles:
            continue
        confidence = outcome.top_confidence
        if confidence is None:
            continue
        b = table[min(bins - 1, max(0, int(confidence * bins)))]
        b.n += 1
        b.right += outcome.top_right
        b.confidence_sum += confidence
    return table


def merged_file(side: Path, large: Path) -> Path:
    """A mined side's catalog and a large one in one file beside the side's (:func:`one_file`).

    ``catalog-stdlib.jsonl`` and ``catalog-sglang-vllm.jsonl`` give
    ``catalog-stdlib+sglang-vllm.jsonl``.
    """
    name = f"{side.stem}+{large.stem.removeprefix('catalog-')}.jsonl"
    return one_file(side.with_name(name), side, large)


def one_file(out: Path, *files: Path) -> Path:
    """The records of several catalog files written into one (``out``), made again when stale.

    Loaded, one file is one catalog part: its word counts (how many patterns hold a
    message's rarest word) are those of all the records together, as for a user whose
    one large catalog holds both a project's records and another ecosystem's. Loaded
    apart, a file of ``errcat.catalog.LAZY_BYTES`` or more is a part of its own, and
    counts apart.
    """
    newest = max(f.stat().st_mtime for f in files)
    if out.exists() and out.stat().st_mtime >= newest:
        return out
    partial = out.with_name(out.name + ".partial")
    with partial.open("wb") as sink:
        for f in files:
            last = b"\n"
            with f.open("rb") as source:
                while chunk := source.read(1 << 20):
                    sink.write(chunk)
                    last = chunk[-1:]
            if last != b"\n":  # a last line without its newline: the next file's first
                sink.write(b"\n")  # record must not join it
    partial.replace(out)
    return out
