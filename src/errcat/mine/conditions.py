r"""Read a raise site's guard in the user's terms: flags, environment variables, arguments.

A guard's tests are Python expressions. :class:`Reader` renders one readably
("--moe-a2a-backend is deepep_v2 and `n` is not an int"), naming a config
attribute by its flag (``cfg.moe_a2a_backend`` -> ``--moe-a2a-backend``), an
environment variable read or declared by the project by its name, and a
parameter of the function as an argument; a local assigned once is followed
back to what it was assigned from. A term that is none of these names the
flags it is computed from: through locals (also unpacked ones), ``getattr``
over literal field names, the flags callers pass for a parameter and the
flags a helper reads on the settings object it is handed
(:mod:`errcat.mine.bindings`). :func:`negate` turns a test into its
negation (De Morgan, inverted comparisons), and :meth:`Reader.ways_out` gives
one action per way of making a test false.

>>> from errcat.mine.facts import _Option
>>> from errcat.mine.options import OptionIndex
>>> index = OptionIndex([_Option("mode", "--mode", choices=("a", "b", "c"))], ["APP_DEBUG"])
>>> reader = Reader(index, params=("n",))
>>> test = parse_test("cfg.mode == 'b' and not isinstance(n, int)")
>>> reader.describe(test)
'--mode is b and `n` is not an int'
>>> reader.ways_out(test)
['Set --mode to a value other than b (one of a, c)', 'Pass an int for `n`']
>>> reader.describe(negate(parse_test("x > 3 or os.getenv('APP_DEBUG')")))
'`x` is at most 3 and environment variable APP_DEBUG is not set'
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from errcat.mine.facts import _Def
from errcat.mine.options import OptionIndex, env_read

__all__ = ["Reader", "Ref", "negate", "parse_test"]

_INVERSE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_ORDER_WORDS = {
    ast.Lt: "less than",
    ast.LtE: "at most",
    ast.Gt: "greater than",
    ast.GtE: "at least",
}
_BARE = re.compile(r"^[\w.\-/:+]+$")
_MAX_TERM = 60
#: Names of objects whose attributes are the project's settings (``args.x``, ``cfg.x``).
_CONFIG = re.compile(r"(?i)(?:^|_)(?:args?|cfg|conf|config|view|settings|opts|options)$")
_MAX_CHOICES_SHOWN = 6
#: Calls that convert a value without changing what it names (``from_string(x)``, ``x.lower()``).
_CONVERSIONS = frozenset(
    {"from_string", "from_str", "int", "float", "str", "bool", "Path", "lower", "upper", "strip"}
)
_MAX_DEPTH = 4
_MAX_SOURCES_SHOWN = 4


@functools.lru_cache(maxsize=8192)
def parse_test(source: str) -> ast.expr:
    r"""The expression of a test's source (as stored in a guard).

    >>> ast.unparse(parse_test("(a  and\n b)"))
    'a and b'
    """
    return ast.parse(source.strip(), mode="eval").body


def negate(node: ast.expr) -> ast.expr:
    """The negation of a test, pushed inwards (``not (a and b)`` -> ``not a or not b``).

    >>> ast.unparse(negate(parse_test("a == 1 and not b")))
    'a != 1 or b'
    >>> ast.unparse(negate(parse_test("0 < x < 3")))
    '0 >= x or x >= 3'
    """
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return node.operand
    if isinstance(node, ast.BoolOp):
        op: ast.boolop = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        return ast.BoolOp(op=op, values=[negate(v) for v in node.values])
    if isinstance(node, ast.Compare):
        pairs = _pairs(node)
        if len(pairs) == 1:
            left, op_, right = pairs[0]
            return ast.Compare(left=left, ops=[_INVERSE[type(op_)]()], comparators=[right])
        return ast.BoolOp(op=ast.Or(), values=[negate(_compare(*p)) for p in pairs])
    if isinstance(node, ast.Constant):
        return ast.Constant(value=not node.value)
    return ast.UnaryOp(op=ast.Not(), operand=node)


def _negates_inwards(node: ast.expr) -> bool:
    """True when :func:`negate` pushes a ``not`` into ``node`` (``not -x`` stays as it is)."""
    return isinstance(node, (ast.BoolOp, ast.Compare)) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    )


def _pairs(node: ast.Compare) -> list[tuple[ast.expr, ast.cmpop, ast.expr]]:
    lefts = [node.left, *node.comparators[:-1]]
    return list(zip(lefts, node.ops, node.comparators, strict=True))


def _compare(left: ast.expr, op: ast.cmpop, right: ast.expr) -> ast.Compare:
    return ast.Compare(left=left, ops=[op], comparators=[right])


def conjuncts(node: ast.expr) -> list[ast.expr]:
    """The parts of a test that must all hold (``a and b`` -> ``[a, b]``; chains split).

    >>> [ast.unparse(c) for c in conjuncts(parse_test("a and (b and 0 < c < 2)"))]
    ['a', 'b', '0 < c', 'c < 2']
    """
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [c for v in node.values for c in conjuncts(v)]
    if isinstance(node, ast.Compare) and len(node.ops) > 1:
        return [_compare(*p) for p in _pairs(node)]
    return [node]


@dataclass(frozen=True)
class Ref:
    """What a term of a test is to the user: a flag, an environment variable or an argument."""

    kind: str  # "flag", "env" or "arg"
    name: str  # --flag, VAR or the parameter name
    choices: tuple[str, ...] = ()
    is_bool: bool = False
    default: str | None = None
    flag: str | None = None  # an argument named as a flag of the project (its likely source)

    def shown(self) -> str:
        """The term as the text names it."""
        if self.kind == "env":
            return f"environment variable {self.name}"
        if self.kind == "arg":
            return f"`{self.name}` ({self.flag})" if self.flag else f"`{self.name}`"
        return self.name


def _article(word: str) -> str:
    """``a`` or ``an`` before a word (``an ngram``: a letter named with a vowel sound).

    >>> [_article(w) for w in ("int", "str", "ngram", "mxfp8", "nice")]
    ['an int', 'a str', 'an ngram', 'an mxfp8', 'a nice']
    """
    low = word.lower()
    spelled = low[:1] in "nmx" and low[1:2] not in ("", *"aeiouy")
    return ("an " if low[:1] in "aeiou" or spelled else "a ") + word


def _type_names(node: ast.expr) -> list[str]:
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    return [ast.unparse(i) for i in items]


def _words(name: str) -> str:
    return name.replace("_", " ").strip()


@dataclass
class Reader:
    """Render tests in user terms; remembers which flags, variables and arguments it named."""

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

    # -- terms -------------------------------------------------------------

    def ref(self, node: ast.expr, depth: int = 0) -> Ref | None:
        """The flag, environment variable or argument an expression reads, if it is one."""
        env = env_read(node)
        if env is not None and self.options.is_env(env):
            return self._note(Ref("env", env))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
            if node.func.attr in ("get", "value", "get_value"):  # envs.SGLANG_X.get()
                inner = self.ref(node.func.value, depth)
                if inner is not None and inner.kind == "env":
                    return inner
            if node.func.attr in _CONVERSIONS:
                return self.ref(node.func.value, depth)
            return None
        if (
            isinstance(node, ast.Call)
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.func, (ast.Name, ast.Attribute))
            and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr)
            in _CONVERSIONS
        ):
            return self.ref(node.args[0], depth)
        if isinstance(node, ast.Call) and node.args and "env" in _callee(node).lower():
            key = node.args[0]
            if (
                isinstance(key, ast.Constant)
                and isinstance(key.value, str)
                and self.options.is_env(key.value)
            ):
                return self._note(Ref("env", key.value))
            return None
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
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
            return self.ref(ast.Attribute(value=node.args[0], attr=node.args[1].value), depth)
        if isinstance(node, ast.IfExp) and depth < _MAX_DEPTH:  # None if x is None else str(x)
            if _is_none(node.body):
                return self.ref(node.orelse, depth + 1)
            if _is_none(node.orelse):
                return self.ref(node.body, depth + 1)
            return None
        if isinstance(node, ast.Attribute):
            if node.attr in ("value",) and isinstance(node.value, ast.Attribute):
                return self.ref(node.value, depth)
            if self.options.is_env(node.attr):
                return self._note(Ref("env", node.attr))
            option = self.options.option(node.attr)
            if option is not None and self._is_config(node.value, depth):
                kind = "env" if option.kind == "env" else "flag"
                return self._note(
                    Ref(kind, option.flag, option.choices, option.is_bool, option.default)
                )
            return None
        if isinstance(node, ast.Name):
            if node.id in self.params and self.bound.get(node.id):
                return self._note(_bound_ref(node.id, self.bound[node.id]))
            if node.id in self.params:
                option = self.options.option(node.id)
                if option is not None and option.kind == "flag":
                    return self._note(
                        Ref("arg", node.id, option.choices, option.is_bool, flag=option.flag)
                    )
                return self._note(Ref("arg", node.id))
            single = self._single_def(node.id)
            if single is not None and depth < _MAX_DEPTH:
                found = self.ref(single, depth + 1)
                if found is None:  # x = cfg.x or fallback(...): the one option it reads
                    reads = {
                        r.name: r
                        for n in ast.walk(single)
                        if isinstance(n, ast.Attribute)
                        and (r := self.ref(n, depth + 1)) is not None
                        and r.kind != "arg"
                    }
                    found = next(iter(reads.values())) if len(reads) == 1 else None
                return found
            if self.options.is_env(node.id) and node.id.isupper():
                return self._note(Ref("env", node.id))
        return None

    def _is_config(self, node: ast.expr, depth: int) -> bool:
        """Whether an object reads as the project's settings (``q.dtype`` does not)."""
        if isinstance(node, ast.Call):  # resolved_view(server_args), get_config()
            return bool(_CONFIG.search(_callee(node))) or any(
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
        self.named.setdefault(f"{ref.kind}:{ref.name}", ref)
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

        A term that is not itself a flag, variable or argument names the flags
        and variables it is computed from, if any (``tp % dcp`` with
        ``tp, dcp = cfg.tp_size, cfg.dcp_size``: "(from --tp-size, --dcp-size)").
        """
        ref = self.ref(node)
        if ref is not None:
            return ref.shown()
        if isinstance(node, ast.Constant):
            return self.value(node)
        if isinstance(node, ast.Name) and depth < _MAX_DEPTH:
            single = self._single_def(node.id)
            if single is not None and len(ast.unparse(single)) <= _MAX_TERM:
                return self.term(single, depth + 1)
        text = f"`{ast.unparse(node)}`"
        if isinstance(node, ast.Name) and self.origins(node.id):
            return text  # a local with several values: the documentation lists them
        found = [r.shown() for r in self.sources(node)]
        if found:
            more = " and others" if len(found) > _MAX_SOURCES_SHOWN else ""
            text += f" (from {', '.join(found[:_MAX_SOURCES_SHOWN])}{more})"
        return text

    def sources(self, node: ast.expr) -> list[Ref]:
        """The flags and variables an expression is computed from (its locals followed back).

        Arguments count when their callers pass a flag or variable for them.
        """
        out: dict[str, Ref] = {}
        self._sources(node, 0, out, set())
        return list(out.values())

    def _sources(self, node: ast.AST, depth: int, out: dict[str, Ref], seen: set[str]) -> None:
        if len(out) > _MAX_SOURCES_SHOWN or depth > _MAX_DEPTH or not isinstance(node, ast.expr):
            if not isinstance(node, ast.expr):  # comprehension parts, keywords
                for child in ast.iter_child_nodes(node):
                    self._sources(child, depth, out, seen)
            return
        if isinstance(node, ast.Name) and node.id in self.params:
            # Only what callers pass: a parameter merely named like a flag may be something else.
            for bound in self.bound.get(node.id, ()):
                out.setdefault(f"{bound.kind}:{bound.name}", bound)
            return
        ref = self.ref(node, depth)
        if ref is not None:
            if ref.kind != "arg":
                out.setdefault(f"{ref.kind}:{ref.name}", ref)
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
        for attribute in self._named_attributes(node):
            self._sources(attribute, depth + 1, out, seen)
        for ref in self._helper_reads(node, depth):
            out.setdefault(f"{ref.kind}:{ref.name}", ref)
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
                    out.setdefault(f"{ref.kind}:{ref.name}", ref)
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

    def value(self, node: ast.expr) -> str:
        """A value compared against, as text (bare words unquoted)."""
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return node.value if _BARE.match(node.value) else repr(node.value)
            return repr(node.value)
        items = self.values(node)
        if items is not None:
            return (
                " or ".join(items)
                if len(items) <= 2
                else ", ".join(items[:-1]) + " or " + items[-1]
            )
        return self.term(node)

    def values(self, node: ast.expr) -> list[str] | None:
        """The static values of a literal tuple, list or set (``None`` when not static)."""
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(
            isinstance(e, ast.Constant) for e in node.elts
        ):
            return [self.value(e) for e in node.elts]
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
            if _negates_inwards(inner):
                return self.describe(negate(inner))
            return self._predicate(inner, positive=False)
        if isinstance(node, ast.Compare):
            return " and ".join(self._comparison(*p) for p in _pairs(node))
        return self._predicate(node, positive=True)

    def _comparison(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> str:
        lhs = self.term(left)
        if isinstance(op, (ast.Is, ast.IsNot)) and _is_none(right):
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
                return f"{lhs} is {neg}one of {', '.join(items)}"
            return f"{lhs} is {neg}in {self.term(right)}"
        return f"{lhs} is {_ORDER_WORDS[type(op)]} {self.value(right)}"

    def _predicate(self, node: ast.expr, *, positive: bool) -> str:
        neg = "" if positive else "not "
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name == "isinstance" and len(node.args) == 2:
                kinds = " or ".join(_article(t) for t in _type_names(node.args[1]))
                return f"{self.term(node.args[0])} is {neg}{kinds}"
            if name == "hasattr" and len(node.args) == 2:
                attr = ast.unparse(node.args[1]).strip("'\"")
                has = "has" if positive else "does not have"
                return f"{self.term(node.args[0])} {has} an attribute {attr}"
            if name == "callable" and len(node.args) == 1:
                return f"{self.term(node.args[0])} is {neg}callable"
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr.startswith("is_")
            and not node.args
        ):
            return f"{self.term(node.func.value)} is {neg}{_words(node.func.attr[3:])}"
        ref = self.ref(node)
        if ref is not None:
            return f"{ref.shown()} is {neg}set"
        if isinstance(node, ast.Constant):
            return "always" if bool(node.value) == positive else "never"
        return f"{self.term(node)} is {'true' if positive else 'false'}"

    # -- ways out ------------------------------------------------------------

    def ways_out(self, node: ast.expr, *, innermost_first: bool = False) -> list[str]:
        """One action per way to make a test false (what the user can change), deduplicated.

        A part that reads no flag, variable or argument gets a plain "Make sure
        ..." (its negation), unless inside the tests of an assignment.
        """
        out: list[str] = []
        parts = conjuncts(node)
        for part in reversed(parts) if innermost_first else parts:
            found = self._way_out(part)
            if not found and not self.nested:
                found = [f"Make sure {self.describe(negate(part))}"]
            out.extend(found)
        return list(dict.fromkeys(out))

    def _way_out(self, node: ast.expr) -> list[str]:
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = node.operand
            if _negates_inwards(inner):
                return self._way_out(negate(inner))
            return self._predicate_way_out(inner, positive=False)
        if isinstance(node, ast.BoolOp):  # an "or": every part must be made false
            parts = [w for v in node.values for w in self._way_out(v)[:1]]
            if len(parts) == len(node.values) and parts:
                rest = [p[:1].lower() + p[1:] for p in parts[1:]]
                return ["; and ".join([parts[0], *rest])] if len(parts) > 1 else parts
            return []
        if isinstance(node, ast.Compare):
            return self._compare_way_out(node.left, node.ops[0], node.comparators[0])
        return self._predicate_way_out(node, positive=True)

    def expand(self, left: ast.expr) -> list[ast.expr]:
        """A local assigned on several paths stands for each of its values."""
        if isinstance(left, ast.Name):
            found = self.origins(left.id)[: 1 if self.nested else None]
            if found:
                out = []
                for d in found:
                    if d.kind == "=":
                        try:
                            out.append(parse_test(d.expr))
                        except SyntaxError:  # pragma: no cover
                            continue
                return out
        return [left]

    def _compare_way_out(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> list[str]:
        out: list[str] = []
        for target in self.expand(left):
            ref = self.ref(target)
            if ref is None:
                continue
            out.extend(self._set_action(ref, op, right))
        if isinstance(left, ast.Name) and not self.nested:
            # The later assignments happen only under their own tests: avoiding those helps too.
            self.nested = True
            try:
                for d in self.origins(left.id)[1:]:
                    for test, holds in d.clauses:
                        clause = parse_test(test)
                        out.extend(self.ways_out(clause if holds else negate(clause)))
            finally:
                self.nested = False
        return out

    def _set_action(self, ref: Ref, op: ast.cmpop, right: ast.expr) -> list[str]:
        what = ref.shown()

        def give(value: str) -> str:
            return f"Pass {value} for {what}" if ref.kind == "arg" else f"Set {what} to {value}"

        if isinstance(op, (ast.Is, ast.IsNot)) and _is_none(right):
            if isinstance(op, ast.Is):
                return [f"Pass {what}" if ref.kind != "env" else f"Set {what}"]
            return [f"Leave {what} unset" if ref.kind != "arg" else f"Do not pass {what}"]
        items = self.values(right) if isinstance(op, (ast.In, ast.NotIn)) else None
        if isinstance(op, (ast.Eq, ast.Is)) or (isinstance(op, ast.In) and items is not None):
            bad = [self.value(right)] if items is None else items
            if bad == ["True"] and ref.is_bool:
                return [f"Do not pass {what}"]
            text = give(f"a value other than {_or(bad)}")
            rest = [c for c in ref.choices if c not in bad]
            if rest and len(rest) <= _MAX_CHOICES_SHOWN:
                text += f" (one of {', '.join(rest)})"
            return [text]
        if isinstance(op, (ast.NotEq, ast.IsNot)) and isinstance(right, ast.Constant):
            return [give(self.value(right))]
        if isinstance(op, ast.NotIn) and items is not None:
            return [give(f"one of {', '.join(items)}")]
        if type(op) in _ORDER_WORDS:
            bound = _ORDER_WORDS[_INVERSE[type(op)]]
            return [give(f"a value {bound} {self.value(right)}")]
        return []

    def _predicate_way_out(self, node: ast.expr, *, positive: bool) -> list[str]:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "isinstance" and len(node.args) == 2:
                kinds = _or([_article(t) for t in _type_names(node.args[1])])
                subject = self.term(node.args[0])
                if positive:
                    return [f"Pass a value that is not {kinds} for {subject}"]
                return [f"Pass {kinds} for {subject}"]
            return []
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr.startswith("is_")
            and not node.args
        ):
            ref = self.ref(node.func.value)
            if ref is None:
                return []
            word = _words(node.func.attr[3:])
            if positive:
                return [f"Use a {ref.shown()} that is not {word}"]
            return [f"Use {_article(word)} {ref.shown()}"]
        ref = self.ref(node)
        if ref is None:
            return []
        if positive:
            if ref.kind == "arg":
                return [f"Pass a false or empty value for {ref.shown()}"]
            if ref.kind == "env":
                return [f"Unset {ref.shown()}"]
            return [f"Do not pass {ref.name}" if ref.is_bool else f"Leave {ref.name} unset"]
        if ref.kind == "arg":
            return [f"Pass a non-empty value for {ref.shown()}"]
        return [f"Pass {ref.name}" if ref.is_bool else f"Set {ref.shown()}"]

    def used(self, kinds: Iterable[str] = ("flag", "env", "arg")) -> list[Ref]:
        """The terms named so far, of the given kinds, in order."""
        wanted = set(kinds)
        return [r for r in self.named.values() if r.kind in wanted]


def _bound_ref(name: str, refs: Sequence[Ref]) -> Ref:
    """A parameter as an argument whose callers pass these flags or variables."""
    shown = [r.shown() for r in refs]
    text = _or(shown[:3]) if len(shown) <= 3 else ", ".join(shown[:3]) + " or others"
    one = refs[0] if len(refs) == 1 else None
    return Ref(
        "arg",
        name,
        one.choices if one else (),
        bool(one and one.is_bool),
        one.default if one else None,
        flag=text,
    )


def _callee(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _or(items: Sequence[str]) -> str:
    if len(items) <= 2:
        return " or ".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
