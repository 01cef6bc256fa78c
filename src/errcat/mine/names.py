r"""The names of one module: its imports, classes, functions and module-level constants.

:class:`_ModuleNames` is the context the scanner keeps for a file, as bandit's
visitor does: what each name is bound to, so that a raised class is written
as the traceback prints it and a module-level string can be read.

>>> import ast
>>> names = _ModuleNames("pkg.mod", is_package=False)
>>> names.collect(ast.parse("from .errors import Bad\nclass Own(Exception): pass"))
>>> names.resolve(ast.Name("Bad")), names.resolve(ast.Name("Own"))
(_ClassRef(name='pkg.errors.Bad', kind='imported'), _ClassRef(name='pkg.mod.Own', kind='local'))
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from errcat.mine.evaluate import _Env, _Evaluator
from errcat.mine.facts import _BUILTINS, _KNOWN_ALIASES, _ClassRef
from errcat.mine.templates import _literal_text, _TooManyVariantsError

_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(body: Sequence[ast.AST]) -> Iterator[ast.AST]:
    """Every statement in ``body`` and in the bodies nested in it (expressions are not walked)."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        for name in _BODIES:
            inner = getattr(node, name, None)
            if inner:
                stack.extend(reversed(inner))


def _names_in_target(target: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _assigned_once(
    body: Sequence[ast.stmt], everywhere: Iterable[ast.AST]
) -> tuple[dict[str, ast.expr], Counter[str]]:
    """The ``name = value`` of ``body`` whose name no other statement of ``everywhere`` binds.

    Also how often each name is bound there (``=``, ``+=``, annotated).
    """
    counts: Counter[str] = Counter()
    for node in everywhere:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in _names_in_target(target):
                    counts[name] += 1
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            for name in _names_in_target(node.target):
                counts[name] += 1
    values = {
        node.targets[0].id: node.value
        for node in body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and counts[node.targets[0].id] == 1
    }
    return values, counts


def _is_exception_name(name: str) -> bool:
    """Whether a callee name reads as an exception class rather than a helper function."""
    bare = name.lstrip("_")
    if not bare:
        return False
    if bare[0].isupper():
        return True
    low = bare.lower()
    return low == "error" or low.endswith(("error", "exception", "warning"))


class _ModuleNames(_Evaluator):
    """What the names of one module are bound to (collected before the walk)."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.imports: dict[str, str] = {}
        self.local_classes: dict[str, str] = {}  # simple name -> qualname
        self.local_functions: set[str] = set()  # qualnames of functions and methods
        self.module_aliases: dict[str, ast.expr] = {}
        #: ``failureException = AssertionError`` in a class body: qualname -> value.
        self.class_aliases: dict[str, ast.expr] = {}
        self.top_imports: set[str] = set()
        self.consts = _Env()
        #: Every name the module's own statements bind at module level.
        self._module_names: set[str] = set()

    def collect(self, tree: ast.Module) -> None:
        """Collect the module's imports, classes, functions and constants."""
        self._collect_imports(tree)
        self._collect_classes(tree.body, "")
        self._collect_consts(tree)

    def _absolute(self, module: str | None, level: int) -> str:
        if level == 0:
            return module or ""
        base = self.package.split(".") if self.package else []
        if level > 1:
            base = base[: len(base) - (level - 1)]
        return ".".join([*base, module] if module else base)

    def _collect_imports(self, tree: ast.Module) -> None:
        top = set(map(id, tree.body))
        for node in _statements(tree.body):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        bound, target = alias.asname, alias.name
                    else:
                        bound = target = alias.name.partition(".")[0]
                    if id(node) in top or bound not in self.imports:
                        self.imports[bound] = target
                    if id(node) in top:
                        self.top_imports.add(bound)
            elif isinstance(node, ast.ImportFrom):
                base = self._absolute(node.module, node.level)
                for alias in node.names:
                    if alias.name == "*":
                        continue
                    bound = alias.asname or alias.name
                    target = f"{base}.{alias.name}" if base else alias.name
                    if id(node) in top or bound not in self.imports:
                        self.imports[bound] = target
                    if id(node) in top:
                        self.top_imports.add(bound)

    def _collect_classes(self, body: Sequence[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.local_functions.add(f"{prefix}{node.name}")
            elif isinstance(node, ast.ClassDef):
                qual = f"{prefix}{node.name}"
                if not prefix:
                    self.local_classes[node.name] = qual
                else:
                    self.local_classes.setdefault(node.name, qual)
                self._collect_classes(node.body, qual + ".")
                self._collect_class_aliases(node, qual)
            elif isinstance(node, (ast.If, ast.Try)):
                self._collect_classes(node.body, prefix)
                self._collect_classes(node.orelse, prefix)

    def _collect_class_aliases(self, node: ast.ClassDef, qual: str) -> None:
        """A class attribute set once, in the class body, to a name (``error = OSError``).

        ``raise self.error(msg)`` in a method raises that class (unless a subclass
        or an instance sets another: the class body's is the one the code shows).
        """
        values, _counts = _assigned_once(node.body, node.body)
        for name, value in values.items():
            if isinstance(value, (ast.Name, ast.Attribute)):
                self.class_aliases[f"{qual}.{name}"] = value

    def _collect_consts(self, tree: ast.Module) -> None:
        values, counts = _assigned_once(tree.body, _statements(tree.body))
        self._module_names = set(counts)
        if self.module and not counts["__name__"]:
            self.consts.strs["__name__"] = ((self.module,),)  # the module's dotted name
        for name, value in values.items():
            if isinstance(value, (ast.Name, ast.Attribute)):
                self.module_aliases[name] = value
                continue
            try:
                alts = self._eval(value, _Env())
            except _TooManyVariantsError:
                continue
            if alts is not None and all(_literal_text(t) is not None for t in alts):
                self.consts.strs[name] = alts

    def resolve(self, node: ast.expr) -> _ClassRef:
        """The class a name or attribute chain designates, as far as this file tells."""
        if isinstance(node, ast.Name):
            return self._resolve_name(node.id, set())
        if isinstance(node, ast.Attribute):
            parts: list[str] = []
            cur: ast.expr = node
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name):
                parts.reverse()
                if cur.id in ("self", "cls"):
                    return _ClassRef(".".join(parts), "written")
                if cur.id in self.local_classes:
                    qual = ".".join([self.local_classes[cur.id], *parts])
                    return _ClassRef(self._qualify(qual), "local")
                if cur.id in self.imports:
                    dotted = ".".join([self.imports[cur.id], *parts])
                    return _ClassRef(dotted, "imported")
                written = ".".join([cur.id, *parts])
                if written in _KNOWN_ALIASES:
                    return _ClassRef(_KNOWN_ALIASES[written], "builtin")
                return _ClassRef(written, "written")
        return _ClassRef(ast.unparse(node), "written")

    def _resolve_name(self, name: str, visiting: set[str]) -> _ClassRef:
        if name in self.local_classes:
            return _ClassRef(self._qualify(self.local_classes[name]), "local")
        alias = self.module_aliases.get(name)
        if alias is not None and name not in visiting:
            visiting.add(name)
            if isinstance(alias, ast.Name):
                ref = self._resolve_name(alias.id, visiting)
            else:
                ref = self.resolve(alias)
            if ref.kind != "written":
                return ref
        if name in self.imports:
            target = self.imports[name]
            if target in _KNOWN_ALIASES:
                return _ClassRef(_KNOWN_ALIASES[target], "builtin")
            return _ClassRef(target, "imported")
        if name in _BUILTINS:
            return _ClassRef(_BUILTINS[name], "builtin")
        return _ClassRef(name, "written")

    def _qualify(self, qualname: str) -> str:
        return f"{self.module}.{qualname}" if self.module else qualname
