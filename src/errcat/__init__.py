"""errcat: turn a raw Python error into the catalog record that explains it.

Paste anything that holds an error (a traceback, a log excerpt, a bare
``ValueError: ...`` line) and get the record with its solutions and example fix:

>>> import errcat
>>> m = errcat.match_error(
...     "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend. "
...     "Select another --speculative-moe-a2a-backend."
... )
>>> m.record.file_path, m.record.line_number, m.exact
('python/sglang/srt/arg_groups/moe_hook.py', 635, True)
>>> print(errcat.Advice.from_match(m).solutions[0])
Set --speculative-moe-a2a-backend deepep (or another supported backend) explicitly for the draft

Look records up by id or slug, browse a :class:`Catalog`, or load other data:

>>> errcat.lookup("3fe9ad44079a5344").error_class
'ValueError'
>>> len(errcat.Catalog.bundled().filter(tag="deepep")) >= 1
True

Nothing is read at import time: the bundled catalog is loaded on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from errcat._version import __version__

if TYPE_CHECKING:
    from errcat.advice import Advice
    from errcat.batch import match_many
    from errcat.catalog import Catalog
    from errcat.errors import (
        CatalogSourceError,
        ErrcatError,
        InvalidPatternError,
        InvalidRecordError,
        UnknownRecordError,
    )
    from errcat.extract import ExceptionReport, Frame, extract_reports
    from errcat.matcher import CONFIDENCE_THRESHOLD, Match, match_all, match_error
    from errcat.models import ErrorRecord, RecordEnvelope

    DATA_VERSION: str

__all__ = [
    "CONFIDENCE_THRESHOLD",
    "DATA_VERSION",
    "Advice",
    "Catalog",
    "CatalogSourceError",
    "ErrcatError",
    "ErrorRecord",
    "ExceptionReport",
    "Frame",
    "InvalidPatternError",
    "InvalidRecordError",
    "Match",
    "RecordEnvelope",
    "UnknownRecordError",
    "__version__",
    "extract_reports",
    "lookup",
    "match_all",
    "match_error",
    "match_many",
]

# Public names and the module that defines each: imported on first use, so that
# `import errcat` stays cheap (no pydantic, no data) for tools that may never match.
_LAZY = {
    "Advice": "errcat.advice",
    "match_many": "errcat.batch",
    "Catalog": "errcat.catalog",
    "CatalogSourceError": "errcat.errors",
    "ErrcatError": "errcat.errors",
    "InvalidPatternError": "errcat.errors",
    "InvalidRecordError": "errcat.errors",
    "UnknownRecordError": "errcat.errors",
    "ExceptionReport": "errcat.extract",
    "Frame": "errcat.extract",
    "extract_reports": "errcat.extract",
    "CONFIDENCE_THRESHOLD": "errcat.matcher",
    "Match": "errcat.matcher",
    "match_all": "errcat.matcher",
    "match_error": "errcat.matcher",
    "ErrorRecord": "errcat.models",
    "RecordEnvelope": "errcat.models",
}


def lookup(id_or_slug: str, catalog: Catalog | None = None) -> ErrorRecord:
    """The record with this id or slug (the default catalog unless ``catalog`` is given).

    Raises :class:`UnknownRecordError` (a ``LookupError``) when there is none.

    >>> lookup("no-such-record")
    Traceback (most recent call last):
    ...
    errcat.errors.UnknownRecordError: Unknown record: 'no-such-record'
    """
    from errcat.catalog import Catalog

    return (catalog if catalog is not None else Catalog.default())[id_or_slug]


def __getattr__(name: str) -> Any:
    # Public names are imported on first access; DATA_VERSION is read from the
    # bundled manifest on first access, not at import.
    if name == "DATA_VERSION":
        from errcat.sources import bundled_data_version

        value: Any = bundled_data_version()
    elif name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'errcat' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
