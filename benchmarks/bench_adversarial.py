"""Every case of issue 28 (and new ones of the same kinds), run against the installed errcat.

Run with ``python benchmarks/bench_adversarial.py [CASE ...] [--keep DIR]``.
Each case runs ``errcat`` (or a short Python snippet importing errcat) in
subprocesses; the peak memory of each is read from its own resource usage
(``os.wait4``: ``ru_maxrss``). A table is printed: the case, what was tried, the
result (pass / fail / skip) and the figure that decides it ("peak 61 MiB",
"5,998/5,998 events", "0/5 processes differ"). A run passes when no errcat
process printed a traceback, memory stayed under the case's bound, nothing
readable was lost and concurrent answers equal the serial ones. The memory
bound of an errcat command is 200 MiB (the bombs, the 256 MiB line and 1 GiB
of stdin included); the server's peak is shown, not bounded (it serves the
bundled catalog, loaded and indexed at its start). Exit status 1 when a case
failed.

Inputs: the small ones are in ``benchmarks/adversarial/`` (a catalog line
nested 2,000 deep, patterns with huge counted repeats, logs of odd classes,
level words and vLLM worker prefixes with the events they hold in
``*.expected.json``, a manifest naming ``../outside.jsonl``, a data directory
with prose beside its records); the big ones (compression bombs, a 256 MiB
line, 1 GiB of stdin, planted-event logs) are made in a temporary directory.
The cases of scanning logs are in ``adversarial_scan.py``, those of the server,
Spark and git in ``adversarial_serve.py``.
The whole run takes a few minutes (Spark's sessions are most of it).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "adversarial"
SEEDS = INPUTS / "seeds.jsonl"
MiB = 1 << 20
#: A seed record's message: the answer every "did it still match" check looks for.
SEED_LINE = (
    "ValueError: flashinfer_cutedsl FP4 MoE only supports DeepEP low_latency dispatch "
    "(masked layout). DeepEP normal (prefill) dispatch has no CuteDSL FP4 handler. "
    "Pass --deepep-mode low_latency or auto."
)
TRACEBACK = "Traceback (most recent call last)"


def _errcat() -> list[str]:
    """The installed ``errcat`` command (the one beside this interpreter when there is one)."""
    script = Path(sys.executable).with_name("errcat")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from errcat.cli import main; sys.exit(main())"]


ERRCAT = _errcat()


@dataclass
class Ran:
    """One finished subprocess: exit code, output, peak memory and wall time."""

    code: int
    out: str
    err: str
    peak_mib: float
    seconds: float

    @property
    def traceback(self) -> bool:
        """Whether it printed a Python traceback (errcat must print clear errors only)."""
        return TRACEBACK in self.err or TRACEBACK in self.out


def _feed(pipe: object, data: bytes | Iterable[bytes]) -> None:
    write = getattr(pipe, "write")  # noqa: B009 - a binary pipe
    try:
        for chunk in [data] if isinstance(data, bytes) else data:
            write(chunk)
    except (BrokenPipeError, OSError):
        pass  # the reader stopped early (it reads a bounded part): that is allowed
    finally:
        with contextlib.suppress(OSError):
            getattr(pipe, "close")()  # noqa: B009


#: Starts the measured command and reports its own peak RSS. Linux gives a process the
#: peak RSS of the process it was forked from (exec keeps the old image's high-water mark),
#: so the bench (which holds test inputs) never forks the measured command itself: this
#: small launcher does, and passes its pid, exit code and ru_maxrss on in a file.
_LAUNCHER = """
import os, signal, subprocess, sys
report = sys.argv[1]
proc = subprocess.Popen(sys.argv[2:])
with open(report, "w") as fh:
    fh.write(f"pid {proc.pid}\\n")
signal.signal(signal.SIGTERM, lambda *_: proc.terminate())
while True:
    try:
        _, status, usage = os.wait4(proc.pid, 0)
        break
    except InterruptedError:
        continue
with open(report, "a") as fh:
    fh.write(f"end {os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}\\n")
