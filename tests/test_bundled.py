"""Compressed data, the bundled catalog through the user cache, and the committed data itself."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import logging
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
import errcat.bundled as bundled_module
from conftest import DATA_DIR, ROOT, make_envelope, seed_objects
from errcat.bundled import bundled_index_path, load_bundled
from errcat.catalog import Catalog, data_size
from errcat.cli import main
from errcat.errors import CatalogSourceError, InvalidRecordError
from errcat.history import History
from errcat.loaders import dump_envelope, iter_path, read_manifest
from errcat.release import build, canonical_files, check, compressed, content_digest
from errcat.store import FORMAT_VERSION

BENCH = ROOT / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import build_data  # noqa: E402


def _gz(lines: list[str]) -> bytes:
    return gzip.compress("".join(line + "\n" for line in lines).encode(), mtime=0)


def _records(n: int) -> list[str]:
    return [
        dump_envelope(
            make_envelope(
                id=f"{k:016x}",
                slug=f"case-{k}",
                errorMessage=f"widget {{name}} broke in stage {k} of the pipeline",
                messagePattern=f"widget (.+?) broke in stage {k} of the pipeline",
            )
        )
        for k in range(n)
    ]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cache"
    monkeypatch.setenv("ERRCAT_CACHE_DIR", str(path))
    return path


# -- reading compressed files ------------------------------------------------------------


def test_compressed_jsonl_reports_bad_lines_like_plain_jsonl(tmp_path: Path) -> None:
    good = [json.dumps(o) for o in seed_objects()]
    lines = [good[0], "not json", "", good[1]]
    plain, packed = tmp_path / "cat.jsonl", tmp_path / "cat.jsonl.gz"
    plain.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    packed.write_bytes(_gz(lines))
    for path in (plain, packed):
        items = list(iter_path(path))
        assert [(i.line, i.envelope is not None) for i in items] == [
            (1, True),
            (2, False),
            (4, True),
        ]
        assert items[1].problem is not None
        assert str(items[1].problem).startswith(f"{path}:2: ")
    with pytest.raises(InvalidRecordError, match=r"cat\.jsonl\.gz:2: "):
        Catalog.from_path(packed, strict=True)
    assert [r.id for r in Catalog.from_path(packed)] == [r.id for r in Catalog.from_path(plain)]


def test_cut_short_compressed_file_names_the_file_and_line(tmp_path: Path) -> None:
    data = _gz(_records(400))
    path = tmp_path / "cat.jsonl.gz"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(CatalogSourceError, match=r"cat\.jsonl\.gz:\d+: the compressed data"):
        list(iter_path(path))
    out, err = io.StringIO(), io.StringIO()
    assert main(["validate", str(path)], stdout=out, stderr=err) == 2
    assert "cat.jsonl.gz" in err.getvalue()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=6))
def test_compressed_and_plain_files_read_alike(messages: list[str]) -> None:
    envelopes = [
        make_envelope(id=f"{k:016x}", slug=f"m-{k}", errorMessage=m or "x", messagePattern="x")
        for k, m in enumerate(messages)
    ]
    plain = canonical_files(envelopes)
    packed = canonical_files(envelopes, compress=True)
    assert {n.removesuffix(".gz") for n in packed} == set(plain)
    assert all(gzip.decompress(packed[n + ".gz"]) == plain[n] for n in plain)
    assert content_digest(packed) == content_digest(plain)
    assert compressed(plain) == packed  # reproducible: same bytes every time


def test_data_directory_of_compressed_files_checks_and_builds(tmp_path: Path) -> None:
    root = tmp_path / "data"
    (root / "records").mkdir(parents=True)
    (root / "records" / "sgl-project__sglang.jsonl.gz").write_bytes(
        _gz([json.dumps(o) for o in seed_objects()])
    )
    (root / "SOURCES.json").write_text('{"sources": []}', encoding="utf-8")
    result = build(root, dist=tmp_path / "dist")
    assert list(result.manifest["files"]) == ["records/sgl-project__sglang.jsonl.gz"]
    packed = (root / "records" / "sgl-project__sglang.jsonl.gz").read_bytes()
    assert result.manifest["files"]["records/sgl-project__sglang.jsonl.gz"] == {
        "count": 3,
        "sha256": hashlib.sha256(packed).hexdigest(),
    }
    assert check([root]).ok
    assert len(Catalog.from_path(root)) == 3
    assert len(Catalog.from_path(result.artifact)) == 3
    again = build(root, dist=tmp_path / "dist")
    assert again.written == []  # building twice changes nothing
    (root / "records" / "sgl-project__sglang.jsonl.gz").write_bytes(packed[:-9] + b"\0" * 9)
    with pytest.raises(CatalogSourceError, match="sha256 does not match"):
        Catalog.from_path(root)


def test_size_of_compressed_data_counts_what_it_holds(tmp_path: Path) -> None:
    text = "".join(line + "\n" for line in _records(50)).encode()
    path = tmp_path / "cat.jsonl.gz"
    path.write_bytes(gzip.compress(text))
    assert data_size(path) == len(text) > path.stat().st_size


# -- the stored index of compressed data -------------------------------------------------


def test_lazy_compressed_catalog_is_decompressed_once_into_the_cache(
    tmp_path: Path, cache: Path
) -> None:
    path = tmp_path / "cat.jsonl.gz"
    path.write_bytes(_gz([*_records(30), "{broken"]))
    catalog = Catalog.from_path(path, lazy=True)
    assert len(catalog) == 30
    assert [str(p) for p in catalog.problems] == [
        f"{path}:31: invalid JSON: " + str(catalog.problems[0]).split("invalid JSON: ", 1)[1]
    ]
    inflated = list((cache / "inflated").iterdir())
    assert len(inflated) == 1 and inflated[0].name.endswith("-cat.jsonl")
    m = errcat.match_error(
        "ValueError: widget 'w' broke in stage 7 of the pipeline", catalog=catalog
    )
    assert m is not None and m.record.id == f"{7:016x}"
    index = next(cache.glob("*.errcat-index"))  # a cache directory is set: the index goes there
    stamp = index.stat().st_mtime_ns
    again = Catalog.from_path(path, lazy=True)
    assert len(again) == 30 and index.stat().st_mtime_ns == stamp  # reused, not rebuilt


def _bundle(tmp_path: Path, records: list[str]) -> Path:
    root = tmp_path / "bundle"
    (root / "records").mkdir(parents=True)
    packed = _gz(records)
    (root / "records" / "x__y.jsonl.gz").write_bytes(packed)
    manifest = {
        "dataVersion": "2026-01-02T00:00:00.000Z",
        "schemaVersion": 2,
        "count": len(records),
        "files": {
            "records/x__y.jsonl.gz": {
                "count": len(records),
                "sha256": hashlib.sha256(packed).hexdigest(),
            }
        },
        "contentSha256": "ab" * 32,
    }
    (root / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return root


def test_bundled_data_is_indexed_once_into_the_cache_named_by_its_checksum(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _bundle(tmp_path, _records(20))
    monkeypatch.setattr(bundled_module, "bundled_data_dir", lambda: root)
    catalog = load_bundled(lazy=True)
    assert len(catalog) == 20 and catalog.data_version == "2026-01-02T00:00:00.000Z"
    index = bundled_index_path(cache, read_manifest(root))
    assert index.is_file() and index.name == f"bundled-{'ab' * 10}-v{FORMAT_VERSION}.errcat-index"
    assert not list(root.rglob("*.errcat-index"))  # nothing written beside the installed data
    stamp = index.stat().st_mtime_ns
    assert len(load_bundled(lazy=True)) == 20 and index.stat().st_mtime_ns == stamp


def test_bundled_data_loads_into_memory_when_the_cache_is_not_writable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    root = _bundle(tmp_path, _records(5))
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be", encoding="utf-8")
    monkeypatch.setenv("ERRCAT_CACHE_DIR", str(blocker / "errcat"))
    monkeypatch.setattr(bundled_module, "bundled_data_dir", lambda: root)
    with caplog.at_level(logging.WARNING, logger="errcat"):
        catalog = load_bundled(lazy=True)
    assert len(catalog) == 5
    assert "loading the bundled catalog into memory" in caplog.text


def test_damaged_bundled_data_is_an_error_not_a_fallback(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _bundle(tmp_path, _records(5))
    path = root / "records" / "x__y.jsonl.gz"
    path.write_bytes(path.read_bytes()[:-1] + b"\x01")
    monkeypatch.setattr(bundled_module, "bundled_data_dir", lambda: root)
    with pytest.raises(CatalogSourceError, match=r"x__y\.jsonl\.gz"):
        load_bundled(lazy=True)


# -- the committed data ------------------------------------------------------------------


def test_committed_data_matches_its_manifest() -> None:
    manifest = read_manifest(DATA_DIR)
    assert manifest["dataVersion"] == errcat.DATA_VERSION
    total = 0
    for name, meta in manifest["files"].items():
        raw = (DATA_DIR / name).read_bytes()
        assert hashlib.sha256(raw).hexdigest() == meta["sha256"], name
        text = gzip.decompress(raw) if name.endswith(".gz") else raw
        assert text.count(b"\n") == meta["count"], name
        total += meta["count"]
    assert total == manifest["count"] == sum(manifest["counts"]["byRepo"].values())
    on_disk = {p.relative_to(DATA_DIR).as_posix() for p in (DATA_DIR / "records").iterdir()}
    history = manifest.get("history", {})
    assert on_disk == set(manifest["files"]) | set(history)
    for name, meta in history.items():  # each history sidecar: its checksum, and it loads
        raw = (DATA_DIR / name).read_bytes()
        assert hashlib.sha256(raw).hexdigest() == meta["sha256"], name
        assert len(History.load(DATA_DIR / name)) == meta["lineages"]


def test_readme_says_what_the_manifest_says() -> None:
    manifest: dict[str, Any] = read_manifest(DATA_DIR)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert build_data.readme_section(manifest) in readme


def test_sources_name_every_project_the_data_holds() -> None:
    spec = json.loads((DATA_DIR / "SOURCES.json").read_text(encoding="utf-8"))
    manifest = read_manifest(DATA_DIR)
    named = {s["repo"] for s in spec["sources"]}
    for path in spec["curated"]:
        assert (ROOT / path).is_file()
        with (ROOT / path).open(encoding="utf-8") as lines:
            # a curated file of another project (torch, NCCL, ...) names its repo in each record
            named |= {json.loads(line)["record"]["repo"] for line in lines if line.strip()}
    assert set(manifest["counts"]["byRepo"]) <= named


def test_released_data_is_indexed_without_validating_again_and_alike(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checksum-verified release is read without pydantic; the index is the same as when
    every line is validated, and a line that is not a record is still reported."""
    from errcat.store import build as store_module

    lines = [*_records(12), '{"record": {"id": "broken"}}', "not json"]
    root = _bundle(tmp_path, lines)
    validated: list[int] = []
    real = store_module.validated_fields

    def counting(raw: bytes, source: str, line: int) -> Any:
        validated.append(line)
        return real(raw, source, line)

    monkeypatch.setattr(store_module, "validated_fields", counting)
    monkeypatch.setattr(bundled_module, "bundled_data_dir", lambda: root)
    catalog = load_bundled(lazy=True)
    assert validated == [13, 14]  # only the lines a release could not hold
    assert len(catalog) == 12
    problems = [str(p) for part in catalog.parts for p in getattr(part, "problems", ())]
    assert len(problems) == 2
    assert "x__y.jsonl.gz:13" in problems[0] and "x__y.jsonl.gz:14" in problems[1]
    plain = tmp_path / "plain.jsonl"
    plain.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    checked = Catalog.from_path(plain, lazy=True)
    assert [r.model_dump() for r in catalog] == [r.model_dump() for r in checked]
    text = "ValueError: widget gear broke in stage 7 of the pipeline"
    assert errcat.match_error(text, catalog) == errcat.match_error(text, checked) is not None


