"""The names of a data directory: its manifest, its data files and how each is read.

>>> is_compressed("records/sgl-project__sglang.jsonl.gz"), data_suffix("cat.JSONL.gz")
(True, '.jsonl')
>>> member_path_problem("records/x.jsonl") is None, member_path_problem("../x.jsonl")
(True, "'../x.jsonl' leads out of the data directory")
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "ARTIFACT_SUFFIX",
    "COMPRESSED_SUFFIX",
    "JSONL_SUFFIXES",
    "JSON_SUFFIXES",
    "MANIFEST_NAME",
    "SNIFFED_SUFFIXES",
    "SOURCES_NAME",
    "data_suffix",
    "is_compressed",
    "member_path_problem",
]

#: Name of the manifest file at the top of a data directory.
MANIFEST_NAME = "manifest.json"

#: Name of the file that says what a data directory was built from (never read as records).
SOURCES_NAME = "SOURCES.json"

#: A data file whose name ends with this (``cat.jsonl.gz``) is gzip-compressed; it is read
#: as the file without it would be, line numbers counted in the decompressed text.
COMPRESSED_SUFFIX = ".gz"

#: File name ending of a release artifact: a zip of ``manifest.json`` and ``records/*.jsonl``.
ARTIFACT_SUFFIX = ".zip"

#: File name endings read as JSON Lines, as one JSON document, or sniffed.
JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson"})
JSON_SUFFIXES = frozenset({".json"})
SNIFFED_SUFFIXES = frozenset({".txt"})


def is_compressed(name: str | os.PathLike[str]) -> bool:
    """True for a data file name that ends with :data:`COMPRESSED_SUFFIX`.

    >>> is_compressed("records/sgl-project__sglang.jsonl.gz"), is_compressed("cat.jsonl")
    (True, False)
    """
    return Path(name).name.lower().endswith(COMPRESSED_SUFFIX)


def data_suffix(name: str) -> str:
    """The suffix that says how a data file is read, with the compression suffix dropped.

    >>> data_suffix("cat.JSONL.gz"), data_suffix("one.json"), data_suffix("x.gz")
    ('.jsonl', '.json', '')
    """
    base = Path(name).name.lower()
    if base.endswith(COMPRESSED_SUFFIX):
        base = base[: -len(COMPRESSED_SUFFIX)]
    return Path(base).suffix


def member_path_problem(name: object) -> str | None:
    """Why a file name a manifest lists is not a file inside its data directory (None: it is).

    A name is a relative POSIX path (``records/x.jsonl``) without ``..``, ``.``
    or empty parts, backslashes, NUL or a drive: a manifest must not make a
    loader read (or a release build touch) a file outside the directory.
    """
    if not isinstance(name, str) or not name:
        return f"{name!r} is not a file name"
    parts = name.split("/")
    if ".." in parts:
        return f"{name!r} leads out of the data directory"
    if "\\" in name or "\0" in name or name.startswith("/") or ":" in parts[0]:
        return f"{name!r} is not a relative path inside the data directory"
    if "." in parts or "" in parts:
        return f"{name!r} is not a plain relative path (no '.' or empty parts)"
    return None
