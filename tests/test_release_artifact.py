"""The release artifact: loaded like any catalog, refused whole when damaged."""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from conftest import SEED_RELEASE_DIR
from errcat.catalog import Catalog
from errcat.cli import main
from errcat.errors import CatalogSourceError
from errcat.loaders import is_artifact, iter_path, read_artifact
from errcat.release import build

ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = SEED_RELEASE_DIR  # the seeds as a release: small and fixed
RECORDS = "records/sgl-project__sglang.jsonl"


@pytest.fixture(scope="module")
def artifact(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("release")
    shutil.copytree(DATA_DIR, tmp / "data")
    return build(tmp / "data").artifact


def _expected_sha() -> str:
    manifest = json.loads((DATA_DIR / "manifest.json").read_text(encoding="utf-8"))
    return str(manifest["files"][RECORDS]["sha256"])


def test_artifact_holds_the_manifest_and_the_records(artifact: Path) -> None:
    with zipfile.ZipFile(artifact) as archive:
        assert archive.namelist() == ["manifest.json", RECORDS]
        assert archive.read(RECORDS) == (DATA_DIR / RECORDS).read_bytes()
    manifest, contents = read_artifact(artifact)
    assert manifest["dataVersion"] == "2026-08-28T06:17:29.519Z"
    assert list(contents) == [RECORDS]
    assert is_artifact(artifact)
    assert not is_artifact(DATA_DIR / RECORDS)


def test_catalog_and_cli_load_the_artifact(
    artifact: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = Catalog.from_path(artifact)
    assert sorted(r.id for r in catalog) == sorted(r.id for r in Catalog.from_path(DATA_DIR))
    sources = {item.source for item in iter_path(artifact)}
    assert sources == {f"{artifact}!{RECORDS}"}
    assert main(["list", "--no-bundled", "--catalog", str(artifact)]) == 0
    assert "3fe9ad44079a5344" in capsys.readouterr().out


def _refused(path: Path) -> str:
    items = iter_path(path)
    with pytest.raises(CatalogSourceError) as info:
        next(items)  # nothing is yielded before the whole artifact is verified
    with pytest.raises(CatalogSourceError):
        Catalog.from_path(path)
    message = str(info.value)
    assert message.startswith(str(path)) and "\n" not in message
    return message


@pytest.mark.parametrize("keep", [0.25, 0.5, 0.8, 0.97, 0.999])
def test_truncated_artifact_is_refused(artifact: Path, tmp_path: Path, keep: float) -> None:
    raw = artifact.read_bytes()
    cut = tmp_path / artifact.name
    cut.write_bytes(raw[: int(len(raw) * keep)])
    message = _refused(cut)
    assert "truncated" in message
    records_start = raw.index(RECORDS.encode())
    if int(len(raw) * keep) > records_start + len(RECORDS) + 10:
        assert RECORDS in message or "every member" in message
    if RECORDS in message:
        assert f"expected sha256 {_expected_sha()}" in message


def test_altered_artifact_names_the_file_and_both_checksums(artifact: Path, tmp_path: Path) -> None:
    altered = tmp_path / artifact.name
    with zipfile.ZipFile(artifact) as src, zipfile.ZipFile(altered, "w") as out:
        for name in src.namelist():
            data = src.read(name)
            if name == RECORDS:
                data = data.replace(b"DeepEP", b"DeepEQ", 1)
            out.writestr(name, data)
    message = _refused(altered)
    match = re.search(rf"{re.escape(RECORDS)}: sha256 ([0-9a-f]{{64}}) does not match", message)
    assert match is not None and match.group(1) != _expected_sha()
    assert f"the manifest's {_expected_sha()}" in message


def test_flipped_byte_is_refused_with_the_file(artifact: Path, tmp_path: Path) -> None:
    raw = bytearray(artifact.read_bytes())
    with zipfile.ZipFile(artifact) as archive:
        info = archive.getinfo(RECORDS)
    raw[info.header_offset + 30 + len(RECORDS) + 200] ^= 0x55
    damaged = tmp_path / artifact.name
    damaged.write_bytes(bytes(raw))
    message = _refused(damaged)
    assert RECORDS in message and _expected_sha() in message


def test_members_must_match_the_manifest(artifact: Path, tmp_path: Path) -> None:
    extra = tmp_path / "extra.zip"
    shutil.copy(artifact, extra)
    with zipfile.ZipFile(extra, "a") as archive:
        archive.writestr("records/smuggled.jsonl", "{}\n")
    assert "records/smuggled.jsonl is in the archive but not in its manifest" in _refused(extra)

    missing = tmp_path / "missing.zip"
    with zipfile.ZipFile(artifact) as src, zipfile.ZipFile(missing, "w") as out:
        out.writestr("manifest.json", src.read("manifest.json"))
    assert f"{RECORDS}: listed in the manifest but missing" in _refused(missing)

    bare = tmp_path / "bare.zip"
    with zipfile.ZipFile(bare, "w") as out:
        out.writestr(RECORDS, (DATA_DIR / RECORDS).read_bytes())
    assert "no manifest.json" in _refused(bare)

    not_zip = tmp_path / "junk.zip"
    not_zip.write_bytes(b"this is not an archive")
    assert "cannot be read" in _refused(not_zip)


def test_artifact_is_reproducible(artifact: Path, tmp_path: Path) -> None:
    shutil.copytree(DATA_DIR, tmp_path / "data")
    again = build(tmp_path / "data").artifact
    assert again.read_bytes() == artifact.read_bytes()
    assert next(iter_path(again)).envelope is not None
