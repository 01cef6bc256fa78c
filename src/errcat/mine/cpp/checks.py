r"""The check macros of torch's C++ API, found in a source file and read as message templates.

A site is a call of ``TORCH_CHECK`` (and its ``_VALUE``/``_TYPE``/``_INDEX``/
``_NOT_IMPLEMENTED``/``_WITH`` kin), ``AT_ERROR``, ``STD_TORCH_CHECK``,
``TORCH_INTERNAL_ASSERT`` or ``TORCH_CHECK_EQ`` and its comparison kin. Its
message is what torch prints: the arguments after the condition concatenated
(``c10::str``), string literals as they are, any other argument a placeholder
named by its expression; with no message, torch's default sentence around the
condition's own text. Inside a ``#define``, ``#param`` and a parameter in the
condition are placeholders too (each use of the macro fills them).

>>> call = 'TORCH_CHECK(x.dim() == 2, "x must be 2D, got ", x.dim());'
>>> [s.template for s in find_checks(call)]
['x must be 2D, got {x.dim()}']
>>> find_checks('#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")')[
...     0
... ].template
'{x} must be a CUDA tensor'
>>> find_checks("TORCH_CHECK(a.is_contiguous());")[0].template[:40]
'Expected a.is_contiguous() to be true, b'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from errcat.mine.cpp.lexer import STRING_START, blank_comments, read_string, split_arguments

__all__ = ["DEFAULT_CHECK", "MACROS", "CheckSite", "find_checks", "message_template"]

#: What TORCH_CHECK (and STD_TORCH_CHECK) says when the call gives no message.
DEFAULT_CHECK = (
    "Expected {cond} to be true, but got false.  (Could this error message be improved?  If"
    " so, please report an enhancement request to PyTorch.)"
)
_INTERNAL = (
    '{cond} INTERNAL ASSERT FAILED at "{file}":{line}, please report a bug to PyTorch. {msg}'
)

#: macro -> (form, Python class). Forms: check (cond, msg...), with (ErrorT, cond, msg...),
#: error (msg...), internal (cond, msg...), std (cond, msg...), op:<op> (a, b).
MACROS: dict[str, tuple[str, str]] = {
    "TORCH_CHECK": ("check", "RuntimeError"),
    "TORCH_CHECK_VALUE": ("check", "ValueError"),
    "TORCH_CHECK_TYPE": ("check", "TypeError"),
    "TORCH_CHECK_INDEX": ("check", "IndexError"),
    "TORCH_CHECK_NOT_IMPLEMENTED": ("check", "NotImplementedError"),
    "TORCH_CHECK_LINALG": ("check", "torch.linalg.LinAlgError"),
    "TORCH_CHECK_WITH": ("with", "RuntimeError"),
    "AT_ERROR": ("error", "RuntimeError"),
    "STD_TORCH_CHECK": ("std", "RuntimeError"),
    "TORCH_INTERNAL_ASSERT": ("internal", "RuntimeError"),
    "AT_ASSERTM": ("internal", "RuntimeError"),
    "TORCH_CHECK_EQ": ("op:==", "RuntimeError"),
    "TORCH_CHECK_NE": ("op:!=", "RuntimeError"),
    "TORCH_CHECK_LE": ("op:<=", "RuntimeError"),
    "TORCH_CHECK_LT": ("op:<", "RuntimeError"),
    "TORCH_CHECK_GE": ("op:>=", "RuntimeError"),
    "TORCH_CHECK_GT": ("op:>", "RuntimeError"),
}

#: c10's error types (TORCH_CHECK_WITH's first argument) as Python prints them.
_ERROR_TYPES = {
    "Error": "RuntimeError",
    "ValueError": "ValueError",
    "TypeError": "TypeError",
    "IndexError": "IndexError",
    "NotImplementedError": "NotImplementedError",
    "LinAlgError": "torch.linalg.LinAlgError",
    "OutOfMemoryError": "torch.OutOfMemoryError",
    "AcceleratorError": "torch.AcceleratorError",
    "DistError": "torch.distributed.DistError",
    "DistBackendError": "torch.distributed.DistBackendError",
    "DistNetworkError": "torch.distributed.DistNetworkError",
    "DistStoreError": "torch.distributed.DistStoreError",
    "EnforceFiniteError": "RuntimeError",
}

_CALL = re.compile(r"\b(" + "|".join(sorted(MACROS, key=len, reverse=True)) + r")\s*\(")
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(?:\(([^)]*)\))?", re.MULTILINE)
_SPACE = re.compile(r"\s+")
_STRINGIZE = re.compile(r"#\s*(\w+)")
_UNSAFE = re.compile(r"[{}:!]")


@dataclass(frozen=True)
class CheckSite:
    """One check macro call: where, which, what Python raises, and the message template."""

    macro: str
    line: int
    error_class: str
    template: str
    condition: str
    #: The macro whose ``#define`` holds the call ("" at file level or in a function).
    defined_in: str = ""


def _name(expression: str) -> str:
    r"""A placeholder name for a C++ expression: its text, made safe for a template.

    >>> _name("at::kBFloat16"), _name("x->sizes()[0]")
    ('at.kBFloat16', 'x.sizes()[0]')
    """
    text = _SPACE.sub(" ", expression.replace("\\\n", " ")).strip()
    text = text.replace("::", ".").replace("->", ".")
    return _UNSAFE.sub("_", text) or "value"


def _literal(text: str) -> str:
    """Literal message text as template text: braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def _condition_text(condition: str, params: frozenset[str]) -> str:
    """The condition as ``#cond`` prints it; a macro parameter in it is a placeholder."""
    text = _SPACE.sub(" ", condition).strip()
    if not params:
        return _literal(text)
    pieces = re.split(r"(\b\w+\b)", text)
    return "".join("{" + p + "}" if p in params else _literal(p) for p in pieces)


