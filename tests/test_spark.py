"""errcat.spark on a local[2] session: the same events as the local scan.

Skipped (with the reason) when pyspark, pyarrow or a Java runtime is missing,
unless ERRCAT_REQUIRE_SPARK=1 (as in CI), where a missing piece fails the run.
"""

from __future__ import annotations

import gzip
import importlib.util
import os
import shutil
import subprocess
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.loaders import write_jsonl
from errcat.scan import EVENT_FIELDS, scan_paths, summarize

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def _missing() -> str | None:
    for module in ("pyspark", "pyarrow", "pandas"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install 'errcat[spark]')"
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return "no Java runtime (apt-get install default-jre-headless)"
    return None


MISSING = _missing()
if MISSING is not None:
    if os.environ.get("ERRCAT_REQUIRE_SPARK") == "1":
        raise RuntimeError(f"ERRCAT_REQUIRE_SPARK=1 but {MISSING}")
    pytest.skip(MISSING, allow_module_level=True)

TOKENIZER = (
    "the tokenizer could not be loaded from {path}; "
    "set --tokenizer-path to a directory holding tokenizer.json"
)
SEED_MESSAGE = (
    "DeepEP v2 MoE is not validated as a speculative draft backend. "
    "Select another --speculative-moe-a2a-backend."
)


def _traceback(message: str, site: tuple[str, int]) -> list[str]:
    """A real chained traceback whose last frame is rewritten to ``site``.

    Records are answered from the frame where their error is raised, so the
    error is shown raised where its record says (an installed package's file).
    """
    try:
        try:
            int("x")
        except ValueError as exc:
            raise ValueError(message) from exc
    except ValueError as exc:
        lines = "".join(traceback.format_exception(exc)).rstrip("\n").split("\n")
    else:
        raise AssertionError
    frames = [n for n, line in enumerate(lines) if line.startswith('  File "')]
    path, line = site
    lines[frames[-1]] = f'  File "/usr/lib/python3/site-packages/{path}", line {line}, in check'
    return lines


#: Where the seed record and the example record (conftest.make_envelope) are raised.
SEED_SITE = ("sglang/srt/server_args.py", 7632)
EXAMPLE_SITE = ("project/core.py", 12)


