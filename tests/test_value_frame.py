"""A log call that is mostly its values needs evidence beyond its words (matcher.value_frame)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD, make_envelope
from errcat.catalog import Catalog
from errcat.matcher import match_error
from errcat.matcher.value_frame import MAX_OWN_WORDS, mostly_values, own_text
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern
from errcat.tags import LOGGED_TAG

TEMPLATE = "Error executing {error_context}: {e}"


def _record(n: int, tags: list[str]) -> RecordEnvelope:
    return make_envelope(
        id=f"{n:016x}",
        slug=f"record-{n}",
        errorMessage=TEMPLATE,
        messagePattern=template_to_pattern(TEMPLATE),
        errorClass="RuntimeError",
        repo="sgl-project/sglang",
        filePath="python/sglang/multimodal_gen/runtime/managers/gpu_worker.py",
        tags=tags,
    )


LOGGED = Catalog([_record(1, [LOGGED_TAG])])
RAISED = Catalog([_record(2, [])])


@settings(max_examples=60, deadline=None)
@given(
    context=st.lists(ZQ_WORD, min_size=1, max_size=4),
    cause=st.lists(ZQ_WORD, min_size=1, max_size=5),
)
def test_another_projects_line_in_the_frame_is_no_answer(
    context: list[str], cause: list[str]
) -> None:
    """Hydra's "Error executing job with overrides: [...]" shape, nothing else: not the record's."""
    line = f"Error executing {' '.join(context)}: {' '.join(cause)}"
    assert match_error(line, catalog=LOGGED) is None


@settings(max_examples=40, deadline=None)
@given(
    context=st.lists(ZQ_WORD, min_size=1, max_size=4),
    cause=st.lists(ZQ_WORD, min_size=1, max_size=5),
)
def test_the_frame_answers_with_project_evidence(context: list[str], cause: list[str]) -> None:
    """The text naming the record's project is the evidence its own words lack."""
    line = f"Error executing {' '.join(context)}: {' '.join(cause)}"
    found = match_error(f"sglang launch_server failed\n{line}", catalog=LOGGED)
    assert found is not None and found.record.id == f"{1:016x}"


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(ZQ_WORD, min_size=0, max_size=6),
    values=st.integers(min_value=0, max_value=4),
)
def test_mostly_values_counts_own_words_and_values(words: list[str], values: int) -> None:
    """The rule's definition: two values or more, at most three short words of its own."""
    template = " ".join(words) + "".join(f" {{v{n}}}:" for n in range(values))
    own, found = own_text(template)
    assert found == values
    expected = values >= 2 and len(words) <= MAX_OWN_WORDS and len("".join(own.split())) <= 20
    assert mostly_values(template) is expected


def test_a_raised_template_keeps_its_answer() -> None:
    """Only log calls are held to it: a raise of the same words is weighed as before."""
    assert match_error("RuntimeError: Error executing zqa zqb: zqc", catalog=RAISED) is not None


@settings(max_examples=30, deadline=None)
@given(values=st.lists(ZQ_WORD, min_size=1, max_size=4), name=ZQ_WORD)
def test_a_capped_wrapper_beside_a_cut_traceback_still_gives_its_cause(
    values: list[str], name: str
) -> None:
    """A log call held under the cap still hands match_error what it captured (cut_wrapper)."""
    wrapper_template = "{name} failed: {e}, {tb}"
    wrapper = make_envelope(
        id=f"{3:016x}",
        slug="record-3",
        errorMessage=wrapper_template,
        messagePattern=template_to_pattern(wrapper_template),
        errorClass="RuntimeError",
        repo="zqorg/zqproj",
        filePath="zqproj/zqworker.py",
        tags=[LOGGED_TAG, "errcat:wrapper"],
    )
    cause_template = "zqshard {n} is missing from the zqstore of zqlib workers"
    cause = make_envelope(
        id=f"{4:016x}",
        slug="record-4",
        errorMessage=cause_template,
        messagePattern=template_to_pattern(cause_template),
        errorClass="ValueError",
    )
    catalog = Catalog([wrapper, cause])
    log = "(ZqWorker pid=7) ERROR 08-05 23:29:38 zqworker.py:226] "
    paste = (
        f"{log}{name} failed: zqshard {' '.join(values)} is missing from the zqstore of zqlib "
        "workers, Traceback (most recent call last):\n"
        f'{log}  File "/x/zqlib/run.py", line 9, in run\n'
        f"{log}    output = executor(*args)"
    )
    found = match_error(paste, catalog=catalog)
    assert found is not None and found.record.id == f"{4:016x}"
