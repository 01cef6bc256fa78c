"""errcat for AI assistants: an MCP server with tools to match errors, show records and scan logs.

``pip install 'errcat[mcp]'`` and run ``errcat mcp`` (stdio; ``--transport
http`` for streamable HTTP). :mod:`errcat.mcp.tools` holds what the tools do
as plain functions (no SDK needed); :mod:`errcat.mcp.server` registers them
with the official MCP Python SDK; :mod:`errcat.mcp.command` is the command.
Importing this package does not import the SDK.

>>> from errcat.mcp import RECORD_URI
>>> RECORD_URI.format(key="3fe9ad44079a5344")
'errcat://records/3fe9ad44079a5344'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from errcat.mcp.tools import RECORD_URI, ToolInputError, Tools

if TYPE_CHECKING:
    from errcat.mcp.server import McpUnavailableError, create_server

__all__ = ["RECORD_URI", "McpUnavailableError", "ToolInputError", "Tools", "create_server"]


def __getattr__(name: str) -> Any:
    if name in ("create_server", "McpUnavailableError"):
        from errcat.mcp import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
