"""Re-anchoring: move a catalog's records to the raise sites of a new mining run."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from errcat.errors import InvalidRecordError
from errcat.lint import is_draft
from errcat.mine.core import MineResult
from errcat.mine.pairing import Msg, follow_siblings
from errcat.mine.records import github_url
from errcat.models import GENERATED_TAG, ErrorRecord, RecordEnvelope
from errcat.store import BASE_TAG_PREFIX, FUNCTION_TAG_PREFIX, WAS_TAG_PREFIX

#: Similarity (difflib ratio of the two templates) from which a reworded message
#: is taken to be the same record (see :func:`reanchor`).
CHANGE_THRESHOLD = 0.6


@dataclass(frozen=True)
class ReanchorResult:
    """Existing records moved to a new commit, what became of the others, and the report.

    ``envelopes`` are the re-anchored records (and those of other repos, as
    they were); ``removed`` the records no raise site matched any more;
    ``new_envelopes`` the mined records that matched no existing record.
    ``report`` is ``{"moved": [ids], "changed": [{"id", "old", "new", "file",
    "line"}], "removed": [ids], "unchanged": [ids], "new": count}``.
    """

    envelopes: tuple[RecordEnvelope, ...]
    new_envelopes: tuple[RecordEnvelope, ...]
    removed: tuple[RecordEnvelope, ...]
    report: dict[str, Any]

    def summary(self) -> str:
        """The report as text, one line per moved, changed or removed record."""
        r = self.report
        lines = [
            f"re-anchored {len(r['unchanged']) + len(r['moved']) + len(r['changed'])} records: "
            f"{len(r['unchanged'])} unchanged, {len(r['moved'])} moved, "
            f"{len(r['changed'])} changed, {len(r['removed'])} removed; "
            f"{r['new']} new raise site messages"
        ]
        where = {e.record.id: e.record for e in self.envelopes}
        for rid in r["moved"]:
            rec = where[rid]
            lines.append(f"  moved    {rid} to {rec.file_path}:{rec.line_number}")
        for change in r["changed"]:
            lines.append(f"  changed  {change['id']} at {change['file']}:{change['line']}")
            lines.append(f"      old: {change['old']}")
            lines.append(f"      new: {change['new']}")
        for env in self.removed:
            rec = env.record
            lines.append(
                f"  removed  {rec.id} was at {rec.file_path}:{rec.line_number}: {rec.error_message}"
            )
        return "\n".join(lines)


#: The tag prefixes that state facts of the code at the raise site (the miner's, not a curator's).
_CODE_FACTS = (FUNCTION_TAG_PREFIX, WAS_TAG_PREFIX, BASE_TAG_PREFIX)


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _reanchored(old: RecordEnvelope, new: RecordEnvelope, *, reworded: bool) -> RecordEnvelope:
    n = new.record
    update: dict[str, Any] = {
        "file_path": n.file_path,
        "line_number": n.line_number,
        "source_code": n.source_code,
        "source_code_start": n.source_code_start,
        "source_code_end": n.source_code_end,
        "analyzed_sha": n.analyzed_sha,
        "analyzed_at": n.analyzed_at,
        "github_url": github_url(
            old.record.repo, n.analyzed_sha, n.file_path, n.source_code_start, n.source_code_end
        ),
    }
    if reworded:
        update["error_message"] = n.error_message
        update["message_pattern"] = n.message_pattern
    update.update(_advice_update(old.record, n))
    # Which function raises it, the builtin its class derives from and the classes older
    # revisions raised it as are facts of the code, like its line: the new run's. (A
    # curated record that lost ``errcat:was:ValueError`` disagreed with every paste of
    # vllm's older ``ValueError: max_tokens must be at least 1, got 0``.)
    kept = [t for t in update.get("tags", old.record.tags) if not t.startswith(_CODE_FACTS)]
    update["tags"] = (*kept, *(t for t in n.tags if t.startswith(_CODE_FACTS)))
    record = old.record.model_copy(update=update)
    envelope = old.model_copy(update={"record": record, "dataset_version": new.dataset_version})
    # model_copy does not validate: check the result as a release would.
    return RecordEnvelope.model_validate(envelope.model_dump(mode="json"))


def _msg(envelope: RecordEnvelope) -> Msg:
    r = envelope.record
    return Msg(r.id, r.file_path, r.line_number, r.error_class, r.error_message)


#: The fields the miner writes from the code (see errcat.mine.advice).
_ADVICE_FIELDS = (
    "documentation",
    "trigger_scenarios",
    "solutions",
    "example_fix",
    "prevention_tips",
    "validation_code",
    "type_guard",
)


def _advice_update(old: ErrorRecord, new: ErrorRecord) -> dict[str, Any]:
    """The advice a re-anchored record takes from the new run: only where none is curated.

    A record whose advice was generated (tag ``errcat:generated``) or that is
    still an empty draft takes the freshly generated advice; a curated record
    keeps every word of its own.
    """
    if GENERATED_TAG not in new.tags or not (GENERATED_TAG in old.tags or is_draft(old)):
        return {}
    update: dict[str, Any] = {name: getattr(new, name) for name in _ADVICE_FIELDS}
    if GENERATED_TAG not in old.tags:
        update["tags"] = (*old.tags, GENERATED_TAG)
    return update


def _similarity(a: str, b: str) -> float:
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def reanchor(
    old_envelopes: Iterable[RecordEnvelope], mine_result: MineResult | Iterable[RecordEnvelope]
) -> ReanchorResult:
    """Move existing records to the raise sites of a new mining run, keeping their curation.

    Records are matched to mined records in three passes:

    1. by id (ids do not depend on line numbers);
    2. by identical template, preferring the same file, then the same class,
       then the nearest line;
    3. the *nearest-template rule*: a record still unmatched and a mined record
       still unmatched in the **same file**, raising the **same class** (last
       dotted component), whose templates have a difflib similarity of at least
       :data:`CHANGE_THRESHOLD` are paired, best similarity first (ties: nearest
       line);
    4. *follow the siblings* (:func:`errcat.mine.pairing.follow_siblings`): a
       record still unmatched is looked for, by the same rule, in the files
       where the other records of its old file moved (code moved to another
       file and reworded in the same change).

    Passes 1-2 give ``unchanged`` (same file and line) or ``moved``; passes 3-4 give
    ``changed``, and only then does the record take the new template and
    pattern. Every matched record keeps its id, slug, class and curated fields
    and gets the new file, line, snippet, span, URL, sha and ``analyzedAt``;
    curated advice is never overwritten, but a record whose advice was
    generated (or is still empty) takes the newly generated advice. A
    record that is not matched is ``removed``: it is left out of the re-anchored
    envelopes and returned in ``removed``. Mined records that no record matched
    are ``new`` (the count is of messages at raise sites). Records of other
    repos are kept as they are and not reported.
    """
    if isinstance(mine_result, MineResult):
        mined = list(mine_result.envelopes)
        repos = {mine_result.repo}
    else:
        mined = list(mine_result)
        repos = {e.record.repo for e in mined}
    olds = list(old_envelopes)
    ours = [e for e in olds if not repos or e.record.repo in repos]
    others = [e for e in olds if repos and e.record.repo not in repos]
    seen_ids: set[str] = set()
    for env in ours:
        if env.record.id in seen_ids:
            raise InvalidRecordError(
                "duplicate record id in the catalog", field="id", record_id=env.record.id
            )
        seen_ids.add(env.record.id)

    taken: set[int] = set()
    matched: dict[str, tuple[RecordEnvelope, RecordEnvelope, str]] = {}
    by_id = {e.record.id: i for i, e in enumerate(mined)}
    by_template: defaultdict[str, list[int]] = defaultdict(list)
    by_file: defaultdict[str, list[int]] = defaultdict(list)
    for index, env in enumerate(mined):
        by_template[env.record.error_message].append(index)
        by_file[env.record.file_path].append(index)
    for env in ours:
        found = by_id.get(env.record.id)
        if found is not None:
            taken.add(found)
            matched[env.record.id] = (env, mined[found], "same")

    def assign(kind: str, candidates: list[tuple[tuple[float, ...], int, int]]) -> None:
        candidates.sort()
        for _key, old_index, new_index in candidates:
            old = ours[old_index]
            if old.record.id in matched or new_index in taken:
                continue
            taken.add(new_index)
            matched[old.record.id] = (old, mined[new_index], kind)

    same: list[tuple[tuple[float, ...], int, int]] = []
    for old_index, env in enumerate(ours):
        o = env.record
        if o.id in matched:
            continue
        for new_index in by_template.get(o.error_message, ()):
            n = mined[new_index].record
            key = (
                float(o.file_path != n.file_path),
                float(_short(o.error_class) != _short(n.error_class)),
                float(abs(o.line_number - n.line_number)),
            )
            same.append((key, old_index, new_index))
    assign("same", same)

    near: list[tuple[tuple[float, ...], int, int]] = []
    for old_index, env in enumerate(ours):
        o = env.record
        if o.id in matched:
            continue
        for new_index in by_file.get(o.file_path, ()):
            n = mined[new_index].record
            if new_index in taken or _short(o.error_class) != _short(n.error_class):
                continue
            ratio = _similarity(o.error_message, n.error_message)
            if ratio >= CHANGE_THRESHOLD:
                near.append(
                    (((-ratio), float(abs(o.line_number - n.line_number))), old_index, new_index)
                )
    assign("changed", near)

    # 4. Code that moved to another file and was reworded in the same change: look
    # for the record where its siblings from its old file went.
    old_at = {e.record.id: i for i, e in enumerate(ours)}
    new_at = {id(e): j for j, e in enumerate(mined)}
    done = [(old_at[rid], new_at[id(new)]) for rid, (_old, new, _kind) in matched.items()]
    for i, j in follow_siblings([_msg(e) for e in ours], [_msg(e) for e in mined], done):
        taken.add(j)
        matched[ours[i].record.id] = (ours[i], mined[j], "changed")

    report: dict[str, Any] = {"moved": [], "changed": [], "removed": [], "unchanged": []}
    out: list[RecordEnvelope] = list(others)
    removed: list[RecordEnvelope] = []
    for env in ours:
        rid = env.record.id
        if rid not in matched:
            report["removed"].append(rid)
            removed.append(env)
            continue
        old, new, kind = matched[rid]
        o, n = old.record, new.record
        if kind == "changed":
            report["changed"].append(
                {
                    "id": rid,
                    "old": o.error_message,
                    "new": n.error_message,
                    "file": n.file_path,
                    "line": n.line_number,
                }
            )
        elif (o.file_path, o.line_number) == (n.file_path, n.line_number):
            report["unchanged"].append(rid)
        else:
            report["moved"].append(rid)
        out.append(_reanchored(old, new, reworded=kind == "changed"))
    for name in ("moved", "removed", "unchanged"):
        report[name].sort()
    report["changed"].sort(key=lambda c: c["id"])
    new_envs = tuple(e for i, e in enumerate(mined) if i not in taken)
    report["new"] = len(new_envs)
    out.sort(key=lambda e: (e.record.repo, e.record.file_path, e.record.line_number, e.record.id))
    return ReanchorResult(tuple(out), new_envs, tuple(removed), report)
