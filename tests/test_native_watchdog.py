"""torch's NCCL watchdog lines and the watchdog thread's death (native_catalog.watchdog).

Curated into ``curated/pytorch__pytorch.native.jsonl`` (the bundled data holds them
once the lead rebuilds ``data/``). A paste that ends in one of the lines around a
failed collective gets the timeout kind; the thread's death is a wrapper, so the
error it carries answers: a collective timeout printed in terminal-wrapped lines, or a
CUDA error the watchdog hit (study-set dev pastes, even-numbered threads).
"""

from __future__ import annotations

import pytest

import errcat
from conftest import curated_over_bundled, study_stack_texts

#: The curated file of these records (the bundled data holds them after a rebuild).
_FILE = "pytorch__pytorch.native.jsonl"


@pytest.mark.parametrize(
    ("paste", "kind"),
    [
        ("sglang-3932", "nccl-watchdog-timeout"),  # ends in 'Some NCCL operations have failed...'
        ("verl-1420", "nccl-watchdog-timeout"),  # ends in 'Stack trace ... not found'
        ("open-r1-620", "nccl-watchdog-timeout"),  # the thread's death around a wrapped timeout
        ("vllm-2682", "cuda-other"),  # the thread's death around 'CUDA error: unknown error'
    ],
)
def test_a_watchdog_paste_is_answered_by_the_error_it_reports(paste: str, kind: str) -> None:
    match = errcat.match_error(study_stack_texts()[paste], catalog=curated_over_bundled(_FILE))
    assert match is not None
    assert f"errcat:native:{kind}" in match.record.tags


def test_the_watchdog_threads_death_is_a_wrapper_kept_beside_the_answer() -> None:
    match = errcat.match_error(
        study_stack_texts()["vllm-2682"],
        catalog=curated_over_bundled(_FILE),
    )
    assert match is not None
    assert any("errcat:wrapper" in m.record.tags for m in match.related)


def test_the_pg_prefixed_line_alone_gets_the_timeout_record() -> None:
    line = (
        "[PG ID 2 PG GUID 3 Rank 3] Exception (either an error or timeout) detected by watchdog"
        " at work: 32, last enqueued NCCL work: 32, last completed NCCL work: 31."
    )
    match = errcat.match_error(line, catalog=curated_over_bundled(_FILE))
    assert match is not None and "errcat:native:nccl-watchdog-timeout" in match.record.tags
