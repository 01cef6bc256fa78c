r"""Exception classes whose names do not say so: ``StopIteration``, ``re.error``, ``error_proto``.

A bare line is an event when its class name ends in ``Error``, ``Exception``
or ``Warning``: the scanner finds those by their words. A class named
otherwise is an exception class when the catalog knows it, when Python's
standard library defines it (:data:`STDLIB_CLASSES`), or when a traceback
earlier in the same file ended in it. Such names are found in a block of
text by one search over the block reversed (each ``": "`` there is checked
against a trie of the names, spelled backwards), so the cost does not grow
with the number of names.

A name is taken as written when it is the class's full name, a dotted tail
of it (``exceptions.Timeout``), or its bare name when that cannot be an
ordinary word: a builtin (``StopIteration``) or a name of two capitalised
words or more (``DivisionByZero``); ``Timeout: 3 s`` or ``error: refused``
in a log are not events unless written ``requests.Timeout:``, ``re.error:``.

>>> known = KnownClasses(["requests.exceptions.Timeout"])
>>> lines = ["re.error: bad escape", "Timeout: 3 s", "exceptions.Timeout: 3 s", "x.Timeout: 3"]
>>> [known.written(line) for line in lines]
['re.error', None, 'exceptions.Timeout', None]
>>> text = "INFO ok\nStopIteration: 8\nINFO Timeout: 3 s\n"
>>> [text[at : text.index("\n", at)] for at in known.lines_in(text, 0, len(text))]
['StopIteration: 8']
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable
from typing import Any, Final

__all__ = ["BUILTIN_CLASSES", "STDLIB_CLASSES", "KnownClasses", "catalog_classes", "is_odd"]

#: Builtin exception classes whose names do not end in Error, Exception or Warning.
BUILTIN_CLASSES: Final = frozenset(
    {"GeneratorExit", "KeyboardInterrupt", "StopAsyncIteration", "StopIteration", "SystemExit"}
)

#: The standard library's exception classes named otherwise (Python 3.11, every module).
STDLIB_CLASSES: Final = (
    "asyncio.QueueEmpty",
    "asyncio.QueueFull",
    "audioop.error",
    "bdb.BdbQuit",
    "binascii.Incomplete",
    "copy.error",
    "curses.error",
    "decimal.Clamped",
    "decimal.ConversionSyntax",
    "decimal.DivisionByZero",
    "decimal.DivisionImpossible",
    "decimal.DivisionUndefined",
    "decimal.FloatOperation",
    "decimal.Inexact",
    "decimal.InvalidContext",
    "decimal.InvalidOperation",
    "decimal.Overflow",
    "decimal.Rounded",
    "decimal.Subnormal",
    "decimal.Underflow",
    "doctest.DocTestFailure",
    "ftplib.error_perm",
    "ftplib.error_proto",
    "ftplib.error_reply",
    "ftplib.error_temp",
    "getopt.error",
    "gzip.BadGzipFile",
    "inspect.EndOfBlock",
    "io.UnsupportedOperation",
    "multiprocessing.BufferTooShort",
    "pdb.Restart",
    "poplib.error_proto",
    "queue.Empty",
    "queue.Full",
    "re.error",
    "smtplib.SMTPRecipientsRefused",
    "smtplib.SMTPSenderRefused",
    "smtplib.SMTPServerDisconnected",
    "socket.gaierror",
    "socket.herror",
    "struct.error",
    "subprocess.TimeoutExpired",
    "tokenize.StopTokenizing",
    "unittest.SkipTest",
    "zipfile.BadZipFile",
    "zipfile.BadZipfile",
    "zipfile.LargeZipFile",
    "zipfile.error",
    "zlib.error",
)

_SUFFIXED = re.compile(r"(?:Error|Exception|Warning)\w*$")
_HUMPS = re.compile(r"[A-Z][a-z0-9]+")
# A class name as written before its ": " (or at the end of the line).
_WRITTEN = re.compile(r"(?<![\w.])((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)(?=:(?:[ \t\r]|$))")


def is_odd(name: str) -> bool:
    """True for a class name not ending in ``Error``, ``Exception``, ``Warning`` or ``Group``.

    >>> is_odd("re.error"), is_odd("ValueError"), is_odd("ExceptionGroup")
    (True, False, False)
    """
    short = name.rsplit(".", 1)[-1]
    return bool(short) and _SUFFIXED.search(short) is None and not short.endswith("Group")


def _bare_is_enough(short: str) -> bool:
    """Whether a class's bare name, written alone, can only be that class."""
    return short in BUILTIN_CLASSES or len(_HUMPS.findall(short)) >= 2


