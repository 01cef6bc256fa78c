r"""Scan one module: walk its statements in order and collect raise sites and classes.

:func:`scan_source` is the per-file step of mining: source text in, a
picklable :class:`_FileScan` out. It depends only on the text and the
module's dotted name, so its result can be cached by content.

>>> scan = scan_source("def f(x):\n    raise ValueError(f'bad {x}')\n", module="m")
>>> [(s.line, s.qualname, s.cls.name) for s in scan.sites]
[(2, 'f', 'ValueError')]
"""

from __future__ import annotations

import ast
import tokenize
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from errcat.mine.evaluate import _Env
from errcat.mine.facts import (
    DYNAMIC_CLASS,
    EXISTING_OBJECT,
    IMPORTED,
    NO_MESSAGE,
    _Arg,
    _AttrDef,
    _Binding,
    _Call,
    _ClassRef,
    _FileScan,
    _Guard,
    _RawSite,
    _Reads,
)
from errcat.mine.files import _module_name
from errcat.mine.guards import build_guard, followed_defs
from errcat.mine.logged import logged_call, prints_traceback
from errcat.mine.names import _is_exception_name
from errcat.mine.options import collect_options
from errcat.mine.raisers import _Helper, helper_argument, raising_helpers
from errcat.mine.records import SNIPPET_RADIUS
from errcat.mine.responses import response_calls
from errcat.mine.templates import _Field
from errcat.mine.values import collect_values
from errcat.mine.walk import _Walker, severity

_MAX_ARG = 200  # longest argument source kept for a binding
_MAX_READS = 40  # attributes (and forwarding calls) noted per parameter
_MAX_ATTR_DEFS = 8  # assignments noted per class attribute (more: it is state, not a setting)
#: Calls through which the reader of conditions sees the setting they read.
_READ_THROUGH = frozenset(
    {"getattr", "getenv", "get", "value", "get_value", "int", "float", "str", "bool", "lower"}
    | {"upper", "strip", "from_string", "from_str", "Path"}
)


