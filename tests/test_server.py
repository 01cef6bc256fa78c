"""The HTTP API, through an in-process client (httpx over ASGI), and `errcat serve` for real."""

from __future__ import annotations

import argparse
import asyncio
import http.client
import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import AsyncIterator, Callable
from contextlib import redirect_stderr
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server extra (fastapi) is not installed")
pytest.importorskip("httpx", reason="httpx is not installed")

import httpx

from conftest import SEEDS_FILE, seed_objects
from errcat import server
from errcat.advice import markdown_length
from errcat.catalog import Catalog
from errcat.server import MAX_TEXT_CHARS, create_app

ARCHS = "['DeepseekV3ForCausalLM', 'DeepseekV4ForCausalLM', 'Qwen3MoeForCausalLM']"
SEED_MESSAGES = {
    "e06cd5f724ab16c0": (
        "DeepEP v2 MoE is not validated for 'LlamaForCausalLM'; supported architectures are "
        f"{ARCHS}. Other model workflows may require an all-reduce after A2A combine. "
        "Use --moe-a2a-backend deepep."
    ),
    "3fe9ad44079a5344": (
        "DeepEP v2 MoE is not validated as a speculative draft backend. "
        "Select another --speculative-moe-a2a-backend."
    ),
    "70e072f5fc32f001": (
        "flashinfer_cutedsl FP4 MoE only supports DeepEP low_latency dispatch (masked layout). "
        "DeepEP normal (prefill) dispatch has no CuteDSL FP4 handler. Pass --deepep-mode "
        "low_latency or auto."
    ),
}
LINES = {"e06cd5f724ab16c0": 7614, "3fe9ad44079a5344": 7632, "70e072f5fc32f001": 7677}
DRIFTED = (
    "DeepEP v2 MoE is not supported as a speculative draft backend. "
    "Pick another --speculative-moe-a2a-backend."
)


def traceback_of(record_id: str) -> str:
    site = "/usr/local/lib/python3.11/dist-packages/sglang/srt/server_args.py"
    return (
        "[2026-03-02 10:11:12 TP0] Traceback (most recent call last):\n"
        f'[2026-03-02 10:11:12 TP0]   File "{site}", line {LINES[record_id]}, in _validate\n'
        "[2026-03-02 10:11:12 TP0]     raise ValueError(\n"
        f"[2026-03-02 10:11:12 TP0] ValueError: {SEED_MESSAGES[record_id]}\n"
    )


Call = Callable[..., httpx.Response]


def caller(app: Any) -> Call:
    """A synchronous in-process client: each call runs one request through the ASGI app."""

    def call(method: str, url: str, **kwargs: Any) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                return await client.request(method, url, **kwargs)

        return asyncio.run(go())

    return call


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(Catalog.from_path(SEEDS_FILE))


@pytest.fixture(scope="module")
def api(app: Any) -> Call:
    return caller(app)


# POST /v1/match


@pytest.mark.parametrize("record_id", list(SEED_MESSAGES))
def test_match_every_seed_traceback(api: Call, record_id: str) -> None:
    r = api("POST", "/v1/match", json={"text": traceback_of(record_id)})
    assert r.status_code == 200
    body = r.json()
    assert body["confident"] is True
    best = body["matches"][0]
    assert best["id"] == record_id and best["exact"] is True and best["confident"] is True
    assert best["confidence"] > 0.9
    assert best["advice"]["solutions"] and best["advice"]["solutions"][0] in body["reply"]
    assert "".join(p["text"] for p in best["messageParts"]) == SEED_MESSAGES[record_id]
    assert best["advice"]["sourceUrl"].startswith("https://github.com/sgl-project/sglang/blob/")


def test_match_captures_values_and_marks_them(api: Call) -> None:
    r = api("POST", "/v1/match", json={"text": traceback_of("e06cd5f724ab16c0"), "limit": 2})
    best = r.json()["matches"][0]
    assert best["params"] == {
        "architecture": "'LlamaForCausalLM'",
        "sorted(validated_architectures)": ARCHS,
    }
    marked = [(p["param"], p["text"]) for p in best["messageParts"] if p["param"]]
    assert marked == list(best["params"].items())
    assert best["advice"]["params"] == best["params"]
    assert best["span"][0] >= 0 and best["span"][1] > best["span"][0]


