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

>>> MatchRequest.model_validate({"text": "ValueError: x", "replyMaxChars": 2000}).reply_max_chars
2000
>>> MatchRequest(text="ValueError: x").model_dump(by_alias=True)["replyFlavor"]
'markdown'
"""

import argparse
import asyncio
import base64
import gc
import hashlib
import importlib.resources
import os
import re
import signal
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from errcat.advice import (
    GITHUB_COMMENT_LIMIT,
    MIN_MARKDOWN_CHARS,
    Advice,
    Flavor,
    render_no_match,
)
from errcat.catalog import Catalog, bundled_data_version
from errcat.errors import ErrcatError
from errcat.matcher import Match, MatchMode, match_all
from errcat.models import SCHEMA_VERSION, ErrorRecord, format_timestamp
from errcat.patterns import parse_template

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = [
    "DEFAULT_MATCH_TIMEOUT",
    "DEFAULT_MAX_BODY_BYTES",
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
    "run",
]

#: Requests with a larger body are refused with 413.
DEFAULT_MAX_BODY_BYTES = 1 << 20
#: Seconds a match may take before the request is answered with 503.
DEFAULT_MATCH_TIMEOUT = 5.0
#: Seconds a client may take to send a request body before it gets 408.
DEFAULT_BODY_TIMEOUT = 30.0
#: Longest ``text`` accepted by ``POST /v1/match`` (characters).
MAX_TEXT_CHARS = 256 * 1024
#: Most matches one request may ask for.
MAX_MATCH_LIMIT = 50
#: Most records one page of ``GET /v1/records`` holds.
MAX_PAGE_SIZE = 500

_INSTALL_HINT = "errcat's HTTP server needs FastAPI and uvicorn: pip install 'errcat[server]'"


class ServerUnavailableError(ErrcatError, ImportError):
    """The ``server`` extra (FastAPI, uvicorn) is not installed."""


class _Body(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )


class MatchRequest(_Body):
    """The body of ``POST /v1/match``."""

    text: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_TEXT_CHARS,
            description="The pasted error: a traceback, a log excerpt or a message.",
        ),
    ]
    limit: Annotated[int, Field(ge=1, le=MAX_MATCH_LIMIT, description="Most matches to list.")] = 5
    reply_max_chars: Annotated[
        int | None,
        Field(
            ge=MIN_MARKDOWN_CHARS,
            le=GITHUB_COMMENT_LIMIT,
            description="Length limit of `reply` (2000 for Discord, 3000 for a Slack section).",
        ),
    ] = None
    reply_flavor: Annotated[
        Flavor,
        Field(description="`markdown` (GitHub, Discord, Slack markdown blocks) or `mrkdwn`."),
    ] = "markdown"


class AdviceOut(_Body):
    """What to do about a record's error (see :class:`errcat.Advice`)."""

    id: str
    slug: str
    summary: str
    repo: str
    file_path: str
    line_number: int
    source_url: str
    confidence: float | None
    exact: bool | None
    params: dict[str, str]
    documentation: str
    solutions: list[str]
    example_fix: str
    prevention_tips: list[str]
    tags: list[str]
    generated: bool = Field(
        default=False, description="The advice was generated from the source, not curated."
    )


class MessagePart(_Body):
    """A piece of the record's message: literal text, or the value captured for a placeholder."""

    text: str
    param: str | None = Field(
        default=None, description="The placeholder this text fills (null for literal text)."
    )


class MatchOut(_Body):
    """One record the text may be an instance of."""

    id: str
    slug: str
    repo: str
    error_class: str
    error_message: str
    confidence: float
    exact: bool
    mode: MatchMode
    confident: bool = Field(description="Good enough to be the answer (errcat.match_error).")
    params: dict[str, str]
    span: tuple[int, int]
    reasons: list[str]
    message_parts: list[MessagePart]
    advice: AdviceOut


class MatchResponse(_Body):
    """The answer of ``POST /v1/match``."""

    confident: bool = Field(description="True when the first match is a confident answer.")
    matches: list[MatchOut]
    reply: str = Field(description="A chat-ready reply: the first match's advice, or 'no match'.")


class RecordOut(_Body):
    """One record with the data version of the envelope it came in."""

    record: ErrorRecord
    dataset_version: str | None


class RecordSummary(_Body):
    """A record in a list."""

    id: str
    slug: str
    repo: str
    error_class: str
    error_message: str
    file_path: str
    line_number: int
    source_url: str
    tags: list[str]


class RecordPage(_Body):
    """One page of ``GET /v1/records``."""

    total: int = Field(description="Records that pass the filters, on all pages.")
    offset: int
    limit: int
    items: list[RecordSummary]


class VersionOut(_Body):
    """Code and data versions."""

    version: str = Field(description="errcat's code version.")
    data_version: str | None = Field(description="The served catalog's data version.")
    bundled_data_version: str | None
    schema_version: int
    records: int


class HealthOut(_Body):
    """Liveness."""

    status: Literal["ok"] = "ok"
    records: int


class ErrorOut(BaseModel):
    """An error response."""

    detail: str


def _advice_out(advice: Advice) -> AdviceOut:
    return AdviceOut.model_validate(advice.to_dict())


def _message_parts(record: ErrorRecord, params: dict[str, str]) -> list[MessagePart]:
    literals, fields = parse_template(record.error_message)
    parts = [MessagePart(text=literals[0])] if literals[0] else []
    for field, literal in zip(fields, literals[1:], strict=True):
        value = params.get(field.expr)
        parts.append(
            MessagePart(text=value if value is not None else f"{{{field.expr}}}", param=field.expr)
        )
        if literal:
            parts.append(MessagePart(text=literal))
    return parts


def _match_out(match: Match, text: str | None = None) -> MatchOut:
    data = match.to_dict()
    return MatchOut(
        **data,
        confident=match.confident,
        message_parts=_message_parts(match.record, dict(match.params)),
        advice=_advice_out(Advice.from_match(match, text=text)),
    )


def _answer(catalog: Catalog, request: MatchRequest) -> MatchResponse:
    """Match one request's text (runs in a worker thread)."""
    matches = match_all(request.text, catalog=catalog, limit=request.limit)
    confident = bool(matches) and matches[0].confident
    if confident:
        reply = Advice.from_match(matches[0], text=request.text).to_markdown(
            max_chars=request.reply_max_chars, flavor=request.reply_flavor
        )
    else:
        reply = render_no_match(
            matches, max_chars=request.reply_max_chars, flavor=request.reply_flavor
        )
    return MatchResponse(
        confident=confident, matches=[_match_out(m, request.text) for m in matches], reply=reply
    )


def _summary(record: ErrorRecord) -> RecordSummary:
    return RecordSummary(
        id=record.id,
        slug=record.slug,
        repo=record.repo,
        error_class=record.error_class,
        error_message=record.error_message,
        file_path=record.file_path,
        line_number=record.line_number,
        source_url=record.github_url,
        tags=list(record.tags),
    )


def _short_class(name: str) -> str:
    return name.rsplit(".", 1)[-1]


class _RecordSearch:
    """Filtering and word search over a catalog's records, prepared once."""

    def __init__(self, catalog: Catalog) -> None:
        self.records = list(catalog)
        self.haystacks = [
            f"{r.error_class}: {r.error_message} {r.slug} {r.file_path} {r.id}".lower()
            for r in self.records
        ]

    def find(
        self,
        *,
        repo: str | None,
        error_class: str | None,
        tag: str | None,
        q: str | None,
    ) -> list[ErrorRecord]:
        needles = q.lower().split() if q else []
        out = []
        for record, haystack in zip(self.records, self.haystacks, strict=True):
            if repo is not None and record.repo != repo:
                continue
            if error_class is not None and error_class not in {
                record.error_class,
                _short_class(record.error_class),
            }:
                continue
            if tag is not None and tag not in record.tags:
                continue
            if any(n not in haystack for n in needles):
                continue
            out.append(record)
        return out


