"""Errors named by their curated phrase in free text (errcat.matcher.phrases), and tagged rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.matcher import match_error
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern
from errcat.store import FileStore
from errcat.store.format import StringTable
from errcat.store.memory import MemoryStore
from errcat.tags import PHRASE_TAG_PREFIX

ILLEGAL = "CUDA error: an illegal memory access was encountered"
ASSERT = "CUDA error: device-side assert triggered"
#: Title words that are neither phrase's, nor open a message any record holds.
FILLER = ["bug", "deepseek", "on", "8xH20", "when", "using", "run_batch", "v0.5.3", "tp", "16"]


def _record(message: str, phrase: str | None, n: int, **extra: object) -> RecordEnvelope:
    return make_envelope(
        id=f"{n:016x}",
        slug=f"record-{n}",
        errorMessage=message,
        messagePattern=template_to_pattern(message),
        errorClass="RuntimeError",
        tags=[f"{PHRASE_TAG_PREFIX}{phrase}"] if phrase else [],
        **extra,
    )


CATALOG = Catalog(
    [
        _record(ILLEGAL, "illegal memory access", 1),
        _record(ASSERT, "device-side assert triggered", 2),
        _record("kernel {kernel} reported an illegal memory access, not a phrase of mine", None, 3),
    ]
)


def _case(text: str, pattern: list[bool]) -> str:
    return "".join(c.upper() if up else c for c, up in zip(text, pattern * len(text), strict=False))


@settings(max_examples=80, deadline=None)
@given(
    before=st.lists(st.sampled_from(FILLER), max_size=4),
    after=st.lists(st.sampled_from(FILLER), max_size=4),
    which=st.sampled_from([(1, "illegal memory access"), (2, "device-side assert triggered")]),
    casing=st.lists(st.booleans(), min_size=1, max_size=5),
    space=st.sampled_from([" ", "  ", "\n"]),
)
def test_a_title_that_names_one_fault_is_answered_with_its_record(
    before: list[str], after: list[str], which: tuple[int, str], casing: list[bool], space: str
) -> None:
    number, phrase = which
    said = _case(phrase, casing).replace(" ", space)
    title = " ".join(["[Bug]", *before, said, *after])
    found = match_error(title, catalog=CATALOG)
    assert found is not None and found.summary.id == f"{number:016x}"
    assert found.mode == "phrase" and found.confident and not found.exact


@settings(max_examples=40, deadline=None)
@given(glue=st.sampled_from(["s", "-x", "_y", "z"]), front=st.booleans())
def test_a_phrase_inside_a_longer_word_names_nothing(glue: str, front: bool) -> None:
    said = f"{glue}illegal memory access" if front else f"illegal memory access{glue}"
    assert match_error(f"[Bug] {said} on H20", catalog=CATALOG) is None


def test_a_text_naming_two_faults_is_not_answered_by_either() -> None:
    both = "[Bug] illegal memory access after device-side assert triggered"
    assert match_error(both, catalog=CATALOG) is None


def test_a_confident_pattern_answer_is_kept() -> None:
    # The phrase stands in the message of a record whose pattern matches it whole.
    found = match_error(
        "RuntimeError: kernel fused_moe reported an illegal memory access, not a phrase of mine",
        catalog=CATALOG,
    )
    assert found is not None and found.summary.id == f"{3:016x}" and found.mode == "full"


def test_a_later_part_without_the_phrase_hides_the_tagged_record() -> None:
    plain = Catalog([_record(ILLEGAL, None, 1, documentation="overridden")])
    merged = CATALOG.merge(plain)
    assert match_error("[Bug] illegal memory access on H20", catalog=merged) is None


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(alphabet="ab\x1e:", max_size=6), max_size=12), st.text("ab:", min_size=1))
def test_rows_holding_bytes_are_found_in_one_scan(strings: list[str], needle: str) -> None:
    table = StringTable(*StringTable.encode(strings))
    assert table.holding(needle.encode()) == [n for n, s in enumerate(strings) if needle in s]


@pytest.fixture
def tagged_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("ERRCAT_CACHE_DIR", raising=False)
    path = tmp_path / "tagged.jsonl"
    items = [
        _record(f"message number {n} went wrong", "phrase {n}" if n % 3 == 0 else None, n)
        for n in range(1, 20)
    ]
    path.write_text("".join(json.dumps(i.model_dump(by_alias=True)) + "\n" for i in items))
    return path


def test_a_stored_catalog_finds_its_tagged_records_as_the_memory_one_does(
    tagged_file: Path,
) -> None:
    lazy = Catalog.from_path(tagged_file, lazy=True).parts[0]
    eager = Catalog.from_path(tagged_file, lazy=False).parts[0]
    assert isinstance(lazy, FileStore) and isinstance(eager, MemoryStore)
    tagged = list(lazy.tagged(PHRASE_TAG_PREFIX))
    assert tagged == list(eager.tagged(PHRASE_TAG_PREFIX)) and len(tagged) == 6
    assert lazy.ids() == eager.ids() and len(lazy.ids()) == 19


NCCL_RECORDS = Catalog.from_path(
    Path(__file__).parents[1] / "curated" / "NVIDIA__nccl.native.jsonl"
)


def _phrase_names(catalog: Catalog) -> list[tuple[str, str]]:
    """Each phrase of a catalog's records with its record's id."""
    return sorted(
        (tag.removeprefix(PHRASE_TAG_PREFIX), record.id)
        for record in (envelope.record for envelope in catalog.envelopes())
        for tag in record.tags
        if tag.startswith(PHRASE_TAG_PREFIX)
    )


NCCL_NAMES = _phrase_names(NCCL_RECORDS)


@settings(max_examples=40, deadline=None)
@given(
    named=st.sampled_from(NCCL_NAMES),
    before=st.lists(st.sampled_from(FILLER), max_size=3),
    after=st.lists(st.sampled_from(FILLER), max_size=3),
)
def test_a_title_naming_an_nccl_result_code_is_answered_with_its_record(
    named: tuple[str, str], before: list[str], after: list[str]
) -> None:
    # NCCL's enum name (ncclSystemError) or cupy's NCCL_ERROR_SYSTEM_ERROR, in place of the text.
    name, rid = named
    found = match_error(" ".join(["[Bug]:", *before, name, *after]), catalog=NCCL_RECORDS)
    assert found is not None and found.summary.id == rid and found.mode == "phrase"


#: The curated native records users name in titles: CUDA's, the crashes'.
NATIVE_RECORDS = Catalog.from_path(
    *(
        Path(__file__).parents[1] / "curated" / f"{name}.native.jsonl"
        for name in ("pytorch__pytorch", "bminor__bash", "python__cpython")
    )
)
NATIVE_NAMES = _phrase_names(NATIVE_RECORDS)


def test_each_phrase_names_one_record() -> None:
    # Two records sharing a phrase would make a title naming it answer neither.
    phrases = [name.lower() for name, _ in NATIVE_NAMES]
    assert len(phrases) == len(set(phrases))
    assert {"segfault", "misaligned address", "oom killer"} <= set(phrases)


@settings(max_examples=60, deadline=None)
@given(
    named=st.sampled_from(NATIVE_NAMES),
    before=st.lists(st.sampled_from(FILLER), max_size=3),
    after=st.lists(st.sampled_from(FILLER), max_size=3),
)
def test_a_title_naming_a_native_fault_is_answered_with_its_record(
    named: tuple[str, str], before: list[str], after: list[str]
) -> None:
    # "[Bug] segfault when loading ...", "[Bug] CUDA error misaligned address on H20".
    name, rid = named
    found = match_error(" ".join(["[Bug]:", *before, name, *after]), catalog=NATIVE_RECORDS)
    assert found is not None
    # That record, or one of the same fault whose pattern the words fit ("Segmentation
    # fault" is the shell's whole message too).
    named_record = NATIVE_RECORDS.get(rid)
    assert named_record is not None
    assert _kinds(found.summary.tags) == _kinds(named_record.tags)


def _kinds(tags: tuple[str, ...]) -> set[str]:
    return {t for t in tags if t.startswith("errcat:native:")}
