"""ASGI middleware bounding what clients may ask: body size and time, requests at once."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

__all__ = [
    "DEFAULT_BODY_TIMEOUT",
    "DEFAULT_MAX_BODY_BYTES",
    "DRAIN_BYTES",
    "ASGIApp",
    "BodyLimit",
    "InFlightLimit",
    "Message",
    "Receive",
    "Scope",
    "Send",
]


#: Requests with a larger body are refused with 413.
DEFAULT_MAX_BODY_BYTES = 1 << 20


#: Seconds a client may take to send a request body before it gets 408.
DEFAULT_BODY_TIMEOUT = 30.0


Scope = MutableMapping[str, Any]


Message = MutableMapping[str, Any]


Receive = Callable[[], Awaitable[Message]]


Send = Callable[[Message], Awaitable[None]]


ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


#: A body over the limit is read (and dropped) up to this many bytes before the 413 is
#: sent, so that the client, still sending, reads the 413 instead of a reset connection.
DRAIN_BYTES = 16 << 20
#: ... for at most this many seconds.
DRAIN_SECONDS = 5.0


async def _refuse(
    send: Send, status: int, detail: str, headers: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _drain(receive: Receive, seconds: float) -> None:
    """Read and drop what the client is still sending of a refused body (bounded)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    dropped = 0
    while dropped <= DRAIN_BYTES:
        try:
            message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
        except asyncio.TimeoutError:
            return
        if message["type"] != "http.request":
            return
        dropped += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


class BodyLimit:
    """ASGI middleware: refuse bodies over a size (413) and bodies sent too slowly (408).

    A declared ``Content-Length`` over the limit is refused before the app sees
    the request, once what the client is sending is read and dropped (up to
    :data:`DRAIN_BYTES`), so that it gets the 413 rather than a connection
    reset under its upload; a streamed body (of unknown length) is counted as
    it arrives and refused as soon as it goes over.
    """

    def __init__(self, app: ASGIApp, max_body_bytes: int, body_timeout: float) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass a request on with its body counted and timed (other scopes as they are)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from starlette.exceptions import HTTPException

        limit = self.max_body_bytes
        too_large = f"Request body is larger than {limit} bytes"
        drain = min(self.body_timeout, DRAIN_SECONDS)
        expects_continue = False
        for name, value in scope.get("headers", ()):
            if name == b"expect" and value.lower() == b"100-continue":
                expects_continue = True  # the client waits: nothing of the body is on its way
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await _refuse(send, 400, "Invalid Content-Length")
                    return
                if declared > limit:
                    if not expects_continue and declared <= DRAIN_BYTES:
                        await _drain(receive, drain)
                    await _refuse(send, 413, too_large)
                    return
        received = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_timeout

        body_done = False

        async def limited() -> Message:
            nonlocal received, body_done
            if body_done:  # e.g. waiting for a disconnect: no deadline
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                raise HTTPException(408, "Request body not received in time") from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                body_done = not message.get("more_body", False)
                if received > limit:  # a body of unknown length: refused as it goes over
                    raise HTTPException(413, too_large)
            return message

        await self.app(scope, limited, send)


class InFlightLimit:
    """ASGI middleware: at most ``limit`` requests answered at once; more get 503 at once.

    Connections that are open but idle, or still sending their headers, do not
    count (uvicorn's own limit counted them: see :mod:`errcat.server.protocol`).
    ``GET /healthz`` is always answered.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.in_flight = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer the request, or 503 when ``limit`` are being answered already."""
        if scope["type"] != "http" or scope.get("path") == "/healthz":
            await self.app(scope, receive, send)
            return
        if self.in_flight >= self.limit:
            await _refuse(send, 503, "Too many requests at once; retry", [(b"retry-after", b"1")])
            return
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1
