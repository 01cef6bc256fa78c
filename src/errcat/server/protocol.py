"""uvicorn's HTTP/1.1 protocol with a deadline for a request's headers (slow-loris).

uvicorn waits for a request's headers as long as the client keeps the
connection open, and counts every open connection against its concurrency
limit, so a few hundred connections that never finish their headers made it
answer 503 to everyone. Here a connection must finish a request's headers
within ``header_timeout`` seconds of opening (or of its previous response),
else it is closed; and the limit on concurrency counts requests being
answered (:class:`errcat.server.limits.InFlightLimit`), not idle connections.
"""

from __future__ import annotations

import asyncio
from typing import Any

__all__ = ["DEFAULT_HEADER_TIMEOUT", "protocol_with_header_timeout"]

#: Seconds a connection may take to send a request's headers.
DEFAULT_HEADER_TIMEOUT = 10.0


def protocol_with_header_timeout(header_timeout: float) -> type[asyncio.Protocol]:
    """An ``h11`` protocol class for ``uvicorn.Config(http=...)`` closing slow connections."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderDeadlineProtocol(H11Protocol):
        """Closes a connection whose request headers are not all in within the deadline."""

        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(header_timeout, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if self.cycle is None or self.cycle.response_complete:  # no request under way
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()  # the headers are in: the body has its own deadline

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's headers

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeaderDeadlineProtocol
