"""A candidate's records of one kind, for a report without frames: their evidence worked out once.

A message raised at many sites (copies across projects, the tied groups of tens or
hundreds of records on the 100k benchmark catalog) is scored record by record in
:meth:`errcat.matcher.collect._Collector.add`. For a report without frames (a bare
line, a title) what :func:`~errcat.matcher.record_evidence.record_site` and
:func:`~errcat.matcher.record_evidence.record_evidence` read of a record is its
class, project, tags and template only: its file and line meet no frame, its id
no history (asked only with frames). So records alike in those four (:func:`kind_of`)
have one evidence, and :class:`EvidenceMemo` holds it for the rest of the candidate's
records (everything else those functions read is the candidate's or the report's,
but for a record whose statement the raise frame prints: there are frames then).

A family record's site is its scope (a directory, :func:`~errcat.matcher.family.family_site`):
it has no kind, and is worked out on its own.

>>> from errcat.store import RecordSummary
>>> one = RecordSummary("a", "s", "ValueError", "x/a.py", 3, "o/p", "bad {x}", ())
>>> kind_of(one) == kind_of(one._replace(id="b", slug="t", file_path="y/b.py", line_number=9))
True
>>> kind_of(one) == kind_of(one._replace(repo="o/q")), kind_of(one._replace(tags=(FAMILY_TAG,)))
(False, None)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from errcat.store import RecordSummary
from errcat.tags import FAMILY_TAG

if TYPE_CHECKING:
    from errcat.evidence import FrameEvidence
    from errcat.matcher.record_evidence import RecordEvidence

__all__ = ["EvidenceMemo", "kind_of"]

#: What a record's evidence depends on without frames: class, project, tags, template.
_Kind = tuple[str, str, tuple[str, ...], str]


def kind_of(record: RecordSummary) -> _Kind | None:
    """The fields a record's evidence against a report without frames reads (None: a family's)."""
    if FAMILY_TAG in record.tags:
        return None
    return (record.error_class, record.repo, record.tags, record.error_message)


class EvidenceMemo:
    """Each kind of record's site and evidence, for one candidate on a report without frames.

    ``enabled`` only for such a report (with frames, a record's file and line are
    evidence): else, and for a family record, :meth:`kind` is None (nothing is held for it).

    >>> memo = EvidenceMemo(enabled=True)
    >>> rec = RecordSummary("a", "s", "ValueError", "x/a.py", 3, "o/p", "bad {x}", ())
    >>> memo.sites[memo.kind(rec)] = ("agree", None, False)
    >>> memo.sites.get(memo.kind(rec._replace(id="b", line_number=8)))
    ('agree', None, False)
    >>> EvidenceMemo(enabled=False).kind(rec) is None
    True
    """

    __slots__ = ("enabled", "evidence", "sites")

    def __init__(self, *, enabled: bool) -> None:
        self.enabled = enabled
        #: Each kind's :func:`~errcat.matcher.record_evidence.record_site`.
        self.sites: dict[_Kind, tuple[str, FrameEvidence, bool]] = {}
        #: Each kind's :func:`~errcat.matcher.record_evidence.record_evidence`.
        self.evidence: dict[_Kind, RecordEvidence] = {}

    def kind(self, record: RecordSummary) -> _Kind | None:
        """The record's kind (:func:`kind_of`) when the memo is on, else None."""
        return kind_of(record) if self.enabled else None
