"""Match many error texts at once, on every core when the batch is big enough to pay.

Workers are forked from the calling process, so they share its catalog and
index (copy-on-write) instead of loading them again; each returns the few
values that identify a match (its wire form, with the chain's other answers
and the records it cannot be told from) and the parent rebuilds the
:class:`Match`.
Where ``fork`` is not available, or for small batches, matching runs in the
calling thread. Results come back in input order.

>>> from errcat.batch import match_many
>>> [
...     m.summary.id if m else None
...     for m in match_many(
...         [
...             "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend. "
...             "Select another --speculative-moe-a2a-backend.",
...             "no error here",
...         ]
...     )
... ]
['3fe9ad44079a5344', None]
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from errcat.catalog import Catalog
from errcat.matcher import Match, match_error

__all__ = ["PARALLEL_MIN", "match_many"]

#: Batches smaller than this are matched in the calling process.
PARALLEL_MIN = 2000
_CHUNK = 256

# The catalog a forked worker matches against (set in the parent just before forking).
_worker_catalog: Catalog | None = None


def _encode(match: Match | None, catalog: Catalog) -> tuple[Any, ...] | None:
    return None if match is None else match._to_wire(catalog.parts)


def _decode(data: tuple[Any, ...] | None, catalog: Catalog) -> Match | None:
    return None if data is None else Match._from_wire(data, catalog.parts)


def _work(chunk: list[str]) -> list[tuple[Any, ...] | None]:
    catalog = _worker_catalog
    assert catalog is not None
    return [_encode(match_error(text, catalog=catalog), catalog) for text in chunk]


def _chunks(texts: Iterable[str]) -> Iterator[list[str]]:
    it = iter(texts)
    while chunk := list(islice(it, _CHUNK)):
        yield chunk


def match_many(
    texts: Iterable[str],
    catalog: Catalog | None = None,
    *,
    workers: int | None = None,
) -> Iterator[Match | None]:
    """:func:`~errcat.match_error` for each text, in order.

    ``workers`` is the number of processes (default: the cores available, used
    once the batch holds :data:`PARALLEL_MIN` texts; 1 matches in this process).
    """
    cat = catalog if catalog is not None else Catalog.default()
    texts = iter(texts)
    head = list(islice(texts, PARALLEL_MIN))
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    count = workers if workers is not None else (available or 1)
    if count < 1:
        raise ValueError(f"workers must be at least 1, got {count!r}")
    parallel = (
        count > 1
        and (len(head) >= PARALLEL_MIN or workers is not None)
        and "fork" in multiprocessing.get_all_start_methods()
    )
    if not parallel:
        for text in head:
            yield match_error(text, catalog=cat)
        for text in texts:
            yield match_error(text, catalog=cat)
        return
    global _worker_catalog  # noqa: PLW0603 - handed to forked workers, see module docstring
    for store in cat.parts:
        _ = store.index  # build before forking so the workers share it
    _worker_catalog = cat
    context = multiprocessing.get_context("fork")
    try:
        with context.Pool(count) as pool:
            stream = _chunks(_joined(head, texts))
            for results in pool.imap(_work, stream):
                for data in results:
                    yield _decode(data, cat)
    finally:
        _worker_catalog = None


def _joined(head: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from head
    yield from rest
