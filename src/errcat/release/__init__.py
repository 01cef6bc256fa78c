"""Versioned data releases: check, build, diff and the release artifact.

A data directory holds one JSON Lines file per repo and a manifest.
:func:`check` validates every record strictly and lints it (the rules are in
:mod:`errcat.lint`); :func:`build` rewrites the directory canonically, writes
the manifest and a single-file release artifact (``dist/errcat-data-<data
version>.zip``, which ``Catalog.from_path`` loads), and refuses when the check
finds errors; :func:`diff` says what a release added, changed and withdrew, as
Markdown for the CHANGELOG or as JSON.

>>> import json, tempfile
>>> from pathlib import Path
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> env = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)
>>> with tempfile.TemporaryDirectory() as tmp:
...     data = Path(tmp) / "data"
...     _ = write_data_dir(data, [env])
...     first = build(data, version="2026-09-01T00:00:00Z")
...     fixed = env.record.model_copy(update={"solutions": ("Pass x=1",)})
...     _ = write_data_dir(data, [env.model_copy(update={"record": fixed})])
...     report = check([data])
...     second = build(data, version="2026-09-02T00:00:00Z")
...     notes = diff(first.artifact, second.artifact).to_markdown()
>>> report.ok, first.artifact.name, second.manifest["previous"]
(True, 'errcat-data-2026-09-01T000000Z.zip', '2026-09-01T00:00:00Z')
>>> print(notes)
- Data version 2026-09-02T00:00:00Z (since 2026-09-01T00:00:00Z): 1 record; 0 added,
  1 changed, 0 withdrawn.
  - Changed `ValueError: bad value {x!r}` (0123456789abcdef): solutions.

The manifest keeps ``dataVersion`` (by default the newest ``datasetVersion``
of the records), ``schemaVersion``, ``count`` and each file's ``count`` and
``sha256``; ``release build`` adds ``codeVersion`` (the errcat that built it),
``previous`` (the data version it follows), ``counts`` by repo and class,
``drafts``, the release configuration (``allowDrafts``, ``withdrawn``) and the
``ids`` it holds, so that a record dropped without a withdrawal is caught.

The package's modules, one job each: :mod:`~errcat.release.datadir` (canonical
files and manifests), :mod:`~errcat.release.source` (reading a release and its
configuration), :mod:`~errcat.release.check`, :mod:`~errcat.release.build`,
:mod:`~errcat.release.diff` and :mod:`~errcat.release.command` (``errcat release``).
"""

from errcat.release.build import (
    ARTIFACT_PREFIX,
    BuildResult,
    ReleaseRefusedError,
    artifact_name,
    build,
)
from errcat.release.check import CheckReport, check
from errcat.release.command import add_arguments, run
from errcat.release.datadir import (
    canonical_files,
    compressed,
    content_digest,
    records_file_name,
    write_data_dir,
)
from errcat.release.diff import RecordChange, ReleaseDiff, diff, diff_records
from errcat.release.source import ReleaseSource, Withdrawal, read_source

__all__ = [
    "ARTIFACT_PREFIX",
    "BuildResult",
    "CheckReport",
    "RecordChange",
    "ReleaseDiff",
    "ReleaseRefusedError",
    "ReleaseSource",
    "Withdrawal",
    "add_arguments",
    "artifact_name",
    "build",
    "canonical_files",
    "check",
    "compressed",
    "content_digest",
    "diff",
    "diff_records",
    "read_source",
    "records_file_name",
    "run",
    "write_data_dir",
]
