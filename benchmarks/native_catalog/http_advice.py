"""What an HTTP status from an engine's OpenAI-compatible server means, and what to change.

sglang and vllm serve the OpenAI API with FastAPI under uvicorn; a client sees
the status of a failed request (``openai.NotFoundError: Error code: 404``) and
often nothing else. Each :class:`StatusAdvice` says, for one status, where it
comes from in these servers (their own handlers, FastAPI's routing, a gateway
or proxy in front) and what a user changes, with each engine's own flags.
:mod:`native_catalog.http` turns each into one record per client form.

Facts are from the engines' sources (vllm ``vllm/entrypoints/openai/server_utils.py``
and ``api_server.py``; sglang ``python/sglang/srt/entrypoints/http_server.py``,
``python/sglang/srt/utils/auth.py`` and the gateway ``sgl-model-gateway/``) and
from the threads each record cites. The log lines the advice names were read at
the mirrors' revisions (vllm 28be48fa944d: ``vllm/v1/engine/core.py`` 'EngineCore
encountered a fatal error.', ``server_utils.py`` 'Exception caught. Request id:'
under ``--log-error-stack``; sglang 8905cbd42f4a: ``http_server.py`` 'The server is
fired up and ready to roll!', ``managers/scheduler.py`` 'Scheduler hit an exception:');
'Application startup complete.' is uvicorn's, which serves both.

>>> [s.code for s in STATUSES][:3]
[400, 401, 403]
>>> by_code(404).phrase
'Not Found'
"""

from __future__ import annotations

from dataclasses import dataclass

from native_catalog.spec import Variant

__all__ = ["STATUSES", "StatusAdvice", "by_code"]

_VLLM_SERVER = (
    "https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/server_utils.py"
)
_VLLM_APP = "https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/api_server.py"
_SGLANG_SERVER = (
    "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/entrypoints/http_server.py"
)
_SGLANG_AUTH = "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/utils/auth.py"
_GATEWAY_DOC = "https://docs.sglang.ai/advanced_features/sgl_model_gateway.html"
_VLLM_SERVE_DOC = "https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html"

#: The server's own account of a failed request: both engines print it before the status.
_SERVER_LOG = (
    "The server's log holds the cause: look above the access-log line of the failed request"
    " (the one ending in the status) for a traceback or an ERROR line"
)

#: A proxy from the client's environment answers for a server on the same machine: the
#: Python clients (requests, httpx, so the OpenAI client) read http_proxy / https_proxy
#: and skip the hosts NO_PROXY lists.
_NO_PROXY = (
    "A proxy set in the client's environment (http_proxy, https_proxy) also carries requests"
    " to a local server: exempt it with NO_PROXY=localhost,127.0.0.1 (and the server's host)"
)

_VLLM = "vllm serve Qwen/Qwen2.5-7B-Instruct"
_SGLANG = "python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct"


@dataclass(frozen=True)
class StatusAdvice:
    """One HTTP status: its meaning for these servers and the advice, generic and per engine."""

    code: int
    phrase: str
    documentation: str
    trigger: str
    situations: str
    solutions: tuple[str, ...]
    example_fix: str
    references: tuple[str, ...]
    variants: tuple[Variant, ...]
    prevention: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        """The native kind the status's records answer (``http-404``)."""
        return f"http-{self.code}"


