"""Scan fleet logs and match error text on Spark executors (``pip install 'errcat[spark]'``).

A thin adapter over :mod:`errcat.scan`: the driver only lists the files and
ships the catalog; each executor reads whole files (``binaryFile``, so a
traceback is never cut between tasks), decompresses and decodes them exactly as
``errcat scan`` does, and runs the same per-batch function inside
``mapInArrow``. The result is the local scan's, event for event.

The catalog goes to the executors once: a catalog served from a stored index
(a large JSON Lines catalog, or any loaded with ``lazy=True``) ships that index
file through ``SparkContext.addFile``, and each Python worker memory-maps it
on first use; records held in memory (the bundled catalog) ship as one
broadcast. Either is opened once per Python worker and kept.

.. code-block:: python

    from pyspark.sql import SparkSession
    from errcat.spark import scan, summary

    spark = SparkSession.builder.getOrCreate()
    events = scan(spark, ["s3a://logs/2026-01-02/"], recursive=True)
    summary(events).show()

Or from a shell: ``python -m errcat.spark summary LOGS... -o out.parquet``.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import shutil
import sys
import tempfile
import uuid
import weakref
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from errcat.catalog_arg import CatalogArg, as_catalog
from errcat.cli_common import catalog_from_args, catalog_options
from errcat.errors import ErrcatError
from errcat.scan import LogSourceError, final_report, iter_log_bytes, scan_chunks

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import DataFrame, SparkSession

    from errcat.catalog import Catalog

__all__ = [
    "EVENT_SCHEMA",
    "MATCH_FIELDS",
    "SparkWorkerError",
    "main",
    "match_column",
    "scan",
    "summary",
]

#: The Spark schema of :func:`scan`'s DataFrame (the fields of ``errcat scan --json``).
EVENT_SCHEMA = (
    "path string, start_line int, end_line int, error_class string, message string,"
    " record_id string, confidence double, exact boolean"
)

#: The columns :func:`match_column` adds, with their Spark types.
MATCH_FIELDS = (
    ("error_class", "string"),
    ("message", "string"),
    ("record_id", "string"),
    ("confidence", "double"),
    ("exact", "boolean"),
)

# The catalogs this Python worker has opened, by shipment (the latest few).
_OPENED: dict[str, Catalog] = {}
_OPENED_MAX = 4
# What the driver has shipped, by (SparkContext, catalog): each catalog goes once.
# Both are kept alive in the values, so that their ids are not reused.
_SHIPPED: dict[tuple[int, int], tuple[Any, Catalog, _Shipped]] = {}


@dataclass(frozen=True)
class _Part:
    """One store of a shipped catalog: a stored index file or broadcast records."""

    file_name: str | None  # the SparkFiles name of a stored index
    identity: list[list[Any]] | None  # the data the index was built from (its header says)
    files: tuple[str, ...]  # the data files (read only if a record body is asked for)
    records: Any  # Broadcast of [(kind, json)] for records held in memory


@dataclass(frozen=True)
class _Shipped:
    """A catalog as the executors receive it; :meth:`catalog` opens it once per worker."""

    token: str
    parts: tuple[_Part, ...]
    history: Any  # Broadcast of the catalog's History (when each message existed), or None

    def catalog(self) -> Catalog:
        opened = _OPENED.get(self.token)
        if opened is None:
            opened = _open(self)
            while len(_OPENED) >= _OPENED_MAX:
                del _OPENED[next(iter(_OPENED))]
            _OPENED[self.token] = opened
        return opened


def _open(shipped: _Shipped) -> Catalog:
    from pyspark import SparkFiles

    from errcat.catalog import Catalog
    from errcat.models import ErrorRecord, RecordEnvelope
    from errcat.store import FileStore, MemoryStore, Store

    stores: list[Store] = []
    for part in shipped.parts:
        if part.file_name is not None:
            assert part.identity is not None
            local = Path(SparkFiles.get(part.file_name))
            stores.append(FileStore(local, [Path(f) for f in part.files], part.identity))
        else:
            items: list[RecordEnvelope | ErrorRecord] = [
                RecordEnvelope.model_validate_json(data)
                if kind == "envelope"
                else ErrorRecord.model_validate_json(data)
                for kind, data in part.records.value
            ]
            stores.append(MemoryStore(items))
    catalog = Catalog._of_parts(stores)
    if shipped.history is not None:  # the same answers as the driver's: lineages, upgrades
        catalog._keep_history(shipped.history.value)
    return catalog


def _ship(spark: SparkSession, catalog: CatalogArg) -> _Shipped:
    """Send a catalog's stored indexes (or records) to the executors, once."""
    from errcat.catalog import Catalog
    from errcat.store import FileStore

    chosen = as_catalog(catalog)
    cat = chosen if chosen is not None else Catalog.default()
    context = spark.sparkContext
    for stale in [k for k, (ctx, _, _) in _SHIPPED.items() if ctx._jsc is None]:
        del _SHIPPED[stale]  # a stopped context: its staging files go with it
    _check_workers(context)
    key = (id(context), id(cat))
    if key in _SHIPPED:
        return _SHIPPED[key][2]
    token = uuid.uuid4().hex
    parts: list[_Part] = []
    staging: Path | None = None
    for number, store in enumerate(cat.parts):
        if isinstance(store, FileStore):
            if staging is None:
                staging = Path(tempfile.mkdtemp(prefix="errcat-spark-"))
                # Spark serves the file from here until the context stops: removed when
                # the driver's context goes (at the latest when the process exits).
                weakref.finalize(context, shutil.rmtree, staging, ignore_errors=True)
            # A unique name: SparkFiles has one namespace and every index is ".errcat-index".
            name = f"errcat-{token}-{number}.errcat-index"
            _link_or_copy(store.index_path, staging / name)
            context.addFile(str(staging / name))
            files = tuple(str(f) for f in store._files)
            parts.append(_Part(name, store.identity, files, None))
        else:
            records = []
            for position in range(len(store)):
                envelope = store.envelope(position)
                if envelope is not None:
                    records.append(("envelope", envelope.model_dump_json(by_alias=True)))
                else:
                    records.append(
                        ("record", store.record(position).model_dump_json(by_alias=True))
                    )
            parts.append(_Part(None, None, (), context.broadcast(records)))
    history = cat.history
    shipped = _Shipped(
        token, tuple(parts), context.broadcast(history) if history is not None else None
    )
    _SHIPPED[key] = (context, cat, shipped)
    return shipped


