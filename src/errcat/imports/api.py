r"""The names a module of a package lets ``from module import name`` find, read statically.

:class:`PackageSource` holds one release's ``.py`` files; :meth:`PackageSource.names`
gives the names of a module, each with the file and line that binds it:

* names bound at the module's top level (``def``, ``class``, assignments,
  imports), also inside ``if``/``try``/``with`` blocks there, so the
  ``if TYPE_CHECKING:`` imports of a lazy package count;
* names a star import brings (``from .models import *``): the other module's
  ``__all__`` when it has one, else its names that do not start with ``_``;
* names a lazy package lists as strings for its ``__getattr__``
  (``_import_structure = {"models.llama": ["LlamaConfig"]}``, ``__all__``,
  huggingface_hub's ``_SUBMOD_ATTRS``);
* the package's submodules (``from transformers import models`` imports one).

Nothing is imported or run.

>>> pkg = PackageSource(
...     {
...         "pkg/__init__.py": "from .core import *\n_import_structure = {'x': ['Lazy']}\n",
...         "pkg/core.py": "__all__ = ['Engine']\nclass Engine: ...\nclass _Hidden: ...\n",
...     }
... )
>>> sorted(pkg.names("pkg"))  # "x": a submodule the lazy structure names
['Engine', 'Lazy', '_import_structure', 'core', 'x']
>>> pkg.names("pkg")["Engine"]
('pkg/core.py', 2)
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["LAZY_LISTS", "PackageSource"]

#: Top-level names whose string lists a lazy package serves through ``__getattr__``.
LAZY_LISTS = frozenset({"_import_structure", "_SUBMOD_ATTRS", "__all__", "_LAZY_IMPORTS"})

#: A name's binding: the file (as given) and its line.
Binding = tuple[str, int]

_ALL_LITERAL = re.compile(r"^__all__\s*=\s*([\[(])", re.MULTILINE)
_ALL_CHANGED = re.compile(r"^__all__\s*(?:\+=|\.(?:extend|append)\b)", re.MULTILINE)


def _literal_all(text: str) -> list[str] | None:
    r"""A module's ``__all__`` read from its text alone, when it is one literal list or tuple.

    Most modules of a big package are only reached through a star import, and
    parsing each whole file costs far more than finding this one statement.

    >>> _literal_all("import x\n__all__ = ['A',\n    'B']\nclass A: ...\n")
    ['A', 'B']
    >>> _literal_all("__all__ = ['A']\n__all__ += ['B']\n") is None
    True
    """
    found = _ALL_LITERAL.search(text)
    if found is None or len(_ALL_LITERAL.findall(text)) > 1 or _ALL_CHANGED.search(text):
        return None
    close = "]" if found.group(1) == "[" else ")"
    end = text.find(close, found.end())
    if end < 0:
        return None
    try:
        value = ast.literal_eval(text[found.end() - 1 : end + 1])
    except (SyntaxError, ValueError):
        return None
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        return None
    return [str(v) for v in value]


_DEFINITION = re.compile(
    r"^(?:(?:async[ \t]+)?def|class)[ \t]+([A-Za-z_]\w*)|^([A-Za-z_]\w*)[ \t]*[:=]", re.MULTILINE
)


def _definitions(text: str) -> dict[str, int]:
    r"""The line of each name defined or assigned at the top level of ``text`` (first wins).

    One pass over the text: a star-imported module of a big package exports
    tens of names, and searching the whole file once per name is what costs.

    >>> _definitions("import x\nclass A: ...\n\ndef b(): ...\nC = 1\nA = 2\n")
    {'A': 2, 'b': 4, 'C': 5}
    """
    out: dict[str, int] = {}
    line, last = 1, 0
    for found in _DEFINITION.finditer(text):
        line += text.count("\n", last, found.start())
        last = found.start()
        out.setdefault(found.group(1) or found.group(2), line)
    return out


def _top_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a module's top level, descending into blocks but not into defs."""
    for node in body:
        yield node
        if isinstance(node, ast.If | ast.For | ast.While | ast.With | ast.AsyncWith):
            yield from _top_statements(node.body)
            yield from _top_statements(getattr(node, "orelse", []))
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            block: Any = node  # ast.TryStar (3.11+) has the fields of ast.Try
            yield from _top_statements(block.body)
            for handler in block.handlers:
                yield from _top_statements(handler.body)
            yield from _top_statements(block.orelse)
            yield from _top_statements(block.finalbody)


def _targets(node: ast.expr) -> Iterator[ast.Name]:
    if isinstance(node, ast.Name):
        yield node
    elif isinstance(node, ast.Tuple | ast.List):
        for elt in node.elts:
            yield from _targets(elt)
    elif isinstance(node, ast.Starred):
        yield from _targets(node.value)


def _strings(node: ast.AST) -> Iterator[ast.Constant]:
    """The identifier-like string constants inside ``node`` (list items, dict values)."""
    for sub in ast.walk(node):
        if (
            isinstance(sub, ast.Constant)
            and isinstance(sub.value, str)
            and sub.value.isidentifier()
        ):
            yield sub


