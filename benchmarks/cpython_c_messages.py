"""The messages CPython's C code raises, read from its C sources (for the background model).

Run with ``python benchmarks/cpython_c_messages.py DIR`` to print what it finds,
or let ``build_background.py --c-source DIR`` read it. ``DIR`` is an unpacked
CPython source tree (Debian's ``apt-get source python3.11`` gives
``python3.11_3.11.2.orig.tar.gz``); its ``Objects/``, ``Python/`` and
``Modules/`` C files are read.

The learned table of C's wordings (``build_background.py --builtin``) holds
only what a test suite happened to raise in its fit half, so the commonest
errors of all could be missing from it (``ZeroDivisionError: division by
zero``, ``IndexError: tuple index out of range``), and a project's copy of
them then answered a bare line as if only that project raised it. The source
holds every one: each ``PyErr_SetString`` and ``PyErr_Format`` call (and their
``_PyErr_`` forms taking the thread state first) on a built-in exception class
with a literal message. A format's conversions (``%.200s``, ``%zd``, ``%R``)
are values: they are left out of the wording, as
:func:`errcat.background.builtin_wording` leaves numbers and quoted values out
of a printed message. A conversion printed without quotes holds a name or a
repr whose words the printed message has and the wording does not; such a
message simply finds no wording (a miss, never a wrong C origin).

>>> found = messages_in('PyErr_SetString(PyExc_ZeroDivisionError,\\n    "division by zero");')
>>> found
[('ZeroDivisionError', 'division by zero')]
>>> messages_in('_PyErr_Format(tstate, PyExc_TypeError, "%.200s() takes " "no arguments", f);')
[('TypeError', '%.200s() takes no arguments')]
>>> wording_of("'%.200s' object is not iterable")
'object is not iterable'
>>> wording_of("maximum recursion depth exceeded%s")
'maximum recursion depth exceeded'
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from errcat.background import builtin_wording

#: The folders of a CPython source tree whose C files raise the interpreter's errors.
FOLDERS = ("Objects", "Python", "Modules")

#: A call that sets a built-in exception with a literal message (adjacent literals joined).
_CALL = re.compile(
    r"\b_?PyErr_(?:SetString|Format)\(\s*(?:tstate\s*,\s*)?PyExc_(\w+)\s*,\s*"
    r"((?:\"(?:[^\"\\\n]|\\.)*\"\s*)+)"
)
_LITERAL = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"")
#: A printf conversion as CPython's PyUnicode_FromFormat reads them.
_CONVERSION = re.compile(r"%[-#0 +]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j)?[a-zA-Z%]")


def messages_in(source: str) -> list[tuple[str, str]]:
    """The (class, format) of each built-in exception set with a literal message in C text."""
    out = []
    for found in _CALL.finditer(source):
        text = "".join(_LITERAL.findall(found.group(2)))
        out.append((found.group(1), text.replace('\\"', '"').replace("\\n", " ")))
    return out


def wording_of(fmt: str) -> str:
    """A format's wording as :func:`errcat.background.builtin_wording` reads a printed message."""
    return builtin_wording(_CONVERSION.sub(lambda m: "%" if m.group() == "%%" else " 0 ", fmt))


def example_of(fmt: str) -> str | None:
    """A format as C prints it: a number for each numeric value, ``x`` for each quoted one.

    None when a value is printed without quotes (its words would be the printed
    message's, not the format's, so no example could stand for them).

    >>> example_of("'%.200s' object is not iterable"), example_of("division by zero")
    ("'x' object is not iterable", 'division by zero')
    >>> example_of("%.200s() takes no arguments (%zd given)") is None
    True
    """
    out: list[str] = []
    last = 0
    for found in _CONVERSION.finditer(fmt):
        out.append(fmt[last : found.start()])
        last = found.end()
        kind = found.group()[-1]
        if kind == "%":
            out.append("%")
        elif kind in "diuxXozlp":
            out.append("0")
        elif fmt[found.start() - 1 : found.start()] in ("'", '"'):
            out.append("x")
        else:
            return None
    out.append(fmt[last:])
    return "".join(out)


def c_messages(root: Path) -> Iterator[tuple[str, str]]:
    """Every (class, format) the C files of a CPython source tree raise, file by file."""
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.c")):
            yield from messages_in(path.read_text(encoding="utf-8", errors="replace"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("root", type=Path, help="an unpacked CPython source tree")
    args = parser.parse_args(argv)
    if not (args.root / "Objects").is_dir():
        parser.error(f"{args.root} is not a CPython source tree (it has no Objects/ folder)")
    found = sorted({(cls, wording_of(fmt)) for cls, fmt in c_messages(args.root)})
    for cls, wording in found:
        print(f"{cls}\t{wording}")
    print(f"{len(found)} (class, wording) pairs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
