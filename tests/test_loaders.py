from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import SEED_RELEASE_DIR, make_envelope, seed_objects
from errcat.catalog import Catalog
from errcat.errors import CatalogSourceError, InvalidRecordError
from errcat.loaders import dump_envelope, iter_path, read_manifest, sha256_file, write_jsonl
from errcat.release import write_data_dir


def _lines(objs: list[Any]) -> str:
    return "".join(json.dumps(o) + "\n" for o in objs)


def test_jsonl_bad_lines_are_reported_with_line_numbers_and_skipped(tmp_path: Path) -> None:
    good = seed_objects()
    bad_schema = json.loads(json.dumps(good[1]))
    bad_schema["record"]["schemaVersion"] = 1
    path = tmp_path / "cat.jsonl"
    path.write_text(
        _lines([good[0]]) + "not json\n\n" + _lines([bad_schema, good[2]]), encoding="utf-8"
    )
    items = list(iter_path(path))
    assert [(i.line, i.envelope is not None) for i in items] == [
        (1, True),
        (2, False),
        (4, False),
        (5, True),
    ]
    problems = [i.problem for i in items if i.problem]
    assert "invalid json" in str(problems[0])
    assert str(problems[0]).startswith(f"{path}:2: ")
    assert problems[1] is not None and problems[1].field == "record.schemaVersion"
    assert problems[1].line == 4

    catalog = Catalog.from_path(path)
    assert len(catalog) == 2
    assert [p.line for p in catalog.problems] == [2, 4]
    with pytest.raises(InvalidRecordError, match=r"cat\.jsonl:2: "):
        Catalog.from_path(path, strict=True)


def test_invalid_utf8_line_is_one_problem(tmp_path: Path) -> None:
    path = tmp_path / "cat.jsonl"
    path.write_bytes(json.dumps(seed_objects()[0]).encode() + b"\n\xff\xfe{\n")
    items = list(iter_path(path))
    assert items[0].envelope is not None
    assert items[1].problem is not None and items[1].line == 2


def test_single_envelope_json_like_the_seeds(tmp_path: Path) -> None:
    seed = seed_objects()[0]
    one = tmp_path / "000_seed.txt"
    one.write_text(json.dumps(seed, indent=2), encoding="utf-8")
    pretty = tmp_path / "seed.json"
    pretty.write_text(json.dumps([seed, seed_objects()[1]], indent=1), encoding="utf-8")
    assert [i.envelope.record.id for i in iter_path(one) if i.envelope] == [seed["record"]["id"]]
    assert len([i for i in iter_path(pretty) if i.envelope]) == 2
    catalog = Catalog.from_path(tmp_path)
    assert len(catalog) == 2


def test_bad_json_document_reports_its_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "record": {\n  oops\n}', encoding="utf-8")
    (item,) = iter_path(path)
    assert item.problem is not None
    assert item.problem.line == 3