def _data_version(catalog: Catalog) -> str | None:
    if catalog.data_version:
        return catalog.data_version
    versions = [v for r in catalog if (v := catalog.dataset_version(r.id)) is not None]
    return format_timestamp(max(versions)) if versions else None


def _page_html() -> tuple[str, str]:
    """The paste page and its Content-Security-Policy (inline code allowed by hash)."""
    page = importlib.resources.files("errcat").joinpath("static/index.html").read_text("utf-8")

    def hashes(tag: str) -> str:
        blocks = re.findall(rf"<{tag}>(.*?)</{tag}>", page, flags=re.DOTALL)
        return " ".join(
            "'sha256-" + base64.b64encode(hashlib.sha256(b.encode()).digest()).decode() + "'"
            for b in blocks
        )

    csp = (
        f"default-src 'none'; script-src {hashes('script')}; style-src {hashes('style')}; "
        "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    )
    return page, csp


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _BodyLimit:
    """ASGI middleware: refuse bodies over a size (413) and bodies sent too slowly (408).

    A declared ``Content-Length`` over the limit is answered before anything is
    read; a streamed body is counted as it arrives and refused as soon as it
    goes over.
    """

    def __init__(self, app: ASGIApp, max_body_bytes: int, body_timeout: float) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.body_timeout = body_timeout

    async def _refuse(self, send: Send, status: int, detail: str) -> None:
        import json

        body = json.dumps({"detail": detail}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from starlette.exceptions import HTTPException

        limit = self.max_body_bytes
        too_large = f"Request body is larger than {limit} bytes"
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await self._refuse(send, 400, "Invalid Content-Length")
                    return
                if declared > limit:
                    await self._refuse(send, 413, too_large)
                    return
        received = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_timeout

        body_done = False

        async def limited() -> Message:
            nonlocal received, body_done
            if body_done:  # e.g. waiting for a disconnect: no deadline
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                raise HTTPException(408, "Request body not received in time") from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise HTTPException(413, too_large)
                body_done = not message.get("more_body", False)
            return message

        await self.app(scope, limited, send)


def _fastapi() -> Any:
    try:
        import fastapi
    except ImportError as exc:
        raise ServerUnavailableError(_INSTALL_HINT) from exc
    return fastapi


def create_app(
    catalog: Catalog | None = None,
    *,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    match_timeout: float = DEFAULT_MATCH_TIMEOUT,
    body_timeout: float = DEFAULT_BODY_TIMEOUT,
    threads: int = 4,
) -> "FastAPI":
    """The errcat web app over ``catalog`` (the bundled one by default).

    The catalog's match index is built here, once; matching runs in a pool of
    ``threads`` worker threads and a request waits at most ``match_timeout``
    seconds for its answer (503 after that). Raises
    :class:`ServerUnavailableError` when FastAPI is not installed.
    """
    _fastapi()
    from fastapi import FastAPI, HTTPException, Query
    from fastapi.responses import HTMLResponse

    if max_body_bytes < 1:
        raise ValueError(f"max_body_bytes must be positive, got {max_body_bytes!r}")
    if match_timeout <= 0:
        raise ValueError(f"match_timeout must be positive, got {match_timeout!r}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads!r}")
    from errcat import __version__

    cat = catalog if catalog is not None else Catalog.default()
    _ = cat.index  # build it now, not during the first request
    search = _RecordSearch(cat)
    data_version = _data_version(cat)
    try:
        bundled: str | None = bundled_data_version()
    except ErrcatError:
        bundled = None
    page, csp = _page_html()
    executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="errcat-match")

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        yield
        executor.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title="errcat",
        version=__version__,
        summary="Map pasted Python errors to catalog records and their fixes.",
        lifespan=lifespan,
    )
    app.add_middleware(_BodyLimit, max_body_bytes=max_body_bytes, body_timeout=body_timeout)
    app.state.catalog = cat
    errors: dict[int | str, dict[str, Any]] = {
        413: {"model": ErrorOut, "description": "Request body too large"},
        503: {"model": ErrorOut, "description": "Matching took too long"},
    }

    @app.post("/v1/match", response_model=MatchResponse, responses=errors, tags=["match"])
    async def match(body: MatchRequest) -> MatchResponse:
        """Match a pasted error against the catalog."""
        future = asyncio.get_running_loop().run_in_executor(executor, _answer, cat, body)
        try:
            return await asyncio.wait_for(future, timeout=match_timeout)
        except asyncio.TimeoutError:
            raise HTTPException(
                503,
                f"Matching took longer than {match_timeout:g} s; try a shorter excerpt",
                headers={"Retry-After": "1"},
            ) from None

    @app.get(
        "/v1/records/{id_or_slug}",
        response_model=RecordOut,
        responses={404: {"model": ErrorOut, "description": "Unknown record"}},
        tags=["records"],
    )
    def record(id_or_slug: str) -> RecordOut:
        """One record, by id or slug."""
        found = cat.get(id_or_slug)
        if found is None:
            raise HTTPException(404, f"Unknown record: {id_or_slug!r}")
        version = cat.dataset_version(found.id)
        return RecordOut(
            record=found, dataset_version=format_timestamp(version) if version else None
        )

    @app.get("/v1/records", response_model=RecordPage, tags=["records"])
    def records(
        *,
        repo: Annotated[str | None, Query(description="owner/name")] = None,
        error_class: Annotated[
            str | None, Query(alias="class", description="exception class, full or last part")
        ] = None,
        tag: Annotated[str | None, Query()] = None,
        q: Annotated[
            str | None,
            Query(max_length=500, description="words that must all occur (any case)"),
        ] = None,
        offset: Annotated[int, Query(ge=0)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE)] = 50,
    ) -> RecordPage:
        """Records, filtered by repo, class, tag and words, a page at a time."""
        found = search.find(repo=repo, error_class=error_class, tag=tag, q=q)
        items = [_summary(r) for r in found[offset : offset + limit]]
        return RecordPage(total=len(found), offset=offset, limit=limit, items=items)

    @app.get("/v1/version", response_model=VersionOut, tags=["meta"])
    def version() -> VersionOut:
        """Code and data versions of this server."""
        return VersionOut(
            version=__version__,
            data_version=data_version,
            bundled_data_version=bundled,
            schema_version=SCHEMA_VERSION,
            records=len(cat),
        )

    @app.get("/healthz", response_model=HealthOut, tags=["meta"])
    def healthz() -> HealthOut:
        """Liveness: the catalog is loaded."""
        return HealthOut(records=len(cat))

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def paste_page() -> HTMLResponse:
        """The paste page."""
        return HTMLResponse(
            page,
            headers={
                "Content-Security-Policy": csp,
                "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
            },
        )

    return app


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``errcat serve`` (the catalog options come from the main CLI).

    >>> p = argparse.ArgumentParser(prog="errcat serve")
    >>> add_arguments(p)
    >>> args = p.parse_args(["--port", "9000"])
    >>> args.host, args.port, args.max_body_bytes, args.workers
    ('127.0.0.1', 9000, 1048576, 1)
    """
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (0: any free)")
    parser.add_argument(
        "--max-body-bytes",
        type=int,
        default=DEFAULT_MAX_BODY_BYTES,
        metavar="N",
        help="refuse request bodies larger than this with 413 (default 1 MiB)",
    )
    parser.add_argument(
        "--match-timeout",
        type=float,
        default=DEFAULT_MATCH_TIMEOUT,
        metavar="SECONDS",
        help="answer 503 when a match takes longer (default %(default)s)",
    )
    parser.add_argument(
        "--threads", type=int, default=4, help="matching threads per process (default 4)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes forked after the catalog is loaded, sharing it (POSIX; default 1)",
    )
    parser.add_argument(
        "--limit-concurrency",
        type=int,
        default=200,
        metavar="N",
        help="connections per process before new ones get 503 (default %(default)s)",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn log level",
    )


def _load_catalog(args: argparse.Namespace) -> Catalog:
    """The catalog that ``--catalog`` and ``--no-bundled`` name (load problems go to stderr)."""
    # `errcat serve` accepts the options before the command too (global_*).
    sources = [*getattr(args, "global_catalog", []), *getattr(args, "catalog", [])]
    no_bundled = getattr(args, "global_no_bundled", False) or getattr(args, "no_bundled", False)
    if no_bundled and not sources:
        raise ValueError("--no-bundled needs at least one --catalog PATH")
    catalog = Catalog.from_sources(sources, bundled=not no_bundled)
    for problem in catalog.problems:
        print(f"errcat serve: warning: skipped {problem}", file=sys.stderr)
    return catalog


def _serve_forked(config: Any, workers: int) -> int:
    """Run ``workers`` copies of the server on one socket, forked from this process."""
    import uvicorn

    family = socket.AF_INET6 if ":" in config.host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say they are TCP,
    # and without it a keep-alive client waits 40 ms (Nagle + delayed ACK) per response.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((config.host, config.port))
    sock.listen(config.backlog)
    sock.set_inheritable(True)
    print(
        f"errcat serve: {workers} workers on http://{config.host}:{sock.getsockname()[1]}",
        file=sys.stderr,
    )
    children: list[int] = []
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            try:
                uvicorn.Server(config).run(sockets=[sock])
            finally:
                os._exit(0)
        children.append(pid)

    stopping = False

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for child in children:
            with suppress(ProcessLookupError):
                os.kill(child, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    status = 0
    remaining = set(children)
    while remaining:
        try:
            pid, wait_status = os.wait()
        except ChildProcessError:
            break
        remaining.discard(pid)
        if not stopping:  # a worker died on its own: take the others down too
            code = os.waitstatus_to_exitcode(wait_status)
            print(f"errcat serve: worker {pid} exited ({code}); stopping", file=sys.stderr)
            status = 1
            stop(signal.SIGTERM, None)
    sock.close()
    return status


def run(args: argparse.Namespace) -> int:
    """Run ``errcat serve`` with parsed arguments; return the exit status (2 for bad usage)."""
    try:
        import uvicorn

        _fastapi()
    except (ImportError, ServerUnavailableError):
        print(f"errcat serve: error: {_INSTALL_HINT}", file=sys.stderr)
        return 2
    for name in ("port", "max_body_bytes", "threads", "workers", "limit_concurrency"):
        value = getattr(args, name)
        if value < (0 if name == "port" else 1):
            print(
                f"errcat serve: error: invalid --{name.replace('_', '-')} {value!r}",
                file=sys.stderr,
            )
            return 2
    if args.match_timeout <= 0:
        print(
            f"errcat serve: error: invalid --match-timeout {args.match_timeout!r}", file=sys.stderr
        )
        return 2
    if args.workers > 1 and not hasattr(os, "fork"):
        print("errcat serve: error: --workers needs a POSIX system", file=sys.stderr)
        return 2
    try:
        catalog = _load_catalog(args)
    except (ValueError, ErrcatError) as exc:
        print(f"errcat serve: error: {exc}", file=sys.stderr)
        return 2
    app = create_app(
        catalog,
        max_body_bytes=args.max_body_bytes,
        match_timeout=args.match_timeout,
        threads=args.threads,
    )
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        limit_concurrency=args.limit_concurrency,
        timeout_keep_alive=5,
    )
    # The catalog lives as long as the process: keep the collector from walking it again
    # and again (full collections over a 100k-record catalog take hundreds of ms).
    gc.collect()
    gc.freeze()
    if args.workers > 1:
        return _serve_forked(config, args.workers)
    uvicorn.Server(config).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server stand-alone (``python -m errcat.server``), with the catalog options."""
    parser = argparse.ArgumentParser(prog="python -m errcat.server", description=__doc__)
    add_arguments(parser)
    parser.add_argument("--catalog", action="append", default=[], metavar="PATH")
    parser.add_argument("--no-bundled", action="store_true")
    return run(parser.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