"""


class Launched:
    """A command started through :data:`_LAUNCHER`: its pid, and at its end its code and peak."""

    def __init__(
        self,
        argv: Sequence[str | bytes],
        *,
        stdin: int | None = None,
        stdout: int | IO[bytes] | None = None,
        stderr: int | IO[bytes] | None = None,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        fd, name = tempfile.mkstemp(prefix="errcat-adversarial-", suffix=".rusage")
        os.close(fd)
        self.report = Path(name)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, name, *argv],
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            env={**os.environ, **(env or {})},
            cwd=cwd,
            start_new_session=True,
        )

    def pid(self, wait: float = 10) -> int:
        """The measured command's own pid."""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            for line in self.report.read_text().splitlines():
                if line.startswith("pid "):
                    return int(line.split()[1])
            time.sleep(0.01)
        raise RuntimeError("the launcher did not start the command")

    def finish(self, timeout: float) -> tuple[int, float]:
        """Wait for the end (killing the group past ``timeout``): exit code and peak MiB."""
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()
        lines = self.report.read_text().splitlines()
        self.report.unlink()
        for line in lines:
            if line.startswith("end "):
                _, code, rss = line.split()
                return int(code), int(rss) / 1024  # KiB on Linux
        return -9, 0.0

    def terminate(self) -> None:
        self.proc.terminate()


