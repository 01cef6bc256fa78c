r"""Advice written from the code at a raise site: documentation, solutions, example fix, checks.

For every record it mines, the miner writes what the code says about the
error (:func:`write_advice`). Each test on the path to the raise is traced to
the levers it reads (:mod:`errcat.mine.levers`: flags, request fields, the
model's config, environment variables, packages, hardware); the solutions are
one action per way out of the guard (:mod:`errcat.mine.ways`), ranked by
lever, with the values the code gives and the flag's own help text; a test
that an earlier ``if ...: raise`` on the same path put there is no way out
(making it false raises that other error). The documentation says why in a
few words, in the user's terms; the whole condition stays in
``triggerScenarios`` and ``validationCode``. A guard that reads no lever is
named an internal check, with what to report. The example fix is the launch
command before and after (:mod:`errcat.mine.fixes`). Sentences of the message
that tell the user what to do ("Use --x instead.") come first.

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
...     template="fast mode is gone.",
...     error_class="ValueError",
...     options=index,
...     file_path="pkg/run.py",
...     line=3,
... )
>>> print(advice.documentation)
Start the engine. Raised when --mode is fast.
>>> advice.solutions
('Set --mode to a value other than fast (one of safe)',)
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
from errcat.mine.conditions import Reader
from errcat.mine.facts import _Def, _Guard
from errcat.mine.fixes import example_fix
from errcat.mine.levers import Ref
from errcat.mine.logged import shows_caught
from errcat.mine.logic import conjuncts, negate, parse_test
from errcat.mine.logwords import WARNING_LEVELS, handled, handled_doc, warning_note
from errcat.mine.logwords import internal as internal_words
from errcat.mine.options import OptionIndex
from errcat.mine.project import ProjectIndex
from errcat.mine.ways import Way, ways_out
from errcat.models import GENERATED_TAG
from errcat.slots import reword

__all__ = ["DOC_WORDS", "message_advice", "with_message", "write_advice"]

_MAX_SOLUTIONS = 6
_MAX_CHOICES_SHOWN = 12
#: The documentation says why in at most about this many words.
DOC_WORDS = 60
_HELP_CHARS = 110
#: A condition of at most this many words is shown with an internal check.
_SHORT_CONDITION = 14
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_YOU = re.compile(r"^you (?:can|may|should|must|need to)\s+(?:also\s+)?", re.IGNORECASE)
#: A list marker before a sentence (not the dashes of a flag).
_BULLET = re.compile(r"^(?:[-*•]+\s+|\d+[.)]\s+)")
_IMPERATIVE = re.compile(
    r"^(?:please\s+|you (?:can|may|should|must|need to)\s+(?:also\s+)?)?"
    r"(?:use|set|pass|install|try|select|remove|enable|disable|specify|make sure|"
    r"consider|run|upgrade|downgrade|increase|decrease|reduce|lower|raise|check|add|provide|"
    r"call|change|switch|update|ensure|choose|load|rebuild|reinstall|restart|unset|export|"
    r"see|refer|verify|define|register|reduce|avoid|drop|omit)\b",
    re.IGNORECASE,
)
#: A message that speaks of the hardware: then a hardware change may be a fix.
_HARDWARE_WORDS = re.compile(
    r"(?i)\b(?:gpus?|cuda|rocm|hip|npus?|xpus?|tpus?|devices?|compute capability|sm_?\d+\w*|"
    r"blackwell|hopper|ampere|volta|turing|mi\d{3}\w*|gfx\d+\w*|hardware|platform)\b"
)
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


@dataclass(frozen=True, slots=True)
class _Advice:
    """The generated fields of one record (names as in :class:`errcat.models.ErrorRecord`).

    ``hardware`` holds the hardware changes that would avoid the error: they
    are solutions only when the message itself speaks of the hardware.
    ``internal`` says the check is internal (the solution when nothing else is).
    """

    documentation: str
    trigger_scenarios: str
    solutions: tuple[str, ...]
    example_fix: str
    prevention_tips: tuple[str, ...]
    validation_code: str | None
    type_guard: str | None
    tags: tuple[str, ...] = (GENERATED_TAG,)
    hardware: tuple[str, ...] = ()
    internal: str = ""
    #: The solutions the code gives, before any message's own: :func:`with_message`
    #: starts from these, so that one site's advice is specialised to each message alike.
    own: tuple[str, ...] = ()
    #: A log call's level (``""`` for a raise): its advice speaks of log lines.
    logged: str = ""
    #: For a line logged while handling an error: what to fix when the line shows that
    #: error's message, and when it does not (:func:`errcat.mine.logwords.handled`).
    caught: tuple[str, ...] = ()
    #: The last solution of a logged warning: it may be acted on or left alone.
    note: str = ""


def message_advice(template: str) -> list[str]:
    """The sentences of a message template that tell the reader what to do.

    A placeholder is never quoted raw: it is a slot named after its value
    (``Lower --x to at most <n>.``), which a match fills with the value it
    captured (:class:`errcat.Advice`); a value dumped for debugging
    (``node={node!r}``) is left out (:func:`errcat.slots.reword`).

    >>> message_advice("Bad backend {b!r}. Use --backend deepep. It is faster.")
    ['Use --backend deepep.']
    >>> message_advice("Not on this GPU. You can use float16 instead: --dtype=half.")
    ['Use float16 instead: --dtype=half.']
    >>> message_advice("No GPU. Make sure a node has 1 GPU node={node!r}. Lower --n to {m}.")
    ['Make sure a node has 1 GPU.', 'Lower --n to <m>.']
    """
    out = []
    for sentence in _SENTENCES.split(template):
        text = _BULLET.sub("", sentence.strip()).strip()
        if text and _IMPERATIVE.match(text):
            text = reword(_YOU.sub("", text))
            if text:
                out.append(text[0].upper() + text[1:])
    return out


def _effective(guard: _Guard) -> list[tuple[ast.expr, str, bool]]:
    """Each clause as the test that must hold for the raise, its source, and whether it is open.

    A clause an earlier ``if ...: raise`` put there is no way out: making it
    false raises that other error.
    """
    out = []
    for index, (source, holds) in enumerate(guard.clauses):
        try:
            node = parse_test(source)
        except SyntaxError:  # pragma: no cover - stored from ast.unparse
            continue
        test = node if holds else negate(node)
        out.append((test, source if holds else f"not ({source})", index not in guard.rejected))
    return out


def _conjoin(nodes: Sequence[ast.expr]) -> ast.expr:
    return nodes[0] if len(nodes) == 1 else ast.BoolOp(op=ast.And(), values=list(nodes))


def short_function(function: str) -> str:
    """A function as a reader knows it: ``Class.method``, or the bare function name.

    >>> short_function("pkg.mod.Engine.start"), short_function("pkg.mod.run.<locals>.inner")
    ('Engine.start', 'inner')
    """
    parts = [p for p in function.split(".") if p and p != "<locals>"]
    if len(parts) >= 2 and parts[-2][:1].isupper():
        return ".".join(parts[-2:])
    return parts[-1] if parts else function


def _project(repo: str) -> str:
    return repo.rsplit("/", 1)[-1] if repo else "the project"


def write_advice(
    *,
    guard: _Guard,
    template: str,
    error_class: str,
    options: OptionIndex,
    file_path: str,
    line: int,
    calls: CallIndex | None = None,
    project: ProjectIndex | None = None,
    repo: str = "",
    logged: bool = False,
    traceback: bool = False,
) -> _Advice:
    """The advice for one record, from its raise site's guard and the project's options.

    ``calls`` tells what the function's callers pass for its parameters and
    what the functions its tests call read (:class:`errcat.mine.bindings.CallIndex`);
    ``project`` what the whole project defines (:class:`errcat.mine.project.ProjectIndex`).
    ``logged``: the site is a log call whose level is ``error_class``; ``traceback``:
    it prints a traceback after its line (:mod:`errcat.mine.logwords`).
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
        project=project,
        owner=guard.owner,
        annotations=dict(guard.annotations),
        names=dict(guard.names),
        binder=calls.bound if calls is not None else None,
    )
    tests = _effective(guard)
    condition = reader.normalize(_conjoin([n for n, _, _ in tests])) if tests else None
    # A test an earlier check put on the path is no way out; when every test is such
    # (the last raise after several checks), they are all the code says of it.
    open_tests = [n for n, _, is_open in tests if is_open] or [n for n, _, _ in tests]
    # The ways read each test as written: "not (a or b)" keeps its "or", whose parts are
    # the alternatives of one way ("Run on CUDA or on Intel XPUs").
    way_tests = [parse_test(s) for _, s, is_open in tests if is_open] or [
        parse_test(s) for _, s, _ in tests
    ]
    ways = ways_out(reader, _conjoin(way_tests), innermost_first=True) if way_tests else []
    entry = _entry_point(guard, project)
    if not entry:
        ways = [w for w in ways if w.kind != "arg"]  # what the project passes is internal
    ways = sorted(ways, key=lambda w: w.rank)
    levers = [w for w in ways if w.kind != "hardware"]
    solutions = _with_help([w.text for w in levers], levers)
    caught: tuple[str, ...] = ()
    if logged and guard.handler is not None:
        caught = _caught(guard, traceback)
    else:
        solutions += _fallback_solutions(guard, error_class)
    solutions = [text for text in solutions if _real_flags(text, options)]
    launcher = project.launcher(_project(repo)) if project is not None else None
    advice = _Advice(
        documentation=_documentation(
            guard,
            reader,
            reader.normalize(_conjoin(open_tests)) if open_tests else None,
            repo,
            entry,
            logged=logged,
            traceback=traceback,
        ),
        trigger_scenarios=_triggers(reader, condition),
        solutions=tuple(solutions),
        own=tuple(solutions),
        example_fix=example_fix(levers, launcher),
        prevention_tips=tuple(_tips(reader, condition, error_class if logged else "")),
        validation_code=_validation(guard, tests, error_class, file_path, line, logged=logged),
        type_guard=_type_guard(guard, condition, error_class, logged),
        hardware=tuple(w.text for w in ways if w.kind == "hardware"),
        internal="" if levers else _internal(guard, error_class, repo, logged, traceback),
        logged=error_class if logged else "",
        caught=caught,
        note=warning_note(_project(repo)) if logged and error_class in WARNING_LEVELS else "",
    )
    return with_message(advice, template)