_400 = StatusAdvice(
    400,
    "Bad Request",
    "The server read the request and refused it before generating anything. Both engines"
    " answer a request that fails validation with 400 (they rewrite FastAPI's 422 to 400), and"
    " so do their own checks: prompt tokens plus max_tokens beyond the model's context, messages"
    " the chat template cannot render, images sent to a text-only model, a parameter this"
    " engine does not implement. The JSON body's 'message' names what was refused; a client"
    " that prints only the status dropped it.",
    "A request whose fields the OpenAI-compatible server rejects.",
    "max_tokens too large for the context left after the prompt; a client sending another"
    " provider's fields; a tools or response_format schema the server cannot use; a base model"
    " without a chat template behind /v1/chat/completions.",
    (
        "Print the response body (openai: e.response.text or e.body; requests: r.text): its"
        " 'message' says which field was refused, and errcat can answer that message itself",
        "Keep prompt tokens plus max_tokens within the model's context; GET /v1/models shows it"
        " as max_model_len on both engines",
        "Send only fields of the OpenAI API this server implements, with messages in the chat"
        " format (role and content, content parts for images)",
        _SERVER_LOG,
    ),
    "# before\nclient.chat.completions.create(model=m, messages=msgs, max_tokens=32768)\n"
    "# after: leave room for the prompt inside the context window\n"
    "client.chat.completions.create(model=m, messages=msgs, max_tokens=2048)",
    (
        _VLLM_SERVER,
        _SGLANG_SERVER,
        "https://github.com/vllm-project/vllm/pull/22960",
    ),
    (
        Variant(
            "vllm",
            None,
            (
                "Restart the server with --log-error-stack: vllm then logs the stack trace behind"
                " every error response, 400s included",
                "Lower max_tokens, or raise --max-model-len when the model supports a longer"
                " context",
                "For a model without a chat template, pass one with --chat-template",
            ),
            f"# before\n{_VLLM}\n# after\n{_VLLM} --log-error-stack --max-model-len 32768",
        ),
        Variant(
            "sglang",
            None,
            (
                "Restart with --log-requests --log-requests-level 2 to log each request's"
                " parameters and part of its input beside the error",
                "Lower max_tokens, or raise --context-length when the model supports a longer"
                " context",
                "For a model without a chat template, pass one with --chat-template",
            ),
            f"# before\n{_SGLANG}\n# after\n{_SGLANG} --log-requests --log-requests-level 2",
        ),
    ),
    ("Validate requests on the client: count prompt tokens before choosing max_tokens",),
)

_401 = StatusAdvice(
    401,
    "Unauthorized",
    "The server was started with an API key and the request carried none, or another one. vllm"
    " takes the key from --api-key or from the environment variable VLLM_API_KEY and checks"
    " the 'Authorization: Bearer <key>' header of every request under /v1 (not /health); sglang"
    " checks --api-key the same way. The body is {'error': 'Unauthorized'}.",
    "A request without the server's API key in its Authorization header.",
    "A key set on the server but not in the client; VLLM_API_KEY exported in a shell profile"
    " and forgotten; a client that reads OPENAI_API_KEY, set to another key.",
    (
        "Give the client the server's key: OpenAI(base_url=..., api_key=KEY), or the header"
        " 'Authorization: Bearer KEY' with curl",
        "Check the server's environment for an API key variable you did not mean to set",
        "If the server should be open, restart it without the key option",
    ),
    "# before\nclient = OpenAI(base_url='http://localhost:8000/v1', api_key='EMPTY')\n"
    "# after\nclient = OpenAI(base_url='http://localhost:8000/v1', api_key='the-server-key')",
    (
        _VLLM_SERVER,
        _SGLANG_AUTH,
        "https://github.com/vllm-project/vllm/issues/22407",
    ),
    (
        Variant(
            "vllm",
            None,
            (
                "Pass the same key the server has (--api-key, or VLLM_API_KEY in its"
                " environment) as the client's api_key",
                "A VLLM_API_KEY left in ~/.bashrc or a container's env turns authentication on"
                " without --api-key: unset it when the server should be open",
            ),
            "# before\nVLLM_API_KEY=abc vllm serve M   # client sends api_key='EMPTY'\n"
            "# after\nvllm serve M --api-key abc   # client sends api_key='abc'",
        ),
        Variant(
            "sglang",
            None,
            (
                "Pass the server's --api-key as the client's api_key (Authorization: Bearer)",
                "Admin endpoints want --admin-api-key when one is set, and do not accept --api-key",
            ),
            "# before (the server runs with --api-key abc)\n"
            "client = OpenAI(base_url='http://localhost:30000/v1', api_key='EMPTY')\n"
            "# after\nclient = OpenAI(base_url='http://localhost:30000/v1', api_key='abc')",
        ),
    ),
)

