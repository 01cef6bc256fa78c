"""A record that cannot reach the answer is left once its class and site are known.

When one answer is asked for, :meth:`errcat.matcher.collect._Collector.add` bounds
each record's confidence by its class state and frame kind
(:func:`errcat.matcher.score.record_ceiling`: only whether the text names its project
is left open) and leaves a record whose bound is under what the report holds, unless
:func:`~errcat.matcher.score.may_lift` says its score is set rather than fitted. These
tests check the answers against a matcher that never leaves one, on generated catalogs
where one message is raised at several sites, in several files and projects, with
tracebacks through some of them; and the bound against the confidence it bounds.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.confidence import probability, record_logit
from errcat.matcher import collect, match_all, match_error, score
from errcat.matcher.score import may_lift, record_ceiling
from errcat.patterns import template_to_pattern

_TEMPLATES = st.sampled_from(
    [
        "cannot load shard {n} of model {name}",
        "invalid value {x}",
        "{name} must be positive",
        "shard {n} is missing",
        "",
        "{msg}",
        "No module named {name!r}",
    ]
)
_CLASSES = st.sampled_from(["ValueError", "RuntimeError", "pkg.errors.ShardError", "KeyError"])
_FILES = st.sampled_from(["src/pkg/core.py", "src/pkg/io.py", "src/other/core.py", "lib/x.py"])
_REPOS = st.sampled_from(["example/pkg", "example/other", "python/cpython", "vllm-project/vllm"])
_VALUES = st.sampled_from(["3", "'llama'", "x y", "vllm", "'vllm._C'"])


@st.composite
def _case(draw: st.DrawFn) -> tuple[Catalog, str]:
    sites = draw(
        st.lists(st.tuples(_TEMPLATES, _CLASSES, _FILES, _REPOS, st.integers(1, 30)), max_size=8)
    )
    shown = draw(_TEMPLATES)
    sites.append((shown, draw(_CLASSES), draw(_FILES), draw(_REPOS), draw(st.integers(1, 30))))
    envelopes = [
        make_envelope(
            id=f"{n:016x}",
            slug=f"record-{n}",
            repo=repo,
            errorClass=cls,
            errorMessage=template,
            messagePattern=template_to_pattern(template),
            filePath=path,
            lineNumber=line,
            # The import system's own record, set at 0.99 in its very form (may_lift).
            tags=["errcat:native:import-missing-module"] if repo == "python/cpython" else [],
        )
        for n, (template, cls, path, repo, line) in enumerate(sites)
    ]
    message = shown
    while "{" in message:
        start = message.index("{")
        end = message.index("}", start)
        message = message[:start] + draw(_VALUES) + message[end + 1 :]
    cls = draw(st.one_of(_CLASSES, st.just("")))
    text = f"{cls}: {message}" if cls else message
    frames = draw(st.lists(st.tuples(_FILES, st.integers(1, 30)), max_size=3))
    if frames:
        text = (
            "Traceback (most recent call last):\n"
            + "".join(f'  File "/x/{path}", line {line}, in f\n    g()\n' for path, line in frames)
            + text
        )
    if draw(st.booleans()):
        text = "python -m vllm.entrypoints.openai.api_server\n" + text
    return Catalog(envelopes), text


def _answers(catalog: Catalog, text: str) -> tuple[object, ...]:
    def key(m: object) -> object:
        if m is None:
            return None
        return (m.summary.id, m.confidence, m.mode, m.params, m.alternatives, m.related)  # type: ignore[attr-defined]

    return (
        key(match_error(text, catalog=catalog)),
        tuple(key(m) for m in match_all(text, catalog=catalog, limit=1)),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case())
def test_leaving_records_by_their_ceiling_changes_no_answer(case: tuple[Catalog, str]) -> None:
    catalog, text = case
    fast = _answers(catalog, text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(collect, "record_ceiling", lambda *_: math.inf)
        slow = _answers(catalog, text)
    assert fast == slow


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case())
def test_a_record_scores_at_most_its_ceiling(case: tuple[Catalog, str]) -> None:
    catalog, text = case
    scored: list[tuple[float, float]] = []
    real = score._score

    def checked(**kwargs: object) -> object:
        out = real(**kwargs)  # type: ignore[arg-type]
        evidence = kwargs["evidence"]
        text_evidence = kwargs["text"]
        ceiling = probability(
            kwargs["text_logit"] + record_ceiling(evidence.state, evidence.site.kind),  # type: ignore[attr-defined, operator]
            bare=text_evidence.bare,  # type: ignore[attr-defined]
        )
        at_site = kwargs["wordless"] and evidence.site.kind == "site"  # type: ignore[attr-defined]
        if not (at_site or evidence.import_system):  # type: ignore[attr-defined]
            scored.append((out[0], ceiling))
        return out

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(collect, "_score", checked)
        patch.setattr(collect, "record_ceiling", lambda *_: math.inf)  # score every record
        match_all(text, catalog=catalog, limit=5)
    for confidence, ceiling in scored:
        assert confidence <= ceiling + 1e-12


def test_the_ceiling_is_the_better_of_the_project_named_or_not() -> None:
    for state in ("agree", "custom", "disagree", "unknown"):
        for kind in ("site", "raise_file", "file", "package", "elsewhere", "none"):
            both = [record_logit(state, kind, named=named) for named in (False, True)]
            assert record_ceiling(state, kind) == max(both)


def test_only_the_interpreter_s_records_and_wordless_patterns_at_a_site_may_be_lifted() -> None:
    assert may_lift("python/cpython", False) and may_lift("example/pkg", True)
    assert not may_lift("example/pkg", False)
