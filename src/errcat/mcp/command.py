"""The ``errcat mcp`` command: serve errcat's tools to AI assistants over MCP.

Over stdio (the default) an assistant launches ``errcat mcp`` itself and talks
over its stdin and stdout; ``--transport http`` serves streamable HTTP at
``http://HOST:PORT/mcp`` instead, for clients that connect to a URL. The
catalog is loaded and indexed before the server answers.

>>> import argparse
>>> p = argparse.ArgumentParser(prog="errcat mcp")
>>> add_arguments(p)
>>> args = p.parse_args(["--transport", "http", "--port", "9000", "--log-root", "/var/log"])
>>> args.transport, args.port, args.log_root
('http', 9000, ['/var/log'])
"""

from __future__ import annotations

import argparse
import sys
from typing import IO, Any, TextIO

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``errcat mcp`` (the catalog options come from the main CLI)."""
    parser.add_argument(
        "--transport",
        choices=("stdio", "http"),
        default="stdio",
        help="stdio (launched by the client; default) or streamable HTTP",
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765)")
    parser.add_argument(
        "--path", default="/mcp", help="HTTP path of the MCP endpoint (default /mcp)"
    )
    parser.add_argument(
        "--log-root",
        action="append",
        metavar="DIR",
        help="scan_log reads only files under DIR (repeatable); over HTTP scan_log is off "
        "without one, over stdio it reads any file the user can",
    )


def run(
    args: argparse.Namespace,
    *,
    stdin: IO[Any] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the server until the client disconnects (stdio) or it is interrupted (HTTP).

    Over stdio the protocol owns the process's real standard streams; ``stdin``
    and ``stdout`` are not used. Returns 0, or 2 for bad usage.
    """
    from errcat.cli_common import catalog_from_args
    from errcat.mcp.server import create_server

    err = stderr if stderr is not None else sys.stderr
    if not 0 < args.port < 65536:
        print(f"errcat mcp: error: --port must be 1-65535, got {args.port}", file=err)
        return 2
    catalog = catalog_from_args(args, err, prog="errcat mcp")
    catalog.index  # noqa: B018 - build the match index before the first call
    roots = args.log_root
    if roots is None and args.transport == "http":
        roots = []  # remote callers read no file unless the operator says where
    server = create_server(catalog, log_roots=roots)
    if args.transport == "stdio":
        server.run("stdio")
    else:
        print(
            f"errcat mcp: serving streamable HTTP at http://{args.host}:{args.port}{args.path}",
            file=err,
        )
        server.run(
            "streamable-http", host=args.host, port=args.port, streamable_http_path=args.path
        )
    return 0
