"""Issue 28's cases of the server (14-17), Spark (20, 21) and git (22), for bench_adversarial.py.

Each starts what it needs (``errcat serve`` on a free port, a local Spark
session, a git repository and its shallow clone) in subprocesses, and returns
a :class:`bench_adversarial.Result`.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from bench_adversarial import ERRCAT, SEED_LINE, SEEDS, Launched, Result, python, run

HEADER_TIMEOUT = 10  # errcat serve's default --header-timeout


class Server:
    """``errcat serve`` on a free port; :meth:`stop` gives its peak memory (MiB)."""

    def __init__(self, *extra: str) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.launched = Launched(
            [*ERRCAT, "serve", "--port", str(self.port), "--log-level", "warning", *extra],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.proc = self.launched.proc
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    os.killpg(self.proc.pid, 9)
                    raise RuntimeError("errcat serve did not start") from None
                time.sleep(0.1)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float:
        """User and system CPU time the server has used so far."""
        stat = Path(f"/proc/{self.launched.pid()}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def post(self, body: bytes, timeout: float = 60) -> int:
        request = urllib.request.Request(
            f"{self.url}/v1/match", data=body, headers={"content-type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                r.read()
                return int(r.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)
        except OSError:
            return -1  # reset, broken pipe, timeout

    def stop(self) -> tuple[float, bool]:
        """Stop it: its peak RSS in MiB, and whether it printed a traceback."""
        self.launched.terminate()
        _, peak = self.launched.finish(20)
        err = self.proc.stderr.read().decode("utf-8", "replace") if self.proc.stderr else ""
        return peak, "Traceback (most recent call last)" in err


def _match_body(text: str) -> bytes:
    return json.dumps({"text": text}).encode()


def case_14(tmp: Path) -> Result:
    server = Server()
    held: list[socket.socket] = []
    try:
        for _ in range(200):
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(b"POST /v1/match HTTP/1.1\r\nHost: x\r\n")  # and never the rest
            held.append(s)
        started = time.monotonic()
        codes = [server.post(_match_body(SEED_LINE), timeout=30) for _ in range(5)]
        within = time.monotonic() - started < HEADER_TIMEOUT  # while they were all still held
    finally:
        for s in held:
            s.close()
        peak, traceback = server.stop()
    good = codes.count(200)
    return Result(
        "14",
        "200 connections that never finish their headers, then 5 ordinary requests",
        good == 5 and within and not traceback,
        f"{good}/5 got 200 while all 200 were held, server peak {peak:.0f} MiB",
    )


def case_15(tmp: Path) -> Result:
    server = Server()
    heavy_text = "".join(
        f"ValueError: request {n} failed: token {n * 7} of the prompt is out of range\n"
        for n in range(3300)
    )[:250_000]
    codes: dict[str, list[int]] = {"heavy": [], "light": []}
    lock = threading.Lock()

    def send(kind: str, body: bytes) -> None:
        code = server.post(body, timeout=120)
        with lock:
            codes[kind].append(code)

    threads = [
        threading.Thread(target=send, args=("heavy", _match_body(heavy_text))) for _ in range(6)
    ]
    try:
        for t in threads:
            t.start()
        time.sleep(0.3)
        light = [
            threading.Thread(target=send, args=("light", _match_body(SEED_LINE))) for _ in range(10)
        ]
        for t in light:
            t.start()
        for t in [*threads, *light]:
            t.join()
        before = server.cpu_seconds()
        time.sleep(3)
        after_cpu = server.cpu_seconds() - before
    finally:
        _, traceback = server.stop()
    good = codes["light"].count(200)
    heavy = {c: codes["heavy"].count(c) for c in sorted(set(codes["heavy"]))}
    return Result(
        "15",
        "6 valid 250k-character requests at once, then 10 ordinary ones",
        good == 10 and after_cpu < 1.0 and not traceback,
        f"ordinary {good}/10 got 200; heavy {heavy}; server CPU {after_cpu:.2f} s in the 3 s after",
    )


def case_16_17(tmp: Path) -> list[Result]:
    server = Server()
    bodies = [
        b'{"text": "ValueError: x", "limit": 1e400}',
        b'{"text": "ValueError: x", "limit": NaN}',
        b'{"text": "\\ud800 ValueError: x"}',
        b'{"text": "ValueError: x", "limit": -Infinity}',
    ]
    try:
        codes = [server.post(b) for b in bodies]
        body = b'{"text": "' + b"x" * (2 << 20) + b'"}'
        head = (
            b"POST /v1/match HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)
        )
        got_413 = 0
        for _ in range(10):
            try:
                with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
                    s.sendall(head)
                    for at in range(0, len(body), 1 << 16):  # slowly: the 413 comes meanwhile
                        s.sendall(body[at : at + (1 << 16)])
                        time.sleep(0.002)
                    got_413 += s.recv(64).startswith(b"HTTP/1.1 413 ")
            except OSError:
                pass
    finally:
        peak, traceback = server.stop()
    return [
        Result(
            "16",
            "limit 1e400, NaN, -Infinity and text holding \\ud800 (were 500)",
            codes.count(422) == 4 and not traceback,
            f"{codes.count(422)}/4 got 422 ({codes})",
        ),
        Result(
            "17",
            "a 2 MiB body sent slowly, 10 times (once a broken pipe)",
            got_413 == 10 and not traceback,
            f"{got_413}/10 got their 413, server peak {peak:.0f} MiB",
        ),
    ]


_SPARK = """
import glob, os, sys
from pyspark.sql import SparkSession
from errcat.scan import scan_text, scan_paths
from errcat.spark import SparkWorkerError, scan
log, catalog = sys.argv[1], sys.argv[2]
print("local", len(scan_text(open(log).read(), catalog=catalog)), len(list(scan_paths([log], catalog=[catalog]))))
spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "1").getOrCreate())
try:
    print("events", scan(spark, [log], catalog=catalog).count())
    print("bundled", scan(spark, [log]).count())  # a stored index: staged for the executors
