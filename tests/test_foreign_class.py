"""A package's class against the standard library's of that name disagrees (foreign_class)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD
from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.matcher import match_error
from errcat.matcher.classes import _class_state
from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
from errcat.store import RecordSummary

_BASE = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
_NAME = st.text(alphabet="abcdefghij", min_size=2, max_size=6).map(lambda w: "Zq" + w + "Error")
#: Modules of the standard library a record's class may be named with.
_STDLIB = st.sampled_from(["json.decoder", "json", "http.client", "asyncio.exceptions", "_queue"])


def _record(cls: str, words: list[str]) -> RecordSummary:
    message = " ".join(words)
    return RecordSummary.of(
        _BASE.model_copy(
            update={"error_class": cls, "error_message": message, "message_pattern": message}
        )
    )


@settings(max_examples=60, deadline=None)
@given(pkg=ZQ_WORD, std=_STDLIB, name=_NAME, words=st.lists(ZQ_WORD, min_size=3, max_size=6))
def test_a_packages_class_disagrees_with_the_stdlibs_of_that_name(
    pkg: str, std: str, name: str, words: list[str]
) -> None:
    record = _record(f"{std}.{name}", words)
    report = extract_reports(f"{pkg}.exceptions.{name}: {' '.join(words)}")[0]
    assert _class_state(report, record) == "disagree"


@settings(max_examples=60, deadline=None)
@given(
    mine=ZQ_WORD,
    theirs=ZQ_WORD,
    std=_STDLIB,
    name=_NAME,
    words=st.lists(ZQ_WORD, min_size=3, max_size=6),
)
def test_other_pairs_keep_their_old_state(
    mine: str, theirs: str, std: str, name: str, words: list[str]
) -> None:
    """Two packages (httpx around httpcore), two stdlib modules, a bare name: not foreign."""
    pairs = [
        (f"{mine}.errors.{name}", f"{theirs}x.{name}"),  # another package's: as before
        (f"re.{name}", f"{std}.{name}"),  # the stdlib's own modules
        (name, f"{std}.{name}"),  # a bare name
        (f"{std}.{name}", f"{mine}.errors.{name}"),  # the stdlib's class, a package's record
    ]
    for printed, cls in pairs:
        report = extract_reports(f"{printed}: {' '.join(words)}")[0]
        assert _class_state(report, _record(cls, words)) != "disagree", (printed, cls)


@settings(max_examples=40, deadline=None)
@given(pkg=ZQ_WORD, words=st.lists(ZQ_WORD, min_size=4, max_size=7))
def test_the_stdlib_record_of_the_same_words_loses_confidence(pkg: str, words: list[str]) -> None:
    message = " ".join(words)
    record = _BASE.model_copy(
        update={
            "error_class": "json.decoder.ZqDecodeError",
            "error_message": message,
            "message_pattern": message,
        }
    )
    catalog = Catalog([record])
    own = match_error(f"json.decoder.ZqDecodeError: {message}", catalog=catalog)
    assert own is not None and own.summary.id == record.id
    foreign = match_error(f"{pkg}.exceptions.ZqDecodeError: {message}", catalog=catalog)
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
