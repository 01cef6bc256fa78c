r"""Ways out of a guard: one action per lever that makes a test false, in the user's words.

:func:`ways_out` reads each part of a test (:func:`errcat.mine.logic.conjuncts`)
with a :class:`~errcat.mine.conditions.Reader` and says what to change so that
the part no longer holds: set a flag to another value (with the choices and
the values the code spells out), send another value in the request, use a
model whose ``config.json`` differs, set or unset an environment variable,
install or upgrade a package. A part that reads only internal state gives no
action (the advice says the check is internal instead); a part about the
hardware gives an action of kind ``hardware``, which the advice offers only
when the message itself speaks of the hardware.

>>> from errcat.mine.conditions import Reader, parse_test
>>> from errcat.mine.facts import _Option
>>> from errcat.mine.options import OptionIndex
>>> options = [_Option("mode", "--mode", choices=("a", "b", "c")), _Option("tp", "--tp")]
>>> reader = Reader(OptionIndex(options, []), params=("n",))
>>> [w.text for w in ways_out(reader, parse_test("cfg.mode == 'b' and not isinstance(n, int)"))]
['Set --mode to a value other than b (one of a, c)', 'Pass an int for `n`']
>>> [w.text for w in ways_out(reader, parse_test("cfg.tp % 16 and self.pool is None"))]
['Set --tp to a multiple of 16']
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from errcat.mine.conditions import Reader, each_item
from errcat.mine.levers import RANK, Ref
from errcat.mine.logic import (
    INVERSE,
    ORDER_WORDS,
    article,
    conjuncts,
    is_none,
    negate,
    negates_inwards,
    or_list,
    parse_test,
)

__all__ = ["Way", "alternatives", "ways_out"]

_MAX_CHOICES_SHOWN = 12
_MAX_SOURCES = 3
#: An "or" of more parts than this gives no joined action (it would not read as one).
_MAX_JOINED = 3
#: Whether a lever must come down (it grows the side that is too big) -> the verb.
_VERBS = {True: "Lower", False: "Raise"}


@dataclass(frozen=True)
class Way:
    """One action that makes a part of the guard false: its text and the lever it pulls."""

    text: str
    kind: str  # the lever's kind (errcat.mine.levers.KINDS)
    ref: Ref | None = None
    #: The lever's value before and after, for an example fix: a text ("" for a bare
    #: flag), None for "not given"; ``None`` as a whole when the code gives no value.
    example: tuple[str | None, str | None] | None = None

    @property
    def rank(self) -> int:
        """Where the action goes among the solutions (flags first)."""
        return RANK.get(self.kind, len(RANK))


def ways_out(reader: Reader, node: ast.expr, *, innermost_first: bool = False) -> list[Way]:
    """One action per way to make a test false (what the user can change), deduplicated.

    A part that reads no lever gives nothing.
    """
    out: list[Way] = []
    parts = conjuncts(reader.normalize(node))
    for part in reversed(parts) if innermost_first else parts:
        out.extend(_way_out(reader, part))
    seen: set[str] = set()
    examples: dict[str, tuple[str | None, str | None]] = {}
    unique = []
    for way in out:
        if way.text in seen:
            continue
        if way.ref is not None and way.example is not None:
            earlier = examples.get(way.ref.key)
            if earlier is not None and earlier == way.example[::-1]:
                continue  # the opposite of an earlier way ("Pass --x", "Do not pass --x")
            examples.setdefault(way.ref.key, way.example)
        seen.add(way.text)
        unique.append(way)
    return unique


def _way_out(reader: Reader, node: ast.expr) -> list[Way]:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = node.operand
        if isinstance(inner, ast.BoolOp) and isinstance(inner.op, ast.Or):
            # "not (a or b)": making any part true is a way out; they are one choice.
            return alternatives([w for v in inner.values for w in _way_out(reader, negate(v))])
        if negates_inwards(inner):
            return _way_out(reader, negate(inner))
        return _predicate_way_out(reader, inner, positive=False)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        # "a and b" is false when either part is: each part's ways are ways out.
        return [w for v in node.values for w in _way_out(reader, v)]
    if isinstance(node, ast.BoolOp):  # an "or": every part must be made false
        found = [w for v in node.values for w in _way_out(reader, v)[:1]]
        if len(found) == len(node.values) and 0 < len(found) <= _MAX_JOINED:
            # One way may make several parts false ("(x set and not a float) or (x set
            # and at most 1.0)": leave x unset): each is said once.
            texts = list(dict.fromkeys(w.text for w in found))
            rest = [t[:1].lower() + t[1:] for t in texts[1:]]
            best = min(found, key=lambda w: w.rank)
            return [Way("; and ".join([texts[0], *rest]), best.kind, best.ref)]
        return []
    if isinstance(node, ast.Compare):
        return _compare_way_out(reader, node.left, node.ops[0], node.comparators[0])
    return _predicate_way_out(reader, node, positive=True)


def alternatives(ways: Sequence[Way]) -> list[Way]:
    """The ways of one choice (the parts of an "or" the code needs): one way per kind of lever.

    Ways of the same kind are said as one, their shared verb said once; a
    different kind stays its own way (it ranks apart).

    >>> cuda, xpu = Ref("hardware", "CUDA"), Ref("hardware", "Intel XPUs")
    >>> [
    ...     w.text
    ...     for w in alternatives(
    ...         [Way("Run on CUDA", "hardware", cuda), Way("Run on Intel XPUs", "hardware", xpu)]
    ...     )
    ... ]
    ['Run on CUDA or on Intel XPUs']
    >>> [
    ...     w.text
    ...     for w in alternatives(
    ...         [Way("Pass --a", "flag"), Way("Set --b to 2", "flag"), Way("Set APP_X", "env")]
    ...     )
    ... ]
    ['Pass --a or set --b to 2', 'Set APP_X']
    """
    kinds: dict[str, list[Way]] = {}
    for way in ways:
        same = kinds.setdefault(way.kind, [])
        if all(w.text != way.text for w in same):
            same.append(way)
    out = []
    for same in kinds.values():
        first = same[0]
        verb = first.text.split(" ", 1)[0]
        rest = [
            w.text[len(verb) + 1 :]
            if w.text.startswith(verb + " ")
            else w.text[:1].lower() + w.text[1:]
            for w in same[1:]
        ]
        text = first.text if not rest else or_list([first.text, *rest])
        out.append(Way(text, first.kind, first.ref, first.example))
    return out


def _expand(reader: Reader, left: ast.expr) -> list[ast.expr]:
    """A local assigned on several paths stands for each of its values."""
    if isinstance(left, ast.Name):
        found = reader.origins(left.id)[: 1 if reader.nested else None]
        if found:
            return [parse_test(d.expr) for d in found if d.kind == "="]
    return [left]


def _compare_way_out(reader: Reader, left: ast.expr, op: ast.cmpop, right: ast.expr) -> list[Way]:
    out: list[Way] = []
    if _is_modulo(left) and (
        (isinstance(op, ast.NotEq) and _is_zero(right))
        or (isinstance(op, ast.Gt) and _is_zero(right))
    ):
        return _predicate_way_out(reader, left, positive=True)
    arguments: list[Way] = []  # what the caller passes: the last resort
    for target in _expand(reader, left):
        ref = reader.ref(target)
        if ref is not None:
            (arguments if ref.kind == "arg" else out).extend(_set_action(reader, ref, op, right))
    if not out:
        ref = reader.ref(right)
        if ref is not None and type(op) in ORDER_WORDS:  # 8 <= cfg.x: the lever on the right
            mirrored = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE}
            found = _set_action(reader, ref, mirrored[type(op)](), left)
            (arguments if ref.kind == "arg" else out).extend(found)
    if not out and type(op) in ORDER_WORDS:
        out.extend(_sizes(reader, left, op, right))
    elif not out:
        out.extend(_computed(reader, left, op, right))
    if not out:
        out.extend(arguments)
    if isinstance(left, ast.Name) and not reader.nested:
        # The later assignments happen only under their own tests: avoiding those helps too.
        reader.nested = True
        try:
            for d in reader.origins(left.id)[1:]:
                for test, holds in d.clauses:
                    clause = parse_test(test)
                    out.extend(ways_out(reader, clause if holds else negate(clause)))
        finally:
            reader.nested = False
    return out


def _sizes(reader: Reader, left: ast.expr, op: ast.cmpop, right: ast.expr) -> list[Way]:
    """A comparison of two computed sizes: change a lever that decides either side.

    The direction comes from where the lever sits: a lever that grows the side
    that is too big is lowered; one under a division or a subtraction is raised;
    one whose direction the code does not show is "changed".
    """
    grows_left = isinstance(op, (ast.Gt, ast.GtE))  # raised when the left side is too big
    out: list[Way] = []
    on_left = {r.key for r in reader.sources(left)}
    for side, too_big in ((left, grows_left), (right, not grows_left)):
        signs = _signs(reader, side)
        for ref in reader.sources(side)[:_MAX_SOURCES]:
            if side is right and ref.key in on_left:
                continue  # a lever on both sides: its way is the left side's
            if not _sized(ref):
                continue  # a switch or a choice of names (--device) is never raised or lowered
            sign = signs.get(ref.key, {1})
            verb = _VERBS[(too_big == (1 in sign))] if len(sign) == 1 else "Change"
            term = shown_term(side)
            if ref.kind == "model":
                # The key moves the term its way: said of the key, not of the code's term.
                size = {"Lower": "smaller", "Raise": "larger"}.get(verb, "different")
                text = (
                    f"Use a model whose config.json `{ref.name}` is {size}"
                    if ref.name and size != "different"
                    else _other_setting(ref).text
                )
            else:
                text = f"{verb} {_named(ref)} if you can (it decides `{term}`)"
            out.append(Way(text, ref.kind, ref))
    return out


def _sized(ref: Ref) -> bool:
    """Whether a lever can be raised or lowered: not a switch, not a choice of names.

    >>> _sized(Ref("flag", "--device", ("cuda", "xpu"))), _sized(Ref("flag", "--tp-size"))
    (False, True)
    """
    if ref.is_bool:
        return False
    return not ref.choices or any(c.lstrip("-").replace(".", "", 1).isdigit() for c in ref.choices)


def shown_term(node: ast.expr) -> str:
    """A term as a solution names it: without ``self.`` (a name the message may show).

    >>> shown_term(ast.parse("self.size * self.per_token", mode="eval").body)
    'size * per_token'
    """
    return ast.unparse(node).replace("self.", "")


def _signs(reader: Reader, node: ast.expr, sign: int = 1) -> dict[str, set[int]]:
    """How each lever a term reads directly moves it: +1 grows it, -1 shrinks it."""
    out: dict[str, set[int]] = {}

    def walk(item: ast.expr, s: int) -> None:
        ref = reader.ref(item)
        if ref is not None:
            out.setdefault(ref.key, set()).add(s)
            return
        if isinstance(item, ast.BinOp):
            walk(item.left, s)
            flips = isinstance(item.op, (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod))
            walk(item.right, -s if flips else s)
        elif isinstance(item, ast.UnaryOp) and isinstance(item.op, ast.USub):
            walk(item.operand, -s)
        elif isinstance(item, ast.Call) and _callee_name(item) in ("int", "float", "round", "len"):
            for arg in item.args[:1]:
                walk(arg, s)

    walk(node, sign)
    return out


def _callee_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


#: Type names a value may be compared with (``type(x) != int``): a user can give that type.
_TYPE_NAMES = frozenset({"int", "float", "str", "bool", "list", "dict", "tuple"})


def _enum_member(node: ast.expr) -> bool:
    """Whether a value is a class's named member (``Policy.FCFS``): a choice a user can name.

    >>> _enum_member(ast.parse("Policy.FCFS", mode="eval").body)
    True
    >>> _enum_member(ast.parse("metadata.page_size", mode="eval").body)
    False
    """
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id[:1].isupper()
        and node.attr.isupper()
    )


def _computed(reader: Reader, left: ast.expr, op: ast.cmpop, right: ast.expr) -> list[Way]:
    """A value computed from levers compared with another: change the levers that decide it."""
    refs = reader.sources(left)[:_MAX_SOURCES]
    if not refs:
        return []
    inverse = INVERSE[type(op)]()
    if isinstance(inverse, (ast.In, ast.NotIn)):
        items = reader.values(right)
        if items is None:
            return []
        must = (
            f"{'not ' if isinstance(inverse, ast.NotIn) else ''}be one of {', '.join(_cut(items))}"
        )
    elif isinstance(inverse, (ast.Is, ast.IsNot)) and _is_sentinel(right):
        must = "be set" if isinstance(inverse, ast.IsNot) else "be left unset"
    elif isinstance(inverse, (ast.Eq, ast.Is, ast.NotEq, ast.IsNot)):
        equal = isinstance(inverse, (ast.Eq, ast.Is))
        other = reader.ref(right)
        if other is not None and other.kind != "arg":
            must = f"be the same as {_named(other)}" if equal else f"differ from {_named(other)}"
        elif (
            isinstance(right, ast.Constant)
            or (isinstance(right, ast.Name) and right.id in _TYPE_NAMES)
            or _enum_member(right)
            or reader.values(right) is not None
        ):
            must = f"{'' if equal else 'not '}be {reader.value(right)}"
        elif reader.sources(right):  # levers on both sides: `len(lora_paths)` vs `len(names)`
            # The other side is the code's own value too: named by the levers it comes from.
            others = [_named(r) for r in reader.sources(right)[:_MAX_SOURCES]]
            verb = "gives" if len(others) == 1 else "give"
            must = f"{'match' if equal else 'differ from'} what {or_list(others)} {verb}"
        else:
            return []  # a value only the code computes (``param.shape``): no one can follow it
    else:
        return []
    names = or_list([_named(r) for r in refs])
    best = min(refs, key=lambda r: RANK.get(r.kind, len(RANK)))
    if len(refs) == 1 and reader.ref(left) is not None:
        # The lever is the value compared (``int(cfg.x)``): no term to show.
        return [Way(f"Change {names}: it must {must}", best.kind, best)]
    # The value compared is the code's own (``self.dcp_manager``): the user cannot touch
    # it, so the way says what to do with the levers it comes from, without its name.
    if must in ("be set", "be left unset"):
        return [_unset_or_set(r, must == "be set") for r in refs]
    # "to not be x" reads "not to be x".
    to_must = f"not to {must[4:]}" if must.startswith("not ") else f"to {must}"
    if len(refs) == 1:
        return [_other_setting(best, f"the check needs a value it gives {to_must}")]
    return [Way(f"Change {names} (the check needs a value they give {to_must})", best.kind, best)]


def _named(ref: Ref) -> str:
    if ref.kind == "request":
        return f"`{ref.name}` in the request"
    if ref.kind == "model":
        return f"the model's `{ref.name}`" if ref.name else "the model"
    return ref.shown()


def _give(ref: Ref, value: str, example: tuple[str | None, str | None] | None = None) -> Way:
    """The action that gives a lever a value (a text, or "a value at most 3")."""
    what = ref.shown()
    if ref.kind == "arg":
        text = f"Pass {value} for {what}"
    elif ref.kind == "request":
        text = f"Send {value} as `{ref.name}` in the request"
    elif ref.kind == "model":
        text = f"Use a model whose config.json `{ref.name}` is {value}"
    elif ref.kind == "package":
        text = f"Install {ref.name} {value}"
    else:
        text = f"Set {what} to {value}"
    return Way(text, ref.kind, ref, example)


def _is_sentinel(node: ast.expr) -> bool:
    """``None``, or a named marker compared with ``is`` (``_MISSING``, ``MISSING``)."""
    if is_none(node):
        return True
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return bool(name) and (name.startswith("_") or name.isupper()) and "MISSING" in name.upper()


def _set_action(reader: Reader, ref: Ref, op: ast.cmpop, right: ast.expr) -> list[Way]:
    if ref.kind == "hardware":
        return [Way(_hardware_way(ref, op, right, reader), "hardware", ref)]
    if isinstance(op, (ast.Is, ast.IsNot)) and _is_sentinel(right):
        if isinstance(op, ast.Is):
            return [_present(ref, True)]
        return [_present(ref, False)]
    items = reader.values(right) if isinstance(op, (ast.In, ast.NotIn)) else None
    if isinstance(op, (ast.Eq, ast.Is)) or (isinstance(op, ast.In) and items is not None):
        bad = [reader.value(right)] if items is None else items
        if bad == ["True"] and ref.is_bool:
            return [_present(ref, False)]
        rest = [c for c in ref.choices if c not in bad]
        example = (bad[0], rest[0]) if rest else None
        way = _give(ref, f"a value other than {or_list(_cut(bad))}", example)
        if rest and len(rest) <= _MAX_CHOICES_SHOWN:
            way = Way(way.text + f" (one of {', '.join(rest)})", way.kind, ref, example)
        return [way]
    if isinstance(op, (ast.NotEq, ast.IsNot)) and isinstance(right, ast.Constant):
        if right.value is True and ref.is_bool:
            return [_present(ref, True)]
        value = reader.value(right)
        return [_give(ref, value, ("<yours>", value))]
    if isinstance(op, ast.NotIn) and items is not None:
        return [_give(ref, f"one of {', '.join(_cut(items))}", ("<yours>", items[0]))]
    if isinstance(op, (ast.In, ast.NotIn)):  # a collection built at run time: name it
        where = f"`{shown_term(right)}`"
        return [_give(ref, f"a value {'not ' if isinstance(op, ast.In) else ''}in {where}")]
    if type(op) in ORDER_WORDS:
        if not _sized(ref):
            return []  # measure(self.device) < x: --device is no number to set "at least x"
        inverse = INVERSE[type(op)]
        value = _version_or_value(reader, right)
        if "`" in value and reader.ref(right) is None:
            # A bound only the code computes (`self.total_num_kv_heads`): the levers it
            # comes from name it, or the way says which way to move the lever.
            others = [_named(r) for r in reader.sources(right) if r.key != ref.key]
            if not others:
                return [_move(ref, up=inverse in (ast.Gt, ast.GtE))]
            verb = "gives" if len(others[:_MAX_SOURCES]) == 1 else "give"
            value = f"what {or_list(others[:_MAX_SOURCES])} {verb}"
        inclusive = inverse in (ast.LtE, ast.GtE) and isinstance(right, ast.Constant)
        example = ("<yours>", value) if inclusive else None
        return [_give(ref, f"a value {ORDER_WORDS[inverse]} {value}", example)]
    return []


def _move(ref: Ref, *, up: bool) -> Way:
    """Raise or lower a lever, when the bound it must pass is the code's own.

    >>> _move(Ref("flag", "--tp-size"), up=False).text
    'Lower --tp-size'
    >>> _move(Ref("model", "num_key_value_heads"), up=True).text
    'Use a model whose config.json `num_key_value_heads` is larger'
    """
    size = "larger" if up else "smaller"
    if ref.kind == "model":
        text = f"Use a model whose config.json `{ref.name}` is {size}"
    elif ref.kind == "request":
        text = f"Send a {size} `{ref.name}` in the request"
    elif ref.kind == "arg":
        text = f"Pass a {size} value for {ref.shown()}"
    else:
        text = f"{_VERBS[not up]} {ref.shown()}"
    return Way(text, ref.kind, ref)


def _version_or_value(reader: Reader, node: ast.expr) -> str:
    """``version.parse("2.5")`` as ``2.5``; any other value as the reader shows it."""
    if (
        isinstance(node, ast.Call)
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.args[0].value
    return reader.value(node)


def _cut(items: Sequence[str]) -> list[str]:
    if len(items) <= _MAX_CHOICES_SHOWN:
        return list(items)
    return [*items[:_MAX_CHOICES_SHOWN], f"… ({len(items)} in all)"]


def _present(ref: Ref, wanted: bool) -> Way:
    """The action that sets a lever (``wanted``) or leaves it out."""
    if ref.kind == "flag":
        if wanted:
            text = f"Pass {ref.name}" if ref.is_bool else f"Set {ref.name}"
        else:
            text = f"Do not pass {ref.name}" if ref.is_bool else f"Leave {ref.name} unset"
    elif ref.kind == "env":
        text = f"Set {ref.shown()}" if wanted else f"Unset {ref.shown()}"
    elif ref.kind == "request":
        text = (
            f"Send `{ref.name}` in the request"
            if wanted
            else f"Leave `{ref.name}` out of the request"
        )
    elif ref.kind == "model":
        text = (
            f"Use a model whose config.json sets `{ref.name}`"
            if wanted
            else f"Use a model whose config.json does not set `{ref.name}`"
        )
    elif ref.kind == "package":
        text = f"Install {ref.name} (pip install {ref.name})" if wanted else f"Uninstall {ref.name}"
    elif ref.kind == "hardware":
        text = f"Run on {ref.name}" if wanted else f"Run on another device than {ref.name}"
    elif wanted:
        text = f"Pass a non-empty value for {ref.shown()}"
    else:
        text = f"Pass a false or empty value for {ref.shown()}"
    example: tuple[str | None, str | None] | None = None
    if ref.kind == "flag":
        given = "" if ref.is_bool else "<value>"
        example = (None, given) if wanted else (given, None)
    elif ref.kind == "env":
        example = (None, "1") if wanted else ("<value>", None)
    return Way(text, ref.kind, ref, example)


def _hardware_way(ref: Ref, op: ast.cmpop, right: ast.expr, reader: Reader) -> str:
    """The device a comparison of the hardware asks for."""
    if type(op) in ORDER_WORDS:
        bound = ORDER_WORDS[INVERSE[type(op)]]
        return f"Run on a GPU where {ref.name} is {bound} {reader.value(right)}"
    return f"Run on hardware where {ref.name} is not {reader.value(right)}"


def _capability_bound(node: ast.expr) -> str | None:
    if (
        isinstance(node, ast.Call)
        and _callee_name(node) in ("has_device_capability", "is_device_capability_at_least")
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
    ):
        return repr(node.args[0].value)
    return None


def _is_modulo(node: ast.expr) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)


def _is_zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0


def _predicate_way_out(reader: Reader, node: ast.expr, *, positive: bool) -> list[Way]:
    each = each_item(node)
    if each is not None:  # any(a in S for a in L): L's items, each tested
        _, items, op, right = each
        ref = reader.ref(items)
        if ref is None or ref.kind == "hardware":
            return []
        return _set_action(reader, ref, op if positive else INVERSE[type(op)](), right)
    if positive and isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        ref = reader.ref(node.left)
        divisor = node.right
        if ref is not None and ref.kind != "hardware":
            return [_give(ref, f"a multiple of {reader.value(divisor)}")]
        divisor_ref = reader.ref(divisor)
        if divisor_ref is not None and divisor_ref.kind != "hardware":
            term = shown_term(node.left)
            return [_give(divisor_ref, f"a value that divides `{term}`")]
        return []
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
    ):
        ref = reader.ref(node.args[0])
        if ref is None or ref.kind in ("hardware", "package"):
            return []
        types = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
        kinds = or_list([article(ast.unparse(t)) for t in types])
        if positive:
            return [_give(ref, f"a value that is not {kinds}")]
        return [_give(ref, kinds)]
    if _capability_bound(node) is not None:
        bound = _capability_bound(node)
        ref = reader.ref(node)
        if ref is not None:
            text = (
                f"Run on a GPU whose compute capability is below {bound}"
                if positive
                else f"Run on a GPU whose compute capability is at least {bound}"
            )
            return [Way(text, "hardware", ref)]
    ref = reader.ref(node)
    if ref is None:
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr.startswith("is_")
            and not node.args
        ):
            inner = reader.ref(node.func.value)
            if inner is None or inner.kind == "hardware":
                return []
            word = node.func.attr[3:].replace("_", " ")
            if positive:
                return [Way(f"Use a {inner.shown()} that is not {word}", inner.kind, inner)]
            return [Way(f"Use {article(word)} {inner.shown()}", inner.kind, inner)]
        return _decided(reader, node, positive=positive)
    return [_present(ref, not positive)]


def _decided(reader: Reader, node: ast.expr, *, positive: bool) -> list[Way]:
    """A test computed from levers (``model_supports_x(hf_config)``): change what decides it."""
    refs = [r for r in reader.sources(node) if r.kind != "hardware"][:_MAX_SOURCES]
    if not refs:
        return []
    # What the test computes is the code's own: each lever's other setting, without its name;
    # a model is told by what the test asks of it when its name says so (is_deepseek_model).
    kind = _predicate_words(node)
    out = []
    for ref in refs:
        if ref.kind == "model" and kind:
            text = f"Use a model that is {'not ' if positive else ''}{article(kind)}"
            out.append(Way(text, ref.kind, ref))
        else:
            out.append(_other_setting(ref))
    return out


def _predicate_words(node: ast.expr) -> str:
    """What a test named ``is_<words>(...)`` asks, in words ("" for any other test).

    >>> _predicate_words(ast.parse("is_deepseek_model(cfg.architectures)", mode="eval").body)
    'deepseek model'
    >>> _predicate_words(ast.parse("self._is_mla", mode="eval").body)
    'mla'
    """
    if isinstance(node, ast.Call):
        name = _callee_name(node)
    elif isinstance(node, ast.Attribute):
        name = node.attr
    else:
        name = node.id if isinstance(node, ast.Name) else ""
    name = name.lstrip("_")
    return name[3:].replace("_", " ") if name.startswith("is_") and len(name) > 3 else ""


def _has_default(ref: Ref) -> bool:
    return ref.default not in (None, "", "None")


def _unset_or_set(ref: Ref, wanted: bool) -> Way:
    """Set a lever or leave it out, for a value of the code that must be set (or not).

    A flag that always has a value (a default) is changed instead.

    >>> _unset_or_set(Ref("flag", "--path"), True).text
    'Set --path'
    >>> _unset_or_set(Ref("flag", "--size", default="1"), True).text
    'Set --size to a value other than yours (the default is 1)'
    """
    if ref.kind == "flag" and not ref.is_bool and _has_default(ref):
        return _other_setting(ref)
    return _present(ref, wanted)


def _other_setting(ref: Ref, why: str = "") -> Way:
    """What a user can do with a lever whose effect only a name in the code tells.

    The values the code gives for the lever (its choices, its default) are the
    concrete ones; ``why`` (what the check needs) follows in brackets.

    >>> _other_setting(Ref("flag", "--mode", ("a", "b"))).text
    'Set --mode to another of its values (one of a, b)'
    >>> _other_setting(Ref("flag", "--fast", is_bool=True)).text
    'Pass --fast, or leave it out if you pass it'
    >>> _other_setting(Ref("flag", "--pcp-size", default="1"), "the check needs x").text
    'Set --pcp-size to a value other than yours (the default is 1; the check needs x)'
    >>> _other_setting(Ref("model", "rope_scaling")).text
    'Use a model with another `rope_scaling` in its config.json'
    """
    notes = []
    if ref.kind == "flag" and ref.is_bool:
        text = f"Pass {ref.name}, or leave it out if you pass it"
    elif ref.kind in ("flag", "env") and ref.choices and len(ref.choices) <= _MAX_CHOICES_SHOWN:
        text = _give(ref, "another of its values").text
        notes.append(f"one of {', '.join(ref.choices)}")
    elif ref.kind == "flag":
        text = f"Set {ref.name} to a value other than yours"
        if _has_default(ref):
            notes.append(f"the default is {ref.default}")
    elif ref.kind == "env":
        text = f"Set {ref.shown()} to another value, or unset it"
    elif ref.kind == "request":
        text = f"Send another `{ref.name}` in the request, or leave it out"
    elif ref.kind == "model":
        text = (
            f"Use a model with another `{ref.name}` in its config.json"
            if ref.name
            else "Use another model"
        )
    elif ref.kind == "package":
        text = f"Install another version of {ref.name}"
    else:
        text = f"Pass another value for {ref.shown()}"
    if why:
        notes.append(why)
    if notes:
        text += f" ({'; '.join(notes)})"
    return Way(text, ref.kind, ref)
