r"""Read a raise site's guard in the user's terms: the levers its tests read.

A guard's tests are Python expressions. :class:`Reader` renders one readably
("--moe-a2a-backend is deepep_v2 and `n` is not an int") and tells which
lever (:class:`~errcat.mine.levers.Ref`) each term reads: a flag
(``cfg.moe_a2a_backend`` -> ``--moe-a2a-backend``, also through ``self.x``
assigned from one in the class's methods, across classes), a request field, a
key of the model's config, an environment variable, a package, the hardware,
or a parameter of the function. A local assigned once is followed back to
what it was assigned from. A term that is none of these names the levers it is
computed from: through locals (also unpacked ones), ``getattr`` over literal
field names, the flags callers pass for a parameter and the flags a helper
reads on the settings object it is handed (:mod:`errcat.mine.bindings`).
Collections the code spells out (``PARSERS.get(name)``, ``x not in
SUPPORTED``, an ``Enum``) give the values a user may choose
(:meth:`Reader.items_of`); :meth:`Reader.normalize` rewrites lookups in them
as membership tests. :mod:`errcat.mine.ways` turns tests into actions.

>>> from errcat.mine.facts import _Option
>>> from errcat.mine.options import OptionIndex
>>> index = OptionIndex([_Option("mode", "--mode", choices=("a", "b", "c"))], ["APP_DEBUG"])
>>> reader = Reader(index, params=("n",))
>>> reader.describe(parse_test("cfg.mode == 'b' and not isinstance(n, int)"))
'--mode is b and `n` is not an int'
>>> reader.describe(negate(parse_test("x > 3 or os.getenv('APP_DEBUG')")))
'`x` is at most 3 and environment variable APP_DEBUG is not set'
>>> reader.describe(parse_test("_is_hip and cfg.mode"))
'on ROCm (AMD GPUs) and --mode is set'
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from errcat.mine.facts import _AttrDef, _Def
from errcat.mine.levers import (
    MODEL_KEYS,
    SOURCE_KINDS,
    Ref,
    hardware_ref,
    is_model_config,
    model_key,
    package_ref,
)
from errcat.mine.logic import (
    ORDER_WORDS,
    article,
    compare,
    conjuncts,
    is_none,
    negate,
    negates_inwards,
    or_list,
    pairs,
    parse_test,
)
from errcat.mine.options import OptionIndex, env_read
from errcat.mine.project import ProjectIndex
from errcat.mine.returns import levers_only, returned
from errcat.mine.terms import (
    bound_ref,
    callee,
    capability,
    each_item,
    option_ref,
    shown_items,
)
from errcat.mine.values import literal_texts

__all__ = ["Reader", "Ref", "conjuncts", "each_item", "negate", "parse_test"]

_BARE = re.compile(r"^[\w.\-/:+]+$")
_MAX_TERM = 60
#: Names of objects whose attributes are the project's settings (``args.x``, ``cfg.x``).
_CONFIG = re.compile(r"(?i)(?:^|_)(?:args?|cfg|conf|config|view|settings|opts|options)$")
#: Classes whose instances hold the settings (``ServerArgs``, ``ModelConfig``).
_SETTINGS_CLASS = re.compile(r"(?:Args|Arguments|Config|Settings|Options)$")
#: Calls that convert a value without changing what it names (``from_string(x)``, ``x.lower()``).
_CONVERSIONS = frozenset(
    {"from_string", "from_str", "int", "float", "str", "bool", "Path", "lower", "upper", "strip"}
)
#: Calls that copy a collection (``list(X)``, ``sorted(X.keys())``): the same values.
_COPIES = frozenset({"list", "tuple", "set", "frozenset", "sorted", "keys", "get_args"})
_MAX_DEPTH = 4
#: How many ``self.x`` assignments deep a term is followed (each one's answer is remembered).
_MAX_NESTING = 6
_MAX_SOURCES_SHOWN = 4


def _self_method_call(node: ast.expr) -> bool:
    """Whether a value is what a method of the object returns (``self._get_limit(seq)``)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
    )