def _lazy_list_node(node: ast.stmt) -> ast.AST | None:
    """The expression holding a lazy package's name lists, when ``node`` writes one."""
    if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            base = target.value if isinstance(target, ast.Subscript) else target
            if isinstance(base, ast.Name) and base.id in LAZY_LISTS and node.value is not None:
                return node.value
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func  # _import_structure["x"].extend([...]), __all__.append("x")
        if isinstance(func, ast.Attribute) and func.attr in ("extend", "append", "update"):
            base = func.value.value if isinstance(func.value, ast.Subscript) else func.value
            if isinstance(base, ast.Name) and base.id in LAZY_LISTS:
                return node.value
    return None


def _static_all(tree: ast.Module) -> list[str] | None:
    """The module's ``__all__`` when it is a literal list or tuple of strings (and ``+=``)."""
    found: list[str] | None = None
    for node in _top_statements(tree.body):
        value: ast.expr | None = None
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            value, found = node.value, []
        elif (
            isinstance(node, ast.AugAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "__all__"
        ):
            value = node.value
        if value is None:
            continue
        if not isinstance(value, ast.List | ast.Tuple):
            return None  # built by code: read the module's public names instead
        items = [e.value for e in value.elts if isinstance(e, ast.Constant)]
        if len(items) != len(value.elts) or not all(isinstance(i, str) for i in items):
            return None
        found = [*(found or []), *(str(i) for i in items)]
    return found


class PackageSource:
    """The ``.py`` files of one release of a package, by path (``transformers/models/x.py``)."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self._files = dict(files)
        self._trees: dict[str, ast.Module | None] = {}
        self._names: dict[str, dict[str, Binding]] = {}
        self._children: dict[str, set[str]] = {}
        for path in self._files:
            parts = path.split("/")
            for i in range(1, len(parts)):
                head = parts[i].removesuffix(".py")
                if head.isidentifier() and head != "__init__":
                    self._children.setdefault("/".join(parts[:i]), set()).add(head)

    def text(self, path: str) -> str:
        """The text of one file of the release."""
        return self._files[path]

    def module_file(self, module: str) -> str | None:
        """The file of a dotted module name (its ``__init__.py`` for a package), if present."""
        base = module.replace(".", "/")
        for path in (f"{base}/__init__.py", f"{base}.py"):
            if path in self._files:
                return path
        return None

    def has_module(self, module: str) -> bool:
        """True when the release has this module (a file, or a folder holding modules)."""
        return self.module_file(module) is not None or module.replace(".", "/") in self._children

    def submodules(self, module: str) -> list[str]:
        """The direct submodules of a package module, by short name."""
        return sorted(self._children.get(module.replace(".", "/"), ()))

    def _tree(self, path: str) -> ast.Module | None:
        if path not in self._trees:
            try:
                self._trees[path] = ast.parse(self._files[path], filename=path)
            except (SyntaxError, ValueError):
                self._trees[path] = None  # unparsable here: it binds nothing we can read
        return self._trees[path]

    def _resolve(self, module: str, node: ast.ImportFrom) -> str:
        """The absolute module an ``from ... import`` in ``module`` names."""
        if not node.level:
            return node.module or ""
        path = self.module_file(module) or ""
        parts = module.split(".")
        package = parts if path.endswith("__init__.py") else parts[:-1]
        base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
        return ".".join([*base, *([node.module] if node.module else [])])

    def names(self, module: str, _stack: frozenset[str] = frozenset()) -> dict[str, Binding]:
        """The names ``from module import name`` finds, each with its binding (file, line)."""
        if module in self._names:
            return self._names[module]
        path = self.module_file(module)
        out: dict[str, Binding] = {}
        tree = self._tree(path) if path else None
        if path is not None and tree is not None:
            for node in _top_statements(tree.body):
                self._bind(module, path, node, out, _stack | {module})
        for sub in self.submodules(module):
            sub_path = self.module_file(f"{module}.{sub}")
            out.setdefault(sub, (sub_path or path or module.replace(".", "/"), 1))
        self._names[module] = out
        return out

    def exported(self, module: str, stack: frozenset[str]) -> dict[str, Binding]:
        """What ``from module import *`` binds: its ``__all__``, else its public names."""
        path = self.module_file(module)
        if module in stack or path is None:
            return {}
        if module not in self._names:
            text = self._files[path]
            fast = _literal_all(text)
            if fast is not None:
                lines = _definitions(text)
                return {n: (path, lines.get(n, 1)) for n in fast}
        names = self.names(module, stack)
        tree = self._tree(path)
        declared = _static_all(tree) if tree is not None else None
        if declared is not None:
            return {n: names[n] for n in declared if n in names}
        return {n: b for n, b in names.items() if not n.startswith("_")}

    def _bind(
        self, module: str, path: str, node: ast.stmt, out: dict[str, Binding], stack: frozenset[str]
    ) -> None:
        line = node.lineno
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.setdefault(node.name, (path, line))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                out.setdefault(alias.asname or alias.name.split(".")[0], (path, line))
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    source = self._resolve(module, node)
                    for name, binding in self.exported(source, stack).items():
                        out.setdefault(name, binding)
                else:
                    out.setdefault(alias.asname or alias.name, (path, alias.lineno or line))
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for bound in _targets(target):
                    out.setdefault(bound.id, (path, line))
        lazy = _lazy_list_node(node)
        if lazy is not None:
            for const in _strings(lazy):
                out.setdefault(str(const.value), (path, const.lineno))
