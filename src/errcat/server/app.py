"""The errcat web app: the routes, the matching pool, the paste page (:func:`create_app`)."""

import base64
import hashlib
import importlib.resources
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any

from errcat.advice import (
    Advice,
    render_no_match,
)
from errcat.catalog import Catalog, bundled_data_version
from errcat.catalog_arg import CatalogArg, as_catalog
from errcat.errors import ErrcatError
from errcat.matcher import match_all
from errcat.models import SCHEMA_VERSION, format_timestamp
from errcat.search import RecordSearch
from errcat.server.limits import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_MAX_BODY_BYTES,
    BodyLimit,
    InFlightLimit,
)
from errcat.server.pool import HEAVY_CHARS, Busy, MatchPool, TimedOut
from errcat.server.schema import (
    MAX_PAGE_SIZE,
    ErrorOut,
    HealthOut,
    MatchRequest,
    MatchResponse,
    RecordOut,
    RecordPage,
    VersionOut,
    match_out,
    record_summary,
)

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = [
    "DEFAULT_MATCH_TIMEOUT",
    "INSTALL_HINT",
    "ServerUnavailableError",
    "create_app",
    "require_fastapi",
]


#: Seconds a match may take before the request is answered with 503.
DEFAULT_MATCH_TIMEOUT = 5.0


INSTALL_HINT = "errcat's HTTP server needs FastAPI and uvicorn: pip install 'errcat[server]'"


class ServerUnavailableError(ErrcatError, ImportError):
    """The ``server`` extra (FastAPI, uvicorn) is not installed."""


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
        confident=confident, matches=[match_out(m, request.text) for m in matches], reply=reply
    )


def _short_class(name: str) -> str:
    return name.rsplit(".", 1)[-1]


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


async def _invalid_request(request: Any, exc: Exception) -> Any:
    """422 for a request that does not validate, naming where and why, never echoing values.

    FastAPI's own answer echoes the input, and an input JSON cannot spell back
    (``NaN``, ``1e400``, a lone surrogate) made it a 500.
    """
    from fastapi.responses import JSONResponse

    def clean(value: object) -> str | int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        return str(value).encode("utf-8", "backslashreplace").decode("utf-8")

    errors: list[dict[str, Any]] = getattr(exc, "errors", list)()
    detail = [
        {
            "loc": [clean(part) for part in error.get("loc", ())],
            "msg": clean(error.get("msg", "")),
            "type": clean(error.get("type", "")),
        }
        for error in errors
    ]
    return JSONResponse(status_code=422, content={"detail": detail})


def require_fastapi() -> Any:
    """The ``fastapi`` module; :class:`ServerUnavailableError` when the extra is missing."""
    try:
        import fastapi
    except ImportError as exc:
        raise ServerUnavailableError(INSTALL_HINT) from exc
    return fastapi


def create_app(
    catalog: CatalogArg = None,
    *,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    match_timeout: float = DEFAULT_MATCH_TIMEOUT,
    body_timeout: float = DEFAULT_BODY_TIMEOUT,
    threads: int = 4,
    max_in_flight: int = 200,
) -> "FastAPI":
    """The errcat web app over ``catalog`` (the bundled one by default).

    The catalog's match index is built here, once; matching runs in a pool of
    ``threads`` worker threads (a lane of them for long texts, see
    :mod:`errcat.server.pool`) and a request waits at most ``match_timeout``
    seconds for its answer (503 after that, and its work stops). At most
    ``max_in_flight`` requests are answered at once (503 for more). Invalid
    requests get 422, whatever their values (``NaN``, ``1e400``, lone
    surrogates). Raises :class:`ServerUnavailableError` when FastAPI is not
    installed.
    """
    require_fastapi()
    from fastapi import FastAPI, HTTPException, Query
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import HTMLResponse

    if max_body_bytes < 1:
        raise ValueError(f"max_body_bytes must be positive, got {max_body_bytes!r}")
    if match_timeout <= 0:
        raise ValueError(f"match_timeout must be positive, got {match_timeout!r}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads!r}")
    if max_in_flight < 1:
        raise ValueError(f"max_in_flight must be at least 1, got {max_in_flight!r}")
    from errcat import __version__

    chosen = as_catalog(catalog)
    cat = chosen if chosen is not None else Catalog.default()
    _ = cat.index  # build it now, not during the first request
    search = RecordSearch(cat)  # summaries only, read on the first /v1/records
    data_version = _data_version(cat)
    try:
        bundled: str | None = bundled_data_version()
    except ErrcatError:
        bundled = None
    page, csp = _page_html()
    pool = MatchPool(threads, match_timeout)

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        yield
        pool.shutdown()

    app = FastAPI(
        title="errcat",
        version=__version__,
        summary="Map pasted Python errors to catalog records and their fixes.",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit, max_body_bytes=max_body_bytes, body_timeout=body_timeout)
    app.add_middleware(InFlightLimit, limit=max_in_flight)  # outermost: before any body is read
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.state.catalog = cat
    errors: dict[int | str, dict[str, Any]] = {
        413: {"model": ErrorOut, "description": "Request body too large"},
        503: {"model": ErrorOut, "description": "Matching took too long"},
    }

    @app.post("/v1/match", response_model=MatchResponse, responses=errors, tags=["match"])
    async def match(body: MatchRequest) -> MatchResponse:
        """Match a pasted error against the catalog."""
        try:
            return await pool.run(_answer, cat, body, cost=len(body.text))
        except Busy:
            raise HTTPException(
                503,
                "Another long text is being matched; retry in a few seconds, or send an "
                f"excerpt of at most {HEAVY_CHARS} characters",
                headers={"Retry-After": "2"},
            ) from None
        except TimedOut:
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
        words = q.split() if q else []
        found = search.find(words, repo=repo, error_class=error_class, tag=tag)
        items = [record_summary(cat[s.id]) for s in found[offset : offset + limit]]
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
