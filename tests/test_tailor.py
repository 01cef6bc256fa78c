"""errcat.tailor and the engineAdvice field: per-engine advice picked at render time."""

from __future__ import annotations

import json
from typing import Any

from errcat.advice import Advice
from errcat.catalog import Catalog
from errcat.engine import EngineContext
from errcat.matcher import match_error
from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
from errcat.tailor import Variant, pick, tailor
from errcat.view import RecordView


def _record_json(**extra: object) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE_ENVELOPE_JSON)
    data["record"].update(extra)
    return data


_ADVICE = [
    {"engine": "sglang", "phase": None, "solutions": ["Lower --mem-fraction-static to 0.8"]},
    {
        "engine": "sglang",
        "phase": "cuda-graph-capture",
        "solutions": ["Pass --cuda-graph-max-bs-decode 16"],
        "exampleFix": "--cuda-graph-max-bs-decode 16",
    },
    {"engine": "vllm", "phase": None, "solutions": ["Lower --gpu-memory-utilization to 0.85"]},
]


def test_a_record_without_engine_advice_writes_the_same_bytes() -> None:
    env = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)
    assert "engineAdvice" not in env.model_dump_json()
    assert json.loads(env.model_dump_json()) == json.loads(EXAMPLE_ENVELOPE_JSON)


def test_engine_advice_round_trips_and_passes_the_strict_check() -> None:
    from errcat.models import validate_envelope

    data = _record_json(engineAdvice=_ADVICE)
    env = validate_envelope(data, strict=True)
    assert env.record.engine_advice is not None
    assert env.record.engine_advice[1].example_fix == "--cuda-graph-max-bs-decode 16"
    assert json.loads(env.model_dump_json())["record"]["engineAdvice"][1]["phase"] == (
        "cuda-graph-capture"
    )


def test_view_and_validated_record_tailor_alike() -> None:
    data = _record_json(engineAdvice=_ADVICE)
    validated = RecordEnvelope.model_validate(data).record
    view = RecordView(data["record"])
    context = EngineContext("sglang", "cuda-graph-capture")
    for record in (validated, view):
        shown, note = tailor(record, context)
        assert shown.solutions == ("Pass --cuda-graph-max-bs-decode 16",)
        assert shown.example_fix == "--cuda-graph-max-bs-decode 16"
        assert shown.documentation == "Raised when x is bad."  # not replaced: the record's
        assert note is not None
        assert note.startswith("advice for sglang during CUDA graph capture")


def test_engine_only_entry_when_the_phase_has_none() -> None:
    variants = [
        Variant("sglang", None, solutions=("a",)),
        Variant("sglang", "serving", solutions=("b",)),
    ]
    chosen = pick(variants, EngineContext("sglang", "weight-loading"))
    assert chosen is not None
    assert chosen.solutions == ("a",)


def test_another_engine_keeps_the_records_advice() -> None:
    data = _record_json(engineAdvice=_ADVICE[:2])
    shown, note = tailor(RecordView(data["record"]), EngineContext("vllm", None))
    assert shown.solutions == ("Pass a good x",)
    assert note is None


def test_advice_from_match_with_the_paste(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "c.jsonl"
    path.write_text(json.dumps(_record_json(engineAdvice=_ADVICE)) + "\n", encoding="utf-8")
    catalog = Catalog.from_path(path)
    paste = "[2026-01-02 03:04:05 TP0] Scheduler hit an exception:\nValueError: bad value 'y'"
    match = match_error(paste, catalog=catalog)
    assert match is not None
    plain = Advice.from_match(match)
    fitted = Advice.from_match(match, text=paste)
    assert plain.solutions == ("Pass a good x",)
    assert fitted.solutions == ("Lower --mem-fraction-static to 0.8",)
    assert fitted.notes[0].startswith("advice for sglang")
    assert "Lower --mem-fraction-static to 0.8" in fitted.to_markdown()
