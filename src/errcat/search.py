"""Word and filter search over a catalog's records, read from their summaries.

A search holds each record's summary (id, slug, class, message, file, line,
repo, tags) and one lower-cased string to look words up in, built on first use
under a lock: never the full records, whose documentation and advice would
cost hundreds of MiB for the bundled catalog. The HTTP server's
``/v1/records`` and the MCP tool ``search_records`` both use it.

>>> from errcat.catalog import Catalog
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> catalog = Catalog([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])
>>> search = RecordSearch(catalog)
>>> [s.slug for s in search.find(["BAD", "value"])]
['bad-value-x']
>>> search.find(["bad"], repo="someone/else")
[]
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from errcat.catalog import Catalog
    from errcat.store import RecordSummary

__all__ = ["RecordSearch"]


class RecordSearch:
    """Records whose class, message, slug, file or id hold every word, filtered; thread-safe."""

    def __init__(self, catalog: Catalog) -> None:
        """Nothing is read until the first :meth:`find`."""
        self.catalog = catalog
        self._rows: list[tuple[RecordSummary, str]] | None = None
        self._lock = threading.Lock()

    def rows(self) -> list[tuple[RecordSummary, str]]:
        """Each visible record's summary and the lower-cased text its words are found in."""
        with self._lock:
            if self._rows is None:
                rows = []
                for number, store in enumerate(self.catalog.parts):
                    for position in range(len(store)):
                        summary = store.summary(position)
                        if self.catalog.hidden(number, summary.id):
                            continue  # overridden by a later source
                        haystack = (
                            f"{summary.error_class}: {summary.error_message} {summary.slug} "
                            f"{summary.file_path} {summary.id}"
                        ).lower()
                        rows.append((summary, haystack))
                self._rows = rows
            return self._rows

    def find(
        self,
        words: Sequence[str] = (),
        *,
        repo: str | None = None,
        error_class: str | None = None,
        tag: str | None = None,
    ) -> list[RecordSummary]:
        """The summaries matching every filter given and holding every word (any case).

        ``error_class`` is the full class or its last dotted part.
        """
        needles = [w.lower() for w in words]
        found = []
        for summary, haystack in self.rows():
            if repo and summary.repo != repo:
                continue
            if error_class and error_class not in {
                summary.error_class,
                summary.error_class.rsplit(".", 1)[-1],
            }:
                continue
            if tag and tag not in summary.tags:
                continue
            if any(n not in haystack for n in needles):
                continue
            found.append(summary)
        return found