_403 = StatusAdvice(
    403,
    "Forbidden",
    "The request was understood and refused for who sent it. Neither engine's OpenAI"
    " server refuses its own API this way: sglang's key check has a 403 for endpoints only"
    " an admin key may open, and answers requests with the wrong key with 401. A 403 comes"
    " from in front of the engine: a gateway, proxy or hosted endpoint whose access rules"
    " refuse this key, client or model.",
    "A request that a gateway's or proxy's access rules refuse.",
    "A gateway key without access to that model; a proxy allowing only some paths or"
    " addresses; sglang endpoints reserved to --admin-api-key.",
    (
        "Send the request straight to the engine (its host and --port) to see whether the"
        " refusal is the engine's or the proxy's",
        "Behind a gateway or proxy, check its access rules and the key it expects",
        "For sglang's admin endpoints, start the server with --admin-api-key and send that key",
        _NO_PROXY,
    ),
    "curl -i http://ENGINE:PORT/v1/models -H 'Authorization: Bearer KEY'"
    "   # 200 here: the proxy refused",
    (_SGLANG_AUTH,),
    (
        Variant(
            "sglang",
            None,
            (
                "Admin-only endpoints need the server started with --admin-api-key, and that"
                " key in the request; --api-key does not open them",
                "With --admin-api-key set, normal endpoints still take --api-key",
            ),
            "# before\npython -m sglang.launch_server --model-path M --api-key abc\n"
            "# after\npython -m sglang.launch_server --model-path M --api-key abc"
            " --admin-api-key adm",
        ),
    ),
)

_404 = StatusAdvice(
    404,
    "Not Found",
    "Nothing answered at that path, or not for that model. A body {'detail': 'Not Found'} is"
    " FastAPI's: the server has no route there. The usual causes are a base URL without /v1"
    " (the client then posts to /chat/completions), /v1 given twice, a route of another server"
    " (vllm's demo server vllm.entrypoints.api_server has /generate and no /v1 routes; the"
    " OpenAI server has /v1 routes and no /generate), and a route the server did not enable for"
    " this model: vllm registers /v1/embeddings, /pooling and /score only for a pooling model"
    " and /v1/audio/transcriptions only for a speech-to-text one. A body naming the model (The"
    " model `x` does not exist.) means the request's model is not the served name.",
    "A request to a path the server does not serve, or for a model name it does not know.",
    "A base URL missing /v1; the demo server started instead of the OpenAI one; embeddings"
    " asked of a generative model; a model name that differs from the served name.",
    (
        "Set the request's model field to the name the server serves: GET /v1/models lists"
        " it, the --served-model-name value (else the model path as given at launch)",
        "Point the client at the /v1 root: base_url='http://HOST:PORT/v1' (the client adds"
        " /chat/completions); with curl or requests, POST to /v1/chat/completions",
        "Check that the route exists on this server: vllm logs its routes at start-up"
        " ('Available routes are:')",
        "Embeddings and transcription need a server started for that kind of model",
    ),
    "# before\nclient = OpenAI(base_url='http://localhost:8000', api_key='EMPTY')\n"
    "# after\nclient = OpenAI(base_url='http://localhost:8000/v1', api_key='EMPTY')",
    (
        _VLLM_APP,
        "https://github.com/vllm-project/vllm/issues/2520",
        "https://github.com/vllm-project/vllm/issues/6194",
        "https://github.com/vllm-project/vllm/issues/11577",
    ),
    (
        Variant(
            "vllm",
            None,
            (
                "Serve with 'vllm serve' (the OpenAI server) and call it under /v1; the demo"
                " server vllm.entrypoints.api_server has /generate only",
                "For /v1/embeddings, /pooling or /score run a separate server with --runner"
                " pooling (older releases: --task embed); for /v1/audio/transcriptions serve a"
                " speech-to-text model such as Whisper",
                "Match the request's model to --served-model-name (or to the model path when"
                " none was given)",
            ),
            "# before: a chat model's server has no /v1/embeddings\n"
            "vllm serve Qwen/Qwen2.5-7B-Instruct\n# after: a second server for embeddings\n"
            "vllm serve BAAI/bge-m3 --runner pooling --port 8001",
        ),
        Variant(
            "sglang",
            None,
            (
                "Call the OpenAI routes under /v1 (sglang's native API is /generate)",
                "For embeddings start the server with --is-embedding",
                "Match the request's model to --served-model-name (GET /v1/models lists it)",
            ),
            "# before\npython -m sglang.launch_server --model-path BAAI/bge-m3\n"
            "# after\npython -m sglang.launch_server --model-path BAAI/bge-m3 --is-embedding",
        ),
    ),
)

