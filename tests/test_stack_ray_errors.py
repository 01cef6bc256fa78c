"""Ray's dead-actor and dead-worker exceptions in errcat-data-distributed (written by hand).

``benchmarks/stack_curated/ray_errors.py`` writes the texts ray's exception
classes build themselves (``ActorDiedError``, ``WorkerCrashedError``), which no
``raise`` holds. These tests read the committed package: study-set dev pastes
(``benchmarks/data/study_stack.jsonl``, even-numbered threads) get the record,
including one whose worker detail mentions the OOM killer, the advice names only
flags the engines define, and any actor detail still fits the pattern.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import stack_package_catalog, study_stack_texts

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stack_curated import ray_errors  # noqa: E402
from stack_curated.spec import CURATED_TAG  # noqa: E402


def test_a_verl_style_dead_actor_paste_gets_rays_record_not_the_shells_killed() -> None:
    """rl-factory-8: the worker detail says 'killed by SIGKILL by OOM killer'; the final
    error is still ray's ActorDiedError, whose advice points at the OOM killer."""
    match = errcat.match_error(
        study_stack_texts()["rl-factory-8"], catalog=stack_package_catalog("distributed")
    )
    assert match is not None
    assert (match.record.repo, match.record.error_class) == (
        "ray-project/ray",
        "ray.exceptions.ActorDiedError",
    )
    assert CURATED_TAG in match.record.tags
    assert any("dmesg" in s for s in match.record.solutions)


def test_the_bare_title_line_gets_the_record_too() -> None:
    match = errcat.match_error(
        study_stack_texts()["rllm-8-title"], catalog=stack_package_catalog("distributed")
    )
    assert match is not None and match.record.file_path == "python/ray/exceptions.py"


def test_the_creation_task_form_and_a_crashed_task_get_their_own_records() -> None:
    init = (
        "ray.exceptions.ActorDiedError: The actor died because of an error raised in its"
        " creation task, ray::RolloutWorker.__init__() (pid=1, ip=10.0.0.1)"
    )
    match = errcat.match_error(init, catalog=stack_package_catalog("distributed"))
    assert match is not None and match.record.error_message == ray_errors.ACTOR_INIT_FAILED.template
    crashed = (
        "ray.exceptions.WorkerCrashedError: The worker died unexpectedly while executing this"
        " task. Check python-core-worker-*.log files for more information."
    )
    match = errcat.match_error(crashed, catalog=stack_package_catalog("distributed"))
    assert match is not None and match.record.error_class == "ray.exceptions.WorkerCrashedError"


def test_the_advice_names_only_flags_the_engines_define() -> None:
    flags = json.loads((ROOT / "tests" / "fixtures" / "engine_flags.json").read_text())
    known = frozenset().union(*map(frozenset, flags.values()))
    for record in ray_errors.RECORDS:
        text = " ".join([*record.solutions, record.example_fix, record.trigger])
        named = set(regex.findall(r"(?<![\w-])--[a-z][a-z0-9-]+", text))
        assert named <= known, (record.template, named - known)


def test_every_record_cites_its_source_and_only_even_numbered_threads() -> None:
    for record in ray_errors.RECORDS:
        assert record.references, record.template
        numbers = [int(n) for ref in record.references for n in regex.findall(r"/(\d+)$", ref)]
        assert all(n % 2 == 0 for n in numbers), (record.template, numbers)


_FIELD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_.:<>", min_size=1, max_size=30)


@settings(max_examples=40, deadline=None)
@given(fields=st.lists(_FIELD, max_size=6), detail=_FIELD)
def test_any_actor_detail_under_the_first_line_fits_the_pattern(
    fields: list[str], detail: str
) -> None:
    """ray appends the actor's fields (tab-indented) and the exit detail on new lines."""
    message = "\n".join([ray_errors.ACTOR_DIED.template, *(f"\tname: {f}" for f in fields), detail])
    pattern = ray_errors.ACTOR_DIED.envelope().record.message_pattern
    assert regex.fullmatch(pattern, message)
    assert not regex.fullmatch(pattern, "The actor died " + detail)
