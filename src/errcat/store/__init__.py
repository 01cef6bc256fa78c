"""Record stores: where a catalog's records live and how they are read.

:class:`MemoryStore` holds validated records. :class:`FileStore` serves a
large JSON Lines catalog without reading it: a stored index file (built once
per data release, written next to the data or in the cache directory) holds the
match index and a table of each record's few matching fields and byte offset.
Opening it memory-maps the file; a record body is read and validated only when
someone asks for that record.

The stored index is versioned and checksummed (CRC-32 per section); one built
for other data, by another format version, or on a machine of other byte order
is rebuilt, never trusted. It is not a pickle: it holds only strings and arrays.

The package's modules: :mod:`~errcat.store.base` (the protocol and its rows),
:mod:`~errcat.store.memory`, :mod:`~errcat.store.cache` (the user cache and
decompressed copies), :mod:`~errcat.store.build` (reading a source once),
:mod:`~errcat.store.format` (the file layout) and :mod:`~errcat.store.file`.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> store = MemoryStore([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])
>>> store.summary(0).error_class, store.position_of("bad-value-x")
('ValueError', 0)
"""

from errcat.store.base import (
    BASE_TAG_PREFIX,
    CALLER_CLASS_TAG,
    FUNCTION_TAG_PREFIX,
    WAS_TAG_PREFIX,
    RecordSummary,
    Store,
    file_tail,
)
from errcat.store.cache import CACHE_ENV, cache_dir, index_path_for, inflated_copy
from errcat.store.file import FileStore, open_file_store
from errcat.store.format import FORMAT_VERSION, StringTable
from errcat.store.memory import MemoryStore

__all__ = [
    "BASE_TAG_PREFIX",
    "CACHE_ENV",
    "CALLER_CLASS_TAG",
    "FORMAT_VERSION",
    "FUNCTION_TAG_PREFIX",
    "WAS_TAG_PREFIX",
    "FileStore",
    "MemoryStore",
    "RecordSummary",
    "Store",
    "StringTable",
    "cache_dir",
    "file_tail",
    "index_path_for",
    "inflated_copy",
    "open_file_store",
]
