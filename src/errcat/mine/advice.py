r"""Advice written from the code at a raise site: documentation, solutions, example fix, checks.

For every record it mines, the miner writes what the code says about the
error (:func:`write_advice`): the function that raises it and the first
sentence of its docstring, the condition that leads to the raise in the
user's terms (flags, environment variables, arguments: see
:mod:`errcat.mine.conditions`), one solution per way out of that condition,
an example fix when the guard compares an option with a constant, tips, the
guard as a pre-check, and a type guard for ``isinstance`` tests. Sentences of
the message that tell the user what to do ("Use --x instead.") come first.

Honesty: the text names only flags, variables and values found in the mined
source; where the code says nothing useful, the advice says less. Every such
record carries the tag :data:`GENERATED_TAG`; curated text always wins (see
:func:`errcat.mine.reanchor`).

>>> from errcat.mine.facts import _Guard, _Option
>>> from errcat.mine.options import OptionIndex
>>> index = OptionIndex([_Option("mode", "--mode", choices=("fast", "safe"))], [])
>>> guard = _Guard("pkg.run.start", "Start the engine.", ("cfg",), (("cfg.mode == 'fast'", True),))
>>> advice = write_advice(
...     guard=guard,
...     template="fast mode is gone. Use --mode safe.",
...     error_class="ValueError",
...     options=index,
...     file_path="pkg/run.py",
...     line=3,
... )
>>> print(advice.documentation)
Raised by `pkg.run.start` ("Start the engine.") when --mode is fast.
>>> advice.solutions
('Use --mode safe.', 'Set --mode to a value other than fast (one of safe)')
>>> print(advice.example_fix)
# before
--mode fast
# after
--mode safe
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from errcat.mine.bindings import CallIndex, settings_method
from errcat.mine.conditions import Reader, conjuncts, negate, parse_test
from errcat.mine.facts import _Def, _Guard
from errcat.mine.options import OptionIndex
from errcat.models import GENERATED_TAG

__all__ = ["message_advice", "with_message", "write_advice"]


_MAX_SOLUTIONS = 6
_MAX_CHOICES_SHOWN = 12
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_IMPERATIVE = re.compile(
    r"^(?:please\s+)?(?:use|set|pass|install|try|select|remove|enable|disable|specify|make sure|"
    r"consider|run|upgrade|downgrade|increase|decrease|reduce|lower|raise|check|add|provide|"
    r"call|change|switch|update|ensure|choose|load|rebuild|reinstall|restart|unset|export|"
    r"see|refer|verify|define|register|reduce|avoid|drop|omit)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class _Advice:
    """The generated fields of one record (names as in :class:`errcat.models.ErrorRecord`)."""

    documentation: str
    trigger_scenarios: str
    solutions: tuple[str, ...]
    example_fix: str
    prevention_tips: tuple[str, ...]
    validation_code: str | None
    type_guard: str | None
    tags: tuple[str, ...] = (GENERATED_TAG,)


def message_advice(template: str) -> list[str]:
    """The sentences of a message template that tell the reader what to do.

    >>> message_advice("Bad backend {b!r}. Use --backend deepep. It is faster.")
    ['Use --backend deepep.']
    """
    out = []
    for sentence in _SENTENCES.split(template):
        text = sentence.strip().strip("-*•").strip()
        if text and "{" not in text and _IMPERATIVE.match(text):
            out.append(text[0].upper() + text[1:])
    return out


def _effective(guard: _Guard) -> list[tuple[ast.expr, str]]:
    """Each clause as the test that must hold for the raise, with the source it came from."""
    out = []
    for source, holds in guard.clauses:
        try:
            node = parse_test(source)
        except SyntaxError:  # pragma: no cover - stored from ast.unparse
            continue
        out.append((node if holds else negate(node), source if holds else f"not ({source})"))
    return out


def _conjoin(nodes: Sequence[ast.expr]) -> ast.expr:
    return nodes[0] if len(nodes) == 1 else ast.BoolOp(op=ast.And(), values=list(nodes))


def write_advice(
    *,
    guard: _Guard,
    template: str,
    error_class: str,
    options: OptionIndex,
    file_path: str,
    line: int,
    calls: CallIndex | None = None,
) -> _Advice:
    """The advice for one record, from its raise site's guard and the project's options.

    ``calls`` tells what the function's callers pass for its parameters and
    what the functions its tests call read (:class:`errcat.mine.bindings.CallIndex`).
    """
    defs: defaultdict[str, list[_Def]] = defaultdict(list)
    for d in guard.defs:
        defs[d.name].append(d)
    reader = Reader(
        options,
        params=guard.params,
        defs=defs,
        self_is_config=settings_method(guard.function),
        bound=calls.bound(guard.function) if calls is not None else {},
        calls={written: (name, method) for written, name, method in guard.calls},
        reads=calls.reads if calls is not None else None,
    )
    tests = _effective(guard)
    condition = _conjoin([n for n, _ in tests]) if tests else None
    described = reader.describe(condition) if condition is not None else ""

    documentation = _documentation(guard, reader, described)
    ways = reader.ways_out(condition, innermost_first=True) if condition is not None else []
    solutions = ways or _fallback_solutions(guard, error_class)
    advice = _Advice(
        documentation=documentation,
        trigger_scenarios=_triggers(guard, reader, described),
        solutions=tuple(solutions),
        example_fix=_example_fix(reader, condition, guard) if condition is not None else "",
        prevention_tips=tuple(_tips(guard, reader, described, condition)),
        validation_code=_validation(guard, tests, error_class, file_path, line),
        type_guard=_type_guard(guard, condition, error_class),
    )
    return with_message(advice, template)


def with_message(advice: _Advice, template: str) -> _Advice:
    """The advice with the message's own instructions as its first solutions.

    The rest of the advice depends only on the raise site, so one site's
    advice is written once and specialised to each of its messages.
    """
    told = message_advice(template)
    if not told:
        return replace(advice, solutions=advice.solutions[:_MAX_SOLUTIONS])
    solutions = list(dict.fromkeys([*told, *advice.solutions]))[:_MAX_SOLUTIONS]
    return replace(advice, solutions=tuple(solutions))


def _documentation(guard: _Guard, reader: Reader, described: str) -> str:
    if guard.module_level:
        text = f"Raised when module `{guard.function}` is imported"
    else:
        text = f"Raised by `{guard.function}`"
    if guard.doc:
        text += f' ("{guard.doc}")'
    if described:
        text += f" when {described}"
    if guard.handler is not None:
        text += f", while handling {'an exception' if not guard.handler else guard.handler}"
    text += "."
    for name in dict.fromkeys(d.name for d in guard.defs):
        origins = reader.origins(name)
        if not origins or f"`{name}`" not in described:
            continue
        shown = []
        for d in origins[:3]:
            value = reader.term(parse_test(d.expr)) if d.kind == "=" else f"each item of `{d.expr}`"
            when = [
                reader.describe(parse_test(t) if h else negate(parse_test(t))) for t, h in d.clauses
            ]
            shown.append(value + (f" when {' and '.join(when)}" if when else ""))
        text += f" `{name}` is {', or '.join(shown)}."
    if not described and guard.handler is None and not guard.module_level:
        text += " No test in that function leads to it: what calls it decides."
    return text


def _triggers(guard: _Guard, reader: Reader, described: str) -> str:
    if not described:
        return ""
    parts = [f"Occurs when {described}."]
    flags = [r.name for r in reader.used(("flag",))]
    envs = [r.name for r in reader.used(("env",))]
    args = [r.shown() for r in reader.used(("arg",))]
    if flags:
        parts.append(f"Command-line flags involved: {', '.join(flags)}.")
    if envs:
        parts.append(f"Environment variables involved: {', '.join(envs)}.")
    if args:
        parts.append(f"Arguments of `{guard.function}` involved: {', '.join(args)}.")
    return " ".join(parts)


def _fallback_solutions(guard: _Guard, error_class: str) -> list[str]:
    if guard.handler is not None:
        what = guard.handler or "exception"
        return [
            f"Fix the {what} that `{guard.function}` caught: it is shown above this error "
            "in the traceback"
        ]
    if error_class.rsplit(".", 1)[-1] == "NotImplementedError":
        return [f"Use an implementation that provides `{guard.function}`: this one does not"]
    return []


def _example_fix(reader: Reader, condition: ast.expr, guard: _Guard) -> str:
    for part in reversed(conjuncts(condition)):  # the test nearest the raise first
        node = part
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            ref = reader.ref(node.operand)
            if ref is not None and ref.kind == "flag" and ref.is_bool:
                return f"# before\n(without {ref.name})\n# after\n{ref.name}"
            continue
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            ref = reader.ref(node)
            if ref is not None and ref.kind == "flag" and ref.is_bool:
                return f"# before\n{ref.name}\n# after\n(without {ref.name})"
            continue
        op, right = node.ops[0], node.comparators[0]
        for target in reader.expand(node.left):
            ref = reader.ref(target)
            if ref is None or ref.kind == "env":
                continue
            items = reader.values(right)
            if isinstance(op, ast.Eq) and isinstance(right, ast.Constant):
                bad = [reader.value(right)]
            elif isinstance(op, ast.In) and items is not None:
                bad = items
            elif isinstance(op, ast.NotEq) and isinstance(right, ast.Constant):
                good = reader.value(right)
                return _fix(ref.kind, ref.name, guard, None, good)
            elif isinstance(op, ast.NotIn) and items:
                return _fix(ref.kind, ref.name, guard, None, items[0])
            else:
                continue
            others = [c for c in ref.choices if c not in bad]
            if others:
                return _fix(ref.kind, ref.name, guard, bad[0], others[0])
    return ""


def _fix(kind: str, name: str, guard: _Guard, bad: str | None, good: str) -> str:
    if kind == "arg":
        func = guard.function.rsplit(".", 1)[-1]
        before = f"{func}({name}={bad})" if bad is not None else f"{func}({name}=...)"
        return f"# before\n{before}\n# after\n{func}({name}={good})"
    before = f"{name} {bad}" if bad is not None else f"{name} <a value it rejects>"
    return f"# before\n{before}\n# after\n{name} {good}"


def _tips(guard: _Guard, reader: Reader, described: str, condition: ast.expr | None) -> list[str]:
    tips = []
    flags = reader.used(("flag",))
    for ref in flags:
        if ref.choices and len(ref.choices) <= _MAX_CHOICES_SHOWN:
            tips.append(f"{ref.name} accepts {', '.join(ref.choices)}")
    if len(flags) > 1:
        names = ", ".join(r.name for r in flags)
        tips.append(f"Check {names} together before launching: this combination is rejected")
    for ref in reader.used(("env",)):
        tips.append(f"Set {ref.name} explicitly in the environment the program starts from")
    if condition is not None and any("isinstance(" in source for source, _ in guard.clauses):
        tips.append(f"Convert arguments to the expected types before calling `{guard.function}`")
    return tips


def _validation(
    guard: _Guard,
    tests: Sequence[tuple[ast.expr, str]],
    error_class: str,
    file_path: str,
    line: int,
) -> str | None:
    if not tests:
        return None
    lines = [f"# {guard.function} raises {error_class} when this holds ({file_path}:{line})"]
    for d in guard.defs:
        if d.kind == "=" and not d.clauses:
            lines.append(f"# with {d.name} = {d.expr}")
    sources = [s for _, s in tests]
    joined = " and ".join(f"({s})" if len(sources) > 1 else s for s in sources)
    lines.append(f"if {joined}:")
    lines.append(f"    raise SystemExit('{error_class.rsplit('.', 1)[-1]} ahead: fix this first')")
    return "\n".join(lines)


def _type_guard(guard: _Guard, condition: ast.expr | None, error_class: str) -> str | None:
    if condition is None:
        return None
    for part in conjuncts(condition):
        if (
            isinstance(part, ast.UnaryOp)
            and isinstance(part.op, ast.Not)
            and isinstance(part.operand, ast.Call)
            and isinstance(part.operand.func, ast.Name)
            and part.operand.func.id == "isinstance"
        ):
            check = ast.unparse(part.operand)
            return f"if not {check}:\n    ...  # `{guard.function}` raises {error_class} here"
    return None
