"""The history reader (errcat.history): sidecars read once under a lock, damage reported."""

from __future__ import annotations

import gzip
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.errors import CatalogSourceError, InvalidRecordError
from errcat.history import History, Lineage, Revision, Site, attach, history_of

OLD = Revision("v1", "a" * 40, datetime(2025, 1, 5, tzinfo=timezone.utc))
NEW = Revision("v2", "b" * 40, datetime(2025, 4, 2, tzinfo=timezone.utc))


def _history(count: int = 3) -> History:
    lineages = [
        Lineage(f"{n:016x}", (Site(OLD, f"pkg/m{n}.py", 10 + n), Site(NEW, f"pkg/m{n}.py", 12 + n)))
        for n in range(count)
    ]
    return History("o/r", (OLD, NEW), lineages)


class _Store:
    """Anything a history can be attached to (weak-referenceable)."""


def test_threads_asking_at_once_all_get_the_history_being_read() -> None:
    """Case 9 of issue 28: the first thread read the sidecar while the others answered
    without it (history_of popped the pending loader before the history was attached)."""
    store = _Store()
    history = _history()
    calls: list[int] = []

    def slow_load() -> History:
        calls.append(1)
        time.sleep(0.2)  # a large sidecar being read
        return history

    attach(store, slow_load)
    barrier = threading.Barrier(16)
    seen: list[History | None] = [None] * 16

    def ask(n: int) -> None:
        barrier.wait()
        seen[n] = history_of(store)

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(found is history for found in seen)
    assert calls == [1]  # read once


def test_a_lazy_sidecar_parses_its_body_once_for_many_threads(tmp_path: Path) -> None:
    path = tmp_path / "cat.history.json"
    _history(200).dump(path)
    loaded = History.load(path)
    barrier = threading.Barrier(8)
    sizes: list[int] = []

    def count() -> None:
        barrier.wait()
        sizes.append(len(loaded))

    threads = [threading.Thread(target=count) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sizes == [200] * 8


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    data=st.data(),
    compressed=st.booleans(),
)
def test_damaged_sidecars_give_clear_errors_or_lineages(
    tmp_path: Path, data: st.DataObject, compressed: bool
) -> None:
    """Any damage to a sidecar (cut, bytes changed, inserted) is a CatalogSourceError or an
    InvalidRecordError naming the file, never another exception; what is read is a lineage."""
    good = tmp_path / "good.history.json"
    _history(6).dump(good)
    raw = bytearray(good.read_bytes())
    how = data.draw(st.sampled_from(["cut", "flip", "insert"]))
    at = data.draw(st.integers(0, len(raw)))
    if how == "cut":
        raw = raw[:at]
    elif how == "flip" and at < len(raw):
        raw[at] = data.draw(st.integers(0, 255))
    else:
        raw[at:at] = data.draw(st.binary(min_size=1, max_size=8))
    name = "bad.history.json" + (".gz" if compressed else "")
    bad = tmp_path / name
    payload = bytes(raw)
    if compressed:
        payload = gzip.compress(payload, mtime=0)
        if data.draw(st.booleans()):  # the compression damaged too
            payload = payload[: data.draw(st.integers(0, len(payload)))]
    bad.write_bytes(payload)
    problem: Exception | None = None
    try:
        history = History.load(bad)
        for n in range(8):
            lineage = history.lineage(f"{n:016x}")
            assert lineage is None or isinstance(lineage, Lineage)
        assert len(list(history)) <= 6 + 8
    except (CatalogSourceError, InvalidRecordError) as exc:
        problem = exc
    assert problem is None or name in str(problem)


def test_a_deeply_nested_sidecar_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "deep.history.json"
    bad.write_text('{"errcatHistory": 1, "revisions": ' + "[" * 5000 + "]" * 5000 + "}")
    with pytest.raises(CatalogSourceError, match=r"deep\.history\.json"):
        History.load(bad)
