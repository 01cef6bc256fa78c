r"""What the check macros of flashinfer and DeepEP print, as message templates.

flashinfer (``include/flashinfer/exception.h``) throws ``flashinfer::Error``,
whose text is ``Error in function '<func>' at <file>:<line>: <message>``:
``FLASHINFER_ERROR(message)`` with one message expression (often a
``std::ostringstream``'s ``.str()``), ``FLASHINFER_CHECK(cond, args...)`` with
its arguments streamed space-separated, or ``Check failed: <cond>`` when none.
DeepEP (``csrc/kernels/exception.cuh``) throws ``EPException``, whose text is
``Failed: <name> error <file>:<line> '<error>'``; ``EP_HOST_ASSERT(cond)``
names it ``Assertion`` with the condition's own text as the error.
``EP_STATIC_ASSERT(cond, reason)`` is a ``static_assert``: nvcc prints the
reason when DeepEP is built. ``throw std::runtime_error(message)`` prints the
message alone. The TensorRT-LLM code flashinfer ships (``csrc/nv_internal``,
``tensorrt_llm/common/assert.h``) throws ``TllmException``, whose text is
``[TensorRT-LLM][ERROR] Assertion failed: <info> (<file>:<line>)`` and a stack
trace: ``TLLM_CHECK_WITH_INFO(cond, info, args...)`` formats ``info`` as printf
does (each conversion a placeholder named by its argument), ``TLLM_CHECK(cond)``
prints the condition's own text. DeepGEMM (``csrc/utils/exception.hpp``) throws
``DGException``, whose text is ``<name> error (<file>:<line>): <error>``:
``DG_HOST_ASSERT(cond)`` names it ``Assertion`` with the condition's text,
``DG_HOST_UNREACHABLE(reason)`` with the reason (a string literal).

The function, file and line are placeholders (``{__FUNCTION__}``,
``{__FILE__}``, ``{__LINE__}``): the path is wherever the builder's tree was
(``/workspace/include/...``, ``site-packages/flashinfer/data/include/...``)
and lines move between releases; :func:`errcat.mine.cpp.records.site_pattern`
turns them into groups that take any prefix and any line. A call whose own
message has no word (``FLASHINFER_ERROR(msg)`` in a helper) is no site: its
template would say nothing but the wrapper's words.

>>> args = ["sm >= 90", '"needs SM"', "sm"]
>>> kernel_site("kernel:fi-check", "RuntimeError", args, frozenset())[1]
"Error in function '{__FUNCTION__}' at {__FILE__}:{__LINE__}: needs SM {sm}"
>>> kernel_site("kernel:ep-assert", "RuntimeError", ["n <= cap"], frozenset())[1]
"Failed: Assertion error {__FILE__}:{__LINE__} 'n <= cap'"
>>> kernel_site("kernel:dg-assert", "RuntimeError", ["mn % 4 == 0"], frozenset())[1]
'Assertion error ({__FILE__}:{__LINE__}): mn % 4 == 0'
>>> reason = ['"Unsupported architecture"']
>>> kernel_site("kernel:dg-unreachable", "RuntimeError", reason, frozenset())[1]
'Assertion error ({__FILE__}:{__LINE__}): Unsupported architecture'
>>> args = ["n <= 256", '"Only %d experts, got %d"', "256", "n"]
>>> kernel_site("kernel:tllm-info", "RuntimeError", args, frozenset())[1]
'[TensorRT-LLM][ERROR] Assertion failed: Only {256} experts, got {n} ({__FILE__}:{__LINE__})'
"""

from __future__ import annotations

import re

from errcat.mine.cpp.lexer import split_operands
from errcat.mine.cpp.templates import condition_text, literal_pieces, message_template, name_of
from errcat.patterns import is_wordless, template_to_pattern

__all__ = ["KERNEL_MACROS", "LOCATION", "kernel_site", "printf_template", "stream_message"]

#: macro -> (form, Python class), forms as :data:`errcat.mine.cpp.checks.MACROS` has them.
KERNEL_MACROS: dict[str, tuple[str, str]] = {
    "FLASHINFER_CHECK": ("kernel:fi-check", "RuntimeError"),
    "FLASHINFER_ERROR": ("kernel:fi-error", "RuntimeError"),
    "EP_HOST_ASSERT": ("kernel:ep-assert", "RuntimeError"),
    "EPException": ("kernel:ep-throw", "RuntimeError"),
    "EP_STATIC_ASSERT": ("kernel:ep-static", "nvcc"),
    "std::runtime_error": ("kernel:throw", "RuntimeError"),
    "TLLM_CHECK_WITH_INFO": ("kernel:tllm-info", "RuntimeError"),
    "TLLM_CHECK": ("kernel:tllm-check", "RuntimeError"),
    "DG_HOST_ASSERT": ("kernel:dg-assert", "RuntimeError"),
    "DG_HOST_UNREACHABLE": ("kernel:dg-unreachable", "RuntimeError"),
}

#: The placeholders of where a check sits, as the compiler fills them in.
LOCATION = ("{__FUNCTION__}", "{__FILE__}", "{__LINE__}")

