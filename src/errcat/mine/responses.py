"""HTTP error bodies a server builds and returns: ``create_error_response("...")``.

The OpenAI-compatible servers of vllm and sglang answer a bad request without
raising: a handler returns ``self.create_error_response(message, err_type,
status_code)`` (or builds ``ErrorResponse(message=..., type=..., code=...)``
itself), and the client prints the body it got, ``Error code: 400 - {'object':
'error', 'message': '"auto" tool choice requires --enable-auto-tool-choice and
--tool-call-parser to be set', 'type': 'BadRequestError', ...}``. Such a call is
a site like a ``raise``: its line, its guard and its message are known, its class
is the body's ``type`` and it carries the HTTP status the body's ``code`` shows.

Recognised by the callee's name, as :mod:`errcat.mine.logged` recognises a
logger: a function or method named ``create_error_response`` (a leading
underscore allowed), whose message is its ``message`` keyword or first argument,
its type the ``err_type`` keyword or second argument (``BadRequestError`` when
not given, both engines' default) and its status the ``status_code`` keyword or
third argument (400 when not given); or a model named ``ErrorResponse`` or
``ErrorInfo`` built with a ``message`` keyword, its ``type`` and ``code`` keywords.

>>> def call(code):
...     return ast.parse(code).body[0].value
>>> found = response_call(call('self.create_error_response("Client disconnected")'))
>>> ast.unparse(found.message), found.error_type, found.status
("'Client disconnected'", 'BadRequestError', 400)
>>> made = response_call(call("ErrorResponse(message=f'{m} gone', type='NotFoundError', code=404)"))
>>> made.error_type, made.status
('NotFoundError', 404)
>>> response_call(call("make_response('ok')")) is None
True
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from http import HTTPStatus
from typing import Final

__all__ = ["UNKNOWN_TYPE", "Response", "response_call", "response_calls", "says_enough"]

#: The callee names that build an error body from a message (``_create_error_response``).
_BUILDERS: Final = frozenset({"create_error_response"})
#: The models whose ``message`` keyword is an error body's message.
_MODELS: Final = frozenset({"ErrorResponse", "ErrorInfo"})
#: A builder's type and status when its call does not give them (vllm's and sglang's default).
DEFAULT_TYPE: Final = "BadRequestError"
DEFAULT_STATUS: Final = 400
#: The class of a body whose type the code computes (``err_type=str(e.status_code)``).
UNKNOWN_TYPE: Final = "ErrorResponse"
#: A status written as a constant name: ``HTTP_404_NOT_FOUND`` (starlette, fastapi).
_STATUS_NAME: Final = re.compile(r"HTTP_([1-5]\d\d)(?:_|$)")
#: The fewest words of its own a body's message needs to be a record.
MIN_WORDS: Final = 3
#: A word of a message's literal text (a placeholder's name is not one).
_WORD: Final = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*")
#: A placeholder of a template.
_PLACEHOLDER: Final = re.compile(r"\{[^{}]*\}")
#: The positional places of a builder's arguments (after the message).
_TYPE_AT: Final = 1
_STATUS_AT: Final = 2


@dataclass(frozen=True, slots=True)
class _Signature:
    """Where a call that builds a body passes its message, type and status, and their defaults."""

    message_at: int | None
    type_field: str
    type_at: int | None
    type_default: str
    status_field: str
    status_at: int | None
    status_default: int | None


#: ``create_error_response(message, err_type="BadRequestError", status_code=400)``.
_BUILDER: Final = _Signature(
    0, "err_type", _TYPE_AT, DEFAULT_TYPE, "status_code", _STATUS_AT, DEFAULT_STATUS
)
#: ``ErrorResponse(message=..., type=..., code=...)``: keywords only, nothing by default.
_MODEL: Final = _Signature(None, "type", None, UNKNOWN_TYPE, "code", None, None)


@dataclass(frozen=True, slots=True)
class Response:
    """An error body a call builds: its message expression, its type and HTTP status."""

    message: ast.expr
    error_type: str
    #: None when the code computes it (``status_code=e.status_code``).
    status: int | None


def _callee(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _argument(call: ast.Call, keyword: str, at: int | None) -> ast.expr | None:
    """The call's ``keyword`` argument, else its positional argument at ``at``."""
    for item in call.keywords:
        if item.arg == keyword:
            return item.value
    if at is not None and at < len(call.args):
        return call.args[at]
    return None


