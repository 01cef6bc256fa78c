"""The statement walker of the scanner: scopes, string variables, guards, classes.

:class:`_Walker` walks one module's statements in order, as they run: it keeps
what each local string variable may hold (an :class:`~errcat.mine.evaluate._Env`
per path, merged where paths join), the ``if`` tests on the path to each
statement (:mod:`errcat.mine.guards`), and what each class's ``__init__`` and
``__str__`` do with the message (:mod:`errcat.mine.captures`). What to do at a
``raise``, an ``assert`` and a ``return`` is left to the subclass
(:class:`errcat.mine.scan._Scanner`).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from errcat.mine.captures import (
    _Capture,
    _capture_return,
    _capture_super_init,
    _class_info,
    _func_info,
)
from errcat.mine.evaluate import _Env, _merge
from errcat.mine.facts import (
    RETURNS_SUFFIX,
    _Call,
    _ClassInfo,
    _ClassRef,
    _FuncInfo,
    _RawSite,
)
from errcat.mine.guards import Assignment, Clause, exits
from errcat.mine.logged import logged_call
from errcat.mine.names import _is_exception_name, _ModuleNames, _names_in_target
from errcat.mine.templates import _product, _TooManyVariantsError

_TRY_STAR: tuple[type[ast.stmt], ...] = (
    (ast.TryStar,) if hasattr(ast, "TryStar") else ()  # type: ignore[attr-defined,unused-ignore]
)


#: What walking a function body changes on the walker, restored when the body is done.
_FUNCTION_STATE = (
    "_scope",
    "_func_qual",
    "_in_function",
    "_closure",
    "_capture",
    "_returns",
    "_class_body",
    "_owner",
    "_params",
    "_param_defaults",
    "_clauses",
    "_defs",
    "_doc",
    "_handler",
    "_annotations",
)


def _is_property(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a method is decorated as a property (``property``, ``cached_property``)."""
    for decorator in node.decorator_list:
        name = (
            decorator.attr if isinstance(decorator, ast.Attribute) else getattr(decorator, "id", "")
        )
        if name in ("property", "cached_property"):
            return True
    return False


#: How bad what a site reports is: a way out of it must not lead to as bad a report.
SEVERITY = {"WARNING": 0, "ERROR": 1, "CRITICAL": 2}
#: A raise is worse than any logged line (the program stops there).
RAISED = len(SEVERITY)


def severity(cls: _ClassRef) -> int:
    """How bad a site's report is: its log level's rank, or :data:`RAISED` for a raise.

    >>> severity(_ClassRef("WARNING", "logged")), severity(_ClassRef("ValueError", "builtin"))
    (0, 3)
    """
    return SEVERITY.get(cls.name, RAISED) if cls.kind == "logged" else RAISED


def _rejects(body: Sequence[ast.stmt]) -> int | None:
    r"""How bad what an exiting block reports (:func:`severity`), or ``None`` if it reports none.

    ``if n > limit: logger.warning("too long"); continue`` reports a warning:
    making its test true trades a later warning for that one, so it is no way out
    of a later warning (but is one out of a later raise: the program goes on).

    >>> _rejects(ast.parse("logger.warning('too long')\ncontinue").body)
    0
    >>> _rejects(ast.parse("raise ValueError('bad')").body)
    3
    >>> _rejects(ast.parse("logger.info('skip')\ncontinue").body) is None
    True
    """
    if isinstance(body[-1], ast.Raise):
        return RAISED
    levels = [
        SEVERITY.get(found[0], RAISED)
        for stmt in body
        if isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and (found := logged_call(stmt.value)) is not None
    ]
    return max(levels) if levels else None


