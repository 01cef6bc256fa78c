"""Record the exceptions that test suites expect, with their real tracebacks.

Loaded into a test run by :mod:`harvest` (never by errcat itself): through a
``sitecustomize`` for ``unittest`` suites (the standard library's) and as a
pytest plugin (``-p harvest_hook``) for pytest suites. It wraps the places
where tests catch the exceptions they expect:

* ``unittest.case._AssertRaisesContext.__exit__`` (``assertRaises`` and
  ``assertRaisesRegex``, in both their context-manager and callable forms);
* pytest's ``raises`` context (``RaisesContext.__exit__``, or ``RaisesExc`` in
  newer pytest) and the callable form ``pytest.raises(E, func, ...)``.

Each exception seen there is appended, one JSON object a line, to the file
named by ``$ERRCAT_HARVEST_OUT`` (written with ``os.write`` on an ``O_APPEND``
descriptor, so that forked children and tests that swap ``sys.stdout`` do not
disturb it). What is written: the class as a traceback prints it, ``str()`` of
the exception, the innermost frame of its traceback (the raise site: file,
line, function), the whole ``traceback.format_exception`` text (chains
included) and the chain's classes. The same (site, message) is written once per
process, and at most ``_PER_SITE`` messages per site, so that a test that
loops over thousands of bad inputs does not flood the corpus.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from types import FrameType, TracebackType
from typing import Any

_PER_SITE = 25
_MAX_TEXT = 20_000


class _State:
    """What the hook remembers in one process."""

    seen: set[tuple[str, int, str]] = set()  # noqa: RUF012 - one process-wide set
    per_site: dict[tuple[str, int], int] = {}  # noqa: RUF012 - one process-wide table
    fd: int | None = None
    busy = False


def class_name(exc: BaseException) -> str:
    """The exception class as ``traceback`` prints it (module-qualified unless builtin)."""
    cls = type(exc)
    module = getattr(cls, "__module__", None)
    qualname = getattr(cls, "__qualname__", cls.__name__)
    if module in (None, "builtins", "__main__"):
        return str(qualname)
    return f"{module}.{qualname}"


def _message(exc: BaseException) -> str | None:
    try:
        return str(exc)
    except Exception:  # a broken __str__: traceback prints <exception str() failed>
        return None


def _innermost(tb: TracebackType | None) -> tuple[str, int, str, str] | None:
    if tb is None:
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    qualname = getattr(code, "co_qualname", code.co_name)
    return code.co_filename, tb.tb_lineno, code.co_name, qualname


def _chain(exc: BaseException) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen = {id(exc)}
    current: BaseException | None = exc
    while current is not None:
        cause = current.__cause__
        link = "cause"
        if cause is None and not current.__suppress_context__:
            cause = current.__context__
            link = "context"
        if cause is None or id(cause) in seen:
            break
        seen.add(id(cause))
        site = _innermost(cause.__traceback__)
        out.append(
            {
                "link": link,
                "error_class": class_name(cause),
                "message": _message(cause),
                "file": site[0] if site else None,
                "line": site[1] if site else None,
            }
        )
        current = cause
    return out


def _write(obj: dict[str, Any]) -> None:
    path = os.environ.get("ERRCAT_HARVEST_OUT")
    if not path:
        return
    if _State.fd is None:
        _State.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.write(_State.fd, (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8", "replace"))


def record(exc: BaseException | None, how: str) -> None:
    """Write one caught exception (never raises: a test run must not notice the hook)."""
    if exc is None or _State.busy or not isinstance(exc, BaseException):
        return
    _State.busy = True
    try:
        site = _innermost(exc.__traceback__)
        if site is None:
            return
        message = _message(exc)
        key = (site[0], site[1], message or "")
        if key in _State.seen:
            return
        count = _State.per_site.get(key[:2], 0)
        if count >= _PER_SITE:
            return
        _State.seen.add(key)
        _State.per_site[key[:2]] = count + 1
        if isinstance(exc, RecursionError):
            return  # thousands of frames, and never a message worth matching
        text = "".join(traceback.format_exception(exc))
        if len(text) > _MAX_TEXT:
            return
        _write(
            {
                "how": how,
                "error_class": class_name(exc),
                "message": message,
                "exception_only": "".join(traceback.format_exception_only(type(exc), exc)),
                "file": site[0],
                "line": site[1],
                "function": site[2],
                "qualname": site[3],
                "traceback": text,
                "chain": _chain(exc),
                "test": os.environ.get("PYTEST_CURRENT_TEST") or _current_test(),
            }
        )
    except Exception:
        pass
    finally:
        _State.busy = False


def _current_test() -> str | None:
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_name
        if name.startswith("test"):
            return f"{frame.f_code.co_filename}::{name}"
        frame = frame.f_back
    return None


def _patch_unittest() -> None:
    from unittest import case

    cls = case._AssertRaisesContext
    if getattr(cls.__exit__, "_errcat_harvest", False):
        return
    original = cls.__exit__

    def exit_(self: Any, exc_type: Any, exc_value: Any, tb: Any) -> Any:
        if exc_value is None and exc_type is not None:
            try:
                exc_value = exc_type()
            except Exception:
                exc_value = None
        if exc_value is not None and exc_value.__traceback__ is None:
            exc_value = exc_value.with_traceback(tb)
        record(exc_value, "unittest")
        return original(self, exc_type, exc_value, tb)

    exit_._errcat_harvest = True  # type: ignore[attr-defined]
    cls.__exit__ = exit_  # type: ignore[method-assign]


def _patch_pytest() -> None:
    import pytest

    for module_name, class_names in (
        ("_pytest.python_api", ("RaisesContext",)),
        ("_pytest.raises", ("RaisesExc", "RaisesContext", "RaisesGroup")),
    ):
        module = sys.modules.get(module_name)
        if module is None:
            try:
                module = __import__(module_name, fromlist=["_"])
            except ImportError:
                continue
        for class_name_ in class_names:
            cls = getattr(module, class_name_, None)
            if cls is None or getattr(cls.__exit__, "_errcat_harvest", False):
                continue
            _wrap_exit(cls)
    original_raises = pytest.raises
    if getattr(original_raises, "_errcat_harvest", False):
        return

    def raises(*args: Any, **kwargs: Any) -> Any:
        result = original_raises(*args, **kwargs)
        if len(args) > 1 or "func" in kwargs:  # the callable form: already raised and caught
            value = getattr(result, "value", None)
            record(value, "pytest")
        return result

    raises._errcat_harvest = True  # type: ignore[attr-defined]
    pytest.raises = raises


def _wrap_exit(cls: Any) -> None:
    original = cls.__exit__

    def exit_(self: Any, exc_type: Any, exc_value: Any, tb: Any) -> Any:
        if exc_value is not None and exc_value.__traceback__ is None:
            exc_value = exc_value.with_traceback(tb)
        record(exc_value, "pytest")
        return original(self, exc_type, exc_value, tb)

    exit_._errcat_harvest = True  # type: ignore[attr-defined]
    cls.__exit__ = exit_


def install() -> None:
    """Wrap unittest's (and, when it is importable, pytest's) expected-exception contexts."""
    _patch_unittest()


def pytest_configure(config: Any) -> None:
    """Pytest plugin entry point: wrap ``pytest.raises`` once pytest is loaded."""
    del config
    _patch_pytest()