def _pieces(argument: str, params: frozenset[str]) -> str | None:
    """An argument made only of string literals and ``#param``s as template text, else None."""
    out: list[str] = []
    i = 0
    text = argument.strip()
    while i < len(text):
        if text[i].isspace() or text[i : i + 2] == "\\\n":
            i += 1
            continue
        m = _STRINGIZE.match(text, i)
        if m is not None and m.group(1) in params:
            out.append("{" + m.group(1) + "}")
            i = m.end()
            continue
        if STRING_START.match(text, i):
            value, i = read_string(text, i)
            out.append(_literal(value))
            continue
        return None
    return "".join(out) if out else None


def message_template(arguments: list[str], params: frozenset[str] = frozenset()) -> str:
    """The message ``c10::str(arguments...)`` prints, as a template.

    >>> message_template(['"got "', "n", '" heads"'])
    'got {n} heads'
    """
    parts = []
    for argument in arguments:
        piece = _pieces(argument, params)
        parts.append(piece if piece is not None else "{" + _name(argument) + "}")
    return "".join(parts)


def _close(text: str, start: int) -> int:
    """Index of the parenthesis closing the one opened just before ``start`` (-1 if none)."""
    depth = 1
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if c in '"uULR' and STRING_START.match(text, i):
            _, i = read_string(text, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _defines(text: str) -> list[tuple[int, int, str, frozenset[str]]]:
    """Each ``#define``'s span (start, end offsets), name and parameters."""
    out = []
    for m in _DEFINE.finditer(text):
        end = m.end()
        while True:
            newline = text.find("\n", end)
            if newline < 0:
                end = len(text)
                break
            if text[newline - 1 : newline] != "\\":
                end = newline
                break
            end = newline + 1
        params = frozenset(p.strip() for p in (m.group(2) or "").split(",") if p.strip())
        out.append((m.start(), end, m.group(1), params - {"..."}))
    return out


def _site(macro: str, arguments: list[str], params: frozenset[str]) -> tuple[str, str, str] | None:
    """(error class, template, condition) of one call, or None when it prints nothing usable."""
    form, error_class = MACROS[macro]
    if form == "with":
        if len(arguments) < 2:
            return None
        error_class = _ERROR_TYPES.get(arguments[0].split("::")[-1].strip(), "RuntimeError")
        arguments = arguments[1:]
        form = "check"
    if form == "error":
        return error_class, message_template(arguments, params), ""
    if not arguments:
        return None
    condition, rest = arguments[0], [a for a in arguments[1:] if a]
    cond = _condition_text(condition, params)
    if form.startswith("op:"):
        if len(arguments) != 2:
            return None
        a, b = (_condition_text(x, params) for x in arguments)
        values = "{" + _name(arguments[0]) + "} vs. {" + _name(arguments[1]) + "}"
        return error_class, f"Check failed: {a} {form[3:]} {b} ({values})", cond
    message = message_template(rest, params) if rest else ""
    if form == "check":
        return error_class, message or DEFAULT_CHECK.replace("{cond}", cond), cond
    if form == "std":
        if not message:
            return None  # torch prints only "func, file:line, " then: nothing to match
        return error_class, "{__func__}, {__FILE__}:{__LINE__}, " + message, cond
    return error_class, _INTERNAL.replace("{cond}", cond).replace("{msg}", message), cond


def find_checks(source: str) -> list[CheckSite]:
    """Every check macro call of a C/C++ source text, in order, with its message template."""
    text = blank_comments(source)
    defines = _defines(text)
    sites: list[CheckSite] = []
    for m in _CALL.finditer(text):
        start = m.start()
        inside = next((d for d in defines if d[0] <= start < d[1]), None)
        if inside is not None and inside[2] == m.group(1):
            continue  # the macro's own definition
        end = _close(text, m.end())
        if end < 0:
            continue
        body = text[m.end() : end].replace("\\\n", " ")
        params = inside[3] if inside is not None else frozenset()
        found = _site(m.group(1), split_arguments(body), params)
        if found is None:
            continue
        error_class, template, condition = found
        line = text.count("\n", 0, start) + 1
        sites.append(
            CheckSite(
                m.group(1),
                line,
                error_class,
                template,
                _SPACE.sub(" ", condition).strip(),
                inside[2] if inside is not None else "",
            )
        )
    return sites
