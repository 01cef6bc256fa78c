r"""Helpers that raise the exception they are given: ``raise_(OutOfResources(...))``.

Some code builds the exception where the error is found and hands it to a
helper that raises it (triton's ``CompiledKernel._init_handles`` passes
``OutOfResources(...)`` to a nested ``raise_(err)`` that stores a copy and
then does ``raise err``). The ``raise`` statement itself shows nothing of the
message; the call that builds the exception does. :func:`raising_helpers`
finds such helpers in a module so that the scanner can treat a call of one,
with an exception built in its argument, as the raise site.

>>> import ast
>>> tree = ast.parse("def raise_(err):\n    log(err)\n    raise err\n")
>>> helpers = raising_helpers(tree)
>>> helpers["raise_"].param, helpers["raise_"].index
('err', 0)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

#: A name defined twice with different raised parameters: which one a call means is unknown.
_AMBIGUOUS = None


@dataclass(frozen=True, slots=True)
class _Helper:
    """A function whose body raises one of its parameters (``raise err``)."""

    param: str  # the raised parameter
    index: int  # its position among the positional parameters a call passes
    method: bool  # defined in a class body: called as ``self.<name>(...)``


def _own_nodes(body: Sequence[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of a function body, outside the functions and classes it defines."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
        for d in node.decorator_list
    )


def _helper(node: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> _Helper | None:
    """The helper a function is, if its own body raises one of its parameters unchanged."""
    args = node.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    static = _is_static(node)
    if method and not static:
        positional = positional[1:]
    names = set(positional) | {a.arg for a in args.kwonlyargs}
    raised: set[str] = set()
    for item in _own_nodes(node.body):
        if isinstance(item, ast.Raise) and isinstance(item.exc, ast.Name):
            if item.exc.id in names:
                raised.add(item.exc.id)
        elif isinstance(item, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            if any(isinstance(t, ast.Name) and t.id in names for t in targets):
                return None  # the parameter is replaced before it may be raised
    if len(raised) != 1:
        return None
    (param,) = raised
    index = positional.index(param) if param in positional else -1
    return _Helper(param, index, method and not static)


def raising_helpers(tree: ast.Module) -> dict[str, _Helper]:
    r"""The functions and methods of a module that raise the parameter they get, by bare name.

    A name defined more than once is kept only when every definition raises
    the same parameter at the same place (else a call's target is unknown).

    >>> tree = ast.parse(
    ...     "class K:\n"
    ...     "    def fail(self, exc):\n"
    ...     "        raise exc\n"
    ...     "def other(exc):\n"
    ...     "    exc = wrap(exc)\n"
    ...     "    raise exc\n"
    ... )
    >>> sorted(raising_helpers(tree)), raising_helpers(tree)["fail"].method
    (['fail'], True)
    """
    found: dict[str, _Helper | None] = {}
    todo: list[tuple[ast.AST, bool]] = [(tree, False)]
    while todo:
        node, in_class = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                helper = _helper(child, in_class)
                if helper is not None:
                    if child.name in found and found[child.name] != helper:
                        found[child.name] = _AMBIGUOUS
                    else:
                        found.setdefault(child.name, helper)
                todo.append((child, False))
            elif isinstance(child, ast.ClassDef):
                todo.append((child, True))
            else:
                todo.append((child, in_class))  # a method under ``if`` in a class body
    return {name: helper for name, helper in found.items() if helper is not None}


def helper_argument(call: ast.Call, helper: _Helper) -> ast.expr | None:
    """The argument a call passes for the helper's raised parameter (``None``: not passed).

    >>> call = ast.parse("raise_(ValueError('x'), note=1)", mode="eval").body
    >>> ast.unparse(helper_argument(call, _Helper("err", 0, False)))
    "ValueError('x')"
    """
    for keyword in call.keywords:
        if keyword.arg == helper.param:
            return keyword.value
    if 0 <= helper.index < len(call.args):
        before = call.args[: helper.index + 1]
        if not any(isinstance(a, ast.Starred) for a in before):
            return call.args[helper.index]
    return None
