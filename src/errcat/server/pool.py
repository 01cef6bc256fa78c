"""The matching threads: work bounded by its cost, and stopped when nobody waits for it.

Matching a long text costs in proportion to it (a 250,000-character paste takes
seconds). So a request is *heavy* when its text is longer than
:data:`HEAVY_CHARS`: heavy requests run in a lane of their own (a quarter of
the threads, at least one) and, when that lane is busy, are answered 503 at
once instead of queueing; the other threads are left to ordinary requests,
which long ones can then never crowd out. A request not answered within its
time limit gets 503, and its work stops: work not started is cancelled, and
work running is interrupted (an exception raised in its thread, which the
matching code unwinds like any other).

>>> import asyncio
>>> pool = MatchPool(threads=2, timeout=5.0)
>>> asyncio.run(pool.run(len, "ValueError: x", cost=13))
13
>>> pool.shutdown()
"""

from __future__ import annotations

import asyncio
import ctypes
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, TypeVar

__all__ = ["HEAVY_CHARS", "Busy", "MatchPool", "TimedOut"]

#: A request whose text is longer than this is heavy (see the module docstring).
HEAVY_CHARS: Final = 16 * 1024

_T = TypeVar("_T")


class Busy(Exception):  # noqa: N818 - a state, as asyncio.TimeoutError is
    """Every thread that could take this request is taken: try again shortly."""


class TimedOut(Exception):  # noqa: N818
    """The request was not answered within its time limit (its work was stopped)."""


class _Abandoned(BaseException):
    """Raised inside a worker thread whose request nobody waits for any more."""


class _Task:
    """One request's work: which thread runs it, so that it can be stopped."""

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.fn = fn
        self.args = args
        self.lock = threading.Lock()
        self.thread: int | None = None  # the running thread's id, while it runs
        self.abandoned = False

    def run(self) -> Any:
        """Run the work in this (worker) thread; None when it was abandoned."""
        try:
            return self._run()
        except _Abandoned:  # (also when it arrives as the work ends)
            return None

    def _run(self) -> Any:
        with self.lock:
            if self.abandoned:
                return None
            self.thread = threading.get_ident()
        try:
            return self.fn(*self.args)
        finally:
            with self.lock:  # from here on nothing is sent to this thread
                self.thread = None
                _send(threading.get_ident(), None)  # one sent but not raised yet

    def abandon(self) -> None:
        """Stop the work: it will not start, or it is interrupted where it is."""
        with self.lock:
            self.abandoned = True
            if self.thread is not None:
                _send(self.thread, _Abandoned)


def _send(thread: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` in another thread at its next bytecode (None clears a pending one)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread), ctypes.py_object(exc) if exc is not None else None
    )


class MatchPool:
    """Threads for matching, in two lanes: ordinary requests, and heavy ones (long texts)."""

    def __init__(self, threads: int, timeout: float) -> None:
        if threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads!r}")
        heavy = max(1, threads // 4)
        light = max(1, threads - heavy)
        self.timeout = timeout
        self._light = ThreadPoolExecutor(light, thread_name_prefix="errcat-match")
        self._heavy = ThreadPoolExecutor(heavy, thread_name_prefix="errcat-match-long")
        self._heavy_free = threading.BoundedSemaphore(heavy)

    async def run(self, fn: Callable[..., _T], *args: Any, cost: int) -> _T:
        """``fn(*args)`` in a thread, within the time limit; :class:`Busy` or :class:`TimedOut`."""
        heavy = cost > HEAVY_CHARS
        if heavy and not self._heavy_free.acquire(blocking=False):
            raise Busy("a long text is being matched")
        task = _Task(fn, args)
        executor = self._heavy if heavy else self._light
        future = asyncio.get_running_loop().run_in_executor(executor, task.run)
        if heavy:
            future.add_done_callback(lambda _: self._heavy_free.release())
        try:
            result: _T = await asyncio.wait_for(asyncio.shield(future), self.timeout)
        except asyncio.TimeoutError:
            task.abandon()  # nobody waits for it: do not start it, or stop it
            raise TimedOut(f"not answered within {self.timeout:g} s") from None
        except asyncio.CancelledError:  # the client went away
            task.abandon()
            raise
        return result

    def shutdown(self) -> None:
        """Stop taking work; work queued is dropped."""
        self._light.shutdown(wait=False, cancel_futures=True)
        self._heavy.shutdown(wait=False, cancel_futures=True)
