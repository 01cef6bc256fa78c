"""match_many: the same answers as match_error, whether matched here or in forked workers."""

from __future__ import annotations

import multiprocessing

import pytest

from conftest import make_envelope
from errcat.batch import match_many
from errcat.catalog import Catalog
from errcat.matcher import Match, match_error
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern

CHAIN = (
    "Traceback (most recent call last):\n"
    '  File "/app/loader.py", line 10, in load\n'
    "ValueError: checkpoint shard 3 is missing from the weights\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "Traceback (most recent call last):\n"
    '  File "/app/main.py", line 20, in main\n'
    "RuntimeError: could not load the model weights from /ckpt; see the cause above\n"
)
#: Raised at two sites: without frames the text cannot tell which.
SHARED = "ValueError: the tokenizer has no chat template for this model"


def catalog() -> Catalog:
    def record(rid: str, path: str, line: int, cls: str, template: str) -> RecordEnvelope:
        return make_envelope(
            id=rid,
            slug=f"r-{rid}",
            filePath=path,
            lineNumber=line,
            sourceCodeStart=max(1, line - 18),
            sourceCodeEnd=line + 18,
            errorClass=cls,
            errorMessage=template,
            messagePattern=template_to_pattern(template),
        )

    shared = "the tokenizer has no chat template for this model"
    return Catalog(
        [
            record(
                "00000000000000a1",
                "app/loader.py",
                10,
                "ValueError",
                "checkpoint shard {n} is missing",
            ),
            record(
                "00000000000000b2",
                "app/main.py",
                20,
                "RuntimeError",
                "could not load the model weights from {path}; see the cause above",
            ),
            record("00000000000000c3", "app/chat.py", 40, "ValueError", shared),
            record("00000000000000d4", "app/serve.py", 80, "ValueError", shared),
        ]
    )


def summary(m: Match | None) -> object:
    if m is None:
        return None
    return (
        m.summary.id,
        m.confidence,
        m.mode,
        dict(m.params),
        m.span,
        m.reasons,
        [summary(r) for r in m.related],
        [a.id for a in m.alternatives],
    )


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="workers are forked"
)
def test_forked_workers_answer_as_this_process_does_with_related_and_alternatives() -> None:
    cat = catalog()
    texts = [CHAIN, SHARED, "nothing to see", CHAIN]
    here = [match_error(t, catalog=cat) for t in texts]
    assert here[0] is not None and [r.summary.id for r in here[0].related] == ["00000000000000a1"]
    assert here[1] is not None and len(here[1].alternatives) == 1
    forked = list(match_many(texts, catalog=cat, workers=2))
    assert [summary(m) for m in forked] == [summary(m) for m in here]
    assert forked[0] is not None and forked[0].record.id == "00000000000000b2"


def test_one_worker_matches_in_this_process() -> None:
    cat = catalog()
    assert [summary(m) for m in match_many([SHARED], catalog=cat, workers=1)] == [
        summary(match_error(SHARED, catalog=cat))
    ]
