"""Draft records: ids, slugs, URLs, the guessed error type, and the envelopes of a run.

>>> slugify("bad value {x!r}"), record_id("o/r", "a.py", "bad value {x!r}")
('bad-value-x-r', '0558fa5f2d383ba0')
"""

from __future__ import annotations

import builtins
import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone

from errcat.errors import InvalidRecordError
from errcat.mine.advice import _Advice
from errcat.mine.logged import reports_an_error
from errcat.models import ErrorRecord, RecordEnvelope
from errcat.patterns import template_to_pattern
from errcat.slugs import slugify
from errcat.store import BASE_TAG_PREFIX, CALLER_CLASS_TAG, FUNCTION_TAG_PREFIX
from errcat.tags import LOGGED_TAG, RESPONSE_TAG, WRAPPER_TAG
from errcat.view import source_line

#: Lines of context on each side of the raise in ``sourceCode`` (37 lines in all).
SNIPPET_RADIUS = 18


_SHA = re.compile(r"^[0-9a-f]{40}$")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


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


@dataclass(frozen=True, slots=True)
class _Entry:
    file_path: str
    line: int
    qualname: str
    error_class: str
    template: str
    base: str | None
    snippet: tuple[int, int, str]
    advice: _Advice | None = None
    caller_class: bool = False
    #: A log call's (:mod:`errcat.mine.logged`): ``error_class`` is its level.
    logged: bool = False
    #: An HTTP error body's (:mod:`errcat.mine.responses`): ``error_class`` is its type.
    response: bool = False
    #: The HTTP status an error body carries, when the code writes it.
    status: int | None = None


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


def _build_envelopes(
    entries: list[_Entry], repo: str, sha: str, when: datetime
) -> list[RecordEnvelope]:
    entries.sort(key=lambda e: (e.file_path, e.line, e.template))
    groups: defaultdict[tuple[str, str], list[_Entry]] = defaultdict(list)
    for entry in entries:
        groups[(entry.file_path, _identity(entry))].append(entry)
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
        bare = () if entry.template else (_raise_code(entry),)
        rid = record_id(repo, entry.file_path, entry.template, *bare, *keys[id(entry)])
        if rid in seen:  # the same template twice at one site
            continue
        seen.add(rid)
        envelopes.append(_draft(entry, rid, repo, sha, when))
    return envelopes


def _raise_code(entry: _Entry) -> str:
    """The raising line of code of an entry, whitespace folded (``assert x is not None``)."""
    start, _end, code = entry.snippet
    return " ".join(source_line(code, start, entry.line).split())


def _identity(entry: _Entry) -> str:
    """What tells an entry from the file's others: its template, or for none its code.

    A raise without a message (the empty template) is told by the statement it
    is (``assert self.pool is not None``), so its id stays when others are added.
    """
    return entry.template if entry.template else "\0" + _raise_code(entry)


def _base_tag(entry: _Entry) -> tuple[str, ...]:
    """``errcat:base:<Builtin>`` for a project's own class with a builtin base (not Exception)."""
    own = entry.error_class.rsplit(".", 1)[-1] != entry.base
    if entry.base is None or entry.base in ("Exception", "BaseException") or not own:
        return ()
    return (f"{BASE_TAG_PREFIX}{entry.base}",)


def _function_tag(qualname: str) -> tuple[str, ...]:
    """``errcat:in:<name>``: the raising function as a traceback frame prints it.

    A traceback shows a frame's code name (``__init__``, not ``Runner.__init__``);
    a raise at module level or in a class body gets no tag.

    >>> _function_tag("Runner.capture.<locals>.inner"), _function_tag("")
    (('errcat:in:inner',), ())
    """
    names = [part for part in qualname.split(".") if part and part != "<locals>"]
    return (f"{FUNCTION_TAG_PREFIX}{names[-1]}",) if names else ()


def _draft(entry: _Entry, rid: str, repo: str, sha: str, when: datetime) -> RecordEnvelope:
    start, end, code = entry.snippet
    advice = entry.advice
    logged = entry.logged
    is_warning = guess_error_type(entry.base) == "warning" or (
        logged and entry.error_class == "WARNING"
    )
    record = ErrorRecord(
        id=rid,
        repo=repo,
        slug=slugify(entry.template or _raise_code(entry)),
        error_code=None,
        error_message=entry.template,
        message_pattern=template_to_pattern(entry.template),
        error_type=guess_error_type(entry.base),
        error_class=entry.error_class,
        http_status=entry.status,
        severity="warning" if is_warning else "error",
        file_path=entry.file_path,
        line_number=entry.line,
        source_code=code,
        source_code_start=start,
        source_code_end=end,
        github_url=github_url(repo, sha, entry.file_path, start, end),
        documentation=advice.documentation if advice else "",
        trigger_scenarios=advice.trigger_scenarios if advice else "",
        common_situations="",
        solutions=advice.solutions if advice else (),
        example_fix=advice.example_fix if advice else "",
        handling_strategy="",
        validation_code=advice.validation_code if advice else None,
        type_guard=advice.type_guard if advice else None,
        try_catch_pattern=None,
        prevention_tips=advice.prevention_tips if advice else (),
        tags=(
            *(advice.tags if advice else ()),
            *_base_tag(entry),
            *_function_tag(entry.qualname),
            *((CALLER_CLASS_TAG,) if entry.caller_class else ()),
            *((LOGGED_TAG,) if logged else ()),
            *((RESPONSE_TAG,) if entry.response else ()),
            *(
                (WRAPPER_TAG,)
                if (logged or entry.response) and reports_an_error(entry.template)
                else ()
            ),
        ),
        background_tag=None,
        analyzed_sha=sha,
        analyzed_at=when,
        schema_version=2,
    )
    return RecordEnvelope(record=record, dataset_version=when)
