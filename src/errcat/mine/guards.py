"""The guard of a raise site: the ``if`` tests on the path to it and the locals they read.

The scanner keeps a stack of the tests around the statement it is at (an
``if`` body pushes its test as true, an ``else`` as false, and an ``if`` whose
body ends in ``return``, ``raise``, ``continue`` or ``break`` makes the rest of
its block conditional on the test being false). At a raise site,
:func:`build_guard` turns that stack, the function's docstring and the
assignments of the locals the tests read into a picklable :class:`_Guard`.

>>> import ast
>>> test = ast.parse("mode not in MODES", mode="eval").body
>>> defs = {"mode": [(ast.parse("args.mode", mode="eval").body, (), "=")]}
>>> g = build_guard(
...     "f",
...     doc="Check it. More.",
...     params=("args",),
...     clauses=[(test, True)],
...     defs=defs,
...     handler=None,
... )
>>> g.doc, g.clauses, [(d.name, d.expr) for d in g.defs]
('Check it.', (('mode not in MODES', True),), [('mode', 'args.mode')])
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Mapping, Sequence

from errcat.mine.facts import _Def, _Guard

_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_SENTENCE = re.compile(r"(?<=[.!?])\s")
_MAX_DEFS = 16
_MAX_DEPTH = 3

#: A clause on the scanner's stack: a test and the truth value the path needs.
Clause = tuple[ast.expr, bool]
#: An assignment the scanner saw: the value, the clauses around it, its kind.
Assignment = tuple[ast.expr, tuple[Clause, ...], str]


def exits(body: Sequence[ast.stmt]) -> bool:
    r"""Whether a block always leaves its enclosing block (its last statement jumps away).

    >>> exits(ast.parse("x = 1\nreturn x").body), exits(ast.parse("x = 1").body)
    (True, False)
    """
    return bool(body) and isinstance(body[-1], _EXITS)


def first_sentence(doc: str | None) -> str | None:
    r"""The first sentence of a docstring, on one line (``None`` for none).

    >>> first_sentence("Reject an explicit\n    or inherited backend.  More here.")
    'Reject an explicit or inherited backend.'
    """
    if not doc:
        return None
    paragraph = " ".join(doc.strip().split("\n\n", 1)[0].split())
    if not paragraph:
        return None
    return _SENTENCE.split(paragraph, maxsplit=1)[0]


@functools.lru_cache(maxsize=4096)
def _names(node: ast.AST) -> tuple[str, ...]:
    """The names an expression reads (cached: a local's value is followed from many sites)."""
    return tuple(n.id for n in ast.walk(node) if isinstance(n, ast.Name))


def followed_defs(nodes: Sequence[ast.AST], defs: Mapping[str, Sequence[Assignment]]) -> list[_Def]:
    """The assignments of the locals some expressions read, followed back a few steps.

    >>> value = ast.parse("cfg.tp_size", mode="eval").body
    >>> [(d.name, d.expr) for d in followed_defs([ast.Name("tp")], {"tp": [(value, (), "=")]})]
    [('tp', 'cfg.tp_size')]
    """
    found: list[_Def] = []
    seen: set[str] = set()
    todo = [name for node in nodes for name in _names(node)] if defs else []
    for _depth in range(_MAX_DEPTH):
        following: list[str] = []
        for name in todo:
            if name in seen or name not in defs:
                continue
            seen.add(name)
            for value, around, kind in defs[name]:
                if len(found) >= _MAX_DEFS:
                    break
                where = tuple((ast.unparse(t), h) for t, h in around)
                found.append(_Def(name, ast.unparse(value), where, kind))
                following.extend(_names(value))
                following.extend(n for t, _ in around for n in _names(t))
        todo = following
    return found


def build_guard(
    function: str,
    *,
    doc: str | None,
    params: Sequence[str],
    clauses: Sequence[Clause],
    defs: Mapping[str, Sequence[Assignment]],
    handler: str | None,
    module_level: bool = False,
) -> _Guard:
    """The guard of a site from the scanner's state at it (see the module docstring)."""
    texts = tuple((ast.unparse(test), holds) for test, holds in clauses)
    found = followed_defs([test for test, _ in clauses], defs)
    return _Guard(
        function=function,
        doc=first_sentence(doc),
        params=tuple(params),
        clauses=texts,
        defs=tuple(found),
        handler=handler,
        module_level=module_level,
    )
