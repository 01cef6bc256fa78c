"""The message a call of an exception class shows, with a call's arguments put in.

>>> from errcat.mine.facts import _Arg, _Call
>>> _builtin_message("ValueError", _Call((_Arg(alts=(("bad input",),), source="'bad input'"),)))
((('bad input',),), None)
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping

from errcat.mine.facts import (
    _CONTROL_FLOW,
    _UNICODE_ERRORS,
    CONTROL_FLOW,
    KEYWORD_ONLY,
    NO_MESSAGE,
    NO_STATIC_TEXT,
    NON_STRING,
    OWN_FORMAT,
    STARRED,
    TOO_MANY,
    _Arg,
    _Call,
    _ClassInfo,
    _FuncInfo,
)
from errcat.mine.templates import (
    _Alts,
    _dedupe,
    _Field,
    _has_static_text,
    _literal_text,
    _normalise,
    _Part,
    _product,
    _Template,
)

#: Builtin classes whose ``str()`` of several arguments is not the tuple's repr (and
#: SyntaxError's subclasses).
_OWN_STR = frozenset({"ExceptionGroup", "BaseExceptionGroup"})


def _builtin_message(name: str, call: _Call, *, several: bool = True) -> tuple[_Alts, str | None]:
    """The message of a builtin exception class (or of a class left unknown) called so.

    With several arguments, ``str()`` of a builtin exception is the repr of the
    tuple of them (``ValueError('bad dtype', x)`` prints ``('bad dtype', ...)``),
    which is what the traceback shows; ``several=False`` (a class whose
    ``__str__`` is unknown) takes the first argument as the message instead.

    >>> found = _builtin_message(
    ...     "ValueError",
    ...     _Call(
    ...         (
    ...             _Arg(alts=(("Unsupported dtype",),), source="'Unsupported dtype'"),
    ...             _Arg(alts=None, source="dtype"),
    ...         )
    ...     ),
    ... )
    >>> (template,), why = found
    >>> template[0], template[1].expr, template[1].conversion, template[2], why
    ("('Unsupported dtype', ", 'dtype', 'r', ')', None)
    """
    if name in _CONTROL_FLOW:
        return (), CONTROL_FLOW
    args = call.args
    if not args:
        if call.starred:
            return (), STARRED
        return (), KEYWORD_ONLY if call.kwargs else NO_MESSAGE
    if name in _UNICODE_ERRORS and len(args) > 1:
        return (), OWN_FORMAT
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, OSError) and len(args) >= 2:
        if call.starred:
            return (), STARRED
        strerror, reason = _arg_message(args[1])
        if reason is not None:
            return (), reason
        if not any(_has_static_text(t) for t in strerror):
            return (), NO_STATIC_TEXT
        errno = args[0].as_str or _Field(args[0].source)
        head: _Template = ("[Errno ", errno, "] ")
        tail: _Template = ()
        if len(args) >= 3:
            tail = (": ", _filename(args[2]))
            if len(args) >= 5:
                tail = (*tail, " -> ", _filename(args[4]))
        return tuple(_normalise((*head, *t, *tail)) for t in strerror), None
    own_str = name in _OWN_STR or (isinstance(cls, type) and issubclass(cls, SyntaxError))
    if several and len(args) >= 2 and not call.starred and not own_str:
        pieces: list[_Alts] = [(("(",),)]
        for i, arg in enumerate(args):
            if i:
                pieces.append(((", ",),))
            pieces.append(_repr_alts(arg))
        pieces.append(((")",),))
        alts = _product(pieces)
        if not any(_has_static_text(t) for t in alts):
            return (), NO_STATIC_TEXT
        return alts, None
    return _arg_message(args[0])


def _repr_alts(arg: _Arg) -> _Alts:
    """How ``repr()`` shows an argument: a constant's own repr, a string's text in quotes."""
    if arg.as_repr is not None:
        return ((arg.as_repr,),)
    if arg.alts:
        return tuple(_quoted(t) for t in arg.alts)
    return ((_Field(arg.source, "r"),),)


def _quoted(template: _Template) -> _Template:
    """A string template as ``repr()`` shows it: quoted, with escapes in its literal text."""
    text = "".join(p for p in template if isinstance(p, str))
    quote = '"' if "'" in text and '"' not in text else "'"

    def escape(part: str) -> str:
        # repr() of the part alone, its quotes taken off; a '"' added when the
        # whole is in single quotes makes repr() escape the part's own single quotes.
        return repr(part + '"')[1:-2] if quote == "'" else repr(part)[1:-1]

    return _normalise((quote, *(escape(p) if isinstance(p, str) else p for p in template), quote))


def _filename(arg: _Arg) -> _Part:
    return arg.as_repr if arg.as_repr is not None else _Field(arg.source, "r")


def _arg_message(arg: _Arg) -> tuple[_Alts, str | None]:
    if arg.non_string:
        return (), NON_STRING
    if arg.alts == ():
        return (), TOO_MANY
    if arg.alts is None:
        return ((_Field(arg.source, ref=arg.ref),),), None
    return arg.alts, None


def _bind(info: _ClassInfo | _FuncInfo, call: _Call) -> dict[str, _Arg] | None:
    """Map ``__init__`` (or function) parameters to a call's arguments (``None`` if unsure)."""
    if call.starred:
        return None
    bindings = dict(info.defaults)
    if len(call.args) > len(info.params) and not info.varargs:
        return None
    for name, arg in zip(info.params, call.args, strict=False):
        bindings[name] = arg
    for name, arg in call.kwargs:
        if name in info.params:
            bindings[name] = arg
    return bindings


