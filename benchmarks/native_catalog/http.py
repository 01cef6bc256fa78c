"""HTTP statuses from the engines' OpenAI-compatible servers, as the clients and the access log print them.

A failed request reaches a user as the client library's exception or as the
server's access-log line, often with no error text at all:

* the OpenAI Python client: ``openai.NotFoundError: Error code: 404 - {'detail':
  'Not Found'}`` (``Error code: 500`` alone when the body was empty);
* requests: ``500 Server Error: Internal Server Error for url: http://...``;
* aiohttp: ``503, message='Service Unavailable', url='http://...'``;
* httpx: ``Server error '500 Internal Server Error' for url '...'``;
* uvicorn's access log (both engines serve with it): ``127.0.0.1:51234 - "POST
  /v1/chat/completions HTTP/1.1" 400 Bad Request``.

Each status of :data:`native_catalog.http_advice.STATUSES` gets one record per
form, tagged ``errcat:native:http-<status>``. Every record is also a wrapper
(``errcat:wrapper``): the status only reports an error the server met, so a
record of the body's own message (``Error code: 400 - {'object': 'error',
'message': "This model's maximum context length is ..."}``), or of a traceback
earlier in the paste, answers first. The repository of each record is the
library that prints the text, at the line that formats it; the advice is about
the engine's server, per engine.

>>> kinds = {s.kind for s in RECORDS}
>>> sorted(kinds)[:3], len(RECORDS) > len(kinds)
(['http-400', 'http-401', 'http-403'], True)
>>> [s.template for s in RECORDS if s.kind == "http-404"][:2]
['Error code: 404', 'Error code: 404 - {body}']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from errcat.tags import WRAPPER_TAG
from native_catalog.http_advice import STATUSES, StatusAdvice
from native_catalog.spec import Spec

__all__ = ["FORMS", "RECORDS", "Form", "openai_class"]

#: The OpenAI Python client's exception class per status (``_make_status_error``);
#: every other 5xx is ``InternalServerError``, every other status ``APIStatusError``.
_OPENAI_CLASSES = {
    400: "BadRequestError",
    401: "AuthenticationError",
    403: "PermissionDeniedError",
    404: "NotFoundError",
    409: "ConflictError",
    422: "UnprocessableEntityError",
    429: "RateLimitError",
}


def openai_class(code: int) -> str:
    """The class the OpenAI Python client raises for a status.

    >>> openai_class(404), openai_class(503), openai_class(418)
    ('openai.NotFoundError', 'openai.InternalServerError', 'openai.APIStatusError')
    """
    if code in _OPENAI_CLASSES:
        return "openai." + _OPENAI_CLASSES[code]
    return "openai.InternalServerError" if code >= 500 else "openai.APIStatusError"


def _side(code: int) -> str:
    """``Client`` for a 4xx, ``Server`` for a 5xx (requests and httpx say which)."""
    return "Client" if code < 500 else "Server"


#: Reason phrases Python's http.HTTPStatus renamed in 3.13: uvicorn's access log prints
#: whichever the server's Python has (a placeholder there would leave the line's end
#: unexplained, and the record unsure).
_NEW_PHRASES = {413: "Content Too Large", 422: "Unprocessable Content"}


def _access_lines(status: StatusAdvice) -> tuple[str, ...]:
    r"""The access-log templates of a status: one per reason phrase Python has printed.

    >>> from native_catalog.http_advice import by_code
    >>> [t.rsplit('" ', 1)[1] for t in _access_lines(by_code(413))]
    ['413 Request Entity Too Large', '413 Content Too Large']
    """
    request = '{client} - "{method} {path} HTTP/{http_version}"'
    phrases = (status.phrase, *([_NEW_PHRASES[status.code]] if status.code in _NEW_PHRASES else []))
    return tuple(f"{request} {status.code} {phrase}" for phrase in phrases)


@dataclass(frozen=True)
class Form:
    """How one library prints a failed request: where, as which class, in which words."""

    name: str
    repo: str
    path: str
    sha: str
    #: The line that formats the message (4xx and 5xx may differ).
    line: Callable[[int], int]
    error_class: Callable[[int], str]
    #: The message templates of a status (most forms have one).
    templates: Callable[[StatusAdvice], tuple[str, ...]]
    note: str
    source: str
    also_classes: tuple[str, ...] = ()


_OPENAI_SHA = "e43b422412a9e96c9cc5192c61fffbe2d7e04836"
_REQUESTS_SHA = "1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e"
_AIOHTTP_SHA = "495e778360d1924da63e16dba0f0d76baf56a56a"
_HTTPX_SHA = "ae1b9f66238f75ced3ced5e4485408435de10768"
_UVICORN_SHA = "d26c85c27bb8ea66237ff43f90ca23b774a3c1ce"

FORMS: tuple[Form, ...] = (
    Form(
        "openai",
        "openai/openai-python",
        "src/openai/_base_client.py",
        _OPENAI_SHA,
        lambda code: 433,
        openai_class,
        lambda s: (f"Error code: {s.code}",),
        "The OpenAI Python client printed the status alone: the response had no body it could"
        " read.",
        "https://github.com/openai/openai-python/blob/main/src/openai/_base_client.py",
        ("openai.APIStatusError",),
    ),
    Form(
        "openai-body",
        "openai/openai-python",
        "src/openai/_base_client.py",
        _OPENAI_SHA,
        lambda code: 440,
        openai_class,
        lambda s: (f"Error code: {s.code} - {{body}}",),
        "The OpenAI Python client printed the status and, after ' - ', the JSON body the server"
        " sent: a 'message' or 'detail' there is the server's own account.",
        "https://github.com/openai/openai-python/blob/main/src/openai/_base_client.py",
        ("openai.APIStatusError",),
    ),
    Form(
        "requests",
        "psf/requests",
        "src/requests/models.py",
        _REQUESTS_SHA,
        lambda code: 1162 if code < 500 else 1167,
        lambda code: "requests.exceptions.HTTPError",
        lambda s: (f"{s.code} {_side(s.code)} Error: {{reason}} for url: {{url}}",),
        "requests' raise_for_status() printed the status, its reason and the URL; the body is in"
        " the exception's response.text.",
        "https://github.com/psf/requests/blob/main/src/requests/models.py",
    ),
    Form(
        "aiohttp",
        "aio-libs/aiohttp",
        "aiohttp/client_exceptions.py",
        _AIOHTTP_SHA,
        lambda code: 90,
        lambda code: "aiohttp.client_exceptions.ClientResponseError",
        lambda s: (f"{s.code}, message='{{message}}', url='{{url}}'",),
        "aiohttp's raise_for_status printed the status, the reason and the URL; the body is"
        " not in the exception.",
        "https://github.com/aio-libs/aiohttp/blob/master/aiohttp/client_exceptions.py",
    ),
    Form(
        "httpx",
        "encode/httpx",
        "httpx/_models.py",
        _HTTPX_SHA,
        lambda code: 816,
        lambda code: "httpx.HTTPStatusError",
        lambda s: (f"{_side(s.code)} error '{s.code} {{reason}}' for url '{{url}}'",),
        "httpx's raise_for_status() printed the status, the reason and the URL; the body is in"
        " the exception's response.text.",
        "https://github.com/encode/httpx/blob/master/httpx/_models.py",
    ),
    Form(
        "access-log",
        "Kludex/uvicorn",
        "uvicorn/protocols/http/httptools_impl.py",
        _UVICORN_SHA,
        lambda code: 486,
        lambda code: "uvicorn.access",
        _access_lines,
        "uvicorn's access log line for the request, as both engines' servers print it after the"
        " response: the request's method, path and the status.",
        "https://github.com/Kludex/uvicorn/blob/main/uvicorn/protocols/http/httptools_impl.py",
    ),
)


def _spec(form: Form, status: StatusAdvice, template: str) -> Spec:
    return Spec(
        kind=status.kind,
        repo=form.repo,
        path=form.path,
        line=form.line(status.code),
        sha=form.sha,
        error_class=form.error_class(status.code),
        also_classes=form.also_classes,
        template=template,
        documentation=f"HTTP {status.code} {status.phrase}. {status.documentation} {form.note}",
        trigger=status.trigger,
        situations=status.situations,
        solutions=status.solutions,
        example_fix=status.example_fix,
        prevention=status.prevention,
        tags=(WRAPPER_TAG, "http", f"http-status-{status.code}"),
        references=(*status.references, form.source),
        variants=status.variants,
    )


#: Every status record: each status in each client form.
RECORDS: tuple[Spec, ...] = tuple(
    _spec(form, status, template)
    for status in STATUSES
    for form in FORMS
    for template in form.templates(status)
)