class SparkWorkerError(ErrcatError, RuntimeError):
    """Spark's Python workers cannot import errcat (they run another Python)."""


_CHECKED: weakref.WeakSet[Any] = weakref.WeakSet()  # contexts whose workers import errcat


def _check_workers(context: Any) -> None:
    """Fail clearly, once per context, when the executors' Python cannot import errcat.

    Spark starts its Python workers with ``spark.pyspark.python`` or
    ``PYSPARK_PYTHON`` when the context starts, else ``python3`` from the PATH:
    from a virtual environment that is not activated, that Python has no errcat.
    """
    if context in _CHECKED:
        return

    def probe(_: Any) -> str:
        import errcat

        return errcat.__version__

    try:
        context.parallelize([0], 1).map(probe).collect()
    except Exception as exc:  # the worker's ModuleNotFoundError, wrapped by Py4J/Spark
        if "No module named 'errcat'" not in str(exc):
            raise
        used = context.pythonExec or "python3"
        raise SparkWorkerError(
            f"Spark's Python workers run {used!r}, which cannot import errcat. Start the "
            f"session with PYSPARK_PYTHON={sys.executable} set (or the spark.pyspark.python "
            "setting), or install errcat for that Python."
        ) from None
    _CHECKED.add(context)


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _label(path: str) -> str:
    """The path of a local file as ``errcat scan`` prints it; other URIs as Spark gives them."""
    if path.startswith("file:"):
        rest = unquote(path[len("file:") :])
        return "/" + rest.lstrip("/") if rest.startswith("/") else rest
    return path