def _bind_arg(
    arg: _Arg, bindings: Mapping[str, _Arg], attrs: Mapping[str, _Alts] | None = None
) -> _Arg:
    """An argument of a ``super().__init__`` call, with the outer call's arguments put in.

    ``attrs`` are what ``__init__`` stored on ``self`` (already bound to the
    call): ``self.message = f"bad {what}"; super().__init__(self.message)``
    passes the composed message on.

    >>> composed = (("bad ", _Field("what", ref="what")),)
    >>> _bind_arg(_Arg(None, "self.message"), {}, {"message": composed}).alts == composed
    True
    """
    if arg.ref is not None and arg.ref in bindings:
        return bindings[arg.ref]
    if attrs and arg.alts is None and arg.source.startswith("self."):
        stored = attrs.get(arg.source[5:])
        if stored:
            return _Arg(stored, arg.source)
    if not arg.alts:
        return arg
    alts = _substitute(arg.alts, bindings, {})
    return _Arg(alts, arg.source, arg.as_str, arg.as_repr, arg.non_string, None)


def _as_template(arg: _Arg, conversion: str, spec: str) -> _Alts:
    if not spec:
        if conversion in ("", "s"):
            if arg.alts:
                return arg.alts
            if arg.as_str is not None:
                return ((arg.as_str,),)
        if conversion == "r" and arg.as_repr is not None:
            return ((arg.as_repr,),)
        if conversion == "r" and arg.alts:
            texts = [_literal_text(t) for t in arg.alts]
            if all(t is not None for t in texts):
                return tuple((repr(t),) for t in texts)
    return ((_Field(arg.source, conversion, spec),),)


def _substitute(alts: _Alts, bindings: Mapping[str, _Arg], attrs: Mapping[str, _Alts]) -> _Alts:
    """Specialise a class's message to one call: parameters become the call's arguments."""
    out: list[_Template] = []
    for template in alts:
        pieces: list[_Alts] = []
        for part in template:
            if isinstance(part, str) or part.ref is None:
                pieces.append(((part,),))
                continue
            ref = part.ref
            if ref.startswith("self."):
                attr = attrs.get(ref[5:])
                if attr is None:
                    pieces.append(((part,),))
                    continue
                inner = _substitute(attr, bindings, {})
                if part.conversion in ("", "s") and not part.spec:
                    pieces.append(inner)
                else:
                    texts = [_literal_text(t) for t in inner]
                    if (
                        part.conversion == "r"
                        and not part.spec
                        and all(t is not None for t in texts)
                    ):
                        pieces.append(tuple((repr(t),) for t in texts))
                    else:
                        pieces.append(((part,),))
                continue
            arg = bindings.get(ref)
            if arg is None:
                pieces.append(((part,),))
            else:
                pieces.append(_as_template(arg, part.conversion, part.spec))
        out.extend(_product(pieces))
    return _dedupe(out)
