"""release check / build / diff: one fixture per rule, builds, diffs, the command line."""

from __future__ import annotations

import argparse
import gzip
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SEED_RELEASE_DIR
from errcat.catalog import Catalog
from errcat.lint import RULES
from errcat.loaders import iter_path, read_manifest
from errcat.models import EXAMPLE_ENVELOPE_JSON, ErrorRecord, RecordEnvelope
from errcat.release import (
    ReleaseRefusedError,
    Withdrawal,
    add_arguments,
    artifact_name,
    build,
    check,
    diff,
    diff_records,
    run,
    write_data_dir,
)

ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = SEED_RELEASE_DIR  # the seeds as a release: small and fixed
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "release"
RULE_FIXTURES = FIXTURES / "rules"

# Ids of the fixture records (see tests/fixtures/release/README.md).
VALID_ID = "7201c1e758662b7f"
KEEP, WITHDRAW, PATTERN, SOLUTION, ADDED = (
    "35078a6bb22f93cb",
    "3c2f53001d7630c3",
    "c9b3527aa134beeb",
    "f3c67607cfe5c395",
    "30bcff81fcd58ca2",
)
V1, V2 = "2026-09-01T12:00:00Z", "2026-09-02T12:00:00Z"


def _cli(argv: list[str]) -> tuple[int, str, str]:
    """Run ``errcat release ARGV`` through the parser the CLI wires in."""
    parser = argparse.ArgumentParser(prog="errcat release")
    add_arguments(parser)
    out, err = io.StringIO(), io.StringIO()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0), "", ""
    return run(args, stdout=out, stderr=err), out.getvalue(), err.getvalue()


# --- check: one fixture per rule ------------------------------------------------------------

#: fixture -> (rule, level, id of the violating record, other rules it may also break)
CASES: dict[str, tuple[str, str, str | None, set[str]]] = {
    "schema-unknown-field.jsonl": ("schema", "error", "457c95a08cace265", set()),
    "schema-wrong-type.jsonl": ("schema", "error", "7a09f5973eea2710", set()),
    "schema-version.jsonl": ("schema", "error", "fb7e993707ce1c32", set()),
    "unique-id.jsonl": ("unique-id", "error", VALID_ID, set()),
    "pattern-compiles.jsonl": ("pattern-compiles", "error", "9a3c9cb008159cf6", set()),
    "pattern-groups.jsonl": ("pattern-groups", "error", "bc91dc8de2148fa9", {"self-match"}),
    "pattern-backtracking.jsonl": (
        "pattern-backtracking",
        "error",
        "ef267541c9e3a9ff",
        {"pattern-speed"},
    ),
    "pattern-speed.jsonl": ("pattern-speed", "error", "b9dbbfce7af4c3a2", set()),
    "self-match.jsonl": ("self-match", "error", "4dcb6016a3e54424", set()),
    "shadowing.jsonl": ("shadowing", "error", "60941677e25c1fda", set()),
    "shadowing-frames.jsonl": ("shadowing", "warning", "8de4e19f1fc303ae", set()),
    "github-url.jsonl": ("github-url", "error", "df2b65b30d97804c", set()),
    "line-in-span.jsonl": ("line-in-span", "error", "23c2262018927b2e", set()),
    "source-lines.jsonl": ("source-lines", "error", "ccf1dd13e06baa93", set()),
    "slug.jsonl": ("slug", "error", "fb7a6d4accdf4efb", set()),
    "slug-long.jsonl": ("slug", "error", "bf0444432a941300", set()),
    "curated.jsonl": ("curated", "error", "20b16840ed5778c5", set()),
    "draft.jsonl": ("draft", "error", "7d3afe717c043c02", set()),
    "generated.jsonl": ("generated", "error", "72fe85a0d6e024b2", set()),
    "withdrawn": ("withdrawn", "error", "2b538572b86f79fa", set()),
    "manifest": ("manifest", "error", None, set()),
}