def _body_nodes(body: Sequence[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of a function body in source order, outside what it defines in it.

    Nested functions, classes and lambdas are scanned as functions of their own.
    """
    todo: list[ast.AST] = list(reversed(body))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield node
        todo.extend(reversed(list(ast.iter_child_nodes(node))))


class _Scanner(_Walker):
    """Collect raise sites while walking a module (one visitor keeps the context)."""

    def __init__(self, module: str, is_package: bool) -> None:
        super().__init__(module, is_package)
        self.bindings: list[_Binding] = []
        self.signatures: list[tuple[str, tuple[str, ...]]] = []
        self.reads: list[_Reads] = []
        self.attr_defs: list[_AttrDef] = []
        #: The bare names of every function or method called in a function body.
        self.called: set[str] = set()
        self._attr_counts: dict[tuple[str, str], int] = {}
        #: Functions of the module that raise the exception passed to them, by bare name.
        self.helpers: dict[str, _Helper] = {}

    def scan(self, tree: ast.Module) -> None:
        self.helpers = raising_helpers(tree)
        super().scan(tree)

    def _callee(self, func: ast.expr) -> tuple[str, bool] | None:
        """The dotted name of a called function of the mined code, and whether it is a method."""
        if isinstance(func, ast.Name):
            if func.id in self.local_functions:
                return self._qualify(func.id), False
            target = self.imports.get(func.id)
            return (target, False) if target and self._in_project(target) else None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            base = func.value.id
            if base in ("self", "cls") and self._owner is not None:
                return self._qualify(f"{self._owner}.{func.attr}"), True
            target = self.imports.get(base)
            if target and base not in self._params and self._in_project(target):
                return f"{target}.{func.attr}", False
        return None

    def _in_project(self, dotted: str) -> bool:
        """Whether an imported name belongs to the mined project (its top package)."""
        return dotted.partition(".")[0] == self.module.partition(".")[0]

    def _may_read_option(self, node: ast.expr) -> bool:
        """Whether an argument may read a setting (an attribute, a read call, a local)."""
        if isinstance(node, ast.Name):
            return node.id in self._defs
        if isinstance(node, ast.Attribute):
            return True
        if isinstance(node, ast.Call):  # the calls the reader sees through: getattr, .get(), int()
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            return name in _READ_THROUGH
        return False

    def _aliases(self, params: Sequence[str]) -> dict[str, str]:
        """Locals that stand for a parameter: ``v = p`` or ``v = view_of(p)`` (assigned once)."""
        out = {p: p for p in params}
        for name, assigned in self._defs.items():
            if len(assigned) != 1 or assigned[0][2] != "=" or name in out:
                continue
            value = assigned[0][0]
            if isinstance(value, ast.Call) and value.args and not value.keywords:
                value = value.args[0]
            if isinstance(value, ast.Name) and value.id in params:
                out[name] = value.id
        return out

    def _calls(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """Note a function's signature, what it reads on its parameters, what its calls pass.

        One pass over the body. Only calls of the mined project's functions
        count, and only arguments that may read a setting (see :class:`_Binding`).
        """
        caller = self._qualify(self._func_qual)
        args = node.args
        params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
        self.signatures.append((caller, tuple(a.arg for a in (*args.posonlyargs, *args.args))))
        aliases = self._aliases(params)
        attrs: dict[str, dict[str, None]] = {}
        forwards: dict[str, dict[tuple[str, str, bool], None]] = {}
        for item in _body_nodes(node.body):
            base: ast.expr | None = None
            attr = ""
            if isinstance(item, ast.Attribute):
                if isinstance(item.ctx, ast.Load):
                    base, attr = item.value, item.attr
            elif isinstance(item, ast.Call):
                func = item.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called:
                    self.called.add(called)
                if (
                    isinstance(func, ast.Name)
                    and func.id == "getattr"
                    and len(item.args) >= 2
                    and isinstance(item.args[1], ast.Constant)
                    and isinstance(item.args[1].value, str)
                ):
                    base, attr = item.args[0], item.args[1].value
                else:
                    self._note_call(item, caller, aliases, forwards)
            if isinstance(base, ast.Name) and base.id in aliases:
                found = attrs.setdefault(aliases[base.id], {})
                if len(found) < _MAX_READS:
                    found[attr] = None
        for param in dict.fromkeys([*attrs, *forwards]):
            passed_on = tuple(forwards.get(param, ()))[:_MAX_READS]
            self.reads.append(_Reads(caller, param, tuple(attrs.get(param, ())), passed_on))

    def _note_call(
        self,
        call: ast.Call,
        caller: str,
        aliases: dict[str, str],
        forwards: dict[str, dict[tuple[str, str, bool], None]],
    ) -> None:
        """Note what one call of a function of the mined code passes (see :meth:`_calls`)."""
        found = self._callee(call.func)
        if found is None:
            return
        callee, method = found
        passed: list[tuple[str, ast.expr]] = []
        for i, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                break  # positions after a *args are unknown
            passed.append((f"#{i}", arg))
        passed.extend((k.arg, k.value) for k in call.keywords if k.arg)
        for key, arg in passed:
            if isinstance(arg, ast.Name) and arg.id in aliases:
                forwards.setdefault(aliases[arg.id], {})[(callee, key, method)] = None
            if not self._may_read_option(arg):
                continue
            source = ast.unparse(arg)
            if len(source) <= _MAX_ARG:
                defs = tuple(followed_defs([arg], self._defs))
                self.bindings.append(_Binding(callee, key, source, defs, caller, method))

    def _imported(self, node: ast.expr, env: _Env) -> str | None:
        """What a name read at module scope was imported as (``None``: not an import)."""
        if (
            isinstance(node, ast.Name)
            and node.id in self.top_imports
            and node.id not in env.strs
            and node.id not in self._params
        ):
            return self.imports[node.id]
        return None

    def _field(self, node: ast.expr, env: _Env, conversion: str = "", spec: str = "") -> _Field:
        found = super()._field(node, env, conversion, spec)
        target = self._imported(node, env)
        return found if target is None else replace(found, ref=IMPORTED + target)

    def _arg(self, node: ast.expr, env: _Env) -> _Arg:
        found = super()._arg(node, env)
        target = self._imported(node, env)
        return found if target is None else replace(found, ref=IMPORTED + target)

    def _call_args(self, call: ast.Call, env: _Env) -> _Call:
        starred = any(isinstance(a, ast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords
        )
        args: tuple[_Arg, ...] = ()
        for a in call.args:
            if isinstance(a, ast.Starred):
                break  # arguments after a *args have unknown positions
            args = (*args, self._arg(a, env))
        kwargs = tuple((k.arg, self._arg(k.value, env)) for k in call.keywords if k.arg)
        return _Call(args, kwargs, starred)

    def _exception_call(self, node: ast.expr, env: _Env) -> tuple[_ClassRef, ast.Call] | None:
        """The class and call of ``node`` when it constructs an exception (by its name)."""
        if isinstance(node, ast.Name) and env.excs.get(node.id) is not None:
            node = env.excs[node.id]  # type: ignore[assignment]
        if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Name, ast.Attribute)):
            return None
        func = node.func
        if isinstance(func, ast.Name):
            if func.id in self.local_functions and func.id not in self.local_classes:
                return None  # a helper function of this module
        elif (
            isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
            and not func.attr[:1].isupper()
        ):
            return None  # a method, not a class attribute
        cls = self.resolve(func)
        callee = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        if cls.kind in ("builtin", "local") or _is_exception_name(callee):
            return cls, node
        return None

    def _caller_class(self, call: ast.Call) -> _ClassRef | None:
        """The class of ``raise exception(msg)`` when ``exception`` is a parameter, else None.

        Each caller passes its own (tarfile's ``copyfileobj(..., exception=OSError)``
        is called with ``ReadError``): the class is the parameter's default when it
        names a class, else the parameter's name.
        """
        func = call.func
        if not isinstance(func, ast.Name) or func.id not in self._params:
            return None
        default = self._param_defaults.get(func.id)
        if isinstance(default, ast.Name) and default.id == func.id:
            return None  # `ValueError=ValueError`: a fast local name, not the caller's choice
        if isinstance(default, (ast.Name, ast.Attribute)):
            ref = self.resolve(default)
            if ref.kind in ("builtin", "local", "imported"):
                return ref
        return _ClassRef(func.id, "written")

    def _factory_return(self, value: ast.expr, env: _Env) -> None:
        found = self._exception_call(value, env)
        if found is not None and self._returns is not None:
            cls, call = found
            self._returns.append((cls, self._call_args(call, env)))

    def _site(self, node: ast.stmt, cls: _ClassRef, **kwargs: Any) -> None:
        if kwargs.get("skip") in (None, NO_MESSAGE):  # a bare raise may be a record too
            clauses = list(self._clauses)
            if isinstance(node, ast.Assert):
                clauses.append((node.test, False))
            guard = build_guard(
                self._qualify(self._func_qual) if self._func_qual else self.module,
                doc=self._doc,
                params=sorted(self._params),
                clauses=clauses,
                defs=self._defs,
                handler=self._handler,
                module_level=not self._func_qual,
            )
            nodes = self._guard_nodes(guard, clauses)
            kwargs["guard"] = replace(
                guard,
                calls=self._guard_calls(nodes),
                owner=self._qualify(self._owner) if self._owner else None,
                annotations=self._guard_annotations(),
                names=self._guard_names(nodes),
                rejected=tuple(
                    i
                    for i, (test, holds) in enumerate(clauses)
                    if self._rejecting.get((id(test), holds), -1) >= severity(cls)
                ),
            )
        self.sites.append(_RawSite(node.lineno, self._func_qual, cls, **kwargs))

    def _guard_nodes(
        self, guard: _Guard, clauses: Sequence[tuple[ast.expr, bool]]
    ) -> list[ast.AST]:
        """The tests of a guard and the values of the locals they read."""
        nodes: list[ast.AST] = [test for test, _ in clauses]
        for name in dict.fromkeys(d.name for d in guard.defs):
            nodes.extend(value for value, _around, _kind in self._defs.get(name, ()))
        return nodes

    def _guard_annotations(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return tuple(sorted(self._annotations.items()))

    def _guard_names(self, nodes: Sequence[ast.AST]) -> tuple[tuple[str, str], ...]:
        """The names some expressions read that the module imports or defines, as dotted names."""
        found: dict[str, str] = {}
        for node in nodes:
            for item in ast.walk(node):
                if not isinstance(item, ast.Name) or item.id in found or item.id in self._params:
                    continue
                if item.id in self._defs:
                    continue
                if item.id in self.imports:
                    found[item.id] = self.imports[item.id]
                elif item.id in self.local_classes or item.id in self.consts.strs:
                    found[item.id] = self._qualify(self.local_classes.get(item.id, item.id))
                elif item.id in self.module_aliases or item.id in self._module_names:
                    found[item.id] = self._qualify(item.id)
        return tuple(sorted(found.items()))

    def _self_assign(self, attr: str, value: ast.expr) -> None:
        """Note ``self.attr = value`` (a few per attribute; the method's context with it)."""
        assert self._owner is not None
        owner = self._qualify(self._owner)
        key = (owner, attr)
        count = self._attr_counts.get(key, 0)
        self._attr_counts[key] = count + 1
        if count >= _MAX_ATTR_DEFS:
            return
        defs = tuple(followed_defs([value], self._defs))
        nodes: list[ast.AST] = [
            value,
            *(v for d in defs for v, _c, _k in self._defs.get(d.name, ())),
        ]
        self.attr_defs.append(
            _AttrDef(
                owner=owner,
                attr=attr,
                expr=ast.unparse(value),
                function=self._qualify(self._func_qual),
                params=tuple(sorted(self._params)),
                defs=defs,
                calls=self._guard_calls(nodes),
                names=self._guard_names(nodes),
                annotations=self._guard_annotations(),
            )
        )

    def _guard_calls(self, nodes: Sequence[ast.AST]) -> tuple[tuple[str, str, bool], ...]:
        """The functions of the mined code that a guard's tests and locals call."""
        found: dict[str, tuple[str, str, bool]] = {}
        for node in nodes:
            for call in ast.walk(node):
                if isinstance(call, ast.Call):
                    callee = self._callee(call.func)
                    if callee is not None:
                        written = ast.unparse(call.func)
                        found.setdefault(written, (written, *callee))
        return tuple(found.values())

    def _raise(self, node: ast.Raise, env: _Env) -> None:
        exc = node.exc
        if exc is None:
            self.reraises += 1
            return
        if isinstance(exc, ast.Call) and (caller := self._caller_class(exc)) is not None:
            c = self._call_args(exc, env)
            self._site(
                node, caller, args=c.args, kwargs=c.kwargs, starred=c.starred, caller_class=True
            )
            return
        found = self._exception_call(exc, env)
        if found is not None:
            cls, call = found
            c = self._call_args(call, env)
            self._site(node, cls, args=c.args, kwargs=c.kwargs, starred=c.starred)
            return
        if isinstance(exc, ast.Call):
            func = exc.func
            factory = None
            if isinstance(func, ast.Name):
                name = func.id
                factory = self.imports.get(name) or self._qualify(name)
            elif (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id in ("self", "cls")
                and self._owner is not None
            ):
                factory = self._qualify(f"{self._owner}.{func.attr}")
            if factory is None:
                attr = func.attr if isinstance(func, ast.Attribute) else ""
                reason = EXISTING_OBJECT if attr == "with_traceback" else DYNAMIC_CLASS
                self._site(node, _ClassRef(ast.unparse(func), "written"), skip=reason)
                return
            c = self._call_args(exc, env)
            cls = _ClassRef(factory, "factory")
            self._site(node, cls, args=c.args, kwargs=c.kwargs, starred=c.starred)
            return
        if isinstance(exc, (ast.Name, ast.Attribute)):
            cls = self.resolve(exc)
            callee = exc.id if isinstance(exc, ast.Name) else exc.attr
            if cls.kind in ("builtin", "local") or (
                _is_exception_name(callee) and callee[:1].isupper()
            ):
                self._site(node, cls, skip=NO_MESSAGE)
            else:
                self._site(node, cls, skip=EXISTING_OBJECT)
            return
        self._site(node, _ClassRef(ast.unparse(exc), "written"), skip=EXISTING_OBJECT)

    def _helper_call(self, node: ast.Expr, call: ast.Call, env: _Env) -> None:
        """``raise_(OutOfResources(...))``: a helper of the module that raises its argument.

        The call is the raise site (its line is where the error is found), and
        the exception built in the argument gives the class and the message.
        """
        logged = logged_call(call)
        if logged is not None:
            level, message = logged
            self._site(
                node,
                _ClassRef(level, "logged"),
                args=(self._arg(message, env),),
                traceback=prints_traceback(call),
            )
            return
        func = call.func
        helper: _Helper | None = None
        if isinstance(func, ast.Name):
            if func.id not in self._params and func.id not in self.imports:
                helper = self.helpers.get(func.id)
                helper = helper if helper is not None and not helper.method else None
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
            and self._owner is not None
        ):
            helper = self.helpers.get(func.attr)
            helper = helper if helper is not None and helper.method else None
        if helper is None:
            return
        arg = helper_argument(call, helper)
        found = self._exception_call(arg, env) if arg is not None else None
        if found is not None:
            cls, built = found
            c = self._call_args(built, env)
            self._site(node, cls, args=c.args, kwargs=c.kwargs, starred=c.starred)

    def _responses(self, node: ast.stmt, value: ast.expr, env: _Env) -> None:
        """``return self.create_error_response("...")``: an error body, a site at its line.

        Its class is the body's type, its status the one the body carries
        (:mod:`errcat.mine.responses`).
        """
        for _call, response in response_calls(value):
            self._site(
                node,
                _ClassRef(response.error_type, "response"),
                args=(self._arg(response.message, env),),
                status=response.status,
            )

    def _assert(self, node: ast.Assert, env: _Env) -> None:
        cls = _ClassRef("AssertionError", "builtin")
        if node.msg is None:
            self._site(node, cls, is_assert=True, skip=NO_MESSAGE)
            return
        self._site(node, cls, args=(self._arg(node.msg, env),), is_assert=True)


def _scan_file(task: tuple[str, str]) -> _FileScan:
    """Scan one file (runs in a worker process): its sites, classes and aliases."""
    source, file_path = task
    path = Path(source)
    try:
        module, is_package = _module_name(path)
    except OSError:  # pragma: no cover - a directory that vanished
        module, is_package = path.stem, False
    try:
        with tokenize.open(path) as fh:
            text = fh.read()
    except (SyntaxError, ValueError, UnicodeDecodeError, OSError) as exc:
        return _FileScan(source, file_path, module, error=_describe(exc))
    return scan_source(
        text, module=module, is_package=is_package, source=source, file_path=file_path
    )


def scan_source(
    text: str,
    *,
    module: str,
    is_package: bool = False,
    source: str = "<source>",
    file_path: str = "<source>",
) -> _FileScan:
    """Scan one module's source text into the facts the resolver needs (see module docstring).

    ``module`` is the file's dotted name (from the ``__init__.py`` chain above
    it), ``source`` where it was read and ``file_path`` the record's filePath.
    A text that does not parse gives a scan whose ``error`` says why; so does
    a file the scanner fails on for any other reason (one file never stops a run).
    """
    try:
        return _scan_text(text, module, is_package, source, file_path)
    except Exception as exc:  # fault isolation: the file is reported, the run goes on
        return _FileScan(source, file_path, module, error=_describe(exc))


def _scan_text(text: str, module: str, is_package: bool, source: str, file_path: str) -> _FileScan:
    try:
        tree = ast.parse(text, filename=source)
    except (SyntaxError, ValueError, RecursionError) as exc:
        return _FileScan(source, file_path, module, error=_describe(exc))
    scanner = _Scanner(module, is_package)
    try:
        scanner.scan(tree)
    except RecursionError as exc:
        return _FileScan(source, file_path, module, error=f"too deeply nested: {exc}")
    found = collect_options(tree, text, lambda name: scanner.resolve(ast.Name(name)).name)
    values = collect_values(tree, module, lambda written: _resolve_written(scanner, written))
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    snippets = []
    # A raise without a message gets a snippet too: its code is what identifies it.
    for line in sorted({s.line for s in scanner.sites if s.skip in (None, NO_MESSAGE)}):
        start = max(1, line - SNIPPET_RADIUS)
        end = max(line, min(len(lines), line + SNIPPET_RADIUS))
        snippets.append((line, start, end, "\n".join(lines[start - 1 : end])))
    aliases = [
        (f"{module}.{name}", scanner.imports[name])
        for name in sorted(scanner.top_imports)
        if module and scanner.imports[name] != f"{module}.{name}"
    ]
    for name in scanner.module_aliases:
        ref = scanner.resolve(ast.Name(name))
        if ref.kind != "written" and module and ref.name != f"{module}.{name}":
            aliases.append((f"{module}.{name}", ref.name))
    for qual, value in scanner.class_aliases.items():
        ref = scanner.resolve(value)
        if ref.kind != "written" and module:
            aliases.append((f"{module}.{qual}", ref.name))
    return _FileScan(
        source,
        file_path,
        module,
        sites=tuple(scanner.sites),
        snippets=tuple(snippets),
        classes=tuple(scanner.classes),
        functions=tuple(scanner.functions),
        aliases=tuple(aliases),
        consts=tuple(
            (f"{module}.{name}", alts)
            for name, alts in scanner.consts.strs.items()
            if alts and module and name != "__name__"
        ),
        options=tuple(found.options),
        fields=tuple(found.fields),
        parsed=tuple(found.parsed),
        envs=found.envs,
        bindings=tuple(scanner.bindings),
        signatures=tuple(scanner.signatures),
        reads=tuple(scanner.reads),
        attr_defs=tuple(scanner.attr_defs),
        class_fields=tuple(values.classes),
        collections=tuple(values.collections),
        imported=tuple(sorted({t.partition(".")[0] for t in scanner.imports.values() if t})),
        called=tuple(sorted(scanner.called)),
        script=any(_is_main_guard(node) for node in tree.body),
        reraises=scanner.reraises,
    )


def _is_main_guard(node: ast.stmt) -> bool:
    """Whether a module-level statement is ``if __name__ == "__main__":``."""
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
        and any(
            isinstance(c, ast.Constant) and c.value == "__main__" for c in node.test.comparators
        )
    )


def _resolve_written(scanner: _Scanner, written: str) -> str:
    """The dotted name of a class as written in the module (``pkg.Base``, ``Base``)."""
    try:
        node = ast.parse(written, mode="eval").body
    except SyntaxError:
        return written
    if isinstance(node, (ast.Name, ast.Attribute)):
        return scanner.resolve(node).name
    return written


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg} (line {exc.lineno})"
    text = str(exc)
    return f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__
