r"""The values a message shows, as a solution names them: ``<slot>`` for a placeholder.

A message template holds placeholders in the f-string form (``{n}``,
``{self.size!r}``, ``{', '.join(names)}``; literal braces doubled). A
solution quoted from the message (``Lower --x to at most {n}.``) must not
show them raw to a user who has no match in front of them: :func:`reword`
turns each into a slot named after the value (``<n>``, the convention of
``pip install <package>``), drops the debugging dumps a message appends
(``node_id={node_id!r}``, which tell the user nothing to do) and undoubles
literal braces. A match fills the slots with the values it captured
(:func:`slot` names a captured placeholder the same way).

>>> reword("Make sure you have 1 GPU in a node node_id={node_id!r} ip={ip!r}.")
'Make sure you have 1 GPU in a node.'
>>> reword("Lower --max-len to at most {self.max_len}.")
'Lower --max-len to at most <max len>.'
>>> reword("Use one of {', '.join(sorted(names))}; pass f'cuda:{{rank}}'")
"Use one of <names>; pass f'cuda:{rank}'"
"""

from __future__ import annotations

import ast
import re

__all__ = ["GENERIC_SLOT", "reword", "slot"]

#: A placeholder (not a doubled, literal brace): its expression, conversion and format.
_PLACEHOLDER = re.compile(r"(?<!\{)\{(?!\{)(?P<expr>[^{}]+?)(?:![rsa])?(?::[^{}]*)?\}(?!\})")
#: ``name={name!r}``: a value dumped for debugging (``f"{name=}"``), with the space before it.
_DUMP = re.compile(r"\s*\(?(?P<name>[\w.\[\]]+)=\{(?P=name)(?:![rsa])?(?::[^{}]*)?\}\)?,?")
#: Calls that only format a value (``', '.join(x)``, ``sorted(x)``): the slot is named after x.
_FORMATTING = frozenset({"join", "sorted", "list", "tuple", "set", "str", "repr", "get_args"})
_GENERIC = "value"
#: The slot of a value no name tells (``{a * b}``): a match never fills it by name.
GENERIC_SLOT = f"<{_GENERIC}>"


def slot(expr: str) -> str:
    """The slot a placeholder's expression is shown as: its last name, in words.

    >>> slot("self.max_len"), slot("', '.join(valid_tasks)"), slot("a * b"), slot("x[0]")
    ('<max len>', '<valid tasks>', '<value>', '<x>')
    """
    try:
        node: ast.expr | None = ast.parse(expr.strip(), mode="eval").body
    except SyntaxError:
        return f"<{_GENERIC}>"
    name = ""
    while node is not None and not name:
        if isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call) and node.args and _callee(node) in _FORMATTING:
            node = node.args[0]
        else:
            node = None
    words = name.strip("_").replace("_", " ")
    return f"<{words or _GENERIC}>"


def _callee(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def reword(text: str) -> str:
    """``text`` (a sentence of a message template) with no raw placeholder (see the module).

    >>> reword("Raise it to {n} (now {{n}})")
    'Raise it to <n> (now {n})'
    """
    text = _DUMP.sub("", text)
    text = _PLACEHOLDER.sub(lambda m: slot(m.group("expr")), text)
    text = re.sub(r"\s+([.,;:!?])", r"\1", text)
    return text.replace("{{", "{").replace("}}", "}").strip()
