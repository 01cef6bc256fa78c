"""What a class's ``__init__``/``__str__`` and a factory function tell of the message.

The scanner collects these while it walks a class or function body; the
functions here turn them into the :class:`_ClassInfo` and :class:`_FuncInfo`
facts the resolver reads.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field

from errcat.mine.evaluate import _Env
from errcat.mine.facts import _Arg, _Call, _ClassInfo, _ClassRef, _FuncInfo
from errcat.mine.names import _ModuleNames
from errcat.mine.templates import _Alts, _dedupe, _Field, _Template, _TooManyVariantsError


@dataclass(slots=True)
class _Capture:
    """What the ``__init__`` (or ``__str__``) of a class being scanned does with its message."""

    kind: str  # "init" or "str"
    vararg: str | None = None
    calls: list[tuple[str | None, _Call]] = field(default_factory=list)
    messages: list[_Template] = field(default_factory=list)
    opaque: bool = False
    passthrough: bool = False
    attrs: dict[str, _Alts] = field(default_factory=dict)


def _func_info(
    names: _ModuleNames,
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    qual: str,
    is_method: bool,
    returns: list[tuple[_ClassRef, _Call]],
) -> _FuncInfo:
    a = node.args
    positional = [p.arg for p in (*a.posonlyargs, *a.args)]
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
    if is_method and not static:
        positional = positional[1:]
    defaults: list[tuple[str, _Arg]] = []
    with_default = positional[len(positional) - len(a.defaults) :] if a.defaults else []
    for name, default in zip(with_default, a.defaults[-len(with_default) :], strict=False):
        defaults.append((name, names._arg(default, _Env())))
    for kw, kw_default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        if kw_default is not None:
            defaults.append((kw.arg, names._arg(kw_default, _Env())))
    return _FuncInfo(
        name=names._qualify(qual),
        params=(*positional, *(p.arg for p in a.kwonlyargs)),
        defaults=tuple(defaults),
        varargs=a.vararg is not None or a.kwarg is not None,
        returns=tuple(returns),
    )


def _class_info(
    names: _ModuleNames,
    qual: str,
    bases: tuple[str, ...],
    *,
    init: _Capture | None,
    init_node: ast.FunctionDef | ast.AsyncFunctionDef | None,
    captures: Mapping[str, _Capture],
) -> _ClassInfo:
    params: tuple[str, ...] = ()
    defaults: list[tuple[str, _Arg]] = []
    varargs = False
    state = "none"
    attrs: tuple[tuple[str, _Alts], ...] = ()
    if init is not None and init_node is not None:
        a = init_node.args
        positional = [p.arg for p in (*a.posonlyargs, *a.args)][1:]
        params = (*positional, *(p.arg for p in a.kwonlyargs))
        with_default = positional[len(positional) - len(a.defaults) :]
        for name, default in zip(with_default, a.defaults, strict=True):
            defaults.append((name, names._arg(default, _Env())))
        for kw, kw_default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
            if kw_default is not None:
                defaults.append((kw.arg, names._arg(kw_default, _Env())))
        varargs = a.vararg is not None or a.kwarg is not None
        attrs = tuple(init.attrs.items())
        if init.opaque:
            state = "opaque"
        elif init.calls:
            state = "super"
        else:
            state = "nosuper"
    str_message: _Alts | None = None
    shown = captures.get("__str__")
    if shown is not None:
        try:
            str_message = _dedupe(shown.messages) if shown.messages else None
        except _TooManyVariantsError:
            str_message = None
        if str_message is None:
            str_message = ((_Field("str(self)"),),)
    return _ClassInfo(
        name=names._qualify(qual),
        bases=bases,
        params=params,
        defaults=tuple(defaults),
        varargs=varargs,
        init=state,
        super_calls=tuple(init.calls) if init is not None else (),
        str_message=str_message,
        self_attrs=attrs,
    )


def _capture_return(names: _ModuleNames, capture: _Capture, value: ast.expr, env: _Env) -> None:
    try:
        capture.messages.extend(names._eval_or_field(value, env))
    except _TooManyVariantsError:
        capture.messages.append((_Field("str(self)"),))


def _capture_super_init(names: _ModuleNames, capture: _Capture, value: ast.expr, env: _Env) -> None:
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "__init__"
    ):
        return
    receiver = value.func.value
    args = list(value.args)
    target: str | None
    if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name):
        if receiver.func.id != "super":
            return
        target = None
    elif args and isinstance(args[0], ast.Name) and args[0].id == "self":
        args = args[1:]
        target = names.resolve(receiver).name
    else:
        return
    starred = [a for a in args if isinstance(a, ast.Starred)]
    if starred or any(k.arg is None for k in value.keywords):
        passes = (
            len(args) == 1
            and len(starred) == 1
            and isinstance(starred[0].value, ast.Name)
            and starred[0].value.id == capture.vararg
        )
        if passes and all(k.arg is None for k in value.keywords):
            capture.passthrough = True  # super().__init__(*args[, **kwargs])
        else:
            capture.opaque = True
        return
    kwargs = tuple((k.arg, names._arg(k.value, env)) for k in value.keywords if k.arg)
    capture.calls.append((target, _Call(tuple(names._arg(a, env) for a in args), kwargs)))
