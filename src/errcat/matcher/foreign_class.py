"""A class named with another project's module: the same name, a different exception.

A paste that prints its class with its module (``requests.exceptions.JSONDecodeError``)
says which project defined it. A record whose class has the same short name under a
module of another top-level package (CPython's ``json.decoder.JSONDecodeError``) is
another class: ``requests`` re-raises the decoder's error as its own, with the same
words, so the words alone do not tell them apart, but the module does. Such a record
is not the paste's raiser, however well its message fits; a record of the named
project (when the catalog holds one) is.

Two top-level names count as one project when one is the other with an underscore
part added or removed: a package and its compiled core or fork (``pydantic`` and
``pydantic_core``, ``safetensors`` and ``safetensors_rust``, ``vllm`` and
``vllm_ascend``) share their classes through re-exports; so do the standard
library's modules (``re.error`` is ``sre_constants.error``).

The record's class must name a module, too: the miner writes the class expression
of a ``raise`` as it reads (``raise source.error(...)`` in ``re/_parser.py``, where
``source`` is a variable), so a record's dotted class counts only when its top name
is a part of the record's file path, a standard library module, or its repository's
name (:func:`names_module`).

>>> foreign_module("requests.exceptions.JSONDecodeError", "json.decoder.JSONDecodeError")
True
>>> foreign_module("pydantic_core._pydantic_core.ValidationError", "pydantic.ValidationError")
False
>>> foreign_module("JSONDecodeError", "json.decoder.JSONDecodeError")
False
>>> foreign_module("re.error", "source.error", "Lib/re/_parser.py", "python/cpython")
False
"""

from __future__ import annotations

import re
import sys

__all__ = ["foreign_module", "names_module", "same_project"]

_PATH_PART = re.compile(r"[\w.-]+")


def _top(name: str) -> str:
    """The top-level package of a dotted class name, without its leading underscores."""
    return name.split(".", 1)[0].lstrip("_").lower()


def same_project(first: str, second: str) -> bool:
    """Whether two top-level package names are one project's (one extends the other by ``_``).

    The standard library's modules are one project.

    >>> same_project("pydantic", "pydantic_core"), same_project("re", "sre_constants")
    (True, True)
    >>> same_project("requests", "json"), same_project("torch", "torchvision")
    (False, False)
    """
    if first in sys.stdlib_module_names and second in sys.stdlib_module_names:
        return True
    a, b = first.lstrip("_").lower(), second.lstrip("_").lower()
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return bool(short) and long.startswith(short + "_")


def names_module(want: str, file_path: str = "", repo: str = "") -> bool:
    """Whether a record's dotted class opens with a module's name, not a variable's.

    Its top name is a part of the record's file path (``json`` of ``Lib/json/decoder.py``),
    a standard library module, or the start of its repository's name; with neither a
    path nor a repository known, any name counts.

    >>> names_module("json.decoder.JSONDecodeError", "Lib/json/decoder.py")
    True
    >>> names_module("source.error", "Lib/re/_parser.py", "python/cpython")
    False
    >>> names_module("zqa.ZqError", "", "zqorg/zqa-python"), names_module("zqa.ZqError")
    (True, True)
    """
    top = _top(want)
    if not file_path and not repo:
        return True
    if top in sys.stdlib_module_names:
        return True
    parts = {p.split(".", 1)[0].lstrip("_").lower() for p in _PATH_PART.findall(file_path)}
    name = repo.rsplit("/", 1)[-1].lower().replace("-", "_")
    return top in parts or name.startswith(top)


def foreign_module(got: str | None, want: str | None, file_path: str = "", repo: str = "") -> bool:
    """Whether a report's class and a record's are the same short name in two projects' modules.

    Both must be named with a module (a bare name may be either; the record's must be
    a module's, :func:`names_module`, given its ``file_path`` and ``repo``) and share
    their last part; the top-level packages differ and are not one project
    (:func:`same_project`).

    >>> foreign_module("zqa.errors.ZqError", "zqb.errors.ZqError")
    True
    >>> foreign_module("zqa.errors.ZqError", "zqa.ZqError"), foreign_module("zqa.X", "zqb.Y")
    (False, False)
    """
    if not got or not want or "." not in got or "." not in want:
        return False
    if got.rsplit(".", 1)[-1] != want.rsplit(".", 1)[-1]:
        return False
    return not same_project(_top(got), _top(want)) and names_module(want, file_path, repo)
