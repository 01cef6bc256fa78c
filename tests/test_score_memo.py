"""Scoring each record evidence of a candidate once (matcher.score_memo) changes no answer.

A message raised at many sites is scored once per record; records bringing equal
evidence reuse the first one's result. These tests answer the same texts with the memo
and with every record scored, over catalogs of one template at many sites whose records
differ in class, project and file (so in class agreement, project named, frames, and
whether a record is the lone one of the report's class).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD, site_envelope
from errcat.catalog import Catalog
from errcat.matcher import collect, match_all, match_error
from errcat.matcher.score_memo import ScoreMemo

CLASSES = st.sampled_from(["ValueError", "RuntimeError", "zqpkg.errors.ZqError", "KeyError"])
REPOS = st.sampled_from(["zqorg/zqa", "zqorg/zqb", "vllm-project/vllm", "sgl-project/sglang"])
FILES = st.sampled_from(["zqa/core/run.py", "zqb/core/run.py", "zqa/utils.py", "zqa/__init__.py"])
SITE = st.tuples(CLASSES, REPOS, FILES)


def _answers(text: str, catalog: Catalog) -> list[Any]:
    found = [
        (m.summary.id, m.mode, m.confidence, m.reasons, [a.id for a in m.alternatives], m._rank)
        for m in match_all(text, catalog, limit=5)
    ]
    answer = match_error(text, catalog)
    return [found, None if answer is None else (answer.summary.id, answer.confidence)]


def _every_record_scored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collect, "ScoreMemo", lambda enabled: ScoreMemo(enabled=False))


@settings(max_examples=25, deadline=None)
@given(
    words=st.lists(ZQ_WORD, min_size=3, max_size=3, unique=True),
    sites=st.lists(SITE, min_size=collect._MEMO_RECORDS + 1, max_size=24),
    reported=CLASSES,
    frame=st.one_of(st.none(), FILES),
    named=st.booleans(),
    generic=st.booleans(),
)
def test_the_memo_answers_as_scoring_every_record_does(
    *,
    words: list[str],
    sites: list[tuple[str, str, str]],
    reported: str,
    frame: str | None,
    named: bool,
    generic: bool,
) -> None:
    a, b, c = words
    # Generic words carry few bits: whether a record is the lone one of the report's
    # class is asked then.
    template = "invalid value {x}" if generic else f"{a} {b} failed for {{x}} in {c}"
    catalog = Catalog(
        [
            site_envelope(n, repo, path, cls, template)
            for n, (cls, repo, path) in enumerate(sites, 1)
        ]
    )
    line = f"{reported}: " + ("invalid value 12" if generic else f"{a} {b} failed for 12 in {c}")
    text = line if not named else f"zqorg/zqa says {line}"
    if frame is not None:
        text = (
            "Traceback (most recent call last):\n"
            f'  File "/srv/{frame}", line 120, in run\n'
            "    raise_it()\n"
            f"{line}\n"
        )
    with_memo = _answers(text, catalog)
    with pytest.MonkeyPatch.context() as patched:
        _every_record_scored(patched)
        assert _answers(text, catalog) == with_memo
