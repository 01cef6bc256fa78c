"""``release diff``: what a release added, changed and withdrew, for the CHANGELOG or as JSON."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from errcat.errors import InvalidRecordError
from errcat.models import ErrorRecord
from errcat.release.source import ReleaseSource, Withdrawal, parse_withdrawn, read_source

__all__ = ["RecordChange", "ReleaseDiff", "diff", "diff_records"]


#: Record fields that only say where the message is raised (a re-anchored record).
_LOCATION_FIELDS = frozenset(
    {
        "lineNumber",
        "sourceCode",
        "sourceCodeStart",
        "sourceCodeEnd",
        "githubUrl",
        "analyzedSha",
        "analyzedAt",
    }
)


@dataclass(frozen=True)
class RecordChange:
    """A record present in both releases whose fields differ."""

    old: ErrorRecord
    new: ErrorRecord
    fields: tuple[str, ...]

    @property
    def pattern_changed(self) -> bool:
        """True when ``messagePattern`` changed: what the record matches changed."""
        return "messagePattern" in self.fields

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        out: dict[str, Any] = {**_summary(self.new), "fields": list(self.fields)}
        out["patternChanged"] = self.pattern_changed
        if self.pattern_changed:
            out["pattern"] = {"old": self.old.message_pattern, "new": self.new.message_pattern}
        return out


def _summary(record: ErrorRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "slug": record.slug,
        "repo": record.repo,
        "errorClass": record.error_class,
        "errorMessage": record.error_message,
        "location": f"{record.file_path}:{record.line_number}",
    }


@dataclass(frozen=True)
class ReleaseDiff:
    """What changed between two releases: records added, changed and withdrawn.

    A withdrawn record without an entry in the new release's ``withdrawn``
    list (``withdrawal`` is None) was dropped silently: :attr:`ok` is False.
    """

    old_version: str | None
    new_version: str | None
    old_count: int
    new_count: int
    added: tuple[ErrorRecord, ...]
    changed: tuple[RecordChange, ...]
    withdrawn: tuple[tuple[ErrorRecord, Withdrawal | None], ...]

    @property
    def unlisted(self) -> list[ErrorRecord]:
        """Records missing from the new release that its manifest does not list as withdrawn."""
        return [record for record, why in self.withdrawn if why is None]

    @property
    def ok(self) -> bool:
        """True when no record was dropped silently."""
        return not self.unlisted

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "old": {"dataVersion": self.old_version, "count": self.old_count},
            "new": {"dataVersion": self.new_version, "count": self.new_count},
            "added": [_summary(r) for r in self.added],
            "changed": [c.to_dict() for c in self.changed],
            "withdrawn": [
                {
                    **_summary(r),
                    "reason": w.reason if w else None,
                    "listed": w is not None,
                }
                for r, w in self.withdrawn
            ],
            "ok": self.ok,
        }

    def to_markdown(self) -> str:
        """Release notes for the ``Data`` group of the CHANGELOG, one bullet per record."""
        head = f"Data version {self.new_version or 'unversioned'}"
        if self.old_version and self.old_version != self.new_version:
            head += f" (since {self.old_version})"
        parts = [
            f"{len(self.added)} added",
            f"{len(self.changed)} changed",
            f"{len(self.withdrawn)} withdrawn",
        ]
        plural = "" if self.new_count == 1 else "s"
        lines = [f"- {head}: {self.new_count} record{plural}; {', '.join(parts)}."]
        for record in self.added:
            lines.append(
                f"  - Added {_md_code(record.title)} ({record.id}, "
                f"{_md_code(f'{record.file_path}:{record.line_number}')} in {record.repo})."
            )
        for change in self.changed:
            what: list[str] = []
            if change.pattern_changed:
                what.append(
                    f"**pattern changed** (what it matches changed): "
                    f"{_md_code(change.old.message_pattern)} → "
                    f"{_md_code(change.new.message_pattern)}"
                )
            rest = [f for f in change.fields if f != "messagePattern"]
            if rest and set(rest) <= _LOCATION_FIELDS:
                what.append(
                    f"re-anchored ({change.old.line_number} → {change.new.line_number}: "
                    f"{', '.join(rest)})"
                )
            elif rest:
                what.append(", ".join(rest))
            lines.append(
                f"  - Changed {_md_code(change.new.title)} ({change.new.id}): {'; '.join(what)}."
            )
        for record, why in self.withdrawn:
            reason = why.reason if why else "**not listed as withdrawn in the new manifest**"
            lines.append(f"  - Withdrawn {_md_code(record.title)} ({record.id}): {reason}.")
        return "\n".join(lines)


def _md_code(text: str) -> str:
    """Inline Markdown code that survives backticks and newlines in the text."""
    flat = " ".join(text.split())
    fence = "`"
    while fence in flat:
        fence += "`"
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def _fields_differ(old: ErrorRecord, new: ErrorRecord) -> tuple[str, ...]:
    a = old.model_dump(mode="json")
    b = new.model_dump(mode="json")
    keys = list(a) + [k for k in b if k not in a]
    return tuple(k for k in keys if a.get(k) != b.get(k))


def diff_records(
    old: Mapping[str, ErrorRecord],
    new: Mapping[str, ErrorRecord],
    *,
    withdrawn: Iterable[Withdrawal] = (),
    old_version: str | None = None,
    new_version: str | None = None,
) -> ReleaseDiff:
    """Compare two sets of records by id; ``withdrawn`` is the new release's withdrawn list.

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> a = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> b = a.model_copy(update={"solutions": ("Pass x=1",)})
    >>> d = diff_records({a.id: a}, {b.id: b})
    >>> [c.fields for c in d.changed], d.added, d.withdrawn
    ([('solutions',)], (), ())
    """
    reasons = {w.id: w for w in withdrawn}
    added = tuple(new[i] for i in sorted(new.keys() - old.keys()))
    gone = tuple((old[i], reasons.get(i)) for i in sorted(old.keys() - new.keys()))
    changed = []
    for rid in sorted(old.keys() & new.keys()):
        fields = _fields_differ(old[rid], new[rid])
        if fields:
            changed.append(RecordChange(old[rid], new[rid], fields))
    return ReleaseDiff(old_version, new_version, len(old), len(new), added, tuple(changed), gone)


def _records_of(source: ReleaseSource) -> dict[str, ErrorRecord]:
    for item in source.items:
        if item.problem is not None:
            raise item.problem
    return {e.record.id: e.record for e in source.envelopes}


def diff(old: str | os.PathLike[str], new: str | os.PathLike[str]) -> ReleaseDiff:
    """Compare two releases (data directories, manifest files or release artifacts)."""
    old_source = read_source(old, strict=False)
    new_source = read_source(new, strict=False)
    withdrawn, problems = parse_withdrawn(new_source)
    if problems:
        raise InvalidRecordError(problems[0].message, path=problems[0].path, line=problems[0].line)
    return diff_records(
        _records_of(old_source),
        _records_of(new_source),
        withdrawn=withdrawn,
        old_version=old_source.data_version,
        new_version=new_source.data_version,
    )