def test_match_lists_several_in_order(api: Call) -> None:
    text = traceback_of("70e072f5fc32f001") + "\n" + traceback_of("3fe9ad44079a5344")
    matches = api("POST", "/v1/match", json={"text": text}).json()["matches"]
    assert {m["id"] for m in matches} == {"70e072f5fc32f001", "3fe9ad44079a5344"}
    # The answer comes first: the error that ended the text, whatever its confidence;
    # the other matches follow, best first.
    assert matches[0]["id"] == "3fe9ad44079a5344"
    confidences = [m["confidence"] for m in matches[1:]]
    assert confidences == sorted(confidences, reverse=True)
    one = api("POST", "/v1/match", json={"text": text, "limit": 1}).json()["matches"]
    assert [m["id"] for m in one] == [matches[0]["id"]]


def test_match_nothing_is_an_honest_empty_answer(api: Call) -> None:
    body = api("POST", "/v1/match", json={"text": "KeyError: 'nobody catalogued this'"}).json()
    assert body == {
        "confident": False,
        "matches": [],
        "reply": body["reply"],
    }
    assert body["reply"].startswith("No record in the errcat catalog matches this error.")


def test_match_drifted_message_gives_hints(api: Call) -> None:
    body = api("POST", "/v1/match", json={"text": DRIFTED}).json()
    assert body["confident"] is False
    assert body["matches"][0]["mode"] == "fuzzy" and body["matches"][0]["exact"] is False
    assert "Did you mean" in body["reply"]


@pytest.mark.parametrize(
    ("max_chars", "flavor"),
    [(100, "markdown"), (2000, "markdown"), (300, "mrkdwn"), (3000, "mrkdwn")],
)
def test_match_reply_respects_the_limit(api: Call, max_chars: int, flavor: str) -> None:
    for record_id in SEED_MESSAGES:
        body = {"text": traceback_of(record_id), "replyMaxChars": max_chars, "replyFlavor": flavor}
        reply = api("POST", "/v1/match", json=body).json()["reply"]
        assert markdown_length(reply) <= max_chars


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"text": ""},
        {"text": 42},
        {"text": "x", "limit": 0},
        {"text": "x", "limit": 51},
        {"text": "x", "limit": "many"},
        {"text": "x", "replyMaxChars": 50},
        {"text": "x", "replyFlavor": "html"},
        {"text": "x" * (MAX_TEXT_CHARS + 1)},
        [],
    ],
)
def test_match_invalid_fields_are_422(api: Call, payload: Any) -> None:
    r = api("POST", "/v1/match", json=payload)
    assert r.status_code == 422
    assert isinstance(r.json()["detail"], list)


