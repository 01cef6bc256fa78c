from __future__ import annotations

import threading

import pytest

import errcat
from conftest import DATA_DIR, SEEDS_FILE, make_envelope
from errcat.catalog import Catalog
from errcat.errors import UnknownRecordError
from errcat.loaders import read_manifest


def test_seeds_fixture_holds_the_seeds(bundled: Catalog) -> None:
    assert len(bundled) == 3
    assert {r.id for r in bundled} == {"e06cd5f724ab16c0", "3fe9ad44079a5344", "70e072f5fc32f001"}


def test_bundled_catalog_is_what_its_manifest_says() -> None:
    manifest = read_manifest(DATA_DIR)
    catalog = Catalog.bundled()
    assert Catalog.bundled() is catalog
    assert len(catalog) == manifest["count"]
    assert catalog.data_version == errcat.DATA_VERSION == manifest["dataVersion"]
    seeds = {r.id for r in Catalog.from_path(SEEDS_FILE)}
    assert seeds <= {r.id for r in catalog.filter(repo="sgl-project/sglang")}


def test_bundled_is_built_once_across_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    import errcat.default as module

    monkeypatch.setattr(module, "_bundled", None)
    results: list[Catalog] = []
    threads = [threading.Thread(target=lambda: results.append(Catalog.bundled())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(c) for c in results}) == 1


def test_lookup_by_id_and_slug(bundled: Catalog) -> None:
    by_id = errcat.lookup("70e072f5fc32f001")
    assert errcat.lookup(by_id.slug) is by_id
    assert bundled.get("nope") is None
    with pytest.raises(UnknownRecordError) as info:
        errcat.lookup("nope")
    assert isinstance(info.value, LookupError)
    assert "'nope'" in str(info.value)


def test_membership(bundled: Catalog) -> None:
    record = bundled["e06cd5f724ab16c0"]
    assert record in bundled
    assert "e06cd5f724ab16c0" in bundled
    assert record.slug in bundled
    assert 42 not in bundled
    assert make_envelope().record not in bundled


def test_filter(bundled: Catalog) -> None:
    assert len(bundled.filter(repo="sgl-project/sglang")) == 3
    assert len(bundled.filter(repo="other/repo")) == 0
    assert len(bundled.filter(error_class="ValueError")) == 3
    assert len(bundled.filter(error_class="builtins.ValueError")) == 0
    assert [r.id for r in bundled.filter(tag="speculative-decoding")] == ["3fe9ad44079a5344"]
    assert len(bundled.filter(tag="moe", error_class="ValueError")) == 3


def test_filter_matches_the_last_part_of_qualified_classes() -> None:
    catalog = Catalog([make_envelope(errorClass="json.decoder.JSONDecodeError")])
    assert len(catalog.filter(error_class="JSONDecodeError")) == 1
    assert len(catalog.filter(error_class="json.decoder.JSONDecodeError")) == 1


def test_merge_later_wins_and_keeps_envelopes(bundled: Catalog) -> None:
    mine = Catalog([make_envelope(), make_envelope(id="f" * 16, slug="other")])
    merged = bundled.merge(mine)
    assert len(merged) == 5
    assert len(list(merged.envelopes())) == 5
    again = merged.merge(Catalog([make_envelope(documentation="changed")]))
    assert again["0123456789abcdef"].documentation == "changed"


def test_catalog_refuses_other_items() -> None:
    with pytest.raises(TypeError, match="RecordEnvelope or ErrorRecord"):
        Catalog(["not a record"])  # type: ignore[list-item]


def test_import_reads_no_data() -> None:
    import subprocess
    import sys

    code = (
        "import sys, errcat, errcat.default as c; "
        "assert c._bundled is None; assert 'DATA_VERSION' not in vars(errcat); print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.stdout.strip() == "ok", out.stderr
