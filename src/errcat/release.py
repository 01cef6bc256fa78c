"""Write a data directory in canonical form: one JSON Lines file per repo and a manifest.

The manifest records the data version (the newest ``datasetVersion`` of the
records), the schema version, the record count and each file's count and sha256.

>>> import tempfile
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> env = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)
>>> with tempfile.TemporaryDirectory() as tmp:
...     manifest = write_data_dir(tmp, [env])
>>> manifest["dataVersion"], manifest["count"], sorted(manifest["files"])
('2026-08-28T06:17:29.519Z', 1, ['records/example__project.jsonl'])
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from errcat.loaders import MANIFEST_NAME, sha256_file, write_jsonl
from errcat.models import SCHEMA_VERSION, RecordEnvelope, format_timestamp

__all__ = ["records_file_name", "write_data_dir"]


def records_file_name(repo: str) -> str:
    """The file, relative to a data directory, that holds a repo's records.

    >>> records_file_name("sgl-project/sglang")
    'records/sgl-project__sglang.jsonl'
    """
    return "records/" + repo.replace("/", "__") + ".jsonl"


def _sort_key(envelope: RecordEnvelope) -> tuple[str, int, str]:
    record = envelope.record
    return (record.file_path, record.line_number, record.id)


def write_data_dir(
    directory: str | os.PathLike[str], envelopes: Iterable[RecordEnvelope]
) -> dict[str, Any]:
    """Write ``envelopes`` to ``directory`` canonically and return the manifest written.

    Records are grouped by repo, sorted by file, line and id, and written one
    JSON object per line. Files of repos that no longer have records are removed.
    """
    root = Path(directory)
    by_repo: dict[str, list[RecordEnvelope]] = defaultdict(list)
    for envelope in envelopes:
        by_repo[envelope.record.repo].append(envelope)
    (root / "records").mkdir(parents=True, exist_ok=True)
    files: dict[str, dict[str, Any]] = {}
    versions: list[datetime] = []
    for repo in sorted(by_repo):
        name = records_file_name(repo)
        group = sorted(by_repo[repo], key=_sort_key)
        count = write_jsonl(root / name, group)
        files[name] = {"count": count, "sha256": sha256_file(root / name)}
        versions.extend(e.dataset_version for e in group)
    for stale in (root / "records").glob("*.jsonl"):
        if f"records/{stale.name}" not in files:
            stale.unlink()
    manifest: dict[str, Any] = {
        "dataVersion": format_timestamp(max(versions)) if versions else None,
        "schemaVersion": SCHEMA_VERSION,
        "count": sum(meta["count"] for meta in files.values()),
        "files": files,
    }
    (root / MANIFEST_NAME).write_text(
        json.dumps(manifest, indent=2, sort_keys=False) + "\n", encoding="utf-8"
    )
    return manifest