def test_a_wheels_prebuilt_index_is_used_instead_of_indexing(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index a wheel carries serves the first load; one for other data is not used."""
    from errcat.store import build as store_module

    root = _bundle(tmp_path, _records(25))
    shipped = tmp_path / "prebuilt"
    built = bundled_module.build_prebuilt(root, shipped)
    assert built.name == bundled_index_path(cache, read_manifest(root)).name + ".gz"
    assert gzip.decompress(built.read_bytes())[:8] == b"ERRCATIX"
    again = bundled_module.build_prebuilt(root, tmp_path / "again")
    assert again.read_bytes() == built.read_bytes()  # a wheel build is reproducible
    monkeypatch.setattr(bundled_module, "bundled_data_dir", lambda: root)
    monkeypatch.setattr(bundled_module, "prebuilt_dir", lambda: shipped)
    scans: list[int] = []
    real = store_module.scan_files

    def scan(*args: Any, **kwargs: Any) -> Any:
        scans.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(store_module, "scan_files", scan)
    catalog = load_bundled(lazy=True)
    assert len(catalog) == 25 and scans == []
    text = "ValueError: widget gear broke in stage 7 of the pipeline"
    match = errcat.match_error(text, catalog)
    assert match is not None and match.summary.id == f"{7:016x}"
    # Other data (another checksum): the shipped index is not it, so the data is indexed.
    other = _bundle(tmp_path / "other", _records(5))
    manifest = json.loads((other / "manifest.json").read_text(encoding="utf-8"))
    manifest["contentSha256"] = "cd" * 32
    (other / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    monkeypatch.setattr(bundled_module, "bundled_data_dir", lambda: other)
    assert len(load_bundled(lazy=True)) == 5 and scans == [1]
    # A damaged shipped index is rebuilt, never trusted.
    (shipped / built.name).write_bytes(built.read_bytes()[:200])
    monkeypatch.setattr(bundled_module, "bundled_data_dir", lambda: root)
    for stale in cache.glob("*.errcat-index"):
        stale.unlink()
    assert len(load_bundled(lazy=True)) == 25 and scans == [1, 1]
