"""Resolve class names across the mined files and compute each site's templates.

:class:`_Resolver` is built from every file's :class:`_FileScan` (the
cross-file step of mining): it follows re-exports to the defining class,
walks the mined classes' ``__init__`` chains, and gives each raise site its
``(errorClass, template)`` pairs, or the reason it is skipped.
"""

from __future__ import annotations

from collections.abc import Sequence

from errcat.mine.facts import (
    _BUILTINS,
    _CONTROL_FLOW,
    _KNOWN_ALIASES,
    CONTROL_FLOW,
    DYNAMIC_CLASS,
    FEW_WORDS,
    IMPORTED,
    NO_MESSAGE,
    NO_ROUND_TRIP,
    NO_STATIC_TEXT,
    OWN_FORMAT,
    READS_AS_EXCEPTION,
    STARRED,
    TOO_MANY,
    _Call,
    _ClassInfo,
    _ClassRef,
    _FileScan,
    _FuncInfo,
    _RawSite,
)
from errcat.mine.logged import reads_whole
from errcat.mine.messages import _arg_message, _bind, _bind_arg, _builtin_message, _substitute
from errcat.mine.responses import says_enough
from errcat.mine.templates import (
    BASE_STR,
    _Alts,
    _dedupe,
    _Field,
    _has_static_text,
    _literal_text,
    _product,
    _render,
    _round_trips,
    _strip_edges,
    _Template,
    _TooManyVariantsError,
)