_413 = StatusAdvice(
    413,
    "Request Entity Too Large",
    "The request body was larger than something on its way accepts. uvicorn sets no body"
    " limit of its own; a 413 comes from a proxy in front (nginx accepts 1 MB by default) or"
    " from sglang's gateway (sgl-model-gateway / sglang-router, --max-payload-size, 512 MB by"
    " default). Images and audio sent inline as base64 are the usual reason.",
    "A large request body: base64 images or audio, very long prompts, big batches.",
    "Several base64 images in one chat request behind nginx; a batch request through the"
    " sglang router.",
    (
        "Send media by URL (or a path the server can read) instead of inline base64",
        "Raise the proxy's limit (nginx: client_max_body_size 100m)",
        "Split a large batch into several requests",
    ),
    "# nginx, in the server block in front of the engine\nclient_max_body_size 100m;",
    (_GATEWAY_DOC, "https://github.com/sgl-project/sglang/issues/6622"),
    (
        Variant(
            "sglang",
            None,
            (
                "Behind sglang's gateway raise its limit: launch_router --max-payload-size (bytes)",
                "Send images by URL instead of base64",
            ),
            "# before\npython -m sglang_router.launch_router --worker-urls http://w:30000\n"
            "# after\npython -m sglang_router.launch_router --worker-urls http://w:30000"
            " --max-payload-size 1073741824",
        ),
    ),
)

_422 = StatusAdvice(
    422,
    "Unprocessable Entity",
    "FastAPI's answer when the request body does not fit the endpoint's schema: a field"
    " missing, of the wrong type, or an unknown value. Both engines' OpenAI servers turn this"
    " into 400, so a 422 usually comes from another server in between (a gateway, a demo"
    " server, an older release) or from a native endpoint. The body's 'detail' lists each bad"
    " field with its location ('loc') and what was expected ('msg').",
    "A request body that does not validate against the endpoint's schema.",
    "A string where a number is expected; messages as a string instead of a list; a request"
    " shaped for another endpoint.",
    (
        "Read the body's 'detail': each entry's 'loc' is the field and 'msg' what was wrong",
        "Compare the request with the endpoint's schema at GET /docs (or /openapi.json) of the"
        " same server",
        "Check the path: a completions body posted to /v1/chat/completions fails validation",
    ),
    '# before\n{"model": "m", "messages": "Hello"}\n'
    '# after\n{"model": "m", "messages": [{"role": "user", "content": "Hello"}]}',
    ("https://fastapi.tiangolo.com/tutorial/handling-errors/", _VLLM_SERVER, _SGLANG_SERVER),
    (),
)

_429 = StatusAdvice(
    429,
    "Too Many Requests",
    "More requests arrived than something in front of the engine admits. Neither engine's"
    " OpenAI server limits request rates by itself (they queue requests); the 429 comes from"
    " a gateway or proxy: sglang's gateway answers it when its queue (--queue-size) is full"
    " or a rate limit (--max-concurrent-requests, --rate-limit-tokens-per-second) is reached,"
    " and hosted gateways (LiteLLM and the like) have their own limits.",
    "A burst of concurrent requests beyond a gateway's admission limits.",
    "Benchmarks or agents firing many requests at once through the sglang router or a proxy.",
    (
        "Lower the client's concurrency, and retry with backoff on 429",
        "Raise the gateway's limits to what the engines behind it can serve",
    ),
    "# before\npython -m sglang_router.launch_router --worker-urls http://w:30000"
    " --max-concurrent-requests 64\n# after\npython -m sglang_router.launch_router"
    " --worker-urls http://w:30000 --max-concurrent-requests 256 --queue-size 512",
    (_GATEWAY_DOC, "https://github.com/sgl-project/sglang/pull/11485"),
    (
        Variant(
            "sglang",
            None,
            (
                "Behind sglang's gateway, raise --queue-size or lower the client's concurrency;"
                " keep --max-concurrent-requests at what the workers can serve",
                "Add workers (more data-parallel replicas) when the load is steady",
            ),
            "# before\npython -m sglang_router.launch_router --worker-urls http://w:30000\n"
            "# after\npython -m sglang_router.launch_router --worker-urls http://w:30000"
            " --queue-size 512 --queue-timeout-secs 120",
        ),
    ),
)