def _log() -> str:
    tb = _traceback(SEED_MESSAGE, SEED_SITE)
    lines = ["[2026-01-02 03:04:04 TP0] Decode batch. #running-req: 1"]
    lines.append(f"[2026-01-02 03:04:05 TP3] Scheduler hit an exception: {tb[0]}")
    lines.extend(tb[1:])
    for line in _traceback(TOKENIZER.format(path="/models/x"), EXAMPLE_SITE):
        lines.append(f"(Worker_TP1 pid=88) {line}")
        lines.append(f"(Worker_TP0 pid=87) {line}")
    lines.append("(Worker_TP0 pid=87) INFO 03-06 10:05:08 [worker.py:1] exiting")
    lines.append("[2026-01-02 03:04:06 TP1] KeyError: 'layers.0.weight'")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    from pyspark.sql import SparkSession

    # The executors' Python must be this one (it has errcat installed).
    previous = os.environ.get("PYSPARK_PYTHON")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("errcat-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    if previous is None:
        os.environ.pop("PYSPARK_PYTHON", None)
    else:
        os.environ["PYSPARK_PYTHON"] = previous


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    directory = tmp_path_factory.mktemp("logs")
    text = _log()
    plain = directory / "a.log"
    plain.write_text(text)
    packed = directory / "b.log.gz"
    packed.write_bytes(gzip.compress((text * 2).encode()))
    return [plain, packed]


def rows(df: Any) -> list[tuple[Any, ...]]:
    return sorted(tuple(row) for row in df.collect())


def test_scan_equals_the_local_scan_event_for_event(spark: SparkSession, logs: list[Path]) -> None:
    from errcat.spark import scan

    df = scan(spark, [str(p.parent) for p in logs[:1]])
    assert tuple(df.columns) == EVENT_FIELDS
    local = sorted(tuple(e.to_dict().values()) for e in scan_paths(logs))
    got = rows(df)
    assert got == local
    assert len(got) == 3 * 4  # 4 events per copy of the log, 3 copies
    assert {row[5] for row in got} >= {"3fe9ad44079a5344", None}


def test_a_stored_index_is_shipped_not_the_source(
    spark: SparkSession, logs: list[Path], tmp_path: Path
) -> None:
    from errcat.spark import scan
    from errcat.store import FileStore

    pattern = TOKENIZER.replace(".json", r"\.json").replace("{path}", "(.+?)")
    record = make_envelope(errorMessage=TOKENIZER, messagePattern=pattern)
    source = tmp_path / "custom.jsonl"
    write_jsonl(source, [record])
    catalog = Catalog.from_path(source, lazy=True)
    (store,) = catalog.parts
    assert isinstance(store, FileStore)
    local = sorted(tuple(e.to_dict().values()) for e in scan_paths(logs, catalog=catalog))
    df = scan(spark, [str(p) for p in logs], catalog)
    # The executors open the shipped copy of the index: the source may go away.
    source.unlink()
    store.index_path.unlink()
    got = rows(df)
    assert got == local
    assert [row[5] for row in got].count(record.record.id) == 6


def test_match_column_adds_the_match_of_each_row(spark: SparkSession) -> None:
    from errcat.spark import MATCH_FIELDS, match_column

    texts = [f"ValueError: {SEED_MESSAGE}", "KeyError: 'x'", "all good", None]
    df = spark.createDataFrame([(n, t) for n, t in enumerate(texts)], "n int, text string")
    out = match_column(df, "text")
    assert out.columns == ["n", "text", *(name for name, _ in MATCH_FIELDS)]
    got = {row["n"]: tuple(row)[2:] for row in out.collect()}
    assert got[0][:3] == ("ValueError", SEED_MESSAGE, "3fe9ad44079a5344") and got[0][4] is True
    assert got[1] == ("KeyError", "'x'", None, 0.0, False)
    assert got[2] == got[3] == (None, None, None, 0.0, False)
    with pytest.raises(ValueError, match="already has"):
        match_column(out, "text")


def test_summary_job_writes_parquet_like_the_local_summary(
    spark: SparkSession, logs: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from errcat.spark import main

    out = tmp_path / "summary.parquet"
    assert main(["summary", *map(str, logs), "-o", str(out)]) == 0
    assert "12 event(s)" in capsys.readouterr().out
    written = [row.asDict() for row in spark.read.parquet(str(out)).collect()]
    key = ("record_id", "error_class", "events", "files")
    want = [tuple(row[k] for k in key) for row in summarize(scan_paths(logs))]
    assert sorted((tuple(row[k] for k in key) for row in written), key=str) == sorted(want, key=str)
    assert main(["summary", str(logs[0]), "-o", str(out)]) == 2  # exists: not overwritten
    assert "exists" in capsys.readouterr().err
    assert main(["summary", str(tmp_path / "none.log"), "-o", str(tmp_path / "o2")]) == 2
    assert "PATH_NOT_FOUND" in capsys.readouterr().err


def test_a_catalog_given_as_a_path_is_read(
    spark: SparkSession, logs: list[Path], tmp_path: Path
) -> None:
    """Case 21 of issue 28: catalog="catalog.jsonl" crashed with AttributeError ('parts')."""
    from errcat.spark import scan

    pattern = TOKENIZER.replace(".json", r"\.json").replace("{path}", "(.+?)")
    record = make_envelope(errorMessage=TOKENIZER, messagePattern=pattern)
    source = tmp_path / "custom.jsonl"
    write_jsonl(source, [record])
    local = sorted(tuple(e.to_dict().values()) for e in scan_paths(logs, catalog=str(source)))
    for given in (str(source), source, [str(source)]):
        assert rows(scan(spark, [str(p) for p in logs], given)) == local


_SESSION = """
import os, sys
from pyspark.sql import SparkSession
from errcat.catalog import Catalog
from errcat.spark import SparkWorkerError, scan
spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
try:
    catalog = Catalog.from_path(sys.argv[2], lazy=True)
    print("events", scan(spark, [sys.argv[1]], catalog).count())
except SparkWorkerError as exc:
    print("refused:", exc)
spark.stop()
"""


def test_a_session_leaves_no_files_and_a_worker_without_errcat_is_named(
    logs: list[Path], tmp_path: Path
) -> None:
    """Cases 20 and 21: each session left /tmp/errcat-spark-* behind; workers running a
    Python without errcat failed deep in a Py4J error."""
    source = tmp_path / "custom.jsonl"
    write_jsonl(source, [make_envelope()])
    script = tmp_path / "session.py"
    script.write_text(_SESSION)
    spark_tmp = tmp_path / "tmp"
    spark_tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(spark_tmp), "PYSPARK_PYTHON": sys.executable}
    args = [sys.executable, str(script), str(logs[0]), str(source)]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    assert "events 4" in done.stdout, done.stderr[-2000:]
    assert not list(spark_tmp.glob("errcat-spark-*"))
    bare = shutil.which("python3", path="/usr/bin:/bin")
    if bare is None or subprocess.run([bare, "-c", "import errcat"], check=False).returncode == 0:
        return  # no Python without errcat on this machine
    env["PYSPARK_PYTHON"] = bare
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    assert f"refused: Spark's Python workers run '{bare}'" in done.stdout, done.stderr[-2000:]
    assert "PYSPARK_PYTHON=" in done.stdout