class _Resolver:
    """Resolve class names across the mined files and compute each site's templates."""

    def __init__(self, scans: Sequence[_FileScan]) -> None:
        self.classes: dict[str, _ClassInfo] = {}
        self.functions: dict[str, _FuncInfo] = {}
        self.aliases: dict[str, str] = {}
        self.consts: dict[str, _Alts] = {}
        for scan in scans:
            for info in scan.classes:
                self.classes.setdefault(info.name, info)
            for func in scan.functions:
                self.functions.setdefault(func.name, func)
            for name, target in scan.aliases:
                self.aliases.setdefault(name, target)
            for name, alts in scan.consts:
                self.consts.setdefault(name, alts)

    def canonical(self, name: str) -> str:
        """The defining name of a class or function re-exported under ``name``."""
        for _ in range(10):
            if name in self.classes or name in self.functions or name not in self.aliases:
                break
            name = self.aliases[name]
        return _KNOWN_ALIASES.get(name, name)

    def class_name(self, ref: _ClassRef) -> str:
        """The class as the traceback prints it."""
        if ref.kind == "builtin":
            return ref.name
        if ref.kind in ("local", "imported"):
            name = self.canonical(ref.name)
            if name.startswith("builtins."):
                return _BUILTINS.get(name[9:], name[9:])
            return name
        return ref.name

    def fill_constants(self, alts: _Alts) -> _Alts:
        """Put in the value of each placeholder that reads a constant of another mined module."""
        if not self.consts:
            return alts
        out: list[_Template] = []
        for template in alts:
            pieces: list[_Alts] = []
            for part in template:
                if not (isinstance(part, _Field) and part.ref and part.ref.startswith(IMPORTED)):
                    pieces.append(((part,),))
                    continue
                value = self.consts.get(self.canonical(part.ref[len(IMPORTED) :]))
                if value is None or part.spec or part.conversion not in ("", "s", "r"):
                    pieces.append(((part,),))
                elif part.conversion == "r":
                    pieces.append(tuple((repr(_literal_text(t)),) for t in value))
                else:
                    pieces.append(value)
            out.extend(_product(pieces))
        return _dedupe(out)

    def chain(self, name: str) -> list[_ClassInfo]:
        """The mined classes of ``name``'s method resolution order (first bases only)."""
        out: list[_ClassInfo] = []
        seen: set[str] = set()
        while name in self.classes and name not in seen and len(out) < 20:
            seen.add(name)
            info = self.classes[name]
            out.append(info)
            name = self._parent(info)
        return out

    def _parent(self, info: _ClassInfo) -> str:
        for base in info.bases:
            name = self.canonical(base)
            if name in self.classes or name in _BUILTINS.values():
                return name
        return "Exception"

    def builtin_base(self, name: str) -> str | None:
        """The nearest builtin exception class ``name`` derives from, if known."""
        if name in _BUILTINS.values():
            return name
        todo = [name]
        seen: set[str] = set()
        while todo:
            current = todo.pop(0)
            if current in seen or len(seen) > 50:
                continue
            seen.add(current)
            if current in _BUILTINS:
                return _BUILTINS[current]
            info = self.classes.get(current)
            if info is not None:
                todo.extend(self.canonical(b) for b in info.bases)
        return None

    def messages(self, site: _RawSite) -> tuple[list[tuple[str, _Alts]], str | None]:
        """The ``(errorClass, templates)`` a site raises, or the reason it is skipped."""
        if site.skip is not None:
            return [], site.skip
        call = _Call(site.args, site.kwargs, site.starred)
        if site.is_assert:
            alts, reason = _arg_message(site.args[0])
            return ([("AssertionError", alts)] if reason is None else []), reason
        if site.cls.kind in ("logged", "response"):
            # logger.warning(...): the level stands for the class; an error body: its type
            alts, reason = _arg_message(site.args[0])
            return ([(site.cls.name, alts)] if reason is None else []), reason
        if site.cls.kind != "factory":
            name = self.class_name(site.cls)
            alts, reason = self._class_message(site.cls.kind, name, call)
            return ([(name, alts)] if reason is None else []), reason
        found = self._member(site.cls.name)
        if isinstance(found, str):
            # ``self.error(msg)``: a class the owner defines or names (``error = OSError``).
            kind = "builtin" if found in _BUILTINS.values() else "local"
            alts, reason = self._class_message(kind, found, call)
            return ([(found, alts)] if reason is None else []), reason
        func = found
        if func is None:
            return [], DYNAMIC_CLASS
        bindings = _bind(func, call)
        if bindings is None:
            return [], STARRED if call.starred else DYNAMIC_CLASS
        out: list[tuple[str, _Alts]] = []
        why: str | None = None
        for ref, returned in func.returns:
            inner = _Call(
                tuple(_bind_arg(a, bindings) for a in returned.args),
                tuple((k, _bind_arg(a, bindings)) for k, a in returned.kwargs),
                returned.starred,
            )
            name = self.class_name(ref)
            alts, reason = self._class_message(ref.kind, name, inner)
            if reason is None:
                out.append((name, alts))
            else:
                why = why or reason
        return out, None if out else why

    def _member(self, name: str) -> _FuncInfo | str | None:
        """What ``self.<attr>`` of a method (``Owner.attr``) is: a factory, a class, or unknown.

        A function of the mined code that returns an exception (a factory), or an
        exception class: a nested one, or one the class body names. A member the
        owner does not define is looked up in its mined bases, nearest first.
        """
        owner, _, attr = name.rpartition(".")
        for holder in [owner, *(info.name for info in self.chain(self.canonical(owner))[1:])]:
            candidate = self.canonical(f"{holder}.{attr}") if holder else name
            func = self.functions.get(candidate)
            if func is not None:
                return func
            if candidate in self.classes or candidate in _BUILTINS.values():
                return candidate if self.builtin_base(candidate) is not None else None
        return None

    def _class_message(self, kind: str, name: str, call: _Call) -> tuple[_Alts, str | None]:
        if kind == "written" or name not in self.classes:
            if name in _BUILTINS.values():
                return _builtin_message(name, call)
            # A class from elsewhere: its __str__ is unknown, the first argument is the message.
            return _builtin_message("Exception", call, several=False)
        return self._message(name, call)

    def _message(self, name: str, call: _Call) -> tuple[_Alts, str | None]:
        """The message of ``name(*call)``, through the mined classes' ``__init__``, ``__str__``."""
        chain = self.chain(name)
        base = self.builtin_base(name) or "Exception"
        if base in _CONTROL_FLOW:
            return (), CONTROL_FLOW
        str_owner = next((c for c in chain if c.str_message is not None), None)
        found: list[_Template] = []
        reason: str | None = None
        for attrs, base_call, unknown in self._states(name, call, call, 0):
            if str_owner is not None and str_owner.str_message is not None:
                shown = str_owner.str_message
                if unknown is None and _uses_base_str(shown):
                    given, why = _builtin_message(base, base_call)
                    if why is None:
                        shown = _with_base_str(shown, given)
                found.extend(_substitute(shown, {}, attrs))
                continue
            why = unknown
            if why is None and "args" in attrs:
                why = OWN_FORMAT  # self.args was replaced: str() shows that
            if why is None:
                alts, why = _builtin_message(base, base_call)
                found.extend(alts)
            reason = reason or why
        if not found:
            return (), reason or NO_MESSAGE
        return _dedupe(found), None

    def _states(
        self, name: str, call: _Call, outer: _Call, depth: int
    ) -> list[tuple[dict[str, _Alts], _Call, str | None]]:
        """What constructing ``name(*call)`` leaves, one item per path through ``__init__``.

        Each item holds the ``self`` attributes set, the arguments
        ``BaseException.__init__`` received, and why they are unknown (or ``None``).
        """
        chain = self.chain(name)
        owner = next((c for c in chain if c.init != "none"), None)
        if owner is None:
            return [({}, call, None)]
        bindings = _bind(owner, call)
        if bindings is None:
            return [({}, call, STARRED if call.starred else OWN_FORMAT)]
        attrs = {attr: _substitute(alts, bindings, {}) for attr, alts in owner.self_attrs}
        if owner.init == "nosuper":
            return [(attrs, outer, None)]
        if owner.init == "opaque" or depth > 8:
            return [(attrs, call, OWN_FORMAT)]
        out: list[tuple[dict[str, _Alts], _Call, str | None]] = []
        for target, passed in owner.super_calls:
            parent = self.canonical(target) if target else self._parent(owner)
            inner = _Call(
                tuple(_bind_arg(a, bindings, attrs) for a in passed.args),
                tuple((k, _bind_arg(a, bindings, attrs)) for k, a in passed.kwargs),
            )
            for parent_attrs, base_call, why in self._states(parent, inner, outer, depth + 1):
                out.append(({**parent_attrs, **attrs}, base_call, why))
        return out


