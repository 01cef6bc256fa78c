r"""Curated records keep answering the wording and place they were written for.

Re-anchoring (:func:`errcat.mine.reanchor`) moves a curated record to where
its check is raised now, and to its new wording when the message changed:
the record keeps its id and text. A paste from the release the curator wrote
it for still shows the old wording, raised at the old place. :func:`old_wordings`
gives, for each curated record that took a new wording, a copy as it was
(old message, file, line, snippet and link, the curated text) under an id of
its own; :func:`curated_history` puts the revisions the curated records were
written at into a history, so that the old copy is a lineage reworded into the
curated record and a moved record still fits a traceback through its old line.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> old = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)
>>> new = old.model_copy(
...     update={"record": old.record.model_copy(update={"error_message": "bad x {x!r}"})}
... )
>>> [copy] = old_wordings({old.record.id: old}, [new])
>>> copy.record.error_message, copy.record.id != old.record.id
('bad value {x!r}', True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from errcat.history import History, Lineage, Revision, Site
from errcat.mine.records import record_id
from errcat.models import RecordEnvelope

__all__ = ["OLD_WORDING", "curated_history", "old_wording_id", "old_wordings"]

#: What the id of an old wording's copy is derived from, beside repo, file and template.
OLD_WORDING = "curated-old-wording"


def old_wording_id(envelope: RecordEnvelope) -> str:
    """The id of the copy of a curated record that keeps its old wording (stable)."""
    r = envelope.record
    return record_id(r.repo, r.file_path, r.error_message, OLD_WORDING, r.id)


def old_wordings(
    before: Mapping[str, RecordEnvelope], after: Sequence[RecordEnvelope]
) -> list[RecordEnvelope]:
    """Copies, as they were, of the curated records that re-anchoring gave a new wording.

    ``before`` holds the curated records as read (by id), ``after`` the
    re-anchored ones. Each copy keeps the old message, pattern, place and
    link, and the curated text.
    """
    out = []
    for envelope in after:
        old = before.get(envelope.record.id)
        if old is None or old.record.error_message == envelope.record.error_message:
            continue
        record = old.record.model_copy(update={"id": old_wording_id(old)})
        out.append(old.model_copy(update={"record": record}))
    return out


def _revision_of(envelope: RecordEnvelope, known: Mapping[str, Revision]) -> Revision:
    r = envelope.record
    found = known.get(r.analyzed_sha)
    if found is not None:
        return found
    return Revision(r.analyzed_at.strftime("%Y-%m-%d"), r.analyzed_sha, r.analyzed_at)


def curated_history(
    history: History,
    before: Mapping[str, RecordEnvelope],
    copies: Sequence[RecordEnvelope],
) -> History:
    """The history with the revisions the curated records were written at.

    A copy of an old wording is a lineage at its revision, reworded into the
    curated record (the curated record's lineage names it as predecessor); a
    curated record whose old place is not in its lineage gets that site too,
    so that a traceback through the old line fits it.
    """
    known = {r.sha: r for r in history.revisions}
    copy_of = {c.record.id: c for c in copies}
    original = {old_wording_id(before[rid]): rid for rid in before}
    revisions = dict(known)
    lineages: dict[str, Lineage] = {lin.record_id: lin for lin in history}
    for copy_id, copy in copy_of.items():
        curated_id = original.get(copy_id)
        if curated_id is None:
            continue
        revision = _revision_of(copy, known)
        revisions.setdefault(revision.sha, revision)
        site = Site(revision, copy.record.file_path, copy.record.line_number)
        lineages[copy_id] = Lineage(copy_id, (site,), successor=curated_id)
        current = lineages.get(curated_id)
        if current is not None and current.predecessor is None:
            lineages[curated_id] = dataclasses.replace(current, predecessor=copy_id)
    for rid, old in before.items():
        current = lineages.get(rid)
        if current is None or old_wording_id(old) in copy_of:
            continue
        revision = _revision_of(old, known)
        if revision.sha in {s.revision.sha for s in current.sites}:
            continue
        revisions.setdefault(revision.sha, revision)
        site = Site(revision, old.record.file_path, old.record.line_number)
        sites = sorted((*current.sites, site), key=lambda s: s.revision.date)
        lineages[rid] = dataclasses.replace(current, sites=tuple(sites))
    ordered = sorted(revisions.values(), key=lambda r: r.date)
    newest = history.revisions[-1] if history.revisions else None
    if newest is not None and ordered[-1].sha != newest.sha:
        # The newest revision stays the newest: it tells a current message from a removed one.
        ordered = [r for r in ordered if r.sha != newest.sha] + [newest]
    return History(history.repo, ordered, lineages.values())
