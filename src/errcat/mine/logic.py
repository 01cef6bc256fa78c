r"""The algebra of a guard's tests: parse, negate, split into conjuncts; a few words for them.

A guard's tests are stored as source text (:class:`errcat.mine.facts._Guard`);
:func:`parse_test` reads one back, :func:`negate` pushes a negation inwards
(De Morgan, inverted comparisons) and :func:`conjuncts` splits a test into the
parts that must all hold.

>>> ast.unparse(negate(parse_test("a == 1 and not b")))
'a != 1 or b'
>>> [ast.unparse(c) for c in conjuncts(parse_test("a and 0 < c < 2"))]
['a', '0 < c', 'c < 2']
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Sequence

__all__ = [
    "INVERSE",
    "ORDER_WORDS",
    "article",
    "compare",
    "conjuncts",
    "is_none",
    "negate",
    "or_list",
    "pairs",
    "parse_test",
]

INVERSE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
ORDER_WORDS = {
    ast.Lt: "less than",
    ast.LtE: "at most",
    ast.Gt: "greater than",
    ast.GtE: "at least",
}


@functools.lru_cache(maxsize=8192)
def parse_test(source: str) -> ast.expr:
    r"""The expression of a test's source (as stored in a guard).

    >>> ast.unparse(parse_test("(a  and\n b)"))
    'a and b'
    """
    return ast.parse(source.strip(), mode="eval").body


def negate(node: ast.expr) -> ast.expr:
    """The negation of a test, pushed inwards (``not (a and b)`` -> ``not a or not b``).

    >>> ast.unparse(negate(parse_test("0 < x < 3")))
    '0 >= x or x >= 3'
    """
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return node.operand
    if isinstance(node, ast.BoolOp):
        op: ast.boolop = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        return ast.BoolOp(op=op, values=[negate(v) for v in node.values])
    if isinstance(node, ast.Compare):
        found = pairs(node)
        if len(found) == 1:
            left, op_, right = found[0]
            return ast.Compare(left=left, ops=[INVERSE[type(op_)]()], comparators=[right])
        return ast.BoolOp(op=ast.Or(), values=[negate(compare(*p)) for p in found])
    if isinstance(node, ast.Constant):
        return ast.Constant(value=not node.value)
    return ast.UnaryOp(op=ast.Not(), operand=node)


def negates_inwards(node: ast.expr) -> bool:
    """True when :func:`negate` pushes a ``not`` into ``node``.

    ``not -x`` stays as it is: negating a unary minus would wrap it in ``not`` again,
    and a reader that negates until it reaches a predicate would never stop.

    >>> [negates_inwards(parse_test(s)) for s in ("a and b", "not a", "-x", "a < 1")]
    [True, True, False, True]
    """
    return isinstance(node, (ast.BoolOp, ast.Compare)) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    )


def pairs(node: ast.Compare) -> list[tuple[ast.expr, ast.cmpop, ast.expr]]:
    """The single comparisons of a chain (``a < b < c``: ``a < b``, ``b < c``)."""
    lefts = [node.left, *node.comparators[:-1]]
    return list(zip(lefts, node.ops, node.comparators, strict=True))


def compare(left: ast.expr, op: ast.cmpop, right: ast.expr) -> ast.Compare:
    """One comparison node."""
    return ast.Compare(left=left, ops=[op], comparators=[right])


def conjuncts(node: ast.expr) -> list[ast.expr]:
    """The parts of a test that must all hold (``a and b`` -> ``[a, b]``; chains split).

    >>> [ast.unparse(c) for c in conjuncts(parse_test("a and (b and 0 < c < 2)"))]
    ['a', 'b', '0 < c', 'c < 2']
    """
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [c for v in node.values for c in conjuncts(v)]
    if isinstance(node, ast.Compare) and len(node.ops) > 1:
        return [compare(*p) for p in pairs(node)]
    return [node]


def article(word: str) -> str:
    """``a`` or ``an`` before a word (``an ngram``: a letter named with a vowel sound).

    >>> [article(w) for w in ("int", "str", "ngram", "mxfp8", "nice")]
    ['an int', 'a str', 'an ngram', 'an mxfp8', 'a nice']
    """
    low = word.lower()
    spelled = low[:1] in "nmx" and low[1:2] not in ("", *"aeiouy")
    return ("an " if low[:1] in "aeiou" or spelled else "a ") + word


def or_list(items: Sequence[str]) -> str:
    """Items joined for a sentence: ``a or b``, ``a, b or c``.

    >>> or_list(["a"]), or_list(["a", "b", "c"])
    ('a', 'a, b or c')
    """
    if len(items) <= 2:
        return " or ".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def is_none(node: ast.expr) -> bool:
    """Whether a node is the constant ``None``."""
    return isinstance(node, ast.Constant) and node.value is None