def scan(
    spark: SparkSession,
    paths: str | Iterable[str],
    catalog: CatalogArg = None,
    *,
    recursive: bool = False,
) -> DataFrame:
    """The exception events of log files as a DataFrame with the columns of :data:`EVENT_SCHEMA`.

    ``paths`` are files, directories or globs Spark can read; ``recursive``
    reads directories to the bottom. Each file is read whole by one task
    (gzip and zstd are decompressed there). ``catalog`` defaults to the bundled
    one, or a path or several paths. A damaged file (cut short, corrupt) is
    scanned up to the damage, which the executor logs. Raises
    :class:`SparkWorkerError` when the executors' Python cannot import errcat.
    """
    shipped = _ship(spark, catalog)
    reader = spark.read.format("binaryFile")
    if recursive:
        reader = reader.option("recursiveFileLookup", "true")
    files = reader.load([paths] if isinstance(paths, str) else list(paths))

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pyarrow as pa

        cat = shipped.catalog()
        for batch in batches:
            names = batch.column("path").to_pylist()
            contents = batch.column("content")
            for number, name in enumerate(names):
                label = _label(name)
                data = contents[number].as_py()
                chunks = iter_log_bytes(io.BytesIO(data), label)
                rows: list[dict[str, Any]] = []
                try:
                    rows.extend(e.to_dict() for e in scan_chunks(chunks, label, catalog=cat))
                except LogSourceError as exc:  # damaged: what was read before is kept
                    logging.getLogger("errcat").warning("errcat.spark: %s", exc)
                if rows:
                    yield pa.RecordBatch.from_pylist(rows, schema=_arrow_event_schema())

    return files.select("path", "content").mapInArrow(run, EVENT_SCHEMA)


def _arrow_event_schema() -> pa.Schema:
    import pyarrow as pa

    return pa.schema(
        [
            ("path", pa.string()),
            ("start_line", pa.int32()),
            ("end_line", pa.int32()),
            ("error_class", pa.string()),
            ("message", pa.string()),
            ("record_id", pa.string()),
            ("confidence", pa.float64()),
            ("exact", pa.bool_()),
        ]
    )


def match_column(df: DataFrame, column: str, catalog: CatalogArg = None) -> DataFrame:
    """``df`` with the match of each row's text in ``column`` (the columns of :data:`MATCH_FIELDS`).

    Each value is matched whole, as :func:`errcat.match_error` matches a paste:
    ``record_id`` is null when no record is a confident answer (then
    ``confidence`` is 0 and ``exact`` false); ``error_class`` and ``message``
    are those of the matched exception, else of the last exception found, and
    null when the text holds none. For whole log files, use :func:`scan`.
    """
    from pyspark.sql.types import StructType

    existing = set(df.columns)
    clash = [name for name, _ in MATCH_FIELDS if name in existing]
    if clash:
        raise ValueError(f"match_column: the DataFrame already has column(s) {clash!r}")
    if column not in existing:
        raise ValueError(f"match_column: no column {column!r} in {sorted(existing)!r}")
    shipped = _ship(df.sparkSession, catalog)
    schema = StructType(list(df.schema.fields))
    for name, kind in MATCH_FIELDS:
        schema = schema.add(name, kind)

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pyarrow as pa

        cat = shipped.catalog()
        for batch in batches:
            found = [_match_text(text, cat) for text in batch.column(column).to_pylist()]
            arrays = list(batch.columns)
            names = list(batch.schema.names)
            for index, (name, kind) in enumerate(MATCH_FIELDS):
                values = [row[index] for row in found]
                arrays.append(pa.array(values, type=_ARROW_TYPES[kind]()))
                names.append(name)
            yield pa.RecordBatch.from_arrays(arrays, names=names)

    return df.mapInArrow(run, schema)