def with_message(advice: _Advice, template: str) -> _Advice:
    """The advice with the message's own instructions as its first solutions.

    The rest of the advice depends only on the raise site, so one site's
    advice is written once and specialised to each of its messages: a
    hardware change is offered only when the message speaks of the hardware,
    and an internal check says so when nothing else can be done.
    """
    told = message_advice(template)
    solutions = [*told, *advice.own]
    if advice.caught:  # where the error a logged line caught is shown
        solutions.append(advice.caught[0 if shows_caught(template) else -1])
    if advice.hardware and _HARDWARE_WORDS.search(template):
        solutions.extend(advice.hardware)
    internal = bool(advice.internal and not advice.own and not told and not advice.caught)
    if internal:
        solutions.append(advice.internal)
    unique = tuple(dict.fromkeys(solutions))[:_MAX_SOLUTIONS]
    if advice.note and not internal:  # a logged warning may be left alone: said last
        unique = (*unique, advice.note)
    return replace(advice, solutions=unique)


def _with_help(texts: list[str], ways: Sequence[Way]) -> list[str]:
    """Each flag's help text after the first solution that names it."""
    out = []
    helped: set[str] = set()
    for text, way in zip(texts, ways, strict=True):
        ref = way.ref
        shown = text
        if ref is not None and ref.kind == "flag" and ref.help and ref.name not in helped:
            helped.add(ref.name)
            words = ref.help if len(ref.help) <= _HELP_CHARS else ref.help[: _HELP_CHARS - 1] + "…"
            shown = f"{text}. {ref.name}: {words.rstrip('.')}"
        out.append(shown)
    return out


