"""The static string value of an expression: f-strings, ``%``, ``.format``, ``+``, gettext.

:class:`_Evaluator` reads an expression with what is known of the names in
scope (an :class:`_Env`) and gives its static string value(s) as templates,
placeholders standing for what is known only at run time.

>>> import ast
>>> tree = ast.parse("'no section: %r' % (name,)", mode="eval")
>>> _Evaluator()._eval(tree.body, _Env())
(('no section: ', _Field(expr='name', conversion='r', spec='', ref='name')),)
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Sequence
from typing import Any

from errcat.mine.facts import _Arg
from errcat.mine.templates import (
    _CONVERSIONS,
    _FORMAT_HEAD,
    _NO_MATCH,
    _PERCENT_SPEC,
    BASE_STR,
    _Alts,
    _dedupe,
    _Field,
    _format_rest,
    _literal_text,
    _paren,
    _percent_to_format,
    _product,
    _render_field,
    _Template,
    _TooManyVariantsError,
)


def dotted_name(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attributes on a name (a bare name too), else ``None``.

    >>> dotted_name(ast.parse("self.MSG", mode="eval").body)
    'self.MSG'
    >>> dotted_name(ast.parse("f().MSG", mode="eval").body) is None
    True
    """
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _is_base_str(node: ast.Call) -> bool:
    """Whether a call is the base exception's ``__str__``: ``super().__str__()``, ``str(super())``.

    >>> _is_base_str(ast.parse("super().__str__()", mode="eval").body)
    True
    >>> _is_base_str(ast.parse("Exception.__str__(self)", mode="eval").body)
    True
    >>> _is_base_str(ast.parse("self.name.__str__()", mode="eval").body)
    False
    """
    func = node.func
    if node.keywords:
        return False

    def is_super(expr: ast.expr) -> bool:
        return (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Name)
            and expr.func.id == "super"
            and not expr.keywords
        )

    if isinstance(func, ast.Attribute) and func.attr == "__str__":
        if is_super(func.value) and not node.args:
            return True
        # Exception.__str__(self), ValueError.__str__(self)
        return (
            isinstance(func.value, ast.Name)
            and func.value.id.endswith(("Exception", "Error"))
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "self"
        )
    return (
        isinstance(func, ast.Name)
        and func.id == "str"
        and len(node.args) == 1
        and is_super(node.args[0])
    )


_GETTEXT = frozenset({"_", "gettext", "N_", "gettext_lazy", "ugettext", "lazy_gettext"})
_NGETTEXT = frozenset({"ngettext", "ungettext", "ngettext_lazy"})


_ABSENT: Any = object()


class _Env:
    """What a function knows at one point: string values of names, exception objects."""

    __slots__ = ("excs", "strs")

    def __init__(
        self,
        strs: dict[str, _Alts | None] | None = None,
        excs: dict[str, ast.Call | None] | None = None,
    ) -> None:
        self.strs: dict[str, _Alts | None] = strs if strs is not None else {}
        self.excs: dict[str, ast.Call | None] = excs if excs is not None else {}

    def copy(self) -> _Env:
        return _Env(dict(self.strs), dict(self.excs))

    def forget(self, name: str) -> None:
        self.strs[name] = None
        self.excs[name] = None


#: A word of prose: two letters or more.
_WORD = re.compile(r"[A-Za-z]{2,}")


def _sentences(present: Sequence[_Alts | None]) -> _Alts:
    """The values among ``present`` that read as a sentence: three words or more, spaced.

    >>> _sentences([(("Pass trust_remote_code=True to load it",),), (("cute-dsl",),)])
    (('Pass trust_remote_code=True to load it',),)
    >>> _sentences([None, (("A10G",),), (("cpu only",),)])
    ()
    """
    out: list[tuple[Any, ...]] = []
    for value in present:
        for alt in value or ():
            text = " ".join(piece for piece in alt if isinstance(piece, str))
            if text.count(" ") >= 2 and len(_WORD.findall(text)) >= 3:
                out.append(alt)
    return tuple(out)