def _arrow_string() -> pa.DataType:
    import pyarrow as pa

    return pa.string()


def _arrow_double() -> pa.DataType:
    import pyarrow as pa

    return pa.float64()


def _arrow_bool() -> pa.DataType:
    import pyarrow as pa

    return pa.bool_()


_ARROW_TYPES = {"string": _arrow_string, "double": _arrow_double, "boolean": _arrow_bool}


def _match_text(text: str | None, catalog: Catalog) -> tuple[Any, ...]:
    """(error_class, message, record_id, confidence, exact) of one text."""
    if not text:
        return (None, None, None, 0.0, False)
    from errcat.extract import extract_reports
    from errcat.matcher import match_error

    match = match_error(text, catalog=catalog)
    if match is not None:
        report = match.report
        return (report.error_class, report.message, match.summary.id, match.confidence, match.exact)
    final = final_report(extract_reports(text), group=False)
    if final is None:
        return (None, None, None, 0.0, False)
    return (final.error_class, final.message, None, 0.0, False)


def summary(events: DataFrame) -> DataFrame:
    """Counts of events by record and class, most frequent first (as ``errcat scan --summary``).

    Columns: ``record_id``, ``error_class``, ``events``, ``files``.
    """
    from pyspark.sql import functions as F  # noqa: N812 - Spark's own convention

    return (
        events.groupBy("record_id", "error_class")
        .agg(F.count("*").alias("events"), F.countDistinct("path").alias("files"))
        .orderBy(F.desc("events"), F.asc_nulls_last("record_id"), F.asc("error_class"))
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m errcat.spark summary LOGS... -o OUT.parquet``: the per-record summary as Parquet.

    Exit status 0 when events were found, 1 when none, 2 on bad usage.
    """
    parser = argparse.ArgumentParser(
        prog="python -m errcat.spark", description="Scan logs for errors on Spark."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser(
        "summary",
        help="write the per-record summary of LOGS to Parquet",
        parents=[catalog_options()],
    )
    p.add_argument("logs", nargs="+", metavar="LOG", help="files, directories or globs")
    p.add_argument("-o", "--output", required=True, help="the Parquet directory to write")
    p.add_argument("--master", help="Spark master (default: the session's, local[*] alone)")
    p.add_argument("--recursive", action="store_true", help="read directories to the bottom")
    p.add_argument("--overwrite", action="store_true", help="replace OUTPUT if it exists")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        print(
            "errcat.spark: error: pyspark is missing: pip install 'errcat[spark]'", file=sys.stderr
        )
        return 2

    if not args.overwrite and "://" not in args.output and Path(args.output).exists():
        print(f"errcat.spark: error: {args.output} exists (use --overwrite)", file=sys.stderr)
        return 2
    try:
        catalog = catalog_from_args(args, sys.stderr, prog="errcat.spark")
    except (ErrcatError, ValueError) as exc:
        print(f"errcat.spark: error: {exc}", file=sys.stderr)
        return 2
    # Local workers run this Python (which has errcat) unless told otherwise.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName("errcat-summary")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    from pyspark.errors import AnalysisException

    try:
        table = summary(scan(spark, args.logs, catalog, recursive=args.recursive)).cache()
        table.write.mode("overwrite" if args.overwrite else "errorifexists").parquet(args.output)
    except AnalysisException as exc:  # a missing input, an existing output
        print(f"errcat.spark: error: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2
    total = table.agg({"events": "sum"}).collect()[0][0] or 0
    print(f"errcat.spark: {total} event(s), {table.count()} row(s) written to {args.output}")
    return 0 if total else 1


if __name__ == "__main__":
    sys.exit(main())
