"""Small readers of a guard's terms: option levers, capability bounds, ``any``/``all`` loops.

:class:`errcat.mine.conditions.Reader` builds on these; they read one node or one
option each and hold no state.

>>> import ast
>>> found = each_item(ast.parse("any(a in S for a in L)", mode="eval").body)
>>> found[0], ast.unparse(found[1]), ast.unparse(found[3])
('any', 'L', 'S')
>>> capability(ast.parse("has_device_capability(90)", mode="eval").body)
'90'
>>> shown_items([str(n) for n in range(14)])[-1]
'… (14 in all)'
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from errcat.mine.facts import _Option
from errcat.mine.levers import Ref
from errcat.mine.logic import or_list

__all__ = [
    "MAX_ITEMS_SHOWN",
    "bound_ref",
    "callee",
    "capability",
    "each_item",
    "option_ref",
    "shown_items",
]


#: At most this many values of a collection are shown in a sentence.
MAX_ITEMS_SHOWN = 12


def shown_items(items: Sequence[str]) -> list[str]:
    """``items``, or the first :data:`MAX_ITEMS_SHOWN` of them and how many there are."""
    if len(items) <= MAX_ITEMS_SHOWN:
        return list(items)
    return [*items[:MAX_ITEMS_SHOWN], f"… ({len(items)} in all)"]


def option_ref(option: _Option) -> Ref:
    """A flag (or settings variable) the project defines, with its choices and help."""
    kind = "env" if option.kind == "env" else "flag"
    # A flag whose default is a bool is a switch (argparse.BooleanOptionalAction).
    is_bool = option.is_bool or option.default in ("True", "False")
    return Ref(kind, option.flag, option.choices, is_bool, option.default, help=option.help)


def bound_ref(name: str, refs: Sequence[Ref]) -> Ref:
    """A parameter whose callers pass these levers: the lever itself when there is one."""
    if len(refs) == 1 and refs[0].kind != "arg":
        return refs[0]
    shown = [r.shown() for r in refs]
    text = or_list(shown[:3]) if len(shown) <= 3 else ", ".join(shown[:3]) + " or others"
    one = refs[0] if len(refs) == 1 else None
    return Ref(
        "arg",
        name,
        one.choices if one else (),
        bool(one and one.is_bool),
        one.default if one else None,
        flag=text,
    )


def capability(node: ast.expr) -> str | None:
    """The bound of ``has_device_capability(80)`` (``80``), ``None`` for anything else."""
    if (
        isinstance(node, ast.Call)
        and callee(node) in ("has_device_capability", "is_device_capability_at_least")
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
    ):
        return repr(node.args[0].value)
    return None


def each_item(node: ast.expr) -> tuple[str, ast.expr, ast.cmpop, ast.expr] | None:
    """``any(v in S for v in L)`` as (``any``, L, ``in``, S); ``None`` for anything else."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("any", "all")
        and len(node.args) == 1
        and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp))
        and len(node.args[0].generators) == 1
    ):
        return None
    generator = node.args[0]
    loop = generator.generators[0]
    test = generator.elt
    if (
        isinstance(loop.target, ast.Name)
        and isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Name)
        and test.left.id == loop.target.id
    ):
        return node.func.id, loop.iter, test.ops[0], test.comparators[0]
    return None


def callee(node: ast.Call) -> str:
    """The name a call calls (``x.f(...)`` -> ``f``; ``""`` for a computed callee)."""
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""