_FLASHINFER = "Error in function '{__FUNCTION__}' at {__FILE__}:{__LINE__}: "
_DEEPEP = "Failed: {name} error {__FILE__}:{__LINE__} '{error}'"
_TLLM = "[TensorRT-LLM][ERROR] Assertion failed: {info} ({__FILE__}:{__LINE__})"
_DEEPGEMM = "Assertion error ({__FILE__}:{__LINE__}): "
#: One printf conversion (``%d``, ``%5.2f``, ``%zu``, ``%s``) or a literal ``%%``.
_PRINTF = re.compile(
    r"%(?:%|[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfFgGaAcsp])"
)
_STREAM_DECLARATION = r"\bstd\s*::\s*(?:o)?stringstream\s+{name}\b"
_STR_CALL = re.compile(r"^(\w+)\s*\.\s*str\s*\(\s*\)$")
_SPACE = re.compile(r"\s+")


def _own_words(message: str) -> bool:
    return bool(message) and not is_wordless(template_to_pattern(message))


def printf_template(fmt: str, arguments: list[str]) -> str:
    """``fmt`` (template text) as printf fills it: each conversion the next argument's slot.

    >>> printf_template("got %d of %5.1f%%", ["n", "x.size(0)"])
    'got {n} of {x.size(0)}%'
    """
    names = iter(arguments)

    def fill(m: re.Match[str]) -> str:
        if m.group(0) == "%%":
            return "%"
        return "{" + name_of(next(names, "value")) + "}"

    return _PRINTF.sub(fill, fmt)


def kernel_site(
    form: str, error_class: str, arguments: list[str], params: frozenset[str]
) -> tuple[str, str, str] | None:
    """(error class, template, condition) of one kernel library's call, or None."""
    if not arguments or not arguments[0]:
        return None
    if form == "kernel:fi-check":
        condition, rest = arguments[0], [a for a in arguments[1:] if a]
        message = message_template(rest, params, separator=" ") if rest else ""
        if rest and not _own_words(message):
            return None
        message = message or "Check failed: " + condition_text(condition, params)
        return error_class, _FLASHINFER + message, condition
    if form == "kernel:ep-assert":
        cond = condition_text(arguments[0], params)
        return (
            error_class,
            _DEEPEP.replace("{name}", "Assertion").replace("{error}", cond),
            arguments[0],
        )
    if form == "kernel:dg-assert":
        return error_class, _DEEPGEMM + condition_text(arguments[0], params), arguments[0]
    if form == "kernel:dg-unreachable":
        reason = literal_pieces(arguments[0], params) if len(arguments) == 1 else None
        if reason is None or not _own_words(reason):
            return None
        return error_class, _DEEPGEMM + reason, ""
    if form == "kernel:tllm-check":
        cond = condition_text(arguments[0], params)
        return error_class, _TLLM.replace("{info}", cond), arguments[0]
    if form == "kernel:tllm-info":
        info = literal_pieces(arguments[1], params) if len(arguments) > 1 else None
        if info is None:
            return None  # a message built elsewhere: nothing of this call's own to match
        message = printf_template(info, arguments[2:])
        if not _own_words(message):
            return None
        return error_class, _TLLM.replace("{info}", message), arguments[0]
    if form == "kernel:ep-static":
        reason = literal_pieces(arguments[1], params) if len(arguments) == 2 else None
        if reason is None or not _own_words(reason):
            return None
        return error_class, f'static assertion failed with "{reason}"', arguments[0]
    if form == "kernel:ep-throw":
        if len(arguments) != 4:
            return None
        name = literal_pieces(arguments[0], params)
        error = message_template([arguments[3]], params)
        if name is None or not _own_words(error):
            return None
        return error_class, _DEEPEP.replace("{name}", name).replace("{error}", error), ""
    message = message_template(arguments[:1], params)
    if len(arguments) != 1 or not _own_words(message):
        return None
    prefix = _FLASHINFER if form == "kernel:fi-error" else ""
    return error_class, prefix + message, ""


def stream_message(text: str, start: int, argument: str) -> str | None:
    r"""``argument`` as the ``<<`` chain it reads when it is a stream's ``.str()``, else None.

    The chain is every ``name << ...;`` statement between the stream's
    declaration (the last before ``start``) and ``start``, operands in order,
    as one ``+`` expression of :func:`errcat.mine.cpp.checks.message_template`.

    >>> code = 'std::ostringstream oss;\noss << "no room for " << name;\nFAIL(oss.str());'
    >>> stream_message(code, code.index("FAIL"), "oss.str()")
    '"no room for " + name'
    """
    m = _STR_CALL.match(argument.strip())
    if m is None:
        return None
    name = m.group(1)
    declarations = list(re.finditer(_STREAM_DECLARATION.format(name=name), text[:start]))
    if not declarations:
        return None
    body = text[declarations[-1].end() : start]
    operands: list[str] = []
    for statement in re.finditer(rf"(?<![\w.]){name}\s*<<(.*?);", body, re.DOTALL):
        operands += [o for o in split_operands(statement.group(1), "<<") if o]
    if not operands:
        return None
    return " + ".join(_SPACE.sub(" ", o) for o in operands)
