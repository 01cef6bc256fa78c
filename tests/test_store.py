"""Stored indexes: built once, reused, rebuilt when stale or damaged, same answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import make_envelope
from errcat import background
from errcat.catalog import Catalog
from errcat.errors import InvalidRecordError
from errcat.loaders import write_jsonl
from errcat.matcher import match_all, match_error
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern
from errcat.store import FileStore, index_path_for, open_file_store
from errcat.tags import PHRASE_TAG_PREFIX

TEMPLATES = [
    "expert {n} is not loaded on rank {rank}",
    "tokenizer file {path!r} is missing from the model directory",
    "{name} must be a power of two, got {value}",
    "quantization method {method} is not supported on {device}",
]


def envelopes(n: int = 40) -> list[RecordEnvelope]:
    out = []
    for k in range(n):
        template = TEMPLATES[k % len(TEMPLATES)].replace("is", f"is (case {k})", 1)
        out.append(
            make_envelope(
                id=f"{k:016x}",
                slug=f"case-{k}",
                errorMessage=template,
                messagePattern=template_to_pattern(template),
                tags=[f"t{k % 3}"],
            )
        )
    return out


@pytest.fixture
def catalog_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("ERRCAT_INDEX_DIR", raising=False)
    path = tmp_path / "big.jsonl"
    write_jsonl(path, envelopes())
    return path


def test_index_is_written_next_to_the_data_and_reused(
    catalog_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Next to the data unless a cache folder is named (ERRCAT_CACHE_DIR: tested apart).
    monkeypatch.delenv("ERRCAT_CACHE_DIR", raising=False)
    store = open_file_store(catalog_file)
    assert store is not None and len(store) == 40
    index_file = index_path_for(catalog_file)
    assert index_file == catalog_file.with_name("big.jsonl.errcat-index")
    built = index_file.stat().st_mtime_ns
    again = open_file_store(catalog_file)
    assert again is not None and index_file.stat().st_mtime_ns == built


def test_lazy_catalog_answers_like_the_memory_one(catalog_file: Path) -> None:
    lazy = Catalog.from_path(catalog_file, lazy=True)
    eager = Catalog.from_path(catalog_file, lazy=False)
    assert isinstance(lazy.parts[0], FileStore)
    assert len(lazy) == len(eager) == 40
    for text in [
        "ValueError: expert 7 is (case 4) not loaded on rank 3",
        "ValueError: block_size must be (case 2) a power of two, got 48",
        "ValueError: tokenizer file 'tok.json' is (case 1) missing from the model directory",
        "nothing to see",
        "quantization method awq is (case 3) supported on cpu",
    ]:
        a = [(m.summary.id, m.confidence, dict(m.params)) for m in match_all(text, catalog=lazy)]
        b = [(m.summary.id, m.confidence, dict(m.params)) for m in match_all(text, catalog=eager)]
        assert a == b, text
    m = match_error("ValueError: expert 7 is (case 4) not loaded on rank 3", catalog=lazy)
    assert m is not None and m.record.id == f"{4:016x}"
    assert lazy["case-9"].id == f"{9:016x}" and lazy.get("nope") is None
    assert [r.id for r in lazy.filter(tag="t1")] == [r.id for r in eager.filter(tag="t1")]


def test_records_are_read_only_when_asked_for(catalog_file: Path) -> None:
    store = open_file_store(catalog_file)
    assert store is not None
    assert store._cache == {}
    match_error(
        "ValueError: expert 7 is (case 4) not loaded on rank 3",
        catalog=Catalog._of_parts([store]),
    )
    assert store._cache == {}  # matching reads summaries only
    assert store.record(4).id == f"{4:016x}"
    assert list(store._cache) == [4]


def test_stale_index_is_rebuilt(catalog_file: Path) -> None:
    open_file_store(catalog_file)
    with catalog_file.open("a", encoding="utf-8") as fh:
        extra = envelopes(41)[-1]
        fh.write(json.dumps(extra.model_dump(mode="json")) + "\n")
    store = open_file_store(catalog_file)
    assert store is not None and len(store) == 41


@pytest.mark.parametrize("damage", ["flip", "truncate", "foreign"])
def test_damaged_or_foreign_index_is_not_trusted(
    catalog_file: Path, tmp_path: Path, damage: str
) -> None:
    open_file_store(catalog_file)
    index_file = index_path_for(catalog_file)
    data = bytearray(index_file.read_bytes())
    if damage == "flip":
        data[-20] ^= 0xFF
        index_file.write_bytes(bytes(data))
    elif damage == "truncate":
        index_file.write_bytes(bytes(data[: len(data) // 2]))
    else:
        other = tmp_path / "other.jsonl"
        write_jsonl(other, envelopes(5))
        open_file_store(other)
        index_file.write_bytes(index_path_for(other).read_bytes())
    from errcat.store.build import data_files, identity_of

    files = data_files(catalog_file)
    assert files is not None
    with pytest.raises(
        ValueError, match=r"checksum|format|other data|not an errcat|Expecting|codec"
    ):
        FileStore(index_file, files, identity_of(files))
    store = open_file_store(catalog_file)
    assert store is not None and len(store) == 40
    assert store.record(39).id == f"{39:016x}"


def test_bad_lines_are_kept_as_problems_and_strict_raises(catalog_file: Path) -> None:
    with catalog_file.open("a", encoding="utf-8") as fh:
        fh.write("{not json\n")
        dup = envelopes(1)[0]
        fh.write(json.dumps(dup.model_dump(mode="json")) + "\n")
    catalog = Catalog.from_path(catalog_file, lazy=True)
    assert len(catalog) == 40
    reasons = [str(p) for p in catalog.problems]
    assert any(":41: invalid JSON" in r for r in reasons)
    assert any(":42: record.id: duplicate id" in r for r in reasons)
    again = Catalog.from_path(catalog_file, lazy=True)  # from the stored index
    assert [str(p) for p in again.problems] == reasons
    with pytest.raises(InvalidRecordError):
        Catalog.from_path(catalog_file, lazy=True, strict=True)


def test_index_goes_to_the_cache_when_the_data_is_read_only(
    catalog_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ERRCAT_CACHE_DIR", raising=False)
    monkeypatch.setenv("ERRCAT_INDEX_DIR", str(tmp_path / "cache"))
    path = index_path_for(catalog_file)
    assert path.parent == tmp_path / "cache"
    assert open_file_store(catalog_file) is not None and path.is_file()


def test_merged_lazy_and_memory_catalogs_let_later_records_win(catalog_file: Path) -> None:
    lazy = Catalog.from_path(catalog_file, lazy=True)
    override = make_envelope(
        id=f"{4:016x}",
        slug="case-4",
        errorMessage="a completely different message for the override",
        messagePattern="a completely different message for the override",
    )
    merged = lazy.merge(Catalog([override]))
    assert len(merged) == 40
    assert merged[f"{4:016x}"].error_message.startswith("a completely")
    assert (
        match_error("ValueError: expert 7 is (case 4) not loaded on rank 3", catalog=merged) is None
    )
    m = match_error("ValueError: a completely different message for the override", catalog=merged)
    assert m is not None and m.summary.id == f"{4:016x}"


def test_non_jsonl_sources_stay_in_memory(tmp_path: Path) -> None:
    (tmp_path / "one.json").write_text(
        json.dumps(envelopes(1)[0].model_dump(mode="json")),
        encoding="utf-8",
    )
    assert open_file_store(tmp_path) is None
    assert len(Catalog.from_path(tmp_path, lazy=True)) == 1
    assert not (tmp_path / ".errcat-index").exists()


def test_parallel_scan_gives_the_same_index(
    catalog_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errcat.store.build as store_module

    with catalog_file.open("a", encoding="utf-8") as fh:
        fh.write("{broken\n")
    serial = store_module.scan_files([catalog_file], progress=False)
    monkeypatch.setattr(store_module, "PARALLEL_BYTES", 1)
    monkeypatch.setattr(store_module, "CHUNK_BYTES", 3000)  # a few lines per chunk
    parallel = store_module.scan_files([catalog_file], progress=False)
    assert len(store_module.chunks_of([catalog_file], 3000)) > 3
    assert parallel.ids == serial.ids and parallel.rows == serial.rows
    assert list(parallel.lines) == list(serial.lines) and parallel.patterns == serial.patterns
    assert [str(p) for p in parallel.problems] == [str(p) for p in serial.problems]
    assert [p.line for p in serial.problems] == [41]


@pytest.mark.parametrize("damage", ["truncate", "empty", "overwrite"])
def test_a_damaged_decompressed_copy_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """Case 5 of issue 28: a truncated, emptied or overwritten copy in the cache was trusted:
    every later run failed and the copy was never rebuilt."""
    import gzip

    from errcat.loaders import dump_envelope

    cache = tmp_path / "cache"
    monkeypatch.setenv("ERRCAT_CACHE_DIR", str(cache))
    path = tmp_path / "cat.jsonl.gz"
    lines = "".join(dump_envelope(e) + "\n" for e in envelopes())
    path.write_bytes(gzip.compress(lines.encode(), mtime=0))
    text = "ValueError: expert 3 is (case 0) not loaded on rank 7"
    first = match_error(text, Catalog.from_path(path, lazy=True))
    assert first is not None
    (copy,) = (cache / "inflated").glob("*-cat.jsonl")
    data = copy.read_bytes()
    if damage == "truncate":
        copy.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        copy.write_bytes(b"")
    else:
        copy.write_bytes(data.replace(b"expert", b"EXPERT"))  # same size, other bytes
    again = match_error(text, Catalog.from_path(path, lazy=True))
    assert again is not None and again.record == first.record
    assert copy.read_bytes() == data


def _header(index_file: Path) -> dict[str, object]:
    data = index_file.read_bytes()
    size = int.from_bytes(data[-16:-8], "little")
    header: dict[str, object] = json.loads(data[-16 - size : -16])
    return header


def test_index_built_with_another_background_model_is_rebuilt(
    catalog_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The index keeps each pattern's word evidence from the background model: a new
    # model makes those numbers stale, so the index names its model and is rebuilt.
    open_file_store(catalog_file)
    index_file = index_path_for(catalog_file)
    assert _header(index_file)["background"] == background.fingerprint()
    monkeypatch.setattr(background, "fingerprint", lambda: "1:0000abcd")
    store = open_file_store(catalog_file)
    assert store is not None and _header(index_file)["background"] == "1:0000abcd"
    entry = store.index.entry(0)
    assert entry.prior == background.word_evidence(entry.fragments)


def test_phrase_tagged_rows_are_kept_and_give_what_a_scan_gives(tmp_path: Path) -> None:
    """The rows holding a phrase tag are stored at build time; the answer is the scan's."""
    tagged = {3: ["errcat:phrase:device-side assert"], 7: ["x", "errcat:phrase:nccl error"]}
    # A phrase prefix inside a message is in the row too: kept there, then left out.
    out = [
        make_envelope(
            id=f"{k:016x}",
            slug=f"case-{k}",
            errorMessage="see errcat:phrase:x {v}" if k == 5 else f"case {k} fails {{v}}",
            messagePattern=template_to_pattern(
                "see errcat:phrase:x {v}" if k == 5 else f"case {k} fails {{v}}"
            ),
            tags=tagged.get(k, [f"t{k}"]),
        )
        for k in range(10)
    ]
    path = tmp_path / "phrases.jsonl"
    write_jsonl(path, out)
    store = open_file_store(path)
    assert store is not None
    assert list(store._phrase_rows) == [3, 5, 7]
    assert store.tagged(PHRASE_TAG_PREFIX) == [3, 7]
    assert store.tagged("errcat:phrase:nccl") == [7]  # another prefix: a scan
