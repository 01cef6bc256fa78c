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
from errcat.mine.templates import _Alts, _literal_text, _TooManyVariantsError

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
    values: dict[str, ast.expr] = {}
    for node in body:
        # ``NAME = value`` and the annotated ``NAME: Final[str] = value`` alike.
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name) and counts[target.id] == 1:
            values[target.id] = value
    return values, counts


def _looks_constant(name: str) -> bool:
    """A name written as a constant (``MSG``, ``_ERR``, ``LONG_WAIT_2``): no lower-case letter.

    >>> [_looks_constant(n) for n in ("_ERR", "MSG_V2", "name", "_")]
    [True, True, False, False]
    """
    return any(c.isupper() for c in name) and not any(c.islower() for c in name)


def _attributes_set(tree: ast.Module) -> set[str]:
    """The attribute names the module's code assigns to (``self.x = ...``, ``Owner.x += ...``)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            found.update(n.attr for n in ast.walk(target) if isinstance(n, ast.Attribute))
    return found


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
        #: A class's string constants, set once in its body and nowhere else in the module
        #: (``_ERR = "..."``), read as ``self._ERR`` or ``cls._ERR``: qualname -> name -> value.
        self.class_consts: dict[str, dict[str, _Alts]] = {}
        #: Every name the module's own statements bind at module level.
        self._module_names: set[str] = set()

    def collect(self, tree: ast.Module) -> None:
        """Collect the module's imports, classes, functions and constants."""
        self._collect_imports(tree)
        self._collect_classes(tree.body, "")
        self._collect_consts(tree)
        self._collect_class_consts(tree)

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

    def _collect_class_consts(self, tree: ast.Module) -> None:
        """The string constants of the module's classes, by class (see :attr:`class_consts`).

        Only names written as constants (``MSG``, ``_ERR``), bound once in one class
        body of the module and never assigned as an attribute (``self._ERR = ...``,
        a subclass's ``_ERR = ...``): then ``self._ERR`` reads that text. A
        top-level class's are also module constants by their dotted name
        (``Owner._ERR``), so any function of the module reads them.
        """
        bodies: list[tuple[str, ast.ClassDef]] = []
        stack: list[tuple[str, ast.AST]] = [("", node) for node in tree.body]
        while stack:
            prefix, node = stack.pop()
            if isinstance(node, ast.ClassDef):
                bodies.append((prefix + node.name, node))
                stack.extend((f"{prefix}{node.name}.", inner) for inner in node.body)
            elif isinstance(node, (ast.If, ast.Try)):
                stack.extend((prefix, inner) for inner in (*node.body, *node.orelse))
        per_body: Counter[str] = Counter()
        for _qual, node in bodies:
            per_body.update(set(_assigned_once(node.body, node.body)[1]))
        reassigned = _attributes_set(tree)
        for qual, node in bodies:
            values, _counts = _assigned_once(node.body, node.body)
            for name, value in values.items():
                if not _looks_constant(name) or per_body[name] > 1 or name in reassigned:
                    continue
                try:
                    alts = self._eval(value, self.consts)
                except _TooManyVariantsError:
                    continue
                if alts is None or any(_literal_text(t) is None for t in alts):
                    continue
                self.class_consts.setdefault(qual, {})[name] = alts
                if "." not in qual:
                    self.consts.strs.setdefault(f"{qual}.{name}", alts)
        # A subclass of the module reads its bases' constants too (none overrides them).
        bases = {
            qual: [
                self.local_classes[b.id]
                for b in node.bases
                if isinstance(b, ast.Name) and b.id in self.local_classes
            ]
            for qual, node in bodies
        }
        for qual, _node in bodies:
            todo, seen = list(bases[qual]), {qual}
            merged: dict[str, _Alts] = {}
            while todo:
                base = todo.pop(0)
                if base in seen or base not in bases:
                    continue
                seen.add(base)
                merged.update(self.class_consts.get(base, {}))
                todo.extend(bases[base])
            if merged:
                self.class_consts[qual] = {**merged, **self.class_consts.get(qual, {})}

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