@pytest.mark.parametrize("raw", [b"{bad json", b'{"text": "x",}', b"", b"\xff\xfe"])
def test_match_malformed_json_is_422(api: Call, raw: bytes) -> None:
    r = api("POST", "/v1/match", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 422


def test_body_over_the_limit_is_413_by_content_length(api: Call) -> None:
    big = json.dumps({"text": "x" * (1 << 20)}).encode()
    r = api("POST", "/v1/match", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.json() == {"detail": "Request body is larger than 1048576 bytes"}


def test_streamed_body_over_the_limit_is_413_before_it_is_all_read() -> None:
    app = create_app(Catalog.from_path(SEEDS_FILE), max_body_bytes=10_000)
    sent = 0

    async def chunks() -> AsyncIterator[bytes]:
        nonlocal sent
        yield b'{"text": "'
        for _ in range(100):
            sent += 1000
            yield b"x" * 1000
        yield b'"}'

    r = caller(app)(
        "POST", "/v1/match", content=chunks(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413
    assert sent < 20_000  # refused as soon as it went over, not after reading it all
    ok = caller(app)("POST", "/v1/match", json={"text": "x" * 9000})
    assert ok.status_code == 200


def test_slow_body_is_408() -> None:
    app = create_app(Catalog.from_path(SEEDS_FILE), body_timeout=0.2)

    async def slow() -> AsyncIterator[bytes]:
        yield b'{"text": '
        await asyncio.sleep(1.0)
        yield b'"x"}'

    r = caller(app)(
        "POST", "/v1/match", content=slow(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 408


def test_match_taking_too_long_is_503(monkeypatch: pytest.MonkeyPatch) -> None:
    from errcat.server import app as server_app

    real = server_app._answer
    finished = threading.Event()

    def slow(catalog: Catalog, request: server.MatchRequest) -> server.MatchResponse:
        time.sleep(1.0)
        finished.set()
        return real(catalog, request)

    monkeypatch.setattr(server_app, "_answer", slow)
    app = create_app(Catalog.from_path(SEEDS_FILE), match_timeout=0.1, threads=1)
    call = caller(app)
    r = call("POST", "/v1/match", json={"text": "ValueError: x"})
    assert not finished.is_set()  # the answer did not wait for the worker
    assert r.status_code == 503
    assert r.headers["retry-after"] == "1"
    assert "longer than 0.1 s" in r.json()["detail"]


def test_concurrent_requests_get_consistent_answers(app: Any) -> None:
    texts = [traceback_of(rid) for rid in SEED_MESSAGES] + [DRIFTED, "KeyError: 'zzz'"]
    expected = [caller(app)("POST", "/v1/match", json={"text": t}).json() for t in texts]

    async def many() -> list[tuple[int, Any]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            jobs = [
                client.post("/v1/match", json={"text": texts[n % len(texts)]}) for n in range(60)
            ]
            return [(n, r.json()) for n, r in enumerate(await asyncio.gather(*jobs))]

    for n, body in asyncio.run(many()):
        assert body == expected[n % len(texts)]


# GET /v1/records


def test_record_by_id_and_by_slug(api: Call, bundled: Catalog) -> None:
    record = bundled["3fe9ad44079a5344"]
    by_id = api("GET", "/v1/records/3fe9ad44079a5344")
    assert by_id.status_code == 200
    body = by_id.json()
    assert body["record"] == json.loads(record.model_dump_json())
    assert body["datasetVersion"] == "2026-08-28T06:17:29.519Z"
    assert api("GET", f"/v1/records/{record.slug}").json() == body


def test_unknown_record_is_404(api: Call) -> None:
    r = api("GET", "/v1/records/no-such-record")
    assert r.status_code == 404
    assert r.json() == {"detail": "Unknown record: 'no-such-record'"}


@pytest.mark.parametrize(
    ("params", "ids"),
    [
        ({}, ["e06cd5f724ab16c0", "3fe9ad44079a5344", "70e072f5fc32f001"]),
        ({"repo": "sgl-project/sglang", "class": "ValueError"}, None),
        ({"class": "builtins.ValueError"}, []),
        ({"repo": "other/repo"}, []),
        ({"tag": "speculative-decoding"}, ["3fe9ad44079a5344"]),
        ({"q": "CuteDSL fp4"}, ["70e072f5fc32f001"]),
        ({"q": "deepep v2 SPECULATIVE"}, ["3fe9ad44079a5344"]),
        ({"q": "server_args.py"}, None),
        ({"q": "nothing-like-this"}, []),
    ],
)
def test_records_filter(api: Call, bundled: Catalog, params: dict[str, str], ids: Any) -> None:
    body = api("GET", "/v1/records", params=params).json()
    got = [item["id"] for item in body["items"]]
    if ids is None:
        ids = [r.id for r in bundled]
    assert got == ids and body["total"] == len(ids)
    if "q" not in params:
        same = bundled.filter(
            repo=params.get("repo"), error_class=params.get("class"), tag=params.get("tag")
        )
        assert got == [r.id for r in same]


def test_records_paging(api: Call, bundled: Catalog) -> None:
    all_ids = [r.id for r in bundled]
    pages = [api("GET", "/v1/records", params={"offset": o, "limit": 2}).json() for o in (0, 2, 4)]
    assert [p["total"] for p in pages] == [3, 3, 3]
    assert [[i["id"] for i in p["items"]] for p in pages] == [all_ids[:2], all_ids[2:], []]
    first = pages[0]["items"][0]
    assert set(first) == {
        "id",
        "slug",
        "repo",
        "errorClass",
        "errorMessage",
        "filePath",
        "lineNumber",
        "sourceUrl",
        "tags",
    }


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 501}, {"offset": -1}, {"limit": "x"}])
def test_records_bad_paging_is_422(api: Call, params: dict[str, Any]) -> None:
    assert api("GET", "/v1/records", params=params).status_code == 422


# meta routes, page, schema


def test_version_and_health(api: Call) -> None:
    import errcat

    version = api("GET", "/v1/version").json()
    assert version == {
        "version": errcat.__version__,
        "dataVersion": max(o["datasetVersion"] for o in seed_objects()),  # the seeds' own
        "bundledDataVersion": errcat.DATA_VERSION,
        "schemaVersion": 2,
        "records": 3,
    }
    assert api("GET", "/healthz").json() == {"status": "ok", "records": 3}


def test_other_catalog_reports_its_own_data_version(example_data: dict[str, Any]) -> None:
    from errcat.models import RecordEnvelope

    app = create_app(Catalog([RecordEnvelope.model_validate(example_data)]))
    version = caller(app)("GET", "/v1/version").json()
    assert version["dataVersion"] == "2026-08-28T06:17:29.519Z" and version["records"] == 1


def test_paste_page_has_no_external_assets(api: Call) -> None:
    r = api("GET", "/")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'sha256-" in csp
    page = r.text
    assert "<textarea" in page and "v1/match" in page
    for external in ("<script src", "<link", "@import", "url(", "http://", "https://"):
        assert external not in page
    assert "innerHTML" not in page


def test_openapi_comes_from_the_models(api: Call) -> None:
    schema = api("GET", "/openapi.json").json()
    assert set(schema["paths"]) == {
        "/v1/match",
        "/v1/records/{id_or_slug}",
        "/v1/records",
        "/v1/version",
        "/healthz",
    }
    components = schema["components"]["schemas"]
    for name in (
        "MatchRequest",
        "MatchResponse",
        "MatchOut",
        "AdviceOut",
        "RecordPage",
        "RecordOut",
        "VersionOut",
        "HealthOut",
        "ErrorRecord",
    ):
        assert name in components
    assert set(components["MatchRequest"]["properties"]) == {
        "text",
        "limit",
        "replyMaxChars",
        "replyFlavor",
    }
    responses = schema["paths"]["/v1/match"]["post"]["responses"]
    assert {"200", "413", "422", "503"} <= set(responses)


def test_unknown_route_and_method(api: Call) -> None:
    assert api("GET", "/v1/nothing").status_code == 404
    assert api("GET", "/v1/match").status_code == 405


# without the extra, and the command


def test_missing_extra_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fastapi", None)
    with pytest.raises(server.ServerUnavailableError, match=r"pip install 'errcat\[server\]'"):
        create_app(Catalog.from_path(SEEDS_FILE))
    err = io.StringIO()
    args = _args([])
    with redirect_stderr(err):
        assert server.run(args) == 2
    assert "pip install 'errcat[server]'" in err.getvalue()


def _args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    server.add_arguments(parser)
    parser.add_argument("--catalog", action="append", default=[])
    parser.add_argument("--no-bundled", action="store_true")
    return parser.parse_args(argv)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--no-bundled"], "--no-bundled needs at least one --catalog PATH"),
        (["--catalog", "/no/such/catalog.jsonl"], "/no/such/catalog.jsonl"),
        (["--port", "-1"], "invalid --port"),
        (["--workers", "0"], "invalid --workers"),
        (["--match-timeout", "0"], "invalid --match-timeout"),
    ],
)
def test_serve_bad_usage_is_exit_2(argv: list[str], message: str) -> None:
    err = io.StringIO()
    with redirect_stderr(err):
        assert server.run(_args(argv)) == 2
    assert message in err.getvalue()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_for_real_with_two_workers(tmp_path: Any) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "errcat.server",
            "--no-bundled",
            "--catalog",
            str(SEEDS_FILE),
            "--port",
            str(port),
            "--workers",
            "2",
            "--log-level",
            "warning",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=2) as r:
                    assert json.loads(r.read()) == {"status": "ok", "records": 3}
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.1)
        data = json.dumps({"text": traceback_of("3fe9ad44079a5344")}).encode()
        for _ in range(6):  # new connections, spread over both workers
            req = urllib.request.Request(
                f"{base}/v1/match", data=data, headers={"content-type": "application/json"}
            )
            with urllib.request.urlopen(req, timeout=10) as r:
                assert json.loads(r.read())["matches"][0]["id"] == "3fe9ad44079a5344"
        # One keep-alive connection answers request after request (the socket's TCP_NODELAY
        # is checked in listening_socket's doctest; its speed is bench_server.py's to measure).
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for _ in range(20):
            connection.request(
                "POST", "/v1/match", body=data, headers={"content-type": "application/json"}
            )
            response = connection.getresponse()
            assert response.status == 200
            assert json.loads(response.read())["matches"][0]["id"] == "3fe9ad44079a5344"
        connection.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            _, stderr = proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise
    assert proc.returncode == 0, stderr.decode()
    assert b"2 workers on" in stderr


