from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from conftest import DATA_DIR, SEEDS_FILE, make_envelope
from errcat.cli import main
from errcat.loaders import read_manifest, write_jsonl

SEED_LINE = (
    "ValueError: flashinfer_cutedsl FP4 MoE only supports DeepEP low_latency dispatch "
    "(masked layout). DeepEP normal (prefill) dispatch has no CuteDSL FP4 handler. "
    "Pass --deepep-mode low_latency or auto."
)


SPECIFIC = make_envelope(
    errorMessage="no tokenizer found at {path}", messagePattern="no tokenizer found at (.+?)"
)


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    sources = {"--catalog", "--no-bundled"} & {*argv}
    if argv and argv[0] in {"match", "show", "list"} and not sources:
        argv = (*argv, "--no-bundled", "--catalog", str(SEEDS_FILE))  # the seeds, not 26k records
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_match_argument_prints_a_readable_answer() -> None:
    code, out, _ = run("match", SEED_LINE)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("ValueError: flashinfer_cutedsl FP4 MoE only supports")
    assert "raised at sgl-project/sglang python/sglang/srt/server_args.py:7677" in out
    assert "Solutions:" in out and "Change --deepep-mode to low_latency" in out
    assert "Example fix:" in out and "--deepep-mode normal" in out


@pytest.mark.parametrize("arg", [[], ["-"]])
def test_match_reads_stdin(arg: list[str]) -> None:
    code, out, _ = run("match", *arg, stdin=f"Traceback (most recent call last):\n{SEED_LINE}\n")
    assert code == 0 and "record 70e072f5fc32f001" in out and "server_args.py:7677" in out


def test_match_json() -> None:
    code, out, _ = run("match", "--json", SEED_LINE)
    data = json.loads(out)
    assert code == 0
    assert data["id"] == "70e072f5fc32f001"
    assert data["exact"] is True and data["advice"]["solutions"]


def test_no_match_exits_1() -> None:
    code, out, err = run("match", "TypeError: unsupported operand type(s) for +: 'int' and 'str'")
    assert code == 1 and out == "" and "No record matches" in err
    code, out, _ = run("match", "--json", "nothing at all")
    assert code == 1 and out.strip() == "null"


def test_match_all_lists_hints() -> None:
    code, out, _ = run(
        "match",
        "--all",
        "--json",
        "ValueError: DeepEP v2 MoE is not supported for 'X'; supported architectures are []",
    )
    data = json.loads(out)
    assert code == 1  # only inexact hints
    assert data and data[0]["exact"] is False


def test_bad_usage_exits_2() -> None:
    assert run("match", "--limit", "0", "x")[0] == 2
    assert run("frobnicate")[0] == 2
    assert run()[0] == 2
    code, _, err = run("match", "--no-bundled", "x")
    assert code == 2 and "--no-bundled needs" in err


def test_show_and_list() -> None:
    code, out, _ = run("show", "70e072f5fc32f001")
    assert code == 0 and "Solutions:" in out
    code, out, _ = run("show", "--record", "70e072f5fc32f001")
    assert json.loads(out)["lineNumber"] == 7677
    code, out, _ = run("show", "--markdown", "70e072f5fc32f001")
    assert out.startswith("**`ValueError`**")
    code, _, err = run("show", "nope")
    assert code == 2 and "Unknown record: 'nope'" in err
    code, out, err = run("list", "--tag", "speculative-decoding")
    assert code == 0 and out.startswith("3fe9ad44079a5344") and "1 record" in err
    code, out, _ = run("list", "--class", "ValueError", "--json")
    assert len(out.splitlines()) == 3


