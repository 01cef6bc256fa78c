"""ASGI middleware that bounds what a client may send: body size and time to send it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = [
    "DEFAULT_BODY_TIMEOUT",
    "DEFAULT_MAX_BODY_BYTES",
    "ASGIApp",
    "BodyLimit",
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


class BodyLimit:
    """ASGI middleware: refuse bodies over a size (413) and bodies sent too slowly (408).

    A declared ``Content-Length`` over the limit is answered before anything is
    read; a streamed body is counted as it arrives and refused as soon as it
    goes over.
    """

    def __init__(self, app: ASGIApp, max_body_bytes: int, body_timeout: float) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.body_timeout = body_timeout

    async def _refuse(self, send: Send, status: int, detail: str) -> None:
        import json

        body = json.dumps({"detail": detail}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass a request on with its body counted and timed (other scopes as they are)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from starlette.exceptions import HTTPException

        limit = self.max_body_bytes
        too_large = f"Request body is larger than {limit} bytes"
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await self._refuse(send, 400, "Invalid Content-Length")
                    return
                if declared > limit:
                    await self._refuse(send, 413, too_large)
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
                if received > limit:
                    raise HTTPException(413, too_large)
                body_done = not message.get("more_body", False)
            return message

        await self.app(scope, limited, send)