_500 = StatusAdvice(
    500,
    "Internal Server Error",
    "The server failed while handling the request: an exception in the engine or in the"
    " request's processing (a chat template, a multimodal input, a tool parser) that no"
    " handler turned into a 4xx. The status says nothing of the cause; the server printed it"
    " when it happened, as a traceback or an ERROR line just before the access-log line"
    " '... 500 Internal Server Error'. If the engine itself died, every later request fails"
    " too until it is restarted.",
    "An exception on the server while it handled the request.",
    "A bug hit by one kind of input (images, tools, a long prompt); the engine process dead"
    " after an earlier error (CUDA error, out of memory).",
    (
        _SERVER_LOG + "; paste that traceback into errcat, it is the error to explain",
        "Find out whether only some requests fail (one input shape) or all of them (the engine"
        " died: look for its first error and restart it)",
        "Reproduce with the smallest request that still fails (one message, no images, no tools)",
    ),
    "# before\nvllm serve M\n# after: log enough to see the cause\n"
    "VLLM_LOGGING_LEVEL=DEBUG vllm serve M --log-error-stack",
    (
        _VLLM_SERVER,
        "https://github.com/vllm-project/vllm/pull/22960",
        "https://github.com/vllm-project/vllm/issues/9193",
        "https://github.com/vllm-project/vllm/issues/40856",
    ),
    (
        Variant(
            "vllm",
            None,
            (
                "The server's log (APIServer lines) has the traceback above the '500 Internal"
                " Server Error' access line; restart with --log-error-stack so that every error"
                " response logs its stack after 'Exception caught. Request id:'",
                "'EngineCore encountered a fatal error.' in the log means the engine died:"
                " the traceback below that line is the error to fix",
                "Raise the log level with VLLM_LOGGING_LEVEL=DEBUG to see the request's steps",
                "If every request fails, the engine core died: look for its first error"
                " (EngineCore) and restart",
            ),
            f"# before\n{_VLLM}\n# after\nVLLM_LOGGING_LEVEL=DEBUG {_VLLM} --log-error-stack",
        ),
        Variant(
            "sglang",
            None,
            (
                "The server's log has the traceback above the access line; with several ranks"
                " look at the TP0 scheduler's lines",
                "Raise the log level with --log-level debug, and log requests with"
                " --log-requests to see the failing input",
                "If every request fails, the scheduler died: the log line 'Scheduler hit an"
                " exception:' carries its traceback; fix that error and restart",
            ),
            f"# before\n{_SGLANG}\n# after\n{_SGLANG} --log-level debug --log-requests",
        ),
    ),
)

_502 = StatusAdvice(
    502,
    "Bad Gateway",
    "A proxy or gateway in front of the engine got no valid answer from it: the engine"
    " process is down or restarting, listens on another port, or closed the connection"
    " mid-response (it crashed while generating). Neither engine sends 502 itself; sglang's"
    " gateway does when a worker's answer fails.",
    "A proxy forwarding to an engine that is not answering.",
    "The engine still loading or crashed; a wrong upstream port; a worker killed by the OOM"
    " killer.",
    (
        "Call the engine directly (curl http://ENGINE:PORT/health) to see whether it is up;"
        " while it loads, wait for 'Application startup complete.' (vllm) or 'The server is"
        " fired up and ready to roll!' (sglang) in its log",
        "Read the engine's own log for a crash or restart at the time of the 502",
        "Check the proxy's upstream address and port against the engine's --port",
        _NO_PROXY,
    ),
    "curl -i http://localhost:8000/health   # 200: the engine is up, look at the proxy",
    (_GATEWAY_DOC,),
    (
        Variant(
            "sglang",
            None,
            (
                "Check each worker's /health; a worker that died leaves 'Scheduler hit an"
                " exception' or a crash in its log",
                "Behind the gateway, check --worker-urls against the workers' --port",
            ),
            "curl -i http://worker:30000/health",
        ),
        Variant(
            "vllm",
            None,
            (
                "Check the engine's /health; 503 there means the engine core is dead and must"
                " be restarted",
                "Check the proxy's upstream port against vllm's --port",
            ),
            "curl -i http://localhost:8000/health",
        ),
    ),
)

