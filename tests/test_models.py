from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from conftest import SEEDS_DIR, seed_objects
from errcat.errors import ErrcatError, InvalidRecordError
from errcat.models import RecordEnvelope, format_timestamp, validate_envelope


@pytest.mark.parametrize("seed", seed_objects(), ids=lambda s: s["record"]["id"])
def test_seed_round_trips_to_the_same_json(seed: dict[str, Any]) -> None:
    envelope = validate_envelope(seed, strict=True)
    assert json.loads(envelope.model_dump_json()) == seed
    assert envelope.model_dump(mode="json") == seed


def test_bundled_data_equals_the_shared_seeds() -> None:
    if not SEEDS_DIR.is_dir():
        pytest.skip("shared/seeds is not beside this checkout")
    shared = sorted(
        (json.loads(p.read_text(encoding="utf-8")) for p in SEEDS_DIR.iterdir()),
        key=lambda s: s["record"]["id"],
    )
    assert sorted(seed_objects(), key=lambda s: s["record"]["id"]) == shared


def test_fields_are_snake_case_in_python() -> None:
    record = validate_envelope(seed_objects()[0]).record
    assert record.line_number == 7614
    assert record.analyzed_at.tzinfo is not None
    assert record.schema_version == 2
    assert record.error_code is None
    assert isinstance(record.solutions, tuple)


@pytest.mark.parametrize(
    ("field", "value", "needle"),
    [
        ("schemaVersion", 3, "unsupported schema version 3"),
        ("schemaVersion", "2", "unsupported schema version '2'"),
        ("id", "XYZ", "String should match pattern"),
        ("repo", "no-slash", "String should match pattern"),
        ("analyzedSha", "abc", "String should match pattern"),
        ("lineNumber", "7614", "Input should be a valid integer"),
        ("solutions", "just one", "Input should be a valid tuple"),
        ("analyzedAt", "yesterday", "datetime"),
        ("messagePattern", "unbalanced (", "does not compile with regex"),
    ],
)
def test_bad_field_is_named_with_file_and_line(
    example_data: dict[str, Any], field: str, value: Any, needle: str
) -> None:
    example_data["record"][field] = value
    with pytest.raises(InvalidRecordError) as info:
        validate_envelope(example_data, path="data/x.jsonl", line=4)
    err = info.value
    assert isinstance(err, ValueError)
    assert isinstance(err, ErrcatError)
    assert err.path == "data/x.jsonl"
    assert err.line == 4
    assert err.field == f"record.{field}"
    assert needle in str(err)
    assert str(err).startswith(f"data/x.jsonl:4: record.{field}: ")


def test_missing_field_is_named(example_data: dict[str, Any]) -> None:
    del example_data["record"]["githubUrl"]
    with pytest.raises(InvalidRecordError, match=r"record\.githubUrl: Field required") as info:
        validate_envelope(example_data, path="a.jsonl", line=1)
    assert info.value.record_id == "0123456789abcdef"


def test_line_number_must_lie_in_the_span(example_data: dict[str, Any]) -> None:
    example_data["record"]["lineNumber"] = 31
    with pytest.raises(InvalidRecordError, match=r"lineNumber 31 is outside \[1, 30\]"):
        validate_envelope(example_data)


def test_nullable_fields_accept_null_and_required_ones_do_not(
    example_data: dict[str, Any],
) -> None:
    for name in ("errorCode", "httpStatus", "validationCode", "typeGuard", "tryCatchPattern"):
        example_data["record"][name] = None
    validate_envelope(example_data)
    example_data["record"]["errorMessage"] = None
    with pytest.raises(InvalidRecordError, match=r"record\.errorMessage"):
        validate_envelope(example_data)


def test_unknown_fields_are_kept_when_tolerant_and_refused_when_strict(
    example_data: dict[str, Any],
) -> None:
    data = copy.deepcopy(example_data)
    data["record"]["futureField"] = {"a": 1}
    envelope = validate_envelope(data)
    assert json.loads(envelope.model_dump_json())["record"]["futureField"] == {"a": 1}
    with pytest.raises(InvalidRecordError, match=r"record\.futureField: unknown field"):
        validate_envelope(data, strict=True)


def test_not_an_object_is_refused() -> None:
    with pytest.raises(InvalidRecordError, match="expected a JSON object, got list"):
        validate_envelope([1, 2], path="x.jsonl", line=2)


def test_records_are_immutable(example_data: dict[str, Any]) -> None:
    record = RecordEnvelope.model_validate(example_data).record
    with pytest.raises(ValueError, match="frozen"):
        record.line_number = 3  # type: ignore[misc]


def test_timestamps_keep_their_precision() -> None:
    from datetime import datetime, timedelta, timezone

    t = datetime(2026, 1, 2, 3, 4, 5, 123456, tzinfo=timezone(timedelta(hours=2)))
    assert format_timestamp(t) == "2026-01-02T01:04:05.123456Z"
