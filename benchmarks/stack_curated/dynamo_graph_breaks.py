r"""torch.compile's graph-break types, read from the registry torch's wheel ships.

Dynamo stops tracing at code it cannot put in one graph by calling
``unimplemented(gb_type=..., context=..., explanation=..., hints=[...])``
(``torch/_dynamo/exc.py``), which raises ``torch._dynamo.exc.Unsupported`` with
the text ``format_graph_break_message`` lays out::

    <gb_type>
      Explanation: <explanation>
      Hint: <hint>

      Developer debug context: <context>

     For more details about this graph break, please visit: https://.../gb/gb0179.html

The miner reads ``raise`` statements, so these texts had no record; torch's wheel
ships every type in ``torch/_dynamo/graph_break_registry.json`` (id ``GBxxxx`` ->
the type's ``Gb_type``, ``Context``, ``Explanation`` and ``Hints``; the first
entry of an id is the current one, the others the names and texts older releases
printed). :func:`records` makes one record per type name: the message is the name,
then the ``Explanation`` and the ``Developer debug context`` (both captured: the
context names the value or call Dynamo met), each optional, as a title or a cut
paste shows only the name. A name too vague to stand alone (``Import failure``,
:func:`stack_vague.vague_pattern`) needs both lines after it. The record links to
the ``unimplemented`` call of the type in the wheel's Python (found by its
literal ``gb_type=`` argument), or to the registry entry when no call names it.

The advice is for someone serving a model with vLLM or SGLang, who did not write
the code Dynamo traced: vLLM compiles the model by default and with
``fullgraph=True``, so any graph break stops the server; SGLang compiles only with
``--enable-torch-compile``. The first solution always turns the compiler off; the
others follow the registry's hint kinds (an error the eager run has too, a Dynamo
bug, an earlier graph break) and any environment variable a hint or the
``torch._dynamo.config`` option it names reads (``capture_scalar_outputs`` is
``TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1``).

>>> reg = '{"GB0179": [{"Gb_type": "copy.deepcopy()", "Context": "copy.deepcopy({x})",'
>>> reg += ' "Explanation": "Dynamo does not support copy.deepcopy()", "Hints": []}]}'
>>> [(b.gb_id, b.gb_type, b.registry_line) for b in read_registry(reg)]
[('GB0179', 'copy.deepcopy()', 1)]
>>> spec = graph_break_record(read_registry(reg)[0], None, "v2.14.1", {})
>>> spec.template
'copy.deepcopy()\n  Explanation: {explanation}\n\n  Developer debug context: {context}'
>>> from errcat.patterns import compile_pattern
>>> m = compile_pattern(spec.pattern or "").full.fullmatch(
...     "copy.deepcopy()\n  Explanation: Dynamo does not support copy.deepcopy()\n"
...     "  Hint: Avoid calling copy.deepcopy()\n\n  Developer debug context: copy.deepcopy(x)"
... )
>>> m.group(2)
'copy.deepcopy(x)'
"""

from __future__ import annotations

import ast
import json
import re
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from errcat.patterns import template_to_pattern
from stack_curated.spec import Curated
from stack_vague import vague_pattern

__all__ = [
    "REGISTRY_PATH",
    "GraphBreak",
    "config_env",
    "graph_break_record",
    "raise_sites",
    "read_registry",
    "records",
]

REPO = "pytorch/pytorch"
#: Where the wheel (and the repository) keep the registry.
REGISTRY_PATH = "torch/_dynamo/graph_break_registry.json"
CONFIG_PATH = "torch/_dynamo/config.py"
#: Where ``get_gbid_documentation_link`` points (``gb`` and the id's digits).
SITE_URL = "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb{digits}.html"
TROUBLESHOOTING = "https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html"
_ID_LINE = re.compile(r'^\s*"(GB\d+)"\s*:', re.MULTILINE)
#: A torch environment setting a hint names (``USE_DISTRIBUTED=1`` is a build option: not one).
_ENV_HINT = re.compile(r"\b(TORCH[A-Z0-9_]*)=([\w+.,-]*\w)")
_CONFIG_NAME = re.compile(r"torch\._dynamo\.config\.(\w+)")