_503 = StatusAdvice(
    503,
    "Service Unavailable",
    "The server, or the gateway in front of it, cannot serve right now. vllm answers 503 on"
    " /health once its engine core is dead; sglang answers it on /health while starting,"
    " shutting down or when its scheduler stops answering ('Health check failed' in its log),"
    " and on requests when its waiting queue is full (--max-queued-requests,"
    " message 'The request queue is full.'); sglang's gateway answers 503 'No available"
    " workers' when every worker is unhealthy or its circuit breaker is open.",
    "A request while the engine is starting, dead or overloaded, or no worker is healthy.",
    "Requests sent before the model finished loading; an engine that crashed earlier; a"
    " router whose workers failed their health checks; a full request queue.",
    (
        "Wait for the server to finish starting before sending requests: /health answers 200,"
        " and the log shows 'Application startup complete.' (vllm) or 'The server is fired up"
        " and ready to roll!' (sglang)",
        "If it was serving before, look for the engine's first error in its log and restart it",
        "Behind a router or gateway, check each worker's /health and the gateway's log",
        "Under load, lower the client's concurrency or add capacity",
    ),
    "# wait until the server is ready\nuntil curl -sf http://localhost:8000/health; do sleep 5;"
    " done",
    (
        _SGLANG_SERVER,
        _GATEWAY_DOC,
        "https://github.com/THUDM/slime/issues/1328",
        "https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/serve/instrumentator/health.py",
    ),
    (
        Variant(
            "sglang",
            None,
            (
                "Wait for /health to answer 200, or for 'The server is fired up and ready to"
                " roll!' in the log; during start-up and shutdown /health answers 503",
                "With --max-queued-requests set, a full queue answers 503: raise it, or lower"
                " the client's concurrency",
                "Behind the gateway ('No available workers'), check each worker's /health and"
                " log; a worker that crashed must be restarted before it is routed to again",
            ),
            f"# before\n{_SGLANG} --max-queued-requests 64\n# after\n{_SGLANG}"
            " --max-queued-requests 512",
        ),
        Variant(
            "vllm",
            None,
            (
                "A 503 from /health means the engine core is dead: its first error is earlier"
                " in the log (EngineCore); fix that and restart the server",
                "vllm opens its port only once the model is loaded ('Application startup"
                " complete.' in its log); a 503 before that comes from a load balancer or"
                " ingress in front: route to vllm only after /health answers 200 (a readiness"
                " probe)",
            ),
            "# Kubernetes: readinessProbe: {httpGet: {path: /health, port: 8000}}\n"
            "until curl -sf http://localhost:8000/health; do sleep 5; done",
        ),
    ),
)

_504 = StatusAdvice(
    504,
    "Gateway Timeout",
    "A proxy or gateway gave up waiting for the engine's answer. Long generations without"
    " streaming exceed a proxy's read timeout (nginx waits 60 s by default); sglang's gateway"
    " answers 504 when its call to a worker times out (--request-timeout-secs). The engine may"
    " still be generating the answer nobody will read.",
    "A request that takes longer than a proxy's or gateway's timeout.",
    "Non-streaming requests with a large max_tokens; an overloaded engine with a long queue;"
    " a first request that waits for compilation or CUDA graph capture.",
    (
        "Stream the response (stream=True): tokens keep the connection alive",
        "Raise the proxy's timeout (nginx: proxy_read_timeout 600s) to the longest expected"
        " generation",
        "Lower max_tokens, or the load, so requests finish in time",
    ),
    "# nginx, in the location forwarding to the engine\nproxy_read_timeout 600s;",
    (
        _GATEWAY_DOC,
        "https://github.com/dstackai/dstack/issues/3139",
        "https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_read_timeout",
    ),
    (
        Variant(
            "sglang",
            None,
            (
                "Behind sglang's gateway, raise --request-timeout-secs to the longest"
                " generation you expect",
                "Stream the response, or lower max_tokens",
            ),
            "# before\npython -m sglang_router.launch_router --worker-urls http://w:30000\n"
            "# after\npython -m sglang_router.launch_router --worker-urls http://w:30000"
            " --request-timeout-secs 1800",
        ),
    ),
)

#: The statuses with records, by code.
STATUSES: tuple[StatusAdvice, ...] = (
    _400,
    _401,
    _403,
    _404,
    _413,
    _422,
    _429,
    _500,
    _502,
    _503,
    _504,
)


def by_code(code: int) -> StatusAdvice:
    """The advice for one status code (a ``KeyError`` for a status without records)."""
    for status in STATUSES:
        if status.code == code:
            return status
    raise KeyError(code)
