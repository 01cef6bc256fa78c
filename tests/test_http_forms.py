"""Every printed form of a bare HTTP status answers that status's record, whatever URL or path.

The forms are how users paste a failed request to an sglang or vllm server: the
OpenAI client, requests, aiohttp, httpx, urllib, curl, the status line, uvicorn's
access line, the engines' benchmark clients and an issue title that names the
status. A status inside a message with the server's own error text is that
message's to answer.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import context_length_envelope
from errcat.catalog import Catalog
from errcat.matcher import match_error

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from native_catalog.http_advice import STATUSES, StatusAdvice  # noqa: E402
from native_catalog.http_form import openai_class, reason_phrases, side  # noqa: E402

FILES = sorted((ROOT / "curated").glob("*.http.jsonl"))
_STATUSES = Catalog.from_path(*FILES)

#: The statuses the census asks for (issue 26's http group).
CODES = (400, 404, 413, 422, 429, 500, 502, 503, 504)
_BENCH = "Please make sure benchmark arguments are correctly specified. Error: "


def _status(code: int) -> StatusAdvice:
    return next(s for s in STATUSES if s.code == code)


#: A form: (status, url, path, phrase) -> the paste.
Render = Callable[[StatusAdvice, str, str, str], str]

FORMS: dict[str, Render] = {
    "openai": lambda s, u, p, r: f"openai.{openai_class(s.code)[7:]}: Error code: {s.code}",
    "openai-api-status": lambda s, u, p, r: f"openai.APIStatusError: Error code: {s.code}",
    "requests": lambda s, u, p, r: (
        f"requests.exceptions.HTTPError: {s.code} {side(s.code)} Error: {r} for url: {u}"
    ),
    "aiohttp": lambda s, u, p, r: (
        f"aiohttp.client_exceptions.ClientResponseError: {s.code}, message='{r}', url='{u}'"
    ),
    "aiohttp-url": lambda s, u, p, r: (
        f"aiohttp.client_exceptions.ClientResponseError: {s.code}, message='{r}', url=URL('{u}')"
    ),
    "httpx": lambda s, u, p, r: (
        f"httpx.HTTPStatusError: {side(s.code)} error '{s.code} {r}' for url '{u}'\n"
        f"For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/"
        f"Status/{s.code}"
    ),
    "urllib": lambda s, u, p, r: f"urllib.error.HTTPError: HTTP Error {s.code}: {r}",
    "curl": lambda s, u, p, r: f"curl: (22) The requested URL returned error: {s.code}",
    "curl-old": lambda s, u, p, r: f"curl: (22) The requested URL returned error: {s.code} {r}",
    "status-line": lambda s, u, p, r: f"HTTP/1.1 {s.code} {r}",
    "curl-verbose": lambda s, u, p, r: (
        f"> POST {p} HTTP/1.1\n> Host: localhost:30000\n>\n< HTTP/1.1 {s.code} {r}\n"
        "< server: uvicorn"
    ),
    "access-log": lambda s, u, p, r: f'INFO:     127.0.0.1:5000 - "POST {p} HTTP/1.1" {s.code} {r}',
    "access-log-vllm": lambda s, u, p, r: (
        f'(APIServer pid=6051) INFO:     10.0.0.2:43364 - "POST {p} HTTP/1.1" {s.code} {r}'
    ),
    "vllm-bench": lambda s, u, p, r: f"ValueError: Initial test run failed - {_BENCH}{r}",
    "sglang-bench": lambda s, u, p, r: f"ValueError: Warmup failed - {_BENCH}{r}",
    "sglang-bench-body": lambda s, u, p, r: (
        f'ValueError: Warmup failed - {_BENCH}{r}: {{"detail":"{r}"}}'
    ),
    "title": lambda s, u, p, r: f"[Bug] {s.code} {r} when calling {p} with Qwen3",
    "title-quoted": lambda s, u, p, r: (
        f'[Bug]: openapi running but "POST {p} HTTP/1.1" {s.code} {r}'
    ),
    "bench-status": lambda s, u, p, r: f"Warmup request 1/3 failed with status {s.code}",
    "status-code": lambda s, u, p, r: f"Request to {u} failed with status code {s.code}",
    "http-code": lambda s, u, p, r: f"FAILED (HTTP {s.code})",
}

_HOSTS = st.sampled_from(["localhost", "127.0.0.1", "0.0.0.0", "10.1.2.3", "my-server", "gpu01"])
_PATHS = st.one_of(
    st.sampled_from(
        ["/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/generate", "/v1/models"]
    ),
    st.from_regex(r"/[a-z][a-z0-9_]{0,8}(/[a-z][a-z0-9_]{0,8}){0,3}", fullmatch=True),
)


#: Where the request went: scheme, host, port and path.
_TARGETS = st.tuples(st.sampled_from(["http", "https"]), _HOSTS, st.integers(1, 65535), _PATHS)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CODES), st.sampled_from(sorted(FORMS)), _TARGETS, st.booleans())
def test_any_form_of_any_status_answers_that_status(
    code: int, form: str, target: tuple[str, str, int, str], new_phrase: bool
) -> None:
    scheme, host, port, path = target
    status = _status(code)
    phrases = reason_phrases(status)
    phrase = phrases[-1] if new_phrase else phrases[0]
    text = FORMS[form](status, f"{scheme}://{host}:{port}{path}", path, phrase)
    match = match_error(text, catalog=_STATUSES)
    assert match is not None, text
    assert f"errcat:native:http-{code}" in match.summary.tags, (text, match.summary.slug)


@pytest.mark.parametrize("code", [500, 503, 504])
def test_the_openai_clients_text_body_answers_its_5xx(code: int) -> None:
    # a body that is not JSON is the message: Starlette's plain answer to an exception
    status = _status(code)
    match = match_error(f"openai.InternalServerError: {status.phrase}", catalog=_STATUSES)
    assert match is not None and f"errcat:native:http-{code}" in match.summary.tags


_CONTEXT = (
    "This model's maximum context length is 4096 tokens. However, you requested 5000"
    " tokens. Please reduce the length of the messages."
)


@pytest.fixture(scope="module")
def with_message() -> Catalog:
    inner = context_length_envelope("c1c1c1c1c1c1c1c1")
    return _STATUSES.merge(Catalog([inner]))


@pytest.mark.parametrize(
    "text",
    [
        "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \""
        + _CONTEXT
        + "\", 'type': 'BadRequestError', 'param': None, 'code': 400}",
        "[Bug] 400 Bad Request: " + _CONTEXT,
        f"ValueError: Warmup failed - {_BENCH}Bad Request: "
        + '{"object":"error","message":"'
        + _CONTEXT
        + '","type":"BadRequestError","param":null,"code":400}',
        "< HTTP/1.1 400 Bad Request\n< server: uvicorn\n<\n"
        + '{"object":"error","message":"'
        + _CONTEXT
        + '","type":"BadRequestError","param":null,"code":400}',
    ],
)
def test_a_status_with_the_servers_own_error_text_is_that_texts(
    with_message: Catalog, text: str
) -> None:
    match = match_error(text, catalog=with_message)
    assert match is not None, text
    assert match.record.id == "c1c1c1c1c1c1c1c1", (text, match.summary.slug)


@pytest.mark.parametrize(
    "text",
    [
        "we sent 500 requests and 3 failed",
        "the server has 503 workers",
        "Not Found",
        "error 404",
    ],
)
def test_a_number_without_the_status_words_is_not_a_status(text: str) -> None:
    found = match_error(text, catalog=_STATUSES)
    assert found is None or not any(
        t.startswith("errcat:native:http-") for t in found.summary.tags
    ), text


def _advice(code: int, engine: str | None = None) -> str:
    """Every solution of a status's record (the access-log form), generic or one engine's."""
    record = next(r for r in _STATUSES if r.slug == f"http-{code}-access-log")
    if engine is None:
        return " ".join(record.solutions)
    variant = next(v for v in record.engine_advice or () if v.engine == engine)
    return " ".join(variant.solutions)


def test_the_advice_names_what_the_user_changes() -> None:
    # 404: the request's model field against the served name, or the path
    assert "--served-model-name" in _advice(404) and "/v1/chat/completions" in _advice(404)
    assert "model field" in _advice(404)
    # 400: the context each engine serves
    assert "--max-model-len" in _advice(400, "vllm")
    assert "--context-length" in _advice(400, "sglang")
    # 500: the log lines that hold the cause
    assert "EngineCore encountered a fatal error." in _advice(500, "vllm")
    assert "Scheduler hit an exception" in _advice(500, "sglang")
    # 502/503: still loading or crashed; the lines that say the server is ready
    for code in (502, 503):
        assert "/health" in _advice(code)
        assert "The server is fired up and ready to roll!" in _advice(code)
        assert "Application startup complete." in _advice(code)


@pytest.mark.parametrize("code", [413, 422, 429, 500, 502, 503, 504])
def test_a_title_naming_a_distinctive_phrase_alone_answers_its_status(code: int) -> None:
    # "[Bug]: Qwen2.5 VL Internal Server Error": the phrase no other text uses names it
    for phrase in reason_phrases(_status(code)):
        match = match_error(f"[Bug]: Qwen2.5 VL {phrase} with images", catalog=_STATUSES)
        assert match is not None and f"errcat:native:http-{code}" in match.summary.tags


def test_a_local_proxy_is_named_where_a_proxy_answers() -> None:
    for code in (403, 502):
        assert "NO_PROXY=localhost" in _advice(code)
