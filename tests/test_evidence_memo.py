"""Working a frameless report's evidence out once per kind of record (matcher.evidence_memo).

Records of one template at many sites, alike in class, project, tags and template,
have one evidence against a report without frames. These tests answer the same
texts with the memo and with every record's evidence worked out, over catalogs whose
records differ in class, project, tags (family, caller's class, builtin base, logged),
file and line, for bare lines, titles, lines naming a project, and tracebacks (where the
memo is off).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD, make_envelope, site_envelope
from errcat.catalog import Catalog
from errcat.evidence import FrameEvidence
from errcat.matcher import collect, match_all, match_error
from errcat.matcher.evidence_memo import EvidenceMemo
from errcat.store import RecordSummary
from errcat.tags import BASE_TAG_PREFIX, CALLER_CLASS_TAG, FAMILY_TAG, LOGGED_TAG

CLASSES = st.sampled_from(["ValueError", "RuntimeError", "zqpkg.errors.ZqError", "KeyError"])
REPOS = st.sampled_from(["zqorg/zqa", "zqorg/zqb", "vllm-project/vllm", "sgl-project/sglang"])
FILES = st.sampled_from(["zqa/core/run.py", "zqb/core/run.py", "zqa/utils.py", "zqa/__init__.py"])
TAGS = st.sampled_from(
    [(), (FAMILY_TAG,), (CALLER_CLASS_TAG,), (f"{BASE_TAG_PREFIX}ValueError",), (LOGGED_TAG,)]
)
SITE = st.tuples(CLASSES, REPOS, FILES, TAGS, st.integers(min_value=1, max_value=400))


def _answers(text: str, catalog: Catalog) -> list[Any]:
    found = [
        (m.summary.id, m.mode, m.confidence, m.reasons, [a.id for a in m.alternatives], m._rank)
        for m in match_all(text, catalog, limit=5)
    ]
    answer = match_error(text, catalog)
    return [
        found,
        None if answer is None else (answer.summary.id, answer.confidence, answer.reasons),
    ]


def _every_record_worked_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collect, "EvidenceMemo", lambda enabled: EvidenceMemo(enabled=False))


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(ZQ_WORD, min_size=3, max_size=3, unique=True),
    sites=st.lists(SITE, min_size=2, max_size=20),
    reported=st.one_of(st.none(), CLASSES),
    form=st.sampled_from(["line", "title", "named", "traceback"]),
    generic=st.booleans(),
)
def test_the_memo_answers_as_working_out_every_record_does(
    *,
    words: list[str],
    sites: list[tuple[str, str, str, tuple[str, ...], int]],
    reported: str | None,
    form: str,
    generic: bool,
) -> None:
    a, b, c = words
    template = "invalid value {x}" if generic else f"{a} {b} failed for {{x}} in {c}"
    catalog = Catalog(
        [
            site_envelope(n, repo, path, cls, template, line=line, tags=tags)
            for n, (cls, repo, path, tags, line) in enumerate(sites, 1)
        ]
    )
    message = "invalid value 12" if generic else f"{a} {b} failed for 12 in {c}"
    line = message if reported is None else f"{reported}: {message}"
    text = {
        "line": line,
        "title": f"[Bug]: {message} when serving",
        "named": f"zqorg/zqa says {line}",
        "traceback": (
            "Traceback (most recent call last):\n"
            '  File "/srv/zqa/core/run.py", line 120, in run\n'
            "    raise_it()\n"
            f"{reported or 'ValueError'}: {message}\n"
        ),
    }[form]
    with_memo = _answers(text, catalog)
    with pytest.MonkeyPatch.context() as patched:
        _every_record_worked_out(patched)
        assert _answers(text, catalog) == with_memo


def test_records_alike_share_one_evidence_and_a_family_record_its_own() -> None:
    memo = EvidenceMemo(enabled=True)
    envelope = make_envelope(errorClass="ValueError", repo="zqorg/zqa", tags=[])
    one = RecordSummary.of(envelope.record)
    other = one._replace(id="f" * 16, file_path="zqa/other.py", line_number=7)
    known = ("agree", FrameEvidence("none", 0, 0, None), False)
    kind = memo.kind(one)
    assert kind is not None
    memo.sites[kind] = known
    assert memo.kind(other) == kind
    assert memo.sites.get(kind) == known
    assert memo.kind(one._replace(repo="zqorg/zqb")) not in memo.sites
    assert memo.kind(one._replace(tags=(FAMILY_TAG,))) is None
    assert EvidenceMemo(enabled=False).kind(one) is None
