from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import make_envelope
from errcat.advice import Advice
from errcat.catalog import Catalog
from errcat.markup import fence as _fence


@pytest.mark.parametrize("record_id", ["e06cd5f724ab16c0", "3fe9ad44079a5344", "70e072f5fc32f001"])
def test_renderings_carry_solutions_and_fix(bundled: Catalog, record_id: str) -> None:
    record = bundled[record_id]
    advice = Advice.from_record(record)
    text = advice.to_text()
    markdown = advice.to_markdown()
    data = json.loads(advice.to_json())
    for solution in record.solutions:
        assert solution in text
        assert solution in markdown
    assert data["solutions"] == list(record.solutions)
    assert data["exampleFix"] == record.example_fix
    assert record.github_url in text and f"]({record.github_url})" in markdown
    assert text.splitlines()[0] == f"{record.error_class}: {record.error_message}"
    assert markdown.count("```") % 2 == 0


def test_advice_from_a_match_shows_captured_values(bundled: Catalog) -> None:
    import errcat

    m = errcat.match_error(
        "ValueError: DeepEP v2 MoE is not validated for 'GemmaForCausalLM'; supported "
        "architectures are ['A']. Other model workflows may require an all-reduce after "
        "A2A combine. Use --moe-a2a-backend deepep.",
        catalog=bundled,
    )
    assert m is not None
    advice = Advice.from_match(m)
    assert advice.params == {
        "architecture": "'GemmaForCausalLM'",
        "sorted(validated_architectures)": "['A']",
    }
    assert "architecture = 'GemmaForCausalLM'" in advice.to_text()
    assert "exact match, confidence" in advice.to_text()
    assert advice.to_dict()["confidence"] == m.confidence


def test_fence_outgrows_backticks_in_the_code() -> None:
    fenced = _fence("print('```')")
    assert fenced.startswith("````") and fenced.endswith("````")


def test_record_without_free_text_renders_plainly() -> None:
    record = make_envelope(solutions=[], exampleFix="", documentation="").record
    text = Advice.from_record(record).to_text()
    assert "Solutions:" not in text and "Example fix:" not in text


def test_a_removed_check_advises_upgrading_first(tmp_path: Path) -> None:
    from datetime import datetime, timezone

    from errcat import match_error
    from errcat.history import Revision
    from errcat.loaders import write_jsonl
    from errcat.mine.history import Snapshot, build_history

    def snapshot(label: str, day: int, text: str) -> Snapshot:
        revision = Revision(label, str(day) * 40, datetime(2026, 1, day, tzinfo=timezone.utc))
        blobs = {f"m.py@{label}": text.encode()}
        return Snapshot(
            revision, [("m.py", f"m.py@{label}")], lambda keys: ((k, blobs[k]) for k in keys)
        )

    old = "def f(n):\n    if n > 3:\n        raise ValueError(f'the batch of {n} is too large')\n"
    result = build_history(
        [snapshot("0.1.0", 1, old), snapshot("0.2.0", 9, "def f(n):\n    return n\n")], repo="o/r"
    )
    write_jsonl(tmp_path / "r.jsonl", result.envelopes)
    result.history.dump(tmp_path / "r.history.json")
    catalog = Catalog.from_path(tmp_path / "r.jsonl")
    match = match_error("ValueError: the batch of 85050 is too large", catalog=catalog)
    assert match is not None
    advice = Advice.from_match(match)
    assert advice.solutions[0] == (
        "Upgrade r to 0.2.0 or newer: this check was removed after 2026-01 (1111111), so newer "
        "releases do not raise this error"
    )
    # The captured value is shown beside its name where a solution names it.
    assert any("`n` = 85,050 here" in s for s in advice.solutions[1:])
    assert advice.to_dict()["solutions"] == list(advice.solutions)