def _trie(words: Iterable[str]) -> str:
    """A regex alternation of ``words`` merged by their common beginnings."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        ends = "" in node
        branches: list[str] = [re.escape(c) + emit(sub) for c, sub in sorted(node.items()) if c]
        if not branches:
            return ""
        if len(branches) == 1 and not ends:
            return branches[0]
        return "(?:" + "|".join(branches) + ")" + ("?" if ends else "")

    return emit(root)


class KnownClasses:
    """The odd exception class names a scan knows, and where they start lines of a block."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._full: set[str] = set()  # full names, and each dotted tail of them
        self._bare: set[str] = set()  # bare names that are enough alone
        self._shorts: set[str] = set()
        self._search: tuple[re.Pattern[str], ...] | None = None
        for name in (*BUILTIN_CLASSES, *STDLIB_CLASSES, *names):
            self.learn(name)

    @property
    def size(self) -> int:
        """How many names are known (it grows as a scan learns names)."""
        return len(self._full) + len(self._bare)

    def learn(self, name: str) -> None:
        """Know one more class (a traceback in the file ended in it)."""
        if not is_odd(name) or name in self._full:
            return
        parts = name.split(".")
        for start in range(len(parts) - 1):
            self._full.add(".".join(parts[start:]))
        short = parts[-1]
        if len(parts) == 1 or _bare_is_enough(short):
            self._bare.add(short)
        if short not in self._shorts:
            self._shorts.add(short)
            self._search = None

    def written(self, line: str) -> str | None:
        """The known class a line's ``Name: ...`` is written with, if it is one."""
        for m in _WRITTEN.finditer(line):
            name = m.group(1)
            if name in self._full or name in self._bare:
                return name
        return None

    def lines_in(self, text: str, start: int, stop: int) -> list[int]:
        """Where the lines of ``text[start:stop]`` that hold a known name before ``: `` start."""
        if self._search is None:
            # Searched in the text reversed, where each candidate begins with a literal
            # (" :", or the line end before ":" for a name that ends its line), found by a
            # fast literal search; then comes the name spelled backwards (a trie).
            spelled = _trie(s[::-1] for s in sorted(self._shorts))
            self._search = tuple(
                re.compile(re.escape(end) + ":" + spelled + r"(?!\w)") for end in (" ", "\n", "\r")
            )
        piece = text[start:stop]
        backwards = piece[::-1]
        found: set[int] = set()
        size = len(piece)
        for search in self._search:
            for m in search.finditer(backwards):
                at = start + size - m.end()  # where the name starts, forwards
                line = text.rfind("\n", start, at) + 1 or start
                if line not in found:
                    end = text.find("\n", at, stop)
                    if self.written(text[line : stop if end < 0 else end]) is not None:
                        found.add(line)
        return sorted(found)


# The catalog classes of each store (a store is read once per process for them).
_BY_STORE: weakref.WeakKeyDictionary[object, frozenset[str]] = weakref.WeakKeyDictionary()


def catalog_classes(stores: Iterable[object]) -> frozenset[str]:
    """The odd class names the records of these stores are raised as."""
    found: set[str] = set()
    for store in stores:
        known = _BY_STORE.get(store)
        if known is None:
            summary = getattr(store, "summary")  # noqa: B009 - any Store
            known = frozenset(
                c
                for c in {summary(n).error_class for n in range(len(store))}  # type: ignore[arg-type]
                if is_odd(c)
            )
            _BY_STORE[store] = known
        found |= known
    return frozenset(found)
