"""errcat over HTTP: a JSON API for support bots and a paste page for people.

Needs the ``server`` extra (``pip install 'errcat[server]'``: FastAPI and
uvicorn); ``import errcat`` never does. Run it with ``errcat serve`` or build
the app yourself with :func:`create_app`.

Routes:

``POST /v1/match``
    ``{"text": ..., "limit": 5}`` → the matches, best first, each with its
    confidence, captured values and advice, plus a chat-ready ``reply``
    (see :func:`errcat.advice.chat_reply`).
``GET /v1/records/{id_or_slug}``
    one record (404 when unknown).
``GET /v1/records?repo=&class=&tag=&q=&offset=&limit=``
    records, filtered and paged (``q``: words that must all occur in the
    class, message, slug or file path, in any case).
``GET /v1/version``, ``GET /healthz``
    code and data versions; liveness.
``GET /``
    the paste page: paste a traceback, see the answer.

Request and response bodies are the pydantic models of this module, so the
OpenAPI schema (``/openapi.json``, ``/docs``) is generated from them. A body
over ``max_body_bytes`` is refused with 413 before it is read (by its
``Content-Length``, and by counting the bytes of a streamed body); malformed
JSON and invalid fields get 422; a body still not received after
``body_timeout`` seconds gets 408; a match that takes longer than
``match_timeout`` seconds is answered with 503 and a ``Retry-After``. The
catalog is loaded once, its index built before the first request, and shared
read-only by every thread (and, with ``--workers``, by forked processes).

The package's modules: :mod:`~errcat.server.schema` (the bodies),
:mod:`~errcat.server.limits` (body size and time limits),
:mod:`~errcat.server.app` (:func:`create_app`) and
:mod:`~errcat.server.command` (``errcat serve``).
"""

from errcat.server.app import DEFAULT_MATCH_TIMEOUT, ServerUnavailableError, create_app
from errcat.server.command import add_arguments, main, run
from errcat.server.limits import DEFAULT_BODY_TIMEOUT, DEFAULT_MAX_BODY_BYTES
from errcat.server.schema import (
    MAX_MATCH_LIMIT,
    MAX_PAGE_SIZE,
    MAX_TEXT_CHARS,
    AdviceOut,
    ErrorOut,
    HealthOut,
    MatchOut,
    MatchRequest,
    MatchResponse,
    MessagePart,
    RecordOut,
    RecordPage,
    RecordSummary,
    VersionOut,
)

__all__ = [
    "DEFAULT_BODY_TIMEOUT",
    "DEFAULT_MATCH_TIMEOUT",
    "DEFAULT_MAX_BODY_BYTES",
    "MAX_MATCH_LIMIT",
    "MAX_PAGE_SIZE",
    "MAX_TEXT_CHARS",
    "AdviceOut",
    "ErrorOut",
    "HealthOut",
    "MatchOut",
    "MatchRequest",
    "MatchResponse",
    "MessagePart",
    "RecordOut",
    "RecordPage",
    "RecordSummary",
    "ServerUnavailableError",
    "VersionOut",
    "add_arguments",
    "create_app",
    "main",
    "run",
]