def test_every_rule_has_a_fixture() -> None:
    assert {rule for rule, *_ in CASES.values()} == set(RULES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_check_reports_the_violation(name: str) -> None:
    rule, level, record_id, also = CASES[name]
    report = check([RULE_FIXTURES / name])
    hits = [f for f in report.findings if f.rule == rule and f.level == level]
    assert hits, report.to_text()
    assert all(f.record_id == record_id for f in hits)
    finding = hits[0]
    assert finding.path is not None and name in finding.path
    assert finding.line is not None and finding.message and "\n" not in finding.message
    others = {f.rule for f in report.findings if f.level == "error"} - {rule}
    assert others <= also, report.to_text()
    assert report.ok == (level != "error")


def test_valid_fixture_and_bundled_data_pass() -> None:
    for path in (FIXTURES / "valid.jsonl", DATA_DIR):
        report = check([path])
        assert report.findings == [], report.to_text()
        assert report.ok


def test_allowed_drafts_are_reported_not_refused() -> None:
    report = check([RULE_FIXTURES / "draft.jsonl"], allow_drafts=True)
    assert report.ok
    assert [(f.rule, f.level) for f in report.findings] == [("draft", "info")]


def test_generated_records_are_told_apart_from_curated_ones() -> None:
    report = check([RULE_FIXTURES / "generated.jsonl"], allow_drafts=True)
    assert report.ok
    # No exampleFix, yet not held to the curated rule: its advice is generated.
    assert [(f.rule, f.level) for f in report.findings] == [("generated", "info")]


def test_unsafe_pattern_in_an_allowed_draft_is_a_warning(tmp_path: Path) -> None:
    line = (RULE_FIXTURES / "pattern-speed.jsonl").read_text(encoding="utf-8")
    env = json.loads(line)
    env["record"].update(documentation="", solutions=[], exampleFix="")
    (tmp_path / "draft.jsonl").write_text(json.dumps(env) + "\n", encoding="utf-8")
    report = check([tmp_path / "draft.jsonl"], allow_drafts=True)
    assert report.ok
    levels = {f.rule: f.level for f in report.findings}
    assert levels["pattern-speed"] == "warning"


def test_checking_several_paths_is_one_catalog() -> None:
    report = check([FIXTURES / "valid.jsonl", RULE_FIXTURES / "unique-id.jsonl"])
    ids = [f for f in report.findings if f.rule == "unique-id"]
    assert len(ids) == 2 and report.records == 3


# --- the command line ----------------------------------------------------------------------


def test_cli_check_text_json_and_exit_codes() -> None:
    code, out, _ = _cli(["check", str(FIXTURES / "valid.jsonl")])
    assert code == 0 and "checked 1 record from" in out and "0 error(s)" in out
    code, out, _ = _cli(["check", str(RULE_FIXTURES / "slug.jsonl"), "--json"])
    payload = json.loads(out)
    assert code == 1 and payload["ok"] is False and payload["counts"]["error"] == 1
    (finding,) = payload["findings"]
    assert finding["rule"] == "slug" and finding["line"] == 1
    assert finding["recordId"] == "fb7a6d4accdf4efb"
    assert finding["path"].endswith("slug.jsonl")


def test_cli_check_hides_info_unless_verbose() -> None:
    path = str(RULE_FIXTURES / "draft.jsonl")
    code, out, _ = _cli(["check", path, "--allow-drafts"])
    assert code == 0 and "info[draft]" not in out and "1 info findings not shown" in out
    code, out, _ = _cli(["check", path, "--allow-drafts", "-v"])
    assert code == 0 and "info[draft] 7d3afe717c043c02" in out


def test_cli_unreadable_input_is_exit_2(tmp_path: Path) -> None:
    code, _, err = _cli(["check", str(tmp_path / "nope.jsonl")])
    assert code == 2 and "No such file or directory" in err
    (tmp_path / "x.zip").write_bytes(b"PK\x03\x04 not really")
    code, _, err = _cli(["diff", str(tmp_path / "x.zip"), str(DATA_DIR)])
    assert code == 2 and "x.zip" in err
    code, _, _ = _cli(["build", str(tmp_path), "--version", "yesterday"])
    assert code == 2


def test_errcat_release_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from errcat.cli import main

    assert main(["release", "check", str(FIXTURES / "valid.jsonl")]) == 0
    assert "checked 1 record" in capsys.readouterr().out
    assert main(["release", "check", str(RULE_FIXTURES / "slug.jsonl"), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["counts"]["error"] == 1
    assert main(["release", "check", str(tmp_path / "missing")]) == 2
    assert "No such file or directory" in capsys.readouterr().err
    data = _copy_data(tmp_path, FIXTURES / "v1")
    assert main(["release", "build", str(data), "--version", V1]) == 0
    assert f"data version {V1}" in capsys.readouterr().out
    artifact = tmp_path / "dist" / artifact_name(V1)
    assert main(["release", "diff", str(artifact), str(data)]) == 0
    assert capsys.readouterr().out.startswith(f"- Data version {V1}: 4 records; 0 added")
    assert main(["list", "--no-bundled", "--catalog", str(artifact)]) == 0
    assert KEEP in capsys.readouterr().out


# --- build ---------------------------------------------------------------------------------


def _copy_data(tmp_path: Path, source: Path = DATA_DIR) -> Path:
    data = tmp_path / "data"
    shutil.copytree(source, data)
    return data


def test_build_current_data_keeps_records_and_version(tmp_path: Path) -> None:
    data = _copy_data(tmp_path)
    before = read_manifest(DATA_DIR)
    result = build(data)
    manifest = read_manifest(data)
    for name in before["files"]:
        assert (data / name).read_bytes() == (DATA_DIR / name).read_bytes()
    for key in ("dataVersion", "schemaVersion", "count", "files"):
        assert manifest[key] == before[key]
    assert manifest["previous"] is None
    assert manifest["counts"] == {
        "byRepo": {"sgl-project/sglang": 3},
        "byClass": {"ValueError": 3},
    }
    assert manifest["drafts"] == 0 and manifest["withdrawn"] == []
    assert len(manifest["ids"]) == 3 and isinstance(manifest["codeVersion"], str)
    assert result.artifact == tmp_path / "dist" / artifact_name(before["dataVersion"])
    # Twice changes nothing, artifact included.
    snapshot = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    again = build(data)
    assert again.written == [] and again.removed == []
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == snapshot


def test_bundled_data_is_built() -> None:
    """data/ is what `release build` writes: its manifest carries the release fields."""
    manifest = read_manifest(DATA_DIR)
    assert {"codeVersion", "previous", "counts", "withdrawn", "ids"} <= set(manifest)


def test_build_refuses_when_check_has_errors(tmp_path: Path) -> None:
    data = tmp_path / "data" / "records"
    data.mkdir(parents=True)
    shutil.copy(RULE_FIXTURES / "slug.jsonl", data / "x.jsonl")
    with pytest.raises(ReleaseRefusedError, match="1 error") as info:
        build(tmp_path / "data")
    assert info.value.report is not None and not info.value.report.ok
    assert "error[slug]" in str(info.value)  # the refusal names the finding itself
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["data", "records", "x.jsonl"]
    code, out, err = _cli(["build", str(tmp_path / "data")])
    assert code == 1 and "error[slug]" in out and "refused" in err


def test_build_canonicalises_and_merges_files(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "records").mkdir(parents=True)
    lines = (FIXTURES / "v1" / "records" / "example__project.jsonl").read_text().splitlines()
    (data / "records" / "b.jsonl").write_text(lines[0] + "\n", encoding="utf-8")
    (data / "extra.json").write_text(json.dumps([json.loads(x) for x in lines[1:]]))
    result = build(data, version=V1)
    assert sorted(result.removed) == ["extra.json", "records/b.jsonl"]
    assert [p.name for p in (data / "records").iterdir()] == ["example__project.jsonl"]
    canonical = (FIXTURES / "v1" / "records" / "example__project.jsonl").read_bytes()
    assert (data / "records" / "example__project.jsonl").read_bytes() == canonical


def test_build_deletes_only_files_whose_records_it_moved(tmp_path: Path) -> None:
    """Case 19 of issue 28: build deleted every .json and .txt file under the directory,
    a notes.txt or a settings.json holding [] (no records) among them."""
    data = tmp_path / "data"
    (data / "records").mkdir(parents=True)
    lines = (FIXTURES / "v1" / "records" / "example__project.jsonl").read_text().splitlines()
    (data / "records" / "b.jsonl").write_text(lines[0] + "\n", encoding="utf-8")
    (data / "notes.txt").write_text("", encoding="utf-8")
    (data / "settings.json").write_text("[]", encoding="utf-8")
    result = build(data, version=V1)
    assert result.removed == ["records/b.jsonl"]
    assert (data / "notes.txt").is_file() and (data / "settings.json").read_text() == "[]"


@pytest.mark.parametrize("compress", [False, True])
def test_build_neither_reads_nor_removes_prose_files(tmp_path: Path, compress: bool) -> None:
    """Case 19 of issue 28: a notes.txt of prose was read as JSON Lines, each line a
    schema error, and the build refused the data over it."""
    data = tmp_path / "data"
    (data / "records").mkdir(parents=True)
    lines = (FIXTURES / "v1" / "records" / "example__project.jsonl").read_text().splitlines()
    (data / "records" / "b.jsonl").write_text(lines[0] + "\n", encoding="utf-8")
    notes = b"These are my notes about the data.\nRebuild it weekly: {see below}\n"
    if compress:
        (data / "notes.txt.gz").write_bytes(gzip.compress(notes))
    else:
        (data / "notes.txt").write_bytes(notes)
    (data / "README.txt").write_bytes(b"\n\n  [draft] read me\n")
    (data / "settings.json").write_text("[]", encoding="utf-8")
    report = check([data])
    assert report.ok and report.count("error") == 0
    result = build(data, version=V1)
    assert result.removed == ["records/b.jsonl"]
    assert (data / ("notes.txt.gz" if compress else "notes.txt")).is_file()
    assert (data / "README.txt").read_bytes() == b"\n\n  [draft] read me\n"
    assert (data / "settings.json").read_text() == "[]"


def test_a_txt_file_of_records_is_still_data(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "records").mkdir(parents=True)
    lines = (FIXTURES / "v1" / "records" / "example__project.jsonl").read_text().splitlines()
    (data / "records" / "b.jsonl").write_text(lines[0] + "\n", encoding="utf-8")
    (data / "more.txt").write_text(lines[1] + "\n{not json\n", encoding="utf-8")
    report = check([data])
    assert report.records == 2
    assert [(f.path, f.line) for f in report.findings if f.level == "error"] == [
        (str(data / "more.txt"), 2)
    ]


def test_check_refuses_a_manifest_naming_files_outside(tmp_path: Path) -> None:
    """Case 18 of issue 28: a manifest naming ../file.jsonl went unnoticed by release check."""
    data = _copy_data(tmp_path, FIXTURES / "v1")
    build(data, version=V1)
    manifest = json.loads((data / "manifest.json").read_text())
    manifest["files"]["../outside.jsonl"] = {"count": 1, "sha256": "0" * 64}
    (data / "manifest.json").write_text(json.dumps(manifest, indent=2))
    report = check([data])
    assert not report.ok
    assert any(
        f.rule == "manifest" and f.level == "error" and "../outside.jsonl" in f.message
        for f in report.findings
    )


def test_data_version_rules(tmp_path: Path) -> None:
    data = _copy_data(tmp_path, FIXTURES / "v1")
    assert build(data, version=V1).data_version == V1
    # Same records: the version stays, whatever the newest datasetVersion says.
    assert build(data).data_version == V1
    path = data / "records" / "example__project.jsonl"
    path.write_text(path.read_text().replace("Pass a valid value", "Pass 1"), encoding="utf-8")
    with pytest.raises(ReleaseRefusedError, match="no record is newer"):
        build(data)
    with pytest.raises(ReleaseRefusedError, match="needs a new --version"):
        build(data, version=V1)
    with pytest.raises(ReleaseRefusedError, match="older than the newest record"):
        build(data, version="2026-09-01T09:00:00Z")
    result = build(data, version=V2)
    assert result.manifest["previous"] == V1
    assert build(data).manifest["previous"] == V1  # rebuilding keeps what it follows


def _release_pair(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Build v1, turn data/ into v2 (with the withdrawal listed), build v2."""
    data = _copy_data(tmp_path, FIXTURES / "v1")
    first = build(data, version=V1)
    shutil.copytree(data, tmp_path / "v1")
    shutil.copy(FIXTURES / "v2" / "records" / "example__project.jsonl", data / "records")
    manifest = json.loads((data / "manifest.json").read_text())
    manifest["withdrawn"].append({"id": WITHDRAW, "reason": "the option was removed in 2.0"})
    (data / "manifest.json").write_text(json.dumps(manifest, indent=2))
    second = build(data, version=V2)
    return first.artifact, second.artifact, data


def test_build_then_diff_gives_exactly_the_four_changes(tmp_path: Path) -> None:
    old, new, data = _release_pair(tmp_path)
    manifest = read_manifest(data)
    assert manifest["previous"] == V1 and manifest["dataVersion"] == V2
    assert manifest["withdrawn"] == [
        {"id": WITHDRAW, "reason": "the option was removed in 2.0", "version": V2}
    ]
    for a, b in ((old, new), (tmp_path / "v1", data), (tmp_path / "v1" / "manifest.json", new)):
        result = diff(a, b)
        assert [r.id for r in result.added] == [ADDED]
        assert [(r.id, w.reason if w else None) for r, w in result.withdrawn] == [
            (WITHDRAW, "the option was removed in 2.0")
        ]
        changes = {c.new.id: c.fields for c in result.changed}
        assert changes == {
            PATTERN: ("errorMessage", "messagePattern"),
            SOLUTION: ("solutions",),
        }
        assert result.ok and (result.old_version, result.new_version) == (V1, V2)
    code, out, _ = _cli(["diff", str(old), str(new)])
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (
        f"- Data version {V2} (since {V1}): 4 records; 1 added, 2 changed, 1 withdrawn."
    )
    assert len(lines) == 5
    assert (
        "**pattern changed**" in out
        and "`timeout after (.+?)s` → `timeout after (.+?) seconds`" in out
    )
    assert f"({SOLUTION}): solutions." in out
    assert f"({WITHDRAW}): the option was removed in 2.0." in out
    code, out, _ = _cli(["diff", str(old), str(new), "--json"])
    payload = json.loads(out)
    assert code == 0 and payload["ok"] is True
    assert [c["patternChanged"] for c in payload["changed"]] == [True, False]
    assert payload["changed"][0]["pattern"] == {
        "old": "timeout after (.+?)s",
        "new": "timeout after (.+?) seconds",
    }


def test_a_record_dropped_silently_is_an_error(tmp_path: Path) -> None:
    data = _copy_data(tmp_path, FIXTURES / "v1")
    old = build(data, version=V1).artifact
    path = data / "records" / "example__project.jsonl"
    kept = [line for line in path.read_text().splitlines() if WITHDRAW not in line]
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    report = check([data])
    (finding,) = [f for f in report.findings if f.level == "error"]
    assert (finding.rule, finding.record_id) == ("withdrawn", WITHDRAW)
    assert finding.path is not None and finding.path.endswith("manifest.json") and finding.line
    # Against an explicit previous release too, even without the manifest's ids.
    manifest = json.loads((data / "manifest.json").read_text())
    del manifest["ids"]
    (data / "manifest.json").write_text(json.dumps(manifest))
    assert check([data]).ok
    report = check([data], previous=old)
    assert [(f.rule, f.record_id) for f in report.findings if f.level == "error"] == [
        ("withdrawn", WITHDRAW)
    ]
    with pytest.raises(ReleaseRefusedError):
        build(data, version=V2, previous=old)
    code, out, err = _cli(["diff", str(old), str(data)])
    assert code == 1 and "not listed as withdrawn" in out and WITHDRAW in err


def test_withdrawn_but_present_is_an_error(tmp_path: Path) -> None:
    data = _copy_data(tmp_path, FIXTURES / "v1")
    build(data, version=V1)
    manifest = json.loads((data / "manifest.json").read_text())
    manifest["withdrawn"] = [{"id": KEEP, "reason": "obsolete"}]
    (data / "manifest.json").write_text(json.dumps(manifest))
    findings = [f for f in check([data]).findings if f.level == "error"]
    assert [(f.rule, f.record_id) for f in findings] == [("withdrawn", KEEP)]
    assert findings[0].path is not None and findings[0].path.endswith(".jsonl")


def test_allow_drafts_is_recorded_by_build(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "records").mkdir(parents=True)
    shutil.copy(RULE_FIXTURES / "draft.jsonl", data / "records" / "x.jsonl")
    with pytest.raises(ReleaseRefusedError):
        build(data)
    manifest = build(data, allow_drafts=True).manifest
    assert manifest["allowDrafts"] is True and manifest["drafts"] == 1
    assert build(data).written == []  # the manifest now allows them
    assert check([data]).ok


def test_write_data_dir_keeps_its_short_manifest(tmp_path: Path) -> None:
    envelopes = [i.envelope for i in iter_path(DATA_DIR) if i.envelope]
    manifest = write_data_dir(tmp_path, envelopes)
    assert list(manifest) == ["dataVersion", "schemaVersion", "count", "files"]
    assert manifest["files"] == read_manifest(DATA_DIR)["files"]


# --- diff of random edits ------------------------------------------------------------------


def _records(n: int) -> dict[str, ErrorRecord]:
    base = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    out = {}
    for i in range(n):
        rid = f"{i:016x}"
        message = f"bad value {{x!r}} number {i}"
        out[rid] = base.model_copy(
            update={
                "id": rid,
                "error_message": message,
                "message_pattern": f"bad value (.+?) number {i}",
            }
        )
    return out


_EDITS: dict[str, dict[str, Any]] = {
    "solutions": {"solutions": ("Another fix",)},
    "messagePattern": {"message_pattern": "changed (.+?)"},
    "documentation": {"documentation": "Rewritten."},
    "lineNumber": {"line_number": 13},
}


@given(
    st.lists(st.sampled_from(["keep", "withdraw", "drop", *_EDITS]), min_size=1, max_size=12),
    st.integers(min_value=0, max_value=4),
)
@settings(max_examples=60, deadline=None)
def test_diff_reports_exactly_the_edits(actions: list[str], added: int) -> None:
    old = _records(len(actions))
    new: dict[str, ErrorRecord] = {}
    withdrawn = []
    expected_changes: dict[str, tuple[str, ...]] = {}
    for (rid, record), action in zip(old.items(), actions, strict=True):
        if action == "withdraw":
            withdrawn.append(Withdrawal(rid, "obsolete"))
        elif action == "drop":
            continue
        elif action == "keep":
            new[rid] = record
        else:
            new[rid] = record.model_copy(update=_EDITS[action])
            expected_changes[rid] = (action,)
    extra = _records(len(actions) + added)
    fresh = dict(list(extra.items())[len(actions) :])
    new.update(fresh)
    result = diff_records(old, new, withdrawn=withdrawn)
    assert [r.id for r in result.added] == sorted(fresh)
    assert {c.new.id: c.fields for c in result.changed} == expected_changes
    assert [c.pattern_changed for c in result.changed] == [
        fields == ("messagePattern",) for _, fields in sorted(expected_changes.items())
    ]
    gone = [rid for rid, a in zip(old, actions, strict=True) if a in {"withdraw", "drop"}]
    assert [r.id for r, _ in result.withdrawn] == gone
    dropped = [rid for rid, a in zip(old, actions, strict=True) if a == "drop"]
    assert [r.id for r in result.unlisted] == dropped
    assert result.ok == (not dropped)
    markdown = result.to_markdown().splitlines()
    assert len(markdown) == 1 + len(result.added) + len(result.changed) + len(result.withdrawn)


# --- a mined catalog -----------------------------------------------------------------------


def test_check_passes_on_a_mined_stdlib_package(tmp_path: Path) -> None:
    import sysconfig

    from errcat.mine import mine_paths

    stdlib = Path(sysconfig.get_paths()["stdlib"])
    mined = mine_paths(
        [stdlib / "json", stdlib / "configparser.py"], repo="python/cpython", sha="0" * 40
    )
    assert mined.envelopes
    data = tmp_path / "data"
    write_data_dir(data, mined.envelopes)
    report = check([data], allow_drafts=True)
    assert report.ok, report.to_text()
    assert report.count("info") >= len(mined.envelopes)  # every draft reported
    catalog = Catalog.from_path(build(data, allow_drafts=True).artifact)
    assert len(catalog) == len(mined.envelopes)


def test_withdrawals_are_kept_from_release_to_release(tmp_path: Path) -> None:
    _, released, data = _release_pair(tmp_path)
    assert check([data], previous=released).ok
    manifest = json.loads((data / "manifest.json").read_text())
    manifest["withdrawn"] = []
    (data / "manifest.json").write_text(json.dumps(manifest))
    (finding,) = [f for f in check([data], previous=released).findings if f.level == "error"]
    assert (finding.rule, finding.record_id) == ("withdrawn", WITHDRAW)
    assert "no longer listed as withdrawn" in finding.message


def test_write_data_dir_into_a_release_keeps_it_pending(tmp_path: Path) -> None:
    data = _copy_data(tmp_path, FIXTURES / "v1")
    released = build(data, version=V1).manifest
    envelopes = [i.envelope for i in iter_path(FIXTURES / "v2") if i.envelope]
    kept = [e for e in envelopes if e.record.id != WITHDRAW]
    manifest = write_data_dir(data, kept)
    assert manifest["dataVersion"] == V1 and manifest["ids"] == released["ids"]
    assert manifest["contentSha256"] == released["contentSha256"]
    assert Catalog.from_path(data)  # checksums describe the files written
    report = check([data])
    assert "the records differ from release" in report.to_text(verbose=True)
    assert [(f.rule, f.record_id) for f in report.findings if f.level == "error"] == [
        ("withdrawn", WITHDRAW)  # the ids of the release are still known
    ]
    manifest["withdrawn"] = [{"id": WITHDRAW, "reason": "gone"}]
    (data / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ReleaseRefusedError, match="older than the newest record"):
        build(data, version=V1)
    assert build(data).manifest["previous"] == V1  # newer records name the release
