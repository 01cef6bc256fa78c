"""A catalog in several parts (the bundled data and each plug-in) answers as one part would."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.matcher import match_all
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern
from errcat.store.memory import MemoryStore

WORDS = (
    "engine", "cache", "tokens", "prefill", "worker", "backend", "adapter", "block",
    "shard", "rank", "layer", "expert", "quantized", "kernel", "request", "stream",
)  # fmt: skip


def _record(template: str, path: str) -> RecordEnvelope:
    return make_envelope(
        id=hashlib.sha256(template.encode()).hexdigest()[:16],
        slug=hashlib.sha256(path.encode()).hexdigest()[:12],
        errorMessage=template,
        messagePattern=template_to_pattern(template),
        filePath=path,
    )


@settings(max_examples=60, deadline=None)
@given(
    head=st.lists(st.sampled_from(WORDS), min_size=5, max_size=9),
    tail=st.lists(st.sampled_from(WORDS), min_size=4, max_size=8),
    value=st.integers(min_value=0, max_value=10**6),
)
def test_a_message_one_record_explains_is_not_read_as_another_part_s_record_cut_off(
    head: list[str], tail: list[str], value: int
) -> None:
    # The message is the whole of one record's template and the start of another's
    # (in another part): with one record explaining it, no part reads it as cut off,
    # exactly as when both records are in one part.
    words = " ".join(head)
    whole = _record(f"{words} {{value}}", "pkg/a.py")
    longer = _record(f"{words} {{value}} and then {' '.join(tail)}", "pkg/b.py")
    message = f"ValueError: {words} {value}"
    one = Catalog([whole, longer])
    parts = Catalog.of_stores([MemoryStore([whole]), MemoryStore([longer])])
    together = [(m.summary.id, m.mode) for m in match_all(message, catalog=one)]
    apart = [(m.summary.id, m.mode) for m in match_all(message, catalog=parts)]
    assert sorted(apart) == sorted(together)
    assert (whole.record.id, "full") in apart