def test_invalid_content_length_is_400(app: Any) -> None:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/match",
        "raw_path": b"/v1/match",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"content-length", b"lots")],
        "server": ("test", 80),
        "client": ("test", 1234),
    }
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 400
    assert json.loads(sent[1]["body"]) == {"detail": "Invalid Content-Length"}


def test_importing_the_server_module_needs_no_fastapi() -> None:
    code = "import sys, errcat, errcat.server; assert 'fastapi' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# -- what clients can throw at the server (issue 28) -------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        b'{"text": "ValueError: x", "limit": 1e400}',
        b'{"text": "ValueError: x", "limit": NaN}',
        b'{"text": "ValueError: x", "limit": -Infinity}',
        b'{"text": "\\ud800 ValueError: x"}',
        b'{"text": "ValueError: x", "replyMaxChars": 1e400}',
    ],
)
def test_values_json_cannot_spell_back_are_422(api: Call, body: bytes) -> None:
    """Case 16: limit 1e400, NaN and a lone surrogate got HTTP 500 instead of 422."""
    r = api("POST", "/v1/match", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert r.json()["detail"] and all("loc" in e and "msg" in e for e in r.json()["detail"])


def test_long_texts_cannot_crowd_out_ordinary_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Case 15: a few ~250k-character requests filled every match worker (ordinary ones got
    503), and their work went on after their 503."""
    import threading

    from errcat.server import app as server_app
    from errcat.server.pool import HEAVY_CHARS

    real = server_app._answer
    release = threading.Event()
    stopped = threading.Event()

    def costly(catalog: Catalog, request: server.MatchRequest) -> server.MatchResponse:
        if len(request.text) > HEAVY_CHARS:
            try:
                while not release.is_set():  # seconds of matching, in Python
                    sum(range(100))
            finally:
                stopped.set()
        return real(catalog, request)

    monkeypatch.setattr(server_app, "_answer", costly)
    app = create_app(Catalog.from_path(SEEDS_FILE), threads=2, match_timeout=1.0)
    long_text = "ValueError: " + "x " * HEAVY_CHARS

    async def both() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            heavy = [client.post("/v1/match", json={"text": long_text}) for _ in range(2)]
            light = [client.post("/v1/match", json={"text": "ValueError: x"}) for _ in range(3)]
            answers = await asyncio.gather(*heavy, *light)
        return [r.status_code for r in answers]

    try:
        codes = asyncio.run(both())
        assert codes[2:] == [200, 200, 200]  # ordinary requests are answered meanwhile
        assert sorted(codes[:2]) == [503, 503]  # one busy at once, one out of time
        assert stopped.wait(10)  # the abandoned work was stopped, not left to run
    finally:
        release.set()


def _serve(*extra: str) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "errcat.server", "--no-bundled", "--catalog", str(SEEDS_FILE)),
            *("--port", str(port), "--log-level", "warning", *extra),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return proc, port
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise
            time.sleep(0.1)


def test_connections_that_never_send_their_headers_do_not_block_others() -> None:
    """Case 14: 200 connections that never finished their headers made the server answer
    503 to everyone for as long as they stayed open."""
    proc, port = _serve("--limit-concurrency", "20", "--header-timeout", "1")
    held: list[socket.socket] = []
    try:
        for _ in range(40):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"POST /v1/match HTTP/1.1\r\nHost: x\r\n")  # and never the rest
            held.append(s)
        body = json.dumps({"text": traceback_of("3fe9ad44079a5344")}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/match",
            data=body,
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as r:
            assert r.status == 200
        held[0].settimeout(30)
        assert held[0].recv(1) == b""  # closed by the server: its headers never came
    finally:
        for s in held:
            s.close()
        proc.terminate()
        proc.wait(10)


def test_a_body_over_the_limit_gets_its_413_while_still_being_sent() -> None:
    """Case 17: a 2 MiB body reached a client as a broken pipe instead of the 413."""
    proc, port = _serve()
    body = b'{"text": "' + b"x" * (2 << 20) + b'"}'
    head = (
        b"POST /v1/match HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    )
    try:
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(head)
                for at in range(0, len(body), 1 << 16):  # slowly: the 413 comes meanwhile
                    s.sendall(body[at : at + (1 << 16)])
                    time.sleep(0.005)
                assert s.recv(64).startswith(b"HTTP/1.1 413 ")
    finally:
        proc.terminate()
        proc.wait(10)
