"""``errcat mcp``: a real MCP client session (the SDK's client) against the server as a subprocess.

The server is started the way an assistant starts it (``errcat mcp`` over stdio,
and ``--transport http`` for streamable HTTP) on the curated seed records; the
client lists the tools, calls each, reads a record resource, and checks that bad
calls get tool errors while the server keeps answering. The tools' logic is also
tested directly (:class:`errcat.mcp.tools.Tools`), which needs no SDK.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SEEDS_FILE
from errcat.catalog import Catalog
from errcat.errors import UnknownRecordError
from errcat.mcp.tools import ToolInputError, Tools

SEED_TEXT = (
    "[2026-03-02 10:11:12 TP0] ValueError: DeepEP v2 MoE is not validated as a speculative "
    "draft backend. Select another --speculative-moe-a2a-backend."
)
SEED_ID = "3fe9ad44079a5344"
SEED_SLUG = "deepep-v2-moe-is-not-validated-as-a-speculative-dr"
TOOLS = {"match_error", "show_record", "search_records", "scan_log"}
SERVER = [
    sys.executable,
    "-c",
    "import sys; from errcat.cli import main; sys.exit(main())",
    "mcp",
    "--no-bundled",
    "--catalog",
    str(SEEDS_FILE),
]


@pytest.fixture(scope="module")
def tools() -> Tools:
    return Tools(Catalog.from_path(SEEDS_FILE))


# -- the tools, without the SDK ---------------------------------------------------------


def test_match_error_answers_a_seed_with_its_advice(tools: Tools) -> None:
    result = tools.match_error(SEED_TEXT)
    assert result.confident
    best = result.matches[0]
    assert best.record.id == SEED_ID
    assert best.record.uri == f"errcat://records/{SEED_ID}"
    assert best.advice.solutions[0].startswith("Set --speculative-moe-a2a-backend deepep")
    assert result.reply_markdown.startswith("**`ValueError`**")


def test_match_error_says_so_when_nothing_matches(tools: Tools) -> None:
    result = tools.match_error("KeyError: 'nothing anyone catalogued'")
    assert not result.confident
    assert result.reply_markdown.startswith("No record in the errcat catalog matches")


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda t: t.match_error("   "), ToolInputError, "text is empty"),
        (lambda t: t.match_error("x" * 300_000), ToolInputError, "more than"),
        (lambda t: t.match_error(SEED_TEXT, limit=0), ToolInputError, "limit must be"),
        (lambda t: t.show_record("no-such-record"), UnknownRecordError, "no-such-record"),
        (lambda t: t.search_records(""), ToolInputError, "give a query or a filter"),
        (lambda t: t.search_records("x", offset=-1), ToolInputError, "offset"),
        (lambda t: t.scan_log("/no/such/file.log"), ToolInputError, "no such file"),
        (lambda t: t.scan_log(""), ToolInputError, "path is empty"),
    ],
)
def test_bad_input_raises_a_specific_error(
    tools: Tools, call: Callable[[Tools], object], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        call(tools)


def test_search_records_finds_words_and_filters(tools: Tools) -> None:
    found = tools.search_records("speculative draft")
    assert [r.id for r in found.items] == [SEED_ID]
    assert tools.search_records(error_class="ValueError", limit=1).total == 3
    assert tools.search_records("speculative", repo="vllm-project/vllm").total == 0
    assert tools.search_records(SEED_ID).items[0].slug == SEED_SLUG


def test_scan_log_stays_inside_its_roots(tmp_path: Path) -> None:
    inside = tmp_path / "logs"
    inside.mkdir()
    log = inside / "node.log"
    log.write_text(f"ok\n{SEED_TEXT}\nok\n{SEED_TEXT}\n")
    outside = tmp_path / "other.log"
    outside.write_text(SEED_TEXT + "\n")
    tools = Tools(Catalog.from_path(SEEDS_FILE), log_roots=[inside])
    result = tools.scan_log(str(log))
    assert (result.events, result.groups[0].record_id) == (2, SEED_ID)
    assert (result.groups[0].first_line, result.groups[0].last_line) == (2, 4)
    with pytest.raises(ToolInputError, match="outside the directories"):
        tools.scan_log(str(outside))
    with pytest.raises(ToolInputError, match="outside the directories"):
        tools.scan_log(str(inside / ".." / "other.log"))


@settings(max_examples=40, deadline=None)
@given(text=st.text(min_size=1, max_size=300))
def test_match_error_never_fails_on_any_text(text: str) -> None:
    tools = _TOOLS
    if not text.strip():
        with pytest.raises(ToolInputError):
            tools.match_error(text)
        return
    result = tools.match_error(text)
    assert result.confident == bool(result.matches and result.matches[0].confident)
    json.dumps(result.model_dump())  # the structured output is JSON


_TOOLS = Tools(Catalog.from_path(SEEDS_FILE))


# -- a real session against the server as a subprocess -----------------------------------


def _sdk() -> Any:
    """The MCP SDK (the tests that need it skip without it; the tools' tests above do not)."""
    return pytest.importorskip("mcp", reason="needs the mcp extra (pip install 'errcat[mcp]')")


def _run(session: Callable[[Any], Awaitable[None]], server: Any) -> None:
    async def main() -> None:
        async with _sdk().Client(server, read_timeout_seconds=120) as client:
            await session(client)

    asyncio.run(main())


def _stdio(*extra: str, cwd: Path | None = None) -> Any:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return _sdk().StdioServerParameters(
        command=SERVER[0], args=[*SERVER[1:], *extra], env=env, cwd=str(cwd) if cwd else None
    )


def _structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    data = result.structured_content
    assert isinstance(data, dict)
    return data


def _error_text(result: Any) -> str:
    assert result.is_error, result
    return " ".join(block.text for block in result.content)


def test_stdio_session_lists_and_calls_every_tool(tmp_path: Path) -> None:
    log = tmp_path / "node-3.log.gz"
    log.write_bytes(gzip.compress(f"[2026-03-02 10:11:11] start\n{SEED_TEXT}\n".encode()))

    async def session(client: Any) -> None:
        listed = (await client.list_tools()).tools
        assert {t.name for t in listed} == TOOLS
        for tool in listed:
            assert tool.input_schema["type"] == "object"
            assert tool.output_schema is not None and tool.output_schema["type"] == "object"
            assert tool.description and tool.annotations.read_only_hint
        match = _structured(await client.call_tool("match_error", {"text": SEED_TEXT}))
        assert match["confident"] and match["matches"][0]["record"]["id"] == SEED_ID
        assert match["matches"][0]["advice"]["example_fix"]
        shown = _structured(await client.call_tool("show_record", {"id": SEED_SLUG}))
        assert shown["record"]["id"] == SEED_ID and shown["advice"]["solutions"]
        found = _structured(
            await client.call_tool("search_records", {"query": "speculative", "limit": 5})
        )
        assert [item["id"] for item in found["items"]] == [SEED_ID]
        scanned = _structured(await client.call_tool("scan_log", {"path": str(log)}))
        assert scanned["events"] == 1 and scanned["groups"][0]["record_id"] == SEED_ID
        assert scanned["groups"][0]["first_line"] == 2

        templates = (await client.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["errcat://records/{key}"]
        read = await client.read_resource(f"errcat://records/{SEED_SLUG}")
        envelope = json.loads(read.contents[0].text)
        assert envelope["record"]["id"] == SEED_ID and envelope["datasetVersion"]

    _run(session, _stdio())


def test_stdio_bad_calls_get_tool_errors_and_the_server_keeps_answering() -> None:
    async def session(client: Any) -> None:
        assert "Unknown record: 'feedfacefeedface'" in _error_text(
            await client.call_tool("show_record", {"id": "feedfacefeedface"})
        )
        assert "text" in _error_text(await client.call_tool("match_error", {"text": ""}))
        assert "limit" in _error_text(
            await client.call_tool("match_error", {"text": SEED_TEXT, "limit": 99})
        )
        assert "text" in _error_text(await client.call_tool("match_error", {}))
        assert "no such file" in _error_text(
            await client.call_tool("scan_log", {"path": "/no/such/errcat.log"})
        )
        assert "give a query or a filter" in _error_text(
            await client.call_tool("search_records", {})
        )
        unknown = await client.call_tool("no_such_tool", {})
        assert unknown.is_error
        with pytest.raises(_sdk().MCPError):
            await client.read_resource("errcat://records/no-such-record")
        # Still serving after all of that.
        match = _structured(await client.call_tool("match_error", {"text": SEED_TEXT}))
        assert match["confident"]

    _run(session, _stdio())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    _sdk()
    port = _free_port()
    logs = tmp_path / "logs"
    logs.mkdir()
    process = subprocess.Popen(
        [*SERVER, "--transport", "http", "--port", str(port), "--log-root", str(logs)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                assert process.stderr is not None
                pytest.fail(f"errcat mcp did not start: {process.stderr.read().decode()}")
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp", logs
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


def test_streamable_http_session_and_its_log_roots(
    http_server: tuple[str, Path], tmp_path: Path
) -> None:
    url, logs = http_server
    inside = logs / "a.log"
    inside.write_text(f"{SEED_TEXT}\n")
    outside = tmp_path / "b.log"
    outside.write_text(f"{SEED_TEXT}\n")

    async def session(client: Any) -> None:
        assert {t.name for t in (await client.list_tools()).tools} == TOOLS
        match = _structured(await client.call_tool("match_error", {"text": SEED_TEXT}))
        assert match["matches"][0]["record"]["id"] == SEED_ID
        assert _structured(await client.call_tool("scan_log", {"path": str(inside)}))["events"] == 1
        assert "outside the directories" in _error_text(
            await client.call_tool("scan_log", {"path": str(outside)})
        )

    _run(session, url)


def test_mcp_command_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    from errcat.cli import main

    argv = ["mcp", "--no-bundled", "--catalog", str(SEEDS_FILE), "--transport", "http"]
    assert main([*argv, "--port", "0"]) == 2
    assert "--port must be 1-65535" in capsys.readouterr().err
