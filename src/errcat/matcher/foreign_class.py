"""A package's class answered by the standard library's class of the same name: not its raiser.

A paste that prints its class with its module (``requests.exceptions.JSONDecodeError``)
says which package's class was raised. A record whose class has the same short name
in a module of the standard library (CPython's ``json.decoder.JSONDecodeError``) is
another class, and the standard library never raises a third-party package's class:
``requests`` re-raises the decoder's error as its own, with the same words, so the
words alone do not tell them apart, but the module does. Such a record is not the
paste's raiser, however well its message fits.

Only the standard library's side is ruled out: one third-party package re-raising
another's error under its own class (``httpx.RemoteProtocolError`` around
``httpcore``'s) leaves the wrapped package's record the answer, as before, and a
class named with another module of the standard library (``re.error`` is the
record's ``source.error`` read off a variable, ``_queue.Empty`` is ``queue.Empty``)
agrees as much as it did.

>>> foreign_module("requests.exceptions.JSONDecodeError", "json.decoder.JSONDecodeError")
True
>>> foreign_module("httpx.RemoteProtocolError", "httpcore.RemoteProtocolError")
False
>>> foreign_module("JSONDecodeError", "json.decoder.JSONDecodeError")
False
>>> foreign_module("re.error", "source.error")
False
"""

from __future__ import annotations

import sys

__all__ = ["foreign_module", "stdlib_module"]


def stdlib_module(name: str) -> bool:
    """Whether a dotted class name's top-level module is the standard library's.

    >>> stdlib_module("json.decoder.JSONDecodeError"), stdlib_module("_queue.Empty")
    (True, True)
    >>> stdlib_module("requests.exceptions.JSONDecodeError"), stdlib_module("source.error")
    (False, False)
    """
    top = name.split(".", 1)[0]
    return top in sys.stdlib_module_names or top.lstrip("_") in sys.stdlib_module_names


def foreign_module(got: str | None, want: str | None) -> bool:
    """Whether a report's package class and a record's standard library class share a name.

    Both are named with a module (a bare name may be either) and share their last
    part; the record's module is the standard library's, the report's is not.

    >>> foreign_module("zqa.errors.ZqError", "json.ZqError")
    True
    >>> foreign_module("zqa.errors.ZqError", "zqb.ZqError"), foreign_module("zqa.X", "json.Y")
    (False, False)
    """
    if not got or not want or "." not in got or "." not in want:
        return False
    if got.rsplit(".", 1)[-1] != want.rsplit(".", 1)[-1]:
        return False
    return stdlib_module(want) and not stdlib_module(got)
