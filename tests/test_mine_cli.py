"""``errcat mine`` survives real code: one file's failure is reported, the others are mined."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from errcat.cli import main

SHA = "a" * 40


def _mine(*args: str) -> tuple[int, str, list[dict[str, str]]]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["mine", *args, "--repo", "o/r", "--sha", SHA], stdout=out, stderr=err)
    records = [json.loads(line)["record"] for line in out.getvalue().splitlines()]
    return code, err.getvalue(), records


def test_a_negated_unary_operand_is_mined(tmp_path: Path) -> None:
    """Case 1 of issue 28: ``not -x`` sent conditions.describe into endless recursion
    (negate wraps it in Not again); scipy 1.17.1 has such guards."""
    (tmp_path / "mod.py").write_text(
        "def f(x, y):\n"
        "    if not -x:\n"
        '        raise ValueError(f"bad x {x}")\n'
        "    if not ~y:\n"
        '        raise ValueError("bad y")\n'
    )
    code, err, records = _mine(str(tmp_path))
    assert code == 0, err
    assert sorted(r["errorMessage"] for r in records) == ["bad x {x}", "bad y"]


def test_one_failing_file_is_reported_and_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from errcat.mine import core

    guarded = 'def f(x):\n    if x:\n        raise ValueError("{} one")\n'
    (tmp_path / "good.py").write_text(guarded.format("good"))
    (tmp_path / "bad.py").write_text(guarded.format("bad"))
    real = core.write_advice  # type: ignore[attr-defined]

    def fragile(**kwargs: object) -> object:
        if kwargs["file_path"] == "bad.py":
            raise RecursionError("maximum recursion depth exceeded")
        return real(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(core, "write_advice", fragile)
    code, err, records = _mine(str(tmp_path))
    assert code == 0
    assert [r["errorMessage"] for r in records] == ["good one"]
    assert "1 file could not be mined" in err
    assert "bad.py: RecursionError: maximum recursion depth exceeded" in err
    code, err, records = _mine(str(tmp_path), "--strict")
    assert code == 1 and [r["errorMessage"] for r in records] == ["good one"]


def test_a_file_the_scanner_fails_on_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from errcat.mine import scan

    (tmp_path / "good.py").write_text('raise ValueError("good one")\n')
    (tmp_path / "odd.py").write_text('raise ValueError("odd one")\n')
    real = scan._Scanner.scan

    def fragile(self: scan._Scanner, tree: object) -> None:
        if self.module == "odd":
            raise MemoryError
        real(self, tree)  # type: ignore[arg-type]

    monkeypatch.setattr(scan._Scanner, "scan", fragile)
    code, err, records = _mine(str(tmp_path))
    assert code == 0 and [r["errorMessage"] for r in records] == ["good one"]
    assert "odd.py: MemoryError" in err


def test_history_says_when_a_shallow_clone_lacks_the_revisions_asked_for(tmp_path: Path) -> None:
    """Case 22 of issue 28: history --since on a shallow clone mined only the commits the
    clone had, with no warning."""
    from test_history import commit, git

    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q", "-b", "main")
    for n, date in enumerate(["2025-01-10", "2025-04-10", "2025-07-10"]):
        commit(work, {"pkg/m.py": f'raise ValueError("message {n}")\n'}, date, f"c{n}")
    shallow = tmp_path / "shallow.git"
    git(tmp_path, "clone", "-q", "--bare", "--depth", "1", f"file://{work}", str(shallow))
    out, err = io.StringIO(), io.StringIO()
    argv = ["history", str(shallow), "--repo", "o/r", "--since", "2025-01-01"]
    code = main([*argv, "-o", str(tmp_path / "out.jsonl")], stdout=out, stderr=err)
    assert code == 0
    assert "is a shallow clone: its history starts at 2025-07-10" in err.getvalue()
    assert "fetch --unshallow" in err.getvalue()
    full = tmp_path / "full.git"
    git(tmp_path, "clone", "-q", "--bare", f"file://{work}", str(full))
    err = io.StringIO()
    argv = ["history", str(full), "--repo", "o/r", "--since", "2025-01-01"]
    assert main([*argv, "-o", str(tmp_path / "out2.jsonl")], stdout=out, stderr=err) == 0
    assert "shallow" not in err.getvalue()