def _status(node: ast.expr | None, default: int | None) -> int | None:
    """The HTTP status an argument names, ``default`` when absent, None when computed.

    >>> written = ("404", "HTTPStatus.NOT_FOUND", "HTTPStatus.BAD_REQUEST.value")
    >>> [_status(ast.parse(s).body[0].value, None) for s in written]
    [404, 404, 400]
    >>> written = ("status.HTTP_422_UNPROCESSABLE_ENTITY", "e.code", "99")
    >>> [_status(ast.parse(s).body[0].value, None) for s in written]
    [422, None, None]
    """
    if node is None:
        return default
    if isinstance(node, ast.Attribute) and node.attr == "value":
        node = node.value
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value if 100 <= node.value <= 599 else None
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    if (written := _STATUS_NAME.match(name)) is not None:
        return int(written.group(1))
    if isinstance(node, ast.Attribute) and _callee(node.value) == "HTTPStatus":
        member = HTTPStatus.__members__.get(node.attr)
        return member.value if member is not None else None
    return None


def _type(node: ast.expr | None, default: str) -> str:
    """The body's type an argument names: a string literal, else :data:`UNKNOWN_TYPE`.

    >>> _type(ast.parse("'NotFoundError'").body[0].value, DEFAULT_TYPE)
    'NotFoundError'
    >>> _type(None, DEFAULT_TYPE), _type(ast.parse("str(e)").body[0].value, DEFAULT_TYPE)
    ('BadRequestError', 'ErrorResponse')
    """
    if node is None:
        return default
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip():
        return node.value.strip()
    return UNKNOWN_TYPE


def response_call(call: ast.Call) -> Response | None:
    """The error body a call builds, or None when it builds none (by the callee's name).

    A call with starred arguments is not read: what it passes is not known.

    >>> code = "create_error_response(message='bad', err_type='X', status_code=HTTPStatus.CONFLICT)"
    >>> response_call(ast.parse(code).body[0].value).status
    409
    >>> response_call(ast.parse("ErrorResponse(type='X')").body[0].value) is None
    True
    """
    name = _callee(call.func)
    if name is None or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    signature = _BUILDER if name.lstrip("_") in _BUILDERS else _MODEL if name in _MODELS else None
    if signature is None:
        return None
    message = _argument(call, "message", signature.message_at)
    if message is None:
        return None
    return Response(
        message,
        _type(_argument(call, signature.type_field, signature.type_at), signature.type_default),
        _status(
            _argument(call, signature.status_field, signature.status_at), signature.status_default
        ),
    )


def response_calls(value: ast.expr) -> list[tuple[ast.Call, Response]]:
    """Each call in an expression that builds an error body, outermost first.

    A builder's own arguments are not searched again (``create_error_response(
    ErrorResponse(...))`` is one body), nor are nested functions (a ``lambda``).

    >>> code = "JSONResponse(content=ErrorResponse(message='zq gone', code=410).model_dump())"
    >>> value = ast.parse(code).body[0].value
    >>> [(found.error_type, found.status) for _, found in response_calls(value)]
    [('ErrorResponse', 410)]
    """
    found: list[tuple[ast.Call, Response]] = []
    todo: list[ast.AST] = [value]
    while todo:
        node = todo.pop(0)
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Call) and (response := response_call(node)) is not None:
            found.append((node, response))
            continue
        todo.extend(ast.iter_child_nodes(node))
    return found


def says_enough(template: str) -> bool:
    """Whether a body's message holds :data:`MIN_WORDS` words of its own, placeholders aside.

    A server answers many requests with a word or two (``Unknown error``, ``Client
    disconnected``): text that a longer error line holds (``CUDA error: unknown
    error``), whose record would answer it in the place of that line's own.

    >>> says_enough("Unknown error"), says_enough("Unknown error: {e}")
    (False, False)
    >>> says_enough("The model `{model_name}` does not exist.")
    True
    """
    return len(_WORD.findall(_PLACEHOLDER.sub(" ", template))) >= MIN_WORDS
