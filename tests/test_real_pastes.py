"""Regression floor on real sglang/vllm error pastes, and the shape of the paste corpus.

The sample (``tests/data/real_pastes_sample.jsonl``) holds pastes quoted from
public issues, each with its issue URL; ``tests/data/real_pastes_records.jsonl``
holds the records their labels name (mined from sglang 0.5.23 and vllm 0.33.0),
the records raising the same template elsewhere, and a few distractors from
the same files. Both are written by ``benchmarks/bench_pastes.py
--write-test-sample`` from the full corpus ``benchmarks/data/real_pastes.jsonl``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import errcat
from errcat import Catalog

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "data" / "real_pastes_sample.jsonl"
RECORDS = HERE / "data" / "real_pastes_records.jsonl"
CORPUS = HERE.parent / "benchmarks" / "data" / "real_pastes.jsonl"

# Measured on 2026-11-30 with the catalog above: 10 of the 20 answerable pastes
# of the sample get the labelled record from match_error (the full benchmark:
# 31 of 72). With the calibrated confidence (issue 9): 9, counting the sites an
# answer names as raising the same message; the floor follows that measurement.
# Raise it as the matcher improves. Raised to 13 on 2026-11-30 (pastes2: frames meet
# their file at the package, HTTP status names, wrapper tags, a cut traceback after a
# logged message, an escaped quote in a JSON body). Measured 15 on 2026-12-01 (pastes3),
# before and after its changes, and raised to that.
TOP1_FLOOR = 15
# Measured the same day: none of the sample's unanswerable pastes got an answer.
FALSE_CONFIDENT_CEILING = 0


#: Where the bundled data's records are raised: sglang's history mines sgl-kernel's
#: Python package beside python/sglang.
_MINED_ROOTS = ("python/sglang/", "sgl-kernel/python/", "vllm/")


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_path(RECORDS, strict=True)


def _is_right(match: errcat.Match | None, expect: dict[str, Any]) -> bool:
    """The answer, or a record it names as raising the same message, is the labelled one.

    sglang copies vllm code and raises one message from several files; when no
    frame tells those apart the answer lists them all (``Match.alternatives``).
    """
    if match is None or not match.summary.error_message.startswith(expect["message_prefix"]):
        return False
    files = {match.summary.file_path, *(a.file_path for a in match.alternatives)}
    return expect["file_path"] in files


def test_top1_on_answerable_sample_stays_at_or_above_the_floor(catalog: Catalog) -> None:
    answerable = [p for p in _read(SAMPLE) if "file_path" in p["expect"]]
    assert len(answerable) == 20
    right = [
        p["id"]
        for p in answerable
        if _is_right(errcat.match_error(p["text"], catalog=catalog), p["expect"])
    ]
    assert len(right) >= TOP1_FLOOR, f"right on {len(right)}: {right}"


def test_unanswerable_sample_gets_no_confident_answer(catalog: Catalog) -> None:
    unanswerable = [p for p in _read(SAMPLE) if "file_path" not in p["expect"]]
    assert unanswerable
    answered = [p["id"] for p in unanswerable if errcat.match_error(p["text"], catalog=catalog)]
    assert len(answered) <= FALSE_CONFIDENT_CEILING, answered


def test_every_label_of_the_sample_names_a_record_of_the_sample_catalog(catalog: Catalog) -> None:
    records = [e["record"] for e in _read(RECORDS)]
    assert len(catalog) == len(records)
    for paste in _read(SAMPLE):
        e = paste["expect"]
        if "file_path" not in e:
            continue
        assert any(
            r["filePath"] == e["file_path"] and r["errorMessage"].startswith(e["message_prefix"])
            for r in records
        ), paste["id"]


def test_sample_pastes_are_copies_of_corpus_entries() -> None:
    corpus = {p["id"]: p for p in _read(CORPUS)}
    for paste in _read(SAMPLE):
        assert corpus[paste["id"]] == paste


def test_corpus_entries_are_attributed_and_labelled() -> None:
    pastes = _read(CORPUS)
    ids = [p["id"] for p in pastes]
    assert len(ids) == len(set(ids)) >= 80
    for p in pastes:
        assert set(p) == {"id", "url", "repo", "version", "text", "expect"}, p["id"]
        assert p["url"].startswith("https://github.com/"), p["id"]
        assert p["repo"] in {"sgl-project/sglang", "vllm-project/vllm", "other"}, p["id"]
        assert p["text"].strip(), p["id"]
        e = p["expect"]
        if e.get("answerable") is False:
            assert e["why"].strip(), p["id"]
            assert "file_path" not in e, p["id"]
            assert set(e) <= {"answerable", "why", "old_site", "note"}, p["id"]
            if "old_site" in e:
                # A message the newest revision lacks, raised at this site in an older one:
                # the note says where it was verified in the project's git history.
                site = e["old_site"]
                assert set(site) == {"file_path", "error_class", "message_prefix"}, p["id"]
                assert site["file_path"].startswith(_MINED_ROOTS), p["id"]
                assert "verified" in e["note"], p["id"]
        else:
            assert e["file_path"].startswith(_MINED_ROOTS), p["id"]
            assert e["error_class"], p["id"]
            # A raise without a message is labelled by its statement's slug instead.
            assert bool(e["message_prefix"]) != bool(e.get("slug")), p["id"]
            keys = {"file_path", "error_class", "message_prefix", "also", "note", "slug"}
            assert set(e) <= keys, p["id"]


def _bench_pastes() -> Any:
    """``benchmarks/bench_pastes.py`` as a module (the benchmarks folder is not a package)."""
    import importlib
    import sys

    bench = str(HERE.parent / "benchmarks")
    if bench not in sys.path:
        sys.path.insert(0, bench)
    return importlib.import_module("bench_pastes")


def test_bench_counts_a_record_on_the_labelled_lineage_only_through_history(
    tmp_path: Path,
) -> None:
    """An older revision's record is right when the history links it, never by its file name."""
    from datetime import datetime, timezone

    from conftest import make_envelope
    from errcat.history import History, Lineage, Revision, Site, sidecar_path
    from errcat.patterns import template_to_pattern

    bench = _bench_pastes()
    records = {
        "1111111111111111": ("pkg/old.py", "cache too small: {n}"),
        "2222222222222222": ("pkg/new.py", "cache too small: {n}; raise the limit"),
        "3333333333333333": ("pkg/other.py", "cache too small: {n} (other)"),
    }
    out = tmp_path / "cat.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for rid, (path, message) in records.items():
            env = make_envelope(
                id=rid,
                filePath=path,
                errorMessage=message,
                messagePattern=template_to_pattern(message),
                slug=f"slug-{rid[0]}",
            )
            fh.write(env.model_dump_json(by_alias=True) + "\n")
    r1 = Revision("v1", "a" * 40, datetime(2025, 1, 1, tzinfo=timezone.utc))
    r2 = Revision("v2", "b" * 40, datetime(2025, 6, 1, tzinfo=timezone.utc))
    History(
        "example/project",
        (r1, r2),
        [
            Lineage("1111111111111111", (Site(r1, "pkg/old.py", 3),), successor="2222222222222222"),
            Lineage(
                "2222222222222222", (Site(r2, "pkg/new.py", 4),), predecessor="1111111111111111"
            ),
            Lineage("3333333333333333", (Site(r1, "pkg/was.py", 2), Site(r2, "pkg/other.py", 5))),
        ],
    ).dump(sidecar_path(out))
    catalog = Catalog.from_path(out)
    old = errcat.match_error("ValueError: cache too small: 7", catalog)
    assert old is not None and old.summary.id == "1111111111111111"
    others = errcat.match_all("ValueError: cache too small: 7 (other)", catalog)
    unlinked = next(m for m in others if m.summary.id == "3333333333333333")
    label = {"file_path": "pkg/new.py", "error_class": "ValueError", "message_prefix": "cache"}
    assert bench.lineage_of("1111111111111111", catalog) == ["2222222222222222"]
    assert bench.is_right(old, label, catalog=catalog)
    assert not bench.is_right_directly(old, label)
    assert not bench.is_right(unlinked, label, catalog=catalog)
    # Without the history, the old record is not the labelled one.
    assert not bench.is_right(old, label, catalog=None)
    # A label of the file the message was raised from before its code moved: the record,
    # through its own lineage's sites (and its template).
    was = {"file_path": "pkg/was.py", "error_class": "ValueError", "message_prefix": "cache"}
    assert bench.is_right(unlinked, was, catalog=catalog)
    assert not bench.is_right(unlinked, {**was, "message_prefix": "disk"}, catalog=catalog)
    assert not bench.is_right(unlinked, was, catalog=None)
    # Placeholder names aside, a label's prefix names the same template.
    renamed = {
        "file_path": "pkg/old.py",
        "error_class": "ValueError",
        "message_prefix": "cache too small: {size}",
    }
    assert bench.is_right_directly(old, renamed)


def test_bench_knows_a_bare_assert_by_its_statement(tmp_path: Path) -> None:
    """A holdout label of a bare ``assert`` names its source line; the record is the slug's."""
    from conftest import make_envelope

    bench = _bench_pastes()
    statement = "assert param.size() == loaded_weight.size()"
    bare = make_envelope(
        id="4444444444444444",
        filePath="pkg/linear.py",
        errorMessage="",
        messagePattern="",
        slug="assert-param-size-loaded-weight-size",
    ).record
    other = make_envelope(
        id="5555555555555555",
        filePath="pkg/linear.py",
        errorMessage="",
        messagePattern="",
        slug="assert-param-is-not-none",
    ).record
    label = {"file_path": "pkg/linear.py", "error_class": "AssertionError", "statement": statement}
    assert bench._fits(bare, label, False)
    assert not bench._fits(other, label, False)