def _merge(envs: Sequence[_Env], params: frozenset[str] = frozenset()) -> _Env:
    """Join what several paths know: a name keeps every value it may have.

    A name one path never bound is left out there (it was unbound, so using it
    would fail), except a parameter in ``params``: it still holds what the
    caller passed, so a value set on one path only is not the name's value.
    A sentence set on one path (a default message) is one of its values,
    beside the parameter itself.

    >>> a, b = _Env({"msg": (("x",),), "mode": (("auto",),)}), _Env()
    >>> _merge([a, b]).strs
    {'msg': (('x',),), 'mode': (('auto',),)}
    >>> _merge([a, b], params=frozenset({"mode"})).strs
    {'msg': (('x',),)}
    >>> c = _Env({"msg": (("no such model here",),)})
    >>> _merge([c, b], params=frozenset({"msg"})).strs["msg"][1]
    (_Field(expr='msg', conversion='', spec='', ref='msg'),)
    """
    if len(envs) == 1:
        return envs[0]
    out = _Env()
    for name in dict.fromkeys(k for e in envs for k in e.strs):
        values = [e.strs.get(name, _ABSENT) for e in envs]
        present = [v for v in values if v is not _ABSENT]
        if name in params and len(present) < len(values):
            # The caller's value on some path: read as the parameter itself, and as
            # any sentence the function writes in its place (a default message is
            # printed; a default token such as a backend's name passed the check).
            said = _sentences(present)
            if said:
                out.strs[name] = _dedupe((*said, ((_Field(name, "", "", name),))))
            continue
        if any(v is None for v in present):
            out.strs[name] = None
        elif any(v == () for v in present):
            out.strs[name] = ()
        else:
            try:
                out.strs[name] = _dedupe(t for v in present for t in v)
            except _TooManyVariantsError:
                out.strs[name] = ()
    for name in dict.fromkeys(k for e in envs for k in e.excs):
        calls = {id(c): c for c in (e.excs[name] for e in envs if name in e.excs)}
        out.excs[name] = next(iter(calls.values())) if len(calls) == 1 else None
    return out