def test_directory_without_manifest_reads_every_data_file(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    write_jsonl(tmp_path / "a" / "one.jsonl", [make_envelope(id="1" * 16)])
    write_jsonl(tmp_path / "two.ndjson", [make_envelope(id="2" * 16)])
    (tmp_path / "notes.md").write_text("not data", encoding="utf-8")
    assert sorted(r.id for r in Catalog.from_path(tmp_path)) == ["1" * 16, "2" * 16]


def test_later_sources_override_earlier_ones(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "a.jsonl", [make_envelope(documentation="old")])
    write_jsonl(tmp_path / "b.jsonl", [make_envelope(documentation="new")])
    catalog = Catalog.from_path(tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    assert len(catalog) == 1
    assert catalog["0123456789abcdef"].documentation == "new"


def test_duplicate_id_within_one_file_is_reported(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "a.jsonl", [make_envelope(), make_envelope(documentation="2nd")])
    catalog = Catalog.from_path(tmp_path / "a.jsonl")
    assert catalog["0123456789abcdef"].documentation == "2nd"
    (problem,) = catalog.problems
    assert "duplicate id" in str(problem) and problem.line == 2


def test_missing_source_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogSourceError, match="No such file or directory") as info:
        Catalog.from_path(tmp_path / "nope.jsonl")
    assert isinstance(info.value, OSError)


def test_manifest_directory_checks_checksums(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(SEED_RELEASE_DIR, data)
    assert len(Catalog.from_path(data)) == 3
    records = data / "records" / "sgl-project__sglang.jsonl"
    records.write_text(records.read_text(encoding="utf-8")[:-200], encoding="utf-8")
    with pytest.raises(CatalogSourceError, match=r"sgl-project__sglang\.jsonl: sha256 does not"):
        Catalog.from_path(data)


def test_bundled_manifest_describes_the_bundled_files() -> None:
    manifest = read_manifest(SEED_RELEASE_DIR)
    assert manifest["schemaVersion"] == 2
    assert manifest["count"] == len(seed_objects())
    assert manifest["dataVersion"] == seed_objects()[0]["datasetVersion"]
    for name, meta in manifest["files"].items():
        assert sha256_file(SEED_RELEASE_DIR / name) == meta["sha256"]


def test_write_data_dir_is_canonical_and_idempotent(tmp_path: Path) -> None:
    envelopes = [i.envelope for i in iter_path(SEED_RELEASE_DIR) if i.envelope]
    first = write_data_dir(tmp_path, reversed(envelopes))
    text = (tmp_path / "records" / "sgl-project__sglang.jsonl").read_bytes()
    assert write_data_dir(tmp_path, envelopes) == first
    assert (tmp_path / "records" / "sgl-project__sglang.jsonl").read_bytes() == text
    # The bundled data is already canonical.
    assert text == (SEED_RELEASE_DIR / "records" / "sgl-project__sglang.jsonl").read_bytes()


def test_dump_envelope_is_one_line_and_round_trips() -> None:
    envelope = make_envelope(documentation="multi\nline ünïcode")
    line = dump_envelope(envelope)
    assert "\n" not in line and "ünïcode" in line
    assert json.loads(line) == envelope.model_dump(mode="json")


# -- bounds: whatever a data file holds, reading it costs about one record (issue 28) ---------


def _good_line(n: int = 0) -> str:
    return make_envelope(id=f"{n:016x}", slug=f"case-{n}").model_dump_json(by_alias=True)


def test_a_lone_surrogate_is_a_bad_line_not_a_later_crash(tmp_path: Path) -> None:
    """A record holding ``\\ud800`` loaded, then crashed ``release build`` (UnicodeEncodeError)."""
    envelope = json.loads(_good_line(3))
    envelope["record"]["documentation"] = "half a pair \ud800 here"
    path = tmp_path / "cat.jsonl"
    path.write_text(f"{_good_line(1)}\n{json.dumps(envelope)}\n{_good_line(2)}\n", encoding="utf-8")
    items = list(iter_path(path))
    assert [i.envelope is not None for i in items] == [True, False, True]
    assert items[1].problem is not None and "lone surrogate" in str(items[1].problem)
    for lazy in (False, True):
        catalog = Catalog.from_path(path, lazy=lazy)
        assert len(catalog) == 2 and [p.line for p in catalog.problems] == [2]
    paired = json.loads(_good_line(4))
    paired["record"]["documentation"] = "a whole pair \U0001f600 is one character"
    path.write_text(json.dumps(paired) + "\n", encoding="utf-8")  # escaped as \ud83d\ude00
    (item,) = iter_path(path)
    assert item.envelope is not None and "\U0001f600" in item.envelope.record.documentation


def test_json_nested_too_deep_is_a_bad_line_not_a_crash(tmp_path: Path) -> None:
    """Case 4: one line nested 2,000 deep crashed validate, match --catalog and release."""
    deep = '{"record": ' + "[" * 2000 + "]" * 2000 + "}"
    path = tmp_path / "cat.jsonl"
    path.write_text(f"{_good_line(1)}\n{deep}\n{_good_line(2)}\n", encoding="utf-8")
    items = list(iter_path(path))
    assert [i.envelope is not None for i in items] == [True, False, True]
    problem = items[1].problem
    assert problem is not None and problem.line == 2 and "nested too deeply" in str(problem)
    document = tmp_path / "one.json"
    document.write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
    (only,) = iter_path(document)
    assert only.problem is not None and "nested too deeply" in str(only.problem)
    for lazy in (False, True):
        catalog = Catalog.from_path(path, lazy=lazy)
        assert len(catalog) == 2 and [p.line for p in catalog.problems] == [2]


def test_a_line_over_the_bound_is_a_bad_line_never_held_whole(tmp_path: Path) -> None:
    from errcat.loaders.limits import MAX_LINE_BYTES

    long_record = json.loads(_good_line(1))
    long_record["record"]["documentation"] = "x" * (MAX_LINE_BYTES + 10)
    path = tmp_path / "cat.jsonl"
    path.write_text(f"{_good_line(0)}\n{json.dumps(long_record)}\n{_good_line(2)}\n")
    items = list(iter_path(path))
    assert [i.envelope is not None for i in items] == [True, False, True]
    assert items[1].problem is not None and "is longer than" in str(items[1].problem)
    catalog = Catalog.from_path(path, lazy=True)
    assert len(catalog) == 2 and "is longer than" in str(catalog.problems[0])


def _zeros_gz(size: int) -> bytes:
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\0" * (1 << 20)
    return b"".join(packer.compress(block) for _ in range(size >> 20)) + packer.flush()


def test_a_compression_bomb_is_refused_and_leaves_nothing_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Case 3: a small .jsonl.gz of zeros was decompressed whole (10 GiB into the cache)."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("ERRCAT_CACHE_DIR", str(cache))
    bomb = tmp_path / "bomb.jsonl.gz"
    bomb.write_bytes(_zeros_gz(96 << 20))  # 93 KiB that decompress to 96 MiB
    with pytest.raises(CatalogSourceError, match=r"bomb\.jsonl\.gz: decompresses to more than"):
        list(iter_path(bomb))
    with pytest.raises(CatalogSourceError, match=r"bomb\.jsonl\.gz: decompresses to more than"):
        Catalog.from_path(bomb, lazy=True)
    assert not any(p.is_file() for p in cache.rglob("*"))


def test_a_release_zip_holding_a_bomb_is_refused(tmp_path: Path) -> None:
    import hashlib
    import zipfile

    bomb = _zeros_gz(96 << 20)
    manifest = {
        "dataVersion": "2026-01-01T00:00:00Z",
        "schemaVersion": 2,
        "count": 1,
        "files": {"records/x.jsonl.gz": {"count": 1, "sha256": hashlib.sha256(bomb).hexdigest()}},
    }
    artifact = tmp_path / "errcat-data-2026-01-01T000000Z.zip"
    with zipfile.ZipFile(artifact, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("manifest.json", json.dumps(manifest))
        archive.writestr("records/x.jsonl.gz", bomb)
    with pytest.raises(CatalogSourceError, match=r"records/x\.jsonl\.gz: decompresses to more"):
        list(iter_path(artifact))


@pytest.mark.parametrize(
    "name", ["../outside.jsonl", "/etc/outside.jsonl", "records/../../x.jsonl"]
)
def test_a_manifest_cannot_name_a_file_outside_its_directory(tmp_path: Path, name: str) -> None:
    """Case 18: a manifest naming ../file.jsonl served records from outside the directory."""
    outside = tmp_path / "outside.jsonl"
    outside.write_text(_good_line(7) + "\n", encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    manifest: dict[str, object] = {"dataVersion": None, "schemaVersion": 2, "files": {name: {}}}
    (data / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    for read in (lambda: list(iter_path(data)), lambda: Catalog.from_path(data, lazy=True)):
        with pytest.raises(CatalogSourceError, match=r"out of the data directory|not a relative"):
            read()


@pytest.mark.parametrize(
    ("data", "reason"),
    [(b"", "empty (0 bytes)"), (gzip.compress(b""), "decompresses to nothing")],
    ids=["zero-bytes", "empty-gzip"],
)
@pytest.mark.parametrize("name", ["cat.jsonl.gz", "cat.json.gz", "cat.txt.gz"])
def test_an_empty_compressed_catalog_is_reported_not_loaded_as_no_records(
    tmp_path: Path, data: bytes, reason: str, name: str
) -> None:
    """Issue 28 leftover: an empty .jsonl.gz loaded as a catalog of no records, silently."""
    path = tmp_path / name
    path.write_bytes(data)
    (item,) = iter_path(path)
    assert item.envelope is None and item.problem is not None
    assert reason in str(item.problem) and str(path) in str(item.problem)
    catalog = Catalog.from_path(path)
    assert len(catalog) == 0 and len(catalog.problems) == 1
    with pytest.raises(InvalidRecordError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        Catalog.from_path(path, strict=True)


def test_an_empty_gzip_in_a_data_directory_is_reported_by_every_reader(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "a.jsonl").write_text(_lines(seed_objects()[:1]), encoding="utf-8")
    (data / "b.jsonl.gz").write_bytes(gzip.compress(b""))
    eager = Catalog.from_path(data, lazy=False)
    lazy = Catalog.from_path(data, lazy=True)
    for catalog in (eager, lazy):
        assert len(catalog) == 1
        assert ["decompresses to nothing" in str(p) for p in catalog.problems] == [True]


@pytest.mark.parametrize("name", ["bomb.json.gz", "bomb.txt.gz"])
def test_a_document_bomb_is_never_decompressed_past_its_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A .json.gz read as one document was decompressed up to 256 MiB (the document bound)
    before the 64x bound was checked: a 1 GiB bomb peaked at 294 MiB (bench_adversarial 3b)."""
    from errcat import loaders

    limit = 1 << 20
    monkeypatch.setattr(loaders, "inflate_limit", lambda size: limit)
    reads: list[int] = []
    real = loaders._Inflating._counted

    def counted(self: loaders._Inflating, data: bytes) -> bytes:
        reads.append(len(data))
        return real(self, data)

    monkeypatch.setattr(loaders._Inflating, "_counted", counted)
    path = tmp_path / name
    path.write_bytes(gzip.compress(b"[" + b" " * (8 << 20) + b"]"))
    with pytest.raises(CatalogSourceError, match="decompresses to more than"):
        list(iter_path(path))
    assert max(reads) <= limit + 1