def _real_flags(text: str, options: OptionIndex) -> bool:
    """Whether every flag a generated text names is one the project's parsers define.

    >>> from errcat.mine.facts import _Option
    >>> index = OptionIndex([_Option("mode", "--mode")], [])
    >>> _real_flags("Set --mode to a", index), _real_flags("Pass --vae-config.x", index)
    (True, False)
    """
    return all(flag in options.flags for flag in _FLAG.findall(text))


def _levers_of(reader: Reader, node: ast.expr) -> list[Ref]:
    """The levers a test reads, the hardware and the function's own arguments included."""
    found = {r.key: r for r in reader.sources(node)}
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Name, ast.Attribute, ast.Call)):
            ref = reader.ref(sub)
            if ref is not None and ref.kind in ("hardware", "arg"):
                found.setdefault(ref.key, ref)
    return list(found.values())


def _words(text: str) -> int:
    return len(text.split())


def _entry_point(guard: _Guard, project: ProjectIndex | None) -> bool:
    """Whether the raising function's arguments are the user's: nothing in the project calls it."""
    if guard.module_level:
        return False
    if project is None:
        return not short_function(guard.function).rsplit(".", 1)[-1].startswith("_")
    return project.is_entry_point(guard.function)


def _documentation(
    guard: _Guard,
    reader: Reader,
    condition: ast.expr | None,
    repo: str,
    entry: bool,
    *,
    logged: bool = False,
    traceback: bool = False,
) -> str:
    """Why, in at most about :data:`DOC_WORDS` words: the user-facing part of the condition.

    A log call's is said of a logged line ("Logged when ...").
    """
    where = f"`{short_function(guard.function)}`"
    verb = "Logged" if logged else "Raised"
    user: list[str] = []
    scope: list[str] = []
    for part in conjuncts(condition) if condition is not None else []:
        kinds = {r.kind for r in _levers_of(reader, part)}
        if kinds - {"hardware", "arg"} or ("arg" in kinds and entry):
            user.append(reader.describe(part))
        elif "hardware" in kinds:
            scope.append(reader.describe(part))
    whole = reader.describe(condition) if condition is not None else ""
    short = f" (when {whole})" if whole and _words(whole) <= _SHORT_CONDITION else ""
    head = guard.doc if guard.doc and _words(guard.doc) <= 25 else ""
    if head and not _real_flags(head, reader.options):
        head = ""  # a docstring naming a flag no parser defines (an example, another tool)
    if user:
        why = f"{verb} when {' and '.join(user)}"
        if scope:
            why += f" ({' and '.join(scope)})"
        why += "."
    elif guard.handler is not None:
        caught = guard.handler or "an exception"
        why = (
            handled_doc(where, caught, traceback=traceback)
            if logged
            else f"Raised in {where} while handling {caught}: the cause is shown above it."
        )
    elif guard.module_level:
        why = f"{verb} when module `{guard.function}` is imported{short}."
    else:
        check = f"internal check of {_project(repo)} in {where}{short}"
        why = (
            f"Logged by an {check}: no setting you pass decides it."
            if logged
            else f"An {check}: no setting you pass decides it."
        )
    text = f"{head} {why}".strip() if head else why
    if _words(text) > DOC_WORDS:
        text = why
    if _words(text) > DOC_WORDS:
        kept: list[str] = []
        for said in user:
            if _words(" and ".join([*kept, said])) > DOC_WORDS - 12:
                break
            kept.append(said)
        text = (
            f"{verb} when {' and '.join(kept)}, among other conditions (see the validation code)."
            if kept
            else f"{verb} in {where} when a long condition holds (see the validation code)."
        )
    return text


