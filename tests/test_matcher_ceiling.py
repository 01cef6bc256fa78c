"""A pattern whose text evidence cannot reach the results is skipped before that evidence is read.

:func:`errcat.matcher.text_evidence._text_ceiling` bounds the logit that
:func:`~errcat.matcher.text_evidence._text_evidence` would give; the matcher
skips a pattern whose bound falls below what its report already holds. These
tests check the bound against the evidence, and the answers against a matcher
that never skips (the bound taken as infinite), on generated catalogs whose
templates share words so that one message fits several of them.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.confidence import TextEvidence, text_logit_ceiling
from errcat.extract import extract_reports
from errcat.matcher import collect, match_all, match_error
from errcat.matcher.text_evidence import TextHit, _text_ceiling, _text_evidence
from errcat.matcher.verify import _verify
from errcat.patterns import template_to_pattern
from errcat.store import open_file_store
from errcat.text import fold_whitespace

#: Few words, so that templates overlap and a message fits several of them.
_WORDS = st.sampled_from(
    ["cannot", "load", "shard", "model", "config", "invalid", "value", "for", "the", "size"]
)
_PLACEHOLDERS = st.sampled_from(["{x}", "{name!r}", "{n}"])
_VALUES = st.sampled_from(["3", "'llama'", "/tmp/a.bin", "None", "ValueError: bad", "x y z"])
_CLASSES = st.sampled_from(["ValueError", "RuntimeError", "pkg.errors.ShardError"])


@st.composite
def _template(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(_WORDS, _PLACEHOLDERS), min_size=1, max_size=6))
    if all(p.startswith("{") for p in parts):
        parts.append(draw(_WORDS))
    return " ".join(parts) + draw(st.sampled_from(["", ".", ": {detail}"]))


@st.composite
def _case(draw: st.DrawFn) -> tuple[Catalog, str]:
    templates = draw(st.lists(_template(), min_size=1, max_size=6))
    classes = [draw(_CLASSES) for _ in templates]
    envelopes = [
        make_envelope(
            id=f"{n:016x}",
            slug=f"record-{n}",
            errorClass=cls,
            errorMessage=template,
            messagePattern=template_to_pattern(template),
        )
        for n, (template, cls) in enumerate(zip(templates, classes, strict=True))
    ]
    shown = draw(st.sampled_from(templates))
    message = shown
    while "{" in message:
        start = message.index("{")
        end = message.index("}", start)
        message = message[:start] + draw(_VALUES) + message[end + 1 :]
    message = draw(st.sampled_from(["", "worker failed: ", "the "])) + message
    message += draw(st.sampled_from(["", " (retry later)", "."]))
    cls = draw(st.one_of(_CLASSES, st.just("")))
    text = f"{cls}: {message}" if cls else message
    if draw(st.booleans()):
        text = (
            "Traceback (most recent call last):\n"
            '  File "/src/pkg/core.py", line 13, in load\n'
            "    raise ValueError(msg)\n" + text
        )
    return Catalog(envelopes), text


def _answers(catalog: Catalog, text: str) -> tuple[object, ...]:
    def key(m: object) -> object:
        return None if m is None else (m.summary.id, m.confidence, m.mode, m.exact, m.params)  # type: ignore[attr-defined]

    return (
        key(match_error(text, catalog=catalog)),
        tuple(key(m) for m in match_all(text, catalog=catalog, limit=1)),
        tuple(key(m) for m in match_all(text, catalog=catalog, limit=3)),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case())
def test_skipping_by_the_ceiling_changes_no_answer(case: tuple[Catalog, str]) -> None:
    catalog, text = case
    fast = _answers(catalog, text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(collect, "_text_ceiling", lambda _hit: math.inf)
        slow = _answers(catalog, text)
    assert fast == slow


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case(), st.booleans())
def test_the_ceiling_is_never_below_the_evidence(case: tuple[Catalog, str], bare: bool) -> None:
    catalog, text = case
    report = extract_reports(text)[-1]
    message = fold_whitespace(report.message)
    store = catalog.parts[0]
    for pid in range(len(store.index)):
        entry = store.index.entry(pid)
        hit = _verify(entry, message, use_pieces=store.index.uses_pieces)
        if hit is None:
            continue
        common: dict[str, Any] = {
            "entry": entry,
            "mode": hit.mode,
            "message": message,
            "matched_length": hit.end - hit.start,
            "captures": hit.groups,
            "literal": entry.literal_length,
            "bare": bare,
            "patterns": len(store.index),
        }
        text_hit = TextHit(**common)
        evidence, _, _ = _text_evidence(text_hit, error_class=report.error_class)
        assert _text_ceiling(text_hit) >= evidence.logit() - 1e-9


@given(
    st.fixed_dictionaries(
        {
            "mode": st.sampled_from(["full", "prefix", "inner", "truncated"]),
            "literal": st.integers(0, 200),
            "outside": st.floats(0, 1),
            "placeholders": st.integers(0, 8),
            "catalog_rarity": st.floats(1, 500),
            "present": st.floats(0, 1),
            "bare": st.booleans(),
        }
    ),
    st.floats(0, 1),
    st.floats(0, 120),
    st.integers(1, 50),
    st.booleans(),
)
def test_an_unknown_feature_is_taken_at_its_better_end(
    known: dict[str, Any], explained: float, information: float, background: int, builtin: bool
) -> None:
    evidence = TextEvidence(
        explained=explained,
        information=information,
        background=background,
        records=1,
        builtin=builtin,
        **known,
    )
    for explained_at_most in (explained, 1.0):
        for info in (information, None):
            for projects in (background, None):
                for c in (builtin, None):
                    ceiling = text_logit_ceiling(
                        explained=explained_at_most,
                        information=info,
                        background=projects,
                        builtin=c,
                        **known,
                    )
                    assert ceiling >= evidence.logit() - 1e-9


def test_a_weaker_pattern_is_skipped_before_its_evidence_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    templates = [
        "cannot load shard {n} of model {name}",
        "shard {n} of {what}",
    ]
    path = tmp_path / "catalog.jsonl"
    path.write_text(
        "".join(
            make_envelope(
                id=f"{n:016x}",
                slug=f"record-{n}",
                errorMessage=template,
                messagePattern=template_to_pattern(template),
            ).model_dump_json(by_alias=True)
            + "\n"
            for n, template in enumerate(templates)
        ),
        encoding="utf-8",
    )
    store = open_file_store(path, progress=False)
    assert store is not None and store.index.priors is not None  # the words' evidence is stored
    catalog = Catalog.of_stores([store])
    read: list[str] = []

    def counted(text_hit: TextHit, **kwargs: Any) -> object:
        read.append(text_hit.entry.pattern)
        return _text_evidence(text_hit, **kwargs)

    monkeypatch.setattr(collect, "_text_evidence", counted)
    m = match_error("ValueError: cannot load shard 3 of model llama", catalog=catalog)
    assert m is not None and m.summary.id == f"{0:016x}"
    assert read == [template_to_pattern(templates[0])]