# The registry's hint kinds (torch/_dynamo/graph_break_hints.py), by a phrase of each.
_USER_ERROR = "similar error when actually running eager"
_DYNAMO_BUG = "likely to be a Dynamo bug"
_DIFFICULT = "may be difficult to debug"
_FUNDAMENTAL = "graph break is fundamental"
_SUPPORTABLE = "possible to write Dynamo tracing rules"
_EARLIER = "caused by an earlier graph break"

_NO_COMPILE = (
    "Serve without torch.compile to get past it: vLLM: vllm serve <model> --enforce-eager"
    " (no compilation and no CUDA graphs) or -cc.mode=none (no compilation; vLLM releases"
    " before 0.11 spell it --compilation-config '{\"level\": 0}'); SGLang compiles only when"
    " started with --enable-torch-compile, so leave that flag out"
)
_EAGER_TOO = (
    "Check whether the same model and request fail without compilation (the flags above):"
    " if they do, the fault is in the model code or its inputs, not in the compiler; fix"
    " those (or upgrade the engine: pip install -U vllm, pip install -U sglang)"
)
_UPGRADE = (
    "Upgrade torch together with the engine (pip install -U vllm or pip install -U sglang"
    " installs the torch release it pins): Dynamo learns new code between releases"
)
_EARLIER_BREAK = (
    "Find the first graph break of the run: start the server with TORCH_LOGS=graph_breaks"
    " and deal with the first one logged; this one may follow from it"
)
_REPORT = (
    "Report it to the engine (vLLM or SGLang) with the 'from user code' frames of the"
    ' paste and the log of a run with TORCHDYNAMO_VERBOSE=1 TORCH_LOGS="+dynamo": the code'
    " Dynamo stopped at is the engine's model code"
)


@dataclass(frozen=True)
class GraphBreak:
    """One graph-break type name of the registry, with the texts of its entry."""

    gb_id: str
    gb_type: str
    context: str
    explanation: str
    hints: tuple[str, ...]
    #: The line of ``"GBxxxx": [`` in the registry file.
    registry_line: int
    #: The id's current name, when this one is a name older releases printed.
    renamed_to: str | None = None


def read_registry(text: str) -> list[GraphBreak]:
    """Every distinct type name of the registry's text, current names first.

    A name an id held before (``Dynamo cache limit exceeded``, now ``Dynamo
    recompile limit exceeded``) is kept with its own texts, as older torch releases
    print it; a name that is another id's current one, or no name at all (a leading
    underscore: a variable the registry's writer read), is not. A name's outer spaces
    (``... not implemented in python ``) are dropped: the matcher folds whitespace.

    >>> reg = '{"GB0039": [{"Gb_type": "new name", "Context": "", "Explanation": "",'
    >>> reg += ' "Hints": []}, {"Gb_type": "old name", "Context": "", "Explanation": "",'
    >>> reg += ' "Hints": []}, {"Gb_type": "_gb_type", "Context": "", "Explanation": "",'
    >>> reg += ' "Hints": []}]}'
    >>> [(b.gb_type, b.renamed_to) for b in read_registry(reg)]
    [('new name', None), ('old name', 'new name')]
    """
    registry: dict[str, list[dict[str, object]]] = json.loads(text)
    lines = {m.group(1): text.count("\n", 0, m.start()) + 1 for m in _ID_LINE.finditer(text)}
    current: list[GraphBreak] = []
    older: list[GraphBreak] = []
    for gb_id, entries in registry.items():
        for index, entry in enumerate(entries):
            name = str(entry["Gb_type"])
            hints = entry.get("Hints") or []
            assert isinstance(hints, list)
            brk = GraphBreak(
                gb_id=gb_id,
                gb_type=name.strip(),
                context=str(entry.get("Context") or ""),
                explanation=str(entry.get("Explanation") or ""),
                hints=tuple(str(h) for h in hints),
                registry_line=lines.get(gb_id, 1),
                renamed_to=None if index == 0 else str(entries[0]["Gb_type"]).strip(),
            )
            (current if index == 0 else older).append(brk)
    seen: set[str] = set()
    out: list[GraphBreak] = []
    for brk in [*current, *older]:
        if brk.gb_type in seen or brk.gb_type.startswith("_") or not brk.gb_type.strip():
            continue
        seen.add(brk.gb_type)
        out.append(brk)
    return out