except SparkWorkerError as exc:
    print("refused:", exc)
print("during", len(glob.glob(os.path.join(os.environ["TMPDIR"], "errcat-spark-*"))))
spark.stop()
"""


def _spark_missing() -> str | None:
    import importlib.util

    for module in ("pyspark", "pyarrow", "pandas"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed"
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return "no Java runtime"
    return None


def case_20_21(tmp: Path) -> list[Result]:
    missing = _spark_missing()
    if missing is not None:
        return [
            Result("20", "a Spark session's staging files", None, missing),
            Result("21", "errcat.spark.scan(catalog='catalog.jsonl')", None, missing),
        ]
    log = tmp / "app.log"
    log.write_text(f"INFO up\n{SEED_LINE}\nINFO still up\nKeyError: 'k'\n")
    spark_tmp = tmp / "sparktmp"
    spark_tmp.mkdir()
    env = {"TMPDIR": str(spark_tmp), "PYSPARK_PYTHON": sys.executable, "PYTHONWARNINGS": "ignore"}
    ran = python(_SPARK, str(log), str(SEEDS), env=env, timeout=300)
    left = list(spark_tmp.glob("errcat-spark-*"))
    scanned = "events 2" in ran.out and "local 2 2" in ran.out and "bundled 2" in ran.out
    results = [
        Result(
            "20",
            "a Spark session scanning with the bundled catalog (its index staged), then stopped",
            scanned and not left and not ran.traceback,
            f"{len(left)} staging entries left (had {ran.out.split('during')[-1].split()[0] if 'during' in ran.out else '?'} while running), peak {ran.peak_mib:.0f} MiB",
        )
    ]
    bare = shutil.which("python3", path="/usr/bin:/bin")
    named = None
    if bare is not None and run([bare, "-c", "import errcat"]).code != 0:
        refused = python(
            _SPARK, str(log), str(SEEDS), env={**env, "PYSPARK_PYTHON": bare}, timeout=300
        )
        named = (
            f"refused: Spark's Python workers run '{bare}'" in refused.out
            and "PYSPARK_PYTHON=" in refused.out
        )
    figure = "catalog as a str path: 2/2 events as the local scan"
    figure += (
        ""
        if named is None
        else f"; workers without errcat: {'named (PYSPARK_PYTHON)' if named else 'NOT named'}"
    )
    results.append(
        Result(
            "21",
            "spark.scan / scan_text / scan_paths with catalog='seeds.jsonl'; workers' Python without errcat",
            scanned and named is not False and not ran.traceback,
            figure,
        )
    )
    return results


def case_22(tmp: Path) -> Result:
    work = tmp / "work"
    work.mkdir()

    def git(cwd: Path, *args: str, date: str | None = None) -> None:
        env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp)}
        if date:
            env |= {
                "GIT_AUTHOR_DATE": f"{date}T12:00:00Z",
                "GIT_COMMITTER_DATE": f"{date}T12:00:00Z",
            }
        subprocess.run(
            ["git", "-c", "user.name=b", "-c", "user.email=b@x", *args],
            cwd=cwd,
            env=env,
            check=True,
            capture_output=True,
        )

    git(work, "init", "-q", "-b", "main")
    (work / "pkg").mkdir()
    for n, date in enumerate(["2025-01-10", "2025-04-10", "2025-07-10"]):
        (work / "pkg" / "m.py").write_text(f'raise ValueError("message {n}")\n')
        git(work, "add", "-A")
        git(work, "commit", "-q", "-m", f"c{n}", date=date)
    shallow = tmp / "shallow.git"
    git(tmp, "clone", "-q", "--bare", "--depth", "1", f"file://{work}", str(shallow))
    ran = run(
        [
            *ERRCAT,
            "history",
            str(shallow),
            "--repo",
            "o/r",
            "--since",
            "2025-01-01",
            "-o",
            str(tmp / "out.jsonl"),
        ]
    )
    warned = "shallow clone" in ran.err and "fetch --unshallow" in ran.err
    return Result(
        "22",
        "history --since 2025-01-01 on a --depth 1 clone of 3 commits",
        ran.code == 0 and warned and not ran.traceback,
        f"exit {ran.code}, {'warns where its history starts' if warned else 'NO warning'}",
    )


def _first(make: Callable[[Path], list[Result]], index: int) -> Callable[[Path], Result]:
    """One result of a function that checks two cases on one server or session."""
    cache: dict[str, list[Result]] = {}

    def case(tmp: Path) -> Result:
        if "r" not in cache:
            cache["r"] = make(tmp)
        return cache["r"][index]

    return case


SERVE_CASES: dict[str, Callable[[Path], Result]] = {
    "14": case_14,
    "15": case_15,
    "16": _first(case_16_17, 0),
    "17": _first(case_16_17, 1),
    "20": _first(case_20_21, 0),
    "21": _first(case_20_21, 1),
    "22": case_22,
}