def run(
    argv: Sequence[str | bytes],
    *,
    stdin: bytes | Iterable[bytes] | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 300,
) -> Ran:
    """Run one process to its end, with its own peak RSS (see :data:`_LAUNCHER`)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        launched = Launched(
            argv,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env=env,
            cwd=cwd,
        )
        writer = None
        if stdin is not None:
            writer = threading.Thread(target=_feed, args=(launched.proc.stdin, stdin), daemon=True)
            writer.start()
        code, peak = launched.finish(timeout)
        seconds = time.perf_counter() - started
        if writer is not None:
            writer.join(5)
        out.seek(0)
        err.seek(0)
        return Ran(
            code,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            peak,
            seconds,
        )


def errcat(*args: str | bytes, **kwargs: object) -> Ran:
    """``errcat ARGS`` as a subprocess (see :func:`run`)."""
    return run([*ERRCAT, *args], **kwargs)  # type: ignore[arg-type]


def python(snippet: str, *args: str, **kwargs: object) -> Ran:
    """A Python snippet importing the installed errcat, as a subprocess."""
    return run([sys.executable, "-c", snippet, *args], **kwargs)  # type: ignore[arg-type]


@dataclass
class Result:
    """One row of the table."""

    case: str
    tried: str
    passed: bool | None  # None: skipped (a piece of the environment is missing)
    figure: str
    notes: list[str] = field(default_factory=list)


def _no_traceback(runs: Iterable[Ran]) -> bool:
    return not any(r.traceback for r in runs)


def _peak(runs: Iterable[Ran]) -> float:
    return max((r.peak_mib for r in runs), default=0.0)


def _zeros_gz(size: int) -> bytes:
    """A gzip of ``size`` zero bytes (a compression bomb: about size / 1030 bytes)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\0" * MiB
    return b"".join(packer.compress(block) for _ in range(size // MiB)) + packer.flush()


def _events(ran: Ran) -> list[tuple[int, str, str]]:
    """The events of ``errcat scan --json`` output."""
    found = []
    for line in ran.out.splitlines():
        if line.startswith("{"):
            event = json.loads(line)
            found.append((event["start_line"], event["error_class"], event["message"]))
    return found


def _scan(path: Path, *extra: str, **kwargs: object) -> Ran:
    return errcat(
        "scan", "--json", "--no-bundled", "--catalog", str(SEEDS), str(path), *extra, **kwargs
    )


# --------------------------------------------------------------------------
# Crashes and unbounded memory (cases 1-8).


def case_1(tmp: Path) -> Result:
    pkg = tmp / "pkg"
    pkg.mkdir()
    (pkg / "guards.py").write_text(
        "def f(x, y):\n"
        "    if not -x:\n"
        '        raise ValueError(f"bad x {x}")\n'
        "    if not ~y:\n"
        '        raise ValueError("bad y")\n'
    )
    (pkg / "py2.py").write_text('print "python 2"\nraise ValueError, "old"\n')
    out = tmp / "out.jsonl"
    ran = errcat("mine", str(pkg), "--repo", "o/r", "--sha", "a" * 40, "-o", str(out))
    records = out.read_text().count("\n") if out.is_file() else 0
    ok = ran.code == 0 and records == 2 and not ran.traceback
    return Result(
        "1",
        "mine `not -x` / `not ~y` guards (scipy 1.17.1's RecursionError) + a Python 2 file",
        ok,
        f"exit {ran.code}, {records}/2 records, peak {ran.peak_mib:.0f} MiB",
    )


def case_2(tmp: Path) -> Result:
    runs = [
        errcat("validate", str(INPUTS / "counted_repeat.jsonl")),
        errcat(
            "match",
            "--no-bundled",
            "--catalog",
            str(INPUTS / "counted_repeat.jsonl"),
            "ValueError: a",
        ),
    ]
    ok = _no_traceback(runs) and _peak(runs) < 200 and "exceeds 10000" in runs[0].out + runs[0].err
    return Result(
        "2",
        "`(a{1000000000})` pattern under validate and match --catalog (was ~23 GiB)",
        ok,
        f"peak {_peak(runs):.0f} MiB, bad line reported, exits {[r.code for r in runs]}",
    )


def case_2b(tmp: Path) -> Result:
    runs = [
        errcat("validate", str(INPUTS / "nested_repeats.jsonl")),
        errcat(
            "match",
            "--no-bundled",
            "--catalog",
            str(INPUTS / "nested_repeats.jsonl"),
            "ValueError: a",
        ),
    ]
    text = runs[0].out + runs[0].err
    ok = _no_traceback(runs) and _peak(runs) < 200 and "nested 300 deep" in text and "20000" in text
    return Result(
        "2b",
        "new: `(a{200}){100}` (repeats multiplied) and groups nested 300 deep",
        ok,
        f"peak {_peak(runs):.0f} MiB, 2/2 bad lines reported",
    )


def case_3(tmp: Path) -> Result:
    import hashlib
    import zipfile

    bomb = _zeros_gz(1 << 30)  # 1 GiB of zeros in about 1 MiB
    catalog = tmp / "bomb.jsonl.gz"
    catalog.write_bytes(bomb)
    cache = tmp / "cache"
    env = {"ERRCAT_CACHE_DIR": str(cache)}
    manifest = {
        "dataVersion": "2026-01-01T00:00:00Z",
        "schemaVersion": 2,
        "count": 1,
        "files": {"records/x.jsonl.gz": {"count": 1, "sha256": hashlib.sha256(bomb).hexdigest()}},
    }
    artifact = tmp / "errcat-data-2026-01-01T000000Z.zip"
    with zipfile.ZipFile(artifact, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("manifest.json", json.dumps(manifest))
        archive.writestr("records/x.jsonl.gz", bomb)
    runs = [
        errcat("validate", str(catalog), env=env),
        errcat("match", "--no-bundled", "--catalog", str(catalog), "ValueError: a", env=env),
        python(
            "import sys; from errcat.catalog import Catalog\n"
            "try: Catalog.from_path(sys.argv[1], lazy=True)\n"
            "except OSError as e: print('refused:', e)",
            str(catalog),
            env=env,
        ),
        errcat("validate", str(artifact), env=env),
    ]
    left = sum(p.stat().st_size for p in cache.rglob("*") if p.is_file()) if cache.exists() else 0
    refused = sum("decompresses to more than" in r.out + r.err for r in runs)
    ok = _no_traceback(runs) and refused == 4 and left == 0 and _peak(runs) < 200
    return Result(
        "3",
        f"{len(bomb) / MiB:.1f} MiB .jsonl.gz of 1 GiB zeros: validate, match, stored index, a release zip holding it",
        ok,
        f"{refused}/4 refused, peak {_peak(runs):.0f} MiB, {left} bytes left in the cache",
    )


def case_3b(tmp: Path) -> Result:
    bomb = _zeros_gz(256 * MiB)
    runs = []
    for name in ("bomb.json.gz", "bomb.txt.gz"):
        (tmp / name).write_bytes(bomb)
        runs.append(errcat("validate", str(tmp / name)))
    refused = sum("decompresses to more than" in r.out + r.err for r in runs)
    ok = _no_traceback(runs) and refused == 2 and _peak(runs) < 200
    return Result(
        "3b",
        "new: the bomb as a .json.gz and a .txt.gz (read as one document, not as lines)",
        ok,
        f"{refused}/2 refused, peak {_peak(runs):.0f} MiB",
    )


def _data_dir(tmp: Path, name: str, *files: Path) -> Path:
    target = tmp / name
    target.mkdir()
    for f in files:
        shutil.copy(f, target / f.name)
    return target


def case_4(tmp: Path) -> Result:
    deep = INPUTS / "deep.jsonl"
    old = _data_dir(tmp, "old", SEEDS)
    new = _data_dir(tmp, "new", deep)
    runs = [
        errcat("validate", str(deep)),
        errcat("match", "--no-bundled", "--catalog", str(deep), SEED_LINE),
        errcat("release", "check", str(deep)),
        errcat(
            "release",
            "build",
            str(new),
            "--version",
            "2026-09-01T00:00:00Z",
            "--dist",
            str(tmp / "dist"),
        ),
        errcat("release", "diff", str(old), str(new)),
    ]
    reported = sum("nested too deeply" in r.out + r.err for r in runs[:4])
    ok = _no_traceback(runs) and reported == 4 and all(r.code in (0, 1, 2) for r in runs)
    return Result(
        "4",
        "a catalog line nested 2,000 deep: validate, match, release check, build, diff",
        ok,
        f"5/5 without traceback, {reported}/4 name the bad line, exits {[r.code for r in runs]}",
    )


def case_4b(tmp: Path) -> Result:
    data = tmp / "deepmanifest"
    data.mkdir()
    (data / "records.jsonl").write_bytes(SEEDS.read_bytes())
    (data / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)
    runs = [
        errcat("validate", str(data)),
        errcat("match", "--no-bundled", "--catalog", str(data), SEED_LINE),
        errcat("release", "check", str(data)),
    ]
    ok = _no_traceback(runs) and all(r.code != 0 for r in runs)
    return Result(
        "4b",
        "new: a manifest.json nested 100,000 deep: validate, match, release check",
        ok,
        f"3/3 refused without traceback, exits {[r.code for r in runs]}",
    )


def case_5(tmp: Path) -> Result:
    snippet = """
import gzip, sys
from pathlib import Path
from errcat import match_error
from errcat.catalog import Catalog
source, cache = Path(sys.argv[1]), Path(sys.argv[2])
line = sys.argv[3]
first = match_error(line, Catalog.from_path(source, lazy=True))
(copy,) = (cache / "inflated").glob("*-seeds.jsonl")
data = copy.read_bytes()
ok = 0
for damage in ("truncate", "empty", "overwrite"):
    copy.write_bytes({"truncate": data[: len(data) // 2], "empty": b"",
                      "overwrite": data.replace(b"DeepEP", b"DEEPEP")}[damage])
    again = match_error(line, Catalog.from_path(source, lazy=True))
    ok += again is not None and first is not None and again.record == first.record and copy.read_bytes() == data
print("rebuilt", ok)
"""
    source = tmp / "seeds.jsonl.gz"
    source.write_bytes(gzip.compress(SEEDS.read_bytes()))
    cache = tmp / "cache"
    ran = python(snippet, str(source), str(cache), SEED_LINE, env={"ERRCAT_CACHE_DIR": str(cache)})
    ok = "rebuilt 3" in ran.out and not ran.traceback
    return Result(
        "5",
        "the decompressed copy in the cache truncated, emptied, overwritten (same size)",
        ok,
        f"{ran.out.split()[-1] if 'rebuilt' in ran.out else 0}/3 copies made again, same answer",
    )


def case_6(tmp: Path) -> Result:
    env = {"PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"}
    name = os.fsencode(tmp) + b"/log-\xff.log"
    Path(os.fsdecode(name)).write_bytes(b"ValueError: bad value \xfe\n")
    catalog = ("--no-bundled", "--catalog", str(SEEDS))
    runs = [
        errcat("match", b"ValueError: no tokenizer at /m/\xff", *catalog, env=env),
        errcat("match", *catalog, stdin=b"ValueError: no tokenizer at \xff\n", env=env),
        errcat(
            "match", "--lines", "-", *catalog, stdin=b"ValueError: a \xff\nKeyError: 'b'\n", env=env
        ),
        errcat("scan", name, *catalog, env=env),
    ]
    clean = sum(not r.traceback and r.code in (0, 1) for r in runs)
    return Result(
        "6",
        "PYTHONIOENCODING=utf-8: bytes not UTF-8 in argv, stdin, match --lines -, a file name",
        clean == 4,
        f"{clean}/4 without traceback",
    )


def case_7(tmp: Path) -> Result:
    pkg = tmp / "pkg"
    pkg.mkdir()
    (pkg / "m.py").write_text('raise ValueError("x")\n')
    mine = ("mine", str(pkg), "--repo", "o/r", "--sha", "a" * 40, "-o")
    runs = [
        errcat(*mine, str(tmp / "missing" / "out.jsonl"), cwd=tmp),
        errcat(*mine, str(tmp), cwd=tmp),
        errcat(
            "history", "--dist", f"1.0={pkg}", "--repo", "o/r", "-o", "missing/out.jsonl", cwd=tmp
        ),
        errcat("serve", "--port", "99999", "--no-bundled", "--catalog", str(SEEDS)),
    ]
    leftovers = list(tmp.rglob("*.tmp"))
    good = sum(r.code == 2 and not r.traceback for r in runs)
    return Result(
        "7",
        "-o into a missing folder / a folder (mine, history); serve --port 99999",
        good == 4 and not leftovers,
        f"{good}/4 usage errors, {len(leftovers)} .tmp left",
    )


def _noise(total: int, tail: bytes) -> Iterable[bytes]:
    block = b"INFO nothing to see here, just a busy log line of a server\n" * 16384
    sent = 0
    while sent < total:
        yield block
        sent += len(block)
    yield tail


def case_8(tmp: Path) -> Result:
    size = 1 << 30
    ran = errcat(
        "match",
        "--no-bundled",
        "--catalog",
        str(SEEDS),
        stdin=_noise(size, SEED_LINE.encode() + b"\n"),
    )
    answered = "Change --deepep-mode to low_latency" in ran.out
    ok = ran.code == 0 and answered and ran.peak_mib < 200 and not ran.traceback
    return Result(
        "8",
        "1 GiB on errcat match's stdin, the error at its end (was 255 s, 3.2 GB)",
        ok,
        f"{ran.seconds:.1f} s, peak {ran.peak_mib:.0f} MiB, answered",
    )


def case_8b(tmp: Path) -> Result:
    def line() -> Iterable[bytes]:
        yield b"ValueError: "
        for _ in range(256):
            yield b"x" * MiB
        yield b"\n" + SEED_LINE.encode() + b"\n"

    ran = errcat("match", "--lines", "-", "--no-bundled", "--catalog", str(SEEDS), stdin=line())
    ok = ran.peak_mib < 200 and not ran.traceback and ran.code in (0, 1)
    return Result(
        "8b",
        "new: match --lines - with one line of 256 MiB before a known error",
        ok,
        f"{ran.seconds:.1f} s, peak {ran.peak_mib:.0f} MiB, exit {ran.code}",
    )


# --------------------------------------------------------------------------
# A race on first use (case 9).

_RACE = """
import json, sys, threading
from errcat import match_error
texts = json.loads(sys.argv[1])
threads = int(sys.argv[2])
barrier = threading.Barrier(threads)
answers = [None] * threads
def ask(n):
    barrier.wait()
    got = []
    for text in texts:
        m = match_error(text)
        got.append(None if m is None else [m.summary.id, round(m.confidence, 6)])
    answers[n] = got
workers = [threading.Thread(target=ask, args=(n,)) for n in range(threads)]
for w in workers: w.start()
for w in workers: w.join()
print(json.dumps(answers))
"""


def case_9(tmp: Path) -> Result:
    texts = [
        SEED_LINE,
        "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend. "
        "Select another --speculative-moe-a2a-backend.",
        "AssertionError: self.chunked_req is None",
        "KeyError: 'model_type'",
        "RuntimeError: CUDA error: out of memory",
        "ValueError: max_model_len 9000 exceeds 8192",
    ]
    serial = python(_RACE, json.dumps(texts), "1")
    if serial.code != 0:
        return Result(
            "9", "16 threads' first matches", False, f"serial run failed: {serial.err[-200:]}"
        )
    want = json.loads(serial.out)[0]
    differ = 0
    runs = []
    for _ in range(5):
        ran = python(_RACE, json.dumps(texts), "16")
        runs.append(ran)
        answers = json.loads(ran.out) if ran.code == 0 else []
        differ += len(answers) != 16 or any(a != want for a in answers)
    return Result(
        "9",
        "5 fresh processes, 16 threads making the first match_error calls at once (bundled catalog)",
        differ == 0 and _no_traceback(runs),
        f"{differ}/5 processes differ from the serial answers",
    )


# --------------------------------------------------------------------------
# Data (cases 18, 19) and the table.


def case_18(tmp: Path) -> Result:
    data = INPUTS / "manifest_outside"
    runs = [
        errcat("validate", str(data)),
        errcat("match", "--no-bundled", "--catalog", str(data), SEED_LINE),
        errcat("release", "check", str(data)),
    ]
    refused = sum(r.code != 0 and "leads out of the data directory" in r.out + r.err for r in runs)
    return Result(
        "18",
        "a manifest naming ../outside.jsonl: validate, match --catalog, release check",
        refused == 3 and _no_traceback(runs),
        f"{refused}/3 refused, naming the entry",
    )


def case_19(tmp: Path) -> Result:
    data = tmp / "data"
    shutil.copytree(INPUTS / "prose_data", data)
    before = {p.name: p.read_bytes() for p in data.iterdir()}
    ran = errcat(
        "release",
        "build",
        str(data),
        "--version",
        "2026-09-01T00:00:00Z",
        "--dist",
        str(tmp / "dist"),
    )
    kept = sum(
        (data / n).is_file() and (data / n).read_bytes() == b
        for n, b in before.items()
        if n != "records.jsonl"
    )
    return Result(
        "19",
        "release build of a directory with notes.txt (prose) and settings.json holding []",
        ran.code == 0 and kept == 2 and not ran.traceback,
        f"exit {ran.code}, {kept}/2 files kept untouched",
    )


def case_19b(tmp: Path) -> Result:
    runs = []
    for name, data in (("zero.jsonl.gz", b""), ("nothing.jsonl.gz", gzip.compress(b""))):
        (tmp / name).write_bytes(data)
        runs.append(errcat("validate", str(tmp / name)))
        runs.append(errcat("match", "--no-bundled", "--catalog", str(tmp / name), "ValueError: a"))
    said = sum(("empty" in r.out + r.err or "nothing" in r.out + r.err) for r in runs)
    return Result(
        "19b",
        "new: an empty .jsonl.gz (0 bytes; a gzip of nothing) as a catalog",
        said == 4 and _no_traceback(runs),
        f"{said}/4 runs report it (validate exit {runs[0].code})",
    )


def _cases() -> dict[str, Callable[[Path], Result]]:
    from adversarial_scan import (
        case_10,
        case_11,
        case_11b,
        case_12,
        case_12b,
        case_13,
        case_13b,
    )
    from adversarial_serve import SERVE_CASES

    local = {
        "1": case_1,
        "2": case_2,
        "2b": case_2b,
        "3": case_3,
        "3b": case_3b,
        "4": case_4,
        "4b": case_4b,
        "5": case_5,
        "6": case_6,
        "7": case_7,
        "8": case_8,
        "8b": case_8b,
        "9": case_9,
        "10": case_10,
        "11": case_11,
        "11b": case_11b,
        "12": case_12,
        "12b": case_12b,
        "13": case_13,
        "13b": case_13b,
        "18": case_18,
        "19": case_19,
        "19b": case_19b,
    }
    cases = {**local, **SERVE_CASES}

    def order(key: str) -> tuple[int, str]:
        digits = "".join(c for c in key if c.isdigit())
        return int(digits), key

    return {k: cases[k] for k in sorted(cases, key=order)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", help="cases to run (default: all), e.g. 3 12b")
    parser.add_argument("--keep", type=Path, help="make the inputs here and keep them")
    args = parser.parse_args(argv)
    cases = _cases()
    chosen = args.cases or list(cases)
    unknown = [c for c in chosen if c not in cases]
    if unknown:
        parser.error(f"unknown case(s) {unknown}; known: {' '.join(cases)}")
    rows: list[tuple[Result, float]] = []
    started = time.perf_counter()
    for key in chosen:
        base = args.keep or Path(tempfile.mkdtemp(prefix="errcat-adversarial-"))
        tmp = base / f"case-{key}"
        tmp.mkdir(parents=True, exist_ok=True)
        began = time.perf_counter()
        try:
            result = cases[key](tmp)
        except Exception as exc:  # the bench itself failed on this case: a failure, shown
            result = Result(key, "(the case could not run)", False, f"{type(exc).__name__}: {exc}")
        finally:
            if args.keep is None:
                shutil.rmtree(base, ignore_errors=True)
        rows.append((result, time.perf_counter() - began))
        mark = {True: "pass", False: "FAIL", None: "skip"}[result.passed]
        print(
            f"  case {key}: {mark} ({time.perf_counter() - began:.1f} s)",
            file=sys.stderr,
            flush=True,
        )
    print("| case | what was tried | result | figure | s |")
    print("|---|---|---|---|---|")
    for result, seconds in rows:
        mark = {True: "pass", False: "FAIL", None: "skip"}[result.passed]
        print(f"| {result.case} | {result.tried} | {mark} | {result.figure} | {seconds:.1f} |")
    passed = sum(r.passed is True for r, _ in rows)
    failed = sum(r.passed is False for r, _ in rows)
    print(
        f"\n{passed} passed, {failed} failed, {len(rows) - passed - failed} skipped "
        f"in {time.perf_counter() - started:.0f} s"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