class _Evaluator:
    """Read the static string value of expressions (stateless: the names come in an env)."""

    def _field(self, node: ast.expr, env: _Env, conversion: str = "", spec: str = "") -> _Field:
        ref = None
        if isinstance(node, ast.Name) and node.id not in env.strs:
            ref = node.id
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            ref = f"self.{node.attr}"
        return _Field(ast.unparse(node), conversion, spec, ref)

    def _eval_or_field(self, node: ast.expr, env: _Env) -> _Alts:
        alts = self._eval(node, env)
        return alts if alts is not None else ((self._field(node, env),),)

    def _value(self, node: ast.expr, env: _Env, conversion: str, spec: str) -> _Alts:
        """A value formatted with a conversion and spec (f-string, ``%`` or ``.format``)."""
        if not spec:
            alts = self._eval(node, env)
            if alts is not None:
                if conversion in ("", "s"):
                    return alts
                texts = [_literal_text(t) for t in alts]
                if all(t is not None for t in texts):
                    show = repr if conversion == "r" else ascii
                    return tuple((show(t),) for t in texts)
            elif (
                conversion in ("", "s")
                and isinstance(node, ast.Constant)
                and isinstance(node.value, (int, float))
                and not isinstance(node.value, bool)
            ):
                return ((str(node.value),),)
        return ((self._field(node, env, conversion, spec),),)

    def _spec(self, spec: ast.expr | None, env: _Env) -> str:
        if spec is None:
            return ""
        if isinstance(spec, ast.JoinedStr):
            out = []
            for value in spec.values:
                if isinstance(value, ast.Constant):
                    out.append(str(value.value))
                elif isinstance(value, ast.FormattedValue):
                    conv = _CONVERSIONS.get(value.conversion, "")
                    out.append(_render_field(_Field(ast.unparse(value.value), conv)))
            return "".join(out)
        return ""

    def _eval(self, node: ast.expr, env: _Env) -> _Alts | None:
        """The static string value(s) of an expression, or ``None`` when it has none."""
        if isinstance(node, ast.Constant):
            return ((node.value,),) if isinstance(node.value, str) else None
        if isinstance(node, ast.JoinedStr):
            pieces: list[_Alts] = []
            for value in node.values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    pieces.append(((value.value,),))
                elif isinstance(value, ast.FormattedValue):
                    conv = _CONVERSIONS.get(value.conversion, "")
                    spec = self._spec(value.format_spec, env)
                    pieces.append(self._value(value.value, env, conv, spec))
                else:  # pragma: no cover - not produced by the parser
                    return None
            return _product(pieces)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add):
                return self._add(node, env)
            if isinstance(node.op, ast.Mod):
                return self._percent(node, env)
            return None
        if isinstance(node, ast.IfExp):
            body = self._eval(node.body, env)
            orelse = self._eval(node.orelse, env)
            if body is None and orelse is None:
                return None
            return _dedupe(
                (*self._or_field(body, node.body, env), *self._or_field(orelse, node.orelse, env))
            )
        if isinstance(node, (ast.Name, ast.Attribute)):
            # A name, or a constant read through its class (``self.MSG``, ``cls.MSG``,
            # ``Owner.MSG``: the env holds those the module binds once, by dotted name).
            key = dotted_name(node)
            known = env.strs.get(key) if key is not None else None
            if known == ():
                raise _TooManyVariantsError
            return known
        if isinstance(node, ast.Call):
            return self._call(node, env)
        return None

    def _or_field(self, alts: _Alts | None, node: ast.expr, env: _Env) -> _Alts:
        return alts if alts is not None else ((self._field(node, env),),)

    def _add(self, node: ast.BinOp, env: _Env) -> _Alts | None:
        operands: list[ast.expr] = []
        cur: ast.expr = node
        while isinstance(cur, ast.BinOp) and isinstance(cur.op, ast.Add):
            operands.append(cur.right)
            cur = cur.left
        operands.append(cur)
        operands.reverse()
        values = [self._eval(op, env) for op in operands]
        if all(v is None for v in values):
            return None
        return _product(
            [self._or_field(v, op, env) for v, op in zip(values, operands, strict=True)]
        )

    def _percent(self, node: ast.BinOp, env: _Env) -> _Alts | None:
        formats = self._eval(node.left, env)
        if formats is None:
            return None
        right = node.right
        positional: list[ast.expr] | None = None
        mapping: dict[str, ast.expr] | None = None
        if isinstance(right, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in right.elts):
            positional = list(right.elts)
        elif isinstance(right, ast.Dict) and all(
            isinstance(k, ast.Constant) and isinstance(k.value, str) for k in right.keys
        ):
            mapping = {
                str(k.value): v
                for k, v in zip(right.keys, right.values, strict=True)
                if isinstance(k, ast.Constant)
            }
        elif (
            isinstance(right, ast.Call)
            and isinstance(right.func, ast.Name)
            and right.func.id == "dict"
            and not right.args
            and all(k.arg for k in right.keywords)
        ):
            mapping = {k.arg: k.value for k in right.keywords if k.arg}
        out: list[_Template] = []
        for fmt in formats:
            text = _literal_text(fmt)
            if text is None:
                return None
            converted = self._convert_percent(text, right, positional, mapping, env)
            if converted is None:
                return None
            out.extend(converted)
        return _dedupe(out)

    def _convert_percent(
        self,
        text: str,
        right: ast.expr,
        positional: list[ast.expr] | None,
        mapping: dict[str, ast.expr] | None,
        env: _Env,
    ) -> _Alts | None:
        pieces: list[_Alts] = []
        pos = 0
        index = 0
        specs: list[tuple[str, re.Match[str]]] = []
        i = 0
        while True:
            j = text.find("%", i)
            if j < 0:
                specs.append((text[i:], _NO_MATCH))
                break
            m = _PERCENT_SPEC.match(text, j)
            if m is None:
                return None
            specs.append((text[i:j], m))
            i = m.end()
        wanted = sum(
            1 + (m["width"] == "*") + (m["prec"] == "*")
            for _, m in specs
            if m is not _NO_MATCH and m["type"] != "%" and not m["key"]
        )
        keyed = any(m is not _NO_MATCH and m["key"] is not None for _, m in specs)
        if not keyed and positional is not None and len(positional) != wanted:
            return None
        for literal, m in specs:
            pieces.append(((literal,),))
            if m is _NO_MATCH:
                continue
            kind = m["type"]
            if kind == "%":
                pieces.append((("%",),))
                continue
            pos += (m["width"] == "*") + (m["prec"] == "*")
            conversion, spec = _percent_to_format(m)
            value: ast.expr | None = None
            expr: str
            if m["key"] is not None:
                expr = m["key"]
                value = mapping.get(expr) if mapping is not None else None
            elif positional is not None:
                value = positional[pos] if pos < len(positional) else None
                expr = f"{ast.unparse(right)}[{pos}]"
                pos += 1
            elif wanted == 1:
                value = right
                expr = ast.unparse(right)
            else:
                expr = f"{_paren(ast.unparse(right))}[{index}]"
                index += 1
            if value is None:
                pieces.append(((_Field(expr, conversion, spec),),))
            else:
                pieces.append(self._value(value, env, conversion, spec))
        return _product(pieces)

    def _call(self, node: ast.Call, env: _Env) -> _Alts | None:
        func = node.func
        args = node.args
        if any(isinstance(a, ast.Starred) for a in args):
            return None
        name = func.id if isinstance(func, ast.Name) else None
        attr = func.attr if isinstance(func, ast.Attribute) else None
        if (name in _GETTEXT or attr in _GETTEXT) and len(args) == 1:
            return self._eval(args[0], env)
        if (name in _NGETTEXT or attr in _NGETTEXT) and len(args) >= 2:
            one, many = self._eval(args[0], env), self._eval(args[1], env)
            if one is None or many is None:
                return None
            return _dedupe((*one, *many))
        if _is_base_str(node):
            return ((_Field(ast.unparse(node), ref=BASE_STR),),)
        if name == "str" and len(args) == 1 and not node.keywords:
            return self._value(args[0], env, "", "")
        if name == "repr" and len(args) == 1 and not node.keywords:
            return self._value(args[0], env, "r", "")
        if isinstance(func, ast.Attribute) and attr in ("format", "format_map", "join"):
            receiver = self._eval(func.value, env)
            if receiver is None:
                return None
            texts = [_literal_text(t) for t in receiver]
            if any(t is None for t in texts):
                return None
            out: list[_Template] = []
            for text in texts:
                assert text is not None
                if attr == "join":
                    joined = self._join(text, node, env)
                else:
                    joined = self._brace_format(text, node, env, mapped=attr == "format_map")
                if joined is None:
                    return None
                out.extend(joined)
            return _dedupe(out)
        return None

    def _join(self, sep: str, node: ast.Call, env: _Env) -> _Alts | None:
        if len(node.args) != 1 or node.keywords:
            return None
        seq = node.args[0]
        if not isinstance(seq, (ast.List, ast.Tuple)) or any(
            isinstance(e, ast.Starred) for e in seq.elts
        ):
            return None
        pieces: list[_Alts] = []
        for index, element in enumerate(seq.elts):
            if index:
                pieces.append(((sep,),))
            pieces.append(self._eval_or_field(element, env))
        return _product(pieces)

    def _brace_format(self, text: str, node: ast.Call, env: _Env, *, mapped: bool) -> _Alts | None:
        try:
            parsed = list(string.Formatter().parse(text))
        except ValueError:
            return None
        args = [] if mapped else list(node.args)
        keywords = {} if mapped else {k.arg: k.value for k in node.keywords if k.arg}
        pieces: list[_Alts] = []
        auto = 0
        for literal, name, spec, conversion in parsed:
            pieces.append(((literal,),))
            if name is None:
                continue
            head = _FORMAT_HEAD.match(name)
            first = head.group() if head else name
            rest = name[len(first) :]
            value: ast.expr | None
            if first == "":
                value = args[auto] if auto < len(args) else None
                first = str(auto)
                auto += 1
            elif first.isdigit():
                value = args[int(first)] if int(first) < len(args) else None
            else:
                value = keywords.get(first)
            conv = conversion or ""
            shown_spec = spec if spec and "{" not in spec else ""
            if value is None:
                pieces.append(((_Field(first + rest, conv, shown_spec),),))
            elif rest:
                expr = _paren(ast.unparse(value)) + _format_rest(rest)
                pieces.append(((_Field(expr, conv, shown_spec),),))
            else:
                pieces.append(self._value(value, env, conv, shown_spec))
        return _product(pieces)

    def _arg(self, node: ast.expr, env: _Env) -> _Arg:
        try:
            alts = self._eval(node, env)
        except _TooManyVariantsError:
            alts = ()
        as_str = as_repr = None
        non_string = False
        if isinstance(node, ast.Constant):
            as_repr = repr(node.value)
            as_str = str(node.value)
            non_string = not isinstance(node.value, str)
        ref = node.id if isinstance(node, ast.Name) and node.id not in env.strs else None
        return _Arg(alts, ast.unparse(node), as_str, as_repr, non_string, ref)