def raise_sites(sources: Iterable[tuple[str, bytes]]) -> dict[str, tuple[str, int]]:
    r"""The first call (by path, then line) passing each literal ``gb_type=`` argument.

    >>> src = b'def f():\n    unimplemented(\n        gb_type="copy.deepcopy()",\n    )\n'
    >>> raise_sites([("torch/_dynamo/variables/misc.py", src)])
    {'copy.deepcopy()': ('torch/_dynamo/variables/misc.py', 2)}
    """
    sites: dict[str, tuple[str, int]] = {}
    for path, source in sorted(sources):
        if b"gb_type" not in source:
            continue
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        calls = sorted(
            (node.lineno, kw.value.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            for kw in node.keywords
            if kw.arg == "gb_type"
            and isinstance(kw.value, ast.Constant)
            and isinstance(kw.value.value, str)
        )
        for line, name in calls:
            sites.setdefault(name.strip(), (path, line))
    return sites


def config_env(source: str) -> dict[str, str]:
    r"""``torch._dynamo.config`` options whose value an environment variable sets.

    Each option assigned from ``os.environ.get("NAME"...) == "1"`` maps to
    ``NAME=1`` (the setting that turns it on).

    >>> config_env('import os\ncapture_scalar_outputs = os.environ.get("TORCHDYNAMO_X") == "1"\n')
    {'capture_scalar_outputs': 'TORCHDYNAMO_X=1'}
    >>> config_env('verbose = os.environ.get("V", "0")\n')
    {}
    """
    out: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target: ast.expr = node.targets[0]
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target = node.target
        else:
            continue
        value = node.value
        if not isinstance(target, ast.Name) or not isinstance(value, ast.Compare):
            continue
        call, right = value.left, value.comparators[0]
        if not (
            isinstance(value.ops[0], ast.Eq)
            and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "get"
            and ast.unparse(call.func.value) == "os.environ"
            and call.args
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
            and isinstance(right, ast.Constant)
            and isinstance(right.value, str)
        ):
            continue
        out[target.id] = f"{call.args[0].value}={right.value}"
    return out


def _env_settings(hints: Iterable[str], env: Mapping[str, str]) -> list[str]:
    """The ``NAME=value`` settings a type's hints name, directly or by a config option."""
    text = " ".join(hints)
    found = [f"{m.group(1)}={m.group(2)}" for m in _ENV_HINT.finditer(text)]
    found += [env[name] for name in _CONFIG_NAME.findall(text) if name in env]
    return [s for s in dict.fromkeys(found) if not s.startswith("TORCH_LOGS=")]


def _solutions(brk: GraphBreak, settings: list[str]) -> tuple[str, ...]:
    text = " ".join(brk.hints)
    out = [_NO_COMPILE]
    out += [
        f"Set {s} in the server's environment (torch's own hint for this graph break),"
        f" e.g. {s} vllm serve <model>"
        for s in settings
    ]
    if _EARLIER in text:
        out.append(_EARLIER_BREAK)
    if _USER_ERROR in text:
        out.append(_EAGER_TOO)
    if _DYNAMO_BUG in text or _DIFFICULT in text or _SUPPORTABLE in text:
        out.append(_UPGRADE)
    out.append(_REPORT)
    return tuple(out)


def _kind(hints: Iterable[str]) -> str:
    text = " ".join(hints)
    if _USER_ERROR in text:
        return (
            " torch marks it as one the same code may also raise without compilation (a"
            " fault of the code or its inputs)."
        )
    if _DYNAMO_BUG in text or _DIFFICULT in text:
        return " torch marks it as likely a fault of Dynamo itself."
    if _FUNDAMENTAL in text:
        return " torch marks it as one Dynamo will not learn to trace: the code must change."
    if _SUPPORTABLE in text:
        return " torch marks it as code a later Dynamo may learn to trace."
    return ""


def graph_break_record(
    brk: GraphBreak,
    site: tuple[str, int] | None,
    revision: str,
    env: Mapping[str, str],
) -> Curated:
    """The record of one graph-break type name (see the module)."""
    name_pattern = template_to_pattern(brk.gb_type)
    tail = r"\s+Explanation: (.+?)\s+Developer debug context: (.+?)"
    if vague_pattern(name_pattern):
        pattern = name_pattern + tail
    else:
        pattern = name_pattern + r"(?:\s+Explanation: (.+?)(?:\s+Developer debug context: (.+?))?)?"
    path, line = site if site is not None else (REGISTRY_PATH, brk.registry_line)
    digits = brk.gb_id.removeprefix("GB")
    said = f" Its explanation reads: {brk.explanation.strip()}" if brk.explanation.strip() else ""
    said += "" if said.endswith(".") or not said else "."
    hints = " ".join(h.strip() for h in brk.hints if h.strip())
    older = (
        f" This is the name older torch releases printed for what torch {revision[1:]} calls"
        f" '{brk.renamed_to}'."
        if brk.renamed_to
        else ""
    )
    documentation = (
        f"torch.compile's tracer (Dynamo) met code it cannot put in one graph: graph break"
        f" {brk.gb_id}, '{brk.gb_type}', raised as torch._dynamo.exc.Unsupported.{older}{said}"
        f"{_kind(brk.hints)} The 'Developer debug context' line names the value or call"
        " Dynamo met, and the 'from user code' frames after it the model code that holds it."
        " vLLM compiles every model by default, with fullgraph=True, so a graph break stops"
        " the server at startup instead of falling back to eager code; SGLang compiles only"
        " with --enable-torch-compile."
        + (f" torch's hints, for whoever writes the compiled code: {hints}" if hints else "")
    )
    settings = _env_settings(brk.hints, env)
    fix = f"{settings[0]} vllm serve <model>" if settings else "vllm serve <model> --enforce-eager"
    return Curated(
        repo=REPO,
        path=path,
        line=line,
        revision=revision,
        error_class="torch._dynamo.exc.Unsupported",
        template=brk.gb_type
        + "\n  Explanation: {explanation}\n\n  Developer debug context: {context}",
        pattern=pattern,
        error_type="runtime",
        documentation=documentation,
        solutions=_solutions(brk, settings),
        example_fix=f"# before\nvllm serve <model>  # torch._dynamo.exc.Unsupported:"
        f" {brk.gb_type}\n# after\n{fix}",
        trigger="torch.compile tracing a model's forward (vLLM's default compilation, SGLang's"
        f" --enable-torch-compile) reaches code of the kind '{brk.gb_type}'.",
        tags=("torch", "torch.compile", "dynamo", "graph-break"),
        references=(SITE_URL.format(digits=digits), TROUBLESHOOTING),
    )


def records(wheel: Path, revision: str) -> list[Curated]:
    """One record per graph-break type name of the torch wheel at ``wheel``."""
    with zipfile.ZipFile(wheel) as zf:
        registry = zf.read(REGISTRY_PATH).decode("utf-8")
        env = config_env(zf.read(CONFIG_PATH).decode("utf-8"))
        sources = [
            (name, source)
            for name in zf.namelist()
            if name.startswith("torch/") and name.endswith(".py")
            for source in (zf.read(name),)
            if b"gb_type" in source
        ]
    sites = raise_sites(sources)
    return [
        graph_break_record(brk, sites.get(brk.gb_type), revision, env)
        for brk in read_registry(registry)
    ]
