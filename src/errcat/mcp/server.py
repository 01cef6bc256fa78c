"""errcat as an MCP server: the tools and resources, on the official MCP Python SDK.

Needs the ``mcp`` extra (``pip install 'errcat[mcp]'``). :func:`create_server`
builds the server over a catalog; ``errcat mcp`` runs it over stdio (what
desktop assistants and IDEs launch) or streamable HTTP.

Tools (their input and output JSON schemas come from the signatures and the
models of :mod:`errcat.mcp.tools`):

``match_error(text, limit=3)``
    the records that explain a pasted error, best first, with confidence,
    captured values and advice, and a ready Markdown reply;
``show_record(id)``
    one record by id or slug, with its advice;
``search_records(query, repo, error_class, tag, limit, offset)``
    records whose class, message, slug or file hold every query word;
``scan_log(path, limit=20)``
    the exception events of a log file, grouped by record with counts and
    first and last lines.

Resources: ``errcat://records/{key}``, a record (by id or slug) as stored.
A call with bad input (an empty text, an unknown id, a path outside the
allowed log directories, a limit out of range) gets a tool error that says
why (``isError`` with the message), never a crash of the server.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from errcat.errors import ErrcatError
from errcat.mcp.tools import (
    MAX_LIMIT,
    MAX_TEXT_CHARS,
    RECORD_URI,
    MatchResult,
    RecordDetail,
    ScanResult,
    SearchResult,
    Tools,
)

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from errcat.catalog import Catalog

__all__ = ["INSTRUCTIONS", "McpUnavailableError", "create_server"]

_INSTALL_HINT = "errcat's MCP server needs the MCP Python SDK: pip install 'errcat[mcp]'"

#: What the server tells the assistant about itself.
INSTRUCTIONS = (
    "errcat maps a Python error (a traceback, a server log excerpt, a bare 'ValueError: ...' "
    "line) to the catalog record that explains it: the code that raised it, the values in "
    "the message, why it happens and how to fix it. Its catalog holds sglang's and vllm's "
    "raise sites. Call match_error with the user's whole paste (the full traceback gives "
    "the best answer); trust an answer whose 'confident' is true, and say so when none is. "
    "Quote the solutions and the example fix; link source_url. scan_log summarises a log "
    "file's errors."
)


class McpUnavailableError(ErrcatError, ImportError):
    """The ``mcp`` extra (the MCP Python SDK) is not installed."""


def create_server(
    catalog: Catalog,
    *,
    log_roots: Sequence[str | os.PathLike[str]] | None = None,
    name: str = "errcat",
) -> MCPServer:
    """The MCP server (the SDK's ``MCPServer``) over ``catalog``.

    ``log_roots`` are the directories ``scan_log`` may read under; ``None``
    lets it read any file the process can (right for stdio, where the client
    is the user's own assistant).
    """
    from errcat import __version__

    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
        from mcp.types import ToolAnnotations
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise McpUnavailableError(f"{_INSTALL_HINT} ({exc})") from None

    tools = Tools(catalog, log_roots=log_roots)
    server: MCPServer = MCPServer(
        name=name,
        title="errcat: Python error catalog",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    def failed(exc: ErrcatError) -> ToolError:
        return ToolError(str(exc))

    @server.tool(title="Match a Python error to its catalog record", annotations=read_only)
    def match_error(
        text: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_TEXT_CHARS,
                description=(
                    "The error as pasted: a traceback, log lines, or a 'Class: message' line."
                ),
            ),
        ],
        limit: Annotated[int, Field(ge=1, le=20, description="Most candidates to list.")] = 3,
    ) -> MatchResult:
        """Find the catalog records that explain an error, best first, with fixes.

        Each match has the record (where the error is raised, linked to the
        source), a calibrated confidence, the values captured from the message,
        and the advice: why it happens, solutions, an example fix.
        """
        try:
            return tools.match_error(text, limit)
        except ErrcatError as exc:
            raise failed(exc) from None

    @server.tool(title="Show one catalog record", annotations=read_only)
    def show_record(
        id: Annotated[str, Field(min_length=1, max_length=200, description="A record id or slug.")],
    ) -> RecordDetail:
        """One record by its id (16 hex digits) or slug, with its advice."""
        try:
            return tools.show_record(id)
        except ErrcatError as exc:
            raise failed(exc) from None

    @server.tool(title="Search the catalog's records", annotations=read_only)
    def search_records(  # noqa: PLR0917 - the tool's inputs, passed by name
        query: Annotated[
            str,
            Field(
                max_length=1000,
                description="Words that must all occur in the class, message, slug, file or id.",
            ),
        ] = "",
        repo: Annotated[
            str | None, Field(description="Only this repository, e.g. 'vllm-project/vllm'.")
        ] = None,
        error_class: Annotated[
            str | None, Field(description="Only this exception class (full or last part).")
        ] = None,
        tag: Annotated[str | None, Field(description="Only records with this tag.")] = None,
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="Page size.")] = 10,
        offset: Annotated[int, Field(ge=0, description="Records to skip.")] = 0,
    ) -> SearchResult:
        """Records whose text holds every query word, filtered by repo, class and tag."""
        try:
            return tools.search_records(
                query, repo=repo, error_class=error_class, tag=tag, limit=limit, offset=offset
            )
        except ErrcatError as exc:
            raise failed(exc) from None

    @server.tool(title="Summarise the errors of a log file", annotations=read_only)
    def scan_log(
        path: Annotated[
            str,
            Field(min_length=1, description="A log file on the server's machine (.gz, .zst too)."),
        ],
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="Most groups to list.")] = 20,
    ) -> ScanResult:
        """Every exception event of a log file, grouped by record, with counts and line numbers."""
        try:
            return tools.scan_log(path, limit)
        except ErrcatError as exc:
            raise failed(exc) from None

    @server.resource(
        RECORD_URI,
        name="record",
        title="An errcat record",
        description="A catalog record by id or slug, as stored ({record, datasetVersion}).",
        mime_type="application/json",
    )
    def record(key: str) -> str:
        try:
            return tools.record_json(key)
        except ErrcatError as exc:
            raise ResourceNotFoundError(str(exc)) from None

    return server