def returned_values(body: Sequence[ast.stmt]) -> list[ast.expr]:
    r"""The values a function body returns (``return None`` and bare ``return`` left out).

    Returns of the functions, classes and lambdas it defines are not its own.

    >>> body = ast.parse("if a:\n    return cfg.x\ndef g():\n    return 2\nreturn None").body
    >>> [ast.unparse(v) for v in returned_values(body)]
    ['cfg.x']
    """
    out: list[ast.expr] = []
    todo: list[ast.AST] = list(reversed(body))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Return):
            value = node.value
            if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
                out.append(value)
            continue
        if isinstance(node, ast.stmt):
            todo.extend(
                reversed([c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt)])
            )
            for handler in getattr(node, "handlers", ()):
                todo.extend(reversed(handler.body))
            for case in getattr(node, "cases", ()):
                todo.extend(reversed(case.body))
    return out


class _Walker(_ModuleNames):
    """Walk a module's statements in order, keeping the state a raise site needs."""

    def __init__(self, module: str, is_package: bool) -> None:
        super().__init__(module, is_package)
        self.sites: list[_RawSite] = []
        self.classes: list[_ClassInfo] = []
        self.functions: list[_FuncInfo] = []
        self.reraises = 0
        self._scope: list[str] = []
        self._func_qual = ""
        self._in_function = False
        self._closure: _Env | None = None
        self._capture: _Capture | None = None
        self._returns: list[tuple[_ClassRef, _Call]] | None = None
        self._class_body: str | None = None  # the class whose body is being scanned
        self._owner: str | None = None  # the class of the method being scanned
        self._params: frozenset[str] = frozenset()  # parameters of the function being scanned
        # Their default values, where they have one (the innermost function's win).
        self._param_defaults: dict[str, ast.expr] = {}
        # The guard of the statement being scanned (see errcat.mine.guards).
        self._clauses: list[Clause] = []
        self._defs: dict[str, list[Assignment]] = {}
        self._doc: str | None = None
        self._handler: str | None = None
        #: The classes each parameter of the function being scanned is annotated with.
        self._annotations: dict[str, tuple[str, ...]] = {}
        #: Clauses an ``if`` whose branch raises (or logs an error) and leaves put on the
        #: stack: (id of the test, truth) -> how bad that branch's report is (:func:`severity`).
        self._rejecting: dict[tuple[int, bool], int] = {}

    def _note_rejecting(self, test: ast.expr, holds: bool, rank: int | None) -> None:
        """Note that the clause ``(test, holds)`` is there because its other branch reports."""
        if rank is not None:
            self._rejecting[(id(test), holds)] = rank

    def _raise(self, node: ast.Raise, env: _Env) -> None:
        """Record a ``raise`` statement (see the subclass)."""
        raise NotImplementedError

    def _assert(self, node: ast.Assert, env: _Env) -> None:
        """Record an ``assert`` statement (see the subclass)."""
        raise NotImplementedError

    def _factory_return(self, value: ast.expr, env: _Env) -> None:
        """Note a ``return`` of a function that may build exceptions (see the subclass)."""
        raise NotImplementedError

    def _helper_call(self, node: ast.Expr, call: ast.Call, env: _Env) -> None:
        """Note a call statement that may raise the exception it builds (see the subclass)."""

    def _responses(self, node: ast.stmt, value: ast.expr, env: _Env) -> None:
        """Note the HTTP error bodies a statement's value builds (see the subclass)."""

    def _self_assign(self, attr: str, value: ast.expr) -> None:
        """Note ``self.attr = value`` in a method (see the subclass)."""

    def _annotation_classes(self, annotation: ast.expr | None) -> tuple[str, ...]:
        """The dotted names of the classes an annotation names (``Optional[A] | B``: A, B)."""
        if annotation is None:
            return ()
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:
                annotation = ast.parse(annotation.value, mode="eval").body
            except SyntaxError:
                return ()
        found: dict[str, None] = {}
        for node in ast.walk(annotation):
            if isinstance(node, ast.Subscript):
                continue
            if isinstance(node, (ast.Name, ast.Attribute)) and not isinstance(
                getattr(node, "ctx", None), ast.Store
            ):
                ref = self.resolve(node)
                if ref.kind in ("local", "imported"):
                    found[ref.name] = None
        return tuple(found)

    def scan(self, tree: ast.Module) -> None:
        self.collect(tree)
        self._block(tree.body, _Env())

    def _block(self, body: Sequence[ast.stmt], env: _Env) -> tuple[_Env, bool]:
        terminated = False
        depth = len(self._clauses)
        for stmt in body:
            env, done = self._stmt(stmt, env)
            terminated = terminated or done
            if isinstance(stmt, ast.If) and not done:
                # An early exit: the rest of the block runs only when it was not taken.
                if exits(stmt.body) and not exits(stmt.orelse):
                    self._clauses.append((stmt.test, False))
                    self._note_rejecting(stmt.test, False, _rejects(stmt.body))
                elif exits(stmt.orelse) and not exits(stmt.body):
                    self._clauses.append((stmt.test, True))
                    self._note_rejecting(stmt.test, True, _rejects(stmt.orelse))
        del self._clauses[depth:]
        return env, terminated

    def _join_paths(self, outs: Sequence[tuple[_Env, bool]], fallback: _Env) -> tuple[_Env, bool]:
        live = [e for e, done in outs if not done]
        if not live:
            return fallback, True
        return _merge(live, self._params), False

    def _stmt(self, node: ast.stmt, env: _Env) -> tuple[_Env, bool]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._function(node, env)
            env.forget(node.name)
            return env, False
        if isinstance(node, ast.ClassDef):
            self._class(node, env)
            env.forget(node.name)
            return env, False
        if isinstance(node, ast.Assign):
            self._responses(node, node.value, env)
            self._assign(node.targets, node.value, env)
            return env, False
        if isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self._responses(node, node.value, env)
                self._assign([node.target], node.value, env)
            return env, False
        if isinstance(node, ast.AugAssign):
            self._augassign(node, env)
            return env, False
        if isinstance(node, ast.Raise):
            self._raise(node, env)
            return env, True
        if isinstance(node, ast.Assert):
            self._assert(node, env)
            return env, False
        if isinstance(node, ast.Return):
            if node.value is not None:
                self._responses(node, node.value, env)
            if self._capture is not None and self._capture.kind == "str" and node.value:
                _capture_return(self, self._capture, node.value, env)
            if self._returns is not None and node.value is not None:
                self._factory_return(node.value, env)
            return env, True
        if isinstance(node, (ast.Break, ast.Continue)):
            return env, True
        if isinstance(node, ast.Expr):
            if self._capture is not None and self._capture.kind == "init":
                _capture_super_init(self, self._capture, node.value, env)
            self._responses(node, node.value, env)
            if isinstance(node.value, ast.Call):
                self._helper_call(node, node.value, env)
            return env, False
        if isinstance(node, ast.If):
            self._clauses.append((node.test, True))
            body = self._block(node.body, env.copy())
            self._clauses[-1] = (node.test, False)
            orelse = self._block(node.orelse, env.copy())
            self._clauses.pop()
            return self._join_paths([body, orelse], env)
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            inner = env.copy()
            if not isinstance(node, ast.While):
                for name in _names_in_target(node.target):
                    inner.forget(name)
                    if self._in_function:
                        self._defs.setdefault(name, []).append(
                            (node.iter, tuple(self._clauses), "for")
                        )
            body_env, _ = self._block(node.body, inner)
            after = _merge([env, body_env], self._params)
            return self._block(node.orelse, after)
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    for name in _names_in_target(item.optional_vars):
                        env.forget(name)
            return self._block(node.body, env)
        if isinstance(node, (ast.Try, *_TRY_STAR)):
            return self._try(node, env)
        if isinstance(node, ast.Match):
            outs = [self._block(case.body, env.copy()) for case in node.cases]
            outs.append((env, False))
            return self._join_paths(outs, env)
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                env.forget(name)
            return env, False
        if isinstance(node, ast.Delete):
            for target in node.targets:
                for name in _names_in_target(target):
                    env.forget(name)
            return env, False
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                env.forget((alias.asname or alias.name).partition(".")[0])
            return env, False
        return env, False

    def _try(self, node: Any, env: _Env) -> tuple[_Env, bool]:
        body_env, body_done = self._block(node.body, env.copy())
        handler_start = _merge([env, body_env], self._params)
        outs = []
        else_env, else_done = self._block(node.orelse, body_env.copy())
        outs.append((else_env, body_done or else_done))
        for handler in node.handlers:
            start = handler_start.copy()
            if handler.name:
                start.forget(handler.name)
            saved, self._handler = (
                self._handler,
                ast.unparse(handler.type) if handler.type is not None else "",
            )
            outs.append(self._block(handler.body, start))
            self._handler = saved
        joined, done = self._join_paths(outs, env)
        final_env, final_done = self._block(node.finalbody, joined.copy())
        return final_env, done or final_done

    def _assign(self, targets: Sequence[ast.expr], value: ast.expr, env: _Env) -> None:
        try:
            alts = self._eval(value, env)
        except _TooManyVariantsError:
            alts = ()
        is_exc = (
            isinstance(value, ast.Call)
            and isinstance(value.func, (ast.Name, ast.Attribute))
            and _is_exception_name(
                value.func.id if isinstance(value.func, ast.Name) else value.func.attr
            )
        )
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
                and self._in_function
                and self._owner is not None
            ):
                self._self_assign(target.attr, value)
            if isinstance(target, ast.Name) and self._in_function:
                self._defs.setdefault(target.id, []).append((value, tuple(self._clauses), "="))
            elif isinstance(target, (ast.Tuple, ast.List)) and self._in_function:
                self._unpack(target, value)
            if isinstance(target, ast.Name):
                env.strs[target.id] = alts
                env.excs[target.id] = value if is_exc and isinstance(value, ast.Call) else None
            elif (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
                and self._capture is not None
                and self._capture.kind == "init"
            ):
                self._capture.attrs[target.attr] = self._or_field(alts, value, env)
            elif (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.attr != "args"
            ):
                # `exc.__cause__ = cause`, `err.field = name`: the object is the same, and
                # so is its message (only `.args` changes what str() shows).
                continue
            else:
                for name in _names_in_target(target):
                    env.forget(name)

    def _unpack(self, target: ast.Tuple | ast.List, value: ast.expr) -> None:
        """Note ``a, b = x, y`` as ``a = x`` and ``b = y``; ``a, b = f()`` as ``a = f()[0]``."""
        names = target.elts
        if not all(isinstance(n, ast.Name) for n in names):
            return  # a starred or nested target: positions are unknown
        same = (
            isinstance(value, (ast.Tuple, ast.List))
            and len(value.elts) == len(names)
            and not any(isinstance(e, ast.Starred) for e in value.elts)
        )
        for i, name in enumerate(names):
            assert isinstance(name, ast.Name)
            if name.id == "_":
                continue
            part: ast.expr
            if same:
                assert isinstance(value, (ast.Tuple, ast.List))
                part = value.elts[i]
            else:
                part = ast.Subscript(value=value, slice=ast.Constant(i), ctx=ast.Load())
            self._defs.setdefault(name.id, []).append((part, tuple(self._clauses), "="))

    def _calls(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """Note what the calls of a function body pass (see the subclass)."""

    def _augassign(self, node: ast.AugAssign, env: _Env) -> None:
        if not isinstance(node.target, ast.Name):
            return
        name = node.target.id
        current = env.strs.get(name)
        if not isinstance(node.op, ast.Add) or current is None:
            env.forget(name)
            return
        if current == ():
            return
        try:
            env.strs[name] = _product([current, self._eval_or_field(node.value, env)])
        except _TooManyVariantsError:
            env.strs[name] = ()

    def _function(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        env: _Env,
        capture: _Capture | None = None,
    ) -> None:
        """Scan a function body in a new scope (``capture`` collects a class's message)."""
        inner = (env if self._in_function else (self._closure or self.consts)).copy()
        args = node.args
        params = set(self._params)
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            if a is not None:
                inner.strs.pop(a.arg, None)
                inner.excs.pop(a.arg, None)
                params.add(a.arg)
        # Each parameter's default, if any: this function's own shadow an enclosing one's.
        defaults = dict(self._param_defaults)
        positional = [*args.posonlyargs, *args.args]
        cut = len(positional) - len(args.defaults)
        own = zip(positional[cut:], args.defaults, strict=True)
        keyword = zip(args.kwonlyargs, args.kw_defaults, strict=True)
        for a, value in (*own, *keyword):
            if value is not None:
                defaults[a.arg] = value
            else:
                defaults.pop(a.arg, None)
        for a in (*positional[:cut], args.vararg, args.kwarg):
            if a is not None:
                defaults.pop(a.arg, None)
        method_of = self._class_body
        if method_of is not None:  # a method reads its class's constants as self.X / cls.X
            for name, alts in self.class_consts.get(method_of, {}).items():
                for receiver in ("self", "cls"):
                    inner.strs.setdefault(f"{receiver}.{name}", alts)
        saved = {name: getattr(self, name) for name in _FUNCTION_STATE}
        self._params = frozenset(params)
        self._param_defaults = defaults
        self._clauses, self._defs, self._handler = [], {}, None
        self._annotations = dict(self._annotations)
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
            classes = self._annotation_classes(a.annotation)
            if classes:
                self._annotations[a.arg] = classes
            else:
                self._annotations.pop(a.arg, None)
        self._doc = ast.get_docstring(node, clean=False)
        qual = ".".join([*self._scope, node.name])
        self._func_qual = qual
        self._scope = [*self._scope, node.name, "<locals>"]
        self._in_function = True
        self._closure = inner
        self._capture = capture
        returns: list[tuple[_ClassRef, _Call]] = []
        self._returns = returns
        self._class_body = None
        self._owner = method_of or self._owner
        try:
            self._block(node.body, inner)
            self._calls(node)
            if method_of is not None and _is_property(node):
                returned = [
                    stmt.value for stmt in node.body if isinstance(stmt, ast.Return) and stmt.value
                ]
                if returned:  # a property reads as the attribute it computes
                    self._self_assign(node.name, returned[-1])
            elif method_of is not None:  # self.limit(req) reads what the method returns
                for value in returned_values(node.body):
                    self._self_assign(node.name + RETURNS_SUFFIX, value)
        finally:
            for name, value in saved.items():
                setattr(self, name, value)
        if returns:
            self.functions.append(_func_info(self, node, qual, method_of is not None, returns))

    def _class(self, node: ast.ClassDef, env: _Env) -> None:
        qual = ".".join([*self._scope, node.name])
        bases = tuple(self.resolve(b).name for b in node.bases)
        saved_scope, saved_in, saved_body = self._scope, self._in_function, self._class_body
        self._scope = [*self._scope, node.name]
        self._in_function = False
        self._class_body = qual
        captures: dict[str, _Capture] = {}
        init_node: ast.FunctionDef | ast.AsyncFunctionDef | None = None
        class_env = (self._closure or self.consts).copy()
        try:
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name in (
                    "__init__",
                    "__str__",
                    "__repr__",
                ):
                    vararg = stmt.args.vararg.arg if stmt.args.vararg else None
                    capture = _Capture("init" if stmt.name == "__init__" else "str", vararg)
                    self._function(stmt, class_env, capture)
                    captures[stmt.name] = capture
                    if stmt.name == "__init__":
                        init_node = stmt
                    class_env.forget(stmt.name)
                    continue
                if (
                    isinstance(stmt, ast.Assign)
                    and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name)
                    and stmt.targets[0].id == "__str__"
                    and isinstance(stmt.value, ast.Name)
                    and stmt.value.id in captures
                ):
                    captures["__str__"] = captures[stmt.value.id]  # __str__ = __repr__
                    continue
                class_env, _ = self._stmt(stmt, class_env)
        finally:
            self._scope, self._in_function, self._class_body = saved_scope, saved_in, saved_body
        del env
        self.classes.append(
            _class_info(
                self,
                qual,
                bases,
                init=captures.get("__init__"),
                init_node=init_node,
                captures=captures,
            )
        )
