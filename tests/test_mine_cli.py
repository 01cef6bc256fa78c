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
