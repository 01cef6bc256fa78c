"""Lineages of raises without a message across revisions, and the answers they give.

An ``assert`` without a message has no text to follow from one revision to the
next: its lineage follows the statement in its function (its line may move, and
its file, keeping its function). An assert an older release had, removed since,
stays a record anchored at its last revision, so a traceback of that release is
answered. The tracebacks here are Python's own: the old revision's module is
imported and run.
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap
import traceback
import uuid
from datetime import datetime, timezone
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat import Catalog, match_all, match_error
from errcat.history import Revision, sidecar_path
from errcat.mine.history import HistoryResult, Snapshot, build_history
from errcat.mine.pairing import Statement, pair_statements
from errcat.models import ErrorRecord

REPO = "example/moe"
WHEN = datetime(2026, 1, 2, tzinfo=timezone.utc)
PATH = "pkg/layers/moe.py"
CHECK = "assert self.quant_method is not None"


def _snap(label: str, day: int, files: dict[str, str]) -> Snapshot:
    revision = Revision(
        label, (label.encode().hex() * 40)[:40], datetime(2025, 1, day, tzinfo=timezone.utc)
    )
    blobs = {f"{p}@{label}": textwrap.dedent(t).encode() for p, t in files.items()}
    return Snapshot(
        revision,
        sorted((p, f"{p}@{label}") for p in files),
        lambda keys: ((k, blobs[k]) for k in keys),
    )


def _layer(padding: int, *, quant: bool = True, cls: str = "FusedMoE") -> str:
    """A layer whose ``__init__`` asserts; ``padding`` lines of code come first."""
    lines = [f"X{i} = {i}" for i in range(padding)]
    lines += [
        f"class {cls}:",
        "    def __init__(self, quant_method=None, experts=0):",
        "        self.quant_method = quant_method",
        "        self.experts = experts",
    ]
    if quant:
        lines.append(f"        {CHECK}")
    lines += ["        assert self.experts > 0", ""]
    return "\n".join(lines)


def _bare(result: HistoryResult) -> dict[str, ErrorRecord]:
    """The records raised without a message, by their raising line."""
    from errcat.view import raise_source

    return {raise_source(r): r for r in result.records if not r.error_message}


def test_a_bare_assert_whose_line_moves_keeps_its_lineage_and_its_first_id() -> None:
    snaps = [_snap("v1", 1, {PATH: _layer(0)}), _snap("v2", 2, {PATH: _layer(30)})]
    first = _bare(build_history(snaps[:1], repo=REPO, analyzed_at=WHEN))[CHECK]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    record = _bare(result)[CHECK]
    assert record.id == first.id  # stable as revisions are added
    assert (record.line_number, record.analyzed_sha) == (35, snaps[1].revision.sha)
    lineage = result.history.lineage(record.id)
    assert lineage is not None and lineage.status == "current"
    assert [(s.revision.label, s.line) for s in lineage.sites] == [("v1", 5), ("v2", 35)]
    assert len(result.history) == len(result.records) == 2


def test_a_bare_assert_whose_function_moves_to_another_file_keeps_its_lineage() -> None:
    snaps = [
        _snap("v1", 1, {PATH: _layer(0)}),
        _snap("v2", 2, {"pkg/layers/moe/fused.py": _layer(3)}),
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    record = _bare(result)[CHECK]
    lineage = result.history.lineage(record.id)
    assert lineage is not None
    assert [(s.file_path, s.line) for s in lineage.sites] == [
        (PATH, 5),
        ("pkg/layers/moe/fused.py", 8),
    ]
    # Each of the two asserts moved with the function: two lineages, no record left behind.
    assert len(result.records) == len(result.history) == 2


def test_the_same_statement_in_another_function_is_another_lineage() -> None:
    snaps = [
        _snap("v1", 1, {PATH: _layer(0)}),
        _snap("v2", 2, {PATH: _layer(0, quant=False) + _layer(0, cls="Other")}),
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    checks = [r for r in result.records if r.slug == "assert-self-quant-method-is-not-none"]
    assert len(checks) == 2
    statuses = {r.analyzed_sha: result.history.lineage(r.id) for r in checks}
    old = statuses[snaps[0].revision.sha]
    assert old is not None and old.status == "removed" and old.successor is None


def test_a_bare_assert_removed_in_the_newest_revision_is_kept_at_its_last_revision() -> None:
    snaps = [
        _snap("v1", 1, {PATH: _layer(0)}),
        _snap("v2", 2, {PATH: _layer(10)}),
        _snap("v3", 3, {PATH: _layer(40, quant=False)}),
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    record = _bare(result)[CHECK]
    assert (record.file_path, record.line_number) == (PATH, 15)
    assert record.analyzed_sha == snaps[1].revision.sha
    assert "errcat:in:__init__" in record.tags
    assert record.documentation  # advice written at its last revision
    lineage = result.history.lineage(record.id)
    assert lineage is not None and lineage.status == "removed"
    assert [s.revision.label for s in lineage.sites] == ["v1", "v2"]
    kept = _bare(result)["assert self.experts > 0"]
    assert kept.analyzed_sha == snaps[2].revision.sha
    assert result.revisions[-1].bare == 1


def test_a_bare_assert_back_after_a_gap_takes_its_lineage_up_again() -> None:
    snaps = [
        _snap("v1", 1, {PATH: _layer(0)}),
        _snap("v2", 2, {PATH: _layer(0, quant=False)}),
        _snap("v3", 3, {PATH: _layer(7)}),
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    lineage = result.history.lineage(_bare(result)[CHECK].id)
    assert lineage is not None and [s.revision.label for s in lineage.sites] == ["v1", "v3"]


# -- pairing statements ----------------------------------------------------------------

_CODES = st.sampled_from(
    ["assert self.pool is not None", "assert x", "raise NotImplementedError", "assert n > 0"]
)
_STATEMENT = st.tuples(
    st.sampled_from(["a.py", "b.py"]), st.sampled_from(["F.run", "G.run", ""]), _CODES
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_STATEMENT, max_size=8), st.lists(_STATEMENT, max_size=8), st.randoms())
def test_statements_pair_one_to_one_with_their_own_kind(
    old_keys: list[tuple[str, str, str]],
    new_keys: list[tuple[str, str, str]],
    rnd: object,
) -> None:
    def stmts(keys: list[tuple[str, str, str]], tag: str) -> list[Statement]:
        return [
            Statement(f"{tag}{n}", path, 10 * n + 1, "AssertionError", function, code)
            for n, (path, function, code) in enumerate(keys)
        ]

    old, new = stmts(old_keys, "o"), stmts(new_keys, "n")
    pairs = pair_statements(old, new)
    assert len({i for i, _, _ in pairs}) == len({j for _, j, _ in pairs}) == len(pairs)
    for i, j, kind in pairs:
        o, n = old[i], new[j]
        assert (o.function, o.code) == (n.function, n.code)
        assert o.file_path == n.file_path or (o.function and len(o.code) >= 12)
        assert kind == ("same" if (o.file_path, o.line) == (n.file_path, n.line) else "moved")
    # The same statements at other lines (code inserted above each): all pair, in order.
    shifted = [
        Statement(s.id, s.file_path, s.line + 7, s.error_class, s.function, s.code) for s in old
    ]
    again = pair_statements(old, shifted)
    assert [(i, j) for i, j, _ in again] == [(i, i) for i in range(len(old))]
    assert all(kind == "moved" for _, _, kind in again)


# -- answers ---------------------------------------------------------------------------


def _catalog(result: HistoryResult, folder: Path) -> Catalog:
    out = folder / "moe.jsonl"
    out.write_text("".join(e.model_dump_json(by_alias=True) + "\n" for e in result.envelopes))
    result.history.dump(sidecar_path(out))
    return Catalog.from_path(out)


def _run(source: str, folder: Path) -> str:
    """The traceback of ``FusedMoE(None, 8)`` run from ``source`` at ``site-packages/pkg/...``."""
    path = folder / "lib" / "python3.12" / "site-packages" / PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    name = f"_moe_{uuid.uuid4().hex}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        module.FusedMoE(None, 8)
    except AssertionError:
        return traceback.format_exc()
    finally:
        sys.modules.pop(name, None)
    raise AssertionError("the layer did not raise")


def _history_without_the_check(tmp_path: Path) -> tuple[HistoryResult, Catalog]:
    snaps = [
        _snap("v1", 1, {PATH: _layer(0)}),
        _snap("v2", 2, {PATH: _layer(12)}),
        _snap("v3", 3, {PATH: _layer(60, quant=False)}),
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    return result, _catalog(result, tmp_path)


def test_a_removed_assert_is_answered_from_the_statement_the_frame_prints(
    tmp_path: Path,
) -> None:
    result, catalog = _history_without_the_check(tmp_path)
    removed = _bare(result)[CHECK]
    text = _run(_layer(0), tmp_path)  # the oldest release: line 5, moved to 17 since
    assert f"    {CHECK}\n" in text and ", line 5, in __init__" in text
    match = match_error(text, catalog)
    assert match is not None and match.summary.id == removed.id
    assert match.summary.line_number == 17
    # Another version of the file: the statement printed at a line no revision had.
    moved = match_error(_run(_layer(3), tmp_path), catalog)
    assert moved is not None and moved.summary.id == removed.id
    # The same statement in another file is another project's check.
    other_file = text.replace("/pkg/layers/moe.py", "/otherpkg/attention.py")
    found = match_error(other_file, catalog)
    assert found is None or found.summary.id != removed.id
    # The other assert of __init__, still raised, is not the answer to this one.
    (other,) = [r for r in result.records if r.slug == "assert-self-experts-0"]
    assert other.id not in {m.summary.id for m in match_all(text, catalog)[:1]}


def test_a_removed_assert_is_answered_from_an_old_line_in_its_function(tmp_path: Path) -> None:
    result, catalog = _history_without_the_check(tmp_path)
    removed = _bare(result)[CHECK]
    text = _run(_layer(0), tmp_path)  # the oldest release: line 5, at 17 in its last
    # A log that keeps the frames but not their code lines.
    lines = [line for line in text.splitlines() if not line.startswith("    ")]
    bare_text = "\n".join(lines) + "\n"
    assert ", line 5, in __init__" in bare_text and CHECK not in bare_text
    match = match_error(bare_text, catalog)
    assert match is not None and match.summary.id == removed.id
    # The same line in another function is another statement: not this record's.
    elsewhere = bare_text.replace("in __init__", "in forward")
    found = match_error(elsewhere, catalog)
    assert found is None or found.summary.id != removed.id
