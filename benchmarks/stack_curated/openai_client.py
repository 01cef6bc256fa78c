"""The openai client's ``APIConnectionError: Connection error.``: no answer from the server at all.

Applications on the engines (agents, RAG tools, evaluation scripts, LiteLLM)
talk to an engine's OpenAI-compatible server through the ``openai`` package.
When the request gets no HTTP answer at all (nothing listens on that host and
port, the URL is malformed, a proxy swallows it, the server dropped the
connection), the client retries and then raises ``APIConnectionError`` with the
default text of its constructor, ``Connection error.``. The miner reads raise
statements, not a keyword argument's default, so no mined record holds the text;
it is written here. The cause is printed above it (``httpx.ConnectError: [Errno
111] Connection refused``, ``httpx.RemoteProtocolError: Server disconnected``),
and apps often log only the last line (``API error: Connection error.``).

Sources: openai-python v3.57.0 ``src/openai/_exceptions.py`` (line 107, the
default message) and ``src/openai/_base_client.py`` (line 1218, the sync
client's raise; the async client's is line 1840). Threads learned from
(even-numbered, in the ``issues`` corpus): FoundationAgents/OpenManus#770 (a
``base_url`` missing its colon), FoundationAgents/OpenManus#378 (a slow local
model: the client's timeout), stanford-oval/storm#248 and datalab-to/chandra#34
(long requests to a local vLLM).

>>> import regex
>>> pattern = RECORDS[0].envelope().record.message_pattern
>>> bool(regex.fullmatch(pattern, "Connection error."))
True
>>> bool(regex.fullmatch(pattern, "Connection error for http://x"))
False
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = ["RECORDS"]

RECORDS = (
    Curated(
        repo="openai/openai-python",
        path="src/openai/_base_client.py",
        line=1218,
        revision="v3.57.0",
        error_class="openai._exceptions.APIConnectionError",
        template="Connection error.",
        pattern=r"Connection error\.",
        error_type="network",
        documentation="The openai client got no HTTP answer from the server at base_url: the"
        " connection was refused, timed out or was dropped before a response, so it retried"
        " (max_retries, 2 by default) and gave up. It is not an error the engine returned"
        " (those come as APIStatusError with a status code): the request never reached a"
        " running server, or the server went away while it worked. Usual causes: the engine"
        " is not running yet or crashed (its log shows why), the host or port is not the one"
        " it listens on, base_url is malformed or lacks /v1, an HTTP_PROXY or HTTPS_PROXY"
        " variable sends a local request to a proxy, or a long request outlived the client's"
        " timeout or the server. The exception printed above this one says which.",
        solutions=(
            "Check the server from the same machine first: curl http://127.0.0.1:8000/v1/models"
            " (the engine's --host and --port; sglang listens on 30000 by default); wait for"
            " the engine's 'Application startup complete' before sending requests",
            "Check base_url character by character: http://HOST:PORT/v1 with the colon after"
            " http and the /v1 suffix (base_url='http://127.0.0.1:8000/v1')",
            "If a proxy is set, exempt the server: export NO_PROXY=localhost,127.0.0.1,<the"
            " server's host> (or unset HTTP_PROXY HTTPS_PROXY for the client)",
            "If the engine listens on one address (--host 10.0.0.5), call that address, or"
            " start it with --host 0.0.0.0 to listen on all",
            "For long generations give the client more time: OpenAI(base_url=...,"
            " timeout=600, max_retries=5)",
        ),
        example_fix="# before\nclient = OpenAI(base_url='http//127.0.0.1:8000/v1', api_key='EMPTY')"
        "  # Connection error.\n# after\ncurl http://127.0.0.1:8000/v1/models  # the server"
        " answers\nclient = OpenAI(base_url='http://127.0.0.1:8000/v1', api_key='EMPTY',"
        " timeout=600)",
        trigger="An application calls an engine's OpenAI-compatible server through the openai"
        " package and the connection fails before any HTTP response.",
        prevention=(
            "Poll the engine's /health (vLLM) or /health_generate (sglang) route before"
            " sending work, and set NO_PROXY for the servers' hosts where a proxy is"
            " configured",
        ),
        tags=("openai", "client"),
        references=(
            "https://github.com/openai/openai-python/blob/v3.57.0/src/openai/_exceptions.py#L107",
            "FoundationAgents/OpenManus#770 (base_url missing the colon after http)",
            "FoundationAgents/OpenManus#378 (a slow local model: a longer client timeout)",
            "datalab-to/chandra#34 (long documents sent to a local vLLM)",
        ),
    ),
)
