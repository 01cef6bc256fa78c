"""An exception class cut at its start: ``alueError: ...`` read as ``ValueError: ...``.

A chunk of a thread or an issue title that begins mid-word keeps the end of the
first exception line's class only (``[Bug]: alueError: Call to add_lora method
failed: ...``). Python prints no class that starts with a lower-case letter and
ends in ``Error``, ``Exception`` or ``Warning`` without a module before it; such
a name is the end of a builtin exception's name when exactly one builtin ends
with it (:func:`restore_cut_class`), and the report carries that class. A name
that ends several builtins (``rror``) or none (``cudaError``) is left as printed.

>>> restore_cut_class("alueError"), restore_cut_class("eyError"), restore_cut_class("rror")
('ValueError', 'KeyError', 'rror')
>>> restore_cut_class("ValueError"), restore_cut_class("zqError"), restore_cut_class("mod.xError")
('ValueError', 'zqError', 'mod.xError')
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Sequence
from dataclasses import replace

from errcat.extract.reports import ExceptionReport

__all__ = ["restore_cut_class", "restore_cut_classes"]

#: The builtin exception classes, by name.
_BUILTIN_NAMES: tuple[str, ...] = tuple(
    sorted(
        name
        for name, value in vars(builtins).items()
        if isinstance(value, type) and issubclass(value, BaseException)
    )
)
#: A class name cut at its start: lower-case first letter, no module, an error's ending.
_CUT_NAME = re.compile(r"[a-z][A-Za-z]*(?:Error|Exception|Warning)")
#: A cut name must keep this many characters to tell one builtin.
_MIN_KEPT = 4


def restore_cut_class(name: str) -> str:
    """The builtin exception class whose name ends with ``name``, if ``name`` is cut and one does.

    ``name`` itself otherwise.
    """
    if len(name) < _MIN_KEPT or not _CUT_NAME.fullmatch(name):
        return name
    ending = [full for full in _BUILTIN_NAMES if full.endswith(name) and full != name]
    return ending[0] if len(ending) == 1 else name


def restore_cut_classes(reports: Sequence[ExceptionReport]) -> list[ExceptionReport]:
    """``reports`` with each class cut at its start restored (:func:`restore_cut_class`).

    >>> [
    ...     r.error_class
    ...     for r in restore_cut_classes([ExceptionReport("ssertionError", "x", (), 0, 1, "line")])
    ... ]
    ['AssertionError']
    """
    out = []
    for report in reports:
        name = report.error_class
        restored = restore_cut_class(name) if name and name[0].islower() else name
        out.append(report if restored == name else replace(report, error_class=restored))
    return out