def _triggers(reader: Reader, condition: ast.expr | None) -> str:
    """The whole path condition in words, and the levers it involves (the detail view)."""
    if condition is None:
        return ""
    parts = [f"Occurs when {reader.describe(condition)}."]
    levers = _levers_of(reader, condition)
    for kind, label in (
        ("flag", "Command-line flags"),
        ("request", "Request fields"),
        ("model", "Model config (config.json) keys"),
        ("env", "Environment variables"),
        ("package", "Packages"),
        ("hardware", "Hardware"),
    ):
        names = [r.name for r in levers if r.kind == kind]
        if names:
            parts.append(f"{label} involved: {', '.join(names)}.")
    return " ".join(parts)


def _internal(
    guard: _Guard, error_class: str, repo: str, logged: bool = False, traceback: bool = False
) -> str:
    """What to do about a check that reads no lever: say so, and what to report.

    A logged line has no traceback of its own: what to read around it instead
    (:func:`errcat.mine.logwords.internal`).
    """
    project = _project(repo)
    where = short_function(guard.function)
    report = (
        f"report it at https://github.com/{repo}/issues" if repo else "report it to the project"
    )
    if logged:
        return internal_words(project, where, error_class, report, traceback=traceback)
    if error_class.rsplit(".", 1)[-1] == "NotImplementedError":
        return (
            f"{project} does not implement this case (in {where}); it is an internal limit, not a "
            f"setting you pass: choose another option or model, or {report} with the traceback"
        )
    return (
        f"This is an internal check of {project} (in {where}), not a setting you pass: upgrade "
        f"to the newest {project} release, and if it persists, {report} with the whole "
        "traceback, the launch command and the version"
    )


