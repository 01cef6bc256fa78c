"""Further printed forms of a bare HTTP status: curl, the status line, urllib, benchmarks.

:mod:`native_catalog.http` has the Python clients users call the engines with
and uvicorn's access log. A status with no error text also reaches users as:

* curl with ``--fail`` (``-f``): ``curl: (22) The requested URL returned error:
  500`` (curl's ``lib/http.c``; releases before 7.75 printed the status line's
  rest, ``404 Not Found``);
* the status line itself, as ``curl -i`` / ``curl -v`` shows it: ``HTTP/1.1 503
  Service Unavailable`` (uvicorn writes it, with Python's phrase for the code);
* urllib (``urllib.request.urlopen``): ``HTTP Error 500: Internal Server Error``;
* the OpenAI Python client when the body is not JSON: the body is the message, and
  for an unhandled exception Starlette's body is ``Internal Server Error``
  (``openai.InternalServerError: Internal Server Error``);
* the engines' benchmark clients, which keep only the reason phrase of a failed
  first request: vllm's ``Initial test run failed - Please make sure benchmark
  arguments are correctly specified. Error: Not Found`` (``vllm bench serve``,
  ``benchmarks/benchmark_serving.py``; sglang's ``bench_serving`` printed the same
  before its 2025 rename to ``Warmup failed - ...``, which since December 2025 adds
  ``: <body>`` after the phrase).

The status line's record of each status also carries the status's phrases
(``500 Internal Server Error``, ``HTTP 500``, ``status code 500``): an issue
title or a benchmark's line that names the status in prose (``[Bug] 500
Internal Server Error when ...``) is answered with it when nothing else is.

>>> [f.name for f in FORMS]
['curl', 'status-line', 'urllib', 'openai-text', 'vllm-bench', 'sglang-bench']
>>> from native_catalog.http_advice import by_code
>>> status_phrases(by_code(503))[:3]
('503 Service Unavailable', 'Service Unavailable (503)', 'HTTP 503')
"""

from __future__ import annotations

from errcat.patterns import template_to_pattern
from native_catalog.http_advice import StatusAdvice
from native_catalog.http_form import Form, openai_class, reason_phrases

__all__ = ["FORMS", "status_phrases"]

#: Where each form's text is made, read at these commits (curl/curl lib/http.c;
#: Kludex/uvicorn 0.55.0 httptools_impl.py _get_status_line; python/cpython
#: Lib/urllib/error.py HTTPError.__str__; openai/openai-python _base_client.py
#: _make_status_error_from_response; the engines' mirrors for their benchmarks).
_CURL_SHA = "0ebd3d694ffd4752b7321003176737e49f1c87dd"
_UVICORN_SHA = "d26c85c27bb8ea66237ff43f90ca23b774a3c1ce"
_CPYTHON_SHA = "7623c39b9c6ceda0bc08bdcb871a9ad55cc09f5d"
_OPENAI_SHA = "e43b422412a9e96c9cc5192c61fffbe2d7e04836"
_VLLM_SHA = "28be48fa944d8c58aeffd1ab1b56e27828c6b268"
_SGLANG_SHA = "8905cbd42f4a27dbecad6487cd3904278756fef8"

#: What both engines' benchmark clients say before the reason phrase.
_BENCH_TAIL = "Please make sure benchmark arguments are correctly specified. Error: "


#: Statuses whose reason phrase is common English (a file "Not Found", a request
#: "Forbidden"): named in prose only with their code.
_PLAIN_PHRASES = frozenset({400, 401, 403, 404})


def status_phrases(status: StatusAdvice) -> tuple[str, ...]:
    """Words that name a status in prose: its code with its phrase, or with HTTP or status.

    Each holds the code, and every one but the code-and-phrase pair says HTTP or
    status beside it, so a number in a sentence ("sent 500 requests") is none of
    them. A phrase no other text uses (``Internal Server Error``, ``Service
    Unavailable``: what Starlette's plain body and proxies' pages say) names its
    status alone too.

    >>> from native_catalog.http_advice import by_code
    >>> "Internal Server Error" in status_phrases(by_code(500))
    True
    >>> "Not Found" in status_phrases(by_code(404))
    False
    """
    code = status.code
    phrases = reason_phrases(status)
    named = tuple(form for p in phrases for form in (f"{code} {p}", f"{p} ({code})"))
    alone = () if code in _PLAIN_PHRASES else phrases
    return (
        *named,
        f"HTTP {code}",
        f"HTTP error {code}",
        f"HTTP status {code}",
        f"status code {code}",
        f"status code: {code}",
        f"status {code}",
        *alone,
    )


def _curl(status: StatusAdvice) -> tuple[str, ...]:
    """curl's ``--fail`` line: the code alone (7.75 and later), or with the phrase (before)."""
    old = (f"The requested URL returned error: {status.code} {p}" for p in reason_phrases(status))
    return (f"The requested URL returned error: {status.code}", *old)


def _status_lines(status: StatusAdvice) -> tuple[str, ...]:
    return tuple(f"HTTP/{{http_version}} {status.code} {p}" for p in reason_phrases(status))


def _status_line_pattern(template: str) -> str:
    r"""A status line's pattern: the version as HTTP prints it (``1.1``, ``2``).

    >>> _status_line_pattern("HTTP/{http_version} 503 Service Unavailable")
    'HTTP/([\\d.]+) 503 Service Unavailable'
    """
    return template_to_pattern(template).replace("(.+?)", r"([\d.]+)", 1)


