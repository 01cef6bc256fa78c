r"""What a method of the mined code returns, read as the levers it is computed from.

A guard often compares with a local that a method computed: vllm's V0
scheduler logs ``Input prompt (%d tokens) is too long and exceeds limit of
%d`` when ``num_new_tokens > prompt_limit``, where ``prompt_limit =
self._get_prompt_limit(seq_group)`` and that method returns
``min(self.scheduler_config.max_model_len, ...max_num_batched_tokens)``. The
scan notes each ``return`` of a method as an assignment of the attribute
``<name>()`` (:data:`~errcat.mine.facts.RETURNS_SUFFIX`), with the method's
context, so that such a call reads as the levers its returns are computed from
(``--max-model-len``, ``--max-num-batched-tokens``).

Only returns computed from levers alone count (:func:`levers_only`): a method
returns a thing computed from its arguments and internal state far more often
than a setting, and naming a flag for such a value would be a guess.

>>> from errcat.mine.conditions import Reader
>>> from errcat.mine.facts import _Def, _Option
>>> from errcat.mine.logic import parse_test
>>> from errcat.mine.options import OptionIndex
>>> options = OptionIndex([_Option("max_len", "--max-len"), _Option("tokens", "--tokens")], [])
>>> limit = _Def("limit", "min(cfg.max_len, cfg.tokens)")
>>> reader = Reader(options, params=("req",), defs={"limit": [limit]})
>>> [r.name for r in levers_only(reader, parse_test("limit - 1"))]
['--max-len', '--tokens']
>>> levers_only(reader, parse_test("max(limit, req.n)")) is None
True
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Protocol

from errcat.mine.facts import RETURNS_SUFFIX, _AttrDef, _Def
from errcat.mine.levers import SOURCE_KINDS, Ref
from errcat.mine.logic import parse_test
from errcat.mine.project import ProjectIndex

__all__ = ["levers_only", "returned"]

_MAX_DEPTH = 4
#: How many method returns deep a value is followed (each answer is remembered).
_MAX_NESTING = 6
#: Calls that compute a number from numbers (a value computed from levers stays so).
_ARITHMETIC = frozenset({"min", "max", "int", "float", "round", "abs"})


class _Reading(Protocol):
    """What reading returns needs of a guard's reader (:class:`~errcat.mine.conditions.Reader`)."""

    project: ProjectIndex | None
    params: Sequence[str]
    defs: Mapping[str, Sequence[_Def]]

    def ref(self, node: ast.expr, depth: int = 0) -> Ref | None: ...

    def classes_of(self, node: ast.expr, depth: int = 0) -> tuple[str, ...]: ...

    def for_attr(self, d: _AttrDef) -> _Reading: ...


def returned(
    reader: _Reading, method: ast.Attribute, depth: int = 0
) -> tuple[Ref | None, tuple[Ref, ...]]:
    """The lever a method call returns (``self.limit(req)``), and the levers it is computed from.

    The lever is named only when every ``return`` of the method reads it; the
    sources are the levers of the returns computed from levers alone.
    """
    if reader.project is None:
        return None, ()
    sources: dict[str, Ref] = {}
    for cls in reader.classes_of(method.value, depth):
        found, from_ = _returns(reader, reader.project, cls, method.attr)
        if found is not None:
            return found, (found,)
        for r in from_:
            sources.setdefault(r.key, r)
    return None, tuple(sources.values())


def _returns(
    reader: _Reading, project: ProjectIndex, owner: str, name: str
) -> tuple[Ref | None, tuple[Ref, ...]]:
    """What a method of a class returns, read as :func:`returned` says (remembered)."""
    key = ("returns", owner, name)
    if key in project.memo:
        return project.memo[key]  # type: ignore[return-value]
    if project.active >= _MAX_NESTING:
        return None, ()  # too deep to tell here: not remembered
    project.memo[key] = (None, ())  # a recursive method returns nothing more
    refs: list[Ref | None] = []
    sources: dict[str, Ref] = {}
    project.active += 1
    try:
        for d in project.attr_defs(owner, name + RETURNS_SUFFIX):
            sub = reader.for_attr(d)
            value = parse_test(d.expr)
            found = sub.ref(value)
            refs.append(found if found is not None and found.kind in SOURCE_KINDS else None)
            for r in levers_only(sub, value) or ():
                sources.setdefault(r.key, r)
    finally:
        project.active -= 1
    keys = {r.key for r in refs if r is not None}
    agreed = refs[0] if refs and len(keys) == 1 and all(r is not None for r in refs) else None
    result = (agreed, tuple(sources.values()))
    project.memo[key] = result
    return result


def levers_only(reader: _Reading, node: ast.expr, depth: int = 0) -> list[Ref] | None:
    """The levers a value is computed from, when it is computed from levers alone.

    Constants, arithmetic, ``min``/``max`` and conversions, conditional values
    and locals assigned such values keep it so; anything else (a parameter, a
    call, internal state) makes it ``None``, as does a value that reads no lever.
    """
    found: dict[str, Ref] = {}
    if not _levers_only(reader, node, depth, found, set()):
        return None
    return list(found.values()) or None


def _levers_only(
    reader: _Reading, node: ast.expr, depth: int, found: dict[str, Ref], seen: set[str]
) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if isinstance(node, ast.Constant):
        return True
    ref = reader.ref(node, depth)
    if ref is not None:
        found.setdefault(ref.key, ref)
        return ref.kind in SOURCE_KINDS
    parts: list[ast.expr]
    if isinstance(node, ast.Name):
        defs = reader.defs.get(node.id, ())
        if node.id in reader.params or node.id in seen or not defs:
            return False
        seen.add(node.id)
        if any(d.kind != "=" for d in defs):
            return False
        parts = [parse_test(d.expr) for d in defs]
    elif isinstance(node, ast.BinOp):
        parts = [node.left, node.right]
    elif isinstance(node, ast.UnaryOp):
        parts = [node.operand]
    elif isinstance(node, ast.IfExp):
        parts = [node.body, node.orelse]
    elif isinstance(node, ast.BoolOp):
        parts = list(node.values)
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _ARITHMETIC
        and not node.keywords
    ):
        parts = list(node.args)
    else:
        return False
    return all(_levers_only(reader, p, depth + 1, found, seen) for p in parts)