def _type_names(node: ast.expr) -> list[str]:
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    return [ast.unparse(i) for i in items]


def _words(name: str) -> str:
    return name.replace("_", " ").strip()


@dataclass
class Reader:
    """Render tests in user terms; remembers which levers it named."""

    options: OptionIndex
    params: Sequence[str] = ()
    defs: Mapping[str, Sequence[_Def]] = field(default_factory=dict)
    named: dict[str, Ref] = field(default_factory=dict)
    nested: bool = False  # inside the tests of an assignment (not followed further)
    self_is_config: bool = False  # ``self`` is a settings object (a method of ServerArgs)
    #: What the callers pass for a parameter, when it is a flag or variable (see bindings).
    bound: Mapping[str, Sequence[Ref]] = field(default_factory=dict)
    #: Functions of the mined code the tests call: as written -> (dotted name, is a method).
    calls: Mapping[str, tuple[str, bool]] = field(default_factory=dict)
    #: What such a function reads on a parameter: (function, key, method) -> its flags.
    reads: Callable[[str, str, bool], Sequence[Ref]] | None = None
    #: The whole project (classes, collections, ``self.x`` assignments), when known.
    project: ProjectIndex | None = None
    #: The class whose method this is (dotted), for ``self.x``.
    owner: str | None = None
    #: Parameters annotated with classes: parameter -> dotted class names.
    annotations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Names the module imports or defines, as written -> dotted.
    names: Mapping[str, str] = field(default_factory=dict)
    #: What callers pass for the parameters of a function (``CallIndex.bound``).
    binder: Callable[[str], Mapping[str, Sequence[Ref]]] | None = None

    # -- terms -------------------------------------------------------------

    def ref(self, node: ast.expr, depth: int = 0) -> Ref | None:
        """The lever an expression reads, if it reads exactly one (see the module docstring)."""
        if depth > _MAX_DEPTH:
            return None
        hardware = hardware_ref(node)
        if hardware is not None:
            return self._note(hardware)
        if self.project is not None:
            package = package_ref(node, self.project.imported)
            if package is not None:
                return self._note(package)
        env = env_read(node)
        if env is not None and self.options.is_env(env):
            return self._note(Ref("env", env))
        key = model_key(node, self._model_objects())
        if key is not None:
            return self._note(Ref("model", key))
        if isinstance(node, ast.Call):
            return self._call_ref(node, depth)
        if isinstance(node, ast.IfExp):  # None if x is None else str(x)
            if is_none(node.body):
                return self.ref(node.orelse, depth + 1)
            if is_none(node.orelse):
                return self.ref(node.body, depth + 1)
            return None
        if isinstance(node, ast.Subscript):
            return self._request_key(node.value, node.slice)
        if isinstance(node, ast.Attribute):
            return self._attribute_ref(node, depth)
        if isinstance(node, ast.Name):
            return self._name_ref(node, depth)
        return None

    def _call_ref(self, node: ast.Call, depth: int) -> Ref | None:
        func = node.func
        if isinstance(func, ast.Attribute) and not node.args:
            if func.attr in ("get", "value", "get_value"):  # envs.SGLANG_X.get()
                inner = self.ref(func.value, depth)
                if inner is not None and inner.kind == "env":
                    return inner
            if func.attr in _CONVERSIONS:
                return self.ref(func.value, depth)
            return self._returned(func, depth)
        if isinstance(func, ast.Attribute) and func.attr == "get" and node.args:
            return self._request_key(func.value, node.args[0])  # data.get("tools")
        if (
            len(node.args) == 1
            and not node.keywords
            and isinstance(func, (ast.Name, ast.Attribute))
            and callee(node) in _CONVERSIONS
        ):
            return self.ref(node.args[0], depth)
        if node.args and "env" in callee(node).lower():
            key = node.args[0]
            if (
                isinstance(key, ast.Constant)
                and isinstance(key.value, str)
                and self.options.is_env(key.value)
            ):
                return self._note(Ref("env", key.value))
            return None
        if (
            isinstance(func, ast.Name)
            and func.id == "getattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):  # getattr(cfg, "tp_size", 1) reads cfg.tp_size
            if (
                node.args[1].value == "value"
                and len(node.args) == 3
                and ast.dump(node.args[2]) == ast.dump(node.args[0])
            ):  # getattr(x, "value", x): an enum member's value, or x itself
                return self.ref(node.args[0], depth)
            attr = ast.Attribute(value=node.args[0], attr=node.args[1].value, ctx=ast.Load())
            return self.ref(attr, depth)
        if isinstance(func, ast.Attribute):
            return self._returned(func, depth)
        return None

    def _returned(self, method: ast.Attribute, depth: int) -> Ref | None:
        """The lever a method call returns (``self.limit()``), when each return reads it."""
        found = returned(self, method, depth)[0]
        return self._note(found) if found is not None else None

    def _attribute_ref(self, node: ast.Attribute, depth: int) -> Ref | None:
        if node.attr == "value" and isinstance(node.value, ast.Attribute):
            return self.ref(node.value, depth)
        if self.options.is_env(node.attr):
            return self._note(Ref("env", node.attr))
        classes = self.classes_of(node.value, depth)
        if self.project is not None and classes:
            field_name = self.project.request_field(classes, node.attr)
            if field_name is not None:
                return self._note(Ref("request", field_name))
            if self.project.is_model_config(classes) and not node.attr.startswith("_"):
                # a private attribute of a config class is its own state, no config.json key
                return self._note(Ref("model", node.attr))
        option = self.options.option(node.attr)
        if option is not None and (
            self._is_config(node.value, depth)
            or any(_SETTINGS_CLASS.search(c.rsplit(".", 1)[-1]) for c in classes)
            or (isinstance(node.value, ast.Call) and not node.value.args and "_" in node.attr)
        ):
            return self._note(option_ref(option))
        for cls in classes:
            found, _sources = self._traced(cls, node.attr)
            if found is not None:
                return self._note(found)
        return None

    def _name_ref(self, node: ast.Name, depth: int) -> Ref | None:
        if node.id in self.params and self.bound.get(node.id):
            return self._note(bound_ref(node.id, self.bound[node.id]))
        if node.id in self.params:
            option = self.options.option(node.id)
            if option is not None and option.kind == "flag" and "_" in node.id:
                # A parameter named as a multi-word flag (tool_call_parser): that flag.
                return self._note(option_ref(option))
            if option is not None and option.kind == "flag":
                return self._note(
                    Ref("arg", node.id, option.choices, option.is_bool, flag=option.flag)
                )
            if node.id in MODEL_KEYS:  # a parameter named as a config.json key: that key
                return self._note(Ref("model", node.id))
            return self._note(Ref("arg", node.id))
        single = self._single_def(node.id)
        if single is not None:
            found = self.ref(single, depth + 1)
            if found is None:  # x = cfg.x or fallback(...): the one option it reads
                reads = {
                    r.name: r
                    for n in ast.walk(single)
                    if isinstance(n, ast.Attribute)
                    and (r := self.ref(n, depth + 1)) is not None
                    and r.kind not in ("arg", "hardware")
                }
                found = next(iter(reads.values())) if len(reads) == 1 else None
            return found
        if self.options.is_env(node.id) and node.id.isupper():
            return self._note(Ref("env", node.id))
        return None

    def _request_key(self, container: ast.expr, key: ast.expr) -> Ref | None:
        """``data["tools"]`` / ``data.get("tools")`` in a request model's validator."""
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        if not isinstance(container, ast.Name) or container.id in ("self", "cls"):
            return None
        if self.project is None or self.owner is None or container.id not in self.params:
            return None
        if not self.project.is_request((self.owner,)):
            return None
        return self._note(Ref("request", key.value))

    def _model_objects(self) -> tuple[str, ...]:
        """Parameters (and ``self`` attributes) that hold the model's config."""
        if self.project is None or not self.annotations:
            return ()
        return tuple(
            p for p, classes in self.annotations.items() if self.project.is_model_config(classes)
        )

    def classes_of(self, node: ast.expr, depth: int = 0) -> tuple[str, ...]:
        """The classes of the mined code an object is an instance of, as far as the code says.

        ``self`` is the method's class; a parameter has its annotation; ``self.x``
        what the class's methods assign to it (an instance built there, or an
        annotated parameter stored).
        """
        if depth > _MAX_DEPTH or self.project is None:
            return ()
        if isinstance(node, ast.Name):
            if node.id == "self":
                return (self.owner,) if self.owner else ()
            if node.id in self.annotations:
                return self.annotations[node.id]
            single = self._single_def(node.id)
            if single is not None:
                return self.classes_of(single, depth + 1)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "getattr" and len(node.args) == 3:
                return self.classes_of(node.args[2], depth + 1)  # getattr(self, "cls", Default)
            target = self._dotted(func)
            if target is not None and target in self.project.classes:
                return (target,)
            if isinstance(func, ast.Attribute):  # Config.from_server_args(...): a Config
                return tuple(
                    c for c in self.classes_of(func.value, depth + 1) if c in self.project.classes
                )
            return ()
        dotted = self._dotted(node)
        if dotted is not None and dotted in self.project.classes:
            return (dotted,)  # the class itself (a factory classmethod is called on it)
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and self.owner
        ):
            project = self.project
            key = ("classes", self.owner, node.attr)
            if key not in project.memo:
                if project.active >= _MAX_NESTING:
                    return ()  # too deep to tell here: not remembered
                project.memo[key] = ()  # a cycle reads nothing more
                project.active += 1
                found: dict[str, None] = {}
                try:
                    for d in project.attr_defs(self.owner, node.attr):
                        sub = self.for_attr(d)
                        found.update(dict.fromkeys(sub.classes_of(parse_test(d.expr))))
                finally:
                    project.active -= 1
                project.memo[key] = tuple(found)
            return project.memo[key]  # type: ignore[return-value]
        return ()

    def _dotted(self, node: ast.expr) -> str | None:
        """The dotted name of a name or attribute chain the module imports or defines."""
        if isinstance(node, ast.Name):
            return self.names.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self._dotted(node.value)
            return f"{base}.{node.attr}" if base is not None else None
        return None

    def for_attr(self, d: _AttrDef) -> Reader:
        """A reader of the method that assigns ``self.<attr>`` (for its value)."""
        defs: dict[str, list[_Def]] = {}
        for item in d.defs:
            defs.setdefault(item.name, []).append(item)
        return Reader(
            self.options,
            params=d.params,
            defs=defs,
            self_is_config=bool(_SETTINGS_CLASS.search(d.owner.rsplit(".", 1)[-1])),
            bound=self.binder(d.function) if self.binder is not None else {},
            calls={written: (name, method) for written, name, method in d.calls},
            reads=self.reads,
            project=self.project,
            owner=d.owner,
            annotations=dict(d.annotations),
            names=dict(d.names),
            binder=self.binder,
        )

    def _traced(self, owner: str, attr: str) -> tuple[Ref | None, tuple[Ref, ...]]:
        """The lever ``self.attr`` of a class reads, and the levers it is computed from.

        The lever is named only when every assignment of the attribute reads it.
        """
        project = self.project
        if project is None:
            return None, ()
        memo = project.memo
        key = ("attr", owner, attr)
        if key in memo:
            return memo[key]  # type: ignore[return-value]
        if project.active >= _MAX_NESTING:
            return None, ()  # too deep to tell here: not remembered
        memo[key] = (None, ())  # a cycle reads nothing more
        refs: list[Ref | None] = []
        sources: dict[str, Ref] = {}
        project.active += 1
        try:
            for d in project.attr_defs(owner, attr):
                sub = self.for_attr(d)
                value = parse_test(d.expr)
                found = sub.ref(value)
                refs.append(found)
                if found is not None and found.kind in SOURCE_KINDS:
                    sources.setdefault(found.key, found)
                elif found is None:
                    for r in sub.sources(value):
                        sources.setdefault(r.key, r)
        finally:
            project.active -= 1
        keys = {r.key for r in refs if r is not None}
        one = next((r for r in refs if r is not None), None)
        agreed = one if refs and len(keys) == 1 and all(r is not None for r in refs) else None
        if agreed is not None and agreed.kind == "arg":
            agreed = None  # a parameter of another method: only what its callers pass counts
        result = (agreed, tuple(sources.values()))
        memo[key] = result
        return result

    def _is_config(self, node: ast.expr, depth: int) -> bool:
        """Whether an object reads as the project's settings (``q.dtype`` does not)."""
        if isinstance(node, ast.Call):  # resolved_view(server_args), get_config()
            return bool(_CONFIG.search(callee(node))) or any(
                self._is_config(a, depth) for a in node.args[:1]
            )
        name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
        if name == "self":
            return self.self_is_config
        if _CONFIG.search(name):
            return True
        single = self._single_def(name) if isinstance(node, ast.Name) else None
        return single is not None and depth < _MAX_DEPTH and self._is_config(single, depth + 1)

    def _note(self, ref: Ref) -> Ref:
        self.named.setdefault(ref.key, ref)
        return ref

    def _single_def(self, name: str) -> ast.expr | None:
        found = self.defs.get(name, ())
        if len(found) != 1 or found[0].kind != "=" or name in self.params:
            return None
        try:
            return parse_test(found[0].expr)
        except SyntaxError:  # pragma: no cover - stored from ast.unparse
            return None

    def origins(self, name: str) -> list[_Def]:
        """The assignments of a local assigned more than once (empty otherwise)."""
        found = list(self.defs.get(name, ()))
        return found if len(found) > 1 else []

    def term(self, node: ast.expr, depth: int = 0) -> str:
        """A term as the text shows it.

        A term that is not itself a lever names the levers it is computed from,
        if any (``tp % dcp`` with ``tp, dcp = cfg.tp_size, cfg.dcp_size``:
        "(from --tp-size, --dcp-size)").
        """
        ref = self.ref(node)
        if ref is not None:
            return ref.shown()
        if isinstance(node, ast.Constant):
            return self.value(node)
        if isinstance(node, ast.Name) and depth < _MAX_DEPTH:
            single = self._single_def(node.id)
            if (
                single is not None
                and len(ast.unparse(single)) <= _MAX_TERM
                and not _self_method_call(single)  # prompt_limit, not self._get_limit(seq)
            ):
                return self.term(single, depth + 1)
        text = f"`{ast.unparse(node)}`"
        if isinstance(node, ast.Name) and self.origins(node.id):
            # A local with several values: the levers they read, when each reads one.
            refs = [self.ref(parse_test(d.expr)) for d in self.origins(node.id) if d.kind == "="]
            shown = list(dict.fromkeys(r.shown() for r in refs if r is not None))
            if refs and all(r is not None for r in refs):
                return f"{text} ({or_list(shown)})"
            if levers_only(self, node) is None:  # values of internal state: no levers named
                return text
        found = [r.shown() for r in self.sources(node)]
        if found:
            more = " and others" if len(found) > _MAX_SOURCES_SHOWN else ""
            text += f" (from {', '.join(found[:_MAX_SOURCES_SHOWN])}{more})"
        return text

    def sources(self, node: ast.expr, depth: int = 0) -> list[Ref]:
        """The levers an expression is computed from (its locals and attributes followed back).

        Arguments count when their callers pass a lever for them.
        """
        out: dict[str, Ref] = {}
        self._sources(node, depth, out, set())
        return list(out.values())

    def _sources(self, node: ast.AST, depth: int, out: dict[str, Ref], seen: set[str]) -> None:
        if len(out) > _MAX_SOURCES_SHOWN or depth > _MAX_DEPTH or not isinstance(node, ast.expr):
            if not isinstance(node, ast.expr):  # comprehension parts, keywords
                for child in ast.iter_child_nodes(node):
                    self._sources(child, depth, out, seen)
            return
        if isinstance(node, ast.Name) and node.id in self.params and self.bound.get(node.id):
            for bound in self.bound[node.id]:  # what callers pass
                out.setdefault(bound.key, bound)
            return
        ref = self.ref(node, depth)
        if ref is not None:
            if ref.kind in SOURCE_KINDS:
                out.setdefault(ref.key, ref)
            return
        if is_model_config(node):  # get_context_length(self.hf_text_config): the model
            whole = Ref("model", "")
            out.setdefault(whole.key, whole)
            return
        if isinstance(node, ast.Name):
            if node.id not in seen and node.id not in self.params:
                seen.add(node.id)
                for d in self.defs.get(node.id, ()):
                    try:
                        self._sources(parse_test(d.expr), depth + 1, out, seen)
                    except SyntaxError:  # pragma: no cover - stored from ast.unparse
                        continue
            return
        if isinstance(node, ast.Attribute):
            for cls in self.classes_of(node.value, depth):
                for r in self._traced(cls, node.attr)[1]:
                    out.setdefault(r.key, r)
            if isinstance(node.value, ast.Name) and node.value.id in self.params:
                return  # an attribute of a parameter object is not the parameter's value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            for r in returned(self, node.func, depth)[1]:  # prompt_limit = self._limit(req)
                out.setdefault(r.key, r)
        for attribute in self._named_attributes(node):
            self._sources(attribute, depth + 1, out, seen)
        for ref in self._helper_reads(node, depth):
            out.setdefault(ref.key, ref)
        for child in ast.iter_child_nodes(node):
            self._sources(child, depth, out, seen)

    def _helper_reads(self, node: ast.expr, depth: int) -> list[Ref]:
        """What a function of the mined code reads on the settings object a call hands it.

        Read two calls deep (see :meth:`errcat.mine.bindings.CallIndex.reads`).
        """
        if not isinstance(node, ast.Call) or self.reads is None:
            return []
        target = self.calls.get(ast.unparse(node.func))
        if target is None:
            return []
        passed = [(f"#{i}", a) for i, a in enumerate(node.args) if not isinstance(a, ast.Starred)]
        passed += [(k.arg, k.value) for k in node.keywords if k.arg]
        out: dict[str, Ref] = {}
        for key, arg in passed:
            if self._is_config(arg, depth):
                for ref in self.reads(target[0], key, target[1]):
                    out.setdefault(ref.key, ref)
        # A helper that reads many settings (a whole model config built from them) pinpoints none.
        return list(out.values()) if len(out) <= _MAX_SOURCES_SHOWN else []

    def _named_attributes(self, node: ast.expr) -> list[ast.Attribute]:
        """``getattr(cfg, name)`` where ``name`` runs over literal names: each ``cfg.<name>``."""
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Name)
        ):
            return []
        names: list[str] = []
        for d in self.defs.get(node.args[1].id, ()):
            try:
                value = parse_test(d.expr)
            except SyntaxError:  # pragma: no cover - stored from ast.unparse
                return []
            listed = d.kind == "for" and isinstance(value, (ast.Tuple, ast.List))
            items = value.elts if isinstance(value, (ast.Tuple, ast.List)) and listed else [value]
            texts = [i.value for i in items if isinstance(i, ast.Constant)]
            if len(texts) != len(items) or not all(isinstance(t, str) for t in texts):
                return []
            names.extend(str(t) for t in texts)
        return [ast.Attribute(value=node.args[0], attr=n, ctx=ast.Load()) for n in names]

    # -- values ------------------------------------------------------------

    def value(self, node: ast.expr) -> str:
        """A value compared against, as text (bare words unquoted)."""
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return node.value if _BARE.match(node.value) else repr(node.value)
            return repr(node.value)
        items = self.values(node)
        if items is not None:
            return or_list(items)
        return self.term(node)

    def values(self, node: ast.expr) -> list[str] | None:
        """The static values of a collection the code spells out (``None`` when not static).

        A literal tuple, list or set, or a constant, class attribute or enum (see
        :meth:`items_of`).
        """
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(
            isinstance(e, ast.Constant) for e in node.elts
        ):
            return [self.value(e) for e in node.elts]
        items = self.items_of(node)
        return [self.value(ast.Constant(i)) for i in items] if items is not None else None

    def items_of(self, node: ast.expr, depth: int = 0) -> tuple[str, ...] | None:
        """The texts of a collection the code spells out, if it is one.

        A literal, a module or class constant, an enum, or a copy of one
        (``sorted(X.keys())``).
        """
        if depth > _MAX_DEPTH:
            return None
        if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            return literal_texts(node)
        if isinstance(node, ast.Call) and callee(node) in _COPIES:
            inner = node.func.value if isinstance(node.func, ast.Attribute) else None
            if callee(node) == "keys" and inner is not None:
                return self.items_of(inner, depth + 1)
            if len(node.args) == 1 and not isinstance(node.func, ast.Attribute):
                return self.items_of(node.args[0], depth + 1)
            return None
        if isinstance(node, (ast.ListComp, ast.SetComp)) and len(node.generators) == 1:
            return self.items_of(node.generators[0].iter, depth + 1)  # [m.value for m in Enum]
        if self.project is None:
            return None
        if isinstance(node, ast.Name):
            single = self._single_def(node.id)
            if single is not None:
                return self.items_of(single, depth + 1)
        dotted = self._dotted(node)
        if dotted is not None:
            return self.project.collection(dotted)
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
            and self.owner
        ):
            for cls in self.project.mro(self.owner):
                found = self.project.collection(f"{cls}.{node.attr}")
                if found is not None:
                    return found
        return None

    def normalize(self, node: ast.expr) -> ast.expr:
        """A test with lookups in a known collection written as membership tests.

        ``PARSERS.get(name)`` reads as ``name in PARSERS``, ``... is None`` as
        ``not in``, a local assigned such a lookup as the lookup, ``x in D.keys()``
        as ``x in D``.
        """
        if isinstance(node, ast.BoolOp):
            return ast.BoolOp(op=node.op, values=[self.normalize(v) for v in node.values])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.normalize(node.operand)
            return (
                negate(inner) if isinstance(inner, ast.Compare) else ast.UnaryOp(ast.Not(), inner)
            )
        lookup = self._lookup(node)
        if lookup is not None:
            return lookup
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, op, right = node.left, node.ops[0], node.comparators[0]
            zero = isinstance(right, ast.Constant) and right.value == 0
            if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mod) and zero:
                if isinstance(op, (ast.NotEq, ast.Gt)):  # n % 16 != 0: a remainder
                    return left
                if isinstance(op, ast.Eq):
                    return ast.UnaryOp(op=ast.Not(), operand=left)
            if isinstance(op, (ast.Is, ast.IsNot)) and is_none(right):
                found = self._lookup(left)
                if found is not None:
                    return negate(found) if isinstance(op, ast.Is) else found
            if (
                isinstance(op, (ast.In, ast.NotIn))
                and isinstance(right, ast.Call)
                and callee(right) == "keys"
                and isinstance(right.func, ast.Attribute)
            ):
                return compare(left, op, right.func.value)
        return node

    def _lookup(self, node: ast.expr) -> ast.Compare | None:
        """``D.get(x)`` (or a local assigned it) as ``x in D``, when D is a known collection."""
        if isinstance(node, ast.Name):
            single = self._single_def(node.id)
            return self._lookup(single) if single is not None else None
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and len(node.args) == 1
            and self.items_of(node.func.value) is not None
        ):
            return compare(node.args[0], ast.In(), node.func.value)
        return None

    # -- tests -------------------------------------------------------------

    def describe(self, node: ast.expr) -> str:
        """A test as a readable statement (what holds when it is true)."""
        if isinstance(node, ast.BoolOp):
            word = " and " if isinstance(node.op, ast.And) else " or "
            parts = [self.describe(v) for v in node.values]
            if isinstance(node.op, ast.Or) and len(parts) > 1:
                return "either " + word.join(parts)
            return word.join(parts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = node.operand
            if negates_inwards(inner):
                return self.describe(negate(inner))
            return self._predicate(inner, positive=False)
        if isinstance(node, ast.Compare):
            return " and ".join(self._comparison(*p) for p in pairs(node))
        return self._predicate(node, positive=True)

    def _comparison(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> str:
        lhs = self.term(left)
        if isinstance(op, (ast.Is, ast.IsNot)) and is_none(right):
            ref = self.ref(left)
            if ref is not None:
                return f"{lhs} is {'not ' if isinstance(op, ast.Is) else ''}set"
            return f"{lhs} is {'not ' if isinstance(op, ast.IsNot) else ''}None"
        if isinstance(op, (ast.Eq, ast.Is)):
            return f"{lhs} is {self.value(right)}"
        if isinstance(op, (ast.NotEq, ast.IsNot)):
            return f"{lhs} is not {self.value(right)}"
        if isinstance(op, (ast.In, ast.NotIn)):
            neg = "not " if isinstance(op, ast.NotIn) else ""
            items = self.values(right)
            if items is not None:
                return f"{lhs} is {neg}one of {', '.join(shown_items(items))}"
            return f"{lhs} is {neg}in {self.term(right)}"
        return f"{lhs} is {ORDER_WORDS[type(op)]} {self.value(right)}"

    def _predicate(self, node: ast.expr, *, positive: bool) -> str:
        neg = "" if positive else "not "
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name == "isinstance" and len(node.args) == 2:
                kinds = " or ".join(article(t) for t in _type_names(node.args[1]))
                return f"{self.term(node.args[0])} is {neg}{kinds}"
            if name == "hasattr" and len(node.args) == 2:
                attr = ast.unparse(node.args[1]).strip("'\"")
                has = "has" if positive else "does not have"
                return f"{self.term(node.args[0])} {has} an attribute {attr}"
            if name == "callable" and len(node.args) == 1:
                return f"{self.term(node.args[0])} is {neg}callable"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):  # n % 16: a remainder
            multiple = "a multiple" if not positive else "not a multiple"
            return f"{self.term(node.left)} is {multiple} of {self.value(node.right)}"
        bound = capability(node)
        if bound is not None:
            return f"the GPU compute capability is {'at least' if positive else 'below'} {bound}"
        each = each_item(node)
        if each is not None:  # any(a in S for a in L)
            quantifier, items, op, right = each
            some = {"any": ("some", "no"), "all": ("every", "not every")}[quantifier]
            said = self._comparison(ast.Name("item"), op, right).removeprefix("`item` ")
            return f"{some[0 if positive else 1]} item of {self.term(items)} {said}"
        ref = self.ref(node)
        if ref is not None and ref.kind == "hardware":
            return f"{'' if positive else 'not '}on {ref.shown()}"
        if ref is not None and ref.kind == "package":
            return f"{ref.shown()} is {neg}installed"
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr.startswith("is_")
            and not node.args
        ):
            return f"{self.term(node.func.value)} is {neg}{_words(node.func.attr[3:])}"
        if ref is not None:
            return f"{ref.shown()} is {neg}set"
        if isinstance(node, ast.Constant):
            return "always" if bool(node.value) == positive else "never"
        return f"{self.term(node)} is {'true' if positive else 'false'}"

    def used(self, kinds: Iterable[str] = ("flag", "env", "arg")) -> list[Ref]:
        """The terms named so far, of the given kinds, in order."""
        wanted = set(kinds)
        return [r for r in self.named.values() if r.kind in wanted]
