"""How a client library prints a failed request: the :class:`Form` of a status record.

:mod:`native_catalog.http` makes one record per status and form; the forms are
there (the Python clients and uvicorn's access log) and in
:mod:`native_catalog.http_more` (curl, the status line, urllib, the OpenAI
client's text body, the engines' benchmark clients). This module holds what
both need: the form itself, the reason phrases a status is printed with, the
OpenAI client's class per status, and the pattern maker of a narrow reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from errcat.patterns import GROUP, template_to_pattern
from native_catalog.http_advice import StatusAdvice

__all__ = ["Form", "client_pattern", "openai_class", "reason_phrases", "side"]


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


def side(code: int) -> str:
    """``Client`` for a 4xx, ``Server`` for a 5xx (requests and httpx say which)."""
    return "Client" if code < 500 else "Server"


#: Reason phrases Python's http.HTTPStatus renamed in 3.13: uvicorn's access log prints
#: whichever the server's Python has (a placeholder there would leave the line's end
#: unexplained, and the record unsure).
_NEW_PHRASES = {413: "Content Too Large", 422: "Unprocessable Content"}


def client_pattern(reason: str) -> Callable[[str], str]:
    r"""The pattern maker of a client form: its reason group as narrow as the library prints it.

    A reason that cannot run past its own end (no ``:`` in requests', no quote in
    httpx's and aiohttp's) keeps another message from being read as this one cut
    inside its reason.

    >>> client_pattern("([^:]+?)")("404 Client Error: {reason} for url: {url}")
    '404 Client Error: ([^:]+?) for url: (.+?)'
    """

    def pattern(template: str) -> str:
        return template_to_pattern(template).replace(GROUP, reason, 1)

    return pattern


def reason_phrases(status: StatusAdvice) -> tuple[str, ...]:
    """The reason phrases Python has printed for a status (3.13 renamed two).

    >>> from native_catalog.http_advice import by_code
    >>> reason_phrases(by_code(413)), reason_phrases(by_code(500))
    (('Request Entity Too Large', 'Content Too Large'), ('Internal Server Error',))
    """
    renamed = _NEW_PHRASES.get(status.code)
    return (status.phrase, renamed) if renamed else (status.phrase,)


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
    #: Appended to each template's pattern (``\Z``: the message ends there).
    pattern_tail: str = ""
    #: The pattern of a template, when the template's own (a lazy group per placeholder)
    #: says less than the form is known to print.
    pattern: Callable[[str], str] | None = None
    #: Words that name the status wherever they stand (an issue title, a benchmark's
    #: line), given to the form's first record of each status (errcat.matcher.phrases).
    phrases: Callable[[StatusAdvice], tuple[str, ...]] | None = None
