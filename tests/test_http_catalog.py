"""The HTTP status records (curated/*.http.jsonl): up to date, valid, answering only HTTP forms."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from conftest import context_length_envelope
from errcat.catalog import Catalog
from errcat.engine import ENGINES
from errcat.lint import LintItem, lint_records
from errcat.matcher import WRAPPER_TAG, match_all, match_error
from errcat.models import validate_envelope

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import build_native  # noqa: E402
from native_catalog import http  # noqa: E402
from native_catalog.http_advice import STATUSES, by_code  # noqa: E402
from native_catalog.http_form import reason_phrases  # noqa: E402
from native_catalog.http_more import status_phrases  # noqa: E402
from native_catalog.spec import KINDS  # noqa: E402

FILES = sorted((ROOT / "curated").glob("*.http.jsonl"))

#: Flags the advice names, as the engines define them (sglang server_args.py and its
#: gateway's launch_router; vllm cli_args.py, arg_utils.py; --task is the pre-0.10 name,
#: said so where named).
KNOWN_FLAGS = {
    "sglang": {
        "--api-key",
        "--admin-api-key",
        "--served-model-name",
        "--is-embedding",
        "--log-level",
        "--log-requests",
        "--log-requests-level",
        "--context-length",
        "--chat-template",
        "--max-queued-requests",
        "--model-path",
        "--port",
        # sglang's gateway (python -m sglang_router.launch_router)
        "--worker-urls",
        "--max-payload-size",
        "--max-concurrent-requests",
        "--queue-size",
        "--queue-timeout-secs",
        "--request-timeout-secs",
    },
    "vllm": {
        "--api-key",
        "--log-error-stack",
        "--max-model-len",
        "--chat-template",
        "--runner",
        "--task",
        "--served-model-name",
        "--port",
    },
}


def test_files_are_what_the_specs_render() -> None:
    rendered = build_native.render(build_native.HTTP_SPECS, "http")
    assert sorted(rendered) == [p.name for p in FILES]
    for path in FILES:
        assert path.read_text(encoding="utf-8") == rendered[path.name]


def test_the_files_are_listed_for_the_data_build() -> None:
    sources = json.loads((ROOT / "data" / "SOURCES.json").read_text(encoding="utf-8"))
    assert {f"curated/{p.name}" for p in FILES} <= set(sources["curated"])


def test_every_record_is_a_valid_wrapper_of_one_status_kind() -> None:
    seen: dict[str, int] = {}
    for path in FILES:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            record = validate_envelope(json.loads(line), strict=True, path=str(path), line=number)
            tags = record.record.tags
            kinds = [t[len("errcat:native:") :] for t in tags if t.startswith("errcat:native:")]
            assert len(kinds) == 1 and kinds[0] in KINDS
            assert "Sources: https://" in record.record.documentation
            if kinds[0] == "hf-hub-http":  # the Hub's refusal is the error itself
                assert WRAPPER_TAG not in tags
                assert record.record.repo == "huggingface/huggingface_hub"
                continue
            assert kinds[0].startswith("http-") and WRAPPER_TAG in tags
            # the message says its status: by code, or (a benchmark's line, the OpenAI
            # client's text body) by the status's own reason phrase
            status = by_code(int(kinds[0][5:]))
            message = record.record.error_message
            assert str(status.code) in message or any(
                message.endswith(p) for p in reason_phrases(status)
            )
            seen[kinds[0]] = seen.get(kinds[0], 0) + 1
    # every status in every form (the OpenAI client's bare status and its bodies without
    # error text, requests, aiohttp, httpx, uvicorn's access log, curl, the status line,
    # urllib, the benchmark clients; the OpenAI client's text body for 5xx only)
    assert set(seen) == {s.kind for s in STATUSES}
    assert all(count >= len(http.ALL_FORMS) - 1 for count in seen.values())
    assert sum(seen.values()) == len(http.RECORDS)


def test_engine_advice_names_only_flags_the_engines_define() -> None:
    for path in FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            for entry in json.loads(line)["record"].get("engineAdvice", []):
                assert entry["engine"] in ENGINES
                text = " ".join([*entry["solutions"], entry["exampleFix"]])
                flags = set(re.findall(r"--[a-z][a-z0-9-]+", text))
                assert not flags - KNOWN_FLAGS[entry["engine"]], flags


_STATUSES = Catalog.from_path(*FILES)


@pytest.fixture(scope="module")
def statuses() -> Catalog:
    return _STATUSES


@pytest.mark.parametrize(
    ("text", "kind", "params"),
    [
        ("openai.NotFoundError: Error code: 404 - {'detail': 'Not Found'}", "http-404", {}),
        ("openai.InternalServerError: Error code: 500", "http-500", {}),
        (
            "openai.AuthenticationError: Error code: 401 - {'error': 'Unauthorized'}",
            "http-401",
            {},
        ),
        (
            "requests.exceptions.HTTPError: 500 Server Error: Internal Server Error for url:"
            " http://localhost:8000/v1/chat/completions",
            "http-500",
            {"url": "http://localhost:8000/v1/chat/completions"},
        ),
        (
            "aiohttp.client_exceptions.ClientResponseError: 503, message='Service Unavailable',"
            " url='http://localhost:30000/generate'",
            "http-503",
            {"message": "Service Unavailable"},
        ),
        (
            # cut before its URL (an issue title): the status and reason are enough
            "aiohttp.client_exceptions.ClientResponseError: 503, message='Service Unavailable'",
            "http-503",
            {},
        ),
        (
            "httpx.HTTPStatusError: Server error '504 Gateway Timeout' for url"
            " 'http://router:8001/v1/completions'\nFor more information check:"
            " https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/504",
            "http-504",
            {"url": "http://router:8001/v1/completions"},
        ),
        (
            'INFO:     127.0.0.1:51234 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request',
            "http-400",
            {"method": "POST", "path": "/v1/chat/completions"},
        ),
        (
            '(APIServer pid=6051) INFO:     10.0.0.2:43364 - "POST /v1/embeddings HTTP/1.1"'
            " 413 Content Too Large",
            "http-413",
            {"path": "/v1/embeddings"},
        ),
        (
            '[2026-05-13 11:24:14] INFO:     10.1.1.7:58648 - "POST /v1/responses HTTP/1.1"'
            " 429 Too Many Requests",
            "http-429",
            {"path": "/v1/responses"},
        ),
    ],
)
def test_every_client_form_answers_with_its_status(
    statuses: Catalog, text: str, kind: str, params: dict[str, str]
) -> None:
    match = match_error(text, catalog=statuses)
    assert match is not None, text
    assert f"errcat:native:{kind}" in match.summary.tags
    for name, value in params.items():
        assert match.params[name] == value


def _inner_catalog(statuses: Catalog) -> Catalog:
    inner = context_length_envelope("c0c0c0c0c0c0c0c0")
    return statuses.merge(Catalog([inner]))


def test_the_engines_own_message_in_the_body_answers_before_the_status(
    statuses: Catalog,
) -> None:
    text = (
        "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"This"
        " model's maximum context length is 4096 tokens. However, you requested 5000 tokens."
        " Please reduce the length of the messages.\", 'type': 'BadRequestError', 'param':"
        " None, 'code': 400}"
    )
    catalog = _inner_catalog(statuses)
    match = match_error(text, catalog=catalog)
    assert match is not None and match.record.id == "c0c0c0c0c0c0c0c0"
    # a body with a message the catalog lacks is not answered by its status: it is an
    # error errcat does not hold, whatever status carried it
    unknown = text.replace("This model's maximum context length", "The moon's maximum tide")
    assert match_error(unknown, catalog=catalog) is None
    # nor is a status cut out of its body (here quoted twice) read as a bare status
    quoted = f"RuntimeError('BadRequestError(\"{text[len('openai.BadRequestError: ') :]}\")')"
    found = match_error(quoted, catalog=catalog)
    assert found is None or found.record.id == "c0c0c0c0c0c0c0c0"


def test_a_traceback_earlier_in_the_paste_answers_before_the_client_status(
    statuses: Catalog,
) -> None:
    text = (
        "ValueError: This model's maximum context length is 4096 tokens. However, you"
        " requested 5000 tokens. Please reduce the length of the messages.\n"
        "openai.InternalServerError: Error code: 500"
    )
    match = match_error(text, catalog=_inner_catalog(statuses))
    assert match is not None and match.record.id == "c0c0c0c0c0c0c0c0"


@pytest.mark.parametrize(
    "text",
    [
        "I get a 404 when calling the API",
        "The server returned error code: 500 when I sent many requests",
        "Got 500 Server Error from the API, anyone know why?",
        "ValueError: Error code: 500",
        "the queue said 503, message='busy' again",
        "we saw 400 Bad Requests for url: http://x",
        "the benchmark sent 429 requests and 3 failed",
        "Not Found",
        "ValueError: Warmup failed - Please make sure benchmark arguments are correctly"
        ' specified. Error: Bad Request: {"object":"error","message":"bad"}',
        'INFO:     127.0.0.1:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
    ],
)
def test_prose_that_mentions_a_status_is_not_answered(statuses: Catalog, text: str) -> None:
    assert match_error(text, catalog=statuses) is None


@pytest.mark.parametrize(
    "text",
    [
        "requests.exceptions.HTTPError: 404 Client Error: Not Found for url:"
        " https://huggingface.co/api/models/org/missing-model",
        "huggingface_hub.errors.HfHubHTTPError: 401 Client Error: Unauthorized for url:"
        " https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json",
        "httpx.HTTPStatusError: Client error '403 Forbidden' for url"
        " 'https://hf-mirror.com/org/gated/resolve/main/config.json'\nFor more information"
        " check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/403",
        # the Hub's rate limit and its outages are the Hub's too, not a server still loading
        "huggingface_hub.errors.HfHubHTTPError: 429 Client Error: Too Many Requests for url:"
        " https://huggingface.co/api/models/org/model/revision/main (Request ID: Root=1-6)",
        "requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url:"
        " https://huggingface.co/api/models/Qwen/Qwen3-8B/revision/main",
        "httpx.HTTPStatusError: Server error '502 Bad Gateway' for url"
        " 'https://hf-mirror.com/org/model/resolve/main/config.json'",
    ],
)
def test_the_hubs_statuses_are_the_hubs_not_the_engines(statuses: Catalog, text: str) -> None:
    # the same words as the engine's server's statuses, at the Hub's address: a model that
    # cannot be downloaded, whose advice is a token, a licence or a repo id
    match = match_error(text, catalog=statuses)
    assert match is not None and "errcat:native:hf-hub-http" in match.summary.tags
    assert not any(t.startswith("errcat:native:http-") for t in match.summary.tags)


def test_the_records_pass_the_release_lint() -> None:
    items = [
        LintItem(validate_envelope(json.loads(line), strict=True).record, str(path), number)
        for path in FILES
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
    ]
    errors = [f for f in lint_records(items) if f.level == "error"]
    assert not errors, [str(f) for f in errors]


_WORDS = st.from_regex(r"[A-Za-z]{2,9}( [a-z]{1,9}){0,6}", fullmatch=True)

#: Every status's phrases (its code with its reason phrase, HTTP or status): prose that
#: names a status by them is answered with it (test_http_forms.py); a number alone is not.
_NAMED = re.compile(
    "|".join(
        r"(?<![\w-])" + r"\s+".join(map(re.escape, p.split())) + r"(?![\w-])"
        for s in STATUSES
        for p in status_phrases(s)
    ),
    re.IGNORECASE,
)


@given(_WORDS, st.sampled_from([s.code for s in STATUSES]), _WORDS)
def test_a_status_number_inside_prose_is_never_a_confident_answer(
    before: str, code: int, after: str
) -> None:
    text = f"{before} {code} {after}"
    assume(_NAMED.search(text) is None)
    for match in match_all(text, catalog=_STATUSES, limit=3):
        assert not match.confident, (text, match.summary.error_message)
