"""A port another process holds: the three texts users paste when an engine cannot bind.

An engine binds several ports at start-up: the HTTP server's (uvicorn, through
asyncio), and ZMQ sockets between its own processes (vLLM's engine-core and
data-parallel RPC, sglang's tokenizer/scheduler/detokenizer and its PD
bootstrap server). A second server on the same host, or a previous run that did
not exit, makes the bind fail with EADDRINUSE, printed one of three ways:

* pyzmq: ``zmq.error.ZMQError: Address already in use (addr='tcp://...')`` (its
  ``Socket.bind`` appends the address to libzmq's strerror);
* asyncio's ``create_server`` (under uvicorn): ``[Errno 98] error while attempting
  to bind on address ('0.0.0.0', 8000): address already in use``, which uvicorn
  logs as an ERROR line before it exits;
* a plain socket bind: ``OSError: [Errno 98] Address already in use``.

None of them is made by a ``raise`` with this text in a mined package (the text
comes from the OS's strerror), so they are written here, with the levers that
free or change the port.

Sources: pyzmq 27.2.0 ``zmq/sugar/socket.py`` (``Socket.bind``), CPython v3.11.7
``Lib/asyncio/base_events.py`` (``create_server``) and ``Modules/socketmodule.c``
(``sock_bind`` → ``set_error``).

>>> import regex
>>> zmq = ZMQ_IN_USE.envelope().record.message_pattern
>>> bool(regex.fullmatch(zmq, "Address already in use (addr='tcp://127.0.0.1:5570')"))
True
>>> bool(regex.fullmatch(zmq, "Address already in use"))
True
>>> bind = ASYNCIO_BIND.envelope().record.message_pattern
>>> line = "[Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use"
>>> bool(regex.fullmatch(bind, line)), bool(regex.fullmatch(bind, line[11:]))
(True, True)
>>> len(RECORDS)
3
"""

from __future__ import annotations

from errcat.imports.site import HIDDEN_SITE_TAG
from stack_curated.spec import Curated

__all__ = ["ASYNCIO_BIND", "RECORDS", "SOCKET_IN_USE", "ZMQ_IN_USE"]

#: What frees or changes a port, said the same way in every record.
_FIND = (
    "Find what holds the port and stop it if it is a leftover run: ss -ltnp | grep :8000"
    " (or lsof -i :8000), then kill <pid>; a crashed engine can leave worker processes"
    " behind (ps aux | grep -E 'vllm|sglang')"
)
_MOVE = (
    "Or give this server other ports: vLLM --port 8001 (and, with data parallelism,"
    " --data-parallel-rpc-port; VLLM_PORT sets the base of its internal ports); sglang"
    " --port 30001 (its internal ports follow it; --nccl-port, and"
    " --disaggregation-bootstrap-port for each PD server on one host)"
)
_EXAMPLE = (
    "# before: a second server on the same host\nvllm serve Qwen/Qwen2.5-7B-Instruct\n"
    "# after\nvllm serve Qwen/Qwen2.5-7B-Instruct --port 8001"
)

ZMQ_IN_USE = Curated(
    repo="zeromq/pyzmq",
    path="zmq/sugar/socket.py",
    line=324,
    revision="v27.2.0",
    error_class="zmq.error.ZMQError",
    template="Address already in use (addr={addr!r})",
    pattern=r"Address already in use(?: \(addr=(.+?)\))?",
    error_type="configuration",
    documentation="A ZMQ socket could not bind its address because another process (or"
    " another socket of this one) already listens there. Engines talk between their own"
    " processes over ZMQ: vLLM's API server, engine core and data-parallel ranks, sglang's"
    " tokenizer manager, scheduler and detokenizer, and sglang's PD bootstrap server. Two"
    " engines on one host with the same ports, or a previous run whose processes did not"
    " exit, give this error at start-up; the address in the message is the port to free.",
    solutions=(_FIND, _MOVE),
    example_fix=_EXAMPLE,
    trigger="Starting a second engine on a host where the first (or a crashed run's"
    " workers) still holds the ZMQ port.",
    prevention=(
        "Give every server on a host its own --port, and stop a run fully before restarting it",
    ),
    tags=("ports", "zmq"),
    references=(
        "pyzmq zmq/sugar/socket.py Socket.bind (v27.2.0)",
        "https://github.com/vllm-project/vllm/issues/7196",
        "https://github.com/sgl-project/sglang/issues/9396",
    ),
)

ASYNCIO_BIND = Curated(
    repo="python/cpython",
    path="Lib/asyncio/base_events.py",
    line=1525,
    revision="v3.11.7",
    error_class="OSError",
    template="[Errno {errno}] error while attempting to bind on address {address}: {reason}",
    pattern=r"(?:\[Errno (\d+)\] )?error while attempting to bind on address (.+?): (.+?)",
    error_type="configuration",
    documentation="The HTTP server could not listen on its host and port: asyncio's"
    " create_server (which uvicorn, and so vLLM's and sglang's OpenAI servers, use) got"
    " an OSError from bind and rewrote it as 'error while attempting to bind on address"
    " (host, port): <reason>'. 'address already in use' (errno 98) means another process"
    " listens on that port; 'cannot assign requested address' (errno 99) means the host"
    " given is not an address of this machine. uvicorn logs the line and exits, so the"
    " engine stops after loading the model.",
    solutions=(
        _FIND,
        _MOVE,
        "For 'cannot assign requested address': pass --host 0.0.0.0 (all interfaces) or an"
        " address this machine has (ip addr)",
    ),
    example_fix=_EXAMPLE,
    trigger="Starting the engine's HTTP server on a port in use, or on a host address the"
    " machine does not have.",
    prevention=("Check the port is free first: ss -ltn | grep :8000",),
    tags=("ports", "uvicorn"),
    references=(
        "cpython Lib/asyncio/base_events.py BaseEventLoop.create_server (v3.11.7)",
        "https://github.com/vllm-project/vllm/issues/7514",
    ),
)

SOCKET_IN_USE = Curated(
    repo="python/cpython",
    path="Modules/socketmodule.c",
    line=1,
    revision="v3.11.7",
    error_class="OSError",
    template="[Errno 98] Address already in use",
    pattern=r"\[Errno (?:98|48|10048)\] Address already in use",
    error_type="configuration",
    documentation="A socket bind failed with EADDRINUSE: another process already listens"
    " on the port. In an engine this is the HTTP port, a port picked for torch.distributed"
    " or NCCL's rendezvous (MASTER_PORT, sglang --nccl-port), or an internal port a"
    " previous run still holds. The errno is 98 on Linux, 48 on macOS, 10048 on Windows.",
    solutions=(
        _FIND,
        _MOVE,
        "For torch.distributed rendezvous: a free MASTER_PORT (e.g. MASTER_PORT=29501) for"
        " each job on the host",
    ),
    example_fix=_EXAMPLE,
    trigger="Binding a port another process holds.",
    # Raised in C (socket.bind): no traceback frame shows the site, so the paste's
    # frames (the caller's code) are no evidence against it.
    tags=("ports", HIDDEN_SITE_TAG),
    references=("cpython Modules/socketmodule.c sock_bind (v3.11.7)",),
)

RECORDS: tuple[Curated, ...] = (ZMQ_IN_USE, ASYNCIO_BIND, SOCKET_IN_USE)