def _openai_text(status: StatusAdvice) -> tuple[str, ...]:
    """The OpenAI client's message when a 5xx body is plain text: the phrase (Starlette's body).

    A 4xx phrase alone (``Not Found``) is too common a message to stand for a status.
    502 and 504 are left out: their phrase alone ties, in the release lint, with the
    record of FastAPI's ``{'detail': 'Bad Gateway'}`` (``'Gateway Timeout'``) body read
    from inside its quotes.
    """
    return (status.phrase,) if status.code >= 500 and status.code not in (502, 504) else ()


def _vllm_bench(status: StatusAdvice) -> tuple[str, ...]:
    return tuple(f"Initial test run failed - {_BENCH_TAIL}{p}" for p in reason_phrases(status))


def _sglang_bench(status: StatusAdvice) -> tuple[str, ...]:
    return tuple(f"Warmup failed - {_BENCH_TAIL}{p}" for p in reason_phrases(status))


def _sglang_bench_pattern(template: str) -> str:
    r"""sglang's warm-up line: since December 2025 the body follows the phrase.

    Only bodies without error text of the engine's own: FastAPI's ``{"detail":
    "<phrase>"}`` (compact, as its JSONResponse renders it) or Starlette's plain
    phrase; a body with the engine's message is that message's to answer.

    >>> import regex
    >>> p = _sglang_bench_pattern(f"Warmup failed - {_BENCH_TAIL}Not Found")
    >>> bool(
    ...     regex.fullmatch(p, f'Warmup failed - {_BENCH_TAIL}Not Found: {{"detail":"Not Found"}}')
    ... )
    True
    >>> bool(regex.fullmatch(p, f'Warmup failed - {_BENCH_TAIL}Not Found: {{"message":"x"}}'))
    False
    """
    phrase = template.rsplit("Error: ", 1)[1]
    literal = template_to_pattern(phrase)
    body = rf'(?:: (?:\{{"detail":"{literal}"\}}|{literal}))?'
    return template_to_pattern(template) + body + r"\Z"


FORMS: tuple[Form, ...] = (
    Form(
        "curl",
        "curl/curl",
        "lib/http.c",
        _CURL_SHA,
        lambda code: 1,
        lambda code: "curl",
        _curl,
        "curl with --fail printed the status alone (exit code 22) and dropped the body; run"
        " it again without --fail, or with --fail-with-body, to see what the server said.",
        "https://github.com/curl/curl/blob/master/lib/http.c",
        pattern_tail=r"\Z",
    ),
    Form(
        "status-line",
        "Kludex/uvicorn",
        "uvicorn/protocols/http/httptools_impl.py",
        _UVICORN_SHA,
        lambda code: 38,
        lambda code: "uvicorn",
        _status_lines,
        "The response's status line, as curl -i or -v shows it: the body below it (a JSON"
        " object with a 'message', or FastAPI's {'detail': ...}) says what the server met.",
        "https://github.com/Kludex/uvicorn/blob/main/uvicorn/protocols/http/httptools_impl.py",
        pattern=lambda t: _status_line_pattern(t) + r"\Z",
        phrases=status_phrases,
    ),
    Form(
        "urllib",
        "python/cpython",
        "Lib/urllib/error.py",
        _CPYTHON_SHA,
        lambda code: 50,
        lambda code: "urllib.error.HTTPError",
        lambda s: tuple(f"HTTP Error {s.code}: {p}" for p in reason_phrases(s)),
        "urllib's HTTPError printed the status and its reason; the body is in the exception"
        " (e.read()).",
        "https://github.com/python/cpython/blob/main/Lib/urllib/error.py",
        pattern_tail=r"\Z",
    ),
    Form(
        "openai-text",
        "openai/openai-python",
        "src/openai/_base_client.py",
        _OPENAI_SHA,
        lambda code: 433,
        openai_class,
        _openai_text,
        "The OpenAI Python client printed the body the server sent, which was not JSON but the"
        " status's phrase: the plain answer of Starlette (under both engines' servers) to an"
        " exception no handler caught, or a proxy's.",
        "https://github.com/openai/openai-python/blob/main/src/openai/_base_client.py",
        ("openai.APIStatusError",),
        r"\Z",
    ),
    Form(
        "vllm-bench",
        "vllm-project/vllm",
        "vllm/benchmarks/serve.py",
        _VLLM_SHA,
        lambda code: 701,
        lambda code: "ValueError",
        _vllm_bench,
        "vllm's benchmark client (vllm bench serve, benchmarks/benchmark_serving.py; sglang's"
        " bench_serving before 2025 printed the same) sent one test request first and kept"
        " only the reason phrase of its failed answer: the server's log has the rest.",
        "https://github.com/vllm-project/vllm/blob/main/vllm/benchmarks/serve.py",
        pattern_tail=r"\Z",
    ),
    Form(
        "sglang-bench",
        "sgl-project/sglang",
        "python/sglang/benchmark/serving.py",
        _SGLANG_SHA,
        lambda code: 1413,
        lambda code: "ValueError",
        _sglang_bench,
        "sglang's benchmark client (python -m sglang.bench_serving) sent warm-up requests and"
        " all failed; it printed the first one's reason phrase (and, since December 2025, the"
        " body after it): the server's log has the rest.",
        "https://github.com/sgl-project/sglang/blob/main/python/sglang/benchmark/serving.py",
        pattern=_sglang_bench_pattern,
    ),
)