def _uses_base_str(alts: _Alts) -> bool:
    return any(isinstance(p, _Field) and p.ref == BASE_STR for t in alts for p in t)


def _with_base_str(alts: _Alts, given: _Alts) -> _Alts:
    """A ``__str__``'s templates with ``super().__str__()`` replaced by the message given.

    A ``__str__`` that appends details to the base message (``f"{base} ({extras})"
    if extras else base``) thus yields the message the raise passed, which is
    what a paste starts with.
    """
    out: list[_Template] = []
    for template in alts:
        pieces: list[_Alts] = []
        for part in template:
            if isinstance(part, _Field) and part.ref == BASE_STR and not part.spec:
                pieces.append(given)
            else:
                pieces.append(((part,),))
        out.extend(_product(pieces))
    return _dedupe(out)


def _known_class(resolver: _Resolver, site: _RawSite, cls_name: str) -> bool:
    """Whether a site's class is known to be an exception class.

    That is a builtin, or a class of the mined code that derives from one; not
    a name nobody resolved, such as a factory method's ``self._src.parse_error``
    or ``case.failureException``.
    """
    if site.cls.kind == "response":
        return False  # an error body's type is a word the body shows, not a class
    return site.cls.kind == "builtin" or resolver.builtin_base(cls_name) is not None


def _bare_class(resolver: _Resolver, site: _RawSite) -> str | None:
    """The class of a raise without a message (``assert x``, ``raise NotImplementedError``).

    Only a class the scan resolved (a builtin, or one of this or another
    module's, named like an exception) and not one that ends a loop or a
    program: ``raise StopIteration`` and ``raise SystemExit`` are not errors.
    """
    if site.is_assert:
        return "AssertionError"
    if site.cls.kind not in ("builtin", "local", "imported"):
        return None
    name = resolver.class_name(site.cls)
    base = resolver.builtin_base(name)
    if name in _BARE_NOT_ERRORS or base in _BARE_NOT_ERRORS:
        return None
    return name


#: Raised without a message to stop a loop or a program, not to report an error.
_BARE_NOT_ERRORS = frozenset({*_CONTROL_FLOW, "SystemExit", "GeneratorExit"})


def _site_texts(
    resolver: _Resolver, site: _RawSite, *, bare: bool = False
) -> tuple[list[tuple[str, str]], str | None]:
    """The ``(errorClass, template)`` of a site (round-trip checked), or why not.

    A template without a word of its own (``{msg}``, ``{a}: {b}``) is kept when
    its class was resolved: its text matches nearly anything, so the matcher
    proposes it only for a traceback whose raise frame is in its file, and
    answers with it only when that frame is at its raise line. With ``bare``,
    a raise without any message (``assert x is not None``, ``raise
    NotImplementedError``) gives the empty template the same way: the
    traceback's frame at its line, and the code it shows, are its evidence.
    """
    try:
        messages, reason = resolver.messages(site)
    except _TooManyVariantsError:
        return [], TOO_MANY
    if reason == NO_MESSAGE and bare:
        cls_name = _bare_class(resolver, site)
        if cls_name is not None:
            return [(cls_name, "")], None
    if reason is not None:
        return [], reason
    texts: list[tuple[str, str]] = []
    failed = None
    for cls_name, alts in messages:
        for raw in resolver.fill_constants(alts):
            template = _strip_edges(raw)
            if not _has_static_text(template) and not (
                any(isinstance(part, _Field) for part in template)
                and _known_class(resolver, site, cls_name)
            ):
                # Nothing to show at all (``raise ValueError("")``). A message of values
                # only (``{msg}``) is kept when its class is known: a traceback's frame
                # at its line finds it, and the class must agree (an unresolved
                # ``raise case.failureException(msg)`` could be anything).
                failed = failed or NO_STATIC_TEXT
                continue
            text = _render(template)
            if not _round_trips(template, text):
                failed = NO_ROUND_TRIP
                continue
            if site.cls.kind in ("logged", "response") and not reads_whole(text):
                failed = READS_AS_EXCEPTION
                continue
            if site.cls.kind == "response" and not says_enough(text):
                failed = FEW_WORDS
                continue
            if (cls_name, text) not in texts:
                texts.append((cls_name, text))
    if not texts:
        return [], failed or NO_STATIC_TEXT
    return texts, None
