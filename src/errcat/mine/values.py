r"""The static values a module defines: literal collections of texts, and its classes' fields.

A guard often tests a value against a collection the code spells out
(``if name not in SUPPORTED: raise ...``, ``PARSERS.get(name)``, an ``Enum``):
the texts of that collection are the values a user may choose. A request
model's annotated fields (``max_tokens: int | None = None``) are what a
request may send. :func:`collect_values` reads both from one module, at
module level and in class bodies (``Class.NAME``), by dotted name.

>>> import ast
>>> src = '''
... import enum
... MODES = ("fast", "safe")
... ALL = list(MODES)
... class Parser:
...     KINDS = {"json": 1, "xml": 2}
... class Color(str, enum.Enum):
...     RED = "red"
...     BLUE = "blue"
... class Request(Base):
...     max_tokens: int = 16
... '''
>>> found = collect_values(ast.parse(src), "m", lambda name: f"m.{name}")
>>> dict(found.collections)["m.ALL"], dict(found.collections)["m.Parser.KINDS"]
(('fast', 'safe'), ('json', 'xml'))
>>> dict(found.collections)["m.Color"]
('red', 'blue')
>>> [(c.name, c.bases, c.fields) for c in found.classes if c.fields]
[('m.Request', ('m.Base',), ('max_tokens',))]
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from errcat.mine.facts import _ClassFields

__all__ = ["ModuleValues", "collect_values", "literal_texts"]

#: The most items a collection may have to be kept (a longer one is no list of choices).
MAX_ITEMS = 200
_ENUM_BASES = frozenset({"Enum", "StrEnum", "IntEnum", "Flag", "IntFlag"})


@dataclass
class ModuleValues:
    """What one module defines: collections of texts and classes (see the module docstring)."""

    collections: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    classes: list[_ClassFields] = field(default_factory=list)


def literal_texts(node: ast.expr) -> tuple[str, ...] | None:
    """The texts of a literal collection: dict keys, or list/tuple/set items (``None`` if not).

    Every key or item must be a constant string or number; ``set(...)`` and
    ``frozenset(...)`` of a literal count.

    >>> literal_texts(ast.parse("{'a': f, 'b': g}", mode="eval").body)
    ('a', 'b')
    >>> literal_texts(ast.parse("frozenset({1, 2})", mode="eval").body)
    ('1', '2')
    >>> literal_texts(ast.parse("[x, 'b']", mode="eval").body) is None
    True
    """
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("set", "frozenset", "tuple", "list")
        and len(node.args) == 1
        and not node.keywords
    ):
        node = node.args[0]
    items: Sequence[ast.expr | None]
    if isinstance(node, ast.Dict):
        items = node.keys
    elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = node.elts
    else:
        return None
    if not items or len(items) > MAX_ITEMS:
        return None
    out: list[str] = []
    for item in items:
        if not isinstance(item, ast.Constant) or not isinstance(item.value, (str, int, float)):
            return None
        if isinstance(item.value, bool):
            return None
        out.append(str(item.value))
    return tuple(dict.fromkeys(out))


def _literal_type(node: ast.expr) -> tuple[str, ...] | None:
    """The values of ``Literal["a", "b"]`` (a type alias of the choices).

    >>> _literal_type(ast.parse('Literal["fp8", "awq"]', mode="eval").body)
    ('fp8', 'awq')
    """
    if not (isinstance(node, ast.Subscript) and _base_name(node.value) == "Literal"):
        return None
    items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    return literal_texts(ast.Tuple(elts=list(items), ctx=ast.Load()))


def _copy(node: ast.expr, known: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """``list(get_args(Methods))``, ``sorted(MODES)``: a collection the module defined above."""
    while (
        isinstance(node, ast.Call)
        and _base_name(node.func) in ("list", "tuple", "set", "frozenset", "sorted", "get_args")
        and len(node.args) == 1
    ):
        node = node.args[0]
    return known.get(node.id) if isinstance(node, ast.Name) else None


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _enum_members(node: ast.ClassDef) -> tuple[str, ...] | None:
    """The values of an enum's members (their names when the values are not texts)."""
    if not any(_base_name(b) in _ENUM_BASES for b in node.bases):
        return None
    values: list[str] = []
    names: list[str] = []
    for stmt in node.body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and not stmt.targets[0].id.startswith("_")
        ):
            names.append(stmt.targets[0].id)
            value = stmt.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                values.append(value.value)
    if not names:
        return None
    chosen = values if len(values) == len(names) else names
    return tuple(dict.fromkeys(chosen))[:MAX_ITEMS]


def _assigned(stmt: ast.stmt) -> tuple[str, ast.expr] | None:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, value = stmt.targets[0], stmt.value
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        target, value = stmt.target, stmt.value
    else:
        return None
    return (target.id, value) if isinstance(target, ast.Name) else None


def _fields(node: ast.ClassDef) -> tuple[str, ...]:
    out = []
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            name = stmt.target.id
            if not name.startswith("_") and "ClassVar" not in ast.unparse(stmt.annotation):
                out.append(name)
    return tuple(out)


def collect_values(tree: ast.Module, module: str, resolve: Callable[[str], str]) -> ModuleValues:
    """The collections and classes one module defines (see the module docstring).

    ``resolve`` turns a base class as written into its dotted name (through
    the module's imports).
    """
    out = ModuleValues()
    prefix = f"{module}." if module else ""
    known: dict[str, tuple[str, ...]] = {}

    def body(statements: Sequence[ast.stmt], scope: str) -> None:
        for stmt in statements:
            if isinstance(stmt, ast.ClassDef):
                qual = f"{scope}{stmt.name}"
                bases = tuple(resolve(ast.unparse(b)) for b in stmt.bases)
                out.classes.append(_ClassFields(prefix + qual, bases, _fields(stmt)))
                members = _enum_members(stmt)
                if members:
                    out.collections.append((prefix + qual, members))
                body(stmt.body, qual + ".")
                continue
            if isinstance(stmt, (ast.If, ast.Try)):
                body(stmt.body, scope)
                continue
            found = _assigned(stmt)
            if found is None:
                continue
            texts = literal_texts(found[1]) or _literal_type(found[1]) or _copy(found[1], known)
            if texts:
                known[f"{scope}{found[0]}"] = texts
                out.collections.append((f"{prefix}{scope}{found[0]}", texts))

    body(tree.body, "")
    return out
