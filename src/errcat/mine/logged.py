"""Log calls that report an error: ``logger.warning("Input prompt (%d tokens) is too long", n)``.

Engines log many of the errors users paste without raising them: a request
dropped for being too long, a KV cache full enough to preempt requests, a
worker that failed to start. Such a call is a site like a ``raise``: its line,
its guard and its message are known. The message is what :mod:`logging` prints,
the format string with the call's other arguments put in by ``%``, so a call
of several arguments reads as the expression ``fmt % (args...)``.

Only calls at level WARNING and above are sites (``info`` and ``debug`` lines
are not errors), on a receiver whose name says it logs (``logger``,
``self._log``, ``logging``, ``init_logger(__name__)``). INFO lines stay out even
when a few describe a problem: they are as many as the warnings (689 to 956 calls
in vllm's tree of 2026-05, 1,807 to 1,989 in sglang's) and nearly all report
progress (weights loaded, throughput, KV cache size), which a pasted log is full
of: as records they would answer a log with its routine lines. The few INFO
lines users paste as the error of a hang (vllm's ``No available shared memory
broadcast block found in %d seconds ...``) are curated by hand instead, under
the id the miner would give them (``curated/vllm-project__vllm.jsonl``).

>>> call = ast.parse('logger.warning("Input prompt (%d tokens) is too long", n)').body[0].value
>>> level, message = logged_call(call)
>>> level, ast.unparse(message)
('WARNING', "'Input prompt (%d tokens) is too long' % (n,)")
>>> logged_call(ast.parse("logger.info('ready')").body[0].value) is None
True
"""

from __future__ import annotations

import ast
import re
from typing import Final

from errcat.extract import extract_reports
from errcat.patterns import placeholder_names, render_template
from errcat.text import fold_whitespace

__all__ = ["logged_call", "prints_traceback", "reads_whole", "reports_an_error", "shows_caught"]

#: The level a logging method reports at, for the methods that report errors.
_METHOD_LEVELS: Final = {
    "warning": "WARNING",
    "warn": "WARNING",
    "warning_once": "WARNING",
    "error": "ERROR",
    "error_once": "ERROR",
    "exception": "ERROR",
    "critical": "CRITICAL",
    "fatal": "CRITICAL",
}


def _logs(receiver: ast.expr) -> bool:
    """Whether a method's receiver is a logger by its name (``logger``, ``self._log``)."""
    if isinstance(receiver, ast.Call):  # init_logger(__name__).warning(...)
        receiver = receiver.func
    if isinstance(receiver, ast.Attribute):
        name = receiver.attr
    elif isinstance(receiver, ast.Name):
        name = receiver.id
    else:
        return False
    name = name.lower().lstrip("_")
    return name in ("log", "logging") or name.endswith("logger")


def logged_call(call: ast.Call) -> tuple[str, ast.expr] | None:
    """The level and message expression of a call that logs an error, else ``None``.

    A call whose arguments are starred (``logger.error(*parts)``) or that has no
    message argument is not a site: what it prints is not known.

    >>> one = ast.parse("self.logger.error(f'Failed to load {name}')").body[0].value
    >>> ast.unparse(logged_call(one)[1])
    "f'Failed to load {name}'"
    >>> logged_call(ast.parse("warnings.warn('deprecated')").body[0].value) is None
    True
    """
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _METHOD_LEVELS:
        return None
    if not _logs(func.value) or not call.args:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    fmt, *rest = call.args
    if not rest:
        return _METHOD_LEVELS[func.attr], fmt
    values = ast.Tuple(elts=list(rest), ctx=ast.Load())
    message = ast.BinOp(left=fmt, op=ast.Mod(), right=values)
    return _METHOD_LEVELS[func.attr], ast.copy_location(message, fmt)


def prints_traceback(call: ast.Call) -> bool:
    """Whether a log call prints a traceback on the lines after its message.

    ``logger.exception(...)`` does, and so does any call given ``exc_info``
    (or ``stack_info``) other than a false constant.

    >>> def parse(text):
    ...     return ast.parse(text).body[0].value
    >>> prints_traceback(parse("logger.exception('Failed')"))
    True
    >>> prints_traceback(parse("logger.error('Failed', exc_info=True)"))
    True
    >>> prints_traceback(parse("logger.error('Failed', exc_info=False)"))
    False
    """
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "exception":
        return True
    for keyword in call.keywords:
        if keyword.arg in ("exc_info", "stack_info"):
            value = keyword.value
            return not (isinstance(value, ast.Constant) and not value.value)
    return False


def reads_whole(template: str) -> bool:
    r"""Whether a log line of ``template``, values put in, reads back as that message whole.

    A logged message that holds another error's line (``OpenAI Error: {e}. Waiting
    5 seconds...``, ``Failed to reach the server. Error: {e}``) reads as that
    ``Error: ...`` line: its text cannot find its record, and what a user pastes
    from it is the inner error's, which its own record answers. Such a call is
    not a site.

    >>> reads_whole("Input prompt ({n} tokens) is too long and exceeds limit of {limit}")
    True
    >>> reads_whole("OpenAI Error: {e}. Waiting 5 seconds...")
    False
    >>> reads_whole("FAILED to allocate {n} bytes.\nException:\n{traceback.format_exc()}")
    False
    """
    try:
        names = placeholder_names(template)
    except ValueError:
        return False
    sample = fold_whitespace(render_template(template, [f"value_{i}" for i in range(len(names))]))
    reports = extract_reports(sample)
    return len(reports) == 1 and reports[0].kind == "text" and reports[0].message == sample


#: A placeholder expression that prints a caught exception or its traceback.
_CAUGHT = re.compile(
    r"(?:^|[._])(?:e|ex|exc|err|error|exception|tb|trace|traceback|last_traceback)(?:\(\))?$"
    r"|format_exc\(\)$|get_exception_traceback\(\)$|format_exception\("
)


_STR_CALL = re.compile(r"(?:str|repr)\((.+)\)")


def shows_caught(template: str) -> bool:
    """Whether a logged message prints a caught exception (or its traceback) anywhere in it.

    >>> shows_caught("Failed to get world size with {e}, fallback to 1.")
    True
    >>> shows_caught("Failed to reach the server; retrying")
    False
    """
    try:
        names = placeholder_names(template)
    except ValueError:
        return False
    for name in names:
        expr = name.split("!")[0].split(":")[0].strip()
        inner = _STR_CALL.fullmatch(expr)
        if _CAUGHT.search(inner.group(1) if inner else expr):
            return True
    return False


def reports_an_error(template: str) -> bool:
    """Whether a logged message ends by printing a caught exception or its traceback.

    ``Scheduler hit an exception: {traceback}`` reports the error above it, as a
    wrapper does: the paste's own cause answers first (its record is tagged
    ``errcat:wrapper``).

    >>> reports_an_error("Scheduler hit an exception: {get_exception_traceback()}")
    True
    >>> reports_an_error("Input prompt ({n} tokens) is too long")
    False
    """
    try:
        names = placeholder_names(template)
    except ValueError:
        return False
    if not names or not template.rstrip().endswith("}"):
        return False
    last = names[-1].split("!")[0].split(":")[0].strip()
    inner = _STR_CALL.fullmatch(last)
    return bool(_CAUGHT.search(inner.group(1) if inner else last))
