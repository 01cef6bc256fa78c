r"""The check macros of torch's C++ API, found in a source file and read as message templates.

A site is a call of ``TORCH_CHECK`` (and its ``_VALUE``/``_TYPE``/``_INDEX``/
``_NOT_IMPLEMENTED``/``_WITH`` kin), ``AT_ERROR``, ``STD_TORCH_CHECK``,
``TORCH_INTERNAL_ASSERT`` or ``TORCH_CHECK_EQ`` and its comparison kin; of the
kernel libraries beside the engines, flashinfer's ``FLASHINFER_CHECK`` and
``FLASHINFER_ERROR`` (:mod:`errcat.mine.cpp.kernels` says what they print),
DeepEP's ``EP_HOST_ASSERT``, ``EP_STATIC_ASSERT`` and ``EPException``, DeepGEMM's
``DG_HOST_ASSERT`` and ``DG_HOST_UNREACHABLE``, and
``throw std::runtime_error(...)``. Its
message is what torch prints: the arguments after the condition concatenated
(``c10::str``), string literals as they are, any other argument a placeholder
named by its expression; with no message, torch's default sentence around the
condition's own text. Inside a ``#define``, ``#param`` and a parameter in the
condition are placeholders too (each use of the macro fills them); a message-less
check there whose condition is placeholders only (``#define CHECK_EQ(a, b)
TORCH_CHECK((a) == (b))``) is no site: its record would claim torch's default
sentence around any caller's condition (``Expected x.dim() == 2 to be true, but got
false.``, printed by any library) for this one macro.

>>> call = 'TORCH_CHECK(x.dim() == 2, "x must be 2D, got ", x.dim());'
>>> [s.template for s in find_checks(call)]
['x must be 2D, got {x.dim()}']
>>> find_checks('#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")')[
...     0
... ].template
'{x} must be a CUDA tensor'
>>> find_checks("TORCH_CHECK(a.is_contiguous());")[0].template[:40]
'Expected a.is_contiguous() to be true, b'
>>> find_checks("#define CHECK_EQ(a, b) TORCH_CHECK((a) == (b))")
[]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from errcat.mine.cpp.kernels import KERNEL_MACROS, kernel_site, stream_message
from errcat.mine.cpp.lexer import STRING_START, blank_comments, read_string, split_arguments
from errcat.mine.cpp.templates import condition_text, message_template, name_of
from errcat.patterns import is_wordless, template_to_pattern

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
    **KERNEL_MACROS,
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

#: The sentences TORCH_CHECK and TORCH_CHECK_EQ (and kin) wrap around a call's condition
#: when it gives no message: not the call's words. (c10's internal-assert sentence is left
#: out: its record at c10/util/Exception.h is the one that sentence's pastes get.)
_BOILERPLATE = tuple(
    piece
    for sentence in (DEFAULT_CHECK, "Check failed: {a} {op} {b} ({x} vs. {y})")
    for piece in re.split(r"\{\w+\}", sentence)
    if piece.strip()
)


def boilerplate_only(template: str) -> bool:
    """Whether a template says nothing but torch's message-less check sentences around slots.

    >>> boilerplate_only(DEFAULT_CHECK.replace("{cond}", "{a} == {b}"))
    True
    >>> boilerplate_only(DEFAULT_CHECK.replace("{cond}", "{a}.is_cuda()"))
    False
    >>> boilerplate_only("CHECK_EQ({a}, {b}) failed. {a} vs {b}")
    False
    """
    text = template
    for piece in _BOILERPLATE:
        text = text.replace(piece, " ")
    return is_wordless(template_to_pattern(text))


_CALL = re.compile(
    r"(?<![\w:])(" + "|".join(sorted(map(re.escape, MACROS), key=len, reverse=True)) + r")\s*\("
)
_THROW = re.compile(r"\bthrow\s*$")
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(?:\(([^)]*)\))?", re.MULTILINE)
_SPACE = re.compile(r"\s+")


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
    #: The line of the call's closing parenthesis (0: the call's first line).
    end_line: int = 0


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
    if form.startswith("kernel:"):
        return kernel_site(form, error_class, arguments, params)
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
    cond = condition_text(condition, params)
    if form.startswith("op:"):
        if len(arguments) != 2:
            return None
        a, b = (condition_text(x, params) for x in arguments)
        values = "{" + name_of(arguments[0]) + "} vs. {" + name_of(arguments[1]) + "}"
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
    if _CALL.search(source) is None:
        return []  # most files of a kernel library call no check: skip the lexing
    text = blank_comments(source)
    defines = _defines(text)
    sites: list[CheckSite] = []
    for m in _CALL.finditer(text):
        start = m.start()
        inside = next((d for d in defines if d[0] <= start < d[1]), None)
        if inside is not None and inside[2] == m.group(1):
            continue  # the macro's own definition
        if MACROS[m.group(1)][0] == "kernel:throw" and not _THROW.search(
            text[max(0, start - 40) : start]
        ):
            continue  # a std::runtime_error made but not thrown here
        end = _close(text, m.end())
        if end < 0:
            continue
        body = text[m.end() : end].replace("\\\n", " ")
        params = inside[3] if inside is not None else frozenset()
        arguments = [stream_message(text, start, a) or a for a in split_arguments(body)]
        found = _site(m.group(1), arguments, params)
        if found is None:
            continue
        error_class, template, condition = found
        if params and boilerplate_only(template):
            continue  # the caller's text in torch's sentence: no words of this macro's own
        line = text.count("\n", 0, start) + 1
        sites.append(
            CheckSite(
                m.group(1),
                line,
                error_class,
                template,
                _SPACE.sub(" ", condition).strip(),
                inside[2] if inside is not None else "",
                text.count("\n", 0, end) + 1,
            )
        )
    return sites