def _caught(guard: _Guard, traceback: bool) -> tuple[str, ...]:
    """What to fix for a line logged while handling an error (see :attr:`_Advice.caught`)."""
    what = guard.handler or "exception"
    where = short_function(guard.function)
    if guard.handler in _IMPORT_ERRORS or any(n in what for n in _IMPORT_ERRORS):
        return (
            f"Install the package that is missing (pip install <package>), at the version the "
            f"project requires: {where} caught an ImportError and logged this line",
        )
    return (
        handled(what, where, traceback=traceback, printed=True),
        handled(what, where, traceback=traceback, printed=False),
    )


def _fallback_solutions(guard: _Guard, error_class: str) -> list[str]:
    if guard.handler is not None:
        if guard.handler in _IMPORT_ERRORS or any(n in guard.handler for n in _IMPORT_ERRORS):
            return [
                "Install the package the ImportError above names (pip install <package>), "
                "at the version the project requires"
            ]
        what = guard.handler or "exception"
        return [
            f"Fix the {what} shown above this error in the traceback: "
            f"{short_function(guard.function)} caught it and raised this one"
        ]
    return []


def _tips(reader: Reader, condition: ast.expr | None, logged: str = "") -> list[str]:
    """Checks to make before launching; ``logged``: the level of a log call's line."""
    if condition is None:
        return []
    tips = []
    levers = _levers_of(reader, condition)
    flags = [r for r in levers if r.kind == "flag"]
    for ref in flags:
        if ref.choices and len(ref.choices) <= _MAX_CHOICES_SHOWN:
            tips.append(f"{ref.name} accepts {', '.join(ref.choices)}")
    if len(flags) > 1:
        names = ", ".join(r.name for r in flags)
        outcome = f"logs this {logged.lower()}" if logged else "is rejected"
        tips.append(f"Check {names} together before launching: this combination {outcome}")
    for ref in levers:
        if ref.kind == "env":
            tips.append(f"Set {ref.name} explicitly in the environment the program starts from")
        elif ref.kind == "request":
            tips.append(f"Check the request's `{ref.name}` on the client before sending it")
        elif ref.kind == "model":
            tips.append(f"Check the model's config.json `{ref.name}` before serving it")
    return list(dict.fromkeys(tips))[:4]


def _validation(
    guard: _Guard,
    tests: Sequence[tuple[ast.expr, str, bool]],
    error_class: str,
    file_path: str,
    line: int,
    *,
    logged: bool = False,
) -> str | None:
    if not tests:
        return None
    verb = "logs" if logged else "raises"
    lines = [f"# {guard.function} {verb} {error_class} when this holds ({file_path}:{line})"]
    for d in guard.defs:
        if d.kind == "=" and not d.clauses:
            lines.append(f"# with {d.name} = {d.expr}")
    sources = [s for _, s, _ in tests]
    joined = " and ".join(f"({s})" if len(sources) > 1 else s for s in sources)
    lines.append(f"if {joined}:")
    lines.append(f"    raise SystemExit('{error_class.rsplit('.', 1)[-1]} ahead: fix this first')")
    return "\n".join(lines)


def _type_guard(
    guard: _Guard, condition: ast.expr | None, error_class: str, logged: bool = False
) -> str | None:
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
            verb = "logs" if logged else "raises"
            return f"if not {check}:\n    ...  # `{guard.function}` {verb} {error_class} here"
    return None
