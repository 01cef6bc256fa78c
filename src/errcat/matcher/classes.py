"""What the exception class says: whether the report's class is the record's.

>>> _module_qualified("pip._internal.exceptions.InstallationError")
True
"""

from __future__ import annotations

import builtins
import functools
import re
from collections.abc import Mapping
from dataclasses import replace

from errcat.extract import ExceptionReport
from errcat.matcher.foreign_class import foreign_module
from errcat.store import RecordSummary
from errcat.tags import BASE_TAG_PREFIX, CALLER_CLASS_TAG, WAS_TAG_PREFIX

#: The names HTTP APIs and their clients give a response's status (OpenAI-style bodies
#: ``"type": "BadRequestError"``, ``openai.BadRequestError``): they say how the server
#: answered, not which exception it reports, so they neither agree nor disagree.
_HTTP_ERROR_NAMES = frozenset(
    {
        "BadRequestError",
        "AuthenticationError",
        "PermissionDeniedError",
        "NotFoundError",
        "ConflictError",
        "UnprocessableEntityError",
        "RateLimitError",
        "InternalServerError",
        "ServiceUnavailableError",
        "APIStatusError",
    }
)


def _short_class(name: str | None) -> str | None:
    return name.rsplit(".", 1)[-1] if name else None


#: Ray's dual class as printed: ``ray.exceptions.RayTaskError(ValueError)`` is an instance
#: of both the wrapper and the class in parentheses (``as_instanceof_cause``).
_DUAL = re.compile(r"(?P<outer>[\w.]*\w)\((?P<inner>[\w.]*\w)\)")


def dual_classes(error_class: str | None) -> tuple[str, str] | None:
    """The wrapper's and the cause's names of a dual class ``W(X)`` as printed, else None.

    >>> dual_classes("ray.exceptions.RayTaskError(OutOfMemoryError)")
    ('ray.exceptions.RayTaskError', 'OutOfMemoryError')
    >>> dual_classes("ValueError") is None
    True
    """
    dual = _DUAL.fullmatch(error_class or "")
    return (dual.group("outer"), dual.group("inner")) if dual is not None else None


#: The states of :func:`_class_state`, worst first.
_STATES = ("disagree", "unknown", "agree", "custom")


def _class_state(report: ExceptionReport, record: RecordSummary) -> str:
    """``agree``, ``custom``, ``disagree`` or ``unknown``: the report's class against the record's.

    A dual class ``W(X)`` is both ``W`` and ``X``: the better of the two states.

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> from errcat.store import RecordSummary
    >>> rec = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> wrapper = RecordSummary.of(rec.model_copy(update={"error_class": "zq.ZqTaskError"}))
    >>> from errcat.extract import extract_reports
    >>> report = extract_reports("zq.ZqTaskError(KeyError): zq::f() (pid=1)")[0]
    >>> _class_state(report, wrapper)
    'custom'
    """
    dual = dual_classes(report.error_class)
    if dual is None or report.kind == "text":
        return _one_class_state(report, record)
    states = (_one_class_state(replace(report, error_class=name), record) for name in dual)
    return max(states, key=_STATES.index)


def _one_class_state(report: ExceptionReport, record: RecordSummary) -> str:
    """:func:`_class_state` for a report naming one class.

    Qualified names agree when one is the other's dotted suffix; the same name
    in another module of the same project is another class, though a mined name
    may be shortened, so it counts as unknown; a package's class against the
    standard library's of that name (``requests.exceptions.JSONDecodeError``
    against CPython's ``json.decoder.JSONDecodeError``) disagrees
    (:mod:`.foreign_class`). A record whose
    class its caller passes in (tagged ``errcat:class:caller``) never disagrees.
    """
    got = report.error_class
    if got is None or report.kind == "text" or _short_class(got) in _HTTP_ERROR_NAMES:
        return "unknown"
    want = record.error_class
    if _short_class(got) != _short_class(want):
        # The builtin base of the record's class, or the class an older version
        # raised it as (vllm's ValueError before VLLMValidationError), or a class
        # each caller chooses (``raise exception(msg)``): no evidence.
        if _raised_as(got, record) or CALLER_CLASS_TAG in record.tags:
            return "unknown"
        return "disagree"
    if (
        got == want
        or "." not in got
        or "." not in want
        or got.endswith("." + want)
        or want.endswith("." + got)
    ):
        return "agree" if _is_builtin_class(got) else "custom"
    if foreign_module(got, want):
        return "disagree"  # a package's class, the stdlib's name (foreign_class)
    return "unknown"


#: A project's class name this long is specific enough to name the project.
_OWN_CLASS_NAME = 8


def _names_own_class(record: RecordSummary, mentions: Mapping[str, int]) -> bool:
    """Whether the text names the record's class, a project's own (not a builtin)."""
    short = _short_class(record.error_class) or ""
    return (
        len(short) >= _OWN_CLASS_NAME
        and short.lower() in mentions
        and not _is_builtin_class(record.error_class)
    )


def _module_qualified(got: str | None, want: str | None = None) -> bool:
    """Whether a report names a project's own class with its module (``pkg.mod.MyError``).

    With ``want``, that the record's class is named with a module as well (the two
    agree by :func:`_class_state`): the report names the record's module, so no other
    project's text can be it, however common its words.

    >>> _module_qualified("pip._internal.exceptions.InstallationError")
    True
    >>> _module_qualified("ValueError"), _module_qualified("builtins.KeyError")
    (False, False)
    """
    if got is None or "." not in got or _is_builtin_class(got):
        return False
    return want is None or "." in want


def _same_package_class(got: str | None, want: str) -> bool:
    """Whether a report's class is the record's class named through another module of its package.

    A package re-exports its classes: ``pydantic_core._pydantic_core.ValidationError``
    is what a traceback prints for the class the miner saw as
    ``pydantic_core.ValidationError``. The same class name with a module of the same
    top-level package names the record's project as surely as its own module would.

    >>> _same_package_class(
    ...     "pydantic_core._pydantic_core.ValidationError", "pydantic_core.ValidationError"
    ... )
    True
    >>> _same_package_class("aifc.Error", "sunau.Error"), _same_package_class("Error", "x.Error")
    (False, False)
    """
    if got is None or "." not in got or "." not in want or _is_builtin_class(got):
        return False
    return _short_class(got) == _short_class(want) and got.split(".", 1)[0] == want.split(".", 1)[0]


def _raised_as(name: str | None, record: RecordSummary) -> bool:
    """Whether the record's message is raised as ``name`` too, by the tags the miner wrote.

    That is the builtin base of the record's class, or the class an older
    revision raised the message as.
    """
    if name is None:
        return False
    short = _short_class(name)
    return f"{BASE_TAG_PREFIX}{short}" in record.tags or f"{WAS_TAG_PREFIX}{short}" in record.tags


@functools.lru_cache(maxsize=4096)
def _is_builtin_class(name: str) -> bool:
    """Whether a class name is a builtin exception (``ValueError``, ``builtins.OSError``).

    >>> _is_builtin_class("ValueError"), _is_builtin_class("attr.exceptions.NotCallableError")
    (True, False)
    """
    module, _, short = name.rpartition(".")
    if module not in ("", "builtins", "exceptions"):
        return False
    found = getattr(builtins, short, None)
    return isinstance(found, type) and issubclass(found, BaseException)


def _raised_as_reported(report: ExceptionReport, record: RecordSummary) -> bool:
    """Whether the report's class is the record's (a known class that agrees)."""
    return _class_state(report, record) in ("agree", "custom")
