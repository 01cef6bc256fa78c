"""A class named with another project's module disagrees with the record's (foreign_class)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD
from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.matcher import match_error
from errcat.matcher.classes import _class_state
from errcat.matcher.foreign_class import foreign_module, same_project
from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
from errcat.store import RecordSummary

_BASE = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
_NAME = st.text(alphabet="abcdefghij", min_size=2, max_size=6).map(lambda w: "Zq" + w + "Error")


def _record(cls: str, words: list[str]) -> RecordSummary:
    """A record of ``cls`` raised in its module's file (``zqb/decoder.py``)."""
    message = " ".join(words)
    path = "/".join(cls.split(".")[:-1]) + ".py"
    return RecordSummary.of(
        _BASE.model_copy(
            update={
                "error_class": cls,
                "error_message": message,
                "message_pattern": message,
                "file_path": path,
            }
        )
    )


@settings(max_examples=60, deadline=None)
@given(mine=ZQ_WORD, theirs=ZQ_WORD, name=_NAME, words=st.lists(ZQ_WORD, min_size=3, max_size=6))
def test_the_same_name_in_another_projects_module_disagrees(
    mine: str, theirs: str, name: str, words: list[str]
) -> None:
    """``mine.errors.X`` against ``theirs.decoder.X``: another class, unless one project."""
    record = _record(f"{theirs}.decoder.{name}", words)
    report = extract_reports(f"{mine}.errors.{name}: {' '.join(words)}")[0]
    state = _class_state(report, record)
    if same_project(mine, theirs):
        assert state != "disagree"
    else:
        assert state == "disagree"
        assert foreign_module(report.error_class, record.error_class)


@settings(max_examples=60, deadline=None)
@given(top=ZQ_WORD, name=_NAME, words=st.lists(ZQ_WORD, min_size=3, max_size=6))
def test_a_package_and_its_core_or_a_bare_name_never_disagree(
    top: str, name: str, words: list[str]
) -> None:
    record = _record(f"{top}.{name}", words)
    for printed in (f"{top}_core._{top}_core.{name}", name, f"_{top}.sub.{name}"):
        report = extract_reports(f"{printed}: {' '.join(words)}")[0]
        assert _class_state(report, record) != "disagree", printed


@settings(max_examples=40, deadline=None)
@given(mine=ZQ_WORD, words=st.lists(ZQ_WORD, min_size=4, max_size=7))
def test_another_projects_record_of_the_same_words_loses_confidence(
    mine: str, words: list[str]
) -> None:
    """The requests/json case: the same words under a foreign module are weaker evidence."""
    message = " ".join(words)
    record = _BASE.model_copy(
        update={
            "error_class": "zqjson.decoder.ZqDecodeError",
            "error_message": message,
            "message_pattern": message,
            "file_path": "zqjson/decoder.py",
        }
    )
    catalog = Catalog([record])
    own = match_error(f"zqjson.decoder.ZqDecodeError: {message}", catalog=catalog)
    assert own is not None and own.summary.id == record.id
    if not same_project(f"{mine}x", "zqjson"):
        foreign = match_error(f"{mine}x.exceptions.ZqDecodeError: {message}", catalog=catalog)
        assert foreign is None or foreign.confidence < own.confidence


def test_requests_json_error_is_not_answered_by_the_json_decoders_record() -> None:
    """sglang-4407 (census dev): requests re-raises the decoder's words as its own class."""
    message = "Expecting value: line {lineno} column {colno} (char {pos})"
    record = _BASE.model_copy(
        update={
            "error_class": "json.decoder.JSONDecodeError",
            "error_message": message,
            "message_pattern": r"Expecting value: line (\d+) column (\d+) \(char (\d+)\)",
            "repo": "python/cpython",
            "file_path": "Lib/json/decoder.py",
        }
    )
    catalog = Catalog([record])
    line = "Expecting value: line 1 column 1 (char 0)"
    assert match_error(f"json.decoder.JSONDecodeError: {line}", catalog=catalog) is not None
    assert match_error(f"requests.exceptions.JSONDecodeError: {line}", catalog=catalog) is None


@settings(max_examples=40, deadline=None)
@given(var=ZQ_WORD, mine=ZQ_WORD, words=st.lists(ZQ_WORD, min_size=3, max_size=6))
def test_a_records_class_read_off_a_variable_is_no_module(
    var: str, mine: str, words: list[str]
) -> None:
    """``raise source.error(...)`` in re/_parser.py: ``source`` is no module to disagree with."""
    record = RecordSummary.of(
        _BASE.model_copy(
            update={
                "error_class": f"{var}x.error",
                "error_message": " ".join(words),
                "message_pattern": " ".join(words),
                "file_path": "Lib/re/_parser.py",
                "repo": "python/cpython",
            }
        )
    )
    report = extract_reports(f"{mine}.error: {' '.join(words)}")[0]
    assert _class_state(report, record) != "disagree"
    report = extract_reports(f"re.error: {' '.join(words)}")[0]
    assert _class_state(report, record) != "disagree"
