"""The ``errcat serve`` command (and ``python -m errcat.server``): options, workers, uvicorn."""

from __future__ import annotations

import argparse
import gc
import os
import signal
import socket
import sys
from collections.abc import Sequence
from contextlib import suppress
from typing import IO, Any, TextIO

from errcat.cli_common import catalog_from_args, catalog_options
from errcat.errors import ErrcatError
from errcat.server.app import (
    DEFAULT_MATCH_TIMEOUT,
    INSTALL_HINT,
    ServerUnavailableError,
    create_app,
    require_fastapi,
)
from errcat.server.limits import DEFAULT_MAX_BODY_BYTES
from errcat.server.protocol import DEFAULT_HEADER_TIMEOUT, protocol_with_header_timeout

__all__ = ["add_arguments", "main", "run", "serve_forked"]


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
        help="requests answered at once per process before new ones get 503 (default "
        "%(default)s); idle connections do not count",
    )
    parser.add_argument(
        "--header-timeout",
        type=float,
        default=DEFAULT_HEADER_TIMEOUT,
        metavar="SECONDS",
        help="close a connection that has not sent a request's headers by then "
        "(default %(default)s)",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn log level",
    )


def listening_socket(host: str, port: int, backlog: int) -> socket.socket:
    """The socket the forked workers share: bound, listening, inherited by children.

    Its protocol is IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that
    say they are TCP, and without it a keep-alive client waits 40 ms (Nagle and a
    delayed ACK) for each response.

    >>> sock = listening_socket("127.0.0.1", 0, 8)
    >>> sock.proto == socket.IPPROTO_TCP, sock.get_inheritable()
    (True, True)
    >>> sock.close()
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(backlog)
    sock.set_inheritable(True)
    return sock


def serve_forked(config: Any, workers: int, err: TextIO | None = None) -> int:
    """Run ``workers`` copies of the server on one socket, forked from this process."""
    import uvicorn

    err = err if err is not None else sys.stderr
    sock = listening_socket(config.host, config.port, config.backlog)
    print(
        f"errcat serve: {workers} workers on http://{config.host}:{sock.getsockname()[1]}",
        file=err,
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
            print(f"errcat serve: worker {pid} exited ({code}); stopping", file=err)
            status = 1
            stop(signal.SIGTERM, None)
    sock.close()
    return status


def run(
    args: argparse.Namespace,
    *,
    stdin: IO[Any] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``errcat serve`` with parsed arguments; return the exit status (2 for bad usage)."""
    del stdin, stdout  # the server logs to stderr (uvicorn's own logging)
    err = stderr if stderr is not None else sys.stderr
    try:
        import uvicorn

        require_fastapi()
    except (ImportError, ServerUnavailableError):
        print(f"errcat serve: error: {INSTALL_HINT}", file=err)
        return 2
    for name in ("port", "max_body_bytes", "threads", "workers", "limit_concurrency"):
        value = getattr(args, name)
        if value < (0 if name == "port" else 1) or (name == "port" and value > 65535):
            print(
                f"errcat serve: error: invalid --{name.replace('_', '-')} {value!r}",
                file=err,
            )
            return 2
    if args.header_timeout <= 0:
        print(f"errcat serve: error: invalid --header-timeout {args.header_timeout!r}", file=err)
        return 2
    if args.match_timeout <= 0:
        print(f"errcat serve: error: invalid --match-timeout {args.match_timeout!r}", file=err)
        return 2
    if args.workers > 1 and not hasattr(os, "fork"):
        print("errcat serve: error: --workers needs a POSIX system", file=err)
        return 2
    try:
        catalog = catalog_from_args(args, err, prog="errcat serve")
    except (ValueError, ErrcatError) as exc:
        print(f"errcat serve: error: {exc}", file=err)
        return 2
    app = create_app(
        catalog,
        max_body_bytes=args.max_body_bytes,
        match_timeout=args.match_timeout,
        threads=args.threads,
        max_in_flight=args.limit_concurrency,
    )
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        # Requests at once are limited by the app (InFlightLimit), not connections: a
        # connection slow to send its headers is closed (the protocol's deadline).
        http=protocol_with_header_timeout(args.header_timeout),
        timeout_keep_alive=5,
    )
    # The catalog lives as long as the process: keep the collector from walking it again
    # and again (full collections over a 100k-record catalog take hundreds of ms).
    gc.collect()
    gc.freeze()
    if args.workers > 1:
        return serve_forked(config, args.workers, err)
    uvicorn.Server(config).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server stand-alone (``python -m errcat.server``), with the catalog options."""
    parser = argparse.ArgumentParser(
        prog="python -m errcat.server",
        description="Serve the errcat HTTP API and paste page.",
        parents=[catalog_options()],
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))
