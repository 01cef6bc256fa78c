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
record of a traceback earlier in the paste answers first. A body that holds the
server's own error text (``Error code: 400 - {'object': 'error', 'message':
"This model's maximum context length is ..."}``) is that text's to answer: the
OpenAI client's records read only bodies without one (FastAPI's ``{'detail':
'Not Found'}``, the API key check's ``{'error': 'Unauthorized'}``), so a message
errcat lacks is not answered by its status. The repository of each record is the
library that prints the text, at the line that formats it; the advice is about
the engine's server, per engine.

>>> kinds = {s.kind for s in RECORDS}
>>> sorted(kinds)[:3], len(RECORDS) > len(kinds)
(['http-400', 'http-401', 'http-403'], True)
>>> [s.template for s in RECORDS if s.kind == "http-404"][:2]
['Error code: 404', "Error code: 404 - {{'detail': 'Not Found'}}"]
"""

from __future__ import annotations

from errcat.patterns import GROUP, template_to_pattern
from errcat.slugs import slugify
from errcat.tags import WRAPPER_TAG
from native_catalog import http_more
from native_catalog.http_advice import STATUSES, StatusAdvice
from native_catalog.http_form import Form, client_pattern, openai_class, reason_phrases, side
from native_catalog.spec import Spec

__all__ = ["ALL_FORMS", "FORMS", "RECORDS", "Form", "openai_class"]

#: What uvicorn prints in an access line's fields: the client's host:port, the method,
#: the path with its query (URL-encoded, no spaces) and the HTTP version, each one word. Fields that
#: cannot hold spaces make the line's shape, not only its few words, the evidence.
#: In the order of the template's placeholders: client, method, path, http_version.
_ACCESS_GROUPS = (r"(\S+)", r"(\w+)", r"(\S+)", r"([\w.]+)")


def _access_pattern(template: str) -> str:
    r"""The pattern of an access-log template, each field as narrow as uvicorn prints it.

    >>> _access_pattern('{client} - "{method} {path} HTTP/{http_version}" 404 Not Found')
    '(\\S+) - "(\\w+) (\\S+) HTTP/([\\w.]+)" 404 Not Found'
    """
    pattern = template_to_pattern(template)
    for group in _ACCESS_GROUPS:
        pattern = pattern.replace(GROUP, group, 1)
    return pattern


def _access_lines(status: StatusAdvice) -> tuple[str, ...]:
    r"""The access-log templates of a status: one per reason phrase Python has printed.

    >>> from native_catalog.http_advice import by_code
    >>> [t.rsplit('" ', 1)[1] for t in _access_lines(by_code(413))]
    ['413 Request Entity Too Large', '413 Content Too Large']
    """
    request = '{client} - "{method} {path} HTTP/{http_version}"'
    return tuple(f"{request} {status.code} {phrase}" for phrase in reason_phrases(status))


#: The bodies these servers send with no error text of their own (sglang's and vllm's API
#: key middleware; sglang's admin check): the engines' error objects ({'object': 'error',
#: 'message': ...}) are left to the records of their messages.
_BARE_BODIES = {401: ("{'error': 'Unauthorized'}",), 403: ("{'error': 'Forbidden'}",)}
#: ... except the engines' error object whose message is empty: the server's exception had
#: no text (a bare assert, ``raise ValueError()``), so the body names only the status's type
#: and the cause is in the server's log (vLLM's ErrorResponse; qwen3-vl#238, study set).
_EMPTY_ENGINE_BODIES = {
    code: (
        f"{{'object': 'error', 'message': '', 'type': '{kind}', 'param': None, 'code': {code}}}",
    )
    for code, kind in (
        (400, "BadRequestError"),
        (404, "NotFoundError"),
        (500, "InternalServerError"),
    )
}


def _openai_bodies(status: StatusAdvice) -> tuple[str, ...]:
    r"""The OpenAI client's message for a status whose body holds no error text.

    FastAPI's own answer (a path with no route, a bare ``HTTPException``) is
    ``{'detail': '<phrase>'}``; braces are doubled in templates.

    >>> from native_catalog.http_advice import by_code
    >>> _openai_bodies(by_code(401))
    ("Error code: 401 - {{'detail': 'Unauthorized'}}", "Error code: 401 - {{'error': 'Unauthorized'}}")
    """
    bodies = (
        *(f"{{'detail': '{phrase}'}}" for phrase in reason_phrases(status)),
        *_BARE_BODIES.get(status.code, ()),
        *_EMPTY_ENGINE_BODIES.get(status.code, ()),
    )
    return tuple(
        f"Error code: {status.code} - " + b.replace("{", "{{").replace("}", "}}") for b in bodies
    )


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
        # the whole message, never the start of a longer one: a body with the server's
        # own error text is that text's to answer, and a bare status read as its start
        # (or as a message cut there) would outrank it
        r"\Z",
    ),
    Form(
        "openai-body",
        "openai/openai-python",
        "src/openai/_base_client.py",
        _OPENAI_SHA,
        lambda code: 440,
        openai_class,
        _openai_bodies,
        "The OpenAI Python client printed the status and, after ' - ', the JSON body the server"
        " sent, which holds no error text of the server's own: the body FastAPI sends for a"
        " path without a route or a bare HTTP error, or the API key check's.",
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
        lambda s: (f"{s.code} {side(s.code)} Error: {{reason}} for url: {{url}}",),
        "requests' raise_for_status() printed the status, its reason and the URL; the body is in"
        " the exception's response.text.",
        "https://github.com/psf/requests/blob/main/src/requests/models.py",
        pattern=client_pattern("([^:]+?)"),
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
        pattern=client_pattern("([^']+?)"),
    ),
    Form(
        "httpx",
        "encode/httpx",
        "httpx/_models.py",
        _HTTPX_SHA,
        lambda code: 816,
        lambda code: "httpx.HTTPStatusError",
        lambda s: (f"{side(s.code)} error '{s.code} {{reason}}' for url '{{url}}'",),
        "httpx's raise_for_status() printed the status, the reason and the URL; the body is in"
        " the exception's response.text.",
        "https://github.com/encode/httpx/blob/master/httpx/_models.py",
        pattern=client_pattern("([^']+?)"),
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
        pattern=_access_pattern,
    ),
)


def _pattern(form: Form, template: str) -> str | None:
    """A form's own pattern for a template; None when the template's says it all."""
    if form.pattern is None and not form.pattern_tail:
        return None
    base = form.pattern(template) if form.pattern else template_to_pattern(template)
    return base + form.pattern_tail


def _slug(form: Form, status: StatusAdvice, template: str) -> str:
    """``http-404-access-log``; a form's further templates of a status get their words.

    >>> from native_catalog.http_advice import by_code
    >>> form = next(f for f in FORMS if f.name == "openai-body")
    >>> [_slug(form, by_code(401), t) for t in form.templates(by_code(401))]
    ['http-401-openai-body', 'http-401-openai-body-error-unauthorized']
    >>> form = next(f for f in FORMS if f.name == "access-log")
    >>> [_slug(form, by_code(413), t) for t in form.templates(by_code(413))]
    ['http-413-access-log', 'http-413-access-log-content-too-large']
    """
    slug = f"http-{status.code}-{form.name}"
    first = form.templates(status)[0]
    if template == first:
        return slug
    if f"{status.code} " in template:
        tail = template.rsplit(f"{status.code} ", 1)[-1]
    else:  # a benchmark's line: the code is not printed, the phrase ends it
        tail = next((p for p in reason_phrases(status) if template.endswith(p)), template)
    return slugify(f"{slug}-{tail}")


def _spec(form: Form, status: StatusAdvice, template: str) -> Spec:
    first = template == form.templates(status)[0]
    return Spec(
        kind=status.kind,
        repo=form.repo,
        path=form.path,
        line=form.line(status.code),
        sha=form.sha,
        error_class=form.error_class(status.code),
        also_classes=form.also_classes,
        template=template,
        slug=_slug(form, status, template),
        pattern=_pattern(form, template),
        documentation=f"HTTP {status.code} {status.phrase}. {status.documentation} {form.note}",
        trigger=status.trigger,
        situations=status.situations,
        solutions=status.solutions,
        example_fix=status.example_fix,
        prevention=status.prevention,
        tags=(WRAPPER_TAG, "http", f"http-status-{status.code}"),
        references=(*status.references, form.source),
        variants=status.variants,
        phrases=form.phrases(status) if form.phrases and first else (),
    )


#: Every form: the Python clients' and the access log's above, then the further
#: printed forms of :mod:`native_catalog.http_more` (curl, the status line, urllib,
#: the OpenAI client's text body, the engines' benchmark clients).
ALL_FORMS: tuple[Form, ...] = (*FORMS, *http_more.FORMS)

#: Every status record: each status in each form that prints it.
RECORDS: tuple[Spec, ...] = tuple(
    _spec(form, status, template)
    for status in STATUSES
    for form in ALL_FORMS
    for template in form.templates(status)
)