def test_other_catalogs(tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    write_jsonl(path, [SPECIFIC])
    code, out, _ = run("match", "--catalog", str(path), "ValueError: no tokenizer found at /m/x")
    assert code == 0 and "no tokenizer found at {path}" in out and "path = /m/x" in out
    code, out, _ = run("--catalog", str(path), "--no-bundled", "list")
    assert code == 0 and out.startswith("0123456789abcdef")
    code, out, _ = run("list", "--catalog", str(path), "--no-bundled", "--class", "ValueError")
    assert len(out.splitlines()) == 2
    code, _, err = run("match", "--catalog", str(tmp_path / "missing.jsonl"), "x")
    assert code == 2 and "No such file or directory" in err


def test_bad_lines_in_a_catalog_are_warned_about(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    write_jsonl(path, [SPECIFIC])
    with path.open("a", encoding="utf-8") as fh:
        fh.write("{broken\n")
    code, _, err = run("match", "--catalog", str(path), "ValueError: no tokenizer found at /x")
    assert code == 0 and f"warning: skipped {path}:2:" in err


def test_validate(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    write_jsonl(good, [make_envelope()])
    assert run("validate", str(good)) == (0, "1 valid record(s), 0 problem(s)\n", "")
    bad = tmp_path / "bad.jsonl"
    data = make_envelope().model_dump(mode="json")
    data["record"]["lineNumber"] = "12"
    data["record"]["extra"] = 1
    bad.write_text(json.dumps(data) + "\n", encoding="utf-8")
    code, out, _ = run("validate", str(bad))
    assert code == 1 and f"{bad}:1: record.lineNumber" in out
    code, out, _ = run("validate", "--strict", "--json", str(good), str(bad))
    report = json.loads(out)
    assert code == 1 and report["valid"] == 1
    assert report["problems"][0]["field"] == "record.extra"


def test_version_prints_code_and_data_versions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    printed = capsys.readouterr().out
    version = read_manifest(DATA_DIR)["dataVersion"]
    assert printed.startswith("errcat ") and f"data {version}" in printed


# -- what a user or a pipe can throw at the command (issue 28) ------------------------------


def _cli_process(
    *argv: bytes | str, stdin: bytes = b"", env: dict[str, str] | None = None
) -> tuple[int, str, str]:
    """Run ``errcat`` in its own process (real stdio, as a shell would)."""
    import os
    import subprocess
    import sys

    code = "import sys; from errcat.cli import main; sys.exit(main())"
    done = subprocess.run(
        [sys.executable, "-c", code, *argv],
        input=stdin,
        capture_output=True,
        env={**os.environ, **(env or {})},
        check=False,
    )
    return (
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


STRICT_UTF8 = {"PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"}


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        (("match", "-"), b"ValueError: no tokenizer found at /m/\xff\xfe\n"),
        (("match", b"ValueError: no tokenizer found at /m/\xff"), b""),
        (("match", "--json", b"ValueError: no tokenizer found at /m/\xff"), b""),
        (("match", "--lines", "-"), b"ValueError: no tokenizer found at \xff\nKeyError: 'b'\n"),
        (("scan", "-"), b"INFO x\nValueError: no tokenizer found at /\xff\n"),
    ],
)
def test_bytes_that_are_not_utf8_never_raise(
    tmp_path: Path, argv: tuple[bytes | str, ...], stdin: bytes
) -> None:
    """Case 6: with PYTHONIOENCODING=utf-8, bytes that are not UTF-8 on stdin or in argv
    gave UnicodeDecodeError / UnicodeEncodeError tracebacks."""
    catalog = tmp_path / "cat.jsonl"
    write_jsonl(catalog, [SPECIFIC])
    args = (*argv, "--no-bundled", "--catalog", str(catalog))
    code, out, err = _cli_process(*args, stdin=stdin, env=STRICT_UTF8)
    assert "Traceback" not in err, err
    assert code == 0 and "no tokenizer found at" in out


def test_a_file_name_that_is_not_utf8_is_printed(tmp_path: Path) -> None:
    import os

    name = os.fsencode(tmp_path) + b"/log-\xff.log"
    Path(os.fsdecode(name)).write_bytes(b"ValueError: bad value\n")
    code, out, err = _cli_process(
        "scan", name, "--no-bundled", "--catalog", str(SEEDS_FILE), env=STRICT_UTF8
    )
    assert code == 0 and "Traceback" not in err
    assert "log-\\udcff.log:1: ValueError: bad value" in out  # escaped, not an error


def test_match_reads_a_bounded_tail_of_stdin() -> None:
    """Case 8: errcat match read all of stdin (1 GiB took 255 s and 3.2 GB)."""
    from errcat.cli_common import MAX_TEXT_BYTES

    noise = ("INFO nothing to see here\n" * (MAX_TEXT_BYTES // 10)).encode()
    code, out, err = _cli_process(
        "match", "--no-bundled", "--catalog", str(SEEDS_FILE), stdin=noise + SEED_LINE.encode()
    )
    assert code == 0 and "Change --deepep-mode to low_latency" in out
    assert f"read the last {MAX_TEXT_BYTES} of {len(noise) + len(SEED_LINE)} bytes" in err


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("mine", "missing/out.jsonl"),
        ("mine", "."),
        ("history", "missing/out.jsonl"),
        ("history", "."),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, output: str
) -> None:
    """Case 7: -o into a missing folder, or naming a folder, failed with a traceback after
    mine or history had done all its work (and left .NAME.tmp behind)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text('raise ValueError("x")\n')
    argv = ["--repo", "o/r", "-o", output]
    if command == "mine":
        argv = ["mine", "pkg", "--sha", "a" * 40, *argv]
    else:
        argv = ["history", "--dist", f"1.0={tmp_path / 'pkg'}", *argv]
    code, _, err = run(*argv)
    assert code == 2
    assert ("does not exist" in err or "is a folder" in err) and f"-o {output}" in err
    assert not list(tmp_path.rglob("*.tmp"))


def test_serve_refuses_a_port_out_of_range_before_loading() -> None:
    code, _, err = run("serve", "--port", "99999", "--no-bundled", "--catalog", "/nonexistent")
    assert code == 2 and "invalid --port 99999" in err
